// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_SPLICE_ITER_WRITE: iter_file_splice_write() exists, a
 * ->splice_write that hands the pipe's pages to ->write_iter as an
 * ITER_BVEC iov_iter.
 * Linux 3.16 (commit 8d0207652cbe, "->splice_write() via ->write_iter()").
 * Since 5.10 (commit 36e2c7421f02) a file without ->splice_write cannot be
 * spliced to.
 * doc: `iter_file_splice_write()` | 3.16 (8d0207652cbe)
 */
#include <linux/fs.h>

static const struct file_operations irqaio_probe_fops = {
	.splice_write = iter_file_splice_write,
};

const struct file_operations *irqaio_probe(void);
const struct file_operations *irqaio_probe(void)
{
	return &irqaio_probe_fops;
}
