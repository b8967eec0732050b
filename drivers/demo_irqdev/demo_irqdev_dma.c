// SPDX-License-Identifier: GPL-2.0
/*
 * demo_irqdev's DMA engine, behind the device file's read and write: each
 * request is pinned and mapped through compat/aio_compat.h, queued, put on
 * the wire by the method or by the interrupt handler that finished the
 * transfer before it, and completed by the handler's thread
 * (aio_compat_async.h), whoever the caller is: io_submit(), io_uring,
 * read(2). io_cancel() takes a request off the queue; remove() fails what
 * waits and drains what is on the wire. And the device file's operations,
 * which hold the methods the shim generates here.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <aio_compat.h>

#include "demo_irqdev.h"

static enum dma_data_direction demo_irqdev_dma_dir(const struct demo_irqdev_req *r)
{
	return r->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
}

/*
 * Can the device reach @sg's memory? The guests have no IOMMU and
 * swiotlb, where present, sits beyond a 28-bit reach, so the DMA API cannot
 * bounce for us (it warns and fails). Without an IOMMU a bus address is the
 * physical address; with one this is merely conservative.
 */
static bool demo_irqdev_reachable(struct demo_irqdev *d, struct scatterlist *sg)
{
	return sg_phys(sg) + sg->length - 1 <= dma_get_mask(&d->pdev->dev);
}

#if defined(IRQAIO_HAVE_KMAP_LOCAL)
/* Linux 5.11: kmap_local_page() (commit f3ba3c710ac5) replaces kmap_atomic(). */
#define demo_irqdev_kmap(page)	kmap_local_page(page)
#define demo_irqdev_kunmap(p)	kunmap_local(p)
#else
#define demo_irqdev_kmap(page)	kmap_atomic(page)
#define demo_irqdev_kunmap(p)	kunmap_atomic(p)
#endif /* IRQAIO_HAVE_KMAP_LOCAL */

/* Copy a bounced piece between the caller's page and the bounce buffer. */
static void demo_irqdev_bounce_copy(struct demo_irqdev *d, struct scatterlist *sg,
				    bool to_bounce)
{
	char *p = demo_irqdev_kmap(sg_page(sg));

	if (to_bounce)
		memcpy(d->dma.bounce, p + sg->offset, sg->length);
	else
		memcpy(p + sg->offset, d->dma.bounce, sg->length);
	demo_irqdev_kunmap(p);
}

/* Map each piece the device reaches; the others go through d->dma.bounce. */
static int demo_irqdev_dma_map(struct demo_irqdev *d, struct demo_irqdev_req *r)
{
	struct device *dev = &d->pdev->dev;
	struct scatterlist *sg;
	unsigned int i;

	r->dma = kcalloc(r->async.nents, sizeof(*r->dma), GFP_KERNEL);
	if (!r->dma)
		return -ENOMEM;
	for (i = 0; i < r->async.nents; i++)
		r->dma[i] = DMA_MAPPING_ERROR;
	for_each_sg(r->async.sgl, sg, r->async.nents, i) {
		if (!demo_irqdev_reachable(d, sg)) {
			r->bounced++;
			continue;
		}
		r->dma[i] = dma_map_page(dev, sg_page(sg), sg->offset, sg->length,
					 demo_irqdev_dma_dir(r));
		if (dma_mapping_error(dev, r->dma[i]))
			return -ENOMEM;
	}
	return 0;
}

/* Undo demo_irqdev_dma_map(), also a partial one. Any context. */
static void demo_irqdev_dma_unmap(struct demo_irqdev *d, struct demo_irqdev_req *r)
{
	struct scatterlist *sg;
	unsigned int i;

	if (r->dma)
		for_each_sg(r->async.sgl, sg, r->async.nents, i)
			if (r->dma[i] != DMA_MAPPING_ERROR)
				dma_unmap_page(&d->pdev->dev, r->dma[i], sg->length,
					       demo_irqdev_dma_dir(r));
	kfree(r->dma);
	r->dma = NULL;
}

/*
 * Program the device for the next piece of the request on the wire.
 * dma.lock held. The submission clipped the request to the buffer, so
 * [off, off + length) lies inside it (outside, QEMU stops the machine).
 * Bus addresses fit the 32-bit registers: the DMA mask is 28 bits.
 */
