// SPDX-License-Identifier: GPL-2.0
/* Pattern 3: the interrupt handler, in the core file. */
#include "serx.h"

irqreturn_t serx_isr(int irq, void *dev_id, struct pt_regs *regs)
{
	struct serx_port *port = dev_id;

	port->rx++;
	return IRQ_HANDLED;
}

int serx_startup(struct serx_port *port);
int serx_startup(struct serx_port *port)
{
	return request_irq(4, serx_isr, 0, "serx", port);
}
