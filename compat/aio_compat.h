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
 * aio_compat_req and moves bytes with aio_compat_copy_to_req() (a read) or
 * aio_compat_copy_from_req() (a write), whatever shape the request came in:
 * on iov_iter trees these are copy_to_iter()/copy_from_iter(), so user
 * iovecs, ITER_UBUF, io_uring's registered buffers (ITER_BVEC), splice and
 * sendfile (ITER_PIPE, ITER_BVEC) and kernel_read()/kernel_write()
 * (ITER_KVEC) all work; on the older trees they walk the user segments.
 * AIO_COMPAT_DEFINE_METHODS() generates the methods with exactly the
 * target tree's prototypes and AIO_COMPAT_FOPS() puts them in the right
 * file_operations fields, so no function pointer is ever cast between
 * prototypes. Everything is decided by compile probes (compat/probes/aio_*.c,
 * iter_*.c, run by compat/conftest.sh), never by version numbers; an unknown
 * method family stops the build.
 *
 *	static ssize_t foo_rw(struct aio_compat_req *req)
 *	{
 *		size_t n, len;
 *
 *		if (busy && !aio_compat_may_block(req))
 *			return -EAGAIN;
 *		if (req->pos >= foo_size)
 *			return 0;
 *		len = min_t(size_t, req->count, foo_size - req->pos);
 *		n = req->write ?
 *			aio_compat_copy_from_req(req, foo_buf + req->pos, len) :
 *			aio_compat_copy_to_req(req, foo_buf + req->pos, len);
 *		return n ? n : (len ? -EFAULT : 0);
 *	}
 *
 *	AIO_COMPAT_DEFINE_METHODS(foo, foo_rw);
 *
 *	static const struct file_operations foo_fops = {
 *		AIO_COMPAT_FOPS(foo),
 *		...
 *	};
 *
 * Files: this header (the request, the limits, the user-segment walk every
 * family shares, aio_compat_rw_buf()) and one per method family, which it
 * includes: aio_compat_iter.h (read_iter), aio_compat_iovec.h (iovec
 * aio_read) and aio_compat_buf.h (buffer aio_read + readv), the last two
 * over aio_compat_user.h (their user-segment copy); aio_compat_async.h
 * (requests the driver queues and completes later, from its interrupt
 * handler: completion, the synchronous wait, cancellation, pinning for
 * DMA) on every family. Drivers include only <aio_compat.h>.
 *
 * A driver that needs the user addresses themselves (to pin pages for DMA)
 * walks the request with aio_compat_seg_walk() instead: a callback per user
 * segment (address, length, file position). That works only for user-backed
 * requests (BUF, IOVEC, UBUF) and refuses every kernel-backed iov_iter with
 * -EINVAL. A handler uses one of the two on a request, never both.
 *
 * The old-world branches and the early iov_iter shape (3.19-4.19: type
 * bits in iter->type, no ITER_UBUF, no IOCB_NOWAIT) are compiled and run
 * on the host against the historical API model
 * (model/aio_model_test.c, model/worlds/); the other iov_iter branches by
 * the kernel matrix (5.10: ITER_IOVEC with ->iov, ITER_PIPE; 6.1:
 * + ITER_UBUF, ITER_XARRAY; 6.12: + iter_iov(), ITER_FOLIOQ, no ITER_PIPE).
 * Each branch defines an IRQAIO_BRANCH_* marker; model/branch-coverage
 * collects them from every build and checks that each branch is selected by
 * one.
 */
#ifndef AIO_COMPAT_H
#define AIO_COMPAT_H

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/uio.h>
#include <linux/bug.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <irqaio_features.h>

#if defined(IRQAIO_HAVE_AIO_READ_BUF) && defined(IRQAIO_HAVE_AIO_READ_IOVEC)
#error "aio_compat: both aio_read prototypes probed as valid; probe results are inconsistent"
#endif