static void demo_irqdev_dma_start(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r = d->dma.cur;
	dma_addr_t bus = r->dma[r->cur];
	u32 buf = EDU_DMA_BUF_ADDR + r->off;
	u32 ram;

	if (bus == DMA_MAPPING_ERROR) {
		bus = d->dma.bounce_dma;
		if (r->write)
			demo_irqdev_bounce_copy(d, r->sg, true);
	}
	ram = lower_32_bits(bus);
	demo_irqdev_write(d, EDU_REG_DMA_SRC, r->write ? ram : buf);
	demo_irqdev_write(d, EDU_REG_DMA_DST, r->write ? buf : ram);
	demo_irqdev_write(d, EDU_REG_DMA_COUNT, r->sg->length);
	demo_irqdev_write(d, EDU_REG_DMA_CMD, EDU_DMA_RUN | EDU_DMA_IRQ |
			  (r->write ? 0 : EDU_DMA_TO_RAM));
}

/* Put the first queued request on the wire (none while held). dma.lock held. */
static void demo_irqdev_dma_next(struct demo_irqdev *d)
{
	d->dma.cur = d->dma.hold ? NULL :
		     list_first_entry_or_null(&d->dma.queue, struct demo_irqdev_req, node);
	if (!d->dma.cur)
		return;
	list_del_init(&d->dma.cur->node);
	demo_irqdev_dma_start(d);
}

/* The first request on @list (dma.done, dma.cancelled), taken off it. */
static struct demo_irqdev_req *demo_irqdev_dma_take(struct demo_irqdev *d,
						    struct list_head *list)
{
	struct demo_irqdev_req *r;
	unsigned long flags;

	raw_spin_lock_irqsave(&d->dma.lock, flags);
	r = list_first_entry_or_null(list, struct demo_irqdev_req, node);
	if (r)
		list_del_init(&r->node);
	raw_spin_unlock_irqrestore(&d->dma.lock, flags);
	return r;
}

/* Nothing on the wire, nothing left for the IRQ thread: remove() may go on. */
static bool demo_irqdev_dma_idle(struct demo_irqdev *d)
{
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&d->dma.lock, flags);
	idle = !d->dma.cur && list_empty(&d->dma.done);
	raw_spin_unlock_irqrestore(&d->dma.lock, flags);
	return idle;
}

/*
 * The device is done with @r (or never got it): unmap, then complete it
 * through the shim, which releases the pages. Process context: on
 * PREEMPT_RT both take sleeping locks.
 */
static void demo_irqdev_dma_finish(struct demo_irqdev_req *r, ssize_t res)
{
	struct demo_irqdev *d = r->d;
	unsigned int nents = r->async.nents;
	unsigned long flags;

	demo_irqdev_dma_unmap(d, r);
	raw_spin_lock_irqsave(&d->dma.lock, flags);
	d->stats.dma_held -= nents;
	d->dma.depth--;
	raw_spin_unlock_irqrestore(&d->dma.lock, flags);
	if (aio_compat_complete(&r->async, res))
		kfree(r);
}

/*
 * In the IRQ handler: a transfer is done; start the next piece or request.
 * A finished request goes to dma.done for the IRQ thread, as completing it
 * takes sleeping locks on PREEMPT_RT. True when the thread has work.
 */
bool demo_irqdev_dma_irq(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r;
	unsigned long flags;
	bool finished = false;

	raw_spin_lock_irqsave(&d->dma.lock, flags);
	r = d->dma.cur;
	if (!r) {
		/* remove() gave up waiting for this transfer. */
		raw_spin_unlock_irqrestore(&d->dma.lock, flags);
		return false;
	}
	if (r->dma[r->cur] == DMA_MAPPING_ERROR && !r->write)
		demo_irqdev_bounce_copy(d, r->sg, false);
	r->done += r->sg->length;
	r->off += r->sg->length;
	d->stats.dma_transfers++;
	d->stats.dma_bytes += r->sg->length;
	if (++r->cur < r->async.nents) {
		r->sg = sg_next(r->sg);
		demo_irqdev_dma_start(d);
	} else {
		d->stats.dma_irq_completions++;
		d->stats.dma_bounced += r->bounced;
		list_add_tail(&r->node, &d->dma.done);
		demo_irqdev_dma_next(d);
		finished = true;
	}
	raw_spin_unlock_irqrestore(&d->dma.lock, flags);
	return finished;
}

