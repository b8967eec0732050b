// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_KI_COMPLETE_2ARG: an asynchronous kiocb is completed with
 * iocb->ki_complete(iocb, res).
 * Linux 5.16 (commit 6b19b766e8f0, "fs: get rid of the res2
 * iocb->ki_complete argument").
 * doc: `iocb->ki_complete(iocb, res)` | 5.16 (6b19b766e8f0)
 */
#include <linux/fs.h>

void irqaio_probe(struct kiocb *iocb, long res);
void irqaio_probe(struct kiocb *iocb, long res)
{
	iocb->ki_complete(iocb, res);
}
