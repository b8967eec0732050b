// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_FOLIOQ: ITER_FOLIOQ and iov_iter_is_folioq() exist (an
 * iov_iter over a queue of folios, used by netfs).
 * Linux 6.12 (commit db0aa2e9566f, "mm: Define struct folio_queue and
 * ITER_FOLIOQ to handle a sequence of folios").
 * doc: `ITER_FOLIOQ` | 6.12 (db0aa2e9566f)
 */
#include <linux/uio.h>

bool irqaio_probe(const struct iov_iter *i);
bool irqaio_probe(const struct iov_iter *i)
{
	return iov_iter_is_folioq(i);
}
