// SPDX-License-Identifier: GPL-2.0
/*
 * MODEL, not a kernel. Requests finished later (compat/aio_compat_async.h)
 * in the worlds whose completion is the exported aio_complete(iocb, res,
 * res2) of 2.6.18-4.0: a driver's handler queues every request on a model
 * device and returns aio_compat_queued(); the device raises one interrupt
 * per request from a thread of its own (another CPU, through the model's
 * do_IRQ()), and the interrupt handler finishes it with
 * aio_compat_complete(). An io_submit() kiocb gets -EIOCBQUEUED from the
 * method and exactly one aio_complete() later; read(2), readv(2) (2.6.18:
 * ->readv, no kiocb), kernel_read() (4.0) and a driver's own ->read through
 * aio_compat_rw_buf() wait inside the method for the interrupt and never
 * see -EIOCBQUEUED. The data moves at submission (these worlds have no
 * pinning API for the device to use); the device only reports the result.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
/* The shim first: it must include everything it uses itself. */
#include <aio_compat.h>
#include <irq_compat.h>
#include <linux/slab.h>
#include <model/vfs.h>
#include <ktap.h>
#include "model_test.h"

KTAP_TEST(async_probed_features, 30)
{
	/* the probe agrees with the world's Module.symvers */
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_AIO_COMPLETE_3ARG));
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_AIO_COMPLETE_3ARG_EXPORTED) ==
		    MODEL_WORLD_EXPORTS_AIO_COMPLETE);
	/* ... and tells a GPL-only export apart */
	KTAP_EXPECT(IS_DEFINED(IRQAIO_HAVE_AIO_COMPLETE_3ARG_GPL_ONLY) ==
		    MODEL_WORLD_GPL_ONLY_AIO_COMPLETE);
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_KI_COMPLETE_3ARG));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_KI_COMPLETE_2ARG));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_PIN_USER_PAGES_FAST));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_ITER_EXTRACT_PAGES));
	KTAP_EXPECT(!IS_DEFINED(IRQAIO_HAVE_AIO_CANCEL_AIO_RW));
#if defined(AIO_COMPAT_COMPLETE_KIND)
	KTAP_EXPECT(MODEL_WORLD_EXPORTS_AIO_COMPLETE);
	KTAP_EXPECT(AIO_COMPAT_COMPLETE_KIND == 1);
	KTAP_EXPECT(AIO_COMPAT_PIN_KIND == 0);
	KTAP_EXPECT(AIO_COMPAT_CAN_CANCEL == 0);
#else
	/* not exported: no asynchronous API at all */
	KTAP_EXPECT(!MODEL_WORLD_EXPORTS_AIO_COMPLETE);
#endif
	return KTAP_PASS;
}

#if defined(AIO_COMPAT_COMPLETE_KIND)
#define MDEV_IRQ	7
#define STORE_SIZE	4096
#define NR_IN_FLIGHT	16

static unsigned char store[STORE_SIZE];

/* The driver's request: the shim's part and what the device will report. */
struct mdev_req {
	struct aio_compat_async async;
	struct mdev_req *next;
	ssize_t res;
};

/*
 * The model device: requests served in order, one interrupt each, raised
 * by the device's own thread while it may run.
 */
static struct {
	pthread_mutex_t lock;		/* protects all of this */
	pthread_cond_t cond;		/* any of it changed */
	struct mdev_req *head, **tail;	/* queued, not yet taken */
	bool run;			/* may the device start requests */
	bool stop;			/* the device thread ends */
	ssize_t error;			/* report this instead of the bytes */
	unsigned long timeout_ms;	/* not 0: a bounded synchronous wait */
	bool keep_pos;			/* the handler keeps the file position */
	bool submit_fails;		/* the submit completes r with error itself */
	unsigned int taken_back;	/* requests a timed-out wait took back */
	unsigned int raised;		/* interrupts that took a request */
	unsigned int done;		/* ... and returned */
	unsigned int completer_frees;	/* aio_compat_complete() was true */
	unsigned int waiter_frees;	/* ... false */
	unsigned int async_seen;	/* aio_compat_is_async() in the handler */
	unsigned int sync_seen;
	unsigned int cancel_touched;	/* set_cancel() changed the kiocb */
	unsigned int cancel_calls;
} mdev = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.head = NULL,
	.tail = &mdev.head,
};