/*
 * Which method family the tree gets. Linux 3.16-4.0 have both ->read_iter
 * and the iovec ->aio_read: read_iter is preferred (kernel_read(), splice
 * and sendfile reach it with kernel-backed iterators the copy API serves),
 * where the iov_iter shape is one this header can tell apart: by the type
 * accessors (4.20) or by the type field (3.19-4.19). 3.16-3.18 (no
 * ITER_KVEC yet) use their ->aio_read.
 */
#if defined(IRQAIO_HAVE_AIO_READ_ITER) && \
	(defined(IRQAIO_HAVE_ITER_TYPE_HELPERS) || defined(IRQAIO_HAVE_ITER_TYPE_FIELD))
#define AIO_COMPAT__FAMILY_ITER 1
#endif

/*
 * The generated read_iter/write_iter methods are flattened: the handler
 * and what it calls are inlined into each, with its direction a constant,
 * so a request costs about what a native method costs instead of a call
 * per layer and a request struct in memory (measured in BENCHMARKS.md).
 * Spelled out rather than the kernel's __flatten, which older trees (5.10)
 * and the model do not define; GCC 4.1+ and clang have the attribute. A
 * build that measures branch coverage defines it empty, so that gcov counts
 * the handler's branches once, not once per method it was copied into.
 */
#ifndef AIO_COMPAT__FLATTEN
#define AIO_COMPAT__FLATTEN	__attribute__((__flatten__))
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
 * @AIO_COMPAT_SHAPE_OTHER: an iov_iter of a type this header does not name
 *	(none on the trees it knows; see aio_compat__iter_shape())
 * @AIO_COMPAT_SHAPE_KVEC: ITER_KVEC, kernel buffers (kernel_read(),
 *	kernel_write(), in-kernel users)
 * @AIO_COMPAT_SHAPE_BVEC: ITER_BVEC, pages (io_uring registered buffers,
 *	iter_file_splice_write(), copy_splice_read(), loop, nfsd)
 * @AIO_COMPAT_SHAPE_PIPE: ITER_PIPE, a pipe's pages (splice and sendfile
 *	from the file through generic_file_splice_read(), 4.9-6.4)
 * @AIO_COMPAT_SHAPE_XARRAY: ITER_XARRAY, a page cache range (netfs, 5.14+)
 * @AIO_COMPAT_SHAPE_FOLIOQ: ITER_FOLIOQ, a folio queue (netfs, 6.12+)
 * @AIO_COMPAT_SHAPE_DISCARD: ITER_DISCARD, bytes to drop (4.20+)
 * @AIO_COMPAT_NR_SHAPES: number of shapes
 *
 * BUF, IOVEC and UBUF are user-backed: aio_compat_seg_walk() serves them
 * and refuses the others with -EINVAL. The copy API serves all of them.
 * The values are stable (a driver may export them as statistics): new
 * shapes are added at the end.
 */
enum aio_compat_shape {
	AIO_COMPAT_SHAPE_BUF,
	AIO_COMPAT_SHAPE_IOVEC,
	AIO_COMPAT_SHAPE_UBUF,
	AIO_COMPAT_SHAPE_OTHER,
	AIO_COMPAT_SHAPE_KVEC,
	AIO_COMPAT_SHAPE_BVEC,
	AIO_COMPAT_SHAPE_PIPE,
	AIO_COMPAT_SHAPE_XARRAY,
	AIO_COMPAT_SHAPE_FOLIOQ,
	AIO_COMPAT_SHAPE_DISCARD,
	AIO_COMPAT_NR_SHAPES
};

