/* SPDX-License-Identifier: GPL-2.0 */
/*
 * demo_irqdev's private header: the edu device's registers, the driver's
 * state, and what its three files call of each other (demo_irqdev_main.c:
 * the device, its interrupts and ioctls; demo_irqdev_dma.c: the DMA engine
 * behind read and write; demo_irqdev_nmi.c: the NMI handler, where the
 * tree has one for drivers).
 */
#ifndef DEMO_IRQDEV_H
#define DEMO_IRQDEV_H

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

/*
 * The DMA engine's state. @lock protects everything here but the work
 * item, the wait queue and the bounce buffer, and the dma_* members of the
 * device's stats: the methods queue, the IRQ handler moves the queue on,
 * its thread completes what is done, io_cancel() takes requests off the
 * queue, remove() empties it. Raw, like stats_lock: the handler stays in
 * hard-IRQ context on PREEMPT_RT, where a spinlock_t sleeps.
 */
struct demo_irqdev_dma {
	raw_spinlock_t lock;
	struct list_head queue;		/* requests waiting for the device, in order */
	struct demo_irqdev_req *cur;	/* the request on the wire, or NULL */
	struct list_head done;		/* finished by the device, for the IRQ thread */
	struct list_head cancelled;	/* taken off the queue, to complete */
	bool stopping;			/* remove() ran: refuse new requests */
	struct file *hold;		/* the file holding the queue (DMA_HOLD), or NULL */
	unsigned int depth;		/* requests queued or on the wire */
	struct work_struct cancel_work;	/* completes cancelled */
	wait_queue_head_t idle;		/* remove() waits for cur and done to empty */
	/* For pieces beyond the device's reach; only the transfer on the wire uses it. */
	void *bounce;
	dma_addr_t bounce_dma;
};

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
	 * Protects stats but their dma_* members (dma.lock's): the IRQ
	 * handler updates them, ioctls read them. Raw, like dma.lock.
	 */
	raw_spinlock_t stats_lock;
	struct demo_irqdev_stats stats;
	struct demo_irqdev_dma dma;
};

/*
 * One read or write on its way through the device: the pinned pages, mapped
 * for it, moved one mapped entry per transfer.
 */
struct demo_irqdev_req {
	struct aio_compat_async async;	/* the shim's part: pages, completion */
	struct list_head node;		/* on dma.queue, dma.done or dma.cancelled */
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

/* demo_irqdev_main.c */
void demo_irqdev_free(struct kref *ref);
long demo_irqdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* demo_irqdev_dma.c */
extern const struct file_operations demo_irqdev_fops;
void demo_irqdev_dma_init(struct demo_irqdev *d);
int demo_irqdev_dma_hold(struct demo_irqdev *d, struct file *file, bool hold);
bool demo_irqdev_dma_irq(struct demo_irqdev *d);
void demo_irqdev_dma_reap(struct demo_irqdev *d);
void demo_irqdev_dma_stop(struct demo_irqdev *d);

/*
 * demo_irqdev_nmi.c, built where the tree lets drivers raise and handle
 * NMIs: the 2.6.19-shaped handler (regs or not) and the local APIC's
 * self-NMI. Elsewhere (arm64) the stubs below refuse what needs one.
 */
#if defined(IRQAIO_NMI_HANDLER_ARGS) && defined(IRQAIO_HAVE_APIC_SELF_NMI_EXPORTED)
#define DEMO_IRQDEV_HAVE_NMI	1
#define DEMO_IRQDEV_NMI_ARGS	IRQAIO_NMI_HANDLER_ARGS
int demo_irqdev_nmi_register(void);
void demo_irqdev_nmi_unregister(void);
int demo_irqdev_self_nmi(void);
int demo_irqdev_nmi_cpu(struct demo_irqdev_nmi_cpu *nc);
void demo_irqdev_nmi_stats(struct demo_irqdev_stats *s);
void demo_irqdev_check_nested_nmi(struct demo_irqdev *d, struct pt_regs *before);
#else
#define DEMO_IRQDEV_HAVE_NMI	0
#define DEMO_IRQDEV_NMI_ARGS	0
static inline int demo_irqdev_nmi_register(void)
{
	return 0;
}

static inline void demo_irqdev_nmi_unregister(void)
{
}

static inline int demo_irqdev_self_nmi(void)
{
	return -EOPNOTSUPP;
}

static inline int demo_irqdev_nmi_cpu(struct demo_irqdev_nmi_cpu *nc)
{
	return -EOPNOTSUPP;
}

static inline void demo_irqdev_nmi_stats(struct demo_irqdev_stats *s)
{
}

static inline void demo_irqdev_check_nested_nmi(struct demo_irqdev *d,
						struct pt_regs *before)
{
}
#endif /* NMI support */

#endif /* DEMO_IRQDEV_H */
