/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: the string helpers the shim uses. */
#ifndef MODEL_LINUX_STRING_H
#define MODEL_LINUX_STRING_H
#include <linux/kernel.h>
#define memcpy(d, s, n)	__builtin_memcpy(d, s, n)
#define memset(d, c, n)	__builtin_memset(d, c, n)
#endif
