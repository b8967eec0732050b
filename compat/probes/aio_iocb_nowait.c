// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_IOCB_NOWAIT: struct kiocb has ki_flags and IOCB_NOWAIT
 * (set from RWF_NOWAIT: the request must fail with EAGAIN rather than block).
 * Linux 4.13 (commit b745fafaf70c, "fs: Introduce RWF_NOWAIT and
 * FMODE_AIO_NOWAIT").
 * doc: `kiocb->ki_flags & IOCB_NOWAIT` | 4.13 (b745fafaf70c)
 */
#include <linux/fs.h>

int irqaio_probe(struct kiocb *iocb);
int irqaio_probe(struct kiocb *iocb)
{
	return !!(iocb->ki_flags & IOCB_NOWAIT);
}
