/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: the fixed-size and boolean types. */
#ifndef MODEL_LINUX_TYPES_H
#define MODEL_LINUX_TYPES_H
#include <stdbool.h>
#include <linux/kernel.h>
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef unsigned int gfp_t;
#endif
