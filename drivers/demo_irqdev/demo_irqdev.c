// SPDX-License-Identifier: GPL-2.0
/*
 * demo_irqdev - PCI driver for QEMU's "edu" device (1234:11e8), written once
 * against compat/irq_compat.h: its interrupt and NMI handlers build with
 * whichever handler prototype the target tree has, and both look at the
 * interrupted registers through irq_compat_regs(), the way the 2.6.19 timer
 * interrupt started to use get_irq_regs() for user_mode(regs). The handler
 * asks for IRQ_COMPAT_NO_THREAD so that it keeps them where the kernel
 * forces handlers into threads (threadirqs, PREEMPT_RT), and does only
 * what hard-IRQ context allows there; its thread completes requests.
 *
 * Device (QEMU docs/specs/edu.rst): 0x00 identification (0xRRrr00ed),
 * 0x08 factorial, 0x20 status (0x80: interrupt when the factorial is done),
 * 0x24 interrupt status, 0x60 raise, 0x64 acknowledge; INTx or one MSI;
 * DMA between a 4096-byte buffer at device address 0x40000 and memory:
 * 0x80 source, 0x88 destination, 0x90 count, 0x98 command, done 100 ms of
 * virtual time after the command, then interrupt cause bit 8. Its bus
 * addresses are 28 bits wide; a range outside the buffer stops QEMU.
 *
 * User interface: /dev/demo_irqdev<N>, ioctls in <irqaio/demo_irqdev.h>;
 * the file is the device's DMA buffer, read and written through
 * compat/aio_compat.h: requests are queued by the method, moved on by the
 * interrupt handler and completed by its thread (aio_compat_async.h),
 * whoever the caller is.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/percpu.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <aio_compat.h>
#include <irq_compat.h>
#include <irqaio/demo_irqdev.h>

#define DRV_NAME		"demo_irqdev"

/*
 * pci_alloc_irq_vectors()'s flag for INTx, by this driver's own probes
 * (probes/): Linux 6.8 added PCI_IRQ_INTX for what was PCI_IRQ_LEGACY,
 * 6.10 removed the old name.
 */
#if defined(IRQAIO_HAVE_PCI_IRQ_INTX)
#define DEMO_IRQDEV_PCI_IRQ_INTX	PCI_IRQ_INTX
#elif defined(IRQAIO_HAVE_PCI_IRQ_LEGACY)
/* Linux 4.8 to 6.9. */
#define DEMO_IRQDEV_PCI_IRQ_INTX	PCI_IRQ_LEGACY
#else
#error "demo_irqdev: neither PCI_IRQ_INTX nor PCI_IRQ_LEGACY (pci_alloc_irq_vectors(), Linux 4.8)"
#endif

#define EDU_VENDOR_ID		0x1234
#define EDU_DEVICE_ID		0x11e8

#define EDU_REG_ID		0x00
#define  EDU_ID_MAGIC_MASK	GENMASK(7, 0)
#define  EDU_ID_MAGIC		0xed
#define EDU_REG_FACT		0x08
#define EDU_REG_STATUS		0x20
#define  EDU_STATUS_COMPUTING	BIT(0)
#define  EDU_STATUS_FACT_IRQ	BIT(7)
#define EDU_REG_IRQ_STATUS	0x24
#define EDU_REG_IRQ_RAISE	0x60
#define EDU_REG_IRQ_ACK		0x64
#define EDU_REG_DMA_SRC		0x80
#define EDU_REG_DMA_DST		0x88
#define EDU_REG_DMA_COUNT	0x90
#define EDU_REG_DMA_CMD		0x98
#define  EDU_DMA_RUN		BIT(0)
#define  EDU_DMA_TO_RAM		BIT(1)	/* direction: buffer to memory */
#define  EDU_DMA_IRQ		BIT(2)	/* interrupt when done */
#define EDU_DMA_BUF_ADDR	0x40000	/* device address of the buffer */
#define EDU_DMA_BUF_SIZE	DEMO_IRQDEV_DMA_SIZE
/*
 * What edu's DMA engine reaches is a property of each device (QEMU's
 * dma_mask, 28 bits unless set), which the device does not report: the
 * dma_bits parameter says it. At most 32: addresses are written as 32 bits.
 */
#define EDU_DMA_ADDR_BITS_MIN	24
#define EDU_DMA_ADDR_BITS_MAX	32

/* Interrupt causes: the device sets bit 0 (factorial) and bit 8 (DMA). */
#define EDU_IRQ_FACT		BIT(0)
#define EDU_IRQ_DMA		BIT(8)
/* The cause this driver raises by software; any bit but the device's own. */
#define EDU_IRQ_SOFT		BIT(16)

#define DEMO_IRQDEV_DEFAULT_TIMEOUT_MS	1000
/* A transfer takes 100 ms; unbind waits this long for the one on the wire. */
#define DEMO_IRQDEV_DMA_DRAIN_MS	2000

#if !AIO_COMPAT_PIN_KIND
#error "demo_irqdev: the shim has no way to hold memory for DMA on this tree"
#endif

static unsigned int dma_bits = 28;
module_param(dma_bits, uint, 0444);
MODULE_PARM_DESC(dma_bits,
		 "Address bits the devices' DMA engine reaches (QEMU's edu: its dma_mask property, 28 bits by default); 24-32");

static bool force_intx;
module_param(force_intx, bool, 0444);
MODULE_PARM_DESC(force_intx, "Use INTx even where MSI is available");

static bool no_thread = true;
module_param(no_thread, bool, 0444);
MODULE_PARM_DESC(no_thread,
		 "Keep the handler in hard-IRQ context where interrupts are forced into threads (threadirqs, PREEMPT_RT); N: let it be threaded, and irq_compat_regs() is NULL there");

static DEFINE_IDA(demo_irqdev_ida);

