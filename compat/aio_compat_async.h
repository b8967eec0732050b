/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aio_compat_async.h - requests a driver finishes later: queued by the
 * handler, completed from any context (the device's interrupt handler
 * included), synchronous callers waited for inside the method, cancellation
 * where the tree supports it, and the request's memory pinned for DMA
 *
 * Part of compat/aio_compat.h, which includes it: drivers include
 * <aio_compat.h>, never this file.
 *
 * How a kiocb is completed later changed twice:
 *
 *   Linux 2.6.18 - 4.0   the method returns -EIOCBQUEUED, the driver calls
 *                        the exported aio_complete(iocb, res, res2)
 *   Linux 4.1 - 5.15     iocb->ki_complete(iocb, res, res2) (commit
 *                        04b2fa9f8f36); a kiocb without one is synchronous
 *   Linux 5.16 and later iocb->ki_complete(iocb, res) (commit 6b19b766e8f0)
 *
 * and a synchronous caller (read(2), readv(2), pread(2), kernel_read(), or
 * a kiocb the tree marks synchronous) must never see -EIOCBQUEUED from
 * 4.1 on (new_sync_read() BUG()s on it). The shim therefore waits for
 * synchronous callers itself, on every tree, so the driver writes one path:
 *
 *	static ssize_t foo_rw(struct aio_compat_req *req)
 *	{
 *		struct foo_req *r = kzalloc(sizeof(*r), GFP_KERNEL);
 *		ssize_t ret;
 *
 *		...
 *		aio_compat_async_init(req, &r->async);
 *		ret = aio_compat_pin(req, &r->async, len);  (bytes pinned)
 *		...dma_map_sg(dev, r->async.sgl, r->async.nents, dir)...
 *		aio_compat_set_cancel(req, foo_cancel);     (before queueing)
 *		...queue r, start the device...
 *		ret = aio_compat_queued(req, &r->async);
 *		if (ret != -EIOCBQUEUED)
 *			kfree(r);                           (a synchronous caller)
 *		return ret;
 *	}
 *
 *	(in the interrupt handler, once the device is done with r)
 *		dma_unmap_sg(...);
 *		if (aio_compat_complete(&r->async, bytes_or_errno))
 *			kfree(r);                           (an asynchronous one)
 *
 * Ownership: after aio_compat_queued() an asynchronous request belongs to
 * the completer (the handler must not touch it: it may be complete and
 * freed already); a synchronous one is freed by the handler after the
 * wait. aio_compat_complete() says which: true when the caller frees.
 * Once aio_compat_complete() has run for a request, that rule alone
 * decides: a submit path that completed the request itself (with an
 * error, say) and also reports the error must still end in
 * aio_compat_queued(), never in the handler's own error path, or the
 * request is unpinned and freed twice.
 * aio_compat_queued() waits uninterruptibly: the driver must complete
 * every request in bounded time (and fail its queue when the device goes
 * away). A driver that cannot promise that uses
 * aio_compat_queued_timeout(), whose wait ends at a timeout or a fatal
 * signal and hands the request back to be taken off the device.
 */
#ifndef AIO_COMPAT_ASYNC_H
#define AIO_COMPAT_ASYNC_H

#ifndef AIO_COMPAT_H
#error "include <aio_compat.h>, not aio_compat_async.h"
#endif

#if defined(IRQAIO_HAVE_AIO_KI_COMPLETE_2ARG) + defined(IRQAIO_HAVE_AIO_KI_COMPLETE_3ARG) + \
	defined(IRQAIO_HAVE_AIO_COMPLETE_3ARG) > 1
#error "aio_compat: more than one kiocb completion probed as valid; probe results are inconsistent"
#endif

/*
 * AIO_COMPAT_COMPLETE_KIND says which completion the tree has (for
 * statistics and tests): 1 aio_complete(iocb, res, res2), 2
 * ki_complete(iocb, res, res2), 3 ki_complete(iocb, res). A tree with none
 * of them gets no asynchronous API (the synchronous one is unaffected).
 */
