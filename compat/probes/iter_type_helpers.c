// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_TYPE_HELPERS: iov_iter_is_kvec(), iov_iter_is_bvec() and
 * iov_iter_is_discard() name an iov_iter's type without reading its fields.
 * Linux 4.20 (commit 00e23707442a, "iov_iter: Use accessor function";
 * ITER_DISCARD from commit 9ea9ce0422a3). Before it: iter->type & ITER_KVEC
 * (see iter_type_field.c).
 * doc: `iov_iter_is_kvec()`/`_bvec()`/`_discard()` | 4.20 (00e23707442a)
 */
#include <linux/uio.h>

int irqaio_probe(const struct iov_iter *i);
int irqaio_probe(const struct iov_iter *i)
{
	return iov_iter_is_kvec(i) + iov_iter_is_bvec(i) + iov_iter_is_discard(i);
}
