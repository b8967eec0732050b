// SPDX-License-Identifier: GPL-2.0
/*
 * irqdev_dma_teardown - requests of /dev/demo_irqdev<N> in flight when
 * what they depend on goes (irqdev_dma.h says what the device promises and
 * how these tests wait): the process that submitted them exits, its aio
 * context or ring is destroyed, the device is unbound, rmmod is tried.
 */
#include <pthread.h>
#include "irqdev_dma.h"
#include "module_test.h"

/*
 * Wait, bounded, until the device holds @want pieces. Only for requests the
 * device cannot finish meanwhile (its queue held): io_uring's may reach it
 * from io-wq, late on a loaded machine.
 */
static int wait_held(int fd, unsigned long long want, struct demo_irqdev_stats *s)
{
	double t0 = ktap_now();

	for (;;) {
		if (it_get_stats(fd, s))
			return -1;
		if (s->dma_held == want)
			return 0;
		if (ktap_now() - t0 > IDMA_WAIT_S)
			return -1;
		usleep(1000);
	}
}

/*
 * Wait, bounded, until @sync synchronous and @queued asynchronous requests
 * reached the device since @a: counters that only grow, so no window of a
 * short request can be missed.
 */
static int wait_reached(int fd, const struct demo_irqdev_stats *a, long long sync,
			long long queued, struct demo_irqdev_stats *s)
{
	double t0 = ktap_now();

	for (;;) {
		if (it_get_stats(fd, s))
			return -1;
		if (IDMA_DELTA(*a, *s, dma_sync_waits) >= sync && IDMA_DELTA(*a, *s, dma_queued) >= queued)
			return 0;
		if (ktap_now() - t0 > IDMA_WAIT_S)
			return -1;
		usleep(1000);
	}
}

/* ---- tests ---------------------------------------------------------------- */

/*
 * n one-piece PREADs of 300 bytes at 300-byte steps, request k's buffer at
 * page k of @bufs; with @long_first, request 0 is a PREADV of four pieces
 * instead (400 ms on the wire), in pages n..n+3.
 */
static struct iovec long_v[4];

static void prep_reads(struct iocb *cb, struct iocb **cbs, int n, int fd, unsigned char *bufs,
		       bool long_first)
{
	int k;

	for (k = 0; k < n; k++) {
		memset(bufs + k * idma_pg, IDMA_UNTOUCHED, 300);
		io_prep_pread(&cb[k], fd, bufs + k * idma_pg, 300, k * 300);
		cb[k].data = &cb[k];
		cbs[k] = &cb[k];
	}
	if (long_first) {
		for (k = 0; k < 4; k++)
			long_v[k] = (struct iovec){ bufs + (n + k) * idma_pg + 1000, 100 };
		io_prep_preadv(&cb[0], fd, long_v, 4, 0);
		cb[0].data = &cb[0];
	}
}

/*
 * io_uring READs of 300 bytes, one piece each, but the first a READV of
 * four idma_pieces (400 ms on the wire): with the first queued, io_uring's
 * nowait attempt of the others is refused and io-wq queues them later; the
 * caller holds the queue and waits until all are held (wait_held()) before
 * it counts on them being queued.
 */
static struct iovec first_v[4];

static void uring_queue_reads(struct io_uring *ring, int n, int fd, unsigned char *bufs)
{
	int k;

	for (k = 0; k < 4; k++)
		first_v[k] = (struct iovec){ bufs + k * idma_pg + 1000, 100 };
	io_uring_prep_readv(uring_sqe_for(ring, 0), fd, first_v, 4, 0);
	for (k = 1; k < n; k++)
		io_uring_prep_read(uring_sqe_for(ring, k), fd, bufs + (k + 3) * idma_pg, 300, k * 300);
}

