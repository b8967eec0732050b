// SPDX-License-Identifier: GPL-2.0
/*
 * arch/frv/kernel/dma.c, Linux 2.6.18 (the "before" side of commit
 * 7d12e780e003): the DMA interrupt handler passes regs on to the channel's
 * own handler. Wrapped (channel table, register access, request_irq()) so
 * that it compiles against the historical API model.
 */
#include <linux/interrupt.h>
#include "corpus.h"

typedef irqreturn_t (*dma_irq_handler_t)(int dmachan, unsigned long cstr,
					 void *data, struct pt_regs *regs);

struct frv_dma_channel {
	unsigned long ioaddr;
	dma_irq_handler_t handler;
	void *data;
};

static struct frv_dma_channel frv_dma_channels[2];
static unsigned long frv_dma_inprogress;
#define CSTR 0
#define __get_DMAC(ioaddr, reg) ((ioaddr) + (reg))
#define frv_clear_dma_inprogress(ch) (frv_dma_inprogress &= ~(1UL << (ch)))

/*
 * DMA irq handler - determine channel involved, grab status and call real handler
 */
static irqreturn_t dma_irq_handler(int irq, void *_channel, struct pt_regs *regs)
{
	struct frv_dma_channel *channel = _channel;

	frv_clear_dma_inprogress(channel - frv_dma_channels);
	return channel->handler(channel - frv_dma_channels,
				__get_DMAC(channel->ioaddr, CSTR),
				channel->data,
				regs);

} /* end dma_irq_handler() */

static irqreturn_t corpus_dma_done(int dmachan, unsigned long cstr, void *data,
				   struct pt_regs *regs)
{
	corpus.last_ip = regs->ip;
	return IRQ_HANDLED;
}

int corpus_frv_dma_init(void);
int corpus_frv_dma_init(void)
{
	frv_dma_channels[1].handler = corpus_dma_done;
	return request_irq(1, dma_irq_handler, 0, "dma", &frv_dma_channels[1]);
}
