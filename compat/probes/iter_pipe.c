// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_PIPE: ITER_PIPE and iov_iter_is_pipe() exist; splice
 * and sendfile from a ->read_iter file arrive as a pipe-backed iov_iter
 * (generic_file_splice_read()).
 * Linux 4.9 (commit 241699cd72a8, "new iov_iter flavour: pipe-backed"), the
 * accessor since 4.20; removed in 6.5 (commit 3fc40265ae2b, "iov_iter: Kill
 * ITER_PIPE"), splice then uses ITER_BVEC (copy_splice_read.c).
 * doc: `ITER_PIPE`, `iov_iter_is_pipe()` | 4.9 – 6.4 (241699cd72a8)
 */
#include <linux/uio.h>

bool irqaio_probe(const struct iov_iter *i);
bool irqaio_probe(const struct iov_iter *i)
{
	return iov_iter_is_pipe(i);
}
