/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: <asm/irq_regs.h> exists from Linux 2.6.19 on. */
#ifndef MODEL_ASM_IRQ_REGS_H
#define MODEL_ASM_IRQ_REGS_H
#include <linux/interrupt.h>
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
#error "model: <asm/irq_regs.h> does not exist before Linux 2.6.19"
#endif
static inline struct pt_regs *get_irq_regs(void)
{
	return __irq_regs;
}

static inline struct pt_regs *set_irq_regs(struct pt_regs *new_regs)
{
	struct pt_regs *old = __irq_regs;

	__irq_regs = new_regs;
	return old;
}
#endif
