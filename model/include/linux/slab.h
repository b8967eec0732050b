/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/slab.h> over the host's allocator
 * (model_runtime.c), counting what is live so that a test can assert that
 * nothing leaked. kfree(NULL) does nothing, as in the kernel.
 */
#ifndef MODEL_LINUX_SLAB_H
#define MODEL_LINUX_SLAB_H
#include <linux/types.h>

#define GFP_ATOMIC	0x20u
#define GFP_KERNEL	0xccu

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void *kcalloc(size_t n, size_t size, gfp_t flags);
void kfree(const void *p);

/* model: allocations not freed yet. */
long model_slab_live(void);
#endif
