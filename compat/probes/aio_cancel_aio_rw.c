// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_CANCEL_AIO_RW: kiocb_set_cancel_fn() takes a
 * int (*)(struct kiocb *) and ignores kiocbs that did not come from
 * io_submit() (IOCB_AIO_RW), so a driver may call it for any kiocb,
 * io_uring's included. Linux 6.8 (commit b820de741ae4, "fs/aio: Restrict
 * kiocb_set_cancel_fn() to I/O submitted via libaio"), backported to the
 * stable trees; before it, the call on an io_uring kiocb corrupts memory,
 * so the shim offers cancellation only where this probe passes.
 * doc: `kiocb_set_cancel_fn()` that ignores non-aio kiocbs (`IOCB_AIO_RW`) |
 *      6.8 (b820de741ae4), 6.1.80, 5.10.211
 * probe: link
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/aio.h>

static int irqaio_cancel(struct kiocb *iocb)
{
	return iocb->ki_flags & IOCB_AIO_RW ? 0 : -EINVAL;
}

void irqaio_probe(struct kiocb *iocb);
void irqaio_probe(struct kiocb *iocb)
{
	kiocb_set_cancel_fn(iocb, irqaio_cancel);
}

MODULE_LICENSE("GPL");