static struct pt_regs mdev_regs;

static void mdev_lock(void)
{
	pthread_mutex_lock(&mdev.lock);
}

/* Unlock, waking whoever waits for a change. */
static void mdev_unlock(void)
{
	pthread_cond_broadcast(&mdev.cond);
	pthread_mutex_unlock(&mdev.lock);
}

static unsigned int mdev_read_counter(const unsigned int *c)
{
	unsigned int v;

	mdev_lock();
	v = *c;
	mdev_unlock();
	return v;
}

static void mdev_set_run(bool run)
{
	mdev_lock();
	mdev.run = run;
	mdev_unlock();
}

/* Wait until @n interrupts have returned since the reset; false on timeout. */
static bool mdev_wait_done(unsigned int n)
{
	struct timespec end;
	bool ok = true;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += MODEL_WAIT_SECONDS;
	mdev_lock();
	while (mdev.done < n && ok)
		ok = !pthread_cond_timedwait(&mdev.cond, &mdev.lock, &end);
	ok = mdev.done >= n;
	mdev_unlock();
	return ok;
}

static IRQ_COMPAT_HANDLER(mdev_isr, irq, dev_id)
{
	struct mdev_req *r;
	bool freed;

	mdev_lock();
	r = mdev.head;
	if (r) {
		mdev.head = r->next;
		if (!mdev.head)
			mdev.tail = &mdev.head;
		mdev.raised++;
	}
	mdev_unlock();
	if (!r)
		return IRQ_NONE;
	/* an asynchronous r is ours to free; a synchronous one is not */
	freed = aio_compat_complete(&r->async, r->res);
	if (freed)
		kfree(r);
	mdev_lock();
	if (freed)
		mdev.completer_frees++;
	else
		mdev.waiter_frees++;
	mdev.done++;
	mdev_unlock();
	return IRQ_HANDLED;
}

static void *mdev_thread(void *unused)
{
	mdev_lock();
	for (;;) {
		while (!mdev.stop && !(mdev.run && mdev.head))
			pthread_cond_wait(&mdev.cond, &mdev.lock);
		if (mdev.stop)
			break;
		mdev_unlock();
		model_do_irq(MDEV_IRQ, &mdev_regs);
		mdev_lock();
	}
	mdev_unlock();
	return NULL;
}

static int mdev_cancel(struct kiocb *iocb)
{
	mdev_lock();
	mdev.cancel_calls++;
	mdev_unlock();
	return 0;
}

/* Take @r off the device's queue; false if the device took it first. */
static bool mdev_take_back(struct mdev_req *r)
{
	struct mdev_req **p;
	bool found = false;

	mdev_lock();
	for (p = &mdev.head; *p; p = &(*p)->next) {
		if (*p == r) {
			*p = r->next;
			if (!mdev.head || mdev.tail == &r->next)
				mdev.tail = p;
			found = true;
			mdev.taken_back++;
			break;
		}
	}
	mdev_unlock();
	return found;
}

/*
 * The submit of a driver whose call completes the request itself when it
 * fails, and also returns the error (as XDMA's nowait submit does).
 */
static int mdev_submit_failing(struct mdev_req *r)
{
	if (aio_compat_complete(&r->async, r->res))
		kfree(r);
	return -EIO;
}