/*
 * A child: submit n requests, the first of four pieces, and exit at once;
 * the exit status says what went wrong. The device's queue is held while
 * they are submitted, so that nothing completes before the checks and the
 * exit finds them where the caller counts on, however slow the machine.
 * The hold is through @hold_fd, the caller's file: the requests' own file
 * is released late (by whoever completes the last of them), the caller's
 * when it says so.
 *  - io_submit: request 0 alone first (no event may follow at once), then
 *    let go, so that it goes on the wire, and held again for the others:
 *    at the exit one is on the wire (or done) and the rest queued. Left
 *    held where the driver cancels (@can: exit_aio() cancels the queued
 *    ones; the caller lets go after the exit); elsewhere let go first,
 *    since exit_aio() waits for requests that could then never start;
 *  - io_uring (@uring): all queued (the others from io-wq), then let go:
 *    the exit does not wait for them.
 */
static int exit_with_requests(int n, bool uring, bool can, int hold_fd)
{
	struct iocb cb[16], *cbs[16];
	struct timespec zero = { 0 };
	struct io_event ev;
	struct io_uring ring;
	io_context_t ctx = 0;
	unsigned char *bufs = idma_arena(n + 4);
	int fd = it_dev_open(0, 0), ret;

	if (fd < 0 || !bufs)
		return 2;
	if (idma_hold(hold_fd, 1))
		return 7;
	if (uring) {
		struct io_uring_cqe *cqe;
		struct demo_irqdev_stats s;

		ret = 3;
		if (io_uring_queue_init(16, &ring, 0))
			goto out;
		uring_queue_reads(&ring, n, fd, bufs);
		ret = 4;
		if (io_uring_submit(&ring) != n)
			goto out;
		ret = 5;
		if (io_uring_peek_cqe(&ring, &cqe) != -EAGAIN)
			goto out;
		ret = wait_held(fd, 4 + n - 1, &s) ? 6 : 0;
		goto out;
	}
	ret = 3;
	if (io_setup(16, &ctx))
		goto out;
	prep_reads(cb, cbs, n, fd, bufs, true);
	ret = 4;
	if (io_submit(ctx, 1, cbs) != 1)
		goto out;
	ret = 5;
	if (io_getevents(ctx, 0, 1, &ev, &zero) != 0)
		goto out;
	ret = 7;
	if (idma_hold(hold_fd, 0) || idma_hold(hold_fd, 1))
		goto out;
	ret = 4;
	if (io_submit(ctx, n - 1, cbs + 1) != n - 1)
		goto out;
	/* request 0 may be done already; none of the others can be */
	ret = 5;
	if (io_getevents(ctx, 0, 1, &ev, &zero) != 0 && ev.obj != &cb[0])
		goto out;
	if (can)
		return 0;
	ret = 0;
out:
	if (idma_hold(hold_fd, 0) && !ret)
		ret = 7;
	return ret;
}

/*
 * Part @part (0 io_submit, 1 io_uring) of a process that exits with
 * requests in flight: the device ends idle with the counters consistent.
 */
static int exit_in_flight(int fd, int can, int part)
{
	int n = part ? 4 : 8, cancelled = !part && can ? n - 1 : 0;
	int moved = n + 3 - cancelled;	/* transfers: the first has four pieces */
	struct demo_irqdev_stats a, b;
	double t0, dt;
	pid_t pid;
	int st;

	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	t0 = ktap_now();
	pid = fork();
	KTAP_EXPECT(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(exit_with_requests(n, part, can, fd));
	KTAP_EXPECT(waitpid(pid, &st, 0) == pid, "waitpid: %s", strerror(errno));
	dt = ktap_now() - t0;
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	KTAP_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "the child failed before exiting (status %#x; 2 open, 3 setup, 4 submit, 5 completed at once, 6 never all held, 7 DMA_HOLD)",
		    st);
	ktap_diag("process exit with %d %s requests in flight: %.3f s", n,
		  part ? "io_uring" : "io_submit", dt);
	/* the child's own bounded waits, then the exit: only a hang takes longer */
	KTAP_EXPECT(dt < n * 0.1 + 2 * IDMA_WAIT_S, "the exit took %.1f s", dt);
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0,
		    "not idle %d s after the exit: dma_held %llu", IDMA_WAIT_S,
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_queued) == n && IDMA_DELTA(a, b, dma_failed) == 0,
		    "queued %+lld failed %+lld, want %d, 0", IDMA_DELTA(a, b, dma_queued),
		    IDMA_DELTA(a, b, dma_failed), n);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_cancelled) == cancelled &&
		    IDMA_DELTA(a, b, dma_transfers) == moved &&
		    IDMA_DELTA(a, b, dma_irq_completions) == n - cancelled,
		    "cancelled %+lld transfers %+lld completions %+lld, want %d %d %d",
		    IDMA_DELTA(a, b, dma_cancelled), IDMA_DELTA(a, b, dma_transfers),
		    IDMA_DELTA(a, b, dma_irq_completions), cancelled, moved, n - cancelled);
	return KTAP_PASS;
}

