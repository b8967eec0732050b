// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_IS_IOVEC: iter_is_iovec() tells a user iovec-array
 * iov_iter from kernel-backed ones (kvec, bvec, pipe, ...).
 * Linux 4.1 (Al Viro's iov_iter work; before it, iter->type & ITER_IOVEC).
 * doc: `iter_is_iovec()` | 4.1
 */
#include <linux/uio.h>

bool irqaio_probe(const struct iov_iter *i);
bool irqaio_probe(const struct iov_iter *i)
{
	return iter_is_iovec(i);
}
