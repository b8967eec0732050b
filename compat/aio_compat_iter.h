/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_compat_iter.h - the read_iter/write_iter method family (Linux 3.19+;
 * 3.16-3.18 use their aio_read, see aio_compat.h)
 *
 * Part of compat/aio_compat.h, which includes it for the trees it is for:
 * drivers include <aio_compat.h>, never this file.
 */
#ifndef AIO_COMPAT_ITER_H
#define AIO_COMPAT_ITER_H

#ifndef AIO_COMPAT_H
#error "include <aio_compat.h>, not aio_compat_iter.h"
#endif

/* Before Linux 4.1 (3.19-4.0 here), struct kiocb lives in <linux/aio.h>. */
#include <linux/aio.h>

/*
 * Linux 3.16+: ->read_iter/->write_iter(kiocb, iov_iter) (commit
 * 293bc9822fa9); aio, readv(2), splice, kernel_read() and (since 4.1)
 * read(2) all arrive here.
 */
#if defined(IRQAIO_HAVE_ITER_IOV)
/* Linux 6.4: the array is iter->__iov behind iter_iov() (commit de4f5fed3f23). */
#define aio_compat__iter_iovec(i)	iter_iov(i)
#define IRQAIO_BRANCH_AIO_ITER_IOV
#elif defined(IRQAIO_HAVE_ITER_IOV_FIELD)
/* Linux 3.16-6.3: the public member iter->iov (commit 293bc9822fa9). */
#define aio_compat__iter_iovec(i)	((i)->iov)
#define IRQAIO_BRANCH_AIO_ITER_IOV_FIELD
#else
#error "aio_compat: iov_iter has neither iter_iov() nor an iov member: unknown kernel"
#endif
#if defined(IRQAIO_HAVE_ITER_UBUF)
#define IRQAIO_BRANCH_AIO_ITER_UBUF
#else
#define IRQAIO_BRANCH_AIO_ITER_NO_UBUF
#endif
#if defined(IRQAIO_HAVE_AIO_IOCB_NOWAIT)
#define IRQAIO_BRANCH_AIO_ITER_IOCB_NOWAIT
#else
#define IRQAIO_BRANCH_AIO_ITER_NO_IOCB_NOWAIT
#endif

/*
 * aio_compat__iter_shape() - name the iov_iter's type. Only IOVEC and UBUF
 * are ever used for more than statistics: they decide whether
 * aio_compat_seg_walk() may read user addresses out of the iterator.
 */
static inline enum aio_compat_shape
aio_compat__iter_shape(const struct iov_iter *i)
{
#if defined(IRQAIO_HAVE_ITER_UBUF)
	/* Linux 6.0: one user buffer without an array (commit fcb14cb1bdac). */
	if (iter_is_ubuf(i))
		return AIO_COMPAT_SHAPE_UBUF;
#endif
#if defined(IRQAIO_HAVE_ITER_TYPE_HELPERS) && defined(IRQAIO_HAVE_ITER_IS_IOVEC)
	/*
	 * Linux 4.20: iov_iter_is_kvec()/_bvec()/_discard() (commit
	 * 00e23707442a, ITER_DISCARD from commit 9ea9ce0422a3).
	 */
#define IRQAIO_BRANCH_AIO_ITER_TYPE_HELPERS
	if (iter_is_iovec(i))
		return AIO_COMPAT_SHAPE_IOVEC;
	if (iov_iter_is_kvec(i))
		return AIO_COMPAT_SHAPE_KVEC;
	if (iov_iter_is_bvec(i))
		return AIO_COMPAT_SHAPE_BVEC;
	if (iov_iter_is_discard(i))
		return AIO_COMPAT_SHAPE_DISCARD;
#if defined(IRQAIO_HAVE_ITER_PIPE)
	/* Linux 4.9-6.4: ITER_PIPE (commit 241699cd72a8, gone in 3fc40265ae2b). */
#define IRQAIO_BRANCH_AIO_ITER_PIPE
	if (iov_iter_is_pipe(i))
		return AIO_COMPAT_SHAPE_PIPE;
#endif
#if defined(IRQAIO_HAVE_ITER_XARRAY)
	/* Linux 5.14: ITER_XARRAY (commit 7ff5062079ef). */
#define IRQAIO_BRANCH_AIO_ITER_XARRAY
	if (iov_iter_is_xarray(i))
		return AIO_COMPAT_SHAPE_XARRAY;
#endif
#if defined(IRQAIO_HAVE_ITER_FOLIOQ)
	/* Linux 6.12: ITER_FOLIOQ (commit db0aa2e9566f). */
#define IRQAIO_BRANCH_AIO_ITER_FOLIOQ
	if (iov_iter_is_folioq(i))
		return AIO_COMPAT_SHAPE_FOLIOQ;
#endif
	return AIO_COMPAT_SHAPE_OTHER;
#elif defined(IRQAIO_HAVE_ITER_TYPE_FIELD)
	/*
	 * Linux 3.19-4.19: the type is a bit in iter->type beside the WRITE
	 * bit: ITER_KVEC (commit a280455fa8d8, 3.19), ITER_BVEC (commit
	 * 62a8067a7f35, 3.16), ITER_IOVEC is 0. ITER_PIPE (4.9-4.19) has no
	 * probe here and counts as OTHER, never as user memory.
	 */
#define IRQAIO_BRANCH_AIO_ITER_TYPE_FIELD
	if (i->type & ITER_KVEC)
		return AIO_COMPAT_SHAPE_KVEC;
	if (i->type & ITER_BVEC)
		return AIO_COMPAT_SHAPE_BVEC;
	if (!(i->type & ~WRITE))
		return AIO_COMPAT_SHAPE_IOVEC;
	return AIO_COMPAT_SHAPE_OTHER;
#else
#error "aio_compat: no way to tell iov_iter types apart: unknown kernel"
#endif /* ITER_TYPE_HELPERS / ITER_TYPE_FIELD */
}

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
		.shape = aio_compat__iter_shape(iter),
		.iter = iter,
	};