#if defined(IRQAIO_HAVE_AIO_KI_COMPLETE_2ARG)
/* Linux 5.16: ki_complete(iocb, res) (commit 6b19b766e8f0). */
#define AIO_COMPAT_COMPLETE_KIND	3
#define IRQAIO_BRANCH_AIO_COMPLETE_KI_COMPLETE
#define aio_compat__ki_complete(iocb, res)	((iocb)->ki_complete((iocb), (res)))
#elif defined(IRQAIO_HAVE_AIO_KI_COMPLETE_3ARG)
/* Linux 4.1-5.15: ki_complete(iocb, res, res2) (commit 04b2fa9f8f36). */
#define AIO_COMPAT_COMPLETE_KIND	2
#define IRQAIO_BRANCH_AIO_COMPLETE_KI_COMPLETE_RES2
#define aio_compat__ki_complete(iocb, res)	((iocb)->ki_complete((iocb), (res), 0))
#elif defined(IRQAIO_HAVE_AIO_COMPLETE_3ARG_EXPORTED)
/* Linux 2.6.18-4.0: the exported aio_complete() in <linux/aio.h>. */
#include <linux/aio.h>
#define AIO_COMPAT_COMPLETE_KIND	1
#define IRQAIO_BRANCH_AIO_COMPLETE_AIO_COMPLETE
#define aio_compat__ki_complete(iocb, res)	aio_complete((iocb), (res), 0)
#endif /* completion */

#if defined(AIO_COMPAT_COMPLETE_KIND)
#include <linux/completion.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

/*
 * AIO_COMPAT_PIN_KIND says how aio_compat_pin() holds the request's memory
 * (0: the tree has no pinning call this header knows, and there is no
 * aio_compat_pin()): 1 pin_user_pages_fast() over the user segments, 2
 * iov_iter_extract_pages().
 */
#if defined(IRQAIO_HAVE_ITER_EXTRACT_PAGES_EXPORTED) && defined(AIO_COMPAT__FAMILY_ITER)
/* Linux 6.3: iov_iter_extract_pages() (commit 7d58fe731028). */
#define AIO_COMPAT_PIN_KIND	2
#define IRQAIO_BRANCH_AIO_PIN_EXTRACT_PAGES
#elif defined(IRQAIO_HAVE_PIN_USER_PAGES_FAST_EXPORTED) && \
	defined(AIO_COMPAT__FAMILY_ITER) && defined(IRQAIO_HAVE_ITER_TYPE_HELPERS)
/* Linux 5.6-6.2: pin_user_pages_fast() (commit eddb1c228f79). */
#define AIO_COMPAT_PIN_KIND	1
#define IRQAIO_BRANCH_AIO_PIN_USER_PAGES_FAST
#else
#define AIO_COMPAT_PIN_KIND	0
#define IRQAIO_BRANCH_AIO_PIN_NONE
#endif /* pinning */

/*
 * AIO_COMPAT_CAN_CANCEL: 1 where aio_compat_set_cancel() reaches io_cancel()
 * (kiocb_set_cancel_fn() safe on any kiocb, Linux 6.8 commit b820de741ae4
 * and the stable trees it went to), else 0 and the call does nothing.
 */
#if defined(IRQAIO_HAVE_AIO_CANCEL_AIO_RW_EXPORTED)
#define AIO_COMPAT_CAN_CANCEL	1
#define IRQAIO_BRANCH_AIO_CAN_CANCEL
#include <linux/aio.h>
#else
#define AIO_COMPAT_CAN_CANCEL	0
#define IRQAIO_BRANCH_AIO_CANNOT_CANCEL
#endif

/**
 * struct aio_compat_async - the shim's part of a request finished later
 * @sgl: the pinned data, one entry per page piece, in request order, for
 *	dma_map_sg(dev, @sgl, @nents, dir) (aio_compat_pin()). A chained
 *	list, built of page-sized pieces as sg_alloc_table() makes them, so
 *	that no request size needs a large allocation: walk it with
 *	for_each_sg() or sg_next(), never by index.
 * @nents: entries in @sgl
 * @pinned: bytes @sgl covers
 *
 * Embedded in the driver's own request; the remaining members are private.
 */
