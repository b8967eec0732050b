/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: basic types and helpers. */
#ifndef MODEL_LINUX_KERNEL_H
#define MODEL_LINUX_KERNEL_H
#include <stddef.h>
#include <linux/compiler.h>
#include <linux/version.h>
typedef long long loff_t;
typedef long ssize_t;
#endif
