/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: the historical API world of Linux 2.6.19. */
#ifndef MODEL_LINUX_VERSION_H
#define MODEL_LINUX_VERSION_H
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE 132627 /* 2.6.19 */
#endif
