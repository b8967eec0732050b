/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: the scatterlist entry dma_map_sg() takes. */
#ifndef MODEL_LINUX_SCATTERLIST_H
#define MODEL_LINUX_SCATTERLIST_H
#include <linux/kernel.h>

struct scatterlist {
	unsigned long page_link;
	unsigned int offset;
	unsigned int length;
};
#endif