/* Complete what the device finished, for the IRQ thread and remove(). */
void demo_irqdev_dma_reap(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r;
	unsigned long flags;

	while ((r = demo_irqdev_dma_take(d, &d->dma.done))) {
		raw_spin_lock_irqsave(&d->dma.lock, flags);
		d->stats.dma_thread_completions++;
		raw_spin_unlock_irqrestore(&d->dma.lock, flags);
		demo_irqdev_dma_finish(r, r->done);
	}
}

/*
 * io_cancel() (and io_destroy(), process exit): under the aio context's
 * lock, so a request still queued moves to dma.cancelled and a work item
 * completes it; the one on the wire completes normally (EAGAIN: not
 * cancelled, as io_cancel(2) documents).
 */
static int demo_irqdev_dma_cancel(struct kiocb *iocb)
{
	struct demo_irqdev *d = iocb->ki_filp->private_data;
	struct demo_irqdev_req *r;
	unsigned long flags;
	int ret = -EAGAIN;

	raw_spin_lock_irqsave(&d->dma.lock, flags);
	list_for_each_entry(r, &d->dma.queue, node) {
		if (r->iocb != iocb)
			continue;
		list_move_tail(&r->node, &d->dma.cancelled);
		d->stats.dma_cancelled++;
		ret = 0;
		break;
	}
	raw_spin_unlock_irqrestore(&d->dma.lock, flags);
	if (!ret)
		schedule_work(&d->dma.cancel_work);
	return ret;
}

static void demo_irqdev_cancel_work(struct work_struct *work)
{
	struct demo_irqdev *d = container_of(work, struct demo_irqdev, dma.cancel_work);
	struct demo_irqdev_req *r;

	while ((r = demo_irqdev_dma_take(d, &d->dma.cancelled)))
		demo_irqdev_dma_finish(r, -ECANCELED);
}

/*
 * Queue @r (mapped) and start the device if it is idle. -EAGAIN for a
 * request that may not wait while the device is busy, -ENODEV after
 * remove(): nothing queued.
 */
static int demo_irqdev_dma_queue(struct demo_irqdev *d, struct demo_irqdev_req *r,
				 bool may_block, bool async)
{
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&d->dma.lock, flags);
	if (d->dma.stopping) {
		ret = -ENODEV;
	} else if (!may_block && d->dma.depth) {
		d->stats.dma_eagain++;
		ret = -EAGAIN;
	} else {
		list_add_tail(&r->node, &d->dma.queue);
		d->dma.depth++;
		d->stats.dma_max_depth = max(d->stats.dma_max_depth, d->dma.depth);
		d->stats.dma_held += r->async.nents;
		if (async)
			d->stats.dma_queued++;
		else
			d->stats.dma_sync_waits++;
		if (!d->dma.cur)
			demo_irqdev_dma_next(d);
	}
	raw_spin_unlock_irqrestore(&d->dma.lock, flags);
	return ret;
}

/* DEMO_IRQDEV_IOC_DMA_HOLD, and a holder's release(): hold or let go. */
int demo_irqdev_dma_hold(struct demo_irqdev *d, struct file *file, bool hold)
{
	int ret = 0;

	raw_spin_lock_irq(&d->dma.lock);
	if (hold && d->dma.hold && d->dma.hold != file) {
		ret = -EBUSY;
	} else if (hold) {
		d->dma.hold = file;
	} else if (d->dma.hold == file) {
		d->dma.hold = NULL;
		if (!d->dma.cur && !d->dma.stopping)
			demo_irqdev_dma_next(d);
	}
	raw_spin_unlock_irq(&d->dma.lock);
	return ret;
}

/*
 * One read or write, whoever asked: pin the caller's memory, map it, queue
 * it; the interrupt handler completes it. The shim waits here for callers
 * that cannot take -EIOCBQUEUED.
 */
