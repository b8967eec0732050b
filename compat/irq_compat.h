/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irq_compat.h - one interrupt/NMI handler source for both handler prototypes
 *
 * Linux 2.6.19 (commit 7d12e780e003, "IRQ: Maintain regs pointer globally
 * rather than passing to IRQ handlers") dropped the struct pt_regs argument of
 * interrupt handlers; code that needs the interrupted registers calls
 * get_irq_regs(). x86 NMI handlers still receive the registers as an argument
 * on stock kernels; this project's core-patch/ series replays the 2.6.19
 * change there. Both prototypes therefore exist with the same
 * LINUX_VERSION_CODE, so everything below is decided by compile probes
 * (compat/probes/, run by compat/conftest.sh against the target tree), never
 * by version numbers. Each branch defines an IRQAIO_BRANCH_* marker, which
 * model/branch-coverage collects from every build to check that each branch
 * is compiled by one.
 *
 * A driver writes:
 *
 *	static IRQ_COMPAT_HANDLER(foo_isr, irq, dev_id)
 *	{
 *		struct pt_regs *regs = irq_compat_regs();
 *		...
 *	}
 *
 *	static NMI_COMPAT_HANDLER(foo_nmi, type)
 *	{
 *		struct pt_regs *regs = irq_compat_regs();
 *		...
 *	}
 *
 * and passes foo_isr to request_irq() and foo_nmi to register_nmi_handler()
 * unchanged: each macro produces exactly the target tree's prototype, so no
 * function pointer is ever cast between prototypes (that is undefined
 * behaviour and traps under kCFI).
 */
#ifndef IRQ_COMPAT_H
#define IRQ_COMPAT_H

#include <linux/interrupt.h>
#include <irqaio_features.h>

#if defined(IRQAIO_HAVE_IRQ_HANDLER_2ARG) && defined(IRQAIO_HAVE_IRQ_HANDLER_3ARG)
#error "irq_compat: both IRQ handler prototypes probed as valid; probe results are inconsistent"
#endif

/*
 * The name of the registers argument in handlers whose prototype carries one.
 * Where no handler argument by this name is in scope, the same identifier
 * names the enumerator below, whose type (int) tells irq_compat_regs() to
 * call get_irq_regs() instead. The choice is made by _Generic at compile time,
 * so both spellings produce the same code as a hand-written handler. There is
 * deliberately no default branch: any other type is a compile error.
 */
enum { irq_compat_regs_arg = 0 };

#if defined(IRQAIO_HAVE_IRQ_HANDLER_2ARG)
/* Linux 2.6.19+: irqreturn_t (*)(int, void *) (commit 7d12e780e003). */
#define IRQAIO_IRQ_HANDLER_ARGS 2
#define IRQAIO_BRANCH_IRQ_HANDLER_2ARG
/**
 * IRQ_COMPAT_HANDLER() - declare an interrupt handler with the tree's prototype
 * @name: function name, passed to request_irq() as is
 * @irq: name of the interrupt number parameter
 * @dev_id: name of the cookie parameter
 *
 * Expands to the function's declarator; put ``static`` before it and the
 * body after it. Inside the body, irq_compat_regs() gives the interrupted
 * registers.
 */
#define IRQ_COMPAT_HANDLER(name, irq, dev_id) \
	irqreturn_t name(int irq, void *dev_id)
#elif defined(IRQAIO_HAVE_IRQ_HANDLER_3ARG)
/* Linux 2.6.18 and older: irqreturn_t (*)(int, void *, struct pt_regs *). */
#define IRQAIO_IRQ_HANDLER_ARGS 3
#define IRQAIO_BRANCH_IRQ_HANDLER_3ARG
#define IRQ_COMPAT_HANDLER(name, irq, dev_id) \
	irqreturn_t name(int irq, void *dev_id, struct pt_regs *irq_compat_regs_arg)
#else
#error "irq_compat: unknown IRQ handler prototype: neither the 2- nor the 3-argument probe compiled"
#endif

#if defined(IRQAIO_HAVE_GET_IRQ_REGS)
#include <asm/irq_regs.h>
#if defined(IRQAIO_HAVE_GET_IRQ_REGS_EXPORTED)
/* Linux 2.6.19+: the per-CPU pointer, set by the IRQ entry code. */
#define irq_compat_get_irq_regs() get_irq_regs()
#define IRQAIO_BRANCH_GET_IRQ_REGS_EXPORTED
#else
/* The tree has get_irq_regs() but does not export it: fail only where used. */
__attribute__((__error__("get_irq_regs() is not exported to modules by this kernel")))
struct pt_regs *irq_compat_no_get_irq_regs(void);
#define irq_compat_get_irq_regs() irq_compat_no_get_irq_regs()
#define IRQAIO_BRANCH_GET_IRQ_REGS_UNEXPORTED
#endif
#elif defined(IRQAIO_HAVE_IRQ_HANDLER_2ARG)
#error "irq_compat: 2-argument IRQ handlers but no get_irq_regs(): unknown kernel"
#else
/*
 * Before 2.6.19 there is no get_irq_regs(); only the handler argument
 * exists, so irq_compat_regs() outside a compat handler is an error. The
 * declaration keeps the (never selected) _Generic branch valid C.
 */
__attribute__((__error__("irq_compat_regs() used outside IRQ_COMPAT_HANDLER()")))
struct pt_regs *irq_compat_regs_outside_handler(void);
#define irq_compat_get_irq_regs() irq_compat_regs_outside_handler()
#define IRQAIO_BRANCH_NO_GET_IRQ_REGS
#endif

/**
 * irq_compat_regs() - the interrupted context's registers, inside a handler
 *
 * In a handler declared with IRQ_COMPAT_HANDLER() or NMI_COMPAT_HANDLER():
 * the registers argument where the tree's prototype has one (IRQ handlers
 * before 2.6.19, x86 NMI handlers on stock kernels), get_irq_regs() where it
 * does not (IRQ handlers since 2.6.19; NMI handlers on a kernel carrying
 * core-patch/, whose NMI entry sets the pointer with set_irq_regs()).
 *
 * Valid in hard-IRQ and NMI context only; in an NMI that interrupted an IRQ
 * handler it is the NMI's registers. NMI handlers never run in a thread.
 *
 * In a handler that runs in a kernel thread it is NULL: a thread_fn of
 * request_threaded_irq(), and every handler that forced interrupt threading
 * moves into a thread (booted with threadirqs, and always on PREEMPT_RT)
 * unless it was requested with IRQ_COMPAT_NO_THREAD. Nothing was interrupted
 * there, and the kernel sets the per-CPU pointer only while a hard interrupt
 * runs, restoring it on the way out, so a thread never sees another
 * context's registers. A handler that needs them asks for
 * IRQ_COMPAT_NO_THREAD; one that can do without checks for NULL.
 *
 * Return: struct pt_regs pointer, or NULL in a threaded handler;
 * user_mode() tells who was interrupted.
 */
#define irq_compat_regs()						\
	_Generic(irq_compat_regs_arg,					\
		 struct pt_regs * : irq_compat_regs_arg,		\
		 int : irq_compat_get_irq_regs())

#if defined(IRQAIO_HAVE_NMI_HANDLER_REGS) && defined(IRQAIO_HAVE_NMI_HANDLER_NOREGS)
#error "irq_compat: both NMI handler prototypes probed as valid; probe results are inconsistent"
#endif

#if defined(IRQAIO_HAVE_NMI_HANDLER_REGS)
#include <asm/nmi.h>
/* Linux 3.2+ stock x86: int (*)(unsigned int, struct pt_regs *) (commit c9126b2ee8ad). */
#define IRQAIO_NMI_HANDLER_ARGS 2
#define IRQAIO_BRANCH_NMI_HANDLER_REGS
#if defined(NMI_HANDLER_NO_REGS)
#error "irq_compat: <asm/nmi.h> says NMI_HANDLER_NO_REGS but the probe found the regs prototype"
#endif
/**
 * NMI_COMPAT_HANDLER() - declare an x86 NMI handler with the tree's prototype
 * @name: function name, passed to register_nmi_handler() as is
 * @type: name of the NMI type parameter (NMI_LOCAL, NMI_UNKNOWN, ...)
 *
 * Expands to the declarator; irq_compat_regs() works in the body.
 */
#define NMI_COMPAT_HANDLER(name, type) \
	int name(unsigned int type, struct pt_regs *irq_compat_regs_arg)
#elif defined(IRQAIO_HAVE_NMI_HANDLER_NOREGS)
#include <asm/nmi.h>
/*
 * core-patch/ on Debian 6.1: int (*)(unsigned int); the NMI entry keeps the
 * registers with set_irq_regs(). That series also defines
 * NMI_HANDLER_NO_REGS; the probe, not the macro, decides here.
 */
#define IRQAIO_NMI_HANDLER_ARGS 1
#define IRQAIO_BRANCH_NMI_HANDLER_NOREGS
#define NMI_COMPAT_HANDLER(name, type) \
	int name(unsigned int type)
#elif defined(CONFIG_X86)
#error "irq_compat: unknown x86 NMI handler prototype: neither NMI probe compiled"
#else
/*
 * Not x86: no register_nmi_handler(), so no NMI_COMPAT_HANDLER(). A driver
 * that uses it gets this error where it does, not an undeclared name.
 * arm64's NMIs are pseudo-NMIs (CONFIG_ARM64_PSEUDO_NMI, off in Debian's
 * kernels): an irqchip that supports them lets request_nmi() turn a GICv3
 * SPI or PPI into one; a PCI device's MSI (an LPI) never is. A driver
 * there handles its interrupts with request_irq() and IRQ_COMPAT_HANDLER().
 */
#define IRQAIO_BRANCH_NMI_NOT_X86
#define NMI_COMPAT_HANDLER(name, type)						\
	_Pragma("GCC error \"irq_compat: no register_nmi_handler() on this architecture\"")	\
	int name(unsigned int type)
#endif /* NMI handler prototype */

/**
 * IRQ_COMPAT_NO_THREAD - request_irq() flag: run this handler in hard-IRQ context
 *
 * Forced interrupt threading (the threadirqs boot option, and always on
 * PREEMPT_RT kernels) runs every handler in a kernel thread unless it was
 * requested with IRQF_NO_THREAD, and irq_compat_regs() is NULL there. A
 * handler that needs the interrupted registers passes this flag; it then
 * runs in hard-interrupt context on every kernel, PREEMPT_RT included, and
 * must be written for that context on PREEMPT_RT, where spinlock_t, mutexes
 * and wait queues sleep:
 *
 *  - raw_spinlock_t for every lock it takes, never spinlock_t;
 *  - no allocation or freeing, no wake_up() of a wait_queue_head_t, no call
 *    that takes a spinlock_t inside (completing a kiocb, most DMA unmapping);
 *    complete() is fine (raw-locked since Linux 5.7, "completion: Use
 *    simple wait queues");
 *  - the rest goes to a thread: request_threaded_irq() with this flag and a
 *    thread_fn, the handler returning IRQ_WAKE_THREAD.
 *
 * A kernel with lockdep and CONFIG_PROVE_RAW_LOCK_NESTING reports a
 * spinlock_t taken in such a handler on any kernel, not only on PREEMPT_RT.
 * Linux 2.6.39 added the flag with forced threading (commit 8d32a307e4fa);
 * before it nothing moves a handler into a thread, and the flag is 0.
 */
#if defined(IRQAIO_HAVE_IRQF_NO_THREAD)
#define IRQ_COMPAT_NO_THREAD IRQF_NO_THREAD
#define IRQAIO_BRANCH_IRQF_NO_THREAD
#else
#define IRQ_COMPAT_NO_THREAD 0
#define IRQAIO_BRANCH_NO_IRQF_NO_THREAD
#endif

#endif /* IRQ_COMPAT_H */
