/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: Linux 2.6.19's interrupt and aio API, but a
 * Module.symvers (next to linux/) without __irq_regs. get_irq_regs() is in
 * <asm/irq_regs.h> and works inside the kernel; a module cannot link to the
 * per-CPU pointer behind it. This is the tree compat/irq_compat.h's
 * "IRQAIO_HAVE_GET_IRQ_REGS but not _EXPORTED" branch is for, which no
 * kernel in the matrix reaches (all four export __irq_regs).
 *
 * No kernel release we found had this by default: every version of
 * lib/irq_regs.c we read (2006, with the 2.6.19 change, to today) defines
 * __irq_regs together with EXPORT_PER_CPU_SYMBOL(__irq_regs); the x86
 * per-CPU irq_regs (arch/x86/kernel/irq*.c) came with
 * EXPORT_PER_CPU_SYMBOL(irq_regs); i386's 2.6.20 PDA version and the
 * ARCH_HAS_OWN_IRQ_REGS architectures read it with no symbol to export.
 *
 * A real tree gets here by configuration: CONFIG_TRIM_UNUSED_KSYMS=y
 * un-exports every symbol no in-tree module uses (unless listed in
 * UNUSED_KSYMS_WHITELIST), so on such a build without a modular user of
 * get_irq_regs() the probe finds __irq_regs missing from Module.symvers. That option is from 2016; its
 * trees have the later aio API, so pairing it with 2.6.19's aio API is
 * this model's choice, not history. The interrupt side (2-argument
 * handlers, get_irq_regs() present, not exported) is what it models.
 *
 * Its Module.symvers also lists aio_complete() as EXPORT_SYMBOL_GPL (fs/aio.c
 * exported it with EXPORT_SYMBOL): the shape of today's pin_user_pages_fast()
 * and iov_iter_extract_pages(), which conftest.sh must report as
 * IRQAIO_HAVE_<PROBE>_GPL_ONLY.
 */
#ifndef MODEL_LINUX_VERSION_H
#define MODEL_LINUX_VERSION_H
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE 132627 /* 2.6.19 API */
#endif
