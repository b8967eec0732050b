// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 2: an i8042-style port driver hands regs on to serio_interrupt(),
 * to input_regs(), and through a static helper to handle_sysrq().
 */
#include <linux/interrupt.h>
#include <linux/serio.h>
#include <linux/sysrq.h>
#include <linux/input.h>

#define PSX_SYSRQ_KEY	0x54

static struct serio psx_port;
static struct input_dev psx_input;

static void psx_check_sysrq(unsigned char data, struct pt_regs *regs)
{
	if (data == PSX_SYSRQ_KEY)
		handle_sysrq('h', regs, NULL);
}

static irqreturn_t psx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	unsigned char data = 0x1c;

	input_regs(&psx_input, regs);
	psx_check_sysrq(data, regs);
	return serio_interrupt(dev_id, data, 0, regs);
}

int psx_init(void);
int psx_init(void)
{
	return request_irq(12, psx_interrupt, IRQF_SHARED, "psx", &psx_port);
}
