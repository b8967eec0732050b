// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_NMI_HANDLER_REGS: x86 nmi_handler_t is
 * int (*)(unsigned int type, struct pt_regs *regs).
 * Linux 3.2: register_nmi_handler() introduced with this shape
 * (commit c9126b2ee8ad); it is still the stock prototype.
 * doc: x86 `int (*)(unsigned int, struct pt_regs *)` NMI handlers | 3.2
 *      (c9126b2ee8ad), still stock
 */
#include <linux/module.h>
#include <asm/nmi.h>

static int irqaio_probe_nmi(unsigned int type, struct pt_regs *regs)
{
	return NMI_DONE;
}

int irqaio_probe(void);
int irqaio_probe(void)
{
	return register_nmi_handler(NMI_LOCAL, irqaio_probe_nmi, 0, "probe");
}
