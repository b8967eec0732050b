/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_compat_user.h - what the two method families before iov_iter share
 * (trees without a usable read_iter, 4.0 and older): requests are user
 * segments only, and the kiocb lives in <linux/aio.h>
 *
 * Part of compat/aio_compat.h, which includes it for the trees it is for:
 * drivers include <aio_compat.h>, never this file.
 */
#ifndef AIO_COMPAT_USER_H
#define AIO_COMPAT_USER_H

#ifndef AIO_COMPAT_H
#error "include <aio_compat.h>, not aio_compat_user.h"
#endif

/* Before Linux 4.1, struct kiocb lives in <linux/aio.h>. */
#include <linux/aio.h>

/* The user segments are all there is: see the iov_iter family above. */
static inline size_t aio_compat_copy_to_req(struct aio_compat_req *req,
					    const void *kbuf, size_t len)
{
	if (WARN_ON_ONCE(req->write))
		return 0;
	return aio_compat__ucopy(req, (void *)kbuf, len);
}

static inline size_t aio_compat_copy_from_req(struct aio_compat_req *req,
					      void *kbuf, size_t len)
{
	if (WARN_ON_ONCE(!req->write))
		return 0;
	return aio_compat__ucopy(req, kbuf, len);
}

static inline ssize_t aio_compat_seg_walk(struct aio_compat_req *req,
					  aio_compat_seg_fn fn, void *priv)
{
	return aio_compat__walk(req, req->iov, req->nr_segs, 0, fn, priv);
}

/* Run @handler on a filled @req; the aio methods move ki_pos themselves. */
static inline ssize_t aio_compat__kiocb_call(struct aio_compat_req *req,
					     int err, struct kiocb *iocb,
					     loff_t pos,
					     aio_compat_handler_fn handler)
{
	ssize_t ret;

	if (err)
		return err;
	ret = handler(req);
	if (ret > 0)
		iocb->ki_pos = pos + ret;
	return ret;
}

#endif /* AIO_COMPAT_USER_H */
