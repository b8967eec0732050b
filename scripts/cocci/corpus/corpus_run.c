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

/* write(2) of 10 bytes at 5, then readv(2) of them as 4 + 0 + 6 bytes. */
static bool test_membuf_roundtrip(void)
{
	struct file f = { .f_op = corpus_membuf_fops() };
	char out[10] = "abcdefghij", in[10] = { 0 };
	struct iovec iov[3] = { { in, 4 }, { in + 4, 0 }, { in + 4, 6 } };
	struct iovec wiov[2] = { { out, 3 }, { out + 3, 7 } };
	loff_t pos = 5;

	if (model_vfs_rw(&f, 1, out, sizeof(out), &pos) != 10 || pos != 15)
		return false;
	pos = 5;
	if (model_vfs_rwv(&f, 0, iov, 3, &pos) != 10 || pos != 15 || memcmp(in, out, 10))
		return false;
	pos = 60;	/* 4 bytes before the end: a short vectored write */
	if (model_vfs_rwv(&f, 1, wiov, 2, &pos) != 4 || pos != 64)
		return false;
	return true;
}

/* A failed check names itself; the test then stops. */
#define CORPUS_EXPECT(cond)							\
	do {									\
		if (!(cond)) {							\
			printf("# %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
			return false;						\
		}								\
	} while (0)

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
static bool test_membuf_async_write_completes_in_work(void)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char out[10], seen[10];
	struct kiocb kiocb;
	unsigned int calls = model_aio_completions(NULL);
	long live = model_slab_live();
	loff_t pos = 7;

	fill(out, sizeof(out), 'a');
	CORPUS_EXPECT(model_io_submit(&kiocb, &f, IOCB_CMD_PWRITE, out,
				      sizeof(out), 7) == 0);
	CORPUS_EXPECT(model_aio_completions(&kiocb) == 0 && model_aio_completions(NULL) == calls);
	CORPUS_EXPECT(model_vfs_rw(&f, 0, seen, sizeof(seen), &pos) == 10);
	CORPUS_EXPECT(memcmp(seen, out, sizeof(out)));
	flush_scheduled_work();
	CORPUS_EXPECT(model_aio_completions(&kiocb) == 1 && model_aio_completions(NULL) == calls + 1);
	CORPUS_EXPECT(kiocb.model_res == 10 && kiocb.model_res2 == 0);
	flush_scheduled_work();
	CORPUS_EXPECT(model_aio_completions(&kiocb) == 1);
	CORPUS_EXPECT(model_slab_live() == live);
	return true;
}

/*
 * io_submit() PREAD of what the test above wrote (at 7), then one that
 * runs past the end (10 bytes at 60: 4): each queued, then completed once
 * by the work queue with its byte count and the data in the buffer.
 */
static bool test_membuf_async_read_completes_in_work(void)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char out[10], in[10] = { 0 }, tail[10];
	struct kiocb kiocb, kiocb_tail;
	unsigned int calls = model_aio_completions(NULL);
	long live = model_slab_live();

	fill(out, sizeof(out), 'a');
	CORPUS_EXPECT(model_io_submit(&kiocb, &f, IOCB_CMD_PREAD, in,
				      sizeof(in), 7) == 0);
	CORPUS_EXPECT(model_io_submit(&kiocb_tail, &f, IOCB_CMD_PREAD, tail,
				      sizeof(tail), 60) == 0);
	CORPUS_EXPECT(model_aio_completions(NULL) == calls);
	flush_scheduled_work();
	CORPUS_EXPECT(model_aio_completions(&kiocb) == 1 && kiocb.model_res == 10);
	CORPUS_EXPECT(model_aio_completions(&kiocb_tail) == 1 && kiocb_tail.model_res == 4);
	CORPUS_EXPECT(model_aio_completions(NULL) == calls + 2);
	CORPUS_EXPECT(!memcmp(in, out, sizeof(in)));
	CORPUS_EXPECT(model_slab_live() == live);
	return true;
}

/*
 * write(2) then read(2) of 5 bytes at 30: served inside the method, so
 * neither caller sees -EIOCBQUEUED, no kiocb is completed, nothing is left
 * for the work queue, and f_pos moves.
 */