struct aio_compat_async {
	struct scatterlist *sgl;
	unsigned int nents;
	size_t pinned;
	/* private: */
	struct kiocb *iocb;		/* NULL: a synchronous caller waits */
	struct completion done;		/* ... here, */
	ssize_t res;			/* ... for this result */
#if AIO_COMPAT_PIN_KIND
	struct sg_table table;		/* what @sgl is the head of */
	struct scatterlist *last;	/* the entry filled last */
	struct aio_compat__redirty *redirty;	/* see aio_compat__release() */
#endif
	bool unpin;			/* each entry's page holds a FOLL_PIN pin */
	bool dirty;			/* ... and the device writes into it */
};

/**
 * aio_compat_is_async() - will the caller take -EIOCBQUEUED?
 * @req: the request
 *
 * Return: true for a kiocb of io_submit() or io_uring (one the tree does
 * not mark synchronous); false for read(2) and friends, kernel_read(), a
 * 2.6.18 ->readv call and aio_compat_rw_buf() (no kiocb at all).
 */
static inline bool aio_compat_is_async(const struct aio_compat_req *req)
{
	return req->iocb && !is_sync_kiocb(req->iocb);
}

/**
 * aio_compat_async_init() - start a request the driver will finish later
 * @req: the request, as the generated method passed it to the handler
 * @a: the shim's part of the driver's request (zeroed or not)
 */
static inline void aio_compat_async_init(const struct aio_compat_req *req,
					 struct aio_compat_async *a)
{
	*a = (struct aio_compat_async) {
		.iocb = aio_compat_is_async(req) ? req->iocb : NULL,
	};
	/* Only a synchronous caller waits in aio_compat_queued(). */
	if (!a->iocb)
		init_completion(&a->done);
}

#if AIO_COMPAT_PIN_KIND
#include <linux/file.h>
#include <linux/workqueue.h>

/*
 * What an asynchronous read's completion hands on when the device wrote
 * into pages that writeback cleaned meanwhile (a MAP_SHARED file mapping
 * as the buffer): they must be dirtied again, and set_page_dirty_lock()
 * sleeps where the completion may run in an interrupt handler. So the
 * list goes to a work item, as bio_check_pages_dirty() does for the block
 * layer; it holds the file, and so the driver's module, until it is done.
 * Allocated when the request is pinned, so that completion cannot fail.
 */
struct aio_compat__redirty {
	struct work_struct work;
	struct sg_table table;
	unsigned int nents;
	struct file *file;
};

/* Dirty again what writeback cleaned, then unpin; may sleep. */
static inline void aio_compat__redirty_unpin(struct sg_table *table,
					     unsigned int nents)
{
	struct scatterlist *sg;
	unsigned int k;

	for_each_sg(table->sgl, sg, nents, k) {
		if (!PageDirty(sg_page(sg)))
			set_page_dirty_lock(sg_page(sg));
		unpin_user_page(sg_page(sg));
	}
	sg_free_table(table);
}

static inline void aio_compat__redirty_work(struct work_struct *work)
{
	struct aio_compat__redirty *d =
		container_of(work, struct aio_compat__redirty, work);

	aio_compat__redirty_unpin(&d->table, d->nents);
	fput(d->file);
	kfree(d);
}

/* Is every page the device wrote still dirty? */
static inline bool aio_compat__all_dirty(const struct aio_compat_async *a)
{
	struct scatterlist *sg;
	unsigned int k;

	for_each_sg(a->sgl, sg, a->nents, k)
		if (!PageDirty(sg_page(sg)))
			return false;
	return true;
}
#endif

/* The request holds no list any more (it was freed or handed on). */
static inline void aio_compat__forget_list(struct aio_compat_async *a)
{
#if AIO_COMPAT_PIN_KIND
	a->last = NULL;
#endif
	a->sgl = NULL;
	a->nents = 0;
}