struct demo_irqdev {
	struct pci_dev *pdev;
	void __iomem *regs;
	unsigned int irq;
	int id;
	char name[24];
	struct miscdevice misc;
	/* One reference for the binding (dropped after devm frees the IRQ), one per open file. */
	struct kref ref;
	/* Serialises user operations on the device against each other and against remove(). */
	struct mutex op_lock;
	bool gone;			/* protected by op_lock: remove() ran */
	/* Set by remove() before it completes both completions: waiters give up. */
	atomic_t stopping;
	bool nested_nmi;		/* written under op_lock, read by the IRQ handler */
	struct completion soft_done;	/* a software-raised interrupt was handled */
	struct completion fact_done;	/* the factorial interrupt was handled */
	/*
	 * Protects stats: the IRQ handler updates them, ioctls read them. Raw,
	 * like dma_lock: the handler stays in hard-IRQ context on PREEMPT_RT,
	 * where a spinlock_t sleeps.
	 */
	raw_spinlock_t stats_lock;
	struct demo_irqdev_stats stats;
	/*
	 * Protects dma_queue, dma_cur, dma_done, dma_cancelled, dma_stopping
	 * and the dma_* members of stats: the methods queue, the IRQ handler
	 * moves the queue on, its thread completes what is done, io_cancel()
	 * takes requests off the queue, remove() empties it.
	 */
	raw_spinlock_t dma_lock;
	struct list_head dma_queue;	/* requests waiting for the device, in order */
	struct demo_irqdev_req *dma_cur;	/* the request on the wire, or NULL */
	struct list_head dma_done;	/* finished by the device, for the IRQ thread */
	struct list_head dma_cancelled;	/* taken off the queue, to complete */
	bool dma_stopping;		/* remove() ran: refuse new requests */
	struct file *dma_hold;		/* the file holding the queue (DMA_HOLD), or NULL */
	unsigned int dma_depth;		/* requests queued or on the wire */
	struct work_struct cancel_work;	/* completes dma_cancelled */
	wait_queue_head_t dma_idle;	/* remove() waits for dma_cur and dma_done to empty */
	/* For pieces beyond the device's reach; only the transfer on the wire uses it. */
	void *bounce;
	dma_addr_t bounce_dma;
};

/*
 * One read or write on its way through the device: the pinned pages, mapped
 * for it, moved one mapped entry per transfer.
 */
struct demo_irqdev_req {
	struct aio_compat_async async;	/* the shim's part: pages, completion */
	struct list_head node;		/* on dma_queue, dma_done or dma_cancelled */
	struct demo_irqdev *d;
	struct kiocb *iocb;		/* io_cancel()'s key */
	struct scatterlist *sg;		/* the piece to transfer next */
	dma_addr_t *dma;		/* per piece: bus address, DMA_MAPPING_ERROR: bounced */
	unsigned int cur;		/* index of sg */
	u32 off;			/* buffer offset of the next byte */
	unsigned int bounced;		/* pieces beyond the device's reach */
	size_t done;			/* bytes transferred */
	bool write;
};

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

#if defined(IRQAIO_NMI_HANDLER_ARGS) && defined(IRQAIO_HAVE_APIC_SELF_NMI_EXPORTED)
#define DEMO_IRQDEV_HAVE_NMI 1
#include <asm/apic.h>

/*
 * The per-CPU halves of the bookkeeping above: only the NMI path uses
 * them (a kernel without one would warn that they are unused).
 */
static DEFINE_PER_CPU(unsigned int, demo_irqdev_nmi_pending);
static DEFINE_PER_CPU(struct demo_irqdev_nmi_probe, demo_irqdev_nmi_probe);

/* Not our self-NMI: one that DEMO_IRQDEV_IOC_NMI_CPU armed for this CPU? */
static int demo_irqdev_nmi_probed(struct pt_regs *regs)
{
	struct demo_irqdev_nmi_probe *p = this_cpu_ptr(&demo_irqdev_nmi_probe);

	if (atomic_cmpxchg(&p->state, DEMO_IRQDEV_PROBE_ARMED, DEMO_IRQDEV_PROBE_TAKEN) !=
	    DEMO_IRQDEV_PROBE_ARMED)
		return NMI_DONE;
	p->flags = !regs ? DEMO_IRQDEV_NMI_REGS_NULL :
		   user_mode(regs) ? DEMO_IRQDEV_NMI_USER : 0;
	p->ip = regs ? instruction_pointer(regs) : 0;
	atomic_set_release(&p->state, DEMO_IRQDEV_PROBE_DONE);
	atomic64_inc(&demo_irqdev_nmi_handled);
	return NMI_HANDLED;
}

static NMI_COMPAT_HANDLER(demo_irqdev_nmi, type)
{
	struct pt_regs *regs;

	regs = irq_compat_regs();
	if (this_cpu_cmpxchg(demo_irqdev_nmi_pending, 1, 0) != 1)
		return demo_irqdev_nmi_probed(regs);

	if (!regs)
		atomic64_inc(&demo_irqdev_nmi_regs_null);
	atomic64_inc(&demo_irqdev_nmi_handled);
	return NMI_HANDLED;
}

/*
 * Raise one NMI on this CPU and wait until our handler saw it. Callable with
 * interrupts off (the IRQ handler uses it); the caller keeps preemption off.
 * -EBUSY if one is already in flight on this CPU (an IRQ handler's nested
 * NMI interrupting a FIRE_NMI loop): a second NMI could not be told apart.
 */
static int demo_irqdev_self_nmi(void)
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
static int demo_irqdev_nmi_cpu(struct demo_irqdev_nmi_cpu *nc)
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

#define DEMO_IRQDEV_NMI_ARGS IRQAIO_NMI_HANDLER_ARGS
#else
#define DEMO_IRQDEV_HAVE_NMI 0
#define DEMO_IRQDEV_NMI_ARGS 0
static int demo_irqdev_self_nmi(void)
{
	return -EOPNOTSUPP;
}

static int demo_irqdev_nmi_cpu(struct demo_irqdev_nmi_cpu *nc)
{
	return -EOPNOTSUPP;
}
#endif /* NMI support */

/*
 * The ordering DMA needs on a weakly ordered CPU (arm64) is in these
 * accessors, as Documentation/memory-barriers.txt gives it: iowrite32()
 * orders the CPU's earlier writes to memory before the register write that
 * starts a transfer, ioread32() the CPU's later reads of memory after the
 * status read that says a transfer is done. dma_unmap_page() then makes
 * what the device wrote visible to a CPU without coherent DMA.
 */
static inline u32 demo_irqdev_read(struct demo_irqdev *d, unsigned int reg)
{
	return ioread32(d->regs + reg);
}

static inline void demo_irqdev_write(struct demo_irqdev *d, unsigned int reg, u32 val)
{
	iowrite32(val, d->regs + reg);
}

