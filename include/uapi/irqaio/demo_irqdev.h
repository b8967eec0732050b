/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * demo_irqdev user interface: one misc device per QEMU edu device,
 * /dev/demo_irqdev<N>. Shared by the driver and the in-guest tests.
 *
 * Data path: the file is DEMO_IRQDEV_DMA_SIZE bytes, backed by the edu
 * device's DMA buffer (see there). read/write, readv/writev, pread/pwrite, io_submit()
 * and io_uring move every byte by the device's DMA between that buffer and
 * the caller's own pages, one transfer per page piece, one transfer in
 * flight per device, requests served in the order they arrive; each is
 * completed from the interrupt handler when its last transfer is done.
 * Reads at or past the end return 0, across it short; writes across it
 * short, at or past it -ENOSPC. A request that may not block (O_NONBLOCK,
 * RWF_NOWAIT) while requests are queued or on the wire fails with -EAGAIN,
 * nothing queued.
 * io_cancel() takes a request still waiting off the queue (it completes
 * with -ECANCELED); one on the wire completes normally (io_cancel() says
 * EAGAIN). Unbinding the device fails what waits with -ENODEV.
 */
#ifndef _UAPI_IRQAIO_DEMO_IRQDEV_H
#define _UAPI_IRQAIO_DEMO_IRQDEV_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define DEMO_IRQDEV_NAME "demo_irqdev"

/* DEMO_IRQDEV_IOC_FIRE / _FIRE_NMI: raise @count interrupts (NMIs), one at a time. */
struct demo_irqdev_fire {
	__u32 count;		/* in: how many; at most DEMO_IRQDEV_MAX_FIRE */
	__u32 flags;		/* in: DEMO_IRQDEV_FIRE_* */
	__u32 timeout_ms;	/* in: per interrupt; 0 means 1000; see below */
	__u32 done;		/* out: how many were handled */
};

#define DEMO_IRQDEV_MAX_FIRE		1000000
/*
 * Largest timeout_ms FIRE and FACTORIAL accept; more is refused with EINVAL
 * (not clamped, so a caller learns its value was not used). An ioctl that
 * waits holds the device against unbind; unbind ends the wait at once and
 * the ioctl fails with ENODEV (FIRE: unless some interrupts were done).
 */
#define DEMO_IRQDEV_MAX_TIMEOUT_MS	60000
/* In the IRQ handler, raise a self-NMI and check get_irq_regs() after it. */
#define DEMO_IRQDEV_FIRE_NESTED_NMI	(1U << 0)
#define DEMO_IRQDEV_FIRE_FLAGS		DEMO_IRQDEV_FIRE_NESTED_NMI

/* DEMO_IRQDEV_IOC_FACTORIAL: the edu device computes n!, interrupting when done. */
struct demo_irqdev_factorial {
	__u32 n;		/* in */
	__u32 timeout_ms;	/* in: 0 means 1000; at most DEMO_IRQDEV_MAX_TIMEOUT_MS */
	__u32 result;		/* out: n! modulo 2^32, as the device computes it */
	__u32 pad;
};

