/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/mm.h> without any pinning call; the modelled
 * worlds predate pin_user_pages_fast() (5.6) and iov_iter_extract_pages()
 * (6.3), so the probes for them fail here, as they would on those trees.
 * struct page itself is the 4.0 world's (its <linux/uio.h>).
 */
#ifndef MODEL_LINUX_MM_H
#define MODEL_LINUX_MM_H
#include <linux/kernel.h>

struct page;
#endif