/* The driver's handler: move the data, queue the report, wait if sync. */
static ssize_t mdev_rw(struct aio_compat_req *req)
{
	struct kiocb before;
	struct mdev_req *r;
	size_t len, n;
	ssize_t ret;

	if (req->pos >= STORE_SIZE)
		return req->write ? -ENOSPC : 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	aio_compat_async_init(req, &r->async);
	if (req->iocb)
		before = *req->iocb;
	aio_compat_set_cancel(req, mdev_cancel);
	len = req->count < (size_t)(STORE_SIZE - req->pos) ?
	      req->count : (size_t)(STORE_SIZE - req->pos);
	n = req->write ? aio_compat_copy_from_req(req, store + req->pos, len) :
			 aio_compat_copy_to_req(req, store + req->pos, len);
	mdev_lock();
	if (req->iocb && memcmp(&before, req->iocb, sizeof(before)))
		mdev.cancel_touched++;
	if (aio_compat_is_async(req))
		mdev.async_seen++;
	else
		mdev.sync_seen++;
	r->res = mdev.error ? mdev.error : n ? (ssize_t)n : (len ? -EFAULT : 0);
	req->keep_pos = mdev.keep_pos;
	if (mdev.submit_fails) {
		mdev_unlock();
		r->res = -EIO;
		/*
		 * The submit completed r and failed: r is handled as queued,
		 * whatever the submit returned (the rule of the header).
		 */
		(void)mdev_submit_failing(r);
		ret = aio_compat_queued(req, &r->async);
	} else {
		unsigned long timeout = mdev.timeout_ms;

		*mdev.tail = r;
		mdev.tail = &r->next;
		mdev_unlock();
		if (!timeout) {
			ret = aio_compat_queued(req, &r->async);
		} else {
			ret = aio_compat_queued_timeout(req, &r->async, timeout);
			if (ret == -ETIMEDOUT || ret == -EINTR) {
				/* Ours again: complete it once, whoever gets there. */
				if (mdev_take_back(r))
					aio_compat_complete(&r->async, ret);
				aio_compat_reclaim(&r->async);
				kfree(r);
				return ret;
			}
		}
	}
	if (ret != -EIOCBQUEUED)
		kfree(r);
	return ret;
}

AIO_COMPAT_DEFINE_METHODS(mdev, mdev_rw);

static const struct file_operations mdev_fops = {
	AIO_COMPAT_FOPS(mdev),
};

/* A driver's own ->read/->write over the same handler. */
static ssize_t mdev_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	return aio_compat_rw_buf(file, buf, len, ppos, false, mdev_rw);
}

static ssize_t mdev_write(struct file *file, const char __user *buf, size_t len,
			  loff_t *ppos)
{
	return aio_compat_rw_buf(file, (void __user *)buf, len, ppos, true, mdev_rw);
}

static const struct file_operations mdev_buf_fops = {
	.read = mdev_read,
	.write = mdev_write,
};

static struct file mdev_file;
static unsigned int completions_before;

static void reset(const struct file_operations *fops)
{
	mdev_file = (struct file){ .f_op = fops };
	mdev_lock();
	mdev.run = true;
	mdev.error = 0;
	mdev.timeout_ms = 0;
	mdev.keep_pos = false;
	mdev.submit_fails = false;
	mdev.taken_back = 0;
	mdev.raised = 0;
	mdev.done = 0;
	mdev.completer_frees = 0;
	mdev.waiter_frees = 0;
	mdev.async_seen = 0;
	mdev.sync_seen = 0;
	mdev_unlock();
	completions_before = model_aio_completions(NULL);
	model_set_fault_range(NULL, 0);
}

/* aio_complete() calls since reset(). */
static unsigned int completions(void)
{
	return model_aio_completions(NULL) - completions_before;
}

static void fill_pattern(unsigned char *p, size_t n, unsigned int seed)
{
	size_t k;

	for (k = 0; k < n; k++)
		p[k] = (unsigned char)(seed * 131 + k * 7 + (k >> 8));
}

/* Nothing queued, leaked, waited for in vain or cancelled; no warning. */
static int check_clean(void)
{
	KTAP_EXPECT(mdev_read_counter(&mdev.raised) == mdev_read_counter(&mdev.done));
	mdev_lock();
	KTAP_EXPECT(!mdev.head && !mdev.cancel_touched && !mdev.cancel_calls);
	mdev_unlock();
	KTAP_EXPECT(model_slab_live() == 0);
	KTAP_EXPECT(model_wait_timeouts() == 0);
	KTAP_EXPECT(*model_sync_queued() == 0);
	KTAP_EXPECT(!*model_warnings());
	return KTAP_PASS;
}