/* The device computes a factorial; all-ones: it does not answer (disabled, gone). */
static bool demo_irqdev_computing(struct demo_irqdev *d)
{
	u32 status = demo_irqdev_read(d, EDU_REG_STATUS);

	return status != U32_MAX && (status & EDU_STATUS_COMPUTING);
}

static enum dma_data_direction demo_irqdev_dma_dir(const struct demo_irqdev_req *r)
{
	return r->write ? DMA_TO_DEVICE : DMA_FROM_DEVICE;
}

/*
 * Can the device reach @sg's memory? The guests have no IOMMU and
 * swiotlb, where present, sits beyond a 28-bit reach, so the DMA API cannot
 * bounce for us (it warns and fails). Without an IOMMU a bus address is the
 * physical address; with one this is merely conservative.
 */
static bool demo_irqdev_reachable(struct demo_irqdev *d, struct scatterlist *sg)
{
	return sg_phys(sg) + sg->length - 1 <= dma_get_mask(&d->pdev->dev);
}

#if defined(IRQAIO_HAVE_KMAP_LOCAL)
/* Linux 5.11: kmap_local_page() (commit f3ba3c710ac5) replaces kmap_atomic(). */
#define demo_irqdev_kmap(page)	kmap_local_page(page)
#define demo_irqdev_kunmap(p)	kunmap_local(p)
#else
#define demo_irqdev_kmap(page)	kmap_atomic(page)
#define demo_irqdev_kunmap(p)	kunmap_atomic(p)
#endif /* IRQAIO_HAVE_KMAP_LOCAL */

/* Copy a bounced piece between the caller's page and the bounce buffer. */
static void demo_irqdev_bounce_copy(struct demo_irqdev *d, struct scatterlist *sg,
				    bool to_bounce)
{
	char *p = demo_irqdev_kmap(sg_page(sg));

	if (to_bounce)
		memcpy(d->bounce, p + sg->offset, sg->length);
	else
		memcpy(p + sg->offset, d->bounce, sg->length);
	demo_irqdev_kunmap(p);
}

/* Map each piece the device reaches; the others go through d->bounce. */
static int demo_irqdev_dma_map(struct demo_irqdev *d, struct demo_irqdev_req *r)
{
	struct device *dev = &d->pdev->dev;
	struct scatterlist *sg;
	unsigned int i;

	r->dma = kcalloc(r->async.nents, sizeof(*r->dma), GFP_KERNEL);
	if (!r->dma)
		return -ENOMEM;
	for (i = 0; i < r->async.nents; i++)
		r->dma[i] = DMA_MAPPING_ERROR;
	for_each_sg(r->async.sgl, sg, r->async.nents, i) {
		if (!demo_irqdev_reachable(d, sg)) {
			r->bounced++;
			continue;
		}
		r->dma[i] = dma_map_page(dev, sg_page(sg), sg->offset, sg->length,
					 demo_irqdev_dma_dir(r));
		if (dma_mapping_error(dev, r->dma[i]))
			return -ENOMEM;
	}
	return 0;
}

/* Undo demo_irqdev_dma_map(), also a partial one. Any context. */
static void demo_irqdev_dma_unmap(struct demo_irqdev *d, struct demo_irqdev_req *r)
{
	struct scatterlist *sg;
	unsigned int i;

	if (r->dma)
		for_each_sg(r->async.sgl, sg, r->async.nents, i)
			if (r->dma[i] != DMA_MAPPING_ERROR)
				dma_unmap_page(&d->pdev->dev, r->dma[i], sg->length,
					       demo_irqdev_dma_dir(r));
	kfree(r->dma);
	r->dma = NULL;
}

/*
 * Program the device for the next piece of the request on the wire.
 * dma_lock held. The submission clipped the request to the buffer, so
 * [off, off + length) lies inside it (outside, QEMU stops the machine).
 * Bus addresses fit the 32-bit registers: the DMA mask is 28 bits.
 */
static void demo_irqdev_dma_start(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r = d->dma_cur;
	dma_addr_t bus = r->dma[r->cur];
	u32 buf = EDU_DMA_BUF_ADDR + r->off;
	u32 ram;

	if (bus == DMA_MAPPING_ERROR) {
		bus = d->bounce_dma;
		if (r->write)
			demo_irqdev_bounce_copy(d, r->sg, true);
	}
	ram = lower_32_bits(bus);
	demo_irqdev_write(d, EDU_REG_DMA_SRC, r->write ? ram : buf);
	demo_irqdev_write(d, EDU_REG_DMA_DST, r->write ? buf : ram);
	demo_irqdev_write(d, EDU_REG_DMA_COUNT, r->sg->length);
	demo_irqdev_write(d, EDU_REG_DMA_CMD, EDU_DMA_RUN | EDU_DMA_IRQ |
			  (r->write ? 0 : EDU_DMA_TO_RAM));
}

/* Put the first queued request on the wire (none while held). dma_lock held. */
static void demo_irqdev_dma_next(struct demo_irqdev *d)
{
	d->dma_cur = d->dma_hold ? NULL :
		     list_first_entry_or_null(&d->dma_queue, struct demo_irqdev_req, node);
	if (!d->dma_cur)
		return;
	list_del_init(&d->dma_cur->node);
	demo_irqdev_dma_start(d);
}

/* The first request on @list (dma_done, dma_cancelled), taken off it. */
static struct demo_irqdev_req *demo_irqdev_dma_take(struct demo_irqdev *d,
						    struct list_head *list)
{
	struct demo_irqdev_req *r;
	unsigned long flags;

	raw_spin_lock_irqsave(&d->dma_lock, flags);
	r = list_first_entry_or_null(list, struct demo_irqdev_req, node);
	if (r)
		list_del_init(&r->node);
	raw_spin_unlock_irqrestore(&d->dma_lock, flags);
	return r;
}

/* Nothing on the wire, nothing left for the IRQ thread: remove() may go on. */
static bool demo_irqdev_dma_idle(struct demo_irqdev *d)
{
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&d->dma_lock, flags);
	idle = !d->dma_cur && list_empty(&d->dma_done);
	raw_spin_unlock_irqrestore(&d->dma_lock, flags);
	return idle;
}

/*
 * The device is done with @r (or never got it): unmap, then complete it
 * through the shim, which releases the pages. Process context: on
 * PREEMPT_RT both take sleeping locks.
 */
