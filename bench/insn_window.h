/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insn_window.h - the guest's window markers for the insn_window QEMU
 * plugin (bench/plugin/insn_window.c), shared by the plugin and the guest
 * benchmark programs.
 *
 * A marker is "nopl disp32(%rax)" (0f 1f 80 + 4 bytes of displacement, 7
 * bytes): an architectural no-op, so a guest without the plugin runs it as
 * nothing. The displacement says which marker it is.
 */
#ifndef INSN_WINDOW_H
#define INSN_WINDOW_H

#define INSN_WINDOW_MAGIC	0x51494100u	/* "\0AIQ", little-endian */
#define INSN_WINDOW_OP_MASK	0xffu
#define INSN_WINDOW_OP_BEGIN	1u
#define INSN_WINDOW_OP_END	2u
#define INSN_WINDOW_OP_CASE	3u
#define INSN_WINDOW_MARK_LEN	7

#define INSN_WINDOW__STR(x)	#x
#define INSN_WINDOW__XSTR(x)	INSN_WINDOW__STR(x)
/* Spelled as bytes: the assembler may not pick the disp32 form itself. */
#define INSN_WINDOW__MARK(op)						\
	do {								\
		__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80, "		\
				     INSN_WINDOW__XSTR(op)		\
				     ", 0x41, 0x49, 0x51" ::: "memory");	\
	} while (0)

/* The compiler barrier keeps the measured code between the markers. */
#define insn_window_begin()	INSN_WINDOW__MARK(1)
#define insn_window_end()	INSN_WINDOW__MARK(2)
#define insn_window_case()	INSN_WINDOW__MARK(3)

#endif /* INSN_WINDOW_H */
