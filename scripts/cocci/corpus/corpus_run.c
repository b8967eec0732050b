// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL, not a kernel: registers every corpus handler with the model's
 * request_irq() and delivers an interrupt to each through the model's
 * do_IRQ(), checking that each handler saw the interrupted registers; drives
 * the aio corpus driver through the model's read(2)/readv(2)/writev(2), and
 * the asynchronous one through its io_submit() (completed only when the test
 * runs the work queue) and read(2)/write(2). Built by
 * scripts/cocci/check-corpus before conversion (2.6.18 world) and after
 * (both worlds).
 */
#include <stdio.h>
#include <string.h>
#include <linux/interrupt.h>
#include <linux/fs.h>
#include <linux/uio.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <model/vfs.h>
#include <ktap.h>
#include "corpus.h"

struct corpus_state corpus;

int corpus_frv_dma_init(void);
int corpus_frv_time_init(void);
int corpus_i8259_init(void);
int corpus_x86_64_time_init(void);
int corpus_ahci_init(struct ata_host *host);
int corpus_sata_mv_init(struct ata_host *host);
int corpus_sata_promise_init(struct ata_host *host);
int corpus_sata_vsc_init(struct ata_host *host);
int corpus_legacy_cast_init(void);
const struct file_operations *corpus_membuf_fops(void);
const struct file_operations *corpus_membuf_async_fops(void);

/*
 * As 2.6.18's do_sync_read(): the method moves ki_pos, f_pos follows it; a
 * method that queued the sync kiocb is waited for (and counted by the
 * model: a synchronous caller should never have to).
 */
ssize_t do_sync_read(struct file *filp, char __user *buf, size_t len, loff_t *ppos)
{
	struct kiocb kiocb;
	ssize_t ret;

	init_sync_kiocb(&kiocb, filp);
	kiocb.ki_pos = *ppos;
	ret = model_sync_result(&kiocb, model_call_aio(filp, &kiocb, 0, buf, len, kiocb.ki_pos));
	*ppos = kiocb.ki_pos;
	return ret;
}

ssize_t do_sync_write(struct file *filp, const char __user *buf, size_t len, loff_t *ppos)
{
	struct kiocb kiocb;
	ssize_t ret;

	init_sync_kiocb(&kiocb, filp);
	kiocb.ki_pos = *ppos;
	/* model_call_aio() takes one pointer type for both directions */
	ret = model_sync_result(&kiocb, model_call_aio(filp, &kiocb, 1, (char __user *)buf, len,
							kiocb.ki_pos));
	*ppos = kiocb.ki_pos;
	return ret;
}

/* Deliver @irq with registers at @ip; the handler's view lands in corpus. */
static irqreturn_t fire(unsigned int irq, unsigned long ip, int user)
{
	struct pt_regs regs = { .ip = ip, .cs = user ? 0x33 : 0x10 };

	corpus.last_ip = 0;
	return model_do_irq(irq, &regs);
}

static unsigned int mmio[32];
static struct ata_port port = { .port_no = 0, .busy = 1 };
static struct ata_host host = { .n_ports = 1, .mmio_base = mmio, .ports = { &port } };

/*
 * The tests run in the order they are defined: some depend on the state an
 * earlier one left.
 */
KTAP_TEST(x86_64_timer_interrupt, 30)
{
	return KTAP_RESULT(!corpus_x86_64_time_init() && fire(0, 0x1000, 0) == IRQ_HANDLED &&
			   corpus.last_ip == 0x1000 && corpus.ticks == 1);
}

KTAP_TEST(frv_dma_irq_handler, 30)
{
	return KTAP_RESULT(!corpus_frv_dma_init() && fire(1, 0x1100, 0) == IRQ_HANDLED &&
			   corpus.last_ip == 0x1100);
}

KTAP_TEST(frv_timer_interrupt, 30)
{
	return KTAP_RESULT(!corpus_frv_time_init() && fire(2, 0x1200, 1) == IRQ_HANDLED &&
			   corpus.last_ip == 0x1200 && corpus.user_ticks == 1);
}

