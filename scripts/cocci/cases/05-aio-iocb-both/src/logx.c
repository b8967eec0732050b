// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 5: one call uses both the kiocb and iocb->ki_filp (a trace
 * helper that logs the request and its file).
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/uaccess.h>

#define LOGX_SIZE 16
static char logx_store[LOGX_SIZE];
static unsigned long logx_sync, logx_files;

static void logx_trace(struct kiocb *iocb, struct file *filp)
{
	logx_sync += iocb && is_sync_kiocb(iocb);
	logx_files += filp != NULL;
}

static ssize_t logx_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			     loff_t pos)
{
	logx_trace(iocb, iocb->ki_filp);
	if (pos >= LOGX_SIZE)
		return 0;
	if (count > (size_t)(LOGX_SIZE - pos))
		count = LOGX_SIZE - pos;
	if (copy_to_user(buf, logx_store + pos, count))
		return -EFAULT;
	return count;
}

static ssize_t logx_aio_write(struct kiocb *iocb, const char __user *buf,
			      size_t count, loff_t pos)
{
	if (pos >= LOGX_SIZE)
		return -ENOSPC;
	if (count > (size_t)(LOGX_SIZE - pos))
		count = LOGX_SIZE - pos;
	if (copy_from_user(logx_store + pos, buf, count))
		return -EFAULT;
	return count;
}

static const struct file_operations logx_fops = {
	.aio_read	= logx_aio_read,
	.aio_write	= logx_aio_write,
};

const struct file_operations *logx_get_fops(void);
const struct file_operations *logx_get_fops(void)
{
	return &logx_fops;
}
