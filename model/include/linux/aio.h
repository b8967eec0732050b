/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: <linux/aio.h> of Linux 2.6.18/2.6.19 - the kiocb
 * (it moved to <linux/fs.h> only in 4.1) and the synchronous-kiocb marker
 * that do_sync_read() and friends used.
 */
#ifndef MODEL_LINUX_AIO_H
#define MODEL_LINUX_AIO_H
#include <linux/kernel.h>

struct file;

#define KIOCB_SYNC_KEY		(~0U)

struct kiocb {
	unsigned int ki_key;	/* KIOCB_SYNC_KEY: the caller waits */
	struct file *ki_filp;
	loff_t ki_pos;
};

#define is_sync_kiocb(iocb)	((iocb)->ki_key == KIOCB_SYNC_KEY)

static inline void init_sync_kiocb(struct kiocb *iocb, struct file *filp)
{
	iocb->ki_key = KIOCB_SYNC_KEY;
	iocb->ki_filp = filp;
	iocb->ki_pos = 0;
}
#endif
