// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_TYPE_FIELD: an iov_iter's type is a bit in iter->type:
 * ITER_KVEC (Linux 3.19, commit a280455fa8d8, "iov_iter.c: handle ITER_KVEC
 * directly") and ITER_BVEC (Linux 3.16, commit 62a8067a7f35, "bio_vec-backed
 * iov_iter"). The field became iter_type (an enum, no longer bits) in 5.14;
 * the accessors of iter_type_helpers.c read it since 4.20.
 * doc: type bits in `iter->type` (`ITER_KVEC`, `ITER_BVEC`) | 3.19 – 5.13
 *      (a280455fa8d8)
 */
#include <linux/uio.h>

int irqaio_probe(const struct iov_iter *i);
int irqaio_probe(const struct iov_iter *i)
{
	return !!(i->type & (ITER_KVEC | ITER_BVEC));
}
