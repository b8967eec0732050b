// SPDX-License-Identifier: GPL-2.0
/*
 * demo_irqdev's NMI handler, built where drivers can have one on x86
 * (register_nmi_handler()) and raise one (the local APIC's IPI): it is
 * written once through NMI_COMPAT_HANDLER(), whose prototype carries the
 * interrupted registers on stock kernels and not on patched-6.1, and reads
 * them through irq_compat_regs() either way. Elsewhere this file is empty
 * and demo_irqdev.h's stubs answer EOPNOTSUPP.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <irq_compat.h>

#include "demo_irqdev.h"

#if DEMO_IRQDEV_HAVE_NMI
#include <asm/apic.h>

/*
 * NMI bookkeeping is global: one NMI handler serves every device. An NMI
 * cannot take locks, so it uses per-CPU variables and atomics only. The
 * handler claims an NMI only on a CPU where this driver raised one: pending
 * is a 0/1 flag that the raiser sets and exactly one side takes back with
 * this_cpu_cmpxchg() (a single instruction, so an NMI cannot split it):
 * the handler when the NMI arrives, or the raiser when it gives up waiting.
 * A late NMI then finds 0 and is left to the kernel's unknown-NMI path,
 * instead of a read-then-decrement that an NMI in between could make wrap.
 */
static atomic64_t demo_irqdev_nmi_handled = ATOMIC64_INIT(0);

/*
 * An NMI raised on another CPU (DEMO_IRQDEV_IOC_NMI_CPU) and what its
 * handler saw. Two CPUs touch it, so state moves by atomic_cmpxchg():
 * the sender IDLE -> ARMED (and back if it gives up), the handler ARMED ->
 * TAKEN, records, then DONE (release); the sender reads after seeing DONE
 * (acquire) and sets IDLE.
 */
enum {
	DEMO_IRQDEV_PROBE_IDLE,
	DEMO_IRQDEV_PROBE_ARMED,
	DEMO_IRQDEV_PROBE_TAKEN,
	DEMO_IRQDEV_PROBE_DONE,
};

struct demo_irqdev_nmi_probe {
	atomic_t state;
	u32 flags;		/* DEMO_IRQDEV_NMI_* */
	unsigned long ip;
};

static atomic64_t demo_irqdev_nmi_regs_null = ATOMIC64_INIT(0);

/* The per-CPU halves of the bookkeeping above. */
static DEFINE_PER_CPU(unsigned int, demo_irqdev_nmi_pending);
static DEFINE_PER_CPU(struct demo_irqdev_nmi_probe, demo_irqdev_nmi_probe);

/* Not our self-NMI: one that DEMO_IRQDEV_IOC_NMI_CPU armed for this CPU? */
static bool demo_irqdev_nmi_probed(struct pt_regs *regs)
{
	struct demo_irqdev_nmi_probe *p = this_cpu_ptr(&demo_irqdev_nmi_probe);

	if (atomic_cmpxchg(&p->state, DEMO_IRQDEV_PROBE_ARMED, DEMO_IRQDEV_PROBE_TAKEN) !=
	    DEMO_IRQDEV_PROBE_ARMED)
		return false;
	p->flags = !regs ? DEMO_IRQDEV_NMI_REGS_NULL :
		   user_mode(regs) ? DEMO_IRQDEV_NMI_USER : 0;
	p->ip = regs ? instruction_pointer(regs) : 0;
	atomic_set_release(&p->state, DEMO_IRQDEV_PROBE_DONE);
	return true;
}

/* Ours: a self-NMI (pending on this CPU) or one NMI_CPU armed; else NMI_DONE. */
static NMI_COMPAT_HANDLER(demo_irqdev_nmi, type)
{
	struct pt_regs *regs;

	regs = irq_compat_regs();
	if (this_cpu_cmpxchg(demo_irqdev_nmi_pending, 1, 0) == 1) {
		if (!regs)
			atomic64_inc(&demo_irqdev_nmi_regs_null);
	} else if (!demo_irqdev_nmi_probed(regs)) {
		return NMI_DONE;
	}
	atomic64_inc(&demo_irqdev_nmi_handled);
	return NMI_HANDLED;
}

