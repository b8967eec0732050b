// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_UBUF: the ITER_UBUF flavour (one user buffer in
 * iter->ubuf, no iovec array) and iter_is_ubuf() exist.
 * Linux 6.0 (commit fcb14cb1bdac, "new iov_iter flavour - ITER_UBUF");
 * read(2)/write(2) build it since 6.0, single-segment readv/preadv and
 * io_submit requests since 6.4/6.5.
 * doc: `ITER_UBUF`, `iter_is_ubuf()` | 6.0 (fcb14cb1bdac)
 */
#include <linux/uio.h>

void __user *irqaio_probe(const struct iov_iter *i);
void __user *irqaio_probe(const struct iov_iter *i)
{
	return iter_is_ubuf(i) ? i->ubuf : NULL;
}