static void demo_irqdev_dma_finish(struct demo_irqdev_req *r, ssize_t res)
{
	struct demo_irqdev *d = r->d;
	unsigned int nents = r->async.nents;
	unsigned long flags;

	demo_irqdev_dma_unmap(d, r);
	raw_spin_lock_irqsave(&d->dma_lock, flags);
	d->stats.dma_held -= nents;
	d->dma_depth--;
	raw_spin_unlock_irqrestore(&d->dma_lock, flags);
	if (aio_compat_complete(&r->async, res))
		kfree(r);
}

/*
 * In the IRQ handler: a transfer is done; start the next piece or request.
 * A finished request goes to dma_done for the IRQ thread, as completing it
 * takes sleeping locks on PREEMPT_RT. True when the thread has work.
 */
static bool demo_irqdev_dma_irq(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r;
	unsigned long flags;
	bool finished = false;

	raw_spin_lock_irqsave(&d->dma_lock, flags);
	r = d->dma_cur;
	if (!r) {
		/* remove() gave up waiting for this transfer. */
		raw_spin_unlock_irqrestore(&d->dma_lock, flags);
		return false;
	}
	if (r->dma[r->cur] == DMA_MAPPING_ERROR && !r->write)
		demo_irqdev_bounce_copy(d, r->sg, false);
	r->done += r->sg->length;
	r->off += r->sg->length;
	d->stats.dma_transfers++;
	d->stats.dma_bytes += r->sg->length;
	if (++r->cur < r->async.nents) {
		r->sg = sg_next(r->sg);
		demo_irqdev_dma_start(d);
	} else {
		d->stats.dma_irq_completions++;
		d->stats.dma_bounced += r->bounced;
		list_add_tail(&r->node, &d->dma_done);
		demo_irqdev_dma_next(d);
		finished = true;
	}
	raw_spin_unlock_irqrestore(&d->dma_lock, flags);
	return finished;
}

/* Complete what the device finished, for the IRQ thread and remove(). */
static void demo_irqdev_dma_reap(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r;
	unsigned long flags;

	while ((r = demo_irqdev_dma_take(d, &d->dma_done))) {
		raw_spin_lock_irqsave(&d->dma_lock, flags);
		d->stats.dma_thread_completions++;
		raw_spin_unlock_irqrestore(&d->dma_lock, flags);
		demo_irqdev_dma_finish(r, r->done);
	}
}

/*
 * io_cancel() (and io_destroy(), process exit): under the aio context's
 * lock, so a request still queued moves to dma_cancelled and a work item
 * completes it; the one on the wire completes normally (EAGAIN: not
 * cancelled, as io_cancel(2) documents).
 */
static int demo_irqdev_dma_cancel(struct kiocb *iocb)
{
	struct demo_irqdev *d = iocb->ki_filp->private_data;
	struct demo_irqdev_req *r;
	unsigned long flags;
	int ret = -EAGAIN;

	raw_spin_lock_irqsave(&d->dma_lock, flags);
	list_for_each_entry(r, &d->dma_queue, node) {
		if (r->iocb != iocb)
			continue;
		list_move_tail(&r->node, &d->dma_cancelled);
		d->stats.dma_cancelled++;
		ret = 0;
		break;
	}
	raw_spin_unlock_irqrestore(&d->dma_lock, flags);
	if (!ret)
		schedule_work(&d->cancel_work);
	return ret;
}

static void demo_irqdev_cancel_work(struct work_struct *work)
{
	struct demo_irqdev *d = container_of(work, struct demo_irqdev, cancel_work);
	struct demo_irqdev_req *r;

	while ((r = demo_irqdev_dma_take(d, &d->dma_cancelled)))
		demo_irqdev_dma_finish(r, -ECANCELED);
}

/*
 * Queue @r (mapped) and start the device if it is idle. -EAGAIN for a
 * request that may not wait while the device is busy, -ENODEV after
 * remove(): nothing queued.
 */
static int demo_irqdev_dma_queue(struct demo_irqdev *d, struct demo_irqdev_req *r,
				 bool may_block, bool async)
{
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&d->dma_lock, flags);
	if (d->dma_stopping) {
		ret = -ENODEV;
	} else if (!may_block && d->dma_depth) {
		d->stats.dma_eagain++;
		ret = -EAGAIN;
	} else {
		list_add_tail(&r->node, &d->dma_queue);
		d->dma_depth++;
		d->stats.dma_max_depth = max(d->stats.dma_max_depth, d->dma_depth);
		d->stats.dma_held += r->async.nents;
		if (async)
			d->stats.dma_queued++;
		else
			d->stats.dma_sync_waits++;
		if (!d->dma_cur)
			demo_irqdev_dma_next(d);
	}
	raw_spin_unlock_irqrestore(&d->dma_lock, flags);
	return ret;
}

/* DEMO_IRQDEV_IOC_DMA_HOLD, and a holder's release(): hold or let go. */
static int demo_irqdev_dma_hold(struct demo_irqdev *d, struct file *file, bool hold)
{
	int ret = 0;

	raw_spin_lock_irq(&d->dma_lock);
	if (hold && d->dma_hold && d->dma_hold != file) {
		ret = -EBUSY;
	} else if (hold) {
		d->dma_hold = file;
	} else if (d->dma_hold == file) {
		d->dma_hold = NULL;
		if (!d->dma_cur && !d->dma_stopping)
			demo_irqdev_dma_next(d);
	}
	raw_spin_unlock_irq(&d->dma_lock);
	return ret;
}

/*
 * One read or write, whoever asked: pin the caller's memory, map it, queue
 * it; the interrupt handler completes it. The shim waits here for callers
 * that cannot take -EIOCBQUEUED.
 */
