/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_compat.h - one character-driver data path for every aio method shape
 *
 * The file_operations methods that carry asynchronous (and, since 2.6.19,
 * all vectored) I/O changed shape three times:
 *
 *   Linux 2.6.18 and older  aio_read(kiocb, char __user *buf, size_t, loff_t)
 *                           plus readv(file, const struct iovec *, nr, loff_t *)
 *   Linux 2.6.19 - 4.0      aio_read(kiocb, const struct iovec *, nr, loff_t);
 *                           readv/writev methods removed (commit ee0b3e671baf),
 *                           io_submit gained IOCB_CMD_PREADV/PWRITEV
 *                           (commit 027445c37282)
 *   Linux 3.16 and later    read_iter(kiocb, struct iov_iter *) (commit
 *                           293bc9822fa9); aio_read gone in 4.1. Since 6.0 a
 *                           single user buffer may arrive as ITER_UBUF
 *                           (commit fcb14cb1bdac) instead of a one-element
 *                           ITER_IOVEC; since 6.4 the iovec array is
 *                           iter->__iov behind iter_iov().
 *
 * A driver writes its data path once, as a handler that receives a struct
 * aio_compat_req and walks it with aio_compat_seg_walk(): a callback per
 * user segment (address, length, file position), whatever shape the request
 * came in. AIO_COMPAT_DEFINE_METHODS() generates the methods with exactly the
 * target tree's prototypes and AIO_COMPAT_FOPS() puts them in the right
 * file_operations fields, so no function pointer is ever cast between
 * prototypes. Everything is decided by compile probes (compat/probes/aio_*.c,
 * iter_*.c, run by compat/conftest.sh), never by version numbers; an unknown
 * method family stops the build.
 *
 *	static ssize_t foo_seg(struct aio_compat_req *req, void __user *ubuf,
 *			       size_t len, loff_t pos, void *priv)
 *	{
 *		... copy_to_user()/copy_from_user() at most len bytes ...
 *		return bytes_done;	(or a negative errno)
 *	}
 *
 *	static ssize_t foo_rw(struct aio_compat_req *req)
 *	{
 *		if (busy && !aio_compat_may_block(req))
 *			return -EAGAIN;
 *		return aio_compat_seg_walk(req, foo_seg, foo);
 *	}
 *	AIO_COMPAT_DEFINE_METHODS(foo, foo_rw);
 *
 *	static const struct file_operations foo_fops = {
 *		AIO_COMPAT_FOPS(foo),
 *		...
 *	};
 *
 * The old-world branches are compiled and run on the host against the
 * historical API model (model/aio_model_test.c); the iov_iter branches by the
 * kernel matrix (5.10: ITER_IOVEC with ->iov; 6.1: + ITER_UBUF; 6.12:
 * + iter_iov()).
 */
#ifndef AIO_COMPAT_H
#define AIO_COMPAT_H

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/uio.h>
#include <linux/bug.h>
#include <irqaio_features.h>

#if defined(IRQAIO_HAVE_AIO_READ_BUF) && defined(IRQAIO_HAVE_AIO_READ_IOVEC)
#error "aio_compat: both aio_read prototypes probed as valid; probe results are inconsistent"
#endif

/* Largest byte count a read/write may return (SSIZE_MAX). */
#define AIO_COMPAT_SSIZE_MAX	((size_t)(~(size_t)0 >> 1))
/* Largest file position (LLONG_MAX; loff_t is long long everywhere). */
#define AIO_COMPAT_LOFF_MAX	((loff_t)(~0ULL >> 1))

/**
 * enum aio_compat_shape - how the request reached the method
 * @AIO_COMPAT_SHAPE_BUF: one user buffer (2.6.18 aio_read/aio_write, or a
 *	driver's ->read/->write through aio_compat_rw_buf()), wrapped in one
 *	iovec the way 2.6.19's do_sync_read() did
 * @AIO_COMPAT_SHAPE_IOVEC: an array of user iovecs (2.6.19 aio_read,
 *	2.6.18 readv, ITER_IOVEC)
 * @AIO_COMPAT_SHAPE_UBUF: ITER_UBUF, one user buffer in an iov_iter (6.0+)
 * @AIO_COMPAT_SHAPE_OTHER: a kernel-backed iov_iter (kvec, bvec, pipe, ...);
 *	aio_compat_seg_walk() refuses it with -EINVAL
 * @AIO_COMPAT_NR_SHAPES: number of shapes
 */
