// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_DEST: ITER_DEST/ITER_SOURCE name the direction of an
 * iov_iter (ITER_DEST == READ: data flows into the iterator).
 * Linux 6.1 (commit de4eda9de2d9, "use less confusing names for iov_iter
 * direction initializers"); Debian's 5.10 carries the backport.
 */
#include <linux/uio.h>

int irqaio_probe(const struct iov_iter *i);
int irqaio_probe(const struct iov_iter *i)
{
	return iov_iter_rw(i) == ITER_DEST;
}
