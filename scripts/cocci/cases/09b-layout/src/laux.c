// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 9: a comment right after the includes, a file_operations with
 * aligned initialisers and do_sync_read/do_sync_write as its last entries.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>
/* The store: LAUX_SIZE bytes, no locking (one opener). */
#define LAUX_SIZE 8
static char laux_store[LAUX_SIZE];

ssize_t do_sync_read(struct file *filp, char __user *buf, size_t len, loff_t *ppos);
ssize_t do_sync_write(struct file *filp, const char __user *buf, size_t len, loff_t *ppos);

static ssize_t laux_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			     loff_t pos)
{
	if (pos >= LAUX_SIZE)
		return 0;
	if (count > (size_t)(LAUX_SIZE - pos))
		count = LAUX_SIZE - pos;
	if (copy_to_user(buf, laux_store + pos, count))
		return -EFAULT;
	return count;
}

static ssize_t laux_aio_write(struct kiocb *iocb, const char __user *buf,
			      size_t count, loff_t pos)
{
	if (pos >= LAUX_SIZE)
		return -ENOSPC;
	if (count > (size_t)(LAUX_SIZE - pos))
		count = LAUX_SIZE - pos;
	if (copy_from_user(laux_store + pos, buf, count))
		return -EFAULT;
	return count;
}

static const struct file_operations laux_fops = {
	.aio_read	= laux_aio_read,
	.aio_write	= laux_aio_write,
	.read		= do_sync_read,
	.write		= do_sync_write,
};

const struct file_operations *laux_get_fops(void);
const struct file_operations *laux_get_fops(void)
{
	return &laux_fops;
}
