// SPDX-License-Identifier: GPL-2.0
/*
 * irqdev_dma_queue - the queue of /dev/demo_irqdev<N> (irqdev_dma.h says
 * what the device promises and how these tests wait): 64 requests queued
 * at once and served in order, queued requests cancelled, requests that
 * may not wait refused while the device is busy, memory a request cannot
 * use refused with nothing queued, and DMA_HOLD's refusals and release.
 */
#include "irqdev_dma.h"

/* Index of the first byte of @p that is not pass @pass at @off, or -1. */
static long pat_diff(const unsigned char *p, unsigned int off, size_t len, unsigned int pass)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (p[k] != idma_pat(off + k, pass))
			return k;
	return -1;
}

/* Does the file hold @want (one pread(2) of all of it)? */
static int dev_holds(int fd, const unsigned char *want, const char *what)
{
	unsigned char buf[IDMA_DEV_SIZE];
	ssize_t n = pread(fd, buf, IDMA_DEV_SIZE, 0);
	long d;

	if (n != IDMA_DEV_SIZE) {
		ktap_diag("%s: pread of the whole file: %zd (%s)", what, n,
			  n < 0 ? strerror(errno) : "short");
		return -1;
	}
	d = idma_first_diff(buf, want, IDMA_DEV_SIZE);
	if (d >= 0) {
		ktap_diag("%s: the file differs at offset %ld: %#x, want %#x", what, d, buf[d],
			  want[d]);
		return -1;
	}
	return 0;
}

/* ---- tests ---------------------------------------------------------------- */

/*
 * 64 requests in one io_submit() on one device, reads and writes (single
 * buffer and vectored) at disjoint odd offsets, one page piece each (two
 * for every eighth, four for the first): all queued at once
 * (dma_max_depth) before the first completes (the queue held while
 * io_submit() pins and queues them all, however long that takes), every
 * event delivered once and in submission order (one device, FIFO), reads
 * see the old content, the file ends with the writes and nothing else.
 */
#define DEPTH 64

/* What the steps of depth_64 share. */
struct depth {
	int fd;
	io_context_t ctx;
	struct iocb cb[DEPTH], *cbs[DEPTH];
	struct iovec v[DEPTH][2], v0[4];
	unsigned char want[IDMA_DEV_SIZE];
	unsigned char *bufs;
	unsigned int np, off[DEPTH];	/* pieces of them all; request k's offset */
	size_t len[DEPTH], bytes;
	struct demo_irqdev_stats a;	/* the counters before the submission */
	double t0;			/* when it began */
};

/* Request @k: its buffer, offset, length, segments, and its iocb. */
static void depth_prepare_one(struct depth *t, int k)
{
	unsigned char *buf = t->bufs + k * 64 + k % 3;
	bool write = k % 2 == 0, vec = k % 4 >= 2;
	struct iovec *v = t->v[k];
	int nseg = 1, fd = t->fd;

	t->off[k] = k * 64 + k % 3;
	t->len[k] = 64 - k % 3 - k % 5;
	if (write) {
		idma_pat_fill(buf, t->off[k], t->len[k], 41);
		memcpy(t->want + t->off[k], buf, t->len[k]);
	} else {
		memset(buf, IDMA_UNTOUCHED, t->len[k]);
	}
	v[0] = (struct iovec){ buf, t->len[k] };
	if (k % 8 == 7) {	/* two segments, in the same page: two pieces */
		v[0].iov_len = 10;
		v[1] = (struct iovec){ buf + 10, t->len[k] - 10 };
		nseg = 2;
	}
	if (vec && write)
		io_prep_pwritev(&t->cb[k], fd, v, nseg, t->off[k]);
	else if (vec)
		io_prep_preadv(&t->cb[k], fd, v, nseg, t->off[k]);
	else if (write)
		io_prep_pwrite(&t->cb[k], fd, buf, t->len[k], t->off[k]);
	else
		io_prep_pread(&t->cb[k], fd, buf, t->len[k], t->off[k]);
	if (k == 0) {
		/* four pieces: one request of several transfers in the queue */
		size_t quarter = t->len[0] / 4;
		int j;

		for (j = 0; j < 4; j++) {
			t->v0[j] = (struct iovec){ t->bufs + (j + 1) * idma_pg + 7, quarter };
			idma_pat_fill(t->v0[j].iov_base, t->off[0] + j * quarter, quarter, 41);
		}
		io_prep_pwritev(&t->cb[0], fd, t->v0, 4, t->off[0]);
		t->np += idma_pieces(t->v0, 4, t->len[0]) - 1;
	}
	t->cb[k].data = (void *)(uintptr_t)(k + 1);
	t->cbs[k] = &t->cb[k];
	t->np += idma_pieces(v, nseg, t->len[k]);
	t->bytes += t->len[k];
}

/* All of them in one io_submit() while the queue is held: queued, none done. */
static int depth_submit_held(struct depth *t)
{
	struct timespec zero = { 0 };
	struct demo_irqdev_stats a, m;
	struct io_event ev[DEPTH];
	int fd = t->fd, r;

	KTAP_EXPECT(it_get_stats(fd, &t->a) == 0, "stats");
	a = t->a;
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	t->t0 = ktap_now();
	r = io_submit(t->ctx, DEPTH, t->cbs);
	KTAP_EXPECT(r == DEPTH, "io_submit of %d: %d", DEPTH, r);
	r = io_getevents(t->ctx, 0, DEPTH, ev, &zero);
	KTAP_EXPECT(r == 0, "%d events right after io_submit", r);
	KTAP_EXPECT(it_get_stats(fd, &m) == 0, "stats");
	ktap_diag("io_submit of %d took %.3f s; queue depth now %u at most, %llu pieces held",
		  DEPTH, ktap_now() - t->t0, m.dma_max_depth, (unsigned long long)m.dma_held);
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_queued) == DEPTH, "dma_queued %+lld, want %d",
		    IDMA_DELTA(a, m, dma_queued), DEPTH);
	KTAP_EXPECT(m.dma_held == t->np, "dma_held %llu, want %u", (unsigned long long)m.dma_held,
		    t->np);
	KTAP_EXPECT(m.dma_max_depth >= DEPTH, "dma_max_depth %u, want >= %d", m.dma_max_depth,
		    DEPTH);
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	return KTAP_PASS;
}

