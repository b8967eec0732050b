// SPDX-License-Identifier: GPL-2.0
/*
 * arch/x86_64/kernel/time.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): the handler hands regs down to helpers. The helpers keep
 * their regs parameter; the handler passes whatever the shim gives it.
 */
#include <linux/interrupt.h>
#include "corpus.h"

static int apic_runs_main_timer;
static int using_apic_timer;

static void handle_lost_ticks(int lost, struct pt_regs *regs)
{
	corpus.last_ip = regs->ip;
}

static void main_timer_handler(struct pt_regs *regs)
{
	int lost = 0;

	if (lost > 0)
		handle_lost_ticks(lost, regs);
	do_timer(lost + 1);
	update_process_times(user_mode(regs));
	corpus.last_ip = regs->ip;
}

static irqreturn_t timer_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	if (apic_runs_main_timer > 1)
		return IRQ_HANDLED;
	main_timer_handler(regs);
	if (using_apic_timer)
		corpus.handled++;
	return IRQ_HANDLED;
}

int corpus_x86_64_time_init(void);
int corpus_x86_64_time_init(void)
{
	return request_irq(0, timer_interrupt, 0, "timer", NULL);
}
