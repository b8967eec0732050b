// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_COMPLETE_3ARG: an asynchronous kiocb is completed with the
 * exported aio_complete(iocb, res, res2) from <linux/aio.h>.
 * Linux 2.6.18 and earlier up to 4.0; 4.1 made completion the kiocb's own
 * ki_complete callback (commit 04b2fa9f8f36).
 * doc: the exported `aio_complete(iocb, res, res2)` | – 4.0
 * probe: link
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/aio.h>

void irqaio_probe(struct kiocb *iocb, long res);
void irqaio_probe(struct kiocb *iocb, long res)
{
	aio_complete(iocb, res, 0);
}

MODULE_LICENSE("GPL");
