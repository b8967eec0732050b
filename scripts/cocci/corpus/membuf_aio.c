// SPDX-License-Identifier: GPL-2.0
/*
 * Not from the seed commit: the Linux 2.6.18 shape of a character driver
 * with asynchronous methods (single-buffer aio_read/aio_write, as in
 * LDD3's scullc of that era) plus readv/writev that loop over the
 * segments, and .read/.write = do_sync_read/do_sync_write as 2.6.18
 * filesystems set them. A 64-byte memory store; its methods move the
 * position themselves, as 2.6.18 aio methods had to.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>
#include "corpus.h"

#define MEMBUF_SIZE 64
static char membuf_store[MEMBUF_SIZE];

static ssize_t membuf_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			       loff_t pos)
{
	struct file *filp = iocb->ki_filp;

	if (!filp || pos >= MEMBUF_SIZE)
		return 0;
	if (count > (size_t)(MEMBUF_SIZE - pos))
		count = MEMBUF_SIZE - pos;
	if (copy_to_user(buf, membuf_store + pos, count))
		return -EFAULT;
	if (count)	/* nothing read: the position stays */
		iocb->ki_pos = pos + count;
	return count;
}

static ssize_t membuf_aio_write(struct kiocb *iocb, const char __user *buf,
				size_t count, loff_t pos)
{
	if (pos >= MEMBUF_SIZE)
		return -ENOSPC;
	if (count > (size_t)(MEMBUF_SIZE - pos))
		count = MEMBUF_SIZE - pos;
	if (copy_from_user(membuf_store + pos, buf, count))
		return -EFAULT;
	iocb->ki_pos = pos + count;
	return count;
}

static ssize_t membuf_readv(struct file *filp, const struct iovec *iov,
			    unsigned long nr_segs, loff_t *ppos)
{
	struct kiocb kiocb;
	ssize_t done = 0, n;
	unsigned long i;

	init_sync_kiocb(&kiocb, filp);
	for (i = 0; i < nr_segs; i++) {
		n = membuf_aio_read(&kiocb, iov[i].iov_base, iov[i].iov_len, *ppos);
		if (n < 0)
			return done ? done : n;
		*ppos += n;
		done += n;
		if ((size_t)n < iov[i].iov_len)
			break;
	}
	return done;
}

static ssize_t membuf_writev(struct file *filp, const struct iovec *iov,
			     unsigned long nr_segs, loff_t *ppos)
{
	struct kiocb kiocb;
	ssize_t done = 0, n;
	unsigned long i;

	init_sync_kiocb(&kiocb, filp);
	for (i = 0; i < nr_segs; i++) {
		n = membuf_aio_write(&kiocb, iov[i].iov_base, iov[i].iov_len, *ppos);
		if (n < 0)
			return done ? done : n;
		*ppos += n;
		done += n;
		if ((size_t)n < iov[i].iov_len)
			break;
	}
	return done;
}

static const struct file_operations membuf_fops = {
	.read		= do_sync_read,
	.write		= do_sync_write,
	.aio_read	= membuf_aio_read,
	.aio_write	= membuf_aio_write,
	.readv		= membuf_readv,
	.writev		= membuf_writev,
};

const struct file_operations *corpus_membuf_fops(void);
const struct file_operations *corpus_membuf_fops(void)
{
	return &membuf_fops;
}