/*
 * Release the pinned pages and the list; callable in any context (the
 * list's pieces are kmalloc()ed or whole pages, never vmalloc()ed).
 */
static inline void aio_compat__unpin(struct aio_compat_async *a)
{
#if AIO_COMPAT_PIN_KIND
	struct scatterlist *sg;
	unsigned int k;

	/* One pin per entry: a page in the request twice was pinned twice. */
	if (a->unpin)
		for_each_sg(a->sgl, sg, a->nents, k)
			unpin_user_page(sg_page(sg));
	sg_free_table(&a->table);
	kfree(a->redirty);
	a->redirty = NULL;
#endif
	aio_compat__forget_list(a);
}

/*
 * A completed request's pages: the block layer's pairing of
 * bio_set_pages_dirty() (at pinning) with bio_check_pages_dirty() (here).
 * A read whose pages writeback cleaned during the transfer is dirtied
 * again where that can sleep: by the synchronous caller after its wait
 * (aio_compat__settle()), or by a work item for an asynchronous one.
 * Everything else is unpinned at once. Any context.
 */
static inline void aio_compat__release(struct aio_compat_async *a)
{
#if AIO_COMPAT_PIN_KIND
	struct aio_compat__redirty *d = a->redirty;

	if (a->dirty && !aio_compat__all_dirty(a)) {
		if (!a->iocb)
			return;		/* aio_compat__settle() will */
		a->redirty = NULL;
		d->table = a->table;
		d->nents = a->nents;
		d->file = get_file(a->iocb->ki_filp);
		INIT_WORK(&d->work, aio_compat__redirty_work);
		schedule_work(&d->work);
		aio_compat__forget_list(a);
		return;
	}
#endif
	aio_compat__unpin(a);
}

/*
 * A synchronous caller's completed request, after its wait: what
 * aio_compat__release() left (pages to dirty again) is done here. May
 * sleep.
 */
static inline void aio_compat__settle(struct aio_compat_async *a)
{
#if AIO_COMPAT_PIN_KIND
	if (a->sgl) {
		aio_compat__redirty_unpin(&a->table, a->nents);
		aio_compat__forget_list(a);
	}
#endif
}

/**
 * aio_compat_unpin() - give back what aio_compat_pin() took
 * @a: the request
 *
 * For a request that is abandoned before it is queued (an error after
 * pinning); aio_compat_complete() does it for queued ones. Any context.
 */
static inline void aio_compat_unpin(struct aio_compat_async *a)
{
	aio_compat__unpin(a);
}

/**
 * aio_compat_complete() - finish a queued request
 * @a: the request
 * @res: bytes done, or a negative errno
 *
 * Callable from any context, the hard interrupt handler included, once the
 * device no longer touches the request's memory (after dma_unmap_sg()),
 * and exactly once per request. Releases the pinned pages, then completes
 * the kiocb through the tree's call (an asynchronous caller) or wakes the
 * method waiting in aio_compat_queued() (a synchronous one).
 *
 * Return: true if the caller now frees the driver's request (asynchronous);
 * false if the waiting handler does (and the caller must not touch it).
 */
static inline bool aio_compat_complete(struct aio_compat_async *a, ssize_t res)
{
	struct kiocb *iocb = a->iocb;

	aio_compat__release(a);
	if (!iocb) {
		a->res = res;
		complete(&a->done);
		return false;
	}
	aio_compat__ki_complete(iocb, res);
	return true;
}

/**
 * aio_compat_queued() - the handler's result for a request it queued
 * @req: the request
 * @a: the queued request's shim part
 *
 * Return: -EIOCBQUEUED for an asynchronous caller (@a then belongs to the
 * completer: do not touch it); for a synchronous caller, waits for
 * aio_compat_complete() and returns its @res (the method moves the file
 * position by it as for any result).
 */
static inline ssize_t aio_compat_queued(const struct aio_compat_req *req,
					struct aio_compat_async *a)
{
	if (aio_compat_is_async(req))
		return -EIOCBQUEUED;
	wait_for_completion(&a->done);
	aio_compat__settle(a);
	return a->res;
}