/* Released: every event once, whole, in submission order; then no more. */
static int depth_reap_in_order(struct depth *t)
{
	struct timespec zero = { 0 }, ts = { .tv_sec = IDMA_WAIT_S };
	bool seen[DEPTH] = { false };
	struct io_event ev[DEPTH];
	int k, r, got = 0;

	while (got < DEPTH) {
		r = io_getevents(t->ctx, 1, DEPTH - got, ev, &ts);
		KTAP_EXPECT(r > 0, "io_getevents after %d of %d events: %d", got, DEPTH, r);
		for (k = 0; k < r; k++, got++) {
			uintptr_t i = (uintptr_t)ev[k].data - 1;

			KTAP_EXPECT(i < DEPTH && ev[k].obj == &t->cb[i], "event %d: data %p obj %p",
				    got, ev[k].data, (void *)ev[k].obj);
			KTAP_EXPECT(!seen[i], "request %lu completed twice", (unsigned long)i);
			seen[i] = true;
			KTAP_EXPECT((long)ev[k].res == (long)t->len[i],
				    "request %lu: res %ld, want %zu", (unsigned long)i,
				    (long)ev[k].res, t->len[i]);
			KTAP_EXPECT(i == (uintptr_t)got, "event %d is request %lu: not in order",
				    got, (unsigned long)i);
		}
	}
	ktap_diag("%d events in order in %.1f s", DEPTH, ktap_now() - t->t0);
	r = io_getevents(t->ctx, 0, DEPTH, ev, &zero);
	KTAP_EXPECT(r == 0, "%d more events after all %d", r, DEPTH);
	return KTAP_PASS;
}

/* Reads saw the old content, one transfer a piece, the file holds the writes. */
static int depth_check(struct depth *t)
{
	const struct demo_irqdev_stats a = t->a;
	unsigned int np = t->np;
	size_t bytes = t->bytes;
	struct demo_irqdev_stats b;
	int k;

	KTAP_EXPECT(it_get_stats(t->fd, &b) == 0, "stats");
	for (k = 1; k < DEPTH; k += 2) {
		long d = pat_diff(t->bufs + k * 64 + k % 3, t->off[k], t->len[k], 40);

		KTAP_EXPECT(d < 0, "read %d: wrong byte at file offset %ld", k, t->off[k] + d);
	}
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == np && IDMA_DELTA(a, b, dma_irq_completions) == DEPTH,
		    "transfers %+lld (want %u), irq_completions %+lld (want %d)",
		    IDMA_DELTA(a, b, dma_transfers), np, IDMA_DELTA(a, b, dma_irq_completions), DEPTH);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_bytes) == (long long)bytes, "dma_bytes %+lld, want %zu",
		    IDMA_DELTA(a, b, dma_bytes), bytes);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	KTAP_EXPECT(dev_holds(t->fd, t->want, "after 64 requests") == 0, "content");
	return KTAP_PASS;
}

KTAP_TEST(depth_64, 120)
{
	static struct depth t;
	int k, r;

	t.fd = idma_begin(0, &t.a);
	KTAP_EXPECT(t.fd >= 0, "device");
	KTAP_EXPECT(io_setup(2 * DEPTH, &t.ctx) == 0, "io_setup");
	t.bufs = idma_arena(5);
	KTAP_EXPECT(t.bufs, "mmap");
	KTAP_EXPECT(idma_dev_put(t.fd, 40, t.want) == 0, "fill the file");
	for (k = 0; k < DEPTH; k++)
		depth_prepare_one(&t, k);
	r = depth_submit_held(&t);
	if (r == KTAP_PASS)
		r = depth_reap_in_order(&t);
	if (r == KTAP_PASS)
		r = depth_check(&t);
	if (r != KTAP_PASS)
		return r;
	io_destroy(t.ctx);
	close(t.fd);
	return KTAP_PASS;
}

/*
 * Five requests: 0 a read of four idma_pieces (on the wire, 400 ms), then of
 * one piece each 1 write, 2 read, 3 read, 4 write. io_cancel() of 4 (the last queued) and 3: where the
 * driver can cancel (dma_can_cancel, matrix fact dma_cancel), both return
 * -EINPROGRESS and complete with -ECANCELED, moving nothing; io_cancel() of
 * 0 returns -EAGAIN and it completes whole. Elsewhere io_cancel() returns
 * -EINVAL and all five complete whole. Five events exactly, none twice.
 */
#define NCANCEL 5
#define CANCEL_LEN	500	/* bytes, each request */

static const bool cancel_is_write[NCANCEL] = { false, true, false, false, true };

/* What the steps of cancel_queued share. */
struct cancel {
	int fd;
	io_context_t ctx;
	bool can;			/* the driver can cancel (dma_can_cancel) */
	struct iocb cb[NCANCEL], *cbs[NCANCEL];
	unsigned char want[IDMA_DEV_SIZE], *bufs, *buf[NCANCEL];
	struct iovec v0[4];		/* request 0's four pieces */
	long res[NCANCEL];		/* each one's event, LONG_MIN before it */
	int early;			/* events reaped before the io_cancel() calls */
	struct demo_irqdev_stats a, m;	/* before the submission, after io_cancel() */
};

/* The five requests, none submitted yet; request 0 in four pieces. */
static void cancel_prepare(struct cancel *t)
{
	const size_t len = CANCEL_LEN;
	int fd = t->fd, k;

	for (k = 0; k < 4; k++) {
		t->v0[k] = (struct iovec){ t->bufs + (NCANCEL + k) * idma_pg + 17, len / 4 };
		memset(t->v0[k].iov_base, IDMA_UNTOUCHED, len / 4);
	}
	for (k = 0; k < NCANCEL; k++) {
		unsigned int off = 100 + k * 600;

		t->buf[k] = t->bufs + k * idma_pg + 17;
		t->res[k] = LONG_MIN;
		if (cancel_is_write[k]) {
			idma_pat_fill(t->buf[k], off, len, 51);
			io_prep_pwrite(&t->cb[k], fd, t->buf[k], len, off);
		} else {
			memset(t->buf[k], IDMA_UNTOUCHED, len);
			io_prep_pread(&t->cb[k], fd, t->buf[k], len, off);
		}
		t->cb[k].data = (void *)(uintptr_t)k;
		t->cbs[k] = &t->cb[k];
	}
	/* the first four pieces: 400 ms on the wire, time for the io_cancel() calls */
	io_prep_preadv(&t->cb[0], fd, t->v0, 4, 100);
	t->cb[0].data = (void *)(uintptr_t)0;
}

static int cancel_setup(void *state)
{
	struct cancel *t = state;

	t->fd = idma_begin(0, &t->a);
	KTAP_EXPECT(t->fd >= 0, "device");
	t->can = t->a.dma_can_cancel;
	KTAP_EXPECT(io_setup(16, &t->ctx) == 0, "io_setup");
	t->bufs = idma_arena(NCANCEL + 4);
	KTAP_EXPECT(t->bufs, "mmap");
	KTAP_EXPECT(idma_dev_put(t->fd, 50, t->want) == 0, "fill the file");
	cancel_prepare(t);
	return KTAP_PASS;
}

