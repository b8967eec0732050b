// SPDX-License-Identifier: GPL-2.0
/*
 * kcfi_cast - the negative control of the clang-cfi kernel; a test module,
 * not a driver, and not an example to follow.
 *
 * It registers an interrupt handler the FORBIDDEN way, as Intel's kcompat
 * did for kernels after 2.6.19: the handler keeps the pre-2.6.19 prototype
 * irqreturn_t (int, void *, struct pt_regs *) (the regs argument went away
 * in commit 7d12e780e003) and is cast to irq_handler_t for request_irq().
 * Calling a function through a pointer of another type is undefined
 * behaviour; clang's kCFI (CONFIG_CFI_CLANG) checks the type at every
 * indirect call and traps. irqaio-compat's shim never casts a handler; this
 * module shows what the cast does, so that the claim is a test:
 * tests/kmod/kcfi_cast/kcfi_cast_test.sh must see the kernel's IRQ core trap on
 * the cast handler, and the correctly typed one run.
 *
 * Two interrupts of its own (dummy chip, simple flow handler), fired from
 * process context by writing to /dev/kcfi_cast: "typed" fires the one whose
 * handler has the right type, "cast" the one registered through the cast.
 * Reading /dev/kcfi_cast gives the number of calls each handler saw.
 *
 * No module_exit: the trap unwinds handle_irq_event() and leaves the cast
 * interrupt marked in progress for ever, so free_irq() would wait on it;
 * and request_irq() holds a reference on this module (the descriptors'
 * owner) anyway. The guest that loads it is thrown away.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define DRV_NAME	"kcfi_cast"

/* Calls each handler saw; the cast one must stay 0 on a kCFI kernel. */
static atomic_t kcfi_cast_typed_calls = ATOMIC_INIT(0);
static atomic_t kcfi_cast_legacy_calls = ATOMIC_INIT(0);
/* Set by the first "cast" write: its interrupt cannot be fired twice. */
static atomic_t kcfi_cast_fired = ATOMIC_INIT(0);
static unsigned int kcfi_cast_irq_base;
static int kcfi_cast_cookie;

#define KCFI_CAST_TYPED_IRQ	(kcfi_cast_irq_base)
#define KCFI_CAST_LEGACY_IRQ	(kcfi_cast_irq_base + 1)

static irqreturn_t kcfi_cast_typed_handler(int irq, void *dev_id)
{
	atomic_inc(&kcfi_cast_typed_calls);
	return IRQ_HANDLED;
}

/*
 * The pre-2.6.19 prototype. Reached only on a kernel without kCFI, and then
 * with whatever the third argument register holds as regs: not touched.
 */
static irqreturn_t kcfi_cast_legacy_handler(int irq, void *dev_id,
					    struct pt_regs *regs)
{
	atomic_inc(&kcfi_cast_legacy_calls);
	return IRQ_HANDLED;
}

static ssize_t kcfi_cast_read(struct file *file, char __user *buf,
			      size_t len, loff_t *ppos)
{
	char msg[48];
	int n;

	n = scnprintf(msg, sizeof(msg), "typed=%d cast=%d\n",
		      atomic_read(&kcfi_cast_typed_calls),
		      atomic_read(&kcfi_cast_legacy_calls));
	return simple_read_from_buffer(buf, len, ppos, msg, n);
}

static ssize_t kcfi_cast_write(struct file *file, const char __user *buf,
			       size_t len, loff_t *ppos)
{
	char cmd[8] = {};
	unsigned int irq;
	int ret;

	if (len == 0 || len >= sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(cmd, buf, len))
		return -EFAULT;
	if (sysfs_streq(cmd, "typed")) {
		irq = KCFI_CAST_TYPED_IRQ;
	} else if (sysfs_streq(cmd, "cast")) {
		if (atomic_xchg(&kcfi_cast_fired, 1))
			return -EBUSY;
		irq = KCFI_CAST_LEGACY_IRQ;
	} else {
		return -EINVAL;
	}
	/* The IRQ core's indirect call to the handler is what kCFI checks. */
	ret = generic_handle_irq_safe(irq);
	return ret ? ret : len;
}

static const struct file_operations kcfi_cast_fops = {
	.owner	= THIS_MODULE,
	.read	= kcfi_cast_read,
	.write	= kcfi_cast_write,
	.llseek	= noop_llseek,
};

static struct miscdevice kcfi_cast_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= DRV_NAME,
	.fops	= &kcfi_cast_fops,
	.mode	= 0600,
};

static void kcfi_cast_setup_irq(unsigned int irq)
{
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	irq_clear_status_flags(irq, IRQ_NOREQUEST | IRQ_NOPROBE);
}

static int __init kcfi_cast_init(void)
{
	int ret;

	ret = irq_alloc_descs(-1, 0, 2, NUMA_NO_NODE);
	if (ret < 0)
		return ret;
	kcfi_cast_irq_base = ret;
	kcfi_cast_setup_irq(KCFI_CAST_TYPED_IRQ);
	kcfi_cast_setup_irq(KCFI_CAST_LEGACY_IRQ);

	ret = request_irq(KCFI_CAST_TYPED_IRQ, kcfi_cast_typed_handler, 0,
			  DRV_NAME "_typed", &kcfi_cast_cookie);
	if (ret)
		goto err_free_descs;
	/* THE FORBIDDEN CAST: the point of this module (see the top). */
	ret = request_irq(KCFI_CAST_LEGACY_IRQ,
			  (irq_handler_t)kcfi_cast_legacy_handler, 0,
			  DRV_NAME "_cast", &kcfi_cast_cookie);
	if (ret)
		goto err_free_typed;
	ret = misc_register(&kcfi_cast_misc);
	if (ret)
		goto err_free_cast;
	pr_info("irqs %u (typed handler) and %u (cast handler) ready\n",
		KCFI_CAST_TYPED_IRQ, KCFI_CAST_LEGACY_IRQ);
	return 0;

err_free_cast:
	free_irq(KCFI_CAST_LEGACY_IRQ, &kcfi_cast_cookie);
err_free_typed:
	free_irq(KCFI_CAST_TYPED_IRQ, &kcfi_cast_cookie);
err_free_descs:
	irq_free_descs(kcfi_cast_irq_base, 2);
	return ret;
}
module_init(kcfi_cast_init);

MODULE_DESCRIPTION("kCFI negative control: an IRQ handler cast to irq_handler_t (forbidden pattern)");
MODULE_LICENSE("GPL");
