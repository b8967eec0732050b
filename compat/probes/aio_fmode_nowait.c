// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_AIO_FMODE_NOWAIT: FMODE_NOWAIT exists; a file must set it in
 * f_mode or aio refuses RWF_NOWAIT with EOPNOTSUPP at io_submit.
 * Linux 4.13 as FMODE_AIO_NOWAIT (commit b745fafaf70c), renamed
 * FMODE_NOWAIT in 4.14.
 * doc: `FMODE_NOWAIT` | 4.14
 */
#include <linux/fs.h>

void irqaio_probe(struct file *file);
void irqaio_probe(struct file *file)
{
	file->f_mode |= FMODE_NOWAIT;
}