/*
 * io_destroy() with six in flight, the file closed first: request 0
 * alone with the queue held (no event may follow at once), then on the
 * wire and the other five queued behind the held queue. Held through
 * io_destroy() where the driver cancels; elsewhere let go first, since
 * io_destroy() waits for requests that could then never start.
 */
static int destroy_in_flight(int fd, int can, unsigned char *bufs)
{
	struct timespec zero = { 0 };
	struct demo_irqdev_stats a, b;
	struct iocb cb[6], *cbs[6];
	struct io_event ev;
	io_context_t ctx = 0;
	int fd2, k, r;
	double t0, dt;

	KTAP_EXPECT(io_setup(8, &ctx) == 0, "io_setup");
	fd2 = it_dev_open(0, 0);
	KTAP_EXPECT(fd2 >= 0, "open: %s", strerror(errno));
	prep_reads(cb, cbs, 6, fd2, bufs, true);
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	KTAP_EXPECT(io_getevents(ctx, 0, 1, &ev, &zero) == 0, "an event right after io_submit");
	KTAP_EXPECT(idma_hold(fd, 0) == 0 && idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(ctx, 5, cbs + 1);
	KTAP_EXPECT(r == 5, "io_submit: %d", r);
	r = io_getevents(ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0 || (r == 1 && ev.obj == &cb[0]),
		    "an event of a queued request right after io_submit");
	KTAP_EXPECT(close(fd2) == 0, "close with requests in flight: %s", strerror(errno));
	if (!can)
		KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	t0 = ktap_now();
	r = io_destroy(ctx);
	dt = ktap_now() - t0;
	ktap_diag("io_destroy with 6 requests in flight: %d after %.3f s", r, dt);
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	KTAP_EXPECT(r == 0, "io_destroy: %s", strerror(-r));
	KTAP_EXPECT(dt < 6 * 0.1 + IDMA_WAIT_S, "io_destroy took %.1f s", dt);
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0,
		    "not idle after io_destroy: dma_held %llu", (unsigned long long)b.dma_held);
	k = can ? 5 : 0;
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_cancelled) == k && IDMA_DELTA(a, b, dma_transfers) == 9 - k &&
		    IDMA_DELTA(a, b, dma_failed) == 0,
		    "cancelled %+lld transfers %+lld failed %+lld, want %d %d 0",
		    IDMA_DELTA(a, b, dma_cancelled), IDMA_DELTA(a, b, dma_transfers), IDMA_DELTA(a, b, dma_failed),
		    k, 9 - k);
	for (k = can ? 1 : 6; k < 6; k++)
		KTAP_EXPECT(bufs[k * idma_pg] == IDMA_UNTOUCHED && !memcmp(bufs + k * idma_pg, bufs + k * idma_pg + 1, 299),
			    "cancelled read %d wrote its buffer", k);
	return KTAP_PASS;
}

/*
 * io_uring_queue_exit() with three in flight: queued with the queue
 * held until the driver holds all three (two come from io-wq), then
 * let go, so that whether the exit or the device is quicker, all
 * three are in the driver when the ring goes.
 */
