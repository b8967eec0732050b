// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 7c, converted: every request, synchronous or not, is handed to
 * the device in a request object and returns -EIOCBQUEUED (2.6.18's
 * do_sync_read() waits for a synchronous kiocb itself); the interrupt
 * handler completes it with aio_complete() and frees it.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/interrupt.h>
#include <linux/slab.h>

#define IRQDMA_IRQ 9

struct irqdma_req {
	struct kiocb *iocb;
	size_t len;
	bool write;
};

/* The request the device works on; one at a time. */
static struct irqdma_req *irqdma_active;

static irqreturn_t irqdma_isr(int irq, void *dev_id, struct pt_regs *regs)
{
	struct irqdma_req *r = irqdma_active;

	if (!r)
		return IRQ_NONE;
	irqdma_active = NULL;
	aio_complete(r->iocb, r->len, 0);
	kfree(r);
	return IRQ_HANDLED;
}

static ssize_t irqdma_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			       loff_t pos)
{
	struct irqdma_req *r;

	if (irqdma_active)
		return -EAGAIN;
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->iocb = iocb;
	r->len = count;
	r->write = false;
	irqdma_active = r;
	return -EIOCBQUEUED;
}

static ssize_t irqdma_aio_write(struct kiocb *iocb, const char __user *buf,
				size_t count, loff_t pos)
{
	struct irqdma_req *r;

	if (irqdma_active)
		return -EAGAIN;
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->iocb = iocb;
	r->len = count;
	r->write = true;
	irqdma_active = r;
	return -EIOCBQUEUED;
}

static const struct file_operations irqdma_fops = {
	.aio_read	= irqdma_aio_read,
	.aio_write	= irqdma_aio_write,
};

int irqdma_init(void);
int irqdma_init(void)
{
	return request_irq(IRQDMA_IRQ, irqdma_isr, 0, "irqdma", &irqdma_active);
}
