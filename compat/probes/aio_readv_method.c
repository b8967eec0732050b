// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_READV_METHOD: file_operations has ->readv/->writev,
 * ssize_t (*readv)(struct file *, const struct iovec *, unsigned long,
 * loff_t *). Without them readv(2) loops over ->read.
 * Linux 2.6.18 and older; removed in 2.6.19 (commit ee0b3e671baf,
 * "[PATCH] Remove readv/writev methods and use aio_read/aio_write instead").
 * doc: `file_operations.readv/.writev` | – 2.6.18 (removed ee0b3e671baf)
 */
#include <linux/fs.h>
#include <linux/uio.h>

static ssize_t irqaio_probe_readv(struct file *file, const struct iovec *iov,
				  unsigned long nr_segs, loff_t *ppos)
{
	return 0;
}

static ssize_t irqaio_probe_writev(struct file *file, const struct iovec *iov,
				   unsigned long nr_segs, loff_t *ppos)
{
	return 0;
}

static const struct file_operations irqaio_probe_fops = {
	.readv = irqaio_probe_readv,
	.writev = irqaio_probe_writev,
};

const struct file_operations *irqaio_probe(void);
const struct file_operations *irqaio_probe(void)
{
	return &irqaio_probe_fops;
}
