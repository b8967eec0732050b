// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_example - the smallest driver that uses the shim for both of its
 * halves: one interrupt handler written once for every handler prototype,
 * registered on an interrupt line given as a module parameter (none by
 * default), and /dev/irqaio_example, a 4 KiB buffer whose one data path
 * serves read(2), readv(2), io_submit() and io_uring on every method family
 * the tree has. It is the template of docs/using-the-shim.md and is built,
 * never loaded, by scripts/dkms-check (vendored, packaged with DKMS, and
 * against an installed copy) and scripts/check-user-build.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include <aio_compat.h>
#include <irq_compat.h>

static int watch_irq = -1;
module_param(watch_irq, int, 0444);
MODULE_PARM_DESC(watch_irq, "Shared interrupt line to watch (default: none)");

static atomic_long_t irqaio_example_user, irqaio_example_kernel, irqaio_example_threaded;

/*
 * Requested without IRQ_COMPAT_NO_THREAD: a line's handlers must agree on
 * IRQF_ONESHOT, which forced threading (threadirqs, PREEMPT_RT) adds to the
 * handlers it threads, so a guest on someone else's line cannot opt out.
 * There it runs in a thread and irq_compat_regs() is NULL.
 */
static IRQ_COMPAT_HANDLER(irqaio_example_isr, irq, dev_id)
{
	struct pt_regs *regs = irq_compat_regs();

	if (!regs)
		atomic_long_inc(&irqaio_example_threaded);
	else if (user_mode(regs))
		atomic_long_inc(&irqaio_example_user);
	else
		atomic_long_inc(&irqaio_example_kernel);
	return IRQ_NONE;	/* only watching a shared line */
}

#define IRQAIO_EXAMPLE_SIZE 4096

static u8 irqaio_example_buf[IRQAIO_EXAMPLE_SIZE];
static DEFINE_MUTEX(irqaio_example_lock);

/*
 * The one data path: the shim calls it for every request, whatever shape
 * it came in. A request that must not sleep (RWF_NOWAIT, O_NONBLOCK) gets
 * -EAGAIN instead of waiting for the lock.
 */
static ssize_t irqaio_example_rw(struct aio_compat_req *req)
{
	size_t len, n;

	if (!aio_compat_may_block(req)) {
		if (!mutex_trylock(&irqaio_example_lock))
			return -EAGAIN;
	} else if (mutex_lock_interruptible(&irqaio_example_lock)) {
		return -ERESTARTSYS;
	}
	n = 0;
	len = 0;
	if (req->pos < IRQAIO_EXAMPLE_SIZE) {
		len = min_t(size_t, req->count, IRQAIO_EXAMPLE_SIZE - req->pos);
		n = req->write ?
			aio_compat_copy_from_req(req, irqaio_example_buf + req->pos, len) :
			aio_compat_copy_to_req(req, irqaio_example_buf + req->pos, len);
	}
	mutex_unlock(&irqaio_example_lock);
	if (req->write && req->count && !len)
		return -ENOSPC;
	return n ? n : (len ? -EFAULT : 0);
}

AIO_COMPAT_DEFINE_METHODS(irqaio_example, irqaio_example_rw);

static int irqaio_example_open(struct inode *inode, struct file *file)
{
	/* The data path honours IOCB_NOWAIT (aio_compat_may_block()). */
	aio_compat_file_nowait(file);
	return 0;
}

static loff_t irqaio_example_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, IRQAIO_EXAMPLE_SIZE);
}

static const struct file_operations irqaio_example_fops = {
	.owner = THIS_MODULE,
	.open = irqaio_example_open,
	.llseek = irqaio_example_llseek,
	AIO_COMPAT_FOPS(irqaio_example),
	AIO_COMPAT_SPLICE_FOPS
};

static struct miscdevice irqaio_example_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "irqaio_example",
	.fops = &irqaio_example_fops,
};

static int __init irqaio_example_init(void)
{
	int ret;

	ret = misc_register(&irqaio_example_misc);
	if (ret || watch_irq < 0)
		return ret;
	ret = request_irq(watch_irq, irqaio_example_isr, IRQF_SHARED, KBUILD_MODNAME,
			  &irqaio_example_user);
	if (ret)
		misc_deregister(&irqaio_example_misc);
	return ret;
}

static void __exit irqaio_example_exit(void)
{
	if (watch_irq >= 0)
		free_irq(watch_irq, &irqaio_example_user);
	misc_deregister(&irqaio_example_misc);
	pr_info("interrupted user mode %ld times, kernel mode %ld times; %ld calls in a thread\n",
		atomic_long_read(&irqaio_example_user),
		atomic_long_read(&irqaio_example_kernel),
		atomic_long_read(&irqaio_example_threaded));
}

module_init(irqaio_example_init);
module_exit(irqaio_example_exit);

MODULE_DESCRIPTION("Example out-of-tree driver using irqaio-compat's irq_compat.h and aio_compat.h");
MODULE_LICENSE("GPL");
