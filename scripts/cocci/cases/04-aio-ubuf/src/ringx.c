// SPDX-License-Identifier: GPL-2.0
/* Pattern 4: the aio methods' buffer parameter is already called ubuf. */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>

#define RINGX_SIZE 32
static char ringx_store[RINGX_SIZE];

static ssize_t ringx_aio_read(struct kiocb *iocb, char __user *ubuf, size_t count,
			      loff_t pos)
{
	if (pos >= RINGX_SIZE)
		return 0;
	if (count > (size_t)(RINGX_SIZE - pos))
		count = RINGX_SIZE - pos;
	if (copy_to_user(ubuf, ringx_store + pos, count))
		return -EFAULT;
	iocb->ki_pos = pos + count;
	return count;
}

static ssize_t ringx_aio_write(struct kiocb *iocb, const char __user *ubuf,
			       size_t count, loff_t pos)
{
	if (pos >= RINGX_SIZE)
		return -ENOSPC;
	if (count > (size_t)(RINGX_SIZE - pos))
		count = RINGX_SIZE - pos;
	if (copy_from_user(ringx_store + pos, ubuf, count))
		return -EFAULT;
	iocb->ki_pos = pos + count;
	return count;
}

static const struct file_operations ringx_fops = {
	.aio_read	= ringx_aio_read,
	.aio_write	= ringx_aio_write,
};

const struct file_operations *ringx_get_fops(void);
const struct file_operations *ringx_get_fops(void)
{
	return &ringx_fops;
}
