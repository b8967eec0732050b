/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_compat_iovec.h - the vectored aio_read/aio_write method family
 * (Linux 2.6.19-4.0)
 *
 * Part of compat/aio_compat.h, which includes it for the trees it is for:
 * drivers include <aio_compat.h>, never this file.
 */
#ifndef AIO_COMPAT_IOVEC_H
#define AIO_COMPAT_IOVEC_H

#ifndef AIO_COMPAT_H
#error "include <aio_compat.h>, not aio_compat_iovec.h"
#endif

#include "aio_compat_user.h"

/*
 * Linux 2.6.19-4.0: aio_read(kiocb, const struct iovec *, nr_segs, pos)
 * (commit 027445c37282); readv(2), read(2) and io_submit PREAD[V] all end
 * here, a single buffer wrapped in one iovec by the caller.
 */
static inline ssize_t aio_compat__iovec_method(struct kiocb *iocb,
					       const struct iovec *iov,
					       unsigned long nr_segs,
					       loff_t pos, bool write,
					       aio_compat_handler_fn handler)
{
	struct aio_compat_req req;
	int err;

	err = aio_compat__init_iovec(&req, iocb->ki_filp, iocb, iov, nr_segs,
				     pos, write);
	return aio_compat__kiocb_call(&req, err, iocb, pos, handler);
}

#define AIO_COMPAT_DEFINE_METHODS(prefix, handler)			\
static ssize_t prefix##_aio_compat_read(struct kiocb *iocb,		\
					const struct iovec *iov,	\
					unsigned long nr_segs, loff_t pos) \
{									\
	return aio_compat__iovec_method(iocb, iov, nr_segs, pos, false,	\
					handler);			\
}									\
static ssize_t prefix##_aio_compat_write(struct kiocb *iocb,		\
					 const struct iovec *iov,	\
					 unsigned long nr_segs, loff_t pos) \
{									\
	return aio_compat__iovec_method(iocb, iov, nr_segs, pos, true,	\
					handler);			\
}

#define AIO_COMPAT_FOPS(prefix)						\
	.aio_read = prefix##_aio_compat_read,				\
	.aio_write = prefix##_aio_compat_write

#endif /* AIO_COMPAT_IOVEC_H */
