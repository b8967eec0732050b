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

/*
 * aio_compat__ucopy() - the copy API over req->iov (every request on these
 * trees): move up to @len bytes between @kbuf and the user segments at
 * the cursor, at most what is left of req->count, and move the cursor by
 * what was moved. Stops at the first fault. Returns the bytes moved.
 *
 * A write copies through a small bounce buffer with copy_from_user(), which
 * keeps its checks (access_ok(), and barrier_nospec() where the tree has
 * it, commit 74e19ef0ff80) but zero-fills what it could not copy: only the
 * bytes that arrived reach @kbuf, so a faulting write changes only the
 * bytes it reports.
 */
#define AIO_COMPAT__BOUNCE	128

static inline size_t aio_compat__ucopy(struct aio_compat_req *req, void *kbuf,
				       size_t len)
{
	char *k = kbuf;
	size_t done = 0;

	if (len > req->count - req->copied)
		len = req->count - req->copied;
	while (done < len && req->cur_seg < req->nr_segs) {
		const struct iovec *v = &req->iov[req->cur_seg];
		char __user *u = (char __user *)v->iov_base + req->cur_off;
		size_t n = v->iov_len - req->cur_off, ok;

		if (!n) {
			req->cur_seg++;
			req->cur_off = 0;
			continue;
		}
		if (n > len - done)
			n = len - done;
		if (req->write) {
			char bounce[AIO_COMPAT__BOUNCE];

			if (n > sizeof(bounce))
				n = sizeof(bounce);
			ok = n - copy_from_user(bounce, u, n);
			memcpy(k + done, bounce, ok);
		} else {
			ok = n - copy_to_user(u, k + done, n);
		}
		done += ok;
		req->cur_off += ok;
		if (ok < n)
			break;
	}
	req->copied += done;
	return done;
}

/* The user segments are all there is. */
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
	if (ret > 0 && !req->keep_pos)
		iocb->ki_pos = pos + ret;
	return ret;
}

#endif /* AIO_COMPAT_USER_H */
