// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_GET_IRQ_REGS: get_irq_regs() exists in <asm/irq_regs.h>.
 * Linux 2.6.19: added with the handler change (commit 7d12e780e003).
 * doc: `get_irq_regs()` in `<asm/irq_regs.h>` (usable from modules) | 2.6.19
 * probe: link (the per-CPU pointer behind it must be exported to modules)
 */
#include <linux/interrupt.h>
#include <asm/irq_regs.h>

struct pt_regs *irqaio_probe(void);
struct pt_regs *irqaio_probe(void)
{
	return get_irq_regs();
}
