// SPDX-License-Identifier: GPL-2.0
/*
 * demo_chardev_legacy - the same driver with only ->read/->write, as char
 * drivers written before aio were: readv(2) works (the VFS loops over
 * ->read), io_submit() answers EINVAL on stock kernels, and a kernel with
 * core-patch/ serves it through a synchronous fallback.
 *
 * Two load-time modes make it look like the legacy drivers that fallback
 * is for (aio_legacy tests both):
 *   nonseekable=1  open() calls nonseekable_open(), as most character
 *                  devices do: lseek(2), pread(2) and pwrite(2) fail with
 *                  ESPIPE; read(2)/write(2) still move f_pos
 *   nowait=1       the file sets FMODE_NOWAIT, so aio accepts RWF_NOWAIT
 *                  for it (->read/->write still cannot be told not to
 *                  block, only O_NONBLOCK does that)
 */
#define DEMO_CHARDEV_LEGACY

/*
 * The modes wrap demo_chardev.c's open(): this function-like macro renames
 * that definition only (a macro like it expands only before a "("), so the
 * ".open = demo_chardev_open" of its file_operations names the wrapper
 * below, declared here with its name in parentheses for the same reason.
 */
#define demo_chardev_open(inode, file) demo_chardev_store_open(inode, file)
struct file;
struct inode;
static int (demo_chardev_open)(struct inode *inode, struct file *file);

#include "demo_chardev.c"

#undef demo_chardev_open

static bool nonseekable;
module_param(nonseekable, bool, 0444);
MODULE_PARM_DESC(nonseekable, "open with nonseekable_open(): no lseek, pread, pwrite");

static bool nowait;
module_param(nowait, bool, 0444);
MODULE_PARM_DESC(nowait, "set FMODE_NOWAIT on open files (aio then accepts RWF_NOWAIT)");

static int demo_chardev_open(struct inode *inode, struct file *file)
{
	int ret = demo_chardev_store_open(inode, file);

	if (ret)
		return ret;
	if (nowait)
		aio_compat_file_nowait(file);
	if (nonseekable)
		return nonseekable_open(inode, file);
	return 0;
}
