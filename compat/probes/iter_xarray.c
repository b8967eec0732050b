// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_XARRAY: ITER_XARRAY and iov_iter_is_xarray() exist (an
 * iov_iter over a page cache range, used by netfs).
 * Linux 5.14 (commit 7ff5062079ef, "iov_iter: Add ITER_XARRAY").
 * doc: `ITER_XARRAY` | 5.14 (7ff5062079ef)
 */
#include <linux/uio.h>

bool irqaio_probe(const struct iov_iter *i);
bool irqaio_probe(const struct iov_iter *i)
{
	return iov_iter_is_xarray(i);
}
