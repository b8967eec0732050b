// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_READ_IOVEC: file_operations has vectored aio methods,
 * ssize_t (*aio_read)(struct kiocb *, const struct iovec *, unsigned long,
 * loff_t).
 * Linux 2.6.19 (commit 027445c37282, "[PATCH] Vectorize aio_read/aio_write
 * fileop methods") to 4.0; removed in 4.1 once every user had ->read_iter.
 * doc: vectored `aio_read(kiocb, const struct iovec *, unsigned long, loff_t)`
 *      | 2.6.19 – 4.0 (027445c37282)
 */
#include <linux/fs.h>
#include <linux/uio.h>

static ssize_t irqaio_probe_read(struct kiocb *iocb, const struct iovec *iov,
				 unsigned long nr_segs, loff_t pos)
{
	return 0;
}

static ssize_t irqaio_probe_write(struct kiocb *iocb, const struct iovec *iov,
				  unsigned long nr_segs, loff_t pos)
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
