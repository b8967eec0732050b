// SPDX-License-Identifier: GPL-2.0
/*
 * A 2.6.18 single-buffer aio driver whose size comes from a header the
 * Makefile reaches outside the driver's directory: scripts/convert --kdir
 * and --kernel must build it where it lives.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>
#include "reachx.h"

static char reachx_store[REACHX_SIZE];

static ssize_t reachx_aio_read(struct kiocb *iocb, char __user *ubuf, size_t count,
			       loff_t pos)
{
	if (pos >= REACHX_SIZE)
		return 0;
	if (count > (size_t)(REACHX_SIZE - pos))
		count = REACHX_SIZE - pos;
	if (copy_to_user(ubuf, reachx_store + pos, count))
		return -EFAULT;
	return count;
}

static ssize_t reachx_aio_write(struct kiocb *iocb, const char __user *ubuf,
				size_t count, loff_t pos)
{
	if (pos >= REACHX_SIZE)
		return -ENOSPC;
	if (count > (size_t)(REACHX_SIZE - pos))
		count = REACHX_SIZE - pos;
	if (copy_from_user(reachx_store + pos, ubuf, count))
		return -EFAULT;
	return count;
}

static const struct file_operations reachx_fops = {
	.owner		= THIS_MODULE,
	.aio_read	= reachx_aio_read,
	.aio_write	= reachx_aio_write,
};

const struct file_operations *reachx_get_fops(void);
const struct file_operations *reachx_get_fops(void)
{
	return &reachx_fops;
}
EXPORT_SYMBOL_GPL(reachx_get_fops);

MODULE_LICENSE("GPL");
