// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_PCI_IRQ_LEGACY: pci_alloc_irq_vectors() takes PCI_IRQ_LEGACY.
 * Linux 4.8 (pci_alloc_irq_vectors() introduced) to 6.9; removed in 6.10.
 */
#include <linux/pci.h>

unsigned int irqaio_probe(void);
unsigned int irqaio_probe(void)
{
	return PCI_IRQ_LEGACY;
}
