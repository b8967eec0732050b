// SPDX-License-Identifier: GPL-2.0
/*
 * bench_async_chardev - the baseline qemu/bench compares the shim's
 * asynchronous API with: a software "device" that, for an asynchronous
 * kiocb (io_submit(), io_uring), pins the request's memory into a
 * scatterlist, queues the request and returns -EIOCBQUEUED; the
 * BENCH_ASYNC_IOC_COMPLETE ioctl completes everything queued (see
 * bench_async.h). No data moves: what is counted is the cost of holding a
 * request's pages for a device and of finishing it later.
 *
 * Written the native way with the tree's own calls, chosen by the same
 * compile probes the shim uses (irqaio_features.h), never by version:
 * iov_iter_extract_pages() (6.3+) or pin_user_pages_fast() over the user
 * segments (5.6-6.2), set_page_dirty_lock() on a read's pages when they
 * are pinned, unpin_user_pages() and ->ki_complete() with the tree's
 * arity at completion. On the pin_user_pages_fast() trees it serves
 * user-backed requests only (io_submit(); io_uring's registered buffers
 * get -EINVAL).
 *
 * bench_shimasync_chardev.c builds the same driver through the shim
 * (BENCH_SHIM_ASYNC: one handler through AIO_COMPAT_DEFINE_METHODS(),
 * aio_compat_pin(), aio_compat_queued(), aio_compat_complete()), with the
 * same queue, lock and ioctl, so that "what does the shim's asynchronous
 * path cost" has an answer in instructions.
 *
 * Not demo drivers and not part of the test suite. Synchronous callers
 * (read(2), readv(2), ...) get -EINVAL: nothing would complete their wait.
 * A process that exits with requests queued waits in exit_aio() until
 * someone issues BENCH_ASYNC_IOC_COMPLETE.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uio.h>
#include "bench_async.h"
#if defined(BENCH_SHIM_ASYNC)
#include <aio_compat.h>
#else
#include <irqaio_features.h>
#endif

#if defined(BENCH_SHIM_ASYNC)
#define DRV_NAME	"bench_shimasync_chardev"
#define DRV_PATH	"aio_compat_pin()/_queued()/_complete()"
#if !AIO_COMPAT_PIN_KIND
#error "bench_shimasync_chardev: the shim has no aio_compat_pin() for this tree"
#endif
#else
#define DRV_NAME	"bench_async_chardev"
#define DRV_PATH	"native pin, -EIOCBQUEUED, ki_complete"
#endif

/* A queued request. */
struct bench_async_req {
	struct list_head node;		/* in bench_async.queue */
	ssize_t res;			/* what completion reports: bytes pinned */
#if defined(BENCH_SHIM_ASYNC)
	struct aio_compat_async async;
#else
	struct kiocb *iocb;
	struct scatterlist *sgl;	/* the pinned pieces, for dma_map_sg() */
	unsigned int nents;
	struct page **pages;		/* what completion unpins */
	unsigned int nr_pages;
	unsigned int max_pages;
	bool unpin;			/* @pages hold FOLL_PIN pins */
#endif
};

struct bench_async {
	struct miscdevice misc;
	/* Protects queue: requests pinned and waiting for the ioctl. */
	spinlock_t lock;
	struct list_head queue;
};

static struct bench_async bench_async_dev;

static void bench_async_enqueue(struct bench_async *dev,
				struct bench_async_req *r)
{
	spin_lock(&dev->lock);
	list_add_tail(&r->node, &dev->queue);
	spin_unlock(&dev->lock);
}

#if defined(BENCH_SHIM_ASYNC)
/* The one handler, both directions. */
static ssize_t bench_async_rw(struct aio_compat_req *req)
{
	struct bench_async_req *r;
	ssize_t ret;

	if (!aio_compat_is_async(req))
		return -EINVAL;
	if (!req->count)
		return 0;
	/* aio_compat_async_init() sets every member of r->async. */
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	aio_compat_async_init(req, &r->async);
	ret = aio_compat_pin(req, &r->async, req->count);
	if (ret < 0) {
		kfree(r);
		return ret;
	}
	r->res = ret;
	bench_async_enqueue(&bench_async_dev, r);
	/* Asynchronous (above): -EIOCBQUEUED, r is the completer's now. */
	return aio_compat_queued(req, &r->async);
}

AIO_COMPAT_DEFINE_METHODS(bench_async, bench_async_rw);

static void bench_async_finish(struct bench_async_req *r)
{
	if (aio_compat_complete(&r->async, r->res))
		kfree(r);
}
#else /* native */

