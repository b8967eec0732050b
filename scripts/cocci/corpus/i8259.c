// SPDX-License-Identifier: GPL-2.0
/*
 * arch/i386/kernel/i8259.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): the FPU error interrupt dereferences regs. The model's
 * pt_regs spells the instruction pointer "ip" (x86_64), not "eip".
 */
#include <linux/interrupt.h>
#include "corpus.h"

static int ignore_fpu_irq;
static struct { int hard_math; } boot_cpu_data = { 1 };

void math_error(void __user *ip);
void math_error(void __user *ip)
{
	corpus.math_errors++;
	corpus.last_ip = (unsigned long)ip;
}

static irqreturn_t math_error_irq(int cpl, void *dev_id, struct pt_regs *regs)
{
	outb(0,0xF0);
	if (ignore_fpu_irq || !boot_cpu_data.hard_math)
		return IRQ_NONE;
	math_error((void __user *)regs->ip);
	return IRQ_HANDLED;
}

int corpus_i8259_init(void);
int corpus_i8259_init(void)
{
	return request_irq(13, math_error_irq, 0, "fpu", NULL);
}