static ssize_t demo_irqdev_rw(struct aio_compat_req *req)
{
	struct demo_irqdev *d = req->file->private_data;
	bool may_block = aio_compat_may_block(req);
	struct demo_irqdev_req *r;
	size_t len;
	ssize_t ret;

	/* Not mapped for a device that is going away (checked again when queueing). */
	if (READ_ONCE(d->dma_stopping))
		return -ENODEV;
	if (req->pos >= EDU_DMA_BUF_SIZE)
		return req->write && req->count ? -ENOSPC : 0;
	len = min_t(size_t, req->count, EDU_DMA_BUF_SIZE - req->pos);
	if (!len)
		return 0;
	/* Not worth pinning what would be refused (checked again when queueing). */
	if (!may_block && READ_ONCE(d->dma_depth)) {
		raw_spin_lock_irq(&d->dma_lock);
		d->stats.dma_eagain++;
		raw_spin_unlock_irq(&d->dma_lock);
		return -EAGAIN;
	}

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->d = d;
	r->write = req->write;
	r->off = req->pos;
	r->iocb = req->iocb;
	aio_compat_async_init(req, &r->async);
	ret = aio_compat_pin(req, &r->async, len);
	if (ret < 0)
		goto out_free;
	ret = demo_irqdev_dma_map(d, r);
	if (ret)
		goto out_unmap;
	r->sg = r->async.sgl;
	/* Before the completer can see it: io_cancel() may run at once. */
	aio_compat_set_cancel(req, demo_irqdev_dma_cancel);
	ret = demo_irqdev_dma_queue(d, r, may_block, aio_compat_is_async(req));
	if (ret)
		goto out_unmap;
	ret = aio_compat_queued(req, &r->async);
	if (ret != -EIOCBQUEUED)
		kfree(r);
	return ret;

out_unmap:
	demo_irqdev_dma_unmap(d, r);
	aio_compat_unpin(&r->async);
out_free:
	kfree(r);
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(demo_irqdev, demo_irqdev_rw);

/*
 * remove(): fail what waits, give the transfer on the wire its interrupt
 * and the IRQ thread its completion, then make sure no cancelled request
 * is left to complete.
 */
static void demo_irqdev_dma_stop(struct demo_irqdev *d)
{
	struct demo_irqdev_req *r, *tmp;
	LIST_HEAD(failed);

	raw_spin_lock_irq(&d->dma_lock);
	WRITE_ONCE(d->dma_stopping, true);
	list_splice_init(&d->dma_queue, &failed);
	raw_spin_unlock_irq(&d->dma_lock);
	list_for_each_entry_safe(r, tmp, &failed, node) {
		raw_spin_lock_irq(&d->dma_lock);
		d->stats.dma_failed++;
		raw_spin_unlock_irq(&d->dma_lock);
		demo_irqdev_dma_finish(r, -ENODEV);
	}
	if (!wait_event_timeout(d->dma_idle, demo_irqdev_dma_idle(d),
				msecs_to_jiffies(DEMO_IRQDEV_DMA_DRAIN_MS))) {
		/* A lost interrupt: the transfer is long over (100 ms). */
		raw_spin_lock_irq(&d->dma_lock);
		r = d->dma_cur;
		d->dma_cur = NULL;
		if (r)
			d->stats.dma_failed++;
		raw_spin_unlock_irq(&d->dma_lock);
		if (r)
			demo_irqdev_dma_finish(r, -EIO);
		/* And what the thread did not get to. */
		demo_irqdev_dma_reap(d);
	}
	flush_work(&d->cancel_work);
}

/* In the IRQ handler: an NMI in between must leave our registers pointer intact. */
static void demo_irqdev_check_nested_nmi(struct demo_irqdev *d, struct pt_regs *before)
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

/*
 * Requested with IRQ_COMPAT_NO_THREAD (unless no_thread=N), so it runs in
 * hard-IRQ context on every kernel, PREEMPT_RT included: raw locks only, no
 * allocation, nothing that sleeps there; completing requests is the
 * thread's. The locks are taken with _irqsave: with no_thread=N on
 * PREEMPT_RT this runs in a thread with interrupts enabled.
 */
static IRQ_COMPAT_HANDLER(demo_irqdev_isr, irq, dev_id)
{
	struct demo_irqdev *d = dev_id;
	struct pt_regs *regs = irq_compat_regs();
	bool finished = false;
	unsigned long flags;
	u32 status;

	status = demo_irqdev_read(d, EDU_REG_IRQ_STATUS);
	if (!status) {
		/* Not ours: a shared INTx line, or a spurious interrupt. */
		raw_spin_lock_irqsave(&d->stats_lock, flags);
		d->stats.irq_none++;
		raw_spin_unlock_irqrestore(&d->stats_lock, flags);
		return IRQ_NONE;
	}
	/* Acknowledge exactly what we saw: a cause raised since stays pending. */
	demo_irqdev_write(d, EDU_REG_IRQ_ACK, status);
	if (status & EDU_IRQ_DMA)
		finished = demo_irqdev_dma_irq(d);

	if (READ_ONCE(d->nested_nmi) && (status & EDU_IRQ_SOFT))
		demo_irqdev_check_nested_nmi(d, regs);

	raw_spin_lock_irqsave(&d->stats_lock, flags);
	d->stats.irq_handled++;
	if (!hardirq_count())
		d->stats.irq_in_thread++;
	if (status & EDU_IRQ_FACT)
		d->stats.fact_irqs++;
	if (status & EDU_IRQ_SOFT)
		d->stats.raise_irqs++;
	if (!regs) {
		d->stats.regs_null++;
	} else {
		if (user_mode(regs))
			d->stats.regs_user++;
		else
			d->stats.regs_kernel++;
		d->stats.last_ip = instruction_pointer(regs);
	}
	raw_spin_unlock_irqrestore(&d->stats_lock, flags);

	/* complete() is raw-locked: fine here on PREEMPT_RT too. */
	if (status & EDU_IRQ_FACT)
		complete(&d->fact_done);
	if (status & EDU_IRQ_SOFT)
		complete(&d->soft_done);
	return finished ? IRQ_WAKE_THREAD : IRQ_HANDLED;
}

/*
 * The IRQ thread: complete the requests the device finished, wake remove().
 * It interrupted nothing: irq_compat_regs() is NULL here, never a pointer
 * to some other context's registers (counted, for the tests).
 */
static irqreturn_t demo_irqdev_thread(int irq, void *dev_id)
{
	struct demo_irqdev *d = dev_id;
	bool regs = irq_compat_regs();
	unsigned long flags;

	raw_spin_lock_irqsave(&d->stats_lock, flags);
	d->stats.thread_calls++;
	d->stats.thread_regs_set += regs;
	raw_spin_unlock_irqrestore(&d->stats_lock, flags);
	demo_irqdev_dma_reap(d);
	wake_up(&d->dma_idle);
	return IRQ_HANDLED;
}

/*
 * Before raising an interrupt: re-arm @done and refuse if remove() started.
 * remove() sets stopping, then completes @done; the full barrier pairs with
 * its own, so either this sees stopping or that completion comes after the
 * re-arm and ends the wait at once.
 */
static int demo_irqdev_arm(struct demo_irqdev *d, struct completion *done)
{
	reinit_completion(done);
	/* Pairs with remove()'s: the re-arm before reading stopping. */
	smp_mb();
	return atomic_read(&d->stopping) ? -ENODEV : 0;
}

/*
 * Wait for the IRQ handler (or remove()) to complete @done. remove() waits
 * for op_lock, which the caller holds, so the wait is bounded by
 * DEMO_IRQDEV_MAX_TIMEOUT_MS and ends early when remove() starts: an
 * interrupt that never comes (a wedged device, a line the kernel disabled)
 * must not leave sysfs unbind stuck behind this ioctl.
 */
static int demo_irqdev_wait(struct demo_irqdev *d, struct completion *done, u32 ms)
{
	long left = wait_for_completion_killable_timeout(done,
			msecs_to_jiffies(ms ? ms : DEMO_IRQDEV_DEFAULT_TIMEOUT_MS));

	if (atomic_read(&d->stopping))
		return -ENODEV;
	if (left <= 0)
		return left ? left : -ETIMEDOUT;
	return 0;
}

/* Raise interrupts one at a time, each acknowledged before the next. */
static int demo_irqdev_fire(struct demo_irqdev *d, struct demo_irqdev_fire *f)
{
	int ret = 0;

	if (f->count > DEMO_IRQDEV_MAX_FIRE || (f->flags & ~DEMO_IRQDEV_FIRE_FLAGS) ||
	    f->timeout_ms > DEMO_IRQDEV_MAX_TIMEOUT_MS)
		return -EINVAL;
	if ((f->flags & DEMO_IRQDEV_FIRE_NESTED_NMI) && !DEMO_IRQDEV_HAVE_NMI)
		return -EOPNOTSUPP;

	WRITE_ONCE(d->nested_nmi, !!(f->flags & DEMO_IRQDEV_FIRE_NESTED_NMI));
	for (f->done = 0; f->done < f->count; f->done++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		ret = demo_irqdev_arm(d, &d->soft_done);
		if (ret)
			break;
		demo_irqdev_write(d, EDU_REG_IRQ_RAISE, EDU_IRQ_SOFT);
		ret = demo_irqdev_wait(d, &d->soft_done, f->timeout_ms);
		if (ret)
			break;
		/*
		 * An interrupt handled before the wait does not make it sleep,
		 * nor see a signal: a million of them must not hold the CPU
		 * without a scheduling point (an RCU stall on a non-preemptible
		 * kernel) or a way to kill the caller.
		 */
		cond_resched();
	}
	WRITE_ONCE(d->nested_nmi, false);
	/* Partial progress is reported through @done; an error only if none. */
	return f->done ? 0 : ret;
}

static int demo_irqdev_fire_nmi(struct demo_irqdev_fire *f)
{
	int ret = 0;

	if (!DEMO_IRQDEV_HAVE_NMI)
		return -EOPNOTSUPP;
	if (f->count > DEMO_IRQDEV_MAX_FIRE || f->flags)
		return -EINVAL;
	for (f->done = 0; f->done < f->count; f->done++) {
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		preempt_disable();
		ret = demo_irqdev_self_nmi();
		preempt_enable();
		if (ret)
			break;
		cond_resched();
	}
	return f->done ? 0 : ret;
}

static int demo_irqdev_factorial(struct demo_irqdev *d, struct demo_irqdev_factorial *fa)
{
	unsigned long end;
	int ret;

	if (fa->timeout_ms > DEMO_IRQDEV_MAX_TIMEOUT_MS)
		return -EINVAL;
	/*
	 * A computation an earlier caller stopped waiting for (an unbind that
	 * woke it, a timeout, a fatal signal) may still run: wait for it
	 * within this call's own timeout, then EBUSY.
	 */
	end = jiffies + msecs_to_jiffies(fa->timeout_ms ? fa->timeout_ms :
					 DEMO_IRQDEV_DEFAULT_TIMEOUT_MS);
	while (demo_irqdev_computing(d)) {
		if (atomic_read(&d->stopping))
			return -ENODEV;
		if (time_after(jiffies, end))
			return -EBUSY;
		usleep_range(100, 200);
	}
	ret = demo_irqdev_arm(d, &d->fact_done);
	if (ret)
		return ret;
	demo_irqdev_write(d, EDU_REG_STATUS, EDU_STATUS_FACT_IRQ);
	demo_irqdev_write(d, EDU_REG_FACT, fa->n);
	ret = demo_irqdev_wait(d, &d->fact_done, fa->timeout_ms);
	if (ret)
		return ret;
	fa->result = demo_irqdev_read(d, EDU_REG_FACT);
	return 0;
}

/*
 * An interrupted instruction pointer tells where the kernel (KASLR) or a
 * process (ASLR) is loaded. Only a file opened with CAP_SYSLOG gets it raw,
 * decided by the opener's credentials (file->f_cred), not the caller's, as
 * for /proc/kallsyms. That is what kallsyms_show_value(file->f_cred) asks
 * with kptr_restrict=1 (since 5.8, commit 160251842cd3); it is not exported
 * to modules (5.10 to 6.12), and neither is kptr_restrict, so the 0 and 2
 * settings are not followed: 0 would show more, 2 less. Others get the
 * symbol and offset only, which say nothing about the load address.
 */
static bool demo_irqdev_show_addr(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_SYSLOG);
}

