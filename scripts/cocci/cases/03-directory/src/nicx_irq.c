// SPDX-License-Identifier: GPL-2.0
/* Pattern 3: the handler, defined in one file of the driver. */
#include "nicx.h"

irqreturn_t nicx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct nicx *nic = dev_id;

	nic->irqs++;
	nic->user = user_mode(regs);
	return IRQ_HANDLED;
}
