// SPDX-License-Identifier: GPL-2.0
/* Pattern 9, reported: the driver already has both sides under #if. */
#include <linux/version.h>
#include <linux/interrupt.h>

static unsigned long verx_count;

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
static irqreturn_t verx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
#else
static irqreturn_t verx_interrupt(int irq, void *dev_id)
#endif
{
	verx_count++;
	return IRQ_HANDLED;
}

int verx_init(void);
int verx_init(void)
{
	return request_irq(3, verx_interrupt, 0, "verx", &verx_count);
}