static int ring_exit_in_flight(int fd, unsigned char *bufs)
{
	struct demo_irqdev_stats a, b;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	double t0, dt;
	int r;

	KTAP_EXPECT(io_uring_queue_init(8, &ring, 0) == 0, "io_uring_queue_init");
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	uring_queue_reads(&ring, 3, fd, bufs);
	r = io_uring_submit(&ring);
	KTAP_EXPECT(r == 3, "io_uring_submit: %d", r);
	KTAP_EXPECT(io_uring_peek_cqe(&ring, &cqe) == -EAGAIN, "a CQE right after the submission");
	KTAP_EXPECT(wait_held(fd, 6, &b) == 0, "the driver never held all 3 requests (%llu pieces)",
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	t0 = ktap_now();
	io_uring_queue_exit(&ring);
	dt = ktap_now() - t0;
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0,
		    "not idle after the ring's exit: dma_held %llu",
		    (unsigned long long)b.dma_held);
	ktap_diag("io_uring_queue_exit with 3 requests in flight: %.3f s, idle after %.3f s", dt,
		  ktap_now() - t0);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == 6 && IDMA_DELTA(a, b, dma_irq_completions) == 3 &&
		    IDMA_DELTA(a, b, dma_failed) == 0,
		    "transfers %+lld completions %+lld failed %+lld, want 6 3 0",
		    IDMA_DELTA(a, b, dma_transfers), IDMA_DELTA(a, b, dma_irq_completions),
		    IDMA_DELTA(a, b, dma_failed));
	return KTAP_PASS;
}

/*
 * Requests in flight when their owner goes away:
 *  - a process exits with 8 io_submit requests, the first of four pieces
 *    on the wire (prep_reads()), the others queued: exit_aio() cancels
 *    these where the driver can, the one on the wire completes, and waits
 *    for them;
 *  - a process exits with 4 io_uring requests the driver holds (the
 *    first of four pieces): the exit need not wait (6.1 does not), the
 *    driver still completes them;
 *  - io_destroy() with 6 requests (the first of four pieces on the wire,
 *    the others queued; their file already closed: they hold it) cancels
 *    the queued ones where it can and returns once the rest are done;
 *  - io_uring_queue_exit() with 3 requests held returns at once, the
 *    driver still completes them.
 * The device's queue is held while they are submitted (exit_with_requests()
 * says why), so the counts checked do not depend on the machine's speed.
 * Each time the device ends idle (dma_held 0) with the counters consistent:
 * everything queued was transferred and completed or cancelled, nothing
 * failed; cancelled reads left their buffers alone.
 */
KTAP_TEST(teardown_in_flight, 120)
{
	struct demo_irqdev_stats a;
	unsigned char *bufs;
	int fd, can, part, r;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	can = a.dma_can_cancel;
	bufs = idma_arena(10);
	KTAP_EXPECT(bufs, "mmap");
	for (part = 0; part < 2; part++) {
		r = exit_in_flight(fd, can, part);
		if (r != KTAP_PASS)
			return r;
	}
	r = destroy_in_flight(fd, can, bufs);
	if (r == KTAP_PASS)
		r = ring_exit_in_flight(fd, bufs);
	if (r != KTAP_PASS)
		return r;
	close(fd);
	return KTAP_PASS;
}

struct sync_reader {
	int fd;
	struct iovec v[8];
	int n;
	ssize_t res;
	int err;
};

static void *sync_read(void *arg)
{
	struct sync_reader *s = arg;

	s->res = preadv(s->fd, s->v, s->n, 0);
	s->err = s->res < 0 ? errno : 0;
	return NULL;
}

