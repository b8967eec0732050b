/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: handle_sysrq() of <linux/sysrq.h>, which lost its
 * regs argument in Linux 2.6.19 (commit 7d12e780e003).
 */
#ifndef MODEL_LINUX_SYSRQ_H
#define MODEL_LINUX_SYSRQ_H
#include <linux/interrupt.h>

struct tty_struct;

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
void handle_sysrq(int key, struct pt_regs *regs, struct tty_struct *tty);
#else
void handle_sysrq(int key, struct tty_struct *tty);
#endif
#endif /* MODEL_LINUX_SYSRQ_H */
