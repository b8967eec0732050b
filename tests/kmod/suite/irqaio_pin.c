// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_pin - TEST-ONLY module, not a demo driver: a misc device whose
 * handler pins the whole request with aio_compat_pin(), checks the list it
 * got, and completes it from a work item, as a DMA driver's interrupt
 * would, without a device: requests of any size the VFS lets through are
 * pinned and given back in no device time. Reads leave the caller's memory
 * as it was; the tests look at sizes, lists and what stays pinned.
 *
 * Its modes (irqaio_pin.h) are the shapes of a real DMA driver the demos
 * do not have: a device that never completes (held requests, a bounded
 * synchronous wait, aio_compat_queued_timeout()), a submit that completes
 * the request with an error and also returns it, a device addressed by
 * lseek() alone (keep_pos), a DMA alignment checked on the pinned
 * pieces (aio_compat_pin_aligned()) and a read buffer that writeback
 * cleans during the transfer, completed where nothing may sleep.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bottom_half.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <aio_compat.h>
#include "irqaio_pin.h"

#if !AIO_COMPAT_PIN_KIND
#error "irqaio_pin: the shim has no aio_compat_pin() for this tree"
#endif

#define IRQAIO_PIN_FLAGS	(IRQAIO_PIN_HOLD | IRQAIO_PIN_SUBMIT_FAILS | \
				 IRQAIO_PIN_KEEP_POS | IRQAIO_PIN_CLEAN)

struct irqaio_pin_req {
	struct aio_compat_async async;
	struct work_struct work;
	struct list_head node;		/* on irqaio_pin_held */
	ssize_t res;
	bool clean;			/* IRQAIO_PIN_CLEAN */
};

static struct workqueue_struct *irqaio_pin_wq;
/* Guards the statistics, the mode and the held list. */
static DEFINE_SPINLOCK(irqaio_pin_lock);
static struct irqaio_pin_stats irqaio_pin_stats;
static struct irqaio_pin_mode irqaio_pin_mode;
static LIST_HEAD(irqaio_pin_held);

/* Walk the list as a driver's dma_map_sg() would; true if it adds up. */
static bool irqaio_pin_list_ok(const struct aio_compat_async *a)
{
	struct scatterlist *sg;
	size_t bytes = 0;
	unsigned int k;

	for_each_sg(a->sgl, sg, a->nents, k) {
		if (!sg->length || sg->offset + sg->length > PAGE_SIZE)
			return false;
		bytes += sg->length;
		if (!!sg_is_last(sg) != (k == a->nents - 1))
			return false;
	}
	return bytes == a->pinned;
}

/* The device is done with @r: give it back, complete it once. */
static void irqaio_pin_finish(struct irqaio_pin_req *r, ssize_t res)
{
	spin_lock(&irqaio_pin_lock);
	irqaio_pin_stats.held -= r->async.nents;
	irqaio_pin_stats.requests++;
	spin_unlock(&irqaio_pin_lock);
	if (aio_compat_complete(&r->async, res))
		kfree(r);
}

/*
 * What writeback does to a MAP_SHARED file page while the device writes
 * into it: the page is clean when the transfer ends. The shim must dirty
 * it again, and cannot here: the completion below runs where nothing may
 * sleep, so it hands that on.
 */
static void irqaio_pin_clean(struct irqaio_pin_req *r)
{
	struct scatterlist *sg;
	unsigned int k, n = 0;

	for_each_sg(r->async.sgl, sg, r->async.nents, k) {
		lock_page(sg_page(sg));
		n += TestClearPageDirty(sg_page(sg));
		unlock_page(sg_page(sg));
	}
	spin_lock(&irqaio_pin_lock);
	irqaio_pin_stats.cleaned += n;
	spin_unlock(&irqaio_pin_lock);
}

static void irqaio_pin_complete(struct work_struct *work)
{
	struct irqaio_pin_req *r = container_of(work, struct irqaio_pin_req, work);

	if (!r->clean) {
		irqaio_pin_finish(r, r->res);
		return;
	}
	irqaio_pin_clean(r);
	local_bh_disable();
	irqaio_pin_finish(r, r->res);
	local_bh_enable();
}

/*
 * Hand @r to the device: queue its completion, or hold it. With
 * IRQAIO_PIN_SUBMIT_FAILS the submit completes @r with -EIO itself and
 * also returns -EIO, as some drivers' non-blocking submits do.
 */
static int irqaio_pin_submit(struct irqaio_pin_req *r, u32 flags)
{
	if (flags & IRQAIO_PIN_SUBMIT_FAILS) {
		irqaio_pin_finish(r, -EIO);
		return -EIO;
	}
	if (flags & IRQAIO_PIN_HOLD) {
		spin_lock(&irqaio_pin_lock);
		list_add_tail(&r->node, &irqaio_pin_held);
		spin_unlock(&irqaio_pin_lock);
		return 0;
	}
	queue_work(irqaio_pin_wq, &r->work);
	return 0;
}

/* Take @r back from the device; false if the device finished it first. */
static bool irqaio_pin_take_back(struct irqaio_pin_req *r)
{
	struct irqaio_pin_req *h;
	bool found = false;

	spin_lock(&irqaio_pin_lock);
	list_for_each_entry(h, &irqaio_pin_held, node) {
		if (h == r) {
			list_del(&r->node);
			irqaio_pin_stats.taken_back++;
			found = true;
			break;
		}
	}
	spin_unlock(&irqaio_pin_lock);
	return found;
}