KTAP_TEST(i8259_math_error_irq, 30)
{
	return KTAP_RESULT(!corpus_i8259_init() && fire(13, 0x1300, 0) == IRQ_HANDLED &&
			   corpus.last_ip == 0x1300 && corpus.math_errors == 1);
}

KTAP_TEST(ahci_interrupt, 30)
{
	return KTAP_RESULT(!corpus_ahci_init(&host) && fire(4, 0, 0) == IRQ_HANDLED);
}

KTAP_TEST(sata_mv_interrupt, 30)
{
	return KTAP_RESULT(!corpus_sata_mv_init(&host) && fire(5, 0, 0) == IRQ_HANDLED);
}

KTAP_TEST(sata_promise_interrupt, 30)
{
	mmio[0x40 / 4] = 1;
	return KTAP_RESULT(!corpus_sata_promise_init(&host) && fire(6, 0, 0) == IRQ_HANDLED);
}

KTAP_TEST(sata_vsc_interrupt, 30)
{
	return KTAP_RESULT(!corpus_sata_vsc_init(&host) && fire(7, 0, 0) == IRQ_HANDLED);
}

/* After the frv timer: a second user-mode tick. */
KTAP_TEST(legacy_cast_isr, 30)
{
	return KTAP_RESULT(!corpus_legacy_cast_init() && fire(8, 0x1800, 1) == IRQ_HANDLED &&
			   corpus.last_ip == 0x1800 && corpus.user_ticks == 2);
}

/* write(2) of 10 bytes at 5, then readv(2) of them as 4 + 0 + 6 bytes. */
KTAP_TEST(membuf_aio_write_then_readv, 30)
{
	struct file f = { .f_op = corpus_membuf_fops() };
	char out[10] = "abcdefghij", in[10] = { 0 };
	struct iovec iov[3] = { { in, 4 }, { in + 4, 0 }, { in + 4, 6 } };
	struct iovec wiov[2] = { { out, 3 }, { out + 3, 7 } };
	loff_t pos = 5;

	KTAP_EXPECT(model_vfs_rw(&f, 1, out, sizeof(out), &pos) == 10 && pos == 15);
	pos = 5;
	KTAP_EXPECT(model_vfs_rwv(&f, 0, iov, 3, &pos) == 10 && pos == 15 && !memcmp(in, out, 10));
	pos = 60;	/* 4 bytes before the end: a short vectored write */
	KTAP_EXPECT(model_vfs_rwv(&f, 1, wiov, 2, &pos) == 4 && pos == 64);
	return KTAP_PASS;
}

static void fill(char *p, size_t n, char first)
{
	size_t k;

	for (k = 0; k < n; k++)
		p[k] = (char)(first + k);
}

/*
 * io_submit() PWRITE of 10 bytes at 7: nothing completed while the method
 * ran (the model's aio_run_iocb() completes whatever is not -EIOCBQUEUED at
 * once), the bytes not yet in the store; the work queue completes it
 * exactly once with the byte count, res2 0, and frees the request.
 */
KTAP_TEST(membuf_async_io_submit_write_completes_in_work, 30)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char out[10], seen[10];
	struct kiocb kiocb;
	unsigned int calls = model_aio_completions(NULL);
	long live = model_slab_live();
	loff_t pos = 7;

	fill(out, sizeof(out), 'a');
	KTAP_EXPECT(model_io_submit(&kiocb, &f, IOCB_CMD_PWRITE, out, sizeof(out), 7) == 0);
	KTAP_EXPECT(model_aio_completions(&kiocb) == 0 && model_aio_completions(NULL) == calls);
	KTAP_EXPECT(model_vfs_rw(&f, 0, seen, sizeof(seen), &pos) == 10);
	KTAP_EXPECT(memcmp(seen, out, sizeof(out)));
	flush_scheduled_work();
	KTAP_EXPECT(model_aio_completions(&kiocb) == 1 && model_aio_completions(NULL) == calls + 1);
	KTAP_EXPECT(kiocb.model_res == 10 && kiocb.model_res2 == 0);
	flush_scheduled_work();
	KTAP_EXPECT(model_aio_completions(&kiocb) == 1);
	KTAP_EXPECT(model_slab_live() == live);
	return KTAP_PASS;
}

