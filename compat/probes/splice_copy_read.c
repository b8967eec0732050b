// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_SPLICE_COPY_READ: copy_splice_read() exists, a ->splice_read
 * for files without a page cache: it reads through ->read_iter into pages
 * (an ITER_BVEC iov_iter) and puts them in the pipe.
 * Linux 6.5 (commit 33b3b041543e, "splice: Add a func to do a splice from
 * an O_DIRECT file without ITER_PIPE"); generic_file_splice_read() was
 * removed in the same release.
 * doc: `copy_splice_read()` | 6.5 (33b3b041543e)
 */
#include <linux/fs.h>
#include <linux/splice.h>

static const struct file_operations irqaio_probe_fops = {
	.splice_read = copy_splice_read,
};

const struct file_operations *irqaio_probe(void);
const struct file_operations *irqaio_probe(void)
{
	return &irqaio_probe_fops;
}
