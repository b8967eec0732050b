// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_SPLICE_GENERIC_READ: generic_file_splice_read() exists and
 * serves a ->read_iter file (through an ITER_PIPE iov_iter since 4.9).
 * Linux 2.6.17 to 6.4; removed in 6.5 by commit c6585011bc1d
 * ("splice: Remove generic_file_splice_read()"), see splice_copy_read.c.
 * Since 5.10 (commit 36e2c7421f02) a file without ->splice_read cannot be
 * spliced from at all.
 * doc: `generic_file_splice_read()` | – 6.4
 */
#include <linux/fs.h>

static const struct file_operations irqaio_probe_fops = {
	.splice_read = generic_file_splice_read,
};

const struct file_operations *irqaio_probe(void);
const struct file_operations *irqaio_probe(void)
{
	return &irqaio_probe_fops;
}