static int cancel_teardown(void *state)
{
	struct cancel *t = state;

	io_destroy(t->ctx);
	close(t->fd);
	return KTAP_PASS;
}

/* Request 0 on the wire, the others queued behind it; io_cancel() of 4, 3 and 0. */
static int cancel_submit_and_cancel(void *state)
{
	struct cancel *t = state;
	struct timespec zero = { 0 };
	struct io_event ev[NCANCEL], dummy;
	struct demo_irqdev_stats a, m;
	int fd = t->fd, r, r0, r3, r4;

	KTAP_EXPECT(it_get_stats(fd, &t->a) == 0, "stats");
	/* the first on the wire, the others queued behind a held queue */
	r = io_submit(t->ctx, 1, t->cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(t->ctx, NCANCEL - 1, t->cbs + 1);
	KTAP_EXPECT(r == NCANCEL - 1, "io_submit: %d", r);
	r = io_getevents(t->ctx, 0, NCANCEL, ev, &zero);
	KTAP_EXPECT(r == 0 || (r == 1 && ev[0].obj == &t->cb[0]), "%d events right after io_submit",
		    r);
	t->early = r;
	if (r == 1)
		t->res[0] = (long)ev[0].res;
	r4 = io_cancel(t->ctx, &t->cb[4], &dummy);
	r3 = io_cancel(t->ctx, &t->cb[3], &dummy);
	r0 = io_cancel(t->ctx, &t->cb[0], &dummy);
	/* Nothing starts while held: the completions so far are request 0's, or none. */
	KTAP_EXPECT(it_get_stats(fd, &t->m) == 0, "stats");
	a = t->a;
	m = t->m;
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	ktap_diag("io_cancel: last queued %d (%s), middle %d (%s), on the wire %d (%s)",
		  r4, strerror(-r4), r3, strerror(-r3), r0, strerror(-r0));
	if (t->can) {
		KTAP_EXPECT(r4 == -EINPROGRESS && r3 == -EINPROGRESS,
			    "io_cancel of queued requests: %d, %d, want -EINPROGRESS", r4, r3);
		/*
		 * On the wire for 400 ms: EAGAIN, or EINVAL where a stalled
		 * machine let it finish first: then the interrupt handler had
		 * completed it before io_cancel() (the stats read after it say
		 * so), and in full, which cancel_results() checks.
		 */
		KTAP_EXPECT(r0 == -EAGAIN || r0 == -EINVAL,
			    "io_cancel of the request on the wire: %d, want -EAGAIN", r0);
		KTAP_EXPECT(r0 != -EINVAL || IDMA_DELTA(a, m, dma_irq_completions) == 1,
			    "io_cancel of the request on the wire: -EINVAL, yet not complete");
	} else {
		KTAP_EXPECT(r4 == -EINVAL && r3 == -EINVAL && r0 == -EINVAL,
			    "no cancel callback: io_cancel %d %d %d, want -EINVAL", r4, r3, r0);
	}
	return KTAP_PASS;
}

/* Five events exactly, none twice; the whole ones in submission order. */
static int cancel_reap(void *state)
{
	struct cancel *t = state;
	struct timespec zero = { 0 }, ts = { .tv_sec = IDMA_WAIT_S };
	struct io_event ev[NCANCEL];
	int k, r, got, order = 0;

	for (got = t->early; got < NCANCEL;) {
		r = io_getevents(t->ctx, 1, NCANCEL - got, ev, &ts);
		KTAP_EXPECT(r > 0, "io_getevents after %d of %d events: %d", got, NCANCEL, r);
		for (k = 0; k < r; k++, got++) {
			uintptr_t i = (uintptr_t)ev[k].data;

			KTAP_EXPECT(i < NCANCEL && ev[k].obj == &t->cb[i], "unknown event %p",
				    (void *)ev[k].obj);
			KTAP_EXPECT(t->res[i] == LONG_MIN, "request %lu completed twice",
				    (unsigned long)i);
			t->res[i] = (long)ev[k].res;
			if (t->res[i] == CANCEL_LEN) {
				KTAP_EXPECT((int)i >= order, "request %lu completed after %d",
					    (unsigned long)i, order);
				order = i;
			}
		}
	}
	r = io_getevents(t->ctx, 0, NCANCEL, ev, &zero);
	KTAP_EXPECT(r == 0, "%d more events after all %d", r, NCANCEL);
	return KTAP_PASS;
}

/* Each request's result and buffer: whole, or cancelled having moved nothing. */
static int cancel_results(void *state)
{
	struct cancel *t = state;
	const long *res = t->res;
	const size_t len = CANCEL_LEN;
	unsigned char got0[CANCEL_LEN];
	int k;

	ktap_diag("results: %ld %ld %ld %ld %ld", res[0], res[1], res[2], res[3], res[4]);
	for (k = 0; k < NCANCEL; k++) {
		bool cancelled = t->can && k >= 3;
		unsigned char *buf = t->buf[k];
		unsigned int off = 100 + k * 600;

		KTAP_EXPECT(res[k] == (cancelled ? -ECANCELED : (long)len),
			    "request %d: res %ld, want %ld", k, res[k],
			    cancelled ? -ECANCELED : (long)len);
		if (cancel_is_write[k] && !cancelled)
			memcpy(t->want + off, buf, len);
		if (k == 0) {
			idma_gather(got0, t->v0, 4, len);
			KTAP_EXPECT(pat_diff(got0, off, len, 50) < 0, "read 0: data differs");
		} else if (!cancel_is_write[k] && !cancelled) {
			KTAP_EXPECT(pat_diff(buf, off, len, 50) < 0, "read %d: data differs", k);
		}
		if (!cancel_is_write[k] && cancelled)
			KTAP_EXPECT(buf[0] == IDMA_UNTOUCHED && !memcmp(buf, buf + 1, len - 1),
				    "the cancelled read %d wrote its buffer", k);
	}
	return KTAP_PASS;
}

/* What it all cost: a cancelled request moved nothing; the file holds the rest. */
static int cancel_costs(void *state)
{
	struct cancel *t = state;
	const struct demo_irqdev_stats a = t->a;
	struct demo_irqdev_stats b;
	struct io_event dummy;
	bool can = t->can;
	int r;

	r = io_cancel(t->ctx, &t->cb[1], &dummy);
	KTAP_EXPECT(r == -EINVAL, "io_cancel of a completed request: %d, want -EINVAL", r);
	KTAP_EXPECT(it_get_stats(t->fd, &b) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_cancelled) == (can ? 2 : 0), "dma_cancelled %+lld, want %d",
		    IDMA_DELTA(a, b, dma_cancelled), can ? 2 : 0);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == (can ? 6 : 8) &&
		    IDMA_DELTA(a, b, dma_irq_completions) == (can ? 3 : 5),
		    "transfers %+lld, irq_completions %+lld, want %d, %d: a cancelled request moved",
		    IDMA_DELTA(a, b, dma_transfers), IDMA_DELTA(a, b, dma_irq_completions), can ? 6 : 8,
		    can ? 3 : 5);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_queued) == NCANCEL && IDMA_DELTA(a, b, dma_failed) == 0,
		    "queued %+lld failed %+lld", IDMA_DELTA(a, b, dma_queued), IDMA_DELTA(a, b, dma_failed));
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	KTAP_EXPECT(dev_holds(t->fd, t->want, "after the cancelled write") == 0, "content");
	return KTAP_PASS;
}