/* DEMO_IRQDEV_IOC_STATS: counters since the device was bound. */
struct demo_irqdev_stats {
	__u64 irq_handled;	/* handler calls that found a cause */
	__u64 irq_none;		/* handler calls with status 0 (IRQ_NONE) */
	__u64 raise_irqs;	/* causes: software raise (bits 8..31) */
	__u64 fact_irqs;	/* causes: factorial done (bit 0) */
	__u64 regs_null;	/* handler calls where irq_compat_regs() was NULL */
	__u64 regs_user;	/* ... interrupted user mode */
	__u64 regs_kernel;	/* ... interrupted kernel mode */
	/*
	 * Instruction pointer of the last interrupted context: 0 unless the
	 * file was opened with CAP_SYSLOG (it would reveal KASLR's offset).
	 */
	__u64 last_ip;
	__u64 nmi_handled;	/* NMIs this driver raised and claimed (all devices) */
	__u64 nmi_regs_null;	/* ... where irq_compat_regs() was NULL */
	__u64 nested_nmi_ok;	/* NMI inside the IRQ handler left its regs intact */
	__u64 nested_nmi_bad;	/* ... and where it did not */
	__u32 irq;		/* Linux IRQ number */
	__u32 irq_mode;		/* DEMO_IRQDEV_MODE_* */
	__u32 irq_handler_args;	/* prototype the shim picked: 2 or 3 */
	__u32 nmi_handler_args;	/* 2 (stock x86: regs) or 1 (patched), 0: no NMI */
	/* last_ip as %pS ("symbol+off/size"); without CAP_SYSLOG "?" for a bare address */
	char last_ip_sym[64];
	/* The data path (see above). */
	__u64 dma_transfers;	/* DMA transfers the device finished (interrupt cause bit 8) */
	__u64 dma_irq_completions;	/* requests completed from the interrupt handler */
	__u64 dma_queued;	/* requests the method left queued (-EIOCBQUEUED) */
	__u64 dma_sync_waits;	/* requests a synchronous caller waited for in the method */
	__u64 dma_cancelled;	/* requests io_cancel() took off the queue */
	__u64 dma_failed;	/* failed by unbind (-ENODEV) or a lost interrupt (-EIO) */
	/*
	 * Requests that may not block refused (-EAGAIN); io_uring's first,
	 * non-blocking attempt counts here too before io-wq retries it.
	 */
	__u64 dma_eagain;
	__u64 dma_bytes;	/* bytes moved by DMA */
	__u64 dma_held;		/* page pieces held for DMA right now (0 when idle) */
	__u64 dma_bounced;	/* pieces beyond the device's DMA reach, through a bounce buffer */
	__u32 dma_max_depth;	/* most requests queued or on the wire at once */
	/* AIO_COMPAT_COMPLETE_KIND: 2 ki_complete(res, res2), 3 ki_complete(res) */
	__u32 dma_complete_kind;
	/* AIO_COMPAT_PIN_KIND: 1 pin_user_pages_fast(), 2 iov_iter_extract_pages() */
	__u32 dma_pin_kind;
	__u32 dma_can_cancel;	/* 1: io_cancel() reaches the driver */
	/*
	 * 1: the handler was requested with IRQ_COMPAT_NO_THREAD (module
	 * parameter no_thread, and a kernel that has the flag), so forced
	 * interrupt threading leaves it in hard-IRQ context.
	 */
	__u32 irq_no_thread;
	__u64 irq_in_thread;	/* handler calls that found a cause outside hard-IRQ context */
	__u64 dma_thread_completions;	/* requests the IRQ thread completed */
	__u64 thread_calls;	/* runs of the IRQ thread (the thread_fn) */
	__u64 thread_regs_set;	/* ... where irq_compat_regs() was not NULL (never) */
};

/*
 * Size of the file: the edu device's 4096-byte DMA buffer less its last
 * byte, which QEMU's edu model before commit 4c41ccf916c2 ("hw: misc: edu:
 * fix 2 off-by-one errors"; Debian 12's QEMU 7.2 has the bug) cannot reach:
 * it stops the machine for any transfer that ends at the buffer's end.
 */
#define DEMO_IRQDEV_DMA_SIZE		4095

/*
 * DEMO_IRQDEV_IOC_NMI_CPU: raise one NMI on another CPU and report where it
 * interrupted that CPU, as this driver's NMI handler saw it through
 * irq_compat_regs() (the handler's regs argument on stock x86, get_irq_regs()
 * with core-patch/). EINVAL for an offline CPU or the caller's own, EBUSY if
 * one is in flight to that CPU, ETIMEDOUT if it never arrived.
 */
struct demo_irqdev_nmi_cpu {
	__u32 cpu;		/* in: target CPU */
	__u32 flags;		/* out: DEMO_IRQDEV_NMI_* */
	__u64 ip;		/* out: interrupted IP; 0 unless opened with CAP_SYSLOG */
};

#define DEMO_IRQDEV_NMI_USER		(1U << 0)	/* it interrupted user mode */
#define DEMO_IRQDEV_NMI_REGS_NULL	(1U << 1)	/* irq_compat_regs() was NULL */

#define DEMO_IRQDEV_MODE_INTX	1
#define DEMO_IRQDEV_MODE_MSI	2

#define DEMO_IRQDEV_IOC_MAGIC		'E'
#define DEMO_IRQDEV_IOC_FIRE		_IOWR(DEMO_IRQDEV_IOC_MAGIC, 1, struct demo_irqdev_fire)
#define DEMO_IRQDEV_IOC_FACTORIAL	\
	_IOWR(DEMO_IRQDEV_IOC_MAGIC, 2, struct demo_irqdev_factorial)
#define DEMO_IRQDEV_IOC_STATS		_IOR(DEMO_IRQDEV_IOC_MAGIC, 3, struct demo_irqdev_stats)
#define DEMO_IRQDEV_IOC_FIRE_NMI	_IOWR(DEMO_IRQDEV_IOC_MAGIC, 4, struct demo_irqdev_fire)
#define DEMO_IRQDEV_IOC_NMI_CPU		_IOWR(DEMO_IRQDEV_IOC_MAGIC, 5, struct demo_irqdev_nmi_cpu)
/*
 * DEMO_IRQDEV_IOC_DMA_HOLD (CAP_SYS_ADMIN): 1 holds the device's queue
 * (requests queue, none is started; the one on the wire finishes), 0 lets
 * it go. For tests that must see requests queued whatever the machine's
 * speed; closing the file that held it lets it go too.
 */
#define DEMO_IRQDEV_IOC_DMA_HOLD	_IOW(DEMO_IRQDEV_IOC_MAGIC, 6, __u32)

#endif /* _UAPI_IRQAIO_DEMO_IRQDEV_H */
