// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_PCI_IRQ_INTX: pci_alloc_irq_vectors() takes PCI_IRQ_INTX.
 * Linux 6.8: PCI_IRQ_INTX added as the new name of PCI_IRQ_LEGACY
 * (Damien Le Moal's "PCI: Introduce PCI_IRQ_INTX" series, 2023);
 * Linux 6.10: PCI_IRQ_LEGACY removed.
 */
#include <linux/pci.h>

unsigned int irqaio_probe(void);
unsigned int irqaio_probe(void)
{
	return PCI_IRQ_INTX;
}