/**
 * aio_compat_queued_timeout() - aio_compat_queued(), the wait bounded
 * @req: the request
 * @a: the queued request's shim part
 * @timeout: how long a synchronous caller may wait, in jiffies
 *
 * For a driver whose device may never finish a request (a hung card): a
 * synchronous caller's wait also ends when @timeout has passed or a fatal
 * signal (SIGKILL) arrives, so that read(2) returns, or its process dies,
 * in bounded time. An asynchronous caller is not waited for.
 *
 * Return: as aio_compat_queued() when the request completed in time.
 * Otherwise -ETIMEDOUT, or -EINTR for a fatal signal, and the request is
 * still the device's: take it back (off your queue, or abort the
 * transfer) and see that aio_compat_complete() runs for it exactly once,
 * from your completer if it got there first, else from the handler; then
 * aio_compat_reclaim(), free it and return the error. Until then the
 * caller's pages stay pinned, so the device may still write them.
 */
static inline ssize_t aio_compat_queued_timeout(const struct aio_compat_req *req,
						struct aio_compat_async *a,
						unsigned long timeout)
{
	long left;

	if (aio_compat_is_async(req))
		return -EIOCBQUEUED;
	left = wait_for_completion_killable_timeout(&a->done, timeout);
	if (left > 0) {
		aio_compat__settle(a);
		return a->res;
	}
	return left ? -EINTR : -ETIMEDOUT;
}

/**
 * aio_compat_reclaim() - wait out a request whose bounded wait ended
 * @a: the request aio_compat_queued_timeout() gave back
 *
 * Waits, uninterruptibly, for the one aio_compat_complete() of @a that the
 * driver has made sure of (after taking @a back from the device, that is
 * at once, or as soon as a completer already running finishes). Then @a is
 * unpinned and the handler's to free. May sleep.
 */
static inline void aio_compat_reclaim(struct aio_compat_async *a)
{
	wait_for_completion(&a->done);
	aio_compat__settle(a);
}

/**
 * typedef aio_compat_cancel_fn - the driver's io_cancel() callback
 * @iocb: the kiocb to cancel
 *
 * Called under the aio context's lock with interrupts off: it must not
 * complete the request itself (aio_compat_complete() would take that lock
 * again). A request still queued: take it off the queue and complete it
 * with -ECANCELED from elsewhere (a work item), return 0. One the device
 * is already working on: return a negative errno (io_cancel() reports it)
 * and let it complete normally.
 */
typedef int (aio_compat_cancel_fn)(struct kiocb *iocb);

/**
 * aio_compat_set_cancel() - let io_cancel() reach the driver
 * @req: the request, before the device or the completer can see it
 * @cancel: the driver's callback
 *
 * Only asynchronous io_submit() requests can be cancelled, and only where
 * AIO_COMPAT_CAN_CANCEL is 1; elsewhere this does nothing.
 */
static inline void aio_compat_set_cancel(const struct aio_compat_req *req,
					 aio_compat_cancel_fn *cancel)
{
#if AIO_COMPAT_CAN_CANCEL
	if (!aio_compat_is_async(req))
		return;
	kiocb_set_cancel_fn(req->iocb, cancel);
#endif
}

#if AIO_COMPAT_PIN_KIND
/*
 * Pages are pinned this many at a time, into one page-sized array that
 * lives for one aio_compat_pin() call; the list keeps them after that.
 */
#define AIO_COMPAT__PIN_BATCH	(PAGE_SIZE / sizeof(struct page *))

/* Entries of @a's list not filled yet. */
static inline unsigned int aio_compat__room(const struct aio_compat_async *a)
{
	return a->table.orig_nents - a->nents;
}

/* Add @len bytes of @page from @off to @a's list (each piece in one page). */
static inline void aio_compat__add_page(struct aio_compat_async *a,
					struct page *page, size_t off,
					size_t len)
{
	a->last = a->last ? sg_next(a->last) : a->sgl;
	sg_set_page(a->last, page, len, off);
	a->nents++;
	a->pinned += len;
}

