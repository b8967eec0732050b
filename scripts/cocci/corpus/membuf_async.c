// SPDX-License-Identifier: GPL-2.0
/*
 * Not from the seed commit: the Linux 2.6.18 shape of a character driver
 * whose aio methods finish an asynchronous request later, from a work item
 * (the way drivers of that era deferred requests to a device). A 64-byte
 * memory store: a write's bytes are copied from the user at submission,
 * while the submitter's mm is current, and reach the store only when the
 * work item runs, which then completes the kiocb with aio_complete(). A
 * read copies at submission and the work item only reports it. A
 * synchronous kiocb (read(2), write(2) through do_sync_read()) is served at
 * once, so its caller never waits for the work queue.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include "corpus.h"

#define MEMBUF_ASYNC_SIZE 64
static char membuf_async_store[MEMBUF_ASYNC_SIZE];

/* One request between its method and the work item that finishes it. */
struct membuf_async_req {
	struct work_struct work;
	struct kiocb *iocb;
	loff_t pos;
	size_t count;
	int write;
	char data[MEMBUF_ASYNC_SIZE];	/* a write's bytes until they are stored */
};

/* What the device does with a request: store a write; the bytes moved. */
static ssize_t membuf_async_commit(struct membuf_async_req *r)
{
	if (r->write)
		memcpy(membuf_async_store + r->pos, r->data, r->count);
	return r->count;
}

static void membuf_async_work(void *data)
{
	struct membuf_async_req *r = data;
	ssize_t res = membuf_async_commit(r);

	aio_complete(r->iocb, res, 0);
	kfree(r);
}

/* Finish @r now for a synchronous @iocb, else hand it to the work item. */
static ssize_t membuf_async_submit(struct kiocb *iocb, struct membuf_async_req *r)
{
	ssize_t res;

	if (is_sync_kiocb(iocb)) {
		res = membuf_async_commit(r);
		kfree(r);
		return res;
	}
	r->iocb = iocb;
	INIT_WORK(&r->work, membuf_async_work, r);
	schedule_work(&r->work);
	return -EIOCBQUEUED;
}

static struct membuf_async_req *membuf_async_req_alloc(loff_t pos, size_t *count,
						       int write)
{
	struct membuf_async_req *r;

	if (*count > (size_t)(MEMBUF_ASYNC_SIZE - pos))
		*count = MEMBUF_ASYNC_SIZE - pos;
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return NULL;
	r->pos = pos;
	r->count = *count;
	r->write = write;
	return r;
}

static ssize_t membuf_async_aio_read(struct kiocb *iocb, char __user *buf,
				     size_t count, loff_t pos)
{
	struct membuf_async_req *r;

	if (pos >= MEMBUF_ASYNC_SIZE)
		return 0;
	r = membuf_async_req_alloc(pos, &count, 0);
	if (!r)
		return -ENOMEM;
	if (copy_to_user(buf, membuf_async_store + pos, count)) {
		kfree(r);
		return -EFAULT;
	}
	iocb->ki_pos = pos + count;
	return membuf_async_submit(iocb, r);
}

static ssize_t membuf_async_aio_write(struct kiocb *iocb, const char __user *buf,
				      size_t count, loff_t pos)
{
	struct membuf_async_req *r;

	if (pos >= MEMBUF_ASYNC_SIZE)
		return -ENOSPC;
	r = membuf_async_req_alloc(pos, &count, 1);
	if (!r)
		return -ENOMEM;
	if (copy_from_user(r->data, buf, count)) {
		kfree(r);
		return -EFAULT;
	}
	iocb->ki_pos = pos + count;
	return membuf_async_submit(iocb, r);
}

static const struct file_operations membuf_async_fops = {
	.read		= do_sync_read,
	.write		= do_sync_write,
	.aio_read	= membuf_async_aio_read,
	.aio_write	= membuf_async_aio_write,
};

const struct file_operations *corpus_membuf_async_fops(void);
const struct file_operations *corpus_membuf_async_fops(void)
{
	return &membuf_async_fops;
}
