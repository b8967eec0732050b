/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: input_regs() of <linux/input.h>, which stored the
 * interrupted registers for the sysrq path and was removed in Linux 2.6.19
 * (commit 7d12e780e003).
 */
#ifndef MODEL_LINUX_INPUT_H
#define MODEL_LINUX_INPUT_H
#include <linux/interrupt.h>

struct input_dev {
	struct pt_regs *regs;
	unsigned long events;
};

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
static inline void input_regs(struct input_dev *dev, struct pt_regs *regs)
{
	dev->regs = regs;
}
#endif
#endif /* MODEL_LINUX_INPUT_H */
