/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: serio_interrupt() of <linux/serio.h>, which lost its
 * regs argument in Linux 2.6.19 (commit 7d12e780e003). The model counts the
 * bytes it is handed.
 */
#ifndef MODEL_LINUX_SERIO_H
#define MODEL_LINUX_SERIO_H
#include <linux/interrupt.h>

struct serio {
	unsigned long bytes;
	unsigned char last;
};

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
static inline irqreturn_t serio_interrupt(struct serio *serio, unsigned char data,
					  unsigned int dfl, struct pt_regs *regs)
{
	(void)dfl;
	(void)regs;
	serio->bytes++;
	serio->last = data;
	return IRQ_HANDLED;
}
#else
static inline irqreturn_t serio_interrupt(struct serio *serio, unsigned char data,
					  unsigned int dfl)
{
	(void)dfl;
	serio->bytes++;
	serio->last = data;
	return IRQ_HANDLED;
}
#endif
#endif /* MODEL_LINUX_SERIO_H */
