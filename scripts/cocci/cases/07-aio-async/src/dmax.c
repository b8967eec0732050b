// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 7, converted: the aio methods queue the request and a helper
 * completes it later with aio_complete() (as LDD3's scullc deferred its
 * asynchronous requests to a work item).
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>

static struct kiocb *dmax_pending;
static size_t dmax_count;

void dmax_work(void);
void dmax_work(void)
{
	if (dmax_pending)
		aio_complete(dmax_pending, dmax_count, 0);
	dmax_pending = NULL;
}

static ssize_t dmax_defer(struct kiocb *iocb, size_t count)
{
	if (is_sync_kiocb(iocb))
		return count;
	dmax_pending = iocb;
	dmax_count = count;
	return -EIOCBQUEUED;
}

static ssize_t dmax_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			     loff_t pos)
{
	return dmax_defer(iocb, count);
}

static ssize_t dmax_aio_write(struct kiocb *iocb, const char __user *buf,
			      size_t count, loff_t pos)
{
	return dmax_defer(iocb, count);
}

static const struct file_operations dmax_fops = {
	.aio_read	= dmax_aio_read,
	.aio_write	= dmax_aio_write,
};

const struct file_operations *dmax_get_fops(void);
const struct file_operations *dmax_get_fops(void)
{
	return &dmax_fops;
}
