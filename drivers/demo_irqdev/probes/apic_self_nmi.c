// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_APIC_SELF_NMI: a GPL module can raise an NMI on the local CPU
 * through apic->send_IPI_mask(..., NMI_VECTOR) (apic is EXPORT_SYMBOL_GPL).
 * probe: link
 */
#include <linux/module.h>
#include <linux/cpumask.h>
#include <linux/smp.h>
#include <asm/apic.h>
#include <asm/irq_vectors.h>

void irqaio_probe(void);
void irqaio_probe(void)
{
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
}

MODULE_LICENSE("GPL");
