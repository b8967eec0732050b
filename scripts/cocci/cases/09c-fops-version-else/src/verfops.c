// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 9c: the legacy methods only in the #else of a version test
 * inside the file_operations initialiser (not at 2.6.19), as drivers that
 * grew read_iter later write it. Coccinelle reads one branch of an #if;
 * the methods in the other are left as they were and must be reported.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#define VERF_SIZE 8

static char verf_store[VERF_SIZE];

static ssize_t verf_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			     loff_t pos)
{
	if (pos >= VERF_SIZE)
		return 0;
	if (count > (size_t)(VERF_SIZE - pos))
		count = VERF_SIZE - pos;
	if (copy_to_user(buf, verf_store + pos, count))
		return -EFAULT;
	return count;
}

static const struct file_operations verf_fops = {
#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 16, 0)
	.read_iter = NULL,
#else
	.aio_read = verf_aio_read,
#endif
};

const struct file_operations *verf_get_fops(void);
const struct file_operations *verf_get_fops(void)
{
	return &verf_fops;
}
