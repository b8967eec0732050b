/* SPDX-License-Identifier: GPL-2.0 */
/* Pattern 3: a serial driver; its handler is called from another file too. */
#ifndef SERX_H
#define SERX_H
#include <linux/interrupt.h>

struct serx_port {
	unsigned long rx;
	unsigned long polled;
};

extern irqreturn_t serx_isr(int, void *, struct pt_regs *);
#endif
