/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: the registers an interrupt saved (x86 shape). */
#ifndef MODEL_ASM_PTRACE_H
#define MODEL_ASM_PTRACE_H
struct pt_regs {
	unsigned long ip;
	unsigned long cs;
	unsigned long flags;
	unsigned long sp;
};
#define user_mode(regs) (((regs)->cs & 3) != 0)
#define instruction_pointer(regs) ((regs)->ip)
#endif