/*
 * Raise one NMI on this CPU and wait until our handler saw it. Callable with
 * interrupts off (the IRQ handler uses it); the caller keeps preemption off.
 * -EBUSY if one is already in flight on this CPU (an IRQ handler's nested
 * NMI interrupting a FIRE_NMI loop): a second NMI could not be told apart.
 */
int demo_irqdev_self_nmi(void)
{
	unsigned int us;

	if (this_cpu_cmpxchg(demo_irqdev_nmi_pending, 0, 1) != 0)
		return -EBUSY;
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	for (us = 0; us < 100000; us++) {
		if (!this_cpu_read(demo_irqdev_nmi_pending))
			return 0;
		udelay(1);
	}
	/* Lost: withdraw the request, unless the NMI took it meanwhile. */
	if (this_cpu_cmpxchg(demo_irqdev_nmi_pending, 1, 0) == 1)
		return -ETIMEDOUT;
	return 0;
}

/* Raise one NMI on CPU @nc->cpu and report where it landed. May sleep. */
int demo_irqdev_nmi_cpu(struct demo_irqdev_nmi_cpu *nc)
{
	struct demo_irqdev_nmi_probe *p;
	unsigned int ms;
	int self;

	if (nc->cpu >= nr_cpu_ids || !cpu_online(nc->cpu))
		return -EINVAL;
	p = per_cpu_ptr(&demo_irqdev_nmi_probe, nc->cpu);
	if (atomic_cmpxchg(&p->state, DEMO_IRQDEV_PROBE_IDLE, DEMO_IRQDEV_PROBE_ARMED) !=
	    DEMO_IRQDEV_PROBE_IDLE)
		return -EBUSY;
	self = get_cpu();
	if (self != nc->cpu)
		apic->send_IPI_mask(cpumask_of(nc->cpu), NMI_VECTOR);
	put_cpu();
	if (self == nc->cpu) {
		atomic_set(&p->state, DEMO_IRQDEV_PROBE_IDLE);
		return -EINVAL;
	}
	for (ms = 0; ms < 2000; ms++) {
		if (atomic_read_acquire(&p->state) == DEMO_IRQDEV_PROBE_DONE)
			break;
		usleep_range(1000, 2000);
	}
	if (atomic_cmpxchg(&p->state, DEMO_IRQDEV_PROBE_ARMED, DEMO_IRQDEV_PROBE_IDLE) ==
	    DEMO_IRQDEV_PROBE_ARMED)
		return -ETIMEDOUT;
	/* Taken: the handler is finishing its record in NMI context. */
	while (atomic_read_acquire(&p->state) != DEMO_IRQDEV_PROBE_DONE)
		cpu_relax();
	nc->flags = p->flags;
	nc->ip = p->ip;
	atomic_set(&p->state, DEMO_IRQDEV_PROBE_IDLE);
	return 0;
}

/* In the IRQ handler: an NMI in between must leave our registers pointer intact. */
void demo_irqdev_check_nested_nmi(struct demo_irqdev *d, struct pt_regs *before)
{
	struct pt_regs *after;
	unsigned long flags;

	if (demo_irqdev_self_nmi())
		return;
	after = irq_compat_regs();
	raw_spin_lock_irqsave(&d->stats_lock, flags);
	if (after == before)
		d->stats.nested_nmi_ok++;
	else
		d->stats.nested_nmi_bad++;
	raw_spin_unlock_irqrestore(&d->stats_lock, flags);
}

/* Serves every device: registered before the PCI driver, gone after it. */
int demo_irqdev_nmi_register(void)
{
	return register_nmi_handler(NMI_LOCAL, demo_irqdev_nmi, 0, DRV_NAME);
}

void demo_irqdev_nmi_unregister(void)
{
	/* Waits for a handler still running on another CPU. */
	unregister_nmi_handler(NMI_LOCAL, DRV_NAME);
}

/* The NMI counters in a DEMO_IRQDEV_IOC_STATS answer. */
void demo_irqdev_nmi_stats(struct demo_irqdev_stats *s)
{
	s->nmi_handled = atomic64_read(&demo_irqdev_nmi_handled);
	s->nmi_regs_null = atomic64_read(&demo_irqdev_nmi_regs_null);
}
#endif /* DEMO_IRQDEV_HAVE_NMI */
