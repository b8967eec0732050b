/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The handler bodies compared by qemu/zero-overhead: the same statements,
 * once behind the shim's macros (zo_shim.c) and once written natively for
 * the target tree's prototype (zo_native.c). ZO_REGS is how each file
 * spells "the interrupted registers".
 */
#ifndef ZO_BODY_H
#define ZO_BODY_H

#include <linux/interrupt.h>
#include <linux/atomic.h>

extern atomic_long_t zo_user, zo_kernel, zo_calls;
extern unsigned long zo_last_ip;

#define ZO_IRQ_BODY(dev_id)						\
	do {								\
		struct pt_regs *zo_regs = ZO_REGS;				\
									\
		if (!(dev_id))						\
			return IRQ_NONE;				\
		if (zo_regs && user_mode(zo_regs))				\
			atomic_long_inc(&zo_user);			\
		else							\
			atomic_long_inc(&zo_kernel);			\
		zo_last_ip = zo_regs ? instruction_pointer(zo_regs) : 0;	\
		return IRQ_HANDLED;					\
	} while (0)

#define ZO_NMI_BODY(type)						\
	do {								\
		struct pt_regs *zo_regs = ZO_REGS;				\
									\
		atomic_long_inc(&zo_calls);				\
		if (type != NMI_LOCAL || !zo_regs)				\
			return NMI_DONE;				\
		zo_last_ip = instruction_pointer(zo_regs);			\
		return NMI_HANDLED;					\
	} while (0)

#endif /* ZO_BODY_H */
