// SPDX-License-Identifier: GPL-2.0
/*
 * drivers/ata/sata_mv.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): prototype and definition wrapped over two lines.
 */
#include <linux/interrupt.h>
#include "corpus.h"

static irqreturn_t mv_interrupt(int irq, void *dev_instance,
				struct pt_regs *regs);

/**
 *      mv_interrupt -
 *      @irq: unused
 *      @dev_instance: private data; in this case the host structure
 *      @regs: unused
 *
 *      This routine holds the host lock while processing pending
 *      interrupts.
 */
static irqreturn_t mv_interrupt(int irq, void *dev_instance,
				struct pt_regs *regs)
{
	struct ata_host *host = dev_instance;
	unsigned int hc, handled = 0, n_hcs;

	n_hcs = host->n_ports / 2 + 1;
	spin_lock(&host->lock);
	for (hc = 0; hc < n_hcs && hc < host->n_ports; hc++)
		handled += ata_host_intr(host->ports[hc]);
	spin_unlock(&host->lock);

	return IRQ_RETVAL(handled);
}

int corpus_sata_mv_init(struct ata_host *host);
int corpus_sata_mv_init(struct ata_host *host)
{
	return request_irq(5, mv_interrupt, IRQF_SHARED, "sata_mv", host);
}
