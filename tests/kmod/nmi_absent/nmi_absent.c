// SPDX-License-Identifier: GPL-2.0
/*
 * nmi_absent.c - a module that declares an NMI handler with the shim's
 * NMI_COMPAT_HANDLER() on a kernel whose architecture has no NMI handler
 * API for drivers. Its build must fail with irq_compat.h's message saying
 * why, not with an undeclared name (tests/harness/check reads the log).
 */
#include <linux/module.h>
#include <irq_compat.h>

static NMI_COMPAT_HANDLER(nmi_absent_handler, type)
{
	return 0;
}

static int __init nmi_absent_init(void)
{
	return nmi_absent_handler(0) ? -EINVAL : 0;
}
module_init(nmi_absent_init);

MODULE_DESCRIPTION("irqaio-compat negative control: NMI macros where there is no NMI");
MODULE_LICENSE("GPL");
