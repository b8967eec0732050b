// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_KI_COMPLETE_3ARG: an asynchronous kiocb is completed with
 * iocb->ki_complete(iocb, res, res2).
 * Linux 4.1 (commit 04b2fa9f8f36, "fs: split generic and aio kiocb") to
 * 5.15; 5.16 dropped res2 (commit 6b19b766e8f0).
 * doc: `iocb->ki_complete(iocb, res, res2)` | 4.1 – 5.15 (04b2fa9f8f36)
 */
#include <linux/fs.h>

void irqaio_probe(struct kiocb *iocb, long res);
void irqaio_probe(struct kiocb *iocb, long res)
{
	iocb->ki_complete(iocb, res, 0);
}
