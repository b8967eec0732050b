// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_PIN_USER_PAGES_FAST: pin_user_pages_fast() and
 * unpin_user_page(), the FOLL_PIN calls for memory a device reads or writes
 * by DMA. Linux 5.6 (commit eddb1c228f79, "mm/gup: introduce
 * pin_user_pages*() and FOLL_PIN").
 * doc: `pin_user_pages_fast()`, `unpin_user_page()` | 5.6 (eddb1c228f79)
 * probe: link
 */
#include <linux/module.h>
#include <linux/mm.h>

int irqaio_probe(unsigned long addr, struct page **pages);
int irqaio_probe(unsigned long addr, struct page **pages)
{
	int n = pin_user_pages_fast(addr, 1, FOLL_WRITE, pages);

	if (n == 1)
		unpin_user_page(pages[0]);
	return n;
}

MODULE_LICENSE("GPL");
