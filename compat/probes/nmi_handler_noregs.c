// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_NMI_HANDLER_NOREGS: x86 nmi_handler_t is
 * int (*)(unsigned int type); handlers call get_irq_regs().
 * This project's core-patch/ series makes that change to Debian's 6.1.
 * doc: x86 `int (*)(unsigned int)` NMI handlers | `core-patch/` only
 */
#include <linux/module.h>
#include <asm/nmi.h>

static int irqaio_probe_nmi(unsigned int type)
{
	return NMI_DONE;
}

int irqaio_probe(void);
int irqaio_probe(void)
{
	return register_nmi_handler(NMI_LOCAL, irqaio_probe_nmi, 0, "probe");
}