/* write(2) of LEN bytes of pattern SEED, put in OUT, at *POS. */
static ssize_t write_pattern(unsigned char *out, size_t len, loff_t *pos, unsigned int seed)
{
	fill_pattern(out, len, seed);
	return model_vfs_rw(&mdev_file, 1, (char *)out, len, pos);
}

/*
 * read(2) of LEN bytes at START into IN, after write_pattern() put OUT
 * there: all of them, f_pos past them, OUT's bytes.
 */
static bool read_back(unsigned char *in, const unsigned char *out, size_t len, loff_t start)
{
	loff_t pos = start;

	return model_vfs_rw(&mdev_file, 0, (char *)in, len, &pos) == (ssize_t)len &&
	       pos == start + (loff_t)len && !memcmp(in, out, len);
}

/*
 * aio_compat_is_async() on the requests the methods build, and the
 * state aio_compat_async_init() leaves: nothing pinned, nothing listed.
 */
KTAP_TEST(async_is_async_and_init, 30)
{
	struct kiocb async = { .ki_key = 0, .ki_filp = &mdev_file };
	struct kiocb sync;
	struct aio_compat_req req = { .file = &mdev_file };
	struct aio_compat_async a;

	reset(&mdev_fops);
	init_sync_kiocb(&sync, &mdev_file);
	KTAP_EXPECT(!aio_compat_is_async(&req));
	req.iocb = &sync;
	KTAP_EXPECT(!aio_compat_is_async(&req));
	req.iocb = &async;
	KTAP_EXPECT(aio_compat_is_async(&req));
	memset(&a, 0x5a, sizeof(a));
	aio_compat_async_init(&req, &a);
	KTAP_EXPECT(!a.sgl && !a.nents && !a.pinned);
	/* abandoned before queueing: nothing to give back */
	aio_compat_unpin(&a);
	KTAP_EXPECT(!a.sgl && !a.nents);
	aio_compat_set_cancel(&req, mdev_cancel);
	KTAP_EXPECT(async.ki_key == 0 && async.ki_filp == &mdev_file);
	return check_clean();
}

/*
 * io_submit() PREAD: the method itself returns -EIOCBQUEUED (called as
 * aio_run_iocb() does), nothing is completed until the device's interrupt,
 * then aio_complete() exactly once with the bytes, and the completer frees.
 */
KTAP_TEST(async_io_submit_read_queued_then_completed, 30)
{
	unsigned char in[100];
	struct kiocb kiocb = { .ki_key = 0, .ki_filp = &mdev_file, .ki_pos = 200 };

	reset(&mdev_fops);
	fill_pattern(store, sizeof(store), 1);
	mdev_set_run(false);
	KTAP_EXPECT(model_call_aio(&mdev_file, &kiocb, 0, (char *)in, sizeof(in), 200) ==
		    -EIOCBQUEUED);
	KTAP_EXPECT(model_aio_completions(&kiocb) == 0 && completions() == 0);
	KTAP_EXPECT(mdev_read_counter(&mdev.async_seen) == 1);
	KTAP_EXPECT(mdev_read_counter(&mdev.raised) == 0);
	mdev_set_run(true);
	KTAP_EXPECT(wait_on_sync_kiocb(&kiocb) == 100);
	KTAP_EXPECT(mdev_wait_done(1));
	KTAP_EXPECT(model_aio_completions(&kiocb) == 1 && completions() == 1);
	KTAP_EXPECT(kiocb.model_res2 == 0);
	KTAP_EXPECT(!memcmp(in, store + 200, sizeof(in)));
	KTAP_EXPECT(mdev_read_counter(&mdev.completer_frees) == 1);
	KTAP_EXPECT(mdev_read_counter(&mdev.waiter_frees) == 0);
	return check_clean();
}