enum aio_compat_shape {
	AIO_COMPAT_SHAPE_BUF,
	AIO_COMPAT_SHAPE_IOVEC,
	AIO_COMPAT_SHAPE_UBUF,
	AIO_COMPAT_SHAPE_OTHER,
	AIO_COMPAT_NR_SHAPES
};

/**
 * struct aio_compat_req - one read or write request, whatever its shape
 * @file: the open file
 * @iocb: the kiocb (sync or async); NULL for a 2.6.18 ->readv/->writev call
 *	and for aio_compat_rw_buf()
 * @pos: file position of the first byte (ki_pos, or *ppos)
 * @count: total bytes requested (overflow-checked, at most SSIZE_MAX)
 * @nr_segs: user segments, zero-length ones included (at most UIO_MAXIOV)
 * @write: true for a write (data flows from the segments to the driver)
 * @nowait: the request must not block (IOCB_NOWAIT from RWF_NOWAIT); see
 *	also aio_compat_may_block()
 * @shape: how it arrived; for statistics and tests, never for the data path
 *
 * The remaining members are private to the helper.
 */
struct aio_compat_req {
	struct file *file;
	struct kiocb *iocb;
	loff_t pos;
	size_t count;
	unsigned long nr_segs;
	bool write;
	bool nowait;
	enum aio_compat_shape shape;
	/* private: */
	const struct iovec *iov;	/* BUF and array IOVEC requests */
	struct iovec one;		/* the wrapped single buffer */
#if defined(IRQAIO_HAVE_AIO_READ_ITER)
	struct iov_iter *iter;		/* read_iter/write_iter requests */
#endif
};

/**
 * typedef aio_compat_seg_fn - the driver's per-segment data path
 * @req: the request being walked
 * @ubuf: user address of this segment (a read copies into it, a write from it)
 * @len: bytes in this segment, never 0; access nothing outside [ubuf, ubuf+len)
 * @pos: file position of @ubuf's first byte
 * @priv: the cookie given to aio_compat_seg_walk()
 *
 * Return: bytes done (0..@len; less than @len ends the walk: end of store,
 * fault), or a negative errno, which ends the walk too.
 */
typedef ssize_t (*aio_compat_seg_fn)(struct aio_compat_req *req,
				     void __user *ubuf, size_t len, loff_t pos,
				     void *priv);

/**
 * typedef aio_compat_handler_fn - the driver's whole-request handler
 * @req: the request; call aio_compat_seg_walk() on it at most once
 *
 * Return: bytes done, or a negative errno. The generated method moves the
 * kiocb's (or *ppos's) position by a positive return value.
 */
typedef ssize_t (*aio_compat_handler_fn)(struct aio_compat_req *req);

/**
 * aio_compat_may_block() - may this request sleep waiting for the device?
 * @req: the request
 *
 * Return: false when the file is O_NONBLOCK or the request carries
 * IOCB_NOWAIT (RWF_NOWAIT, Linux 4.13+); the driver then returns -EAGAIN
 * instead of waiting.
 */
static inline bool aio_compat_may_block(const struct aio_compat_req *req)
{
	return !req->nowait && !(req->file->f_flags & O_NONBLOCK);
}

/*
 * aio_compat__check() - the limits the kernel applies to an iovec array
 * (rw_copy_check_uvector()), applied again so that no branch depends on the
 * caller having done it: at most UIO_MAXIOV segments, every length and the
 * sum at most SSIZE_MAX (no wrap-around), pos + count within loff_t.
 * Sets req->count. Returns 0 or -EINVAL.
 */
