/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: the interrupt API before and after Linux 2.6.19, as
 * the world's <linux/version.h> selects, with a one-CPU "do_IRQ" that calls
 * registered handlers the way that kernel did.
 */
#ifndef MODEL_LINUX_INTERRUPT_H
#define MODEL_LINUX_INTERRUPT_H
#include <linux/kernel.h>
#include <asm/ptrace.h>

typedef int irqreturn_t;
#define IRQ_NONE	(0)
#define IRQ_HANDLED	(1)
#define IRQF_SHARED	0x00000080

#define MODEL_NR_IRQS 16

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
/* Linux 2.6.18: handlers get the registers (include/linux/interrupt.h). */
typedef irqreturn_t (*model_handler_t)(int, void *, struct pt_regs *);
#else
/* Linux 2.6.19: commit 7d12e780e003 drops them; get_irq_regs() instead. */
typedef irqreturn_t (*irq_handler_t)(int, void *);
typedef irq_handler_t model_handler_t;
/*
 * The one-CPU stand-in for lib/irq_regs.c's per-CPU __irq_regs, named the
 * same so that a world's Module.symvers lists it as a real one would.
 */
extern struct pt_regs *__irq_regs;
#endif

struct model_irqaction {
	model_handler_t handler;
	void *dev_id;
	const char *name;
};

extern struct model_irqaction model_irq_table[MODEL_NR_IRQS];

static inline int request_irq(unsigned int irq, model_handler_t handler,
			      unsigned long flags, const char *name, void *dev_id)
{
	(void)flags;
	if (irq >= MODEL_NR_IRQS || model_irq_table[irq].handler)
		return -16; /* -EBUSY */
	model_irq_table[irq].handler = handler;
	model_irq_table[irq].dev_id = dev_id;
	model_irq_table[irq].name = name;
	return 0;
}

static inline void free_irq(unsigned int irq, void *dev_id)
{
	if (irq < MODEL_NR_IRQS && model_irq_table[irq].dev_id == dev_id)
		model_irq_table[irq].handler = NULL;
}

/* The architecture's interrupt entry: what do_IRQ() did in each world. */
static inline irqreturn_t model_do_irq(unsigned int irq, struct pt_regs *regs)
{
	struct model_irqaction *a = &model_irq_table[irq];
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	return a->handler ? a->handler(irq, a->dev_id, regs) : IRQ_NONE;
#else
	struct pt_regs *old = __irq_regs;
	irqreturn_t ret;

	__irq_regs = regs;		/* set_irq_regs(regs) */
	ret = a->handler ? a->handler(irq, a->dev_id) : IRQ_NONE;
	__irq_regs = old;		/* set_irq_regs(old) */
	return ret;
#endif
}
#endif /* MODEL_LINUX_INTERRUPT_H */