/*
 * Many requests in flight through io_submit() (PWRITE, and PREADV where
 * the world has it): each completed once, in order, none before the device
 * runs, all freed by the completer.
 */
KTAP_TEST(async_io_submit_many_in_flight, 30)
{
	static struct kiocb kiocb[NR_IN_FLIGHT];
	static unsigned char out[NR_IN_FLIGHT][64], in[NR_IN_FLIGHT][64];
	unsigned int k;

	reset(&mdev_fops);
	memset(store, 0, sizeof(store));
	mdev_set_run(false);
	for (k = 0; k < NR_IN_FLIGHT; k++) {
		fill_pattern(out[k], sizeof(out[k]), k + 2);
		KTAP_EXPECT(model_io_submit(&kiocb[k], &mdev_file, IOCB_CMD_PWRITE, out[k],
					    sizeof(out[k]), 64 * k + 3) == 0);
	}
	KTAP_EXPECT(completions() == 0 && mdev_read_counter(&mdev.async_seen) == NR_IN_FLIGHT);
	mdev_set_run(true);
	KTAP_EXPECT(mdev_wait_done(NR_IN_FLIGHT));
	for (k = 0; k < NR_IN_FLIGHT; k++) {
		KTAP_EXPECT(model_aio_completions(&kiocb[k]) == 1);
		KTAP_EXPECT(kiocb[k].model_res == 64 && kiocb[k].model_res2 == 0);
		KTAP_EXPECT(!memcmp(store + 64 * k + 3, out[k], 64));
	}
	KTAP_EXPECT(completions() == NR_IN_FLIGHT);
	KTAP_EXPECT(mdev_read_counter(&mdev.completer_frees) == NR_IN_FLIGHT);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 19)
	{
		struct iovec iov[NR_IN_FLIGHT][2];

		reset(&mdev_fops);
		mdev_set_run(false);
		for (k = 0; k < NR_IN_FLIGHT; k++) {
			iov[k][0] = (struct iovec){ in[k], 10 };
			iov[k][1] = (struct iovec){ in[k] + 10, 54 };
			KTAP_EXPECT(model_io_submit(&kiocb[k], &mdev_file, IOCB_CMD_PREADV,
						    iov[k], 2, 64 * k + 3) == 0);
		}
		KTAP_EXPECT(completions() == 0);
		mdev_set_run(true);
		KTAP_EXPECT(mdev_wait_done(NR_IN_FLIGHT));
		for (k = 0; k < NR_IN_FLIGHT; k++) {
			KTAP_EXPECT(model_aio_completions(&kiocb[k]) == 1);
			KTAP_EXPECT(kiocb[k].model_res == 64 && !memcmp(in[k], out[k], 64));
		}
		KTAP_EXPECT(completions() == NR_IN_FLIGHT);
	}
#else
	(void)in;
#endif
	return check_clean();
}

/* The device's errno reaches the event as res, and a synchronous caller. */
KTAP_TEST(async_completion_error, 30)
{
	struct kiocb kiocb;
	unsigned char buf[16];
	loff_t pos = 5;

	reset(&mdev_fops);
	mdev_lock();
	mdev.error = -EIO;
	mdev_unlock();
	KTAP_EXPECT(model_io_submit(&kiocb, &mdev_file, IOCB_CMD_PREAD, buf, sizeof(buf), 0) == 0);
	KTAP_EXPECT(wait_on_sync_kiocb(&kiocb) == -EIO);
	KTAP_EXPECT(mdev_wait_done(1) && model_aio_completions(&kiocb) == 1);
	KTAP_EXPECT(model_vfs_rw(&mdev_file, 0, (char *)buf, sizeof(buf), &pos) == -EIO);
	KTAP_EXPECT(pos == 5 && completions() == 1);
	KTAP_EXPECT(mdev_wait_done(2));
	return check_clean();
}

/*
 * A bounded synchronous wait on a device that does not run: -ETIMEDOUT
 * after the timeout, the request taken back and freed by the handler, the
 * position where it was; the device, run again, finds nothing to complete.
 * The same wait with the device running returns the bytes.
 */