static inline int aio_compat__check(struct aio_compat_req *req,
				    const struct iovec *iov,
				    unsigned long nr_segs, size_t skip,
				    size_t limit)
{
	size_t total = 0;
	unsigned long k;

	if (nr_segs > UIO_MAXIOV)
		return -EINVAL;
	for (k = 0; k < nr_segs; k++) {
		size_t len = iov[k].iov_len;

		if (len > AIO_COMPAT_SSIZE_MAX - total)
			return -EINVAL;
		total += len;
	}
	total = total > skip ? total - skip : 0;
	if (total > limit)
		total = limit;
	if (req->pos < 0 || (loff_t)total > AIO_COMPAT_LOFF_MAX - req->pos)
		return -EINVAL;
	req->count = total;
	return 0;
}

/*
 * aio_compat__walk() - call @fn on each non-empty segment of @iov, skipping
 * the first @skip bytes and stopping after req->count bytes, at the first
 * short or failed segment. Returns the bytes done if any, else the error
 * (or 0).
 */
static inline ssize_t aio_compat__walk(struct aio_compat_req *req,
				       const struct iovec *iov,
				       unsigned long nr_segs, size_t skip,
				       aio_compat_seg_fn fn, void *priv)
{
	size_t done = 0;
	ssize_t err = 0;
	unsigned long k;

	for (k = 0; k < nr_segs && done < req->count; k++) {
		char __user *base = iov[k].iov_base;
		size_t len = iov[k].iov_len;
		ssize_t n;

		if (skip) {
			if (skip >= len) {
				skip -= len;
				continue;
			}
			base += skip;
			len -= skip;
			skip = 0;
		}
		if (len > req->count - done)
			len = req->count - done;
		if (!len)
			continue;
		n = fn(req, base, len, req->pos + (loff_t)done, priv);
		if (n < 0) {
			err = n;
			break;
		}
		if (WARN_ON_ONCE((size_t)n > len)) {
			err = -EIO;
			break;
		}
		done += n;
		if ((size_t)n < len)
			break;
	}
	return done ? (ssize_t)done : err;
}

/* Fill @req for one user buffer, wrapped in one iovec as 2.6.19 did. */
static inline int aio_compat__init_buf(struct aio_compat_req *req,
				       struct file *file, struct kiocb *iocb,
				       void __user *buf, size_t len, loff_t pos,
				       bool write)
{
	*req = (struct aio_compat_req) {
		.file = file,
		.iocb = iocb,
		.pos = pos,
		.nr_segs = 1,
		.write = write,
		.shape = AIO_COMPAT_SHAPE_BUF,
		.one = { .iov_base = buf, .iov_len = len },
	};
	req->iov = &req->one;
	return aio_compat__check(req, req->iov, 1, 0, AIO_COMPAT_SSIZE_MAX);
}

/* Fill @req for an iovec array (2.6.19 aio_read, 2.6.18 readv). */
static inline int aio_compat__init_iovec(struct aio_compat_req *req,
					 struct file *file, struct kiocb *iocb,
					 const struct iovec *iov,
					 unsigned long nr_segs, loff_t pos,
					 bool write)
{
	*req = (struct aio_compat_req) {
		.file = file,
		.iocb = iocb,
		.pos = pos,
		.nr_segs = nr_segs,
		.write = write,
		.shape = AIO_COMPAT_SHAPE_IOVEC,
		.iov = iov,
	};
	return aio_compat__check(req, iov, nr_segs, 0, AIO_COMPAT_SSIZE_MAX);
}

/**
 * aio_compat_rw_buf() - run a handler on one user buffer
 * @file: the open file
 * @buf: user buffer (for a write, the data source)
 * @len: its length
 * @ppos: file position, moved by the bytes done
 * @write: direction
 * @handler: the driver's request handler
 *
 * For a driver's own ->read/->write (and for the 2.6.18 single-buffer aio
 * methods): the buffer is presented as a one-segment request of shape
 * %AIO_COMPAT_SHAPE_BUF, through the same handler as vectored requests.
 *
 * Return: the handler's result, or -EINVAL for a length or position out of
 * range.
 */
