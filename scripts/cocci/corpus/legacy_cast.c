// SPDX-License-Identifier: GPL-2.0
/*
 * Not from the seed commit: the out-of-tree habits the conversion must cope
 * with. An unnamed-parameter prototype, a handler that keeps regs in a local,
 * and a cast at the request_irq() call site that silenced a prototype
 * mismatch (and would now cast between function types).
 */
#include <linux/interrupt.h>
#include "corpus.h"

static irqreturn_t legacy_isr(int, void *, struct pt_regs *);

static irqreturn_t legacy_isr(int irq, void *dev_id, struct pt_regs *regs)
{
	struct pt_regs *r = regs;
	unsigned long *count = dev_id;

	(*count)++;
	if (r && user_mode(r))
		corpus.user_ticks++;
	corpus.last_ip = instruction_pointer(regs);
	return IRQ_HANDLED;
}

static unsigned long legacy_count;

int corpus_legacy_cast_init(void);
int corpus_legacy_cast_init(void)
{
	return request_irq(8, (void *)legacy_isr, 0, "legacy", &legacy_count);
}