KTAP_TEST(async_sync_wait_times_out, 30)
{
	unsigned char buf[32];
	loff_t pos = 64;

	reset(&mdev_fops);
	mdev_lock();
	mdev.timeout_ms = 50;
	mdev_unlock();
	mdev_set_run(false);
	KTAP_EXPECT(model_vfs_rw(&mdev_file, 0, (char *)buf, sizeof(buf), &pos) == -ETIMEDOUT);
	KTAP_EXPECT(pos == 64 && mdev_read_counter(&mdev.taken_back) == 1);
	mdev_set_run(true);
	KTAP_EXPECT(mdev_read_counter(&mdev.raised) == 0 && completions() == 0);
	mdev_lock();
	mdev.timeout_ms = 5000;
	mdev_unlock();
	KTAP_EXPECT(model_vfs_rw(&mdev_file, 0, (char *)buf, sizeof(buf), &pos) == 32);
	KTAP_EXPECT(pos == 96 && mdev_wait_done(1));
	return check_clean();
}

/* keep_pos: read(2) and write(2) done in full, f_pos not moved. */
KTAP_TEST(async_keep_pos, 30)
{
	const struct file_operations *fops[] = { &mdev_fops, &mdev_buf_fops };
	unsigned char out[40], in[40];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		loff_t pos = 500;

		reset(fops[k]);
		mdev_lock();
		mdev.keep_pos = true;
		mdev_unlock();
		KTAP_EXPECT(write_pattern(out, sizeof(out), &pos, 30) == 40 && pos == 500);
		KTAP_EXPECT(model_vfs_rw(&mdev_file, 0, (char *)in, sizeof(in), &pos) == 40);
		KTAP_EXPECT(pos == 500 && !memcmp(in, out, sizeof(in)));
		KTAP_EXPECT(mdev_wait_done(2));
		KTAP_EXPECT(check_clean() == KTAP_PASS);
	}
	return KTAP_PASS;
}

/*
 * A submit that completes the request with an error and also returns it:
 * handled as queued, the request is freed once, by whoever
 * aio_compat_complete() names, for io_submit() and read(2) alike.
 */
KTAP_TEST(async_submit_completes_and_fails, 30)
{
	struct kiocb kiocb;
	unsigned char buf[16];
	loff_t pos = 7;

	reset(&mdev_fops);
	mdev_lock();
	mdev.submit_fails = true;
	mdev_unlock();
	KTAP_EXPECT(model_io_submit(&kiocb, &mdev_file, IOCB_CMD_PREAD, buf, sizeof(buf), 0) == 0);
	KTAP_EXPECT(wait_on_sync_kiocb(&kiocb) == -EIO && model_aio_completions(&kiocb) == 1);
	KTAP_EXPECT(model_vfs_rw(&mdev_file, 0, (char *)buf, sizeof(buf), &pos) == -EIO);
	KTAP_EXPECT(pos == 7 && completions() == 1);
	return check_clean();
}

/*
 * @n synchronous requests, each finished by its interrupt and handed back
 * to the method waiting for it (which freed it), none through aio_complete().
 */
static bool waited_in_method(unsigned int n)
{
	unsigned int sync, async, waiter, completer;

	if (!mdev_wait_done(n))
		return false;
	sync = mdev_read_counter(&mdev.sync_seen);
	async = mdev_read_counter(&mdev.async_seen);
	waiter = mdev_read_counter(&mdev.waiter_frees);
	completer = mdev_read_counter(&mdev.completer_frees);
	if (sync == n && async == 0 && waiter == n && completer == 0 && completions() == 0)
		return true;
	ktap_diag("sync %u async %u freed by waiter %u by completer %u, aio completions %u; want %u sync",
		  sync, async, waiter, completer, completions(), n);
	return false;
}

