// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 6, reported: methods not named *aio* that forward to the page
 * cache (an nfs_file_read-style filesystem method).
 */
#include <linux/fs.h>
#include <linux/aio.h>

ssize_t generic_file_aio_read(struct kiocb *iocb, char __user *buf, size_t count, loff_t pos);
ssize_t generic_file_aio_write(struct kiocb *iocb, const char __user *buf, size_t count,
			       loff_t pos);

static ssize_t fsx_file_read(struct kiocb *iocb, char __user *buf, size_t count, loff_t pos)
{
	return generic_file_aio_read(iocb, buf, count, pos);
}

static ssize_t fsx_file_write(struct kiocb *iocb, const char __user *buf, size_t count,
			      loff_t pos)
{
	return generic_file_aio_write(iocb, buf, count, pos);
}

const struct file_operations fsx_file_operations = {
	.aio_read	= fsx_file_read,
	.aio_write	= fsx_file_write,
};
