// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_IRQ_HANDLER_3ARG: request_irq() takes
 * irqreturn_t (*)(int irq, void *dev_id, struct pt_regs *regs).
 * Linux 2.6.18 and older; gone in 2.6.19 (commit 7d12e780e003).
 * doc: `irqreturn_t (*)(int, void *, struct pt_regs *)` handlers | – 2.6.18
 */
#include <linux/interrupt.h>

static irqreturn_t irqaio_probe_handler(int irq, void *dev_id,
					struct pt_regs *regs)
{
	return IRQ_HANDLED;
}

int irqaio_probe(void);
int irqaio_probe(void)
{
	return request_irq(0, irqaio_probe_handler, 0, "probe", NULL);
}
