// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_READ_ITER: file_operations has ->read_iter/->write_iter,
 * ssize_t (*)(struct kiocb *, struct iov_iter *), and iov_iter_advance()
 * is exported.
 * Linux 3.16 (commit 293bc9822fa9, "new methods: ->read_iter() and
 * ->write_iter()"); the only aio methods since 4.1.
 * doc: `read_iter`/`write_iter`, `iov_iter_advance()` exported | 3.16
 *      (293bc9822fa9)
 * probe: link
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/uio.h>

static ssize_t irqaio_probe_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	iov_iter_advance(to, 0);
	return 0;
}

static ssize_t irqaio_probe_write_iter(struct kiocb *iocb,
				       struct iov_iter *from)
{
	return 0;
}

static const struct file_operations irqaio_probe_fops = {
	.read_iter = irqaio_probe_read_iter,
	.write_iter = irqaio_probe_write_iter,
};

const struct file_operations *irqaio_probe(void);
const struct file_operations *irqaio_probe(void)
{
	return &irqaio_probe_fops;
}