KTAP_TEST(cancel_queued, 60)
{
	static const ktap_step steps[] = {
		cancel_submit_and_cancel, cancel_reap, cancel_results, cancel_costs,
	};
	static struct cancel t;

	return ktap_run_fixture(cancel_setup, steps, KTAP_ARRAY_SIZE(steps), cancel_teardown, &t);
}

/* What the steps of nowait_busy share. */
struct nowait {
	int fd, nb;			/* the device, and it opened O_NONBLOCK */
	io_context_t ctx;
	struct io_uring ring;
	unsigned char want[IDMA_DEV_SIZE];
	unsigned char *rb, *wb;		/* 200 bytes at 100 read into rb, written from wb */
	struct iovec v[4], rv, wv;	/* the busy request's segments; rb's and wb's */
	unsigned int np;		/* the busy request's pieces */
	struct iocb busy;
	struct demo_irqdev_stats a;	/* before the busy request */
};

/* An io_uring READ of rb with RWF_NOWAIT, submitted and reaped: its res in *@res. */
static int nowait_uring_read(struct nowait *t, long *res)
{
	struct io_uring_sqe *sqe = uring_sqe_for(&t->ring, 0);

	io_uring_prep_read(sqe, t->fd, t->rb, 200, 100);
	sqe->rw_flags = RWF_NOWAIT;
	*res = LONG_MIN;
	KTAP_EXPECT(uring_reap(&t->ring, 1, res, IDMA_WAIT_S) == 0, "io_uring");
	return KTAP_PASS;
}

static int nowait_setup(void *state)
{
	struct nowait *t = state;
	unsigned char *ar;

	t->fd = idma_begin(0, &t->a);
	KTAP_EXPECT(t->fd >= 0, "device");
	t->nb = it_dev_open(0, O_NONBLOCK);
	KTAP_EXPECT(t->nb >= 0, "open O_NONBLOCK: %s", strerror(errno));
	KTAP_EXPECT(io_setup(8, &t->ctx) == 0, "io_setup");
	KTAP_EXPECT(io_uring_queue_init(8, &t->ring, 0) == 0, "io_uring_queue_init");
	ar = idma_arena(IDMA_ARENA_PAGES);
	t->rb = idma_arena(1);
	t->wb = idma_arena(1);
	KTAP_EXPECT(ar && t->rb && t->wb, "mmap");
	KTAP_EXPECT(idma_dev_put(t->fd, 60, t->want) == 0, "fill the file");
	memset(t->rb, IDMA_UNTOUCHED, idma_pg);
	idma_pat_fill(t->wb, 100, 200, 61);
	t->rv = (struct iovec){ t->rb, 200 };
	t->wv = (struct iovec){ t->wb, 200 };
	idma_layout(t->v, 4, ar, 3000, 4);
	t->np = idma_pieces(t->v, 4, 3000);
	KTAP_EXPECT(t->np >= 4, "layout: %u pieces", t->np);
	return KTAP_PASS;
}

static int nowait_teardown(void *state)
{
	struct nowait *t = state;

	idma_close_with_rings(t->fd, t->ctx, &t->ring);
	close(t->nb);
	return KTAP_PASS;
}

/* The busy request: queued, not started, for as long as the refusals take. */
static int nowait_make_busy(void *state)
{
	struct nowait *t = state;
	struct iocb *cbs[1] = { &t->busy };
	int r;

	KTAP_EXPECT(it_get_stats(t->fd, &t->a) == 0, "stats");
	io_prep_preadv(&t->busy, t->fd, t->v, 4, 0);
	t->busy.data = &t->busy;
	KTAP_EXPECT(idma_hold(t->fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(t->ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	return KTAP_PASS;
}

/* While busy, every request that may not block is refused with EAGAIN. */
static int nowait_refused(void *state)
{
	struct nowait *t = state;
	struct timespec ts = { .tv_sec = IDMA_WAIT_S };
	struct iocb nw[2], *cbs[2];
	struct io_event ev;
	int fd = t->fd, r, k;
	ssize_t n;
	long res;

	errno = 0;
	n = preadv2(fd, &t->rv, 1, 100, RWF_NOWAIT);
	KTAP_EXPECT(n == -1 && errno == EAGAIN, "preadv2 RWF_NOWAIT while busy: %zd (%s)", n,
		    strerror(errno));
	errno = 0;
	n = pwritev2(fd, &t->wv, 1, 100, RWF_NOWAIT);
	KTAP_EXPECT(n == -1 && errno == EAGAIN, "pwritev2 RWF_NOWAIT while busy: %zd (%s)", n,
		    strerror(errno));
	io_prep_pread(&nw[0], fd, t->rb, 200, 100);
	io_prep_pwrite(&nw[1], fd, t->wb, 200, 100);
	for (k = 0; k < 2; k++) {
		nw[k].aio_rw_flags = RWF_NOWAIT;
		nw[k].data = &nw[k];
		cbs[k] = &nw[k];
	}
	r = io_submit(t->ctx, 2, cbs);
	KTAP_EXPECT(r == 2, "io_submit of two RWF_NOWAIT requests while busy: %d (%s)", r,
		    r < 0 ? strerror(-r) : "short");
	for (k = 0; k < 2; k++) {
		r = io_getevents(t->ctx, 1, 1, &ev, &ts);
		KTAP_EXPECT(r == 1, "io_getevents: %d", r);
		KTAP_EXPECT(ev.obj == &nw[0] || ev.obj == &nw[1],
			    "the busy request completed before the RWF_NOWAIT ones were refused");
		KTAP_EXPECT((long)ev.res == -EAGAIN,
			    "io_submit %s RWF_NOWAIT while busy: res %ld, want -EAGAIN",
			    ev.obj == &nw[0] ? "PREAD" : "PWRITE", (long)ev.res);
	}
	r = nowait_uring_read(t, &res);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(res == -EAGAIN, "io_uring READ RWF_NOWAIT while busy: res %ld, want -EAGAIN",
		    res);
	errno = 0;
	n = read(t->nb, t->rb, 200);
	KTAP_EXPECT(n == -1 && errno == EAGAIN, "read(2) on O_NONBLOCK while busy: %zd (%s)", n,
		    strerror(errno));
	errno = 0;
	n = write(t->nb, t->wb, 200);
	KTAP_EXPECT(n == -1 && errno == EAGAIN, "write(2) on O_NONBLOCK while busy: %zd (%s)", n,
		    strerror(errno));
	return KTAP_PASS;
}

/* The refusals queued and moved nothing; released, the busy request completes whole. */
static int nowait_refusals_cost(void *state)
{
	struct nowait *t = state;
	struct timespec zero = { 0 }, ts = { .tv_sec = IDMA_WAIT_S };
	const struct demo_irqdev_stats a = t->a;
	struct demo_irqdev_stats m, b;
	unsigned int np = t->np;
	struct io_event ev;
	int fd = t->fd, r, k;

	r = io_getevents(t->ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0, "the busy request (%u pieces) completed during the refusals", np);
	KTAP_EXPECT(it_get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_eagain) == 7, "dma_eagain %+lld, want 7",
		    IDMA_DELTA(a, m, dma_eagain));
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_queued) == 1 && IDMA_DELTA(a, m, dma_sync_waits) == 0,
		    "queued %+lld sync_waits %+lld, want +1 +0: a refused request was queued",
		    IDMA_DELTA(a, m, dma_queued), IDMA_DELTA(a, m, dma_sync_waits));
	KTAP_EXPECT(m.dma_held == np, "dma_held %llu, want %u", (unsigned long long)m.dma_held, np);
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	r = io_getevents(t->ctx, 1, 1, &ev, &ts);
	KTAP_EXPECT(r == 1 && ev.obj == &t->busy && (long)ev.res == 3000,
		    "the busy request: %d events, res %ld", r, r == 1 ? (long)ev.res : 0);
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0, "not idle");
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == np && IDMA_DELTA(a, b, dma_bytes) == 3000,
		    "transfers %+lld bytes %+lld, want %u and 3000: a refused request moved data",
		    IDMA_DELTA(a, b, dma_transfers), IDMA_DELTA(a, b, dma_bytes), np);
	for (k = 0; k < idma_pg; k++)
		KTAP_EXPECT(t->rb[k] == IDMA_UNTOUCHED, "a refused read wrote byte %d of its buffer", k);
	KTAP_EXPECT(dev_holds(fd, t->want, "after refused writes") == 0, "content");
	return KTAP_PASS;
}

