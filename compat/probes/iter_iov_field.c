// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_IOV_FIELD: struct iov_iter has a public "iov" member
 * (const struct iovec *), read directly by code that walks the segments.
 * Linux 3.16 (iov_iter became the method argument) to 6.3; renamed __iov
 * behind iter_iov() in 6.4 (see iter_iov.c).
 * doc: the public `iter->iov` member | 3.16 – 6.3
 */
#include <linux/uio.h>

const struct iovec *irqaio_probe(const struct iov_iter *i);
const struct iovec *irqaio_probe(const struct iov_iter *i)
{
	return i->iov;
}