static inline ssize_t aio_compat_rw_buf(struct file *file, void __user *buf,
					size_t len, loff_t *ppos, bool write,
					aio_compat_handler_fn handler)
{
	struct aio_compat_req req;
	ssize_t ret;

	ret = aio_compat__init_buf(&req, file, NULL, buf, len, *ppos, write);
	if (ret)
		return ret;
	ret = handler(&req);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

#if defined(IRQAIO_HAVE_AIO_READ_ITER)
/*
 * Linux 3.16+: ->read_iter/->write_iter(kiocb, iov_iter) (commit
 * 293bc9822fa9); aio, readv(2) and (since 4.1) read(2) all arrive here.
 * Preferred over aio_read where a 3.16-4.0 tree has both.
 */
#if !defined(IRQAIO_HAVE_ITER_IS_IOVEC)
/* 3.16-4.0 tested iter->type & ITER_IOVEC; no probe for that yet. */
#error "aio_compat: read_iter but no iter_is_iovec(): unknown kernel"
#endif

#if defined(IRQAIO_HAVE_ITER_IOV)
/* Linux 6.4: the array is iter->__iov, read through iter_iov(). */
#define aio_compat__iter_iovec(i)	iter_iov(i)
#elif defined(IRQAIO_HAVE_ITER_IOV_FIELD)
/* Linux 3.16-6.3: the array is the public member iter->iov. */
#define aio_compat__iter_iovec(i)	((i)->iov)
#else
#error "aio_compat: iov_iter has neither iter_iov() nor an iov member: unknown kernel"
#endif

#if defined(IRQAIO_HAVE_ITER_DEST)
/* Linux 6.1 (and Debian 5.10): ITER_DEST/ITER_SOURCE name the direction. */
#define AIO_COMPAT__ITER_DIR(write)	((write) ? ITER_SOURCE : ITER_DEST)
#else
#define AIO_COMPAT__ITER_DIR(write)	((write) ? WRITE : READ)
#endif

static inline void aio_compat__init_iter(struct aio_compat_req *req,
					 struct kiocb *iocb,
					 struct iov_iter *iter, bool write)
{
	*req = (struct aio_compat_req) {
		.file = iocb->ki_filp,
		.iocb = iocb,
		.pos = iocb->ki_pos,
		.count = iov_iter_count(iter),
		.write = write,
		.shape = AIO_COMPAT_SHAPE_OTHER,
		.iter = iter,
	};
#if defined(IRQAIO_HAVE_AIO_IOCB_NOWAIT)
	/* Linux 4.13: RWF_NOWAIT sets IOCB_NOWAIT (commit b745fafaf70c). */
	req->nowait = !!(iocb->ki_flags & IOCB_NOWAIT);
#endif
#if defined(IRQAIO_HAVE_ITER_UBUF)
	/* Linux 6.0: one user buffer without an array (commit fcb14cb1bdac). */
	if (iter_is_ubuf(iter)) {
		req->shape = AIO_COMPAT_SHAPE_UBUF;
		req->nr_segs = 1;
		return;
	}
#endif
	if (iter_is_iovec(iter)) {
		req->shape = AIO_COMPAT_SHAPE_IOVEC;
		req->nr_segs = iter->nr_segs;
	}
}

/**
 * aio_compat_seg_walk() - walk a request's user segments
 * @req: the request, as the generated method passed it to the handler
 * @fn: called for each non-empty segment, in order, with the segment's user
 *	address, length and file position
 * @priv: passed to @fn
 *
 * Zero-length segments are skipped; the walk stops after @req->count bytes,
 * or at the first segment @fn did not finish. An iov_iter is advanced by
 * exactly the bytes done. A kernel-backed iov_iter (%AIO_COMPAT_SHAPE_OTHER)
 * is refused: @fn only ever sees user addresses.
 *
 * Return: the bytes done if any, else @fn's error, else 0 (nothing to do or
 * @fn did nothing); -EINVAL for a malformed request (more than UIO_MAXIOV
 * segments, a length sum above SSIZE_MAX, a position out of range).
 */
static inline ssize_t aio_compat_seg_walk(struct aio_compat_req *req,
					  aio_compat_seg_fn fn, void *priv)
{
	struct iov_iter *i = req->iter;
	ssize_t ret;

	if (!i)
		return aio_compat__walk(req, req->iov, req->nr_segs, 0, fn, priv);
	if (WARN_ON_ONCE(iov_iter_rw(i) != AIO_COMPAT__ITER_DIR(req->write)))
		return -EINVAL;

	switch (req->shape) {
#if defined(IRQAIO_HAVE_ITER_UBUF)
	case AIO_COMPAT_SHAPE_UBUF:
		req->one.iov_base = i->ubuf;
		req->one.iov_len = i->iov_offset + req->count;
		ret = aio_compat__check(req, &req->one, 1, i->iov_offset,
					req->count);
		if (!ret)
			ret = aio_compat__walk(req, &req->one, 1, i->iov_offset,
					       fn, priv);
		break;
#endif
	case AIO_COMPAT_SHAPE_IOVEC:
		ret = aio_compat__check(req, aio_compat__iter_iovec(i),
					req->nr_segs, i->iov_offset, req->count);
		if (!ret)
			ret = aio_compat__walk(req, aio_compat__iter_iovec(i),
					       req->nr_segs, i->iov_offset, fn,
					       priv);
		break;
	default:
		return -EINVAL;
	}
	if (ret > 0)
		iov_iter_advance(i, ret);
	return ret;
}

static inline ssize_t aio_compat__iter_method(struct kiocb *iocb,
					      struct iov_iter *iter, bool write,
					      aio_compat_handler_fn handler)
{
	struct aio_compat_req req;
	ssize_t ret;

	aio_compat__init_iter(&req, iocb, iter, write);
	ret = handler(&req);
	if (ret > 0)
		iocb->ki_pos += ret;
	return ret;
}

/**
 * AIO_COMPAT_DEFINE_METHODS() - define the tree's aio methods for a handler
 * @prefix: name prefix of the generated static functions
 * @handler: the driver's aio_compat_handler_fn
 *
 * Defines static read and write methods with exactly the target tree's
 * prototypes (here ->read_iter/->write_iter); each builds a struct
 * aio_compat_req, calls @handler and moves the position by what was done.
 * Use AIO_COMPAT_FOPS(@prefix) to put them in a file_operations.
 */
#define AIO_COMPAT_DEFINE_METHODS(prefix, handler)			\
static ssize_t prefix##_aio_compat_read(struct kiocb *iocb,		\
					struct iov_iter *to)		\
{									\
	return aio_compat__iter_method(iocb, to, false, handler);	\
}									\
static ssize_t prefix##_aio_compat_write(struct kiocb *iocb,		\
					 struct iov_iter *from)		\
{									\
	return aio_compat__iter_method(iocb, from, true, handler);	\
}