/**
 * struct aio_compat_req - one read or write request, whatever its shape
 * @file: the open file
 * @iocb: the kiocb (sync or async); NULL for a 2.6.18 ->readv/->writev call
 *	and for aio_compat_rw_buf()
 * @pos: file position of the first byte (ki_pos, or *ppos); the copy API
 *	does not move it
 * @count: total bytes requested (overflow-checked, at most SSIZE_MAX)
 * @nr_segs: user segments, zero-length ones included (at most UIO_MAXIOV);
 *	0 for a kernel-backed iov_iter
 * @write: true for a write (data flows from the request to the driver)
 * @nowait: the request must not block (IOCB_NOWAIT from RWF_NOWAIT); see
 *	also aio_compat_may_block()
 * @shape: how it arrived; for statistics and tests, never for the data path
 * @keep_pos: set by the handler: the generated method leaves the file
 *	position (ki_pos, *ppos) where it was, whatever the result, for a
 *	device addressed only by lseek() whose read(2) and write(2) never
 *	move it; false (the default) moves it by the bytes done
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
	bool keep_pos;
	/* private: */
	const struct iovec *iov;	/* BUF and array IOVEC requests */
	struct iovec one;		/* the wrapped single buffer */
#if defined(AIO_COMPAT__FAMILY_ITER)
	struct iov_iter *iter;		/* every request: the copy API's */
#else
	unsigned long cur_seg;		/* copy API cursor over iov[] ... */
	size_t cur_off;			/* ... bytes done in iov[cur_seg] */
	size_t copied;			/* ... and in the whole request */
#endif /* AIO_COMPAT__FAMILY_ITER */
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
 * @req: the request; move its data with aio_compat_copy_to_req() /
 *	aio_compat_copy_from_req(), or walk it once with aio_compat_seg_walk()
 *
 * Return: bytes done, or a negative errno. The generated method moves the
 * kiocb's (or *ppos's) position by a positive return value, unless the
 * handler set @req->keep_pos.
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
 * %AIO_COMPAT_SHAPE_BUF, through the same handler as vectored requests
 * (on read_iter trees as an iov_iter over it, which the copy API and the
 * segment walk then serve as they serve ITER_IOVEC).
 *
 * Return: the handler's result, or -EINVAL for a length or position out of
 * range.
 */
static inline ssize_t aio_compat_rw_buf(struct file *file, void __user *buf,
					size_t len, loff_t *ppos, bool write,
					aio_compat_handler_fn handler)
{
	struct aio_compat_req req;
#if defined(AIO_COMPAT__FAMILY_ITER)
	struct iov_iter iter;
#endif
	ssize_t ret;

	ret = aio_compat__init_buf(&req, file, NULL, buf, len, *ppos, write);
	if (ret)
		return ret;
#if defined(AIO_COMPAT__FAMILY_ITER)
	/*
	 * read_iter trees: the buffer as a one-segment ITER_IOVEC, so that
	 * the copy API is copy_to_iter()/copy_from_iter() here too (each
	 * segment access_ok()-checked, no zero-fill past a fault) instead of
	 * the user-segment copy, whose write side bounces every byte. The
	 * shape stays BUF; READ/WRITE are the directions every tree's
	 * iov_iter_init() (3.16+) takes.
	 */
	iov_iter_init(&iter, write ? WRITE : READ, req.iov, 1, req.count);
	req.iter = &iter;
#endif
	ret = handler(&req);
	if (ret > 0 && !req.keep_pos)
		*ppos += ret;
	return ret;
}

/*
 * The methods of the tree's family, each in its own header. Each defines
 * aio_compat_copy_to_req(), aio_compat_copy_from_req(),
 * aio_compat_seg_walk(), AIO_COMPAT_DEFINE_METHODS() and AIO_COMPAT_FOPS()
 * with the same signatures.
 */
#if defined(AIO_COMPAT__FAMILY_ITER)
#include "aio_compat_iter.h"
#define IRQAIO_BRANCH_AIO_FAMILY_ITER
#elif defined(IRQAIO_HAVE_AIO_READ_IOVEC)
#include "aio_compat_iovec.h"
#define IRQAIO_BRANCH_AIO_FAMILY_IOVEC
#elif defined(IRQAIO_HAVE_AIO_READ_BUF) && defined(IRQAIO_HAVE_AIO_READV_METHOD)
#include "aio_compat_buf.h"
#define IRQAIO_BRANCH_AIO_FAMILY_BUF
#else
/* none of: read_iter, iovec aio_read, single-buffer aio_read + readv */
#error "aio_compat: unknown aio method family"
#endif