/*
 * read(2)/write(2): do_sync_read() gives a sync kiocb; the method waits for
 * the interrupt and returns its result itself (never -EIOCBQUEUED, so the
 * kernel's own wait_on_sync_kiocb() is never reached), and f_pos moves.
 * aio_complete() is never called: the shim woke the method directly.
 */
KTAP_TEST(async_sync_read_write_waits, 30)
{
	unsigned char out[300], in[300];
	loff_t pos = 1000;

	reset(&mdev_fops);
	KTAP_EXPECT(write_pattern(out, sizeof(out), &pos, 20) == 300);
	KTAP_EXPECT(pos == 1300 && mdev_read_counter(&mdev.raised) == 1);
	KTAP_EXPECT(read_back(in, out, sizeof(in), 1000));
	/* each returned only after its interrupt took the request */
	KTAP_EXPECT(mdev_read_counter(&mdev.raised) == 2);
	KTAP_EXPECT(waited_in_method(2));
	return check_clean();
}

/*
 * readv(2): 2.6.18 calls ->readv with no kiocb at all; 2.6.19 goes through
 * do_sync_readv_writev() (a sync kiocb), 4.0 through read_iter. All wait.
 */
KTAP_TEST(async_sync_readv_waits, 30)
{
	unsigned char a[7], b[200], c[1];
	struct iovec v[4] = { { a, sizeof(a) }, { NULL, 0 }, { b, sizeof(b) }, { c, sizeof(c) } };
	loff_t pos = 2000;

	reset(&mdev_fops);
	fill_pattern(store, sizeof(store), 21);
	KTAP_EXPECT(model_vfs_rwv(&mdev_file, 0, v, 4, &pos) == 208);
	KTAP_EXPECT(pos == 2208 && mdev_read_counter(&mdev.raised) == 1);
	KTAP_EXPECT(!memcmp(a, store + 2000, 7) && !memcmp(b, store + 2007, 200) &&
		    c[0] == store[2207]);
	KTAP_EXPECT(waited_in_method(1));
	return check_clean();
}

/* A driver's own ->read/->write through aio_compat_rw_buf(): no kiocb. */
KTAP_TEST(async_sync_rw_buf_waits, 30)
{
	unsigned char out[50], in[50];
	loff_t pos = 3000;

	reset(&mdev_buf_fops);
	KTAP_EXPECT(write_pattern(out, sizeof(out), &pos, 22) == 50);
	KTAP_EXPECT(read_back(in, out, sizeof(in), 3000));
	KTAP_EXPECT(mdev_read_counter(&mdev.raised) == 2 && waited_in_method(2));
	return check_clean();
}

#if defined(AIO_COMPAT__FAMILY_ITER)
/* kernel_read() (ITER_KVEC, a sync kiocb) waits like read(2). */
KTAP_TEST(async_sync_kernel_read_waits, 30)
{
	unsigned char kbuf[80];
	loff_t pos = 100;

	reset(&mdev_fops);
	fill_pattern(store, sizeof(store), 23);
	KTAP_EXPECT(model_kernel_rw(&mdev_file, 0, kbuf, sizeof(kbuf), &pos) == 80);
	KTAP_EXPECT(pos == 180 && !memcmp(kbuf, store + 100, 80));
	KTAP_EXPECT(mdev_read_counter(&mdev.raised) == 1 && waited_in_method(1));
	return check_clean();
}
#endif
#endif /* AIO_COMPAT_COMPLETE_KIND */

int main(void)
{
	int ret;
#if defined(AIO_COMPAT_COMPLETE_KIND)
	pthread_t dev;

	if (request_irq(MDEV_IRQ, mdev_isr, IRQF_SHARED, "mdev", &mdev) ||
	    pthread_create(&dev, NULL, mdev_thread, NULL))
		return 1;
#endif
	ret = ktap_main("aio_async " MODEL_WORLD);
#if defined(AIO_COMPAT_COMPLETE_KIND)
	mdev_lock();
	mdev.stop = true;
	mdev_unlock();
	pthread_join(dev, NULL);
	free_irq(MDEV_IRQ, &mdev);
#endif
	return ret;
}
