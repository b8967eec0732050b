/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_compat_buf.h - the single-buffer aio_read/aio_write + readv/writev
 * method family (Linux 2.6.18 and older)
 *
 * Part of compat/aio_compat.h, which includes it for the trees it is for:
 * drivers include <aio_compat.h>, never this file.
 */
#ifndef AIO_COMPAT_BUF_H
#define AIO_COMPAT_BUF_H

#ifndef AIO_COMPAT_H
#error "include <aio_compat.h>, not aio_compat_buf.h"
#endif

#include "aio_compat_user.h"

/*
 * Linux 2.6.18 and older: aio_read(kiocb, char __user *, size_t, pos) takes
 * one buffer, which is wrapped in one iovec here as 2.6.19 began to do in
 * its callers; readv(2)/writev(2) call ->readv/->writev with the array (and
 * without them would loop over ->read, one segment per call).
 */
static inline ssize_t aio_compat__buf_method(struct kiocb *iocb,
					     void __user *buf, size_t len,
					     loff_t pos, bool write,
					     aio_compat_handler_fn handler)
{
	struct aio_compat_req req;
	int err;

	err = aio_compat__init_buf(&req, iocb->ki_filp, iocb, buf, len, pos,
				   write);
	return aio_compat__kiocb_call(&req, err, iocb, pos, handler);
}

static inline ssize_t aio_compat__readv_method(struct file *file,
					       const struct iovec *iov,
					       unsigned long nr_segs,
					       loff_t *ppos, bool write,
					       aio_compat_handler_fn handler)
{
	struct aio_compat_req req;
	ssize_t ret;

	ret = aio_compat__init_iovec(&req, file, NULL, iov, nr_segs, *ppos,
				     write);
	if (ret)
		return ret;
	ret = handler(&req);
	if (ret > 0 && !req.keep_pos)
		*ppos += ret;
	return ret;
}

#define AIO_COMPAT_DEFINE_METHODS(prefix, handler)			\
static ssize_t prefix##_aio_compat_read(struct kiocb *iocb,		\
					char __user *buf, size_t len,	\
					loff_t pos)			\
{									\
	return aio_compat__buf_method(iocb, buf, len, pos, false,	\
				      handler);				\
}									\
static ssize_t prefix##_aio_compat_write(struct kiocb *iocb,		\
					 const char __user *buf,	\
					 size_t len, loff_t pos)	\
{									\
	/* A data pointer, as 2.6.19's do_sync_write() wraps it. */	\
	return aio_compat__buf_method(iocb, (void __user *)buf, len,	\
				      pos, true, handler);		\
}									\
static ssize_t prefix##_aio_compat_readv(struct file *file,		\
					 const struct iovec *iov,	\
					 unsigned long nr_segs,		\
					 loff_t *ppos)			\
{									\
	return aio_compat__readv_method(file, iov, nr_segs, ppos,	\
					false, handler);		\
}									\
static ssize_t prefix##_aio_compat_writev(struct file *file,		\
					  const struct iovec *iov,	\
					  unsigned long nr_segs,	\
					  loff_t *ppos)			\
{									\
	return aio_compat__readv_method(file, iov, nr_segs, ppos,	\
					true, handler);			\
}

#define AIO_COMPAT_FOPS(prefix)						\
	.aio_read = prefix##_aio_compat_read,				\
	.aio_write = prefix##_aio_compat_write,				\
	.readv = prefix##_aio_compat_readv,				\
	.writev = prefix##_aio_compat_writev

#endif /* AIO_COMPAT_BUF_H */
