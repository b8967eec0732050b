// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_example - the smallest driver that uses the shim: one interrupt
 * handler written once for every handler prototype, registered on an
 * interrupt line given as a module parameter (none by default). It is the
 * template of docs/using-the-shim.md and is built, never loaded, by
 * scripts/dkms-check: vendored (compat/ copied next to it, packaged with
 * DKMS) and against an installed copy (make install-headers).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/module.h>

#include <irq_compat.h>

static int watch_irq = -1;
module_param(watch_irq, int, 0444);
MODULE_PARM_DESC(watch_irq, "Shared interrupt line to watch (default: none)");

static atomic_long_t irqaio_example_user, irqaio_example_kernel;

static IRQ_COMPAT_HANDLER(irqaio_example_isr, irq, dev_id)
{
	struct pt_regs *regs = irq_compat_regs();

	if (regs && user_mode(regs))
		atomic_long_inc(&irqaio_example_user);
	else
		atomic_long_inc(&irqaio_example_kernel);
	return IRQ_NONE;	/* only watching a shared line */
}

static int __init irqaio_example_init(void)
{
	if (watch_irq < 0)
		return 0;
	return request_irq(watch_irq, irqaio_example_isr, IRQF_SHARED, KBUILD_MODNAME,
			   &irqaio_example_user);
}

static void __exit irqaio_example_exit(void)
{
	if (watch_irq >= 0)
		free_irq(watch_irq, &irqaio_example_user);
	pr_info("interrupted user mode %ld times, kernel mode %ld times\n",
		atomic_long_read(&irqaio_example_user),
		atomic_long_read(&irqaio_example_kernel));
}

module_init(irqaio_example_init);
module_exit(irqaio_example_exit);

MODULE_DESCRIPTION("Example out-of-tree driver using irqaio-compat's irq_compat.h");
MODULE_LICENSE("GPL");