static void demo_irqdev_get_stats(struct demo_irqdev *d, const struct file *file,
				  struct demo_irqdev_stats *s)
{
	unsigned long flags;

	/* The data path's counters are dma_lock's; nothing takes them the other way. */
	raw_spin_lock_irqsave(&d->stats_lock, flags);
	raw_spin_lock(&d->dma_lock);
	*s = d->stats;
	raw_spin_unlock(&d->dma_lock);
	raw_spin_unlock_irqrestore(&d->stats_lock, flags);
	s->nmi_handled = atomic64_read(&demo_irqdev_nmi_handled);
	s->nmi_regs_null = atomic64_read(&demo_irqdev_nmi_regs_null);
	snprintf(s->last_ip_sym, sizeof(s->last_ip_sym), "%pS", (void *)(unsigned long)s->last_ip);
	if (demo_irqdev_show_addr(file))
		return;
	s->last_ip = 0;
	/* %pS prints the bare address where it finds no symbol (user IPs too). */
	if (!strncmp(s->last_ip_sym, "0x", 2))
		strscpy(s->last_ip_sym, "?", sizeof(s->last_ip_sym));
}

static long demo_irqdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct demo_irqdev *d = file->private_data;
	void __user *uarg = (void __user *)arg;
	union {
		struct demo_irqdev_fire fire;
		struct demo_irqdev_factorial fact;
		struct demo_irqdev_stats stats;
		struct demo_irqdev_nmi_cpu nmi_cpu;
		u32 hold;
	} u;
	long ret;

	/*
	 * Each command's number encodes the size of its argument, the member
	 * of u it uses (_IOWR()/_IOR() of its struct): _IOC_SIZE(cmd) copies
	 * exactly that member, in and out.
	 */
	switch (cmd) {
	case DEMO_IRQDEV_IOC_FIRE:
	case DEMO_IRQDEV_IOC_FIRE_NMI:
	case DEMO_IRQDEV_IOC_FACTORIAL:
	case DEMO_IRQDEV_IOC_NMI_CPU:
		if (copy_from_user(&u, uarg, _IOC_SIZE(cmd)))
			return -EFAULT;
		break;
	case DEMO_IRQDEV_IOC_STATS:
		memset(&u.stats, 0, sizeof(u.stats));
		break;
	case DEMO_IRQDEV_IOC_DMA_HOLD:
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		if (get_user(u.hold, (u32 __user *)uarg))
			return -EFAULT;
		if (u.hold > 1)
			return -EINVAL;
		return demo_irqdev_dma_hold(d, file, u.hold);
	default:
		return -ENOTTY;
	}

	if (mutex_lock_interruptible(&d->op_lock))
		return -ERESTARTSYS;
	if (d->gone) {
		mutex_unlock(&d->op_lock);
		return -ENODEV;
	}
	switch (cmd) {
	case DEMO_IRQDEV_IOC_FIRE:
		ret = demo_irqdev_fire(d, &u.fire);
		break;
	case DEMO_IRQDEV_IOC_FIRE_NMI:
		ret = demo_irqdev_fire_nmi(&u.fire);
		break;
	case DEMO_IRQDEV_IOC_FACTORIAL:
		ret = demo_irqdev_factorial(d, &u.fact);
		break;
	case DEMO_IRQDEV_IOC_NMI_CPU:
		ret = demo_irqdev_nmi_cpu(&u.nmi_cpu);
		if (!ret && !demo_irqdev_show_addr(file))
			u.nmi_cpu.ip = 0;
		break;
	default:
		demo_irqdev_get_stats(d, file, &u.stats);
		ret = 0;
		break;
	}
	mutex_unlock(&d->op_lock);
	if (ret)
		return ret;
	return copy_to_user(uarg, &u, _IOC_SIZE(cmd)) ? -EFAULT : 0;
}

