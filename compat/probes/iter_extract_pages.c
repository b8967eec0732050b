// SPDX-License-Identifier: GPL-2.0
/*
 * IRQAIO_HAVE_ITER_EXTRACT_PAGES: iov_iter_extract_pages() lists the pages
 * of any iterator for DMA, pinning user memory (FOLL_PIN) and taking no
 * reference on kernel-backed iterators; iov_iter_extract_will_pin() says
 * which. Linux 6.3 (commit 7d58fe731028, "iov_iter: Add a function to
 * extract a page list from an iterator").
 * doc: `iov_iter_extract_pages()`, `iov_iter_extract_will_pin()` | 6.3
 *      (7d58fe731028)
 * probe: link
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/uio.h>

ssize_t irqaio_probe(struct iov_iter *i, struct page **pages, size_t *off);
ssize_t irqaio_probe(struct iov_iter *i, struct page **pages, size_t *off)
{
	ssize_t n = iov_iter_extract_pages(i, &pages, PAGE_SIZE, 1, 0, off);

	if (n > 0 && iov_iter_extract_will_pin(i))
		unpin_user_page(pages[0]);
	return n;
}

MODULE_LICENSE("GPL");
