// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_IOV: iter_iov() returns the current iovec of a user
 * iov_iter; the member itself became iter->__iov.
 * Linux 6.4 (Jens Axboe's "iov_iter: add iter_iovec() helper" /
 * "iov_iter: rename iov to __iov" series; OpenZFS probes it as a 6.5 fix).
 * doc: `iter_iov()` (the member became `__iov`) | 6.4
 */
#include <linux/uio.h>

const struct iovec *irqaio_probe(const struct iov_iter *i);
const struct iovec *irqaio_probe(const struct iov_iter *i)
{
	return iter_iov(i);
}