static bool test_membuf_async_sync_rw_served_at_once(void)
{
	struct file f = { .f_op = corpus_membuf_async_fops() };
	char out[5], in[5] = { 0 };
	unsigned int calls = model_aio_completions(NULL);
	int queued = *model_sync_queued();
	long live = model_slab_live();
	loff_t pos = 30;

	fill(out, sizeof(out), 'A');
	CORPUS_EXPECT(model_vfs_rw(&f, 1, out, sizeof(out), &pos) == 5 && pos == 35);
	pos = 30;
	CORPUS_EXPECT(model_vfs_rw(&f, 0, in, sizeof(in), &pos) == 5 && pos == 35);
	CORPUS_EXPECT(!memcmp(in, out, sizeof(in)));
	CORPUS_EXPECT(*model_sync_queued() == queued);
	flush_scheduled_work();
	CORPUS_EXPECT(model_aio_completions(NULL) == calls);
	CORPUS_EXPECT(model_slab_live() == live);
	return true;
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

static bool test_x86_64_timer(void)
{
	return !corpus_x86_64_time_init() && fire(0, 0x1000, 0) == IRQ_HANDLED &&
	       corpus.last_ip == 0x1000 && corpus.ticks == 1;
}

static bool test_frv_dma(void)
{
	return !corpus_frv_dma_init() && fire(1, 0x1100, 0) == IRQ_HANDLED &&
	       corpus.last_ip == 0x1100;
}

static bool test_frv_timer(void)
{
	return !corpus_frv_time_init() && fire(2, 0x1200, 1) == IRQ_HANDLED &&
	       corpus.last_ip == 0x1200 && corpus.user_ticks == 1;
}

static bool test_i8259_math_error(void)
{
	return !corpus_i8259_init() && fire(13, 0x1300, 0) == IRQ_HANDLED &&
	       corpus.last_ip == 0x1300 && corpus.math_errors == 1;
}

static bool test_ahci(void)
{
	return !corpus_ahci_init(&host) && fire(4, 0, 0) == IRQ_HANDLED;
}

static bool test_sata_mv(void)
{
	return !corpus_sata_mv_init(&host) && fire(5, 0, 0) == IRQ_HANDLED;
}

static bool test_sata_promise(void)
{
	mmio[0x40 / 4] = 1;
	return !corpus_sata_promise_init(&host) && fire(6, 0, 0) == IRQ_HANDLED;
}

static bool test_sata_vsc(void)
{
	return !corpus_sata_vsc_init(&host) && fire(7, 0, 0) == IRQ_HANDLED;
}

/* After the frv timer: a second user-mode tick. */
static bool test_legacy_cast(void)
{
	return !corpus_legacy_cast_init() && fire(8, 0x1800, 1) == IRQ_HANDLED &&
	       corpus.last_ip == 0x1800 && corpus.user_ticks == 2;
}

/* In order: some depend on the state an earlier one left. */
static const struct {
	const char *name;
	bool (*fn)(void);
} tests[] = {
	{ "x86_64_timer_interrupt", test_x86_64_timer },
	{ "frv_dma_irq_handler", test_frv_dma },
	{ "frv_timer_interrupt", test_frv_timer },
	{ "i8259_math_error_irq", test_i8259_math_error },
	{ "ahci_interrupt", test_ahci },
	{ "sata_mv_interrupt", test_sata_mv },
	{ "sata_promise_interrupt", test_sata_promise },
	{ "sata_vsc_interrupt", test_sata_vsc },
	{ "legacy_cast_isr", test_legacy_cast },
	{ "membuf_aio_write_then_readv", test_membuf_roundtrip },
	{ "membuf_async_io_submit_write_completes_in_work", test_membuf_async_write_completes_in_work },
	{ "membuf_async_io_submit_read_completes_in_work", test_membuf_async_read_completes_in_work },
	{ "membuf_async_sync_read_write_served_at_once", test_membuf_async_sync_rw_served_at_once },
};

int main(void)
{
	unsigned int k, n = sizeof(tests) / sizeof(tests[0]);
	int failed = 0;

	printf("KTAP version 1\n# corpus %s (a userspace MODEL of the historical API, not a kernel)\n1..%u\n",
	       MODEL_WORLD, n);
	for (k = 0; k < n; k++) {
		bool ok = tests[k].fn();

		printf("%sok %u %s\n", ok ? "" : "not ", k + 1, tests[k].name);
		fflush(stdout);	/* a later crash must not take this line with it */
		failed += !ok;
	}
	return failed ? 1 : 0;
}
