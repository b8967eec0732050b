// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 6: forward declarations with unnamed parameters, the
 * file_operations before the methods.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>

#define REGX_SIZE 8

static ssize_t regx_aio_read(struct kiocb *, char __user *, size_t, loff_t);
static ssize_t regx_aio_write(struct kiocb *, const char __user *, size_t, loff_t);

static const struct file_operations regx_fops = {
	.aio_read	= regx_aio_read,
	.aio_write	= regx_aio_write,
};

static char regx_store[REGX_SIZE];

static ssize_t regx_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			     loff_t pos)
{
	if (pos >= REGX_SIZE)
		return 0;
	if (count > (size_t)(REGX_SIZE - pos))
		count = REGX_SIZE - pos;
	if (copy_to_user(buf, regx_store + pos, count))
		return -EFAULT;
	return count;
}

static ssize_t regx_aio_write(struct kiocb *iocb, const char __user *buf,
			      size_t count, loff_t pos)
{
	if (pos >= REGX_SIZE)
		return -ENOSPC;
	if (count > (size_t)(REGX_SIZE - pos))
		count = REGX_SIZE - pos;
	if (copy_from_user(regx_store + pos, buf, count))
		return -EFAULT;
	return count;
}

const struct file_operations *regx_get_fops(void);
const struct file_operations *regx_get_fops(void)
{
	return &regx_fops;
}