/* What the steps of unbind_body share. */
struct unbind {
	int fd;
	io_context_t ctx;
	struct io_uring ring;
	struct sync_reader s1, s2;	/* eight pieces on the wire; one queued */
	pthread_t t1, t2;		/* their threads */
	struct iocb cb[5], *cbs[5];
	struct io_event ev[5];
	long ures[2];
	unsigned char *bufs;
	struct demo_irqdev_stats a;	/* before the first request */
	struct demo_irqdev_stats m;	/* when the first reached the device */
};

static int unbind_setup(struct unbind *u)
{
	unsigned char *big;
	int k;

	u->fd = idma_begin(1, &u->a);
	KTAP_EXPECT(u->fd >= 0, "device");
	KTAP_EXPECT(io_setup(16, &u->ctx) == 0, "io_setup");
	KTAP_EXPECT(io_uring_queue_init(8, &u->ring, 0) == 0, "io_uring_queue_init");
	big = idma_arena(8);
	u->bufs = idma_arena(8);
	KTAP_EXPECT(big && u->bufs, "mmap");
	KTAP_EXPECT(idma_dev_put(u->fd, 90, NULL) == 0, "fill the file");
	u->s1 = (struct sync_reader){ .fd = u->fd, .n = 8 };
	for (k = 0; k < 8; k++)
		u->s1.v[k] = (struct iovec){ big + k * idma_pg + 100, 500 };
	u->s2 = (struct sync_reader){ .fd = u->fd, .n = 1, .v[0] = { u->bufs + 7 * idma_pg, 200 } };
	u->ures[0] = LONG_MIN;
	u->ures[1] = LONG_MIN;
	KTAP_EXPECT(it_get_stats(u->fd, &u->a) == 0, "stats");
	return KTAP_PASS;
}

