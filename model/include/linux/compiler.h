/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: annotations the historical headers used. */
#ifndef MODEL_LINUX_COMPILER_H
#define MODEL_LINUX_COMPILER_H
#define __user
#define __iomem
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
