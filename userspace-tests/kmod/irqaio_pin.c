// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_pin - TEST-ONLY module, not a demo driver: a misc device whose
 * handler pins the whole request with aio_compat_pin(), checks the list it
 * got, and completes it from a work item, as a DMA driver's interrupt
 * would, without a device: requests of any size the VFS lets through are
 * pinned and given back in no device time. Reads leave the caller's memory
 * as it was; the tests look at sizes, lists and what stays pinned.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
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

struct irqaio_pin_req {
	struct aio_compat_async async;
	struct work_struct work;
	ssize_t res;
};

static struct workqueue_struct *irqaio_pin_wq;
static DEFINE_SPINLOCK(irqaio_pin_lock);
static struct irqaio_pin_stats irqaio_pin_stats;

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
		if (sg_is_last(sg) != (k == a->nents - 1))
			return false;
	}
	return bytes == a->pinned;
}

static void irqaio_pin_complete(struct work_struct *work)
{
	struct irqaio_pin_req *r = container_of(work, struct irqaio_pin_req, work);
	unsigned int nents = r->async.nents;

	spin_lock(&irqaio_pin_lock);
	irqaio_pin_stats.held -= nents;
	irqaio_pin_stats.requests++;
	spin_unlock(&irqaio_pin_lock);
	if (aio_compat_complete(&r->async, r->res))
		kfree(r);
}

static ssize_t irqaio_pin_rw(struct aio_compat_req *req)
{
	struct irqaio_pin_req *r;
	ssize_t ret;
	bool ok;

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
	ok = irqaio_pin_list_ok(&r->async);
	r->res = ret;
	INIT_WORK(&r->work, irqaio_pin_complete);
	spin_lock(&irqaio_pin_lock);
	irqaio_pin_stats.held += r->async.nents;
	irqaio_pin_stats.bad_lists += !ok;
	irqaio_pin_stats.last_nents = r->async.nents;
	irqaio_pin_stats.last_pinned = r->async.pinned;
	spin_unlock(&irqaio_pin_lock);
	queue_work(irqaio_pin_wq, &r->work);
	ret = aio_compat_queued(req, &r->async);
	if (ret != -EIOCBQUEUED)
		kfree(r);
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(irqaio_pin, irqaio_pin_rw);

static long irqaio_pin_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct irqaio_pin_stats s;

	if (cmd != IRQAIO_PIN_IOC_STATS)
		return -ENOTTY;
	spin_lock(&irqaio_pin_lock);
	s = irqaio_pin_stats;
	spin_unlock(&irqaio_pin_lock);
	return copy_to_user((void __user *)arg, &s, sizeof(s)) ? -EFAULT : 0;
}

static const struct file_operations irqaio_pin_fops = {
	.owner = THIS_MODULE,
	AIO_COMPAT_FOPS(irqaio_pin),
	.unlocked_ioctl = irqaio_pin_ioctl,
	.llseek = noop_llseek,
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

	irqaio_pin_wq = alloc_workqueue(IRQAIO_PIN_NAME, 0, 0);
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
