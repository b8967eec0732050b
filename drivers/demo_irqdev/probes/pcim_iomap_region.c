// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_PCIM_IOMAP_REGION: void __iomem *pcim_iomap_region(pdev, bar,
 * name), managed request + map of one BAR, ERR_PTR() on failure.
 * Linux 6.11: added by the PCI devres rework (Philipp Stanner's "PCI: Make
 * devres region requests consistent" series, 2024), which deprecated
 * pcim_iomap_regions() and pcim_iomap_table().
 * probe: link
 */
#include <linux/module.h>
#include <linux/pci.h>

void __iomem *irqaio_probe(struct pci_dev *pdev);
void __iomem *irqaio_probe(struct pci_dev *pdev)
{
	return pcim_iomap_region(pdev, 0, "irqaio_probe");
}

MODULE_LICENSE("GPL");
