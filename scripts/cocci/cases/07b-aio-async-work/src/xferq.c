// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 7b, converted: the data moves at submission; an asynchronous
 * kiocb is kept in a request object that a work item completes with
 * aio_complete() and frees; a synchronous one is answered at once.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#define XFERQ_SIZE 256
static char xferq_store[XFERQ_SIZE];

struct xferq_req {
	struct work_struct work;
	struct kiocb *iocb;
	ssize_t res;
};

static void xferq_done(void *data)
{
	struct xferq_req *r = data;

	aio_complete(r->iocb, r->res, 0);
	kfree(r);
}

static ssize_t xferq_queue(struct kiocb *iocb, ssize_t res)
{
	struct xferq_req *r;

	if (is_sync_kiocb(iocb))
		return res;
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->iocb = iocb;
	r->res = res;
	INIT_WORK(&r->work, xferq_done, r);
	schedule_work(&r->work);
	return -EIOCBQUEUED;
}

static ssize_t xferq_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			      loff_t pos)
{
	if (pos >= XFERQ_SIZE)
		return 0;
	if (count > (size_t)(XFERQ_SIZE - pos))
		count = XFERQ_SIZE - pos;
	if (copy_to_user(buf, xferq_store + pos, count))
		return -EFAULT;
	return xferq_queue(iocb, count);
}

static ssize_t xferq_aio_write(struct kiocb *iocb, const char __user *buf,
			       size_t count, loff_t pos)
{
	if (pos >= XFERQ_SIZE)
		return -ENOSPC;
	if (count > (size_t)(XFERQ_SIZE - pos))
		count = XFERQ_SIZE - pos;
	if (copy_from_user(xferq_store + pos, buf, count))
		return -EFAULT;
	return xferq_queue(iocb, count);
}

static const struct file_operations xferq_fops = {
	.aio_read	= xferq_aio_read,
	.aio_write	= xferq_aio_write,
};

const struct file_operations *xferq_get_fops(void);
const struct file_operations *xferq_get_fops(void)
{
	return &xferq_fops;
}