/* Idle, the same requests are served. */
static int nowait_idle_served(void *state)
{
	struct nowait *t = state;
	struct demo_irqdev_stats b;
	unsigned char *rb = t->rb;
	int fd = t->fd, r;
	ssize_t n;
	long d, res;

	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0, "not idle");
	n = preadv2(fd, &t->rv, 1, 100, RWF_NOWAIT);
	KTAP_EXPECT(n == 200, "preadv2 RWF_NOWAIT, idle: %zd (%s)", n, n < 0 ? strerror(errno) : "");
	d = pat_diff(rb, 100, 200, 60);
	KTAP_EXPECT(d < 0, "preadv2 RWF_NOWAIT: data differs at %ld", d);
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0, "not idle");
	memset(rb, IDMA_UNTOUCHED, 200);
	r = nowait_uring_read(t, &res);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(res == 200 && pat_diff(rb, 100, 200, 60) < 0,
		    "io_uring READ RWF_NOWAIT, idle: res %ld", res);
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0, "not idle");
	memset(rb, IDMA_UNTOUCHED, 200);
	KTAP_EXPECT(lseek(t->nb, 100, SEEK_SET) == 100, "lseek: %s", strerror(errno));
	n = read(t->nb, rb, 200);
	KTAP_EXPECT(n == 200 && pat_diff(rb, 100, 200, 60) < 0, "read(2) on O_NONBLOCK, idle: %zd (%s)",
		    n, n < 0 ? strerror(errno) : "");
	return KTAP_PASS;
}

/*
 * With a request on the wire (four pieces: 400 ms), requests that may not
 * block are refused with EAGAIN and queue nothing: preadv2/pwritev2 with
 * RWF_NOWAIT, io_submit PREAD/PWRITE with aio_rw_flags RWF_NOWAIT (the
 * event carries -EAGAIN: fs/aio.c's aio_rw_done() completes any result but
 * -EIOCBQUEUED), io_uring READ with RWF_NOWAIT (CQE -EAGAIN), read(2) and
 * write(2) on an O_NONBLOCK file. Idle, the same requests are served.
 */
KTAP_TEST(nowait_busy, 60)
{
	static const ktap_step steps[] = {
		nowait_make_busy, nowait_refused, nowait_refusals_cost, nowait_idle_served,
	};
	static struct nowait t;

	return ktap_run_fixture(nowait_setup, steps, KTAP_ARRAY_SIZE(steps), nowait_teardown, &t);
}

/* A system call that must fail with @err. */
#define EXPECT_FAILS(call, err, what)						\
	do {									\
		ssize_t n_;							\
		errno = 0;							\
		n_ = (call);							\
		KTAP_EXPECT(n_ == -1 && errno == (err), "%s: %zd (%s), want %s", what, n_, \
			    strerror(errno), strerror(err));			\
	} while (0)

/* The iocb @cb, prepared: io_submit() must take it, its event carry -EFAULT. */
#define EXPECT_AIO_EFAULT(ctx, cb, what)					\
	do {									\
		int sr_;							\
		long res_ = aio_submit_wait(ctx, cb, IDMA_WAIT_S, &sr_);	\
										\
		KTAP_EXPECT(sr_ == 1 && res_ == -EFAULT, "%s: io_submit %d, res %ld", \
			    what, sr_, res_);					\
	} while (0)

/*
 * Memory the request cannot use: unmapped, read-only for a read, PROT_NONE
 * for a write, more than IOV_MAX segments; by read/write/readv/writev/
 * pread/preadv, io_submit (EFAULT in the event; EINVAL from io_submit
 * itself for the iovec count, which the kernel checks before the driver)
 * and io_uring (CQE). Nothing transferred or queued, the file and the
 * buffers unchanged, the file position too; zero-length requests move
 * nothing. Then the edges: a request whose second segment faults is short
 * (the bytes before the fault, as O_DIRECT; aio_compat_pin()); at and past
 * the end reads give 0 and writes ENOSPC, across it both are short; one
 * transfer per piece of what moved, none for the rest.
 *
 * What its steps share: the device, an aio context and a ring on it, the
 * memory, what the file must hold, and what the edges must cost.
 */