static void demo_irqdev_free(struct kref *ref)
{
	struct demo_irqdev *d = container_of(ref, struct demo_irqdev, ref);

	kfree(d);
}

static int demo_irqdev_open(struct inode *inode, struct file *file)
{
	/* misc_open() set private_data to our miscdevice, under misc_mtx. */
	struct demo_irqdev *d = container_of(file->private_data, struct demo_irqdev, misc);

	kref_get(&d->ref);
	file->private_data = d;
	/* Requests honour IOCB_NOWAIT (aio_compat_may_block()). */
	aio_compat_file_nowait(file);
	return 0;
}

static loff_t demo_irqdev_llseek(struct file *file, loff_t offset, int whence)
{
	return fixed_size_llseek(file, offset, whence, EDU_DMA_BUF_SIZE);
}

static int demo_irqdev_release(struct inode *inode, struct file *file)
{
	struct demo_irqdev *d = file->private_data;

	demo_irqdev_dma_hold(d, file, false);
	kref_put(&d->ref, demo_irqdev_free);
	return 0;
}

static const struct file_operations demo_irqdev_fops = {
	.owner		= THIS_MODULE,
	.open		= demo_irqdev_open,
	.release	= demo_irqdev_release,
	.llseek		= demo_irqdev_llseek,
	AIO_COMPAT_FOPS(demo_irqdev),
	.unlocked_ioctl	= demo_irqdev_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

/* devm actions: run in reverse order of registration after remove(). */
static void demo_irqdev_put_action(void *data)
{
	struct demo_irqdev *d = data;

	kref_put(&d->ref, demo_irqdev_free);
}

static void demo_irqdev_free_vectors(void *data)
{
	pci_free_irq_vectors(data);
}

static void demo_irqdev_free_id(void *data)
{
	struct demo_irqdev *d = data;

	ida_free(&demo_irqdev_ida, d->id);
}

/* Request and map BAR 0, managed: unmapped and released after remove(). */
static int demo_irqdev_map_bar0(struct demo_irqdev *d)
{
#if defined(IRQAIO_HAVE_PCIM_IOMAP_REGION_EXPORTED)
	/*
	 * Linux 6.11: pcim_iomap_region() maps one BAR; the PCI devres rework
	 * that added it deprecated pcim_iomap_regions()/pcim_iomap_table().
	 */
	d->regs = pcim_iomap_region(d->pdev, 0, DRV_NAME);
	return PTR_ERR_OR_ZERO(d->regs);
#else
	/* Before 6.11: request and map by mask, read back from the table. */
	int ret = pcim_iomap_regions(d->pdev, BIT(0), DRV_NAME);

	if (ret)
		return ret;
	d->regs = pcim_iomap_table(d->pdev)[0];
	return 0;
#endif /* IRQAIO_HAVE_PCIM_IOMAP_REGION_EXPORTED */
}

static int demo_irqdev_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	unsigned int irq_types;
	struct demo_irqdev *d;
	u32 ident;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	kref_init(&d->ref);
	mutex_init(&d->op_lock);
	raw_spin_lock_init(&d->stats_lock);
	init_completion(&d->soft_done);
	init_completion(&d->fact_done);
	raw_spin_lock_init(&d->dma_lock);
	INIT_LIST_HEAD(&d->dma_queue);
	INIT_LIST_HEAD(&d->dma_done);
	INIT_LIST_HEAD(&d->dma_cancelled);
	INIT_WORK(&d->cancel_work, demo_irqdev_cancel_work);
	init_waitqueue_head(&d->dma_idle);
	d->stats.dma_complete_kind = AIO_COMPAT_COMPLETE_KIND;
	d->stats.dma_pin_kind = AIO_COMPAT_PIN_KIND;
	d->stats.dma_can_cancel = AIO_COMPAT_CAN_CANCEL;
	d->pdev = pdev;
	/* Registered first, so it runs last: after the IRQ is freed. */
	ret = devm_add_action_or_reset(dev, demo_irqdev_put_action, d);
	if (ret)
		return ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = demo_irqdev_map_bar0(d);
	if (ret)
		return ret;

	ident = demo_irqdev_read(d, EDU_REG_ID);
	if ((ident & EDU_ID_MAGIC_MASK) != EDU_ID_MAGIC) {
		dev_err(dev, "not an edu device (id %#x)\n", ident);
		return -ENODEV;
	}
	pci_set_master(pdev);	/* MSI is a memory write by the device; and DMA */
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(dma_bits));
	if (ret)
		return ret;
	d->bounce = dmam_alloc_coherent(dev, EDU_DMA_BUF_SIZE, &d->bounce_dma, GFP_KERNEL);
	if (!d->bounce)
		return -ENOMEM;

	irq_types = DEMO_IRQDEV_PCI_IRQ_INTX;
	if (!force_intx)
		irq_types |= PCI_IRQ_MSI;
	ret = pci_alloc_irq_vectors(pdev, 1, 1, irq_types);
	if (ret < 0)
		return ret;
	ret = devm_add_action_or_reset(dev, demo_irqdev_free_vectors, pdev);
	if (ret)
		return ret;
	d->irq = pci_irq_vector(pdev, 0);
	d->stats.irq = d->irq;
	d->stats.irq_mode = pdev->msi_enabled ? DEMO_IRQDEV_MODE_MSI : DEMO_IRQDEV_MODE_INTX;
	d->stats.irq_handler_args = IRQAIO_IRQ_HANDLER_ARGS;
	d->stats.nmi_handler_args = DEMO_IRQDEV_NMI_ARGS;

	d->id = ida_alloc(&demo_irqdev_ida, GFP_KERNEL);
	if (d->id < 0)
		return d->id;
	ret = devm_add_action_or_reset(dev, demo_irqdev_free_id, d);
	if (ret)
		return ret;
	snprintf(d->name, sizeof(d->name), DEMO_IRQDEV_NAME "%d", d->id);

	d->stats.irq_no_thread = no_thread && IRQ_COMPAT_NO_THREAD;
	ret = devm_request_threaded_irq(dev, d->irq, demo_irqdev_isr, demo_irqdev_thread,
					IRQF_SHARED | (no_thread ? IRQ_COMPAT_NO_THREAD : 0),
					d->name, d);
	if (ret)
		return ret;

	d->misc.minor = MISC_DYNAMIC_MINOR;
	d->misc.name = d->name;
	d->misc.fops = &demo_irqdev_fops;
	d->misc.parent = dev;
	ret = misc_register(&d->misc);
	if (ret)
		return ret;

	pci_set_drvdata(pdev, d);
	dev_info(dev, "%s: edu rev %#x, irq %u (%s), %d-argument IRQ handler, NMI handler %s\n",
		 d->name, ident >> 24, d->irq, pdev->msi_enabled ? "MSI" : "INTx",
		 IRQAIO_IRQ_HANDLER_ARGS,
		 DEMO_IRQDEV_NMI_ARGS == 2 ? "with regs" :
		 DEMO_IRQDEV_NMI_ARGS == 1 ? "without regs" : "absent");
	return 0;
}