#if defined(IRQAIO_HAVE_AIO_FMODE_NOWAIT)
#define IRQAIO_BRANCH_AIO_FMODE_NOWAIT
#else
#define IRQAIO_BRANCH_AIO_NO_FMODE_NOWAIT
#endif

/**
 * aio_compat_file_nowait() - let RWF_NOWAIT requests reach this file
 * @file: the file being opened (call it from ->open())
 *
 * For a driver whose handler honours aio_compat_may_block(): without
 * FMODE_NOWAIT in f_mode the kernel refuses RWF_NOWAIT before the driver
 * sees it. Linux 4.13 added the flag as FMODE_AIO_NOWAIT (commit
 * b745fafaf70c), 4.14 renamed it; a tree without it has no RWF_NOWAIT.
 */
static inline void aio_compat_file_nowait(struct file *file)
{
#if defined(IRQAIO_HAVE_AIO_FMODE_NOWAIT)
	file->f_mode |= FMODE_NOWAIT;
#endif
}

/*
 * AIO_COMPAT_SPLICE_FOPS - splice(2) and sendfile(2) through the handler:
 * the tree's helpers that hand a pipe's pages to ->read_iter and
 * ->write_iter, which the copy API serves. Where generic_file_splice_read()
 * still wants a page cache (before ITER_PIPE) only splice to the file;
 * before read_iter nothing: such a file cannot be spliced there. It brings
 * its own commas; write it after AIO_COMPAT_FOPS():
 *
 *	AIO_COMPAT_FOPS(foo),
 *	AIO_COMPAT_SPLICE_FOPS
 *	.unlocked_ioctl = foo_ioctl,
 */
#if !defined(AIO_COMPAT__FAMILY_ITER) || !defined(IRQAIO_HAVE_SPLICE_ITER_WRITE)
/* Before read_iter and iter_file_splice_write() (both Linux 3.16). */
#define AIO_COMPAT_SPLICE_FOPS
#define IRQAIO_BRANCH_AIO_SPLICE_NONE
#elif defined(IRQAIO_HAVE_SPLICE_COPY_READ)
/* Linux 6.5: pages read through ->read_iter as ITER_BVEC (commit 33b3b041543e). */
#include <linux/splice.h>
#define AIO_COMPAT_SPLICE_FOPS						\
	.splice_read = copy_splice_read,				\
	.splice_write = iter_file_splice_write,
#define IRQAIO_BRANCH_AIO_SPLICE_COPY_READ
#elif defined(IRQAIO_HAVE_SPLICE_GENERIC_READ) && defined(IRQAIO_HAVE_ITER_PIPE)
/* Linux 4.9 to 6.4: ->read_iter into the pipe as ITER_PIPE (removed by c6585011bc1d). */
#define AIO_COMPAT_SPLICE_FOPS						\
	.splice_read = generic_file_splice_read,			\
	.splice_write = iter_file_splice_write,
#define IRQAIO_BRANCH_AIO_SPLICE_GENERIC_READ
#else
/*
 * Linux 3.16 to 4.8: to the file through ->write_iter (commit
 * 8d0207652cbe); from it only through a page cache.
 */
#define AIO_COMPAT_SPLICE_FOPS						\
	.splice_write = iter_file_splice_write,
#define IRQAIO_BRANCH_AIO_SPLICE_WRITE_ONLY
#endif /* splice helpers */

/* Requests finished later (by an interrupt handler), on every family. */
#include "aio_compat_async.h"

#endif /* AIO_COMPAT_H */