static ssize_t demo_irqdev_rw(struct aio_compat_req *req)
{
	struct demo_irqdev *d = req->file->private_data;
	bool may_block = aio_compat_may_block(req);
	struct demo_irqdev_req *r;
	size_t len;
	ssize_t ret;

	/* Not mapped for a device that is going away (checked again when queueing). */
	if (READ_ONCE(d->dma.stopping))
		return -ENODEV;
	if (req->pos >= EDU_DMA_BUF_SIZE)
		return req->write && req->count ? -ENOSPC : 0;
	len = min_t(size_t, req->count, EDU_DMA_BUF_SIZE - req->pos);
	if (!len)
		return 0;
	/* Not worth pinning what would be refused (checked again when queueing). */
	if (!may_block && READ_ONCE(d->dma.depth)) {
		raw_spin_lock_irq(&d->dma.lock);
		d->stats.dma_eagain++;
		raw_spin_unlock_irq(&d->dma.lock);
		return -EAGAIN;
	}

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->d = d;
	r->write = req->write;
	r->off = req->pos;
	r->iocb = req->iocb;
	aio_compat_async_init(req, &r->async);
	ret = aio_compat_pin(req, &r->async, len);
	if (ret < 0)
		goto out_free;
	ret = demo_irqdev_dma_map(d, r);
	if (ret)
		goto out_unmap;
	r->sg = r->async.sgl;
	/* Before the completer can see it: io_cancel() may run at once. */
	aio_compat_set_cancel(req, demo_irqdev_dma_cancel);
	ret = demo_irqdev_dma_queue(d, r, may_block, aio_compat_is_async(req));
	if (ret)
		goto out_unmap;
	ret = aio_compat_queued(req, &r->async);
	if (ret != -EIOCBQUEUED)
		kfree(r);
	return ret;

out_unmap:
	demo_irqdev_dma_unmap(d, r);
	aio_compat_unpin(&r->async);
out_free:
	kfree(r);
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(demo_irqdev, demo_irqdev_rw);

/*
 * remove(): fail what waits, give the transfer on the wire its interrupt
 * and the IRQ thread its completion, then make sure no cancelled request
 * is left to complete.
 */
void demo_irqdev_dma_stop(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r, *tmp;
	LIST_HEAD(failed);

	raw_spin_lock_irq(&d->dma.lock);
	WRITE_ONCE(d->dma.stopping, true);
	list_splice_init(&d->dma.queue, &failed);
	raw_spin_unlock_irq(&d->dma.lock);
	list_for_each_entry_safe(r, tmp, &failed, node) {
		raw_spin_lock_irq(&d->dma.lock);
		d->stats.dma_failed++;
		raw_spin_unlock_irq(&d->dma.lock);
		demo_irqdev_dma_finish(r, -ENODEV);
	}
	if (!wait_event_timeout(d->dma.idle, demo_irqdev_dma_idle(d),
				msecs_to_jiffies(DEMO_IRQDEV_DMA_DRAIN_MS))) {
		/* A lost interrupt: the transfer is long over (100 ms). */
		raw_spin_lock_irq(&d->dma.lock);
		r = d->dma.cur;
		d->dma.cur = NULL;
		if (r)
			d->stats.dma_failed++;
		raw_spin_unlock_irq(&d->dma.lock);
		if (r)
			demo_irqdev_dma_finish(r, -EIO);
		/* And what the thread did not get to. */
		demo_irqdev_dma_reap(d);
	}
	flush_work(&d->dma.cancel_work);
}

/* The engine's part of probe(): before anything can reach it. */
void demo_irqdev_dma_init(struct demo_irqdev *d)
{
	raw_spin_lock_init(&d->dma.lock);
	INIT_LIST_HEAD(&d->dma.queue);
	INIT_LIST_HEAD(&d->dma.done);
	INIT_LIST_HEAD(&d->dma.cancelled);
	INIT_WORK(&d->dma.cancel_work, demo_irqdev_cancel_work);
	init_waitqueue_head(&d->dma.idle);
}

static int demo_irqdev_open(struct inode *inode, struct file *file)
{
	/* misc_open() set private_data to our miscdevice, under misc_mtx. */
	struct demo_irqdev *d = container_of(file->private_data, struct demo_irqdev, misc);

	kref_get(&d->ref);
	file->private_data = d;
	/* Requests honour IOCB_NOWAIT (aio_compat_may_block()). */
	aio_compat_file_nowait(file);
	return 0;
}

static loff_t demo_irqdev_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, EDU_DMA_BUF_SIZE);
}

static int demo_irqdev_release(struct inode *inode, struct file *file)
{
	struct demo_irqdev *d = file->private_data;

	demo_irqdev_dma_hold(d, file, false);
	kref_put(&d->ref, demo_irqdev_free);
	return 0;
}

const struct file_operations demo_irqdev_fops = {
	.owner		= THIS_MODULE,
	.open		= demo_irqdev_open,
	.release	= demo_irqdev_release,
	.llseek		= demo_irqdev_llseek,
	AIO_COMPAT_FOPS(demo_irqdev),
	.unlocked_ioctl	= demo_irqdev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};
