// SPDX-License-Identifier: GPL-2.0
/*
 * arch/frv/kernel/time.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): a forward declaration and the timer handler, which needs
 * the registers for user_mode() and the profiler. Registered here with
 * request_irq() instead of the static struct irqaction of the original.
 */
#include <linux/interrupt.h>
#include "corpus.h"

static irqreturn_t timer_interrupt(int irq, void *dummy, struct pt_regs *regs);

/*
 * timer_interrupt() needs to keep up the real-time clock,
 * as well as call the "do_timer()" routine every clocktick
 */
static irqreturn_t timer_interrupt(int irq, void *dummy, struct pt_regs * regs)
{
	do_timer(1);
	update_process_times(user_mode(regs));
	profile_tick(CPU_PROFILING, regs);

	return IRQ_HANDLED;
}

int corpus_frv_time_init(void);
int corpus_frv_time_init(void)
{
	return request_irq(2, timer_interrupt, 0, "timer", NULL);
}