/**
 * AIO_COMPAT_FOPS() - designated initializers for the generated methods
 * @prefix: as given to AIO_COMPAT_DEFINE_METHODS()
 *
 * Linux 3.16+: .read_iter/.write_iter. Linux 2.6.19-3.15: .aio_read/
 * .aio_write (readv(2) and read(2) reach them through do_sync_read and
 * friends). Linux 2.6.18: .aio_read/.aio_write plus .readv/.writev.
 */
#define AIO_COMPAT_FOPS(prefix)						\
	.read_iter = prefix##_aio_compat_read,				\
	.write_iter = prefix##_aio_compat_write

#else /* !IRQAIO_HAVE_AIO_READ_ITER */
/* Before Linux 4.1, struct kiocb lives in <linux/aio.h>. */
#include <linux/aio.h>

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

#if defined(IRQAIO_HAVE_AIO_READ_IOVEC)
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

#elif defined(IRQAIO_HAVE_AIO_READ_BUF) && defined(IRQAIO_HAVE_AIO_READV_METHOD)
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
	if (ret > 0)
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

#else
/* none of: read_iter, iovec aio_read, single-buffer aio_read + readv */
#error "aio_compat: unknown aio method family"
#endif /* aio method family */
#endif /* IRQAIO_HAVE_AIO_READ_ITER */

#endif /* AIO_COMPAT_H */