struct bad_input {
	int fd;
	io_context_t ctx;
	struct io_uring ring;
	unsigned char *good;	/* two pages */
	unsigned char *ro;	/* one page, PROT_READ */
	unsigned char *none;	/* one page, PROT_NONE */
	unsigned char *hole;	/* a page with nothing mapped, between two mapped */
	struct iovec hv;	/* 100 bytes in the hole */
	struct iovec v2[2];	/* 100 bytes: 50 in good, then the hole */
	struct iovec many[IOV_MAX + 1];
	struct demo_irqdev_stats a;	/* the counters before the step's requests */
	unsigned char want[IDMA_DEV_SIZE];
	unsigned long long np, bytes;	/* pieces and bytes the edges moved */
};

static int bad_input_setup(void *state)
{
	struct bad_input *t = state;
	int k;

	t->fd = idma_begin(0, &t->a);
	KTAP_EXPECT(t->fd >= 0, "device");
	KTAP_EXPECT(io_setup(8, &t->ctx) == 0, "io_setup");
	KTAP_EXPECT(io_uring_queue_init(8, &t->ring, 0) == 0, "io_uring_queue_init");
	t->good = idma_arena(2);
	t->ro = mmap(NULL, idma_pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t->none = mmap(NULL, idma_pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* the hole last: nothing mapped after it may land there */
	t->hole = idma_arena(3);
	KTAP_EXPECT(t->good && t->ro != MAP_FAILED && t->none != MAP_FAILED && t->hole, "mmap");
	KTAP_EXPECT(munmap(t->hole + idma_pg, idma_pg) == 0, "munmap");
	t->hole += idma_pg;
	t->hv = (struct iovec){ t->hole, 100 };
	memset(t->good, IDMA_UNTOUCHED, 2 * idma_pg);
	for (k = 0; k <= IOV_MAX; k++)
		t->many[k] = (struct iovec){ t->good + k % idma_pg, 1 };
	KTAP_EXPECT(idma_dev_put(t->fd, 70, t->want) == 0, "fill the file");
	KTAP_EXPECT(lseek(t->fd, 0, SEEK_SET) == 0, "lseek: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(t->fd, &t->a) == 0, "stats");
	return KTAP_PASS;
}

static int bad_input_teardown(void *state)
{
	struct bad_input *t = state;

	idma_close_with_rings(t->fd, t->ctx, &t->ring);
	return KTAP_PASS;
}

static int bad_input_sync(void *state)
{
	struct bad_input *t = state;
	int fd = t->fd;

	EXPECT_FAILS(read(fd, t->hole, 100), EFAULT, "read(2) into unmapped memory");
	EXPECT_FAILS(read(fd, t->ro, 100), EFAULT, "read(2) into PROT_READ memory");
	EXPECT_FAILS(pread(fd, t->hole, 100, 10), EFAULT, "pread(2) into unmapped memory");
	EXPECT_FAILS(preadv(fd, &t->hv, 1, 10), EFAULT, "preadv(2) into unmapped memory");
	EXPECT_FAILS(readv(fd, t->many, IOV_MAX + 1), EINVAL, "readv(2) of IOV_MAX + 1 segments");
	EXPECT_FAILS(write(fd, t->hole, 100), EFAULT, "write(2) from unmapped memory");
	EXPECT_FAILS(pwrite(fd, t->none, 100, 10), EFAULT, "pwrite(2) from PROT_NONE memory");
	EXPECT_FAILS(pwritev(fd, &t->hv, 1, 10), EFAULT, "pwritev(2) from unmapped memory");
	EXPECT_FAILS(writev(fd, t->many, IOV_MAX + 1), EINVAL, "writev(2) of IOV_MAX + 1 segments");
	KTAP_EXPECT(lseek(fd, 0, SEEK_CUR) == 0, "a failed request moved the file position");
	return KTAP_PASS;
}

static int bad_input_aio(void *state)
{
	struct bad_input *t = state;
	struct iocb cb, *cbs[1] = { &cb };
	int fd = t->fd, r;

	io_prep_pread(&cb, fd, t->hole, 100, 10);
	EXPECT_AIO_EFAULT(t->ctx, &cb, "io_submit PREAD into unmapped memory");
	io_prep_pread(&cb, fd, t->ro, 100, 10);
	EXPECT_AIO_EFAULT(t->ctx, &cb, "io_submit PREAD into PROT_READ memory");
	io_prep_preadv(&cb, fd, &t->hv, 1, 10);
	EXPECT_AIO_EFAULT(t->ctx, &cb, "io_submit PREADV into unmapped memory");
	io_prep_pwrite(&cb, fd, t->none, 100, 10);
	EXPECT_AIO_EFAULT(t->ctx, &cb, "io_submit PWRITE from PROT_NONE memory");
	io_prep_preadv(&cb, fd, t->many, IOV_MAX + 1, 0);
	r = io_submit(t->ctx, 1, cbs);
	KTAP_EXPECT(r == -EINVAL, "io_submit PREADV of IOV_MAX + 1 segments: %d, want -EINVAL", r);
	io_prep_pwritev(&cb, fd, t->many, IOV_MAX + 1, 0);
	r = io_submit(t->ctx, 1, cbs);
	KTAP_EXPECT(r == -EINVAL, "io_submit PWRITEV of IOV_MAX + 1 segments: %d, want -EINVAL", r);
	return KTAP_PASS;
}

/* The refused io_uring requests, then zero-length ones, which move nothing. */
static int bad_input_uring_and_empty(void *state)
{
	struct bad_input *t = state;
	struct iocb cb;
	int fd = t->fd;
	ssize_t n;
	long res;

	io_uring_prep_read(uring_sqe_for(&t->ring, 0), fd, t->ro, 100, 10);
	res = uring_one(&t->ring, IDMA_WAIT_S);
	KTAP_EXPECT(res == -EFAULT, "io_uring READ into PROT_READ memory: %ld", res);
	io_uring_prep_write(uring_sqe_for(&t->ring, 0), fd, t->hole, 100, 10);
	res = uring_one(&t->ring, IDMA_WAIT_S);
	KTAP_EXPECT(res == -EFAULT, "io_uring WRITE from unmapped memory: %ld", res);
	io_uring_prep_readv(uring_sqe_for(&t->ring, 0), fd, t->many, IOV_MAX + 1, 0);
	res = uring_one(&t->ring, IDMA_WAIT_S);
	KTAP_EXPECT(res == -EINVAL, "io_uring READV of IOV_MAX + 1 segments: %ld", res);

	n = pread(fd, t->good, 0, 10);
	KTAP_EXPECT(n == 0, "pread(2) of 0 bytes: %zd", n);
	io_prep_pread(&cb, fd, t->good, 0, 10);
	res = aio_submit_wait(t->ctx, &cb, IDMA_WAIT_S, NULL);
	KTAP_EXPECT(res == 0, "io_submit PREAD of 0 bytes: %ld", res);
	return KTAP_PASS;
}

/* None of the requests so far moved, queued or pinned anything. */
static int bad_input_nothing_moved(void *state)
{
	struct bad_input *t = state;
	struct demo_irqdev_stats m;
	int k;

	KTAP_EXPECT(it_get_stats(t->fd, &m) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(t->a, m, dma_transfers) == 0 && IDMA_DELTA(t->a, m, dma_bytes) == 0,
		    "bad requests moved data: transfers %+lld bytes %+lld",
		    IDMA_DELTA(t->a, m, dma_transfers), IDMA_DELTA(t->a, m, dma_bytes));
	KTAP_EXPECT(IDMA_DELTA(t->a, m, dma_queued) == 0 && IDMA_DELTA(t->a, m, dma_sync_waits) == 0 &&
		    IDMA_DELTA(t->a, m, dma_irq_completions) == 0,
		    "bad requests reached the queue: queued %+lld sync_waits %+lld completions %+lld",
		    IDMA_DELTA(t->a, m, dma_queued), IDMA_DELTA(t->a, m, dma_sync_waits),
		    IDMA_DELTA(t->a, m, dma_irq_completions));
	KTAP_EXPECT(m.dma_held == 0, "dma_held %llu after refused requests: pins leaked",
		    (unsigned long long)m.dma_held);
	for (k = 0; k < 2 * idma_pg; k++)
		KTAP_EXPECT(t->good[k] == IDMA_UNTOUCHED,
			    "a refused read wrote byte %d of the good buffer", k);
	KTAP_EXPECT(dev_holds(t->fd, t->want, "after refused writes") == 0, "content");
	return KTAP_PASS;
}

/* The edges, each with what it should cost: a second segment that faults. */
static int bad_input_fault_edges(void *state)
{
	struct bad_input *t = state;
	unsigned char *good = t->good;
	struct iovec *v2 = t->v2;
	int fd = t->fd;
	struct iocb cb;
	ssize_t n;
	long res;

	KTAP_EXPECT(it_get_stats(fd, &t->a) == 0, "stats");
	v2[0] = (struct iovec){ good + idma_pg - 50, 100 };	/* two pieces */
	v2[1] = t->hv;
	n = readv(fd, v2, 2);	/* the file position is 0 */
	KTAP_EXPECT(n == 100, "readv(2) whose second segment is unmapped: %zd (%s), want 100 (short)",
		    n, n < 0 ? strerror(errno) : "");
	KTAP_EXPECT(pat_diff(good + idma_pg - 50, 0, 100, 70) < 0, "readv before the fault: data differs");
	t->np += idma_pieces(v2, 2, 100);
	t->bytes += 100;
	idma_pat_fill(good + idma_pg - 50, 200, 100, 71);
	n = pwritev(fd, v2, 2, 200);
	KTAP_EXPECT(n == 100, "pwritev(2) whose second segment is unmapped: %zd (%s), want 100",
		    n, n < 0 ? strerror(errno) : "");
	memcpy(t->want + 200, good + idma_pg - 50, 100);
	t->np += idma_pieces(v2, 2, 100);
	t->bytes += 100;
	memset(good, IDMA_UNTOUCHED, 2 * idma_pg);
	io_prep_preadv(&cb, fd, v2, 2, 300);
	res = aio_submit_wait(t->ctx, &cb, IDMA_WAIT_S, NULL);
	KTAP_EXPECT(res == 100 && pat_diff(good + idma_pg - 50, 300, 100, 70) < 0,
		    "io_submit PREADV whose second segment is unmapped: %ld, want 100", res);
	t->np += idma_pieces(v2, 2, 100);
	t->bytes += 100;
	return KTAP_PASS;
}

/* At, past and across the end of the file, by the synchronous calls. */
static int bad_input_end_sync(void *state)
{
	struct bad_input *t = state;
	unsigned char *good = t->good;
	int fd = t->fd;
	ssize_t n;

	KTAP_EXPECT(pread(fd, good, 100, IDMA_DEV_SIZE) == 0, "pread(2) at the end");
	KTAP_EXPECT(pread(fd, good, 100, IDMA_DEV_SIZE + 904) == 0, "pread(2) past the end");
	memset(good, IDMA_UNTOUCHED, 300);
	n = pread(fd, good, 300, IDMA_DEV_SIZE - 96);
	KTAP_EXPECT(n == 96 && pat_diff(good, IDMA_DEV_SIZE - 96, 96, 70) < 0 && good[96] == IDMA_UNTOUCHED,
		    "pread(2) across the end: %zd, want 96", n);
	t->np += idma_span_pages(good, 96);
	t->bytes += 96;
	EXPECT_FAILS(pwrite(fd, good, 10, IDMA_DEV_SIZE), ENOSPC, "pwrite(2) at the end");
	EXPECT_FAILS(pwrite(fd, good, 10, IDMA_DEV_SIZE + 5903), ENOSPC, "pwrite(2) past the end");
	idma_pat_fill(good, IDMA_DEV_SIZE - 6, 20, 72);
	n = pwrite(fd, good, 20, IDMA_DEV_SIZE - 6);
	KTAP_EXPECT(n == 6, "pwrite(2) across the end: %zd, want 6", n);
	memcpy(t->want + IDMA_DEV_SIZE - 6, good, 6);
	t->np += 1;
	t->bytes += 6;
	KTAP_EXPECT(lseek(fd, IDMA_DEV_SIZE, SEEK_SET) == IDMA_DEV_SIZE, "lseek to the end: %s", strerror(errno));
	KTAP_EXPECT(read(fd, good, 100) == 0, "read(2) at the end");
	EXPECT_FAILS(write(fd, good, 100), ENOSPC, "write(2) at the end");
	return KTAP_PASS;
}

/* The same edges by io_submit and io_uring. */
static int bad_input_end_async(void *state)
{
	struct bad_input *t = state;
	unsigned char *good = t->good;
	int fd = t->fd;
	struct iocb cb;
	long res;

	io_prep_preadv(&cb, fd, t->v2, 1, IDMA_DEV_SIZE);
	res = aio_submit_wait(t->ctx, &cb, IDMA_WAIT_S, NULL);
	KTAP_EXPECT(res == 0, "io_submit PREADV at the end: %ld", res);
	io_prep_pwritev(&cb, fd, t->v2, 1, IDMA_DEV_SIZE);
	res = aio_submit_wait(t->ctx, &cb, IDMA_WAIT_S, NULL);
	KTAP_EXPECT(res == -ENOSPC, "io_submit PWRITEV at the end: %ld", res);
	memset(good, IDMA_UNTOUCHED, 300);
	io_prep_pread(&cb, fd, good + 1, 200, IDMA_DEV_SIZE - 96);
	res = aio_submit_wait(t->ctx, &cb, IDMA_WAIT_S, NULL);
	KTAP_EXPECT(res == 96 && pat_diff(good + 1, IDMA_DEV_SIZE - 96, 90, 70) < 0,
		    "io_submit PREAD across the end: %ld, want 96", res);
	t->np += 1;
	t->bytes += 96;
	io_uring_prep_read(uring_sqe_for(&t->ring, 0), fd, good, 100, IDMA_DEV_SIZE);
	res = uring_one(&t->ring, IDMA_WAIT_S);
	KTAP_EXPECT(res == 0, "io_uring READ at the end: %ld", res);
	io_uring_prep_write(uring_sqe_for(&t->ring, 0), fd, good, 100, IDMA_DEV_SIZE);
	res = uring_one(&t->ring, IDMA_WAIT_S);
	KTAP_EXPECT(res == -ENOSPC, "io_uring WRITE at the end: %ld", res);
	idma_pat_fill(good, IDMA_DEV_SIZE - 1, 5, 73);
	io_uring_prep_write(uring_sqe_for(&t->ring, 0), fd, good, 5, IDMA_DEV_SIZE - 1);
	res = uring_one(&t->ring, IDMA_WAIT_S);
	KTAP_EXPECT(res == 1, "io_uring WRITE across the end: %ld, want 1", res);
	t->want[IDMA_DEV_SIZE - 1] = good[0];
	t->np += 1;
	t->bytes += 1;
	return KTAP_PASS;
}

/* The edges cost one transfer per piece they moved, and left the file as said. */
static int bad_input_edges_cost(void *state)
{
	struct bad_input *t = state;
	struct demo_irqdev_stats b;
	unsigned long long np = t->np, bytes = t->bytes;

	KTAP_EXPECT(it_get_stats(t->fd, &b) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(t->a, b, dma_transfers) == (long long)np &&
		    IDMA_DELTA(t->a, b, dma_bytes) == (long long)bytes,
		    "edges: transfers %+lld bytes %+lld, want %llu and %llu",
		    IDMA_DELTA(t->a, b, dma_transfers), IDMA_DELTA(t->a, b, dma_bytes), np, bytes);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	KTAP_EXPECT(dev_holds(t->fd, t->want, "after the edges") == 0, "content");
	return KTAP_PASS;
}

KTAP_TEST(bad_input, 60)
{
	static const ktap_step steps[] = {
		bad_input_sync, bad_input_aio, bad_input_uring_and_empty,
		bad_input_nothing_moved, bad_input_fault_edges, bad_input_end_sync,
		bad_input_end_async, bad_input_edges_cost,
	};
	static struct bad_input t;

	return ktap_run_fixture(bad_input_setup, steps, KTAP_ARRAY_SIZE(steps),
				bad_input_teardown, &t);
}

/* DMA_HOLD from a child without CAP_SYS_ADMIN: 0 when refused with EPERM. */
static int hold_unprivileged_refused(int fd)
{
	int status = 0;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		if (it_drop_capability(CAP_SYS_ADMIN))
			_exit(2);
		_exit(idma_hold(fd, 1) == -1 && errno == EPERM ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ktap_diag("DMA_HOLD without CAP_SYS_ADMIN: child status %#x (1: not EPERM, 2: capset)",
			  status);
		return -1;
	}
	return 0;
}

/*
 * DMA_HOLD refuses what it cannot use: a pointer to no memory (EFAULT), a
 * value other than 0 and 1 (EINVAL), a caller without CAP_SYS_ADMIN
 * (EPERM), a second holder (EBUSY). Letting go is the holder's: another
 * file's 0 leaves the queue held; the holder's close() lets it go, and the
 * write queued meanwhile reaches the device.
 */
KTAP_TEST(hold_refusals_and_release, 60)
{
	struct timespec zero = { 0 }, ts = { .tv_sec = IDMA_WAIT_S };
	unsigned char out[300], in[sizeof(out)];
	struct iocb cb, *cbs[1] = { &cb };
	struct demo_irqdev_stats a, b;
	const unsigned int off = 1000;
	io_context_t ctx = 0;
	struct io_event ev;
	int fd, holder, r;
	__u32 two = 2;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_IRQDEV_IOC_DMA_HOLD, (void *)8), EFAULT,
			  "DMA_HOLD from no memory");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_IRQDEV_IOC_DMA_HOLD, &two), EINVAL, "DMA_HOLD 2");
	KTAP_EXPECT(hold_unprivileged_refused(fd) == 0, "DMA_HOLD without CAP_SYS_ADMIN");
	holder = it_dev_open(0, 0);
	KTAP_EXPECT(holder >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(idma_hold(holder, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	KTAP_EXPECT_ERRNO(idma_hold(fd, 1), EBUSY, "DMA_HOLD while another file holds");
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0 by another file: %s", strerror(errno));
	KTAP_EXPECT(io_setup(1, &ctx) == 0, "io_setup");
	idma_pat_fill(out, off, sizeof(out), 41);
	io_prep_pwrite(&cb, fd, out, sizeof(out), off);
	r = io_submit(ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	r = io_getevents(ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0, "the write completed (res %ld) though the queue is held",
		    r == 1 ? (long)ev.res : 0);
	KTAP_EXPECT(close(holder) == 0, "close the holder: %s", strerror(errno));
	r = io_getevents(ctx, 1, 1, &ev, &ts);
	KTAP_EXPECT(r == 1 && (long)ev.res == (long)sizeof(out),
		    "the write after the holder closed: %d events, res %ld", r,
		    r == 1 ? (long)ev.res : 0);
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_irq_completions) == 1 && IDMA_DELTA(a, b, dma_failed) == 0 &&
		    b.dma_held == 0, "completions %+lld failed %+lld held %llu, want +1 +0 0",
		    IDMA_DELTA(a, b, dma_irq_completions), IDMA_DELTA(a, b, dma_failed),
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(pread(fd, in, sizeof(in), off) == (ssize_t)sizeof(in), "pread: %s",
		    strerror(errno));
	r = (int)pat_diff(in, off, sizeof(in), 41);
	KTAP_EXPECT(r < 0, "the device holds other data at offset %u", off + r);
	io_destroy(ctx);
	close(fd);
	return KTAP_PASS;
}

int main(void)
{
	return idma_main("irqdev_dma_queue");
}