#if !defined(IRQAIO_HAVE_AIO_READ_ITER)
#error "bench_async_chardev: no ->read_iter in this tree"
#endif

/* Give back the pages and the lists; any context. */
static void bench_async_unpin(struct bench_async_req *r)
{
	if (r->unpin)
		unpin_user_pages(r->pages, r->nr_pages);
	kfree(r->pages);
	kfree(r->sgl);
}

#if defined(IRQAIO_HAVE_ITER_EXTRACT_PAGES_EXPORTED)
/*
 * Linux 6.3+: iov_iter_extract_pages() (commit 7d58fe731028) pins user
 * memory and takes nothing on kernel-backed iterators, whose owner keeps
 * them for the request's life.
 */
static ssize_t bench_async_pin_iter(struct bench_async_req *r,
				    struct iov_iter *i, size_t len, bool write)
{
	size_t pinned = 0;

	r->unpin = iov_iter_extract_will_pin(i);
	while (pinned < len && r->nr_pages < r->max_pages) {
		struct page **p = r->pages + r->nr_pages;
		size_t off, left;
		ssize_t n;

		n = iov_iter_extract_pages(i, &p, len - pinned,
					   r->max_pages - r->nr_pages, 0, &off);
		if (n <= 0) {
			if (pinned)
				break;
			return n ? n : -EFAULT;
		}
		for (left = n; left; off = 0) {
			size_t piece = min_t(size_t, left, PAGE_SIZE - off);

			sg_set_page(&r->sgl[r->nents++], r->pages[r->nr_pages++],
				    piece, off);
			left -= piece;
		}
		pinned += n;
	}
	return pinned;
}
#elif defined(IRQAIO_HAVE_PIN_USER_PAGES_FAST_EXPORTED) && \
	defined(IRQAIO_HAVE_ITER_IOV_FIELD) && defined(IRQAIO_HAVE_ITER_IS_IOVEC)
/* One user range: pin its pages and list them; short at the first fault. */
static ssize_t bench_async_pin_user(struct bench_async_req *r,
				    unsigned long addr, size_t len,
				    unsigned int gup_flags)
{
	size_t off = offset_in_page(addr), done = 0;
	unsigned int want = DIV_ROUND_UP(off + len, PAGE_SIZE), k;
	int got;

	want = min(want, r->max_pages - r->nr_pages);
	got = pin_user_pages_fast(addr & PAGE_MASK, want, gup_flags,
				  r->pages + r->nr_pages);
	if (got <= 0)
		return got ? got : -EFAULT;
	for (k = 0; k < (unsigned int)got && done < len; k++, off = 0) {
		size_t piece = min_t(size_t, len - done, PAGE_SIZE - off);

		sg_set_page(&r->sgl[r->nents++], r->pages[r->nr_pages + k],
			    piece, off);
		done += piece;
	}
	r->nr_pages += got;
	return done;
}

/*
 * Linux 5.6-6.2: pin_user_pages_fast() (commit eddb1c228f79) over the user
 * segments, read from the iterator's own array (iter->iov until 6.4).
 */
static ssize_t bench_async_pin_iter(struct bench_async_req *r,
				    struct iov_iter *i, size_t len, bool write)
{
	unsigned int gup_flags = write ? 0 : FOLL_WRITE;
	size_t pinned = 0, skip = i->iov_offset, want;
	unsigned long k;
	ssize_t n = 0;

	r->unpin = true;
#if defined(IRQAIO_HAVE_ITER_UBUF)
	/* Linux 6.0: one user buffer without an array (commit fcb14cb1bdac). */
	if (iter_is_ubuf(i))
		return bench_async_pin_user(r, (unsigned long)i->ubuf + skip,
					    len, gup_flags);
#endif
	if (!iter_is_iovec(i))
		return -EINVAL;
	for (k = 0; k < i->nr_segs && pinned < len; k++, skip = 0) {
		want = min_t(size_t, i->iov[k].iov_len - skip, len - pinned);
		if (!want)
			continue;
		n = bench_async_pin_user(r, (unsigned long)i->iov[k].iov_base + skip,
					 want, gup_flags);
		if (n <= 0)
			break;
		pinned += n;
		if (n < want)
			break;
	}
	if (pinned)
		return pinned;
	return n ? n : -EFAULT;
}
#else
#error "bench_async_chardev: no pinning call this driver knows in this tree"
#endif /* pinning */

