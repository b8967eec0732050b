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
 * compat/aio_compat.h (demo_irqdev_dma.c). This file: the binding, the
 * interrupt handler and its thread, and the ioctls; the NMI handler is
 * demo_irqdev_nmi.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <irq_compat.h>

#include "demo_irqdev.h"

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

/* The device computes a factorial; all-ones: it does not answer (disabled, gone). */
static bool demo_irqdev_computing(struct demo_irqdev *d)
{
	u32 status = demo_irqdev_read(d, EDU_REG_STATUS);

	return status != U32_MAX && (status & EDU_STATUS_COMPUTING);
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
	wake_up(&d->dma.idle);
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

	/* The data path's counters are dma.lock's; nothing takes them the other way. */
	raw_spin_lock_irqsave(&d->stats_lock, flags);
	raw_spin_lock(&d->dma.lock);
	*s = d->stats;
	raw_spin_unlock(&d->dma.lock);
	raw_spin_unlock_irqrestore(&d->stats_lock, flags);
	demo_irqdev_nmi_stats(s);
	snprintf(s->last_ip_sym, sizeof(s->last_ip_sym), "%pS", (void *)(unsigned long)s->last_ip);
	if (demo_irqdev_show_addr(file))
		return;
	s->last_ip = 0;
	/* %pS prints the bare address where it finds no symbol (user IPs too). */
	if (!strncmp(s->last_ip_sym, "0x", 2))
		strscpy(s->last_ip_sym, "?", sizeof(s->last_ip_sym));
}

long demo_irqdev_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
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

void demo_irqdev_free(struct kref *ref)
{
	struct demo_irqdev *d = container_of(ref, struct demo_irqdev, ref);

	kfree(d);
}

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
	demo_irqdev_dma_init(d);
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
	d->dma.bounce = dmam_alloc_coherent(dev, EDU_DMA_BUF_SIZE, &d->dma.bounce_dma, GFP_KERNEL);
	if (!d->dma.bounce)
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

	ret = demo_irqdev_nmi_register();
	if (ret)
		return ret;
	ret = pci_register_driver(&demo_irqdev_driver);
	if (ret)
		demo_irqdev_nmi_unregister();
	return ret;
}

static void __exit demo_irqdev_exit(void)
{
	pci_unregister_driver(&demo_irqdev_driver);
	demo_irqdev_nmi_unregister();
}

module_init(demo_irqdev_init);
module_exit(demo_irqdev_exit);

MODULE_DESCRIPTION("QEMU edu device: IRQ and NMI handlers written once through irq_compat.h");
MODULE_LICENSE("GPL");
