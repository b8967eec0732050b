// SPDX-License-Identifier: GPL-2.0
/*
 * deb_user - the smallest third-party module that includes the shim from
 * /usr/share/irqaio-compat/compat (irqaio-compat-dev) instead of a vendored
 * copy: one interrupt handler in the tree's own prototype, and the kernel
 * release the probes ran against. Built, never loaded, by scripts/check-deb.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include <aio_compat.h>
#include <irq_compat.h>

/* Never requested: it only has to compile in the tree's own prototype. */
static IRQ_COMPAT_HANDLER(deb_user_isr, irq, dev_id)
{
	pr_debug("irq %d, registers at %p\n", irq, irq_compat_regs());
	return IRQ_NONE;
}

static int __init deb_user_init(void)
{
	irq_handler_t handler = deb_user_isr;

	pr_info("built against %s, handler at %ps\n", IRQAIO_FEATURES_RELEASE, handler);
	return 0;
}
module_init(deb_user_init);

static void __exit deb_user_exit(void)
{
}
module_exit(deb_user_exit);

MODULE_DESCRIPTION("Third-party build against the packaged irqaio-compat shim");
MODULE_LICENSE("GPL");
