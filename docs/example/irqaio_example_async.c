// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_example_async - the smallest driver whose requests finish later,
 * through the shim's asynchronous API (docs/using-the-shim.md, "Requests
 * finished later"). /dev/irqaio_example_async is a 4 KiB buffer: every
 * request, whoever makes it, has its memory pinned as a scatterlist the way
 * a DMA driver would map it, is queued, and is completed by a work item
 * that stands in for the device's interrupt (or, on PREEMPT_RT, its IRQ
 * thread). io_submit() and io_uring get -EIOCBQUEUED and their event
 * later; read(2) and the other synchronous callers wait inside the method,
 * in the shim: one data path. Like irqaio_example, it is built, never
 * loaded, by the project's checks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include <aio_compat.h>

#if !AIO_COMPAT_PIN_KIND
#error "irqaio_example_async: the shim knows no way to pin memory on this tree"
#endif

#define EXAMPLE_ASYNC_SIZE 4096

/* A request on its way: the shim's part first, then ours. */
struct example_async_req {
	struct aio_compat_async async;
	struct list_head node;
	loff_t pos;
	size_t len;
	bool write;
};

/* Only the work item touches the buffer: a work item never runs twice at once. */
static u8 example_async_buf[EXAMPLE_ASYNC_SIZE];
static DEFINE_SPINLOCK(example_async_lock);	/* protects the queue */
static LIST_HEAD(example_async_queue);

/*
 * The "device": move each queued request's bytes between the buffer and
 * its pinned pages, then complete it through the shim, which unpins them.
 */
static void example_async_work_fn(struct work_struct *work)
{
	struct example_async_req *r;
	size_t n;

	for (;;) {
		spin_lock_irq(&example_async_lock);
		r = list_first_entry_or_null(&example_async_queue,
					     struct example_async_req, node);
		if (r)
			list_del(&r->node);
		spin_unlock_irq(&example_async_lock);
		if (!r)
			return;
		if (r->write)
			n = sg_copy_to_buffer(r->async.sgl, r->async.nents,
					      example_async_buf + r->pos, r->len);
		else
			n = sg_copy_from_buffer(r->async.sgl, r->async.nents,
						example_async_buf + r->pos, r->len);
		if (aio_compat_complete(&r->async, n))
			kfree(r);	/* asynchronous: the completer frees */
	}
}

static DECLARE_WORK(example_async_work, example_async_work_fn);

/* The one data path: pin, queue, let the "device" finish it. */
static ssize_t example_async_rw(struct aio_compat_req *req)
{
	struct example_async_req *r;
	ssize_t ret;
	size_t len;

	if (req->pos >= EXAMPLE_ASYNC_SIZE)
		return req->write && req->count ? -ENOSPC : 0;
	len = min_t(size_t, req->count, EXAMPLE_ASYNC_SIZE - req->pos);
	if (!len)
		return 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	aio_compat_async_init(req, &r->async);
	ret = aio_compat_pin(req, &r->async, len);	/* bytes held, or -errno */
	if (ret < 0) {
		kfree(r);
		return ret;
	}
	r->pos = req->pos;
	r->len = ret;
	r->write = req->write;
	spin_lock_irq(&example_async_lock);
	list_add_tail(&r->node, &example_async_queue);
	spin_unlock_irq(&example_async_lock);
	schedule_work(&example_async_work);
	/* -EIOCBQUEUED: r is the completer's now, maybe already freed. */
	ret = aio_compat_queued(req, &r->async);
	if (ret != -EIOCBQUEUED)
		kfree(r);	/* a synchronous caller: the shim waited */
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(example_async, example_async_rw);

static loff_t example_async_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, EXAMPLE_ASYNC_SIZE);
}

static const struct file_operations example_async_fops = {
	.owner = THIS_MODULE,
	.llseek = example_async_llseek,
	AIO_COMPAT_FOPS(example_async),
};

static struct miscdevice example_async_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "irqaio_example_async",
	.fops = &example_async_fops,
};

static int __init example_async_init(void)
{
	return misc_register(&example_async_misc);
}

static void __exit example_async_exit(void)
{
	/* Open files pin the module: nothing is queued any more. */
	misc_deregister(&example_async_misc);
	flush_work(&example_async_work);
}

module_init(example_async_init);
module_exit(example_async_exit);

MODULE_DESCRIPTION("Example out-of-tree driver: requests completed later through irqaio-compat's aio_compat.h");
MODULE_LICENSE("GPL");