static void demo_irqdev_remove(struct pci_dev *pdev)
{
	struct demo_irqdev *d = pci_get_drvdata(pdev);
	unsigned long end;

	/*
	 * Stop a waiting or firing ioctl (see demo_irqdev_arm()), refuse new
	 * opens, then new operations.
	 */
	atomic_set(&d->stopping, 1);
	/* Pairs with demo_irqdev_arm()'s: stopping set before completing. */
	smp_mb();
	complete_all(&d->soft_done);
	complete_all(&d->fact_done);
	misc_deregister(&d->misc);
	demo_irqdev_dma_stop(d);
	mutex_lock(&d->op_lock);
	d->gone = true;
	/*
	 * A FACTORIAL woken above may leave the device computing: give it the
	 * time a FACTORIAL waits by default (the device may be wedged), so
	 * that the next binding finds it idle instead of answering EBUSY.
	 */
	end = jiffies + msecs_to_jiffies(DEMO_IRQDEV_DEFAULT_TIMEOUT_MS);
	while (demo_irqdev_computing(d) && time_before(jiffies, end))
		usleep_range(1000, 2000);
	mutex_unlock(&d->op_lock);
	/* devm now frees the IRQ, the mapping, the vectors, then our reference. */
}

static const struct pci_device_id demo_irqdev_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR_ID, EDU_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, demo_irqdev_ids);

static struct pci_driver demo_irqdev_driver = {
	.name		= DRV_NAME,
	.id_table	= demo_irqdev_ids,
	.probe		= demo_irqdev_probe,
	.remove		= demo_irqdev_remove,
};

static int __init demo_irqdev_init(void)
{
	int ret;

	if (dma_bits < EDU_DMA_ADDR_BITS_MIN || dma_bits > EDU_DMA_ADDR_BITS_MAX) {
		pr_err("dma_bits=%u out of range %d-%d\n", dma_bits,
		       EDU_DMA_ADDR_BITS_MIN, EDU_DMA_ADDR_BITS_MAX);
		return -EINVAL;
	}

#if DEMO_IRQDEV_HAVE_NMI
	ret = register_nmi_handler(NMI_LOCAL, demo_irqdev_nmi, 0, DRV_NAME);
	if (ret)
		return ret;
#endif
	ret = pci_register_driver(&demo_irqdev_driver);
#if DEMO_IRQDEV_HAVE_NMI
	if (ret)
		unregister_nmi_handler(NMI_LOCAL, DRV_NAME);
#endif
	return ret;
}

static void __exit demo_irqdev_exit(void)
{
	pci_unregister_driver(&demo_irqdev_driver);
#if DEMO_IRQDEV_HAVE_NMI
	/* Waits for a handler still running on another CPU. */
	unregister_nmi_handler(NMI_LOCAL, DRV_NAME);
#endif
}

module_init(demo_irqdev_init);
module_exit(demo_irqdev_exit);

MODULE_DESCRIPTION("QEMU edu device: IRQ and NMI handlers written once through irq_compat.h");
MODULE_LICENSE("GPL");