static ssize_t irqaio_pin_rw(struct aio_compat_req *req)
{
	struct irqaio_pin_mode mode;
	struct irqaio_pin_req *r;
	ssize_t ret;
	bool ok;

	spin_lock(&irqaio_pin_lock);
	mode = irqaio_pin_mode;
	spin_unlock(&irqaio_pin_lock);
	req->keep_pos = mode.flags & IRQAIO_PIN_KEEP_POS;
	if (!req->count)
		return 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	aio_compat_async_init(req, &r->async);
	ret = aio_compat_pin(req, &r->async, req->count);
	if (ret < 0) {
		kfree(r);
		return ret;
	}
	/* The card address is the file position, as for a DMA engine's. */
	if (mode.align && !aio_compat_pin_aligned(&r->async, mode.align, req->pos)) {
		aio_compat_unpin(&r->async);
		kfree(r);
		spin_lock(&irqaio_pin_lock);
		irqaio_pin_stats.misaligned++;
		spin_unlock(&irqaio_pin_lock);
		return -EINVAL;
	}
	ok = irqaio_pin_list_ok(&r->async);
	r->res = ret;
	r->clean = (mode.flags & IRQAIO_PIN_CLEAN) && !req->write;
	INIT_WORK(&r->work, irqaio_pin_complete);
	INIT_LIST_HEAD(&r->node);
	spin_lock(&irqaio_pin_lock);
	irqaio_pin_stats.held += r->async.nents;
	irqaio_pin_stats.bad_lists += !ok;
	irqaio_pin_stats.last_nents = r->async.nents;
	irqaio_pin_stats.last_pinned = r->async.pinned;
	spin_unlock(&irqaio_pin_lock);
	/*
	 * Whatever the submit returns, it has either queued @r or completed
	 * it: from here on @r is owned as aio_compat_complete() says, and
	 * this handler's only way out is the shim's wait.
	 */
	(void)irqaio_pin_submit(r, mode.flags);
	if (!mode.timeout_ms) {
		ret = aio_compat_queued(req, &r->async);
	} else {
		ret = aio_compat_queued_timeout(req, &r->async,
						msecs_to_jiffies(mode.timeout_ms));
		if (ret == -ETIMEDOUT || ret == -EINTR) {
			/* Ours again, unless the device finished it meanwhile. */
			if (irqaio_pin_take_back(r))
				irqaio_pin_finish(r, ret);
			aio_compat_reclaim(&r->async);
			kfree(r);
			return ret;
		}
	}
	if (ret != -EIOCBQUEUED)
		kfree(r);
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(irqaio_pin, irqaio_pin_rw);

/* Complete every held request with its bytes. */
static void irqaio_pin_release(void)
{
	struct irqaio_pin_req *r, *tmp;
	LIST_HEAD(done);

	spin_lock(&irqaio_pin_lock);
	list_splice_init(&irqaio_pin_held, &done);
	spin_unlock(&irqaio_pin_lock);
	list_for_each_entry_safe(r, tmp, &done, node) {
		list_del(&r->node);
		spin_lock(&irqaio_pin_lock);
		irqaio_pin_stats.released++;
		spin_unlock(&irqaio_pin_lock);
		irqaio_pin_finish(r, r->res);
	}
}

static long irqaio_pin_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct irqaio_pin_stats s;
	struct irqaio_pin_mode m;

	switch (cmd) {
	case IRQAIO_PIN_IOC_STATS:
		spin_lock(&irqaio_pin_lock);
		s = irqaio_pin_stats;
		spin_unlock(&irqaio_pin_lock);
		return copy_to_user(argp, &s, sizeof(s)) ? -EFAULT : 0;
	case IRQAIO_PIN_IOC_MODE:
		if (copy_from_user(&m, argp, sizeof(m)))
			return -EFAULT;
		if ((m.flags & ~IRQAIO_PIN_FLAGS) || m.pad ||
		    (m.align & (m.align - 1)) || m.align > PAGE_SIZE)
			return -EINVAL;
		spin_lock(&irqaio_pin_lock);
		irqaio_pin_mode = m;
		spin_unlock(&irqaio_pin_lock);
		return 0;
	case IRQAIO_PIN_IOC_RELEASE:
		irqaio_pin_release();
		return 0;
	}
	return -ENOTTY;
}

static const struct file_operations irqaio_pin_fops = {
	.owner = THIS_MODULE,
	AIO_COMPAT_FOPS(irqaio_pin),
	.unlocked_ioctl = irqaio_pin_ioctl,
	.llseek = default_llseek,
};

static struct miscdevice irqaio_pin_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = IRQAIO_PIN_NAME,
	.fops = &irqaio_pin_fops,
	.mode = 0600,
};

static int __init irqaio_pin_init(void)
{
	int ret;

	irqaio_pin_wq = alloc_workqueue(IRQAIO_PIN_NAME, WQ_UNBOUND, 0);
	if (!irqaio_pin_wq)
		return -ENOMEM;
	ret = misc_register(&irqaio_pin_misc);
	if (ret)
		destroy_workqueue(irqaio_pin_wq);
	return ret;
}

static void __exit irqaio_pin_exit(void)
{
	misc_deregister(&irqaio_pin_misc);
	/* Held asynchronous requests hold the file, so none is left here. */
	WARN_ON(!list_empty(&irqaio_pin_held));
	/*
	 * A work item may still be returning from the completion that
	 * dropped the last file reference: drained here.
	 */
	destroy_workqueue(irqaio_pin_wq);
}

module_init(irqaio_pin_init);
module_exit(irqaio_pin_exit);
MODULE_DESCRIPTION("Test-only: requests of any size pinned through aio_compat_pin()");
MODULE_LICENSE("GPL");
