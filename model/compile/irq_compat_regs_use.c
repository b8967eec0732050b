// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL, not a kernel: compiled, never run, by model/compile-check in every
 * world. An interrupt handler that reads the registers through the shim, as
 * a driver does. It must compile wherever the shim can give the registers
 * and fail with the shim's own message where get_irq_regs() exists but is
 * not exported to modules.
 */
#include <irq_compat.h>

static IRQ_COMPAT_HANDLER(use_isr, irq, dev_id)
{
	struct pt_regs *regs = irq_compat_regs();

	return user_mode(regs) ? IRQ_HANDLED : IRQ_NONE;
}

int use_request(void);
int use_request(void)
{
	/* Registered, so -O2 cannot drop the handler and the call in it. */
	return request_irq(3, use_isr, 0, "use", NULL);
}
