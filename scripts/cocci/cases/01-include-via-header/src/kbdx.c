// SPDX-License-Identifier: GPL-2.0
/* Pattern 1: no direct #include <linux/interrupt.h>; it comes with kbdx.h. */
#include "kbdx.h"

static struct kbdx kbdx_dev;

static irqreturn_t kbdx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct kbdx *k = dev_id;

	k->count++;
	k->last_ip = instruction_pointer(regs);
	return IRQ_HANDLED;
}

int kbdx_init(void);
int kbdx_init(void)
{
	return request_irq(1, kbdx_interrupt, 0, "kbdx", &kbdx_dev);
}