/* The request's memory as a scatterlist; the bytes held, or -errno. */
static ssize_t bench_async_pin(struct bench_async_req *r, struct iov_iter *i,
			       bool write)
{
	unsigned int n = iov_iter_npages(i, INT_MAX), k;
	ssize_t ret;

	if (!n)
		return -EFAULT;
	r->nents = 0;
	r->nr_pages = 0;
	r->max_pages = n;
	r->unpin = false;
	r->pages = kmalloc_array(n, sizeof(*r->pages), GFP_KERNEL);
	r->sgl = kmalloc_array(n, sizeof(*r->sgl), GFP_KERNEL);
	if (!r->pages || !r->sgl) {
		ret = -ENOMEM;
		goto err_unpin;
	}
	sg_init_table(r->sgl, n);
	ret = bench_async_pin_iter(r, i, iov_iter_count(i), write);
	if (ret <= 0)
		goto err_unpin;
	sg_mark_end(&r->sgl[r->nents - 1]);
	/*
	 * The device writes a read's pages: dirty them now, as
	 * bio_set_pages_dirty() does, since completion may run where
	 * set_page_dirty_lock() cannot.
	 */
	if (!write && r->unpin)
		for (k = 0; k < r->nr_pages; k++)
			set_page_dirty_lock(r->pages[k]);
	return ret;

err_unpin:
	bench_async_unpin(r);
	return ret ? ret : -EFAULT;
}

static ssize_t bench_async_queue(struct kiocb *iocb, struct iov_iter *iter,
				 bool write)
{
	struct bench_async_req *r;
	ssize_t ret;

	if (is_sync_kiocb(iocb))
		return -EINVAL;
	if (!iov_iter_count(iter))
		return 0;
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->iocb = iocb;
	ret = bench_async_pin(r, iter, write);
	if (ret < 0) {
		kfree(r);
		return ret;
	}
	r->res = ret;
	bench_async_enqueue(&bench_async_dev, r);
	return -EIOCBQUEUED;
}

static ssize_t bench_async_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	return bench_async_queue(iocb, to, false);
}

static ssize_t bench_async_write_iter(struct kiocb *iocb,
				      struct iov_iter *from)
{
	return bench_async_queue(iocb, from, true);
}

static void bench_async_finish(struct bench_async_req *r)
{
	struct kiocb *iocb = r->iocb;

	bench_async_unpin(r);
#if defined(IRQAIO_HAVE_AIO_KI_COMPLETE_2ARG)
	/* Linux 5.16: ki_complete(iocb, res) (commit 6b19b766e8f0). */
	iocb->ki_complete(iocb, r->res);
#elif defined(IRQAIO_HAVE_AIO_KI_COMPLETE_3ARG)
	/* Linux 4.1-5.15: ki_complete(iocb, res, res2) (commit 04b2fa9f8f36). */
	iocb->ki_complete(iocb, r->res, 0);
#else
#error "bench_async_chardev: no ->ki_complete in this tree"
#endif
	kfree(r);
}
#endif /* BENCH_SHIM_ASYNC */

/* Complete every queued request; how many. */
static long bench_async_complete_all(struct bench_async *dev)
{
	struct bench_async_req *r, *tmp;
	LIST_HEAD(done);
	long n = 0;

	spin_lock(&dev->lock);
	list_splice_init(&dev->queue, &done);
	spin_unlock(&dev->lock);
	list_for_each_entry_safe(r, tmp, &done, node) {
		bench_async_finish(r);
		n++;
	}
	return n;
}

static long bench_async_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	switch (cmd) {
	case BENCH_ASYNC_IOC_COMPLETE:
		return bench_async_complete_all(&bench_async_dev);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations bench_async_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = bench_async_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
#if defined(BENCH_SHIM_ASYNC)
	AIO_COMPAT_FOPS(bench_async),
#else
	.read_iter = bench_async_read_iter,
	.write_iter = bench_async_write_iter,
#endif
};

static int __init bench_async_init(void)
{
	struct bench_async *dev = &bench_async_dev;
	int ret;

	spin_lock_init(&dev->lock);
	INIT_LIST_HEAD(&dev->queue);
	dev->misc.minor = MISC_DYNAMIC_MINOR;
	dev->misc.name = DRV_NAME;
	dev->misc.fops = &bench_async_fops;
	dev->misc.mode = 0666;
	ret = misc_register(&dev->misc);
	if (ret)
		return ret;
	pr_info("/dev/%s: %s\n", DRV_NAME, DRV_PATH);
	return 0;
}

/* Nothing can be queued: every queued request holds the file open. */
static void __exit bench_async_exit(void)
{
	misc_deregister(&bench_async_dev.misc);
}

module_init(bench_async_init);
module_exit(bench_async_exit);

MODULE_DESCRIPTION("Bench-only asynchronous software device: native or the aio_compat shim (qemu/bench)");
MODULE_LICENSE("GPL");
