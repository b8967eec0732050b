// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/ata/sata_promise.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): MMIO interrupt status, acknowledged by writing it back.
 */
#include <linux/interrupt.h>
#include "corpus.h"

#define PDC_INT_SEQMASK	0x40

static irqreturn_t pdc_interrupt (int irq, void *dev_instance, struct pt_regs *regs);

static irqreturn_t pdc_interrupt (int irq, void *dev_instance, struct pt_regs *regs)
{
	struct ata_host *host = dev_instance;
	unsigned int *mmio = host->mmio_base;
	unsigned int mask = 0, i, handled = 0;

	if (!host || !mmio)
		return IRQ_NONE;

	spin_lock(&host->lock);
	mask = readl(mmio + PDC_INT_SEQMASK / 4);
	if (mask == 0xffffffff)
		goto done_irq;
	mask &= 0xffff;		/* only 16 tags possible */
	if (!mask)
		goto done_irq;
	writel(mask, mmio + PDC_INT_SEQMASK / 4);
	for (i = 0; i < host->n_ports; i++)
		handled += ata_host_intr(host->ports[i]);
done_irq:
	spin_unlock(&host->lock);
	return IRQ_RETVAL(handled);
}

int corpus_sata_promise_init(struct ata_host *host);
int corpus_sata_promise_init(struct ata_host *host)
{
	return request_irq(6, pdc_interrupt, IRQF_SHARED, "sata_promise", host);
}
