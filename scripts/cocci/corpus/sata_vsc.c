// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/ata/sata_vsc.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): definition only, parameters over two lines.
 */
#include <linux/interrupt.h>
#include "corpus.h"

/*
 * vsc_sata_interrupt
 *
 * Read the interrupt register and process for the devices that have them pending.
 */
static irqreturn_t vsc_sata_interrupt (int irq, void *dev_instance,
				       struct pt_regs *regs)
{
	struct ata_host *host = dev_instance;
	unsigned int i;
	unsigned int handled = 0;

	spin_lock(&host->lock);
	for (i = 0; i < host->n_ports; i++)
		handled += ata_host_intr(host->ports[i]);
	spin_unlock(&host->lock);

	return IRQ_RETVAL(handled);
}

int corpus_sata_vsc_init(struct ata_host *host);
int corpus_sata_vsc_init(struct ata_host *host)
{
	return request_irq(7, vsc_sata_interrupt, IRQF_SHARED, "sata_vsc", host);
}