/* The first preadv(2) on the wire, the queue held, the second waiting for it. */
static int unbind_start_sync(struct unbind *u)
{
	KTAP_EXPECT(pthread_create(&u->t1, NULL, sync_read, &u->s1) == 0, "thread");
	KTAP_EXPECT(wait_reached(u->fd, &u->a, 1, 0, &u->m) == 0,
		    "the 8-piece preadv never reached the device");
	KTAP_EXPECT(idma_hold(u->fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	KTAP_EXPECT(pthread_create(&u->t2, NULL, sync_read, &u->s2) == 0, "thread");
	return KTAP_PASS;
}

/*
 * The io_submit and io_uring requests queued too, and the device holding
 * them all: KTAP_PASS, or KTAP_FAIL said, never a return before the end
 * (see unbind_body()).
 */
static int unbind_queue_rest(struct unbind *u)
{
	const struct demo_irqdev_stats a = u->a;
	struct demo_irqdev_stats m = u->m;	/* updated once all have reached it */
	int fd = u->fd, k, r, ret = KTAP_PASS;

	prep_reads(u->cb, u->cbs, 5, fd, u->bufs, false);
	r = io_submit(u->ctx, 5, u->cbs);
	if (r != 5) {
		ktap_diag("io_submit: %d", r);
		ret = KTAP_FAIL;
	}
	for (k = 0; k < 2; k++)
		io_uring_prep_read(uring_sqe_for(&u->ring, k), fd, u->bufs + (5 + k) * idma_pg, 300, 0);
	r = io_uring_submit(&u->ring);
	if (r != 2) {
		ktap_diag("io_uring_submit: %d", r);
		ret = KTAP_FAIL;
	}
	/* the io_uring ones reach the driver from io-wq (the device is busy) */
	if (ret == KTAP_PASS && wait_reached(fd, &u->a, 2, 7, &m)) {
		ktap_diag("not all 10 requests reached the device: synchronous %+lld, queued %+lld",
			  IDMA_DELTA(a, m, dma_sync_waits), IDMA_DELTA(a, m, dma_queued));
		ret = KTAP_FAIL;
	}
	/* one piece each queued; the first's eight until it is done, and only it can be */
	if (ret == KTAP_PASS &&
	    (IDMA_DELTA(a, m, dma_irq_completions) > 1 || (m.dma_held != 16 && m.dma_held != 8) ||
	     (m.dma_held == 8 && !IDMA_DELTA(a, m, dma_irq_completions)))) {
		ktap_diag("dma_held %llu, %lld done before the unbind: want 16 (8: the first done)",
			  (unsigned long long)m.dma_held, IDMA_DELTA(a, m, dma_irq_completions));
		ret = KTAP_FAIL;
	}
	ktap_diag("before the unbind: the first %s", IDMA_DELTA(a, m, dma_irq_completions) ?
		  "already done" : "on the wire");
	return ret;
}

/* After the unbind: the five events and the two CQEs. */
static int unbind_reap(struct unbind *u)
{
	struct timespec ts = { .tv_sec = IDMA_WAIT_S };
	int k, r, got;

	for (got = 0; got < 5; got += r) {
		r = io_getevents(u->ctx, 1, 5 - got, u->ev + got, &ts);
		KTAP_EXPECT(r > 0, "io_getevents after %d of 5 events: %d", got, r);
	}
	for (k = 0; k < 2; k++) {
		struct __kernel_timespec uts = { .tv_sec = IDMA_WAIT_S };
		struct io_uring_cqe *cqe;

		r = io_uring_wait_cqe_timeout(&u->ring, &cqe, &uts);
		KTAP_EXPECT(r == 0, "CQE %d after the unbind: %s", k, strerror(-r));
		KTAP_EXPECT(cqe->user_data < 2 && u->ures[cqe->user_data] == LONG_MIN, "CQE twice");
		u->ures[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(&u->ring, cqe);
	}
	return KTAP_PASS;
}

/* The one on the wire: its bytes or ENODEV/EIO; the queued ones and new ones: ENODEV. */
static int unbind_results(struct unbind *u)
{
	const struct sync_reader s1 = u->s1, s2 = u->s2;
	const struct io_event *ev = u->ev;
	const long *ures = u->ures;
	char buf[16];
	int k, r;

	ktap_diag("on the wire: preadv %zd (%s); queued: preadv %zd (%s), io_submit %ld %ld %ld %ld %ld, io_uring %ld %ld",
		  s1.res, strerror(s1.err), s2.res, strerror(s2.err), (long)ev[0].res,
		  (long)ev[1].res, (long)ev[2].res, (long)ev[3].res, (long)ev[4].res, ures[0],
		  ures[1]);
	KTAP_EXPECT(s1.res == 4000 || (s1.res > 0 && s1.res % 500 == 0) ||
		    (s1.res == -1 && (s1.err == ENODEV || s1.err == EIO)),
		    "the request on the wire: %zd (%s), want its bytes or ENODEV/EIO", s1.res,
		    strerror(s1.err));
	KTAP_EXPECT(s2.res == -1 && s2.err == ENODEV, "queued preadv(2): %zd (%s), want ENODEV",
		    s2.res, strerror(s2.err));
	for (k = 0; k < 5; k++)
		KTAP_EXPECT((long)ev[k].res == -ENODEV, "queued io_submit PREAD: res %ld, want -ENODEV",
			    (long)ev[k].res);
	for (k = 0; k < 2; k++)
		KTAP_EXPECT(ures[k] == -ENODEV, "queued io_uring READ: res %ld, want -ENODEV", ures[k]);
	errno = 0;
	r = pread(u->fd, buf, sizeof(buf), 0);
	KTAP_EXPECT(r == -1 && errno == ENODEV, "pread(2) on the unbound device: %d (%s), want ENODEV",
		    r, strerror(errno));
	return KTAP_PASS;
}

/*
 * In a child (so that every file of it is closed when it ends): requests on
 * /dev/demo_irqdev1, then the device unbound through sysfs. A synchronous
 * preadv(2) of eight pieces on the wire (800 ms), a synchronous one of one
 * piece queued behind it, five io_submit PREADs and two io_uring READs
 * queued: unbind returns within a bound; the queued ones complete with
 * -ENODEV (the synchronous one: -1 ENODEV); the one on the wire with its
 * bytes (all, or the whole pieces it moved) or -ENODEV/-EIO; a new request
 * on the old file fails with ENODEV; every pin is released. The queue is
 * held once the first is on the wire: the others stay queued until the
 * unbind, however slow the machine; the first may be done by then, which
 * the checks allow.
 */
static int unbind_body(const char *bdf)
{
	static struct unbind u;
	long long acq0 = -1, rel0 = -1, da, dr;
	bool pins = idma_read_pins(&acq0, &rel0) == 0;
	int r, ret;
	double t0, dt;

	r = unbind_setup(&u);
	if (r == KTAP_PASS)
		r = unbind_start_sync(&u);
	if (r != KTAP_PASS)
		return r;
	/*
	 * From here to the unbind a failure does not return: the second
	 * preadv(2) waits, unkillable, for the held queue; the unbind ends it.
	 */
	ret = unbind_queue_rest(&u);
	t0 = ktap_now();
	r = it_write_file(IT_DRIVER_DIR "/unbind", bdf);
	dt = ktap_now() - t0;
	ktap_diag("unbind %s with 10 requests in flight: %s after %.3f s", bdf,
		  r ? strerror(errno) : "done", dt);
	if (r)
		idma_hold(u.fd, 0);	/* still bound: let the queued ones run and end */
	KTAP_EXPECT(r == 0, "unbind");
	KTAP_EXPECT(dt < IDMA_WAIT_S, "unbind took %.1f s", dt);
	pthread_join(u.t1, NULL);
	pthread_join(u.t2, NULL);
	KTAP_EXPECT(ret == KTAP_PASS, "the requests were not all queued before the unbind");
	r = unbind_reap(&u);
	if (r == KTAP_PASS)
		r = unbind_results(&u);
	if (r != KTAP_PASS)
		return r;
	idma_close_with_rings(u.fd, u.ctx, &u.ring);
	if (pins) {
		r = idma_pins_settle(acq0, rel0, &da, &dr, IDMA_WAIT_S);
		ktap_diag("FOLL_PIN across the unbind: %lld taken, %lld released", da, dr);
		KTAP_EXPECT(r == 0, "%lld pins not released after the unbind", da - dr);
	}
	return KTAP_PASS;
}

/* Bind @bdf again; wait until it is /dev/demo_irqdev1 again. */
static int rebind(const char *bdf)
{
	char now[64];
	double t0 = ktap_now();

	if (!it_is_bound(bdf) && it_write_file(IT_DRIVER_DIR "/bind", bdf)) {
		ktap_diag("bind %s: %s", bdf, strerror(errno));
		return -1;
	}
	while (ktap_now() - t0 < IDMA_WAIT_S) {
		if (!it_dev_bdf(1, now, sizeof(now)) && !strcmp(now, bdf) &&
		    !access("/dev/" DEMO_IRQDEV_NAME "1", F_OK))
			return 0;
		usleep(10000);
	}
	ktap_diag("%s bound, but /dev/demo_irqdev1 is not it after %d s", bdf, IDMA_WAIT_S);
	return -1;
}

KTAP_TEST(unbind_in_flight, 120)
{
	struct demo_irqdev_stats s;
	unsigned char want[IDMA_DEV_SIZE], got[IDMA_DEV_SIZE];
	struct iovec v[2] = { { got, 1234 }, { got + 1234, IDMA_DEV_SIZE - 1234 } };
	io_context_t ctx = 0;
	struct iocb cb;
	char bdf[64];
	int fd, st, body;
	pid_t pid;
	long res;

	KTAP_EXPECT(it_dev_bdf(1, bdf, sizeof(bdf)) == 0, "device of demo_irqdev1: %s", strerror(errno));
	pid = fork();
	KTAP_EXPECT(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(unbind_body(bdf));
	KTAP_EXPECT(waitpid(pid, &st, 0) == pid, "waitpid");
	body = WIFEXITED(st) ? WEXITSTATUS(st) : KTAP_FAIL;
	/* rebind whatever happened: the next programs need both devices */
	KTAP_EXPECT(rebind(bdf) == 0, "rebind");
	KTAP_EXPECT(body == KTAP_PASS, "requests across the unbind failed (status %#x)", st);
	fd = it_dev_open(1, 0);
	KTAP_EXPECT(fd >= 0, "open after rebinding: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &s) == 0, "stats");
	KTAP_EXPECT(s.dma_transfers == 0 && s.dma_queued == 0 && s.dma_held == 0 && s.dma_failed == 0,
		    "counters of a new binding: transfers %llu queued %llu held %llu failed %llu",
		    (unsigned long long)s.dma_transfers, (unsigned long long)s.dma_queued,
		    (unsigned long long)s.dma_held, (unsigned long long)s.dma_failed);
	KTAP_EXPECT(idma_dev_put(fd, 91, want) == 0, "write after rebinding");
	KTAP_EXPECT(io_setup(4, &ctx) == 0, "io_setup");
	io_prep_preadv(&cb, fd, v, 2, 0);
	res = aio_submit_wait(ctx, &cb, IDMA_WAIT_S, NULL);
	KTAP_EXPECT(res == IDMA_DEV_SIZE && !memcmp(got, want, IDMA_DEV_SIZE),
		    "io_submit PREADV after rebinding: %ld", res);
	io_destroy(ctx);
	close(fd);
	return KTAP_PASS;
}

/*
 * rmmod with requests in flight: the open file and the requests it carries
 * hold the module, so rmmod is refused at once (the kernel's "in use"),
 * nothing is failed or lost, and the requests complete normally after.
 */
KTAP_TEST(rmmod_in_flight, 60)
{
	struct timespec ts = { .tv_sec = IDMA_WAIT_S };
	struct demo_irqdev_stats a, b;
	struct iocb cb[4], *cbs[4];
	struct io_event ev[4];
	io_context_t ctx = 0;
	unsigned char *bufs;
	int fd, k, r, st, got = 0;
	double t0, dt;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	bufs = idma_arena(10);
	KTAP_EXPECT(bufs, "mmap");
	KTAP_EXPECT(io_setup(4, &ctx) == 0, "io_setup");
	prep_reads(cb, cbs, 4, fd, bufs, false);
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(ctx, 4, cbs);
	KTAP_EXPECT(r == 4, "io_submit: %d", r);
	t0 = ktap_now();
	st = system("rmmod demo_irqdev 2>/dev/null");
	dt = ktap_now() - t0;
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	KTAP_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) != 0 && module_loaded("demo_irqdev"),
		    "rmmod with 4 requests in flight succeeded (status %#x)", st);
	ktap_diag("rmmod with 4 requests in flight refused in %.3f s", dt);
	/* Refused, not waiting for the held requests: that wait would never end. */
	KTAP_EXPECT(dt < IDMA_WAIT_S, "rmmod took %.1f s to be refused", dt);
	while (got < 4) {
		r = io_getevents(ctx, 1, 4 - got, ev, &ts);
		KTAP_EXPECT(r > 0, "%d of 4 events within %d s", got, IDMA_WAIT_S);
		for (k = 0; k < r; k++)
			KTAP_EXPECT((long)ev[k].res == 300, "res %ld, want 300", (long)ev[k].res);
		got += r;
	}
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0, "not idle: dma_held %llu",
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_queued) == 4 && IDMA_DELTA(a, b, dma_failed) == 0 &&
		    IDMA_DELTA(a, b, dma_irq_completions) == 4,
		    "queued %+lld failed %+lld completions %+lld, want 4 0 4",
		    IDMA_DELTA(a, b, dma_queued), IDMA_DELTA(a, b, dma_failed), IDMA_DELTA(a, b, dma_irq_completions));
	io_destroy(ctx);
	close(fd);
	return KTAP_PASS;
}

int main(void)
{
	return idma_main("irqdev_dma_teardown");
}
