/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: the error numbers the aio paths return. */
#ifndef MODEL_LINUX_ERRNO_H
#define MODEL_LINUX_ERRNO_H
#define EINTR		4
#define EIO		5
#define EAGAIN		11
#define ENOMEM		12
#define EFAULT		14
#define EINVAL		22
#define ENOSPC		28
#define ETIMEDOUT	110
#define ERESTARTSYS	512
#define EIOCBQUEUED	529	/* the method queued the kiocb; aio_complete() later */
#endif