/*
 * The list for @len bytes of @i, an entry per page piece, chained out of
 * page-sized allocations: a request of any size the VFS lets through
 * (MAX_RW_COUNT, some 2 GiB: half a million pieces) needs no allocation
 * above order 0, which could fail under fragmentation or, past
 * KMALLOC_MAX_SIZE, warn in the page allocator.
 */
static inline int aio_compat__pin_alloc(struct aio_compat_async *a,
					struct iov_iter *i, size_t len)
{
	unsigned int n;
	int ret;

	iov_iter_truncate(i, len);
	n = iov_iter_npages(i, INT_MAX);
	if (!n)
		return -EFAULT;
	ret = sg_alloc_table(&a->table, n, GFP_KERNEL);
	if (ret)
		return ret;
	a->sgl = a->table.sgl;
	return 0;
}
#endif /* AIO_COMPAT_PIN_KIND */

#if AIO_COMPAT_PIN_KIND == 2
/*
 * Linux 6.3+: iov_iter_extract_pages() serves every iterator type: it pins
 * user memory (iov_iter_extract_will_pin()) and takes nothing on
 * kernel-backed iterators, whose owner keeps them for the request's life.
 */
static inline ssize_t aio_compat__pin_iter(struct aio_compat_req *req,
					   struct aio_compat_async *a,
					   struct page **batch, size_t len)
{
	struct iov_iter *i = req->iter;
	ssize_t err = 0;

	a->unpin = iov_iter_extract_will_pin(i);
	while (a->pinned < len && aio_compat__room(a)) {
		unsigned int k = 0;
		size_t off, left;
		ssize_t n;

		n = iov_iter_extract_pages(i, &batch, len - a->pinned,
					   min_t(unsigned int, aio_compat__room(a),
						 AIO_COMPAT__PIN_BATCH),
					   0, &off);
		if (n <= 0) {
			err = n ? n : -EFAULT;
			break;
		}
		for (left = n; left; off = 0) {
			size_t piece = min_t(size_t, left, PAGE_SIZE - off);

			aio_compat__add_page(a, batch[k++], off, piece);
			left -= piece;
		}
	}
	return a->pinned ? (ssize_t)a->pinned : err;
}
#elif AIO_COMPAT_PIN_KIND == 1
#include <linux/bvec.h>

/*
 * One user range: pin its pages a batch at a time, list them; short at the
 * first fault. Each pinned page gets exactly one entry (the pages asked
 * for are those the rest of the range touches), which is how
 * aio_compat__unpin() finds every pin.
 */
static inline ssize_t aio_compat__pin_user(struct aio_compat_async *a,
					   struct page **batch,
					   unsigned long addr, size_t len,
					   unsigned int gup_flags)
{
	size_t done = 0;

	while (done < len && aio_compat__room(a)) {
		unsigned long start = addr + done;
		size_t off = offset_in_page(start);
		unsigned int want = DIV_ROUND_UP(off + (len - done), PAGE_SIZE);
		unsigned int k;
		int got;

		want = min_t(unsigned int, want, aio_compat__room(a));
		want = min_t(unsigned int, want, AIO_COMPAT__PIN_BATCH);
		got = pin_user_pages_fast(start & PAGE_MASK, want, gup_flags,
					  batch);
		if (got <= 0)
			return done ? (ssize_t)done : (got ? got : -EFAULT);
		for (k = 0; k < (unsigned int)got; k++, off = 0) {
			size_t piece = min_t(size_t, len - done, PAGE_SIZE - off);

			aio_compat__add_page(a, batch[k], off, piece);
			done += piece;
		}
		if ((unsigned int)got < want)
			break;
	}
	return done;
}

/*
 * The user segments of an ITER_IOVEC (or ITER_UBUF) from its position on.
 * The iterator is the VFS's, built by import_iovec() (or import_ubuf()),
 * which checked the array; @len is at most its count.
 */