#if defined(IRQAIO_HAVE_AIO_IOCB_NOWAIT)
	/* Linux 4.13: RWF_NOWAIT sets IOCB_NOWAIT (commit b745fafaf70c). */
	req->nowait = !!(iocb->ki_flags & IOCB_NOWAIT);
#endif
	if (req->shape == AIO_COMPAT_SHAPE_UBUF)
		req->nr_segs = 1;
	else if (req->shape == AIO_COMPAT_SHAPE_IOVEC)
		req->nr_segs = iter->nr_segs;
}

/**
 * aio_compat_copy_to_req() - copy data to a read request
 * @req: a read request, as the generated method passed it to the handler
 * @kbuf: kernel source
 * @len: bytes to copy
 *
 * Copies to the request at its current position (the first call at the
 * request's first byte, each call after the bytes the calls before it
 * moved), at most what is left of @req->count, whatever the request's shape:
 * copy_to_iter() (user, kvec, bvec, pipe, ...; aio_compat_rw_buf()'s buffer
 * is an ITER_IOVEC too). May sleep (page faults).
 *
 * Return: the bytes copied; less than asked at a fault, a full pipe or the
 * end of the request (0 if nothing could be copied). 0 for a write request.
 */
static inline size_t aio_compat_copy_to_req(struct aio_compat_req *req,
					    const void *kbuf, size_t len)
{
	if (WARN_ON_ONCE(req->write))
		return 0;
	/* Every request has an iov_iter here, aio_compat_rw_buf()'s too. */
	return copy_to_iter(kbuf, len, req->iter);
}

/**
 * aio_compat_copy_from_req() - copy data from a write request
 * @req: a write request, as the generated method passed it to the handler
 * @kbuf: kernel destination
 * @len: bytes to copy
 *
 * As aio_compat_copy_to_req(), the other way: copy_from_iter() for an
 * iov_iter. A fault stops the copy; the bytes of @kbuf past the ones
 * reported are not written (no zero-fill).
 *
 * Return: the bytes copied; 0 for a read request.
 */
static inline size_t aio_compat_copy_from_req(struct aio_compat_req *req,
					      void *kbuf, size_t len)
{
	if (WARN_ON_ONCE(!req->write))
		return 0;
	return copy_from_iter(kbuf, len, req->iter);
}

/**
 * aio_compat_seg_walk() - walk a user-backed request's segments
 * @req: the request, as the generated method passed it to the handler
 * @fn: called for each non-empty segment, in order, with the segment's user
 *	address, length and file position
 * @priv: passed to @fn
 *
 * For drivers that need the user addresses themselves (pinning pages for
 * DMA); a driver that copies uses the copy API, which serves every shape.
 * Only user-backed requests (BUF, IOVEC, UBUF) are walked: @fn only ever
 * sees user addresses, and any kernel-backed iov_iter (KVEC, BVEC, PIPE,
 * ...) is refused. Zero-length segments are skipped; the walk stops after
 * @req->count bytes, or at the first segment @fn did not finish. An iov_iter
 * is advanced by exactly the bytes done.
 *
 * Return: the bytes done if any, else @fn's error, else 0 (nothing to do or
 * @fn did nothing); -EINVAL for a kernel-backed iov_iter and for a malformed
 * request (more than UIO_MAXIOV segments, a length sum above SSIZE_MAX, a
 * position out of range).
 */
static inline ssize_t aio_compat_seg_walk(struct aio_compat_req *req,
					  aio_compat_seg_fn fn, void *priv)
{
	struct iov_iter *i = req->iter;
	ssize_t ret;

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
	case AIO_COMPAT_SHAPE_BUF:	/* aio_compat_rw_buf(): one ITER_IOVEC */
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

/*
 * A positive result moves the file position, as every read_iter does,
 * unless the handler asked to keep it (@req->keep_pos).
 */
static inline ssize_t aio_compat__iter_done(const struct aio_compat_req *req,
					    struct kiocb *iocb, ssize_t ret)
{
	if (ret > 0 && !req->keep_pos)
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
 * Each is flattened (AIO_COMPAT__FLATTEN) and calls @handler by name, so
 * that @handler and the static functions it calls are inlined into both;
 * keep what a handler calls for rare cases (error reporting, DMA set-up)
 * in noinline functions if code size matters.
 * Use AIO_COMPAT_FOPS(@prefix) to put them in a file_operations.
 */
#define AIO_COMPAT_DEFINE_METHODS(prefix, handler)			\
static ssize_t AIO_COMPAT__FLATTEN					\
prefix##_aio_compat_read(struct kiocb *iocb, struct iov_iter *to)	\
{									\
	struct aio_compat_req req;					\
									\
	aio_compat__init_iter(&req, iocb, to, false);			\
	return aio_compat__iter_done(&req, iocb, handler(&req));	\
}									\
static ssize_t AIO_COMPAT__FLATTEN					\
prefix##_aio_compat_write(struct kiocb *iocb, struct iov_iter *from)	\
{									\
	struct aio_compat_req req;					\
									\
	aio_compat__init_iter(&req, iocb, from, true);			\
	return aio_compat__iter_done(&req, iocb, handler(&req));	\
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

#endif /* AIO_COMPAT_ITER_H */
