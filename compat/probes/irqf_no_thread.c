// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_IRQF_NO_THREAD: request_irq() takes IRQF_NO_THREAD.
 * Linux 2.6.39: forced interrupt threading (the threadirqs boot option,
 * commit 8d32a307e4fa, "genirq: Provide forced interrupt threading") moves
 * every handler into a thread except those requested with this flag.
 * PREEMPT_RT kernels force it always.
 * doc: `IRQF_NO_THREAD`: the handler stays out of forced threading | 2.6.39
 *      (8d32a307e4fa)
 */
#include <linux/interrupt.h>

unsigned long irqaio_probe(void);
unsigned long irqaio_probe(void)
{
	return IRQF_NO_THREAD;
}