static inline ssize_t aio_compat__pin_iovec(struct aio_compat_req *req,
					    struct aio_compat_async *a,
					    struct page **batch, size_t len)
{
	struct iov_iter *i = req->iter;
	unsigned int gup_flags = req->write ? 0 : FOLL_WRITE;
	const struct iovec *iov;
	size_t skip = i->iov_offset;
	ssize_t n = 0;
	unsigned long k;

	a->unpin = true;
#if defined(IRQAIO_HAVE_ITER_UBUF)
	if (req->shape == AIO_COMPAT_SHAPE_UBUF)
		return aio_compat__pin_user(a, batch,
					    (unsigned long)i->ubuf + skip,
					    len, gup_flags);
#endif
	iov = aio_compat__iter_iovec(i);
	for (k = 0; k < i->nr_segs && a->pinned < len; k++, skip = 0) {
		size_t want;

		if (skip >= iov[k].iov_len) {
			skip -= iov[k].iov_len;
			continue;
		}
		want = min_t(size_t, iov[k].iov_len - skip, len - a->pinned);
		n = aio_compat__pin_user(a, batch,
					 (unsigned long)iov[k].iov_base + skip,
					 want, gup_flags);
		if (n < (ssize_t)want)
			break;
	}
	if (a->pinned)
		return a->pinned;
	return n ? n : -EFAULT;
}

/* A kernel address range, page by page (vmalloc'ed or linear). */
static inline void aio_compat__pin_kaddr(struct aio_compat_async *a,
					 char *p, size_t len)
{
	while (len && aio_compat__room(a)) {
		size_t off = offset_in_page(p);
		size_t piece = min_t(size_t, len, PAGE_SIZE - off);
		struct page *page = is_vmalloc_addr(p) ? vmalloc_to_page(p) :
					virt_to_page(p);

		aio_compat__add_page(a, page, off, piece);
		p += piece;
		len -= piece;
	}
}

/*
 * Linux 5.6-6.2: user segments pinned with pin_user_pages_fast(); bvec and
 * kvec iterators listed page by page without a reference (their owner,
 * io_uring or a kernel_read() caller, keeps them for the request's life).
 */
static inline ssize_t aio_compat__pin_iter(struct aio_compat_req *req,
					   struct aio_compat_async *a,
					   struct page **batch, size_t len)
{
	struct iov_iter *i = req->iter;
	size_t skip = i->iov_offset;
	unsigned long k;

	if (req->shape <= AIO_COMPAT_SHAPE_UBUF)
		return aio_compat__pin_iovec(req, a, batch, len);
	for (k = 0; k < i->nr_segs && a->pinned < len; k++, skip = 0) {
		size_t want;

		if (iov_iter_is_bvec(i)) {
			const struct bio_vec *bv = &i->bvec[k];
			size_t off;

			if (skip >= bv->bv_len) {
				skip -= bv->bv_len;
				continue;
			}
			want = min_t(size_t, bv->bv_len - skip, len - a->pinned);
			for (off = bv->bv_offset + skip; want && aio_compat__room(a);) {
				size_t po = off % PAGE_SIZE;
				size_t piece = min_t(size_t, want, PAGE_SIZE - po);

				aio_compat__add_page(a, nth_page(bv->bv_page, off / PAGE_SIZE),
						     po, piece);
				off += piece;
				want -= piece;
			}
		} else if (iov_iter_is_kvec(i)) {
			const struct kvec *kv = &i->kvec[k];

			if (skip >= kv->iov_len) {
				skip -= kv->iov_len;
				continue;
			}
			want = min_t(size_t, kv->iov_len - skip, len - a->pinned);
			aio_compat__pin_kaddr(a, (char *)kv->iov_base + skip, want);
		} else {
			return -EINVAL;
		}
	}
	return a->pinned ? (ssize_t)a->pinned : -EFAULT;
}
#endif /* AIO_COMPAT_PIN_KIND */

