/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/uio.h> of Linux 2.6.18/2.6.19 - struct iovec
 * and the segment limit; no iov_iter (that is Linux 3.16).
 */
#ifndef MODEL_LINUX_UIO_H
#define MODEL_LINUX_UIO_H
#include <linux/kernel.h>

struct iovec {
	void __user *iov_base;
	size_t iov_len;		/* __kernel_size_t */
};

#define UIO_FASTIOV	8
#define UIO_MAXIOV	1024
#endif
