// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/ata/ahci.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): a prototype in the old kernel style (space before the
 * parenthesis) and a handler that never uses regs. Body shortened to the
 * per-port loop under the host lock.
 */
#include <linux/interrupt.h>
#include "corpus.h"

static irqreturn_t ahci_interrupt (int irq, void *dev_instance, struct pt_regs *regs);

static irqreturn_t ahci_interrupt(int irq, void *dev_instance, struct pt_regs *regs)
{
	struct ata_host *host = dev_instance;
	unsigned int i, handled = 0;

	spin_lock(&host->lock);
	for (i = 0; i < host->n_ports; i++)
		handled |= ata_host_intr(host->ports[i]);
	spin_unlock(&host->lock);

	return handled ? IRQ_HANDLED : IRQ_NONE;
}

int corpus_ahci_init(struct ata_host *host);
int corpus_ahci_init(struct ata_host *host)
{
	return request_irq(4, ahci_interrupt, IRQF_SHARED, "ahci", host);
}