#if AIO_COMPAT_PIN_KIND
/**
 * aio_compat_pin() - hold a request's memory for DMA
 * @req: the request, as the generated method passed it to the handler
 * @a: initialised by aio_compat_async_init()
 * @len: bytes wanted from the request's current position
 *	(at most @req->count)
 *
 * Lists the request's memory in @a->sgl, whatever its iterator (user
 * iovecs, ITER_UBUF, io_uring's registered buffers as ITER_BVEC, ITER_KVEC),
 * one entry per page piece, in order, for dma_map_sg(). User memory is
 * pinned (FOLL_PIN; for a read, writable, dirtied now as
 * bio_set_pages_dirty() does and, where writeback cleaned one during the
 * transfer, dirtied again after completion: aio_compat__release()) until
 * aio_compat_complete() or aio_compat_unpin(). Once per request: it
 * consumes the request's iterator (where the iterator stands afterwards
 * is the tree's pinning call's business: iov_iter_extract_pages()
 * advances it, the 5.6-6.2 branch leaves it, as a driver returning
 * -EIOCBQUEUED may), and a handler uses this or the copy API on a
 * request, not both. req->pos stays the request's file offset (where
 * the device transfers). May sleep (page faults).
 *
 * Return: the bytes pinned (less than @len at a fault: a short request, as
 * for O_DIRECT), or a negative errno with nothing held: -EFAULT for memory
 * that is not there or not writable for a read, -ENOMEM, -EINVAL for an
 * iterator that is not memory (a pipe, a discard).
 */
static inline ssize_t aio_compat_pin(struct aio_compat_req *req,
				     struct aio_compat_async *a, size_t len)
{
	size_t count = iov_iter_count(req->iter);
	struct page **batch = NULL;
	struct scatterlist *sg;
	unsigned int k;
	ssize_t ret;

	if (!len)
		return 0;
	if (len > count)
		len = count;
	ret = aio_compat__pin_alloc(a, req->iter, len);
	if (!ret) {
		batch = kmalloc_array(min_t(unsigned int, a->table.orig_nents,
					    AIO_COMPAT__PIN_BATCH),
				      sizeof(*batch), GFP_KERNEL);
		ret = batch ? aio_compat__pin_iter(req, a, batch, len) : -ENOMEM;
		kfree(batch);
	}
	/* Undo the truncation, whether or not pinning advanced the iterator. */
	iov_iter_reexpand(req->iter, iov_iter_count(req->iter) + (count - len));
	if (ret <= 0) {
		aio_compat__unpin(a);
		return ret ? ret : -EFAULT;
	}
	sg_mark_end(a->last);
	a->dirty = !req->write && a->unpin;
	if (a->dirty && a->iocb) {
		a->redirty = kmalloc(sizeof(*a->redirty), GFP_KERNEL);
		if (!a->redirty) {
			aio_compat__unpin(a);
			return -ENOMEM;
		}
	}
	if (a->dirty)
		for_each_sg(a->sgl, sg, a->nents, k)
			set_page_dirty_lock(sg_page(sg));
	return ret;
}

/**
 * aio_compat_pin_aligned() - do the pinned pieces meet a DMA alignment?
 * @a: a request aio_compat_pin() listed
 * @align: the alignment the device needs, a power of two
 * @card: the device address the first byte goes to (0 if none applies)
 *
 * After pinning there is no user address to check: what the device
 * sees is each piece's page offset. A piece starts where the previous one
 * ended on the card, so each must start at the same offset modulo @align
 * as its card address, and each but the last end on an @align boundary.
 * Refuse the request if not: aio_compat_unpin() it and return -EINVAL.
 *
 * Return: true if every piece is aligned so.
 */
static inline bool aio_compat_pin_aligned(const struct aio_compat_async *a,
					  unsigned int align, u64 card)
{
	struct scatterlist *sg;
	unsigned int k;

	for_each_sg(a->sgl, sg, a->nents, k) {
		if ((sg->offset ^ card) & (align - 1))
			return false;
		card += sg->length;
		if (k + 1 < a->nents && (card & (align - 1)))
			return false;
	}
	return true;
}
#endif /* AIO_COMPAT_PIN_KIND */

#endif /* AIO_COMPAT_COMPLETE_KIND */

#endif /* AIO_COMPAT_ASYNC_H */
