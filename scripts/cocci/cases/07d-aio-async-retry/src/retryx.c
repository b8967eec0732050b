// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 7d, reported: the 2.6.18 retry model. The method sets ki_retry
 * and returns -EIOCBQUEUED; the device's interrupt calls kick_iocb() and
 * the aio thread runs ki_retry again, which finishes the request. The
 * shim's asynchronous API has no retry: the request must be rewritten to
 * complete from the interrupt, by hand.
 */
#include <linux/fs.h>
#include <linux/aio.h>
#include <linux/errno.h>
#include <linux/interrupt.h>

#define RETRYX_IRQ 10

static struct kiocb *retryx_waiting;
static size_t retryx_ready;

static irqreturn_t retryx_isr(int irq, void *dev_id, struct pt_regs *regs)
{
	if (!retryx_waiting)
		return IRQ_NONE;
	retryx_ready = 1;
	kick_iocb(retryx_waiting);
	return IRQ_HANDLED;
}

static ssize_t retryx_retry(struct kiocb *iocb)
{
	if (!retryx_ready)
		return -EIOCBQUEUED;
	retryx_waiting = NULL;
	return retryx_ready;
}

static ssize_t retryx_aio_read(struct kiocb *iocb, char __user *buf, size_t count,
			       loff_t pos)
{
	retryx_waiting = iocb;
	iocb->ki_retry = retryx_retry;
	return -EIOCBQUEUED;
}

static ssize_t retryx_aio_write(struct kiocb *iocb, const char __user *buf,
				size_t count, loff_t pos)
{
	return count;
}

static const struct file_operations retryx_fops = {
	.aio_read	= retryx_aio_read,
	.aio_write	= retryx_aio_write,
};

int retryx_init(void);
int retryx_init(void)
{
	return request_irq(RETRYX_IRQ, retryx_isr, 0, "retryx", &retryx_waiting);
}
