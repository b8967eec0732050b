// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_READ_BUF: file_operations has single-buffer aio methods,
 * ssize_t (*aio_read)(struct kiocb *, char __user *, size_t, loff_t).
 * Linux 2.6.18 and older; vectorized in 2.6.19 (commit 027445c37282,
 * "[PATCH] Vectorize aio_read/aio_write fileop methods").
 * doc: single-buffer `aio_read(kiocb, char __user *, size_t, loff_t)` | –
 *      2.6.18
 */
#include <linux/fs.h>

static ssize_t irqaio_probe_read(struct kiocb *iocb, char __user *buf,
				 size_t len, loff_t pos)
{
	return 0;
}

static ssize_t irqaio_probe_write(struct kiocb *iocb, const char __user *buf,
				  size_t len, loff_t pos)
{
	return 0;
}

static const struct file_operations irqaio_probe_fops = {
	.aio_read = irqaio_probe_read,
	.aio_write = irqaio_probe_write,
};

const struct file_operations *irqaio_probe(void);
const struct file_operations *irqaio_probe(void)
{
	return &irqaio_probe_fops;
}
