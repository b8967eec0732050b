// SPDX-License-Identifier: GPL-2.0
/*
 * The same handlers written by hand for the target tree, the way a driver
 * without the shim would: the probe results only pick which hand-written
 * prototype applies.
 */
#include <linux/module.h>
#include <linux/interrupt.h>
#include <asm/irq_regs.h>
#include <irqaio_features.h>
#include "zo_body.h"

/*
 * zo_body.h only declares the counters: defined here, KASAN would know
 * their bounds in this file alone and instrument the two files differently.
 * The objects are compared, never linked.
 */

#define ZO_REGS get_irq_regs()
irqreturn_t zo_irq_handler(int irq, void *dev_id);

irqreturn_t zo_irq_handler(int irq, void *dev_id)
{
	ZO_IRQ_BODY(dev_id);
}

#undef ZO_REGS

#if defined(IRQAIO_HAVE_NMI_HANDLER_REGS)
#include <asm/nmi.h>
#define ZO_REGS regs
int zo_nmi_handler(unsigned int type, struct pt_regs *regs);

int zo_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	ZO_NMI_BODY(type);
}
#elif defined(IRQAIO_HAVE_NMI_HANDLER_NOREGS)
#include <asm/nmi.h>
#define ZO_REGS get_irq_regs()
int zo_nmi_handler(unsigned int type);

int zo_nmi_handler(unsigned int type)
{
	ZO_NMI_BODY(type);
}
#endif

MODULE_LICENSE("GPL");
