/* SPDX-License-Identifier: GPL-2.0 */
/* Pattern 3: the handler's prototype in the driver's header. */
#ifndef NICX_H
#define NICX_H
#include <linux/interrupt.h>

struct nicx {
	unsigned long irqs;
	int user;
};

irqreturn_t nicx_interrupt(int irq, void *dev_id, struct pt_regs *regs);
int nicx_open(struct nicx *nic);
#endif
