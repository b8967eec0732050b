// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_KMAP_LOCAL: kmap_local_page()/kunmap_local(), the mapping
 * usable in any context (interrupt handlers included) that replaces
 * kmap_atomic(). Linux 5.11 (commit f3ba3c710ac5, "mm/highmem: Provide
 * kmap_local*").
 */
#include <linux/highmem.h>

void irqaio_probe(struct page *page, char *dst);
void irqaio_probe(struct page *page, char *dst)
{
	char *p = kmap_local_page(page);

	dst[0] = p[0];
	kunmap_local(p);
}
