// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 2, reported: regs reaches a function the tool does not know
 * (another module's helper), one through a cast, and a lost-regs API
 * through a local copy.
 */
#include <linux/interrupt.h>
#include <linux/serio.h>

void sndx_codec_interrupt(void *codec, struct pt_regs *regs);
void sndx_trace(const void *where);

static struct serio sndx_port;

static irqreturn_t sndx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct pt_regs *saved = regs;

	sndx_codec_interrupt(dev_id, regs);
	sndx_trace((const void *)regs);
	serio_interrupt(&sndx_port, 0, 0, saved);
	return IRQ_HANDLED;
}

int sndx_init(void);
int sndx_init(void)
{
	return request_irq(5, sndx_interrupt, 0, "sndx", &sndx_port);
}