/*
 * io_submit() PREAD of what the test above wrote (at 7), then one that
 * runs past the end (10 bytes at 60: 4): each queued, then completed once
 * by the work queue with its byte count and the data in the buffer.
 */
KTAP_TEST(membuf_async_io_submit_read_completes_in_work, 30)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char out[10], in[10] = { 0 }, tail[10];
	struct kiocb kiocb, kiocb_tail;
	unsigned int calls = model_aio_completions(NULL);
	long live = model_slab_live();

	fill(out, sizeof(out), 'a');
	KTAP_EXPECT(model_io_submit(&kiocb, &f, IOCB_CMD_PREAD, in, sizeof(in), 7) == 0);
	KTAP_EXPECT(model_io_submit(&kiocb_tail, &f, IOCB_CMD_PREAD, tail, sizeof(tail), 60) == 0);
	KTAP_EXPECT(model_aio_completions(NULL) == calls);
	flush_scheduled_work();
	KTAP_EXPECT(model_aio_completions(&kiocb) == 1 && kiocb.model_res == 10);
	KTAP_EXPECT(model_aio_completions(&kiocb_tail) == 1 && kiocb_tail.model_res == 4);
	KTAP_EXPECT(model_aio_completions(NULL) == calls + 2);
	KTAP_EXPECT(!memcmp(in, out, sizeof(in)));
	KTAP_EXPECT(model_slab_live() == live);
	return KTAP_PASS;
}

/*
 * write(2) then read(2) of 5 bytes at 30: served inside the method, so
 * neither caller sees -EIOCBQUEUED, no kiocb is completed, nothing is left
 * for the work queue, and f_pos moves.
 */
KTAP_TEST(membuf_async_sync_read_write_served_at_once, 30)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char out[5], in[5] = { 0 };
	unsigned int calls = model_aio_completions(NULL);
	int queued = *model_sync_queued();
	long live = model_slab_live();
	loff_t pos = 30;

	fill(out, sizeof(out), 'A');
	KTAP_EXPECT(model_vfs_rw(&f, 1, out, sizeof(out), &pos) == 5 && pos == 35);
	pos = 30;
	KTAP_EXPECT(model_vfs_rw(&f, 0, in, sizeof(in), &pos) == 5 && pos == 35);
	KTAP_EXPECT(!memcmp(in, out, sizeof(in)));
	KTAP_EXPECT(*model_sync_queued() == queued);
	flush_scheduled_work();
	KTAP_EXPECT(model_aio_completions(NULL) == calls);
	KTAP_EXPECT(model_slab_live() == live);
	return KTAP_PASS;
}

/*
 * io_submit() PREADV of two segments: refused whole with -EINVAL. 2.6.18
 * has no vectored command; the converted driver's methods queue once per
 * call, so its handler refuses an asynchronous request of more than one
 * segment rather than queue it with the first and complete it short.
 */
KTAP_TEST(membuf_async_io_submit_vectored_refused_whole, 30)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char a[4], b[6];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct kiocb kiocb;
	long live = model_slab_live();
	int ret = model_io_submit(&kiocb, &f, IOCB_CMD_PREADV, iov, 2, 0);

	if (ret == 0)	/* the world has the command: the driver answered it */
		KTAP_EXPECT(model_aio_completions(&kiocb) == 1 && kiocb.model_res == -EINVAL);
	else
		KTAP_EXPECT(ret == -EINVAL);
	flush_scheduled_work();
	KTAP_EXPECT(ret || model_aio_completions(&kiocb) == 1);
	KTAP_EXPECT(model_slab_live() == live);
	return KTAP_PASS;
}

int main(void)
{
	return ktap_main("corpus " MODEL_WORLD);
}
