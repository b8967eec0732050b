// SPDX-License-Identifier: GPL-2.0
/*
 * irqdev_dma_paths - one request by every path to /dev/demo_irqdev<N>
 * (irqdev_dma.h says what the device promises and how these tests wait):
 * the branches the driver reports are the matrix's, io_submit() and
 * io_uring requests complete from the interrupt and not before, every
 * write path's bytes read back by every read path, kernel_read() and
 * kernel_write(), and every pin a request took released.
 */
#include "irqdev_dma.h"
#include "kio_test.h"

#define DEV_PATH0	"/dev/" DEMO_IRQDEV_NAME "0"
#define FIXED_PAGES	4

static size_t iov_total(const struct iovec *v, int n)
{
	size_t t = 0;
	int k;

	for (k = 0; k < n; k++)
		t += v[k].iov_len;
	return t;
}

/* Copy @len bytes of @src into the segments. */
static void scatter(const struct iovec *v, int n, const unsigned char *src, size_t len)
{
	int k;

	for (k = 0; k < n && len; k++) {
		size_t l = v[k].iov_len < len ? v[k].iov_len : len;

		memcpy(v[k].iov_base, src, l);
		src += l;
		len -= l;
	}
}

static void iov_set(const struct iovec *v, int n, int c)
{
	int k;

	for (k = 0; k < n; k++)
		memset(v[k].iov_base, c, v[k].iov_len);
}

/* Are the segments' bytes after the first @from all IDMA_UNTOUCHED? */
static bool untouched_after(const struct iovec *v, int n, size_t from)
{
	int k;
	size_t j;

	for (k = 0; k < n; k++) {
		const unsigned char *p = v[k].iov_base;

		for (j = 0; j < v[k].iov_len; j++, from ? from-- : 0)
			if (!from && p[j] != IDMA_UNTOUCHED)
				return false;
	}
	return true;
}

/* ---- one request by every path ------------------------------------------ */

enum path {
	P_WRITE, P_PWRITE, P_WRITEV, P_PWRITEV, P_AIO_PWRITE, P_AIO_PWRITEV,
	P_URING_WRITE, P_URING_WRITEV, P_URING_WRITE_FIXED,
	P_READ, P_PREAD, P_READV, P_PREADV, P_AIO_PREAD, P_AIO_PREADV,
	P_URING_READ, P_URING_READV, P_URING_READ_FIXED,
};

enum { K_SYNC, K_AIO, K_URING };

static const struct path_info {
	const char *name;
	bool write;
	int kind;
	int segs;	/* 1: one buffer */
	bool fixed;	/* io_uring registered buffer */
	int uring_op;	/* K_URING: its IORING_OP_ */
} paths[] = {
	[P_WRITE]		= { "write(2)", true, K_SYNC, 1, false },
	[P_PWRITE]		= { "pwrite(2)", true, K_SYNC, 1, false },
	[P_WRITEV]		= { "writev(2)", true, K_SYNC, 3, false },
	[P_PWRITEV]		= { "pwritev(2)", true, K_SYNC, 4, false },
	[P_AIO_PWRITE]		= { "io_submit PWRITE", true, K_AIO, 1, false },
	[P_AIO_PWRITEV]		= { "io_submit PWRITEV", true, K_AIO, 3, false },
	[P_URING_WRITE]		= { "io_uring WRITE", true, K_URING, 1, false, IORING_OP_WRITE },
	[P_URING_WRITEV]	= { "io_uring WRITEV", true, K_URING, 2, false, IORING_OP_WRITEV },
	[P_URING_WRITE_FIXED]	= { "io_uring WRITE_FIXED", true, K_URING, 1, true, IORING_OP_WRITE_FIXED },
	[P_READ]		= { "read(2)", false, K_SYNC, 1, false },
	[P_PREAD]		= { "pread(2)", false, K_SYNC, 1, false },
	[P_READV]		= { "readv(2)", false, K_SYNC, 4, false },
	[P_PREADV]		= { "preadv(2)", false, K_SYNC, 3, false },
	[P_AIO_PREAD]		= { "io_submit PREAD", false, K_AIO, 1, false },
	[P_AIO_PREADV]		= { "io_submit PREADV", false, K_AIO, 3, false },
	[P_URING_READ]		= { "io_uring READ", false, K_URING, 1, false, IORING_OP_READ },
	[P_URING_READV]		= { "io_uring READV", false, K_URING, 2, false, IORING_OP_READV },
	[P_URING_READ_FIXED]	= { "io_uring READ_FIXED", false, K_URING, 1, true, IORING_OP_READ_FIXED },
};

/* One file, its aio context and ring, and what the requests cost the device. */
struct io {
	int fd;
	io_context_t aio;
	struct io_uring ring;
	bool ring_ok;
	unsigned char *a;	/* IDMA_ARENA_PAGES pages for the segments */
	unsigned char *fixed;	/* FIXED_PAGES pages, registered as buffer 0 */
	unsigned long long sync, async, pieces, bytes;
};

static int io_init(struct io *io, int fd)
{
	struct iovec reg;
	int r;

	memset(io, 0, sizeof(*io));
	io->fd = fd;
	r = io_setup(64, &io->aio);
	if (r) {
		ktap_diag("io_setup: %s", strerror(-r));
		return -1;
	}
	io->a = idma_arena(IDMA_ARENA_PAGES);
	io->fixed = idma_arena(FIXED_PAGES);
	if (!io->a || !io->fixed) {
		ktap_diag("mmap: %s", strerror(errno));
		return -1;
	}
	r = io_uring_queue_init(8, &io->ring, 0);
	if (r) {
		ktap_diag("io_uring_queue_init: %s", strerror(-r));
		return -1;
	}
	io->ring_ok = true;
	reg = (struct iovec){ io->fixed, FIXED_PAGES * idma_pg };
	r = io_uring_register_buffers(&io->ring, &reg, 1);
	if (r) {
		ktap_diag("io_uring_register_buffers: %s", strerror(-r));
		return -1;
	}
	return 0;
}

static void io_fini(struct io *io)
{
	if (io->ring_ok)
		io_uring_queue_exit(&io->ring);
	io->ring_ok = false;
	if (io->aio)
		io_destroy(io->aio);
	io->aio = 0;
}

/* Segments for @len bytes by path @p (its number of segments, in io's memory). */
static int io_layout(struct io *io, enum path p, struct iovec *v, size_t len, unsigned int salt)
{
	const struct path_info *pi = &paths[p];

	if (pi->fixed) {
		v[0] = (struct iovec){ io->fixed + idma_pg - 3 - salt % 5, len };
		return 1;
	}
	if (pi->segs == 1) {
		v[0] = (struct iovec){ io->a + idma_pg - 1 - (salt * 37) % 300, len };
		return 1;
	}
	idma_layout(v, pi->segs, io->a, len, salt);
	return pi->segs;
}

/*
 * The request @pi names, unsubmitted: in *@cb for io_submit(), or in the
 * ring's next SQE (IORING_OP_*_FIXED: in the ring's one registered buffer).
 */
static void prep_async(struct io *io, const struct path_info *pi, struct iocb *cb,
		       const struct iovec *v, int n, off_t off)
{
	bool one = pi->segs == 1;

	if (pi->kind == K_AIO && one)
		(pi->write ? io_prep_pwrite : io_prep_pread)(cb, io->fd, v[0].iov_base,
							     v[0].iov_len, off);
	else if (pi->kind == K_AIO)
		(pi->write ? io_prep_pwritev : io_prep_preadv)(cb, io->fd, v, n, off);
	else
		io_uring_prep_rw(pi->uring_op, uring_sqe_for(&io->ring, 0), io->fd,
				 one ? v[0].iov_base : (const void *)v,
				 one ? v[0].iov_len : (unsigned int)n, off);
}

/*
 * One request by @p at @off over v[0..n), waited for: bytes or -errno,
 * LONG_MIN when the machinery failed (explained). read/write/readv/writev
 * seek first and check the file position moved by the result. Counts what
 * the device should have done for a request that moved bytes.
 */
static long xfer(struct io *io, enum path p, const struct iovec *v, int n, off_t off)
{
	const struct path_info *pi = &paths[p];
	struct iocb cb;
	long r = LONG_MIN;
	bool seeks = p == P_WRITE || p == P_WRITEV || p == P_READ || p == P_READV;

	if (seeks && lseek(io->fd, off, SEEK_SET) != off) {
		ktap_diag("lseek to %lld: %s (a file with a size needs llseek)", (long long)off,
			  strerror(errno));
		return LONG_MIN;
	}
	switch (p) {
	case P_WRITE:	r = write(io->fd, v[0].iov_base, v[0].iov_len); break;
	case P_PWRITE:	r = pwrite(io->fd, v[0].iov_base, v[0].iov_len, off); break;
	case P_WRITEV:	r = writev(io->fd, v, n); break;
	case P_PWRITEV:	r = pwritev(io->fd, v, n, off); break;
	case P_READ:	r = read(io->fd, v[0].iov_base, v[0].iov_len); break;
	case P_PREAD:	r = pread(io->fd, v[0].iov_base, v[0].iov_len, off); break;
	case P_READV:	r = readv(io->fd, v, n); break;
	case P_PREADV:	r = preadv(io->fd, v, n, off); break;
	default:
		prep_async(io, pi, &cb, v, n, off);
		break;
	}
	if (pi->kind == K_SYNC && r < 0)
		r = -errno;
	if (pi->kind == K_AIO)
		r = aio_submit_wait(io->aio, &cb, IDMA_WAIT_S, NULL);
	if (pi->kind == K_URING) {
		r = LONG_MIN;
		if (uring_reap(&io->ring, 1, &r, IDMA_WAIT_S))
			r = LONG_MIN;
	}
	if (r == LONG_MIN)
		return r;
	if (seeks && r >= 0 && lseek(io->fd, 0, SEEK_CUR) != off + r) {
		ktap_diag("%s of %zu at %lld returned %ld, file position %lld", pi->name,
			  iov_total(v, n), (long long)off, r, (long long)lseek(io->fd, 0, SEEK_CUR));
		return LONG_MIN;
	}
	if (r > 0) {
		io->pieces += idma_pieces(v, n, r);
		io->bytes += r;
		if (pi->kind == K_SYNC)
			io->sync++;
		else
			io->async++;
	}
	return r;
}

/* ---- tests ---------------------------------------------------------------- */

/*
 * The completion, pinning and cancel branches the driver reports (on both
 * devices) are the ones the matrix states for this kernel.
 */
KTAP_TEST(branches_match_matrix, 30)
{
	static const struct { const char *fact, *value; unsigned int kind; } want[] = {
		{ "dma_complete", "ki_complete2", 3 },
		{ "dma_complete", "ki_complete3", 2 },
		{ "dma_pin", "extract", 2 },
		{ "dma_pin", "pin_user", 1 },
		{ "dma_cancel", "yes", 1 },
		{ "dma_cancel", "no", 0 },
	};
	static const char *const facts[] = { "dma_complete", "dma_pin", "dma_cancel" };
	struct demo_irqdev_stats s[2];
	int fd[2], k, f;
	size_t i;

	for (k = 0; k < 2; k++) {
		fd[k] = it_dev_open(k, 0);
		KTAP_EXPECT(fd[k] >= 0, "open /dev/demo_irqdev%d: %s", k, strerror(errno));
		KTAP_EXPECT(it_get_stats(fd[k], &s[k]) == 0, "stats: %s", strerror(errno));
		close(fd[k]);
	}
	idma_branch_diag(&s[0]);
	KTAP_EXPECT(s[0].dma_complete_kind == s[1].dma_complete_kind &&
		    s[0].dma_pin_kind == s[1].dma_pin_kind &&
		    s[0].dma_can_cancel == s[1].dma_can_cancel,
		    "the two devices report different branches (%u/%u/%u, %u/%u/%u)",
		    s[0].dma_complete_kind, s[0].dma_pin_kind, s[0].dma_can_cancel,
		    s[1].dma_complete_kind, s[1].dma_pin_kind, s[1].dma_can_cancel);
	for (f = 0; f < 3; f++) {
		const char *v = ktap_fact(facts[f]);
		unsigned int have = f == 0 ? s[0].dma_complete_kind :
				    f == 1 ? s[0].dma_pin_kind : s[0].dma_can_cancel;
		char value[64];
		bool known = false;

		KTAP_EXPECT(v, "the matrix states no %s fact for %s", facts[f], ktap_kernel());
		snprintf(value, sizeof(value), "%s", v);
		for (i = 0; i < KTAP_ARRAY_SIZE(want); i++) {
			if (strcmp(want[i].fact, facts[f]) || strcmp(want[i].value, value))
				continue;
			known = true;
			KTAP_EXPECT(have == want[i].kind, "%s=%s: the driver reports %u, want %u",
				    facts[f], value, have, want[i].kind);
		}
		KTAP_EXPECT(known, "%s=%s: a value this test does not know", facts[f], value);
		ktap_diag("matrix %s=%s: driver %u", facts[f], value, have);
	}
	return KTAP_PASS;
}

/*
 * What a read held in the queue needs: the file filled with pattern @pass
 * (a copy in @want), @nseg segments for @len bytes in a fresh arena
 * (layout @salt) set to IDMA_UNTOUCHED, and in *@np the pieces they make.
 */
static int held_read_prepare(int fd, unsigned char *want, unsigned int pass, struct iovec *v,
			     int nseg, size_t len, unsigned int salt, unsigned int *np)
{
	unsigned char *ar = idma_arena(IDMA_ARENA_PAGES);

	KTAP_EXPECT(ar, "mmap");
	KTAP_EXPECT(idma_dev_put(fd, pass, want) == 0, "fill the file");
	idma_layout(v, nseg, ar, len, salt);
	*np = idma_pieces(v, nseg, len);
	iov_set(v, nseg, IDMA_UNTOUCHED);
	return KTAP_PASS;
}

/*
 * io_submit() of one PREADV over three segments in as many pages or more:
 * no event right after the submission (the first transfer alone takes 100
 * ms) while the driver holds every piece; then the event, res = bytes,
 * completed by the interrupt handler after exactly one transfer per piece.
 */
KTAP_TEST(async_not_before_irq, 60)
{
	struct timespec zero = { 0 }, ts = { .tv_sec = IDMA_WAIT_S };
	struct demo_irqdev_stats a, m, b;
	unsigned char want[IDMA_DEV_SIZE], got[IDMA_DEV_SIZE];
	struct iocb cb, *cbs[1] = { &cb };
	io_context_t ctx = 0;
	struct io_event ev;
	struct iovec v[3];
	unsigned int np;
	const off_t off = 555;
	const size_t len = 3001;
	double t0, gap;
	int fd, r;
	long d;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(io_setup(8, &ctx) == 0, "io_setup");
	r = held_read_prepare(fd, want, 20, v, 3, len, 1, &np);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	io_prep_preadv(&cb, fd, v, 3, off);
	cb.data = &cb;
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	t0 = ktap_now();
	r = io_submit(ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	r = io_getevents(ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0, "an event (%d, res %ld) right after io_submit: completed in the method",
		    r, r == 1 ? (long)ev.res : 0);
	KTAP_EXPECT(it_get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_queued) == 1, "dma_queued moved by %lld, want 1",
		    IDMA_DELTA(a, m, dma_queued));
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_irq_completions) == 0, "completed already (%lld)",
		    IDMA_DELTA(a, m, dma_irq_completions));
	KTAP_EXPECT(m.dma_held == np, "dma_held %llu while queued, want %u pieces",
		    (unsigned long long)m.dma_held, np);
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	r = io_getevents(ctx, 1, 1, &ev, &ts);
	gap = ktap_now() - t0;
	KTAP_EXPECT(r == 1, "no event within %d s: %d", IDMA_WAIT_S, r);
	KTAP_EXPECT(ev.obj == &cb && ev.data == &cb, "event for %p, want %p", (void *)ev.obj,
		    (void *)&cb);
	KTAP_EXPECT((long)ev.res == (long)len && ev.res2 == 0, "res %ld res2 %ld, want %zu",
		    (long)ev.res, (long)ev.res2, len);
	idma_gather(got, v, 3, len);
	d = idma_first_diff(got, want + off, len);
	KTAP_EXPECT(d < 0, "PREADV data differs at file offset %lld", (long long)(off + d));
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	ktap_diag("PREADV of %zu bytes in %u pieces: submit to event %.3f s", len, np, gap);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_irq_completions) == 1 && IDMA_DELTA(a, b, dma_queued) == 1 &&
		    IDMA_DELTA(a, b, dma_sync_waits) == 0,
		    "irq_completions %+lld queued %+lld sync_waits %+lld, want +1 +1 +0",
		    IDMA_DELTA(a, b, dma_irq_completions), IDMA_DELTA(a, b, dma_queued),
		    IDMA_DELTA(a, b, dma_sync_waits));
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == np, "dma_transfers %+lld, want %u (one per piece)",
		    IDMA_DELTA(a, b, dma_transfers), np);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_bytes) == (long long)len, "dma_bytes %+lld, want %zu",
		    IDMA_DELTA(a, b, dma_bytes), len);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu after the event", (unsigned long long)b.dma_held);
	io_destroy(ctx);
	close(fd);
	return KTAP_PASS;
}

/* The same with io_uring READV: no CQE right after the submission. */
KTAP_TEST(uring_not_before_irq, 60)
{
	struct __kernel_timespec ts = { .tv_sec = IDMA_WAIT_S };
	struct demo_irqdev_stats a, m, b;
	unsigned char want[IDMA_DEV_SIZE], got[IDMA_DEV_SIZE];
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	struct iovec v[2];
	const off_t off = 77;
	const size_t len = 3999;
	unsigned int np;
	double t0, gap;
	int fd, r, res;
	long d;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(io_uring_queue_init(8, &ring, 0) == 0, "io_uring_queue_init");
	r = held_read_prepare(fd, want, 21, v, 2, len, 2, &np);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(idma_wait_idle(fd, &a, IDMA_WAIT_S) == 0, "not idle after pwrite(2)");
	io_uring_prep_readv(uring_sqe_for(&ring, 42), fd, v, 2, off);
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	t0 = ktap_now();
	r = io_uring_submit(&ring);
	KTAP_EXPECT(r == 1, "io_uring_submit: %d", r);
	r = io_uring_peek_cqe(&ring, &cqe);
	KTAP_EXPECT(r == -EAGAIN, "a CQE (res %d) right after the submission: completed in the method",
		    r ? 0 : cqe->res);
	/*
	 * io_uring tries without blocking first (IOCB_NOWAIT); the device is
	 * idle, so the driver must queue it then and there, not refuse it
	 * (io-wq would retry it, later).
	 */
	KTAP_EXPECT(it_get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_eagain) == 0, "io_uring's nowait attempt refused on an idle device");
	KTAP_EXPECT(IDMA_DELTA(a, m, dma_queued) == 1 && IDMA_DELTA(a, m, dma_irq_completions) == 0,
		    "queued %+lld, completed %+lld right after the submission, want +1, +0",
		    IDMA_DELTA(a, m, dma_queued), IDMA_DELTA(a, m, dma_irq_completions));
	KTAP_EXPECT(m.dma_held == np, "dma_held %llu while queued, want %u",
		    (unsigned long long)m.dma_held, np);
	KTAP_EXPECT(io_uring_peek_cqe(&ring, &cqe) == -EAGAIN, "a CQE while the queue is held");
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	r = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	gap = ktap_now() - t0;
	KTAP_EXPECT(r == 0, "no CQE within %d s: %s", IDMA_WAIT_S, strerror(-r));
	res = cqe->res;
	KTAP_EXPECT(cqe->user_data == 42, "CQE user_data %llu", (unsigned long long)cqe->user_data);
	io_uring_cqe_seen(&ring, cqe);
	KTAP_EXPECT(res == (int)len, "READV res %d, want %zu", res, len);
	idma_gather(got, v, 2, len);
	d = idma_first_diff(got, want + off, len);
	KTAP_EXPECT(d < 0, "READV data differs at file offset %lld", (long long)(off + d));
	KTAP_EXPECT(io_uring_peek_cqe(&ring, &cqe) == -EAGAIN, "a second CQE");
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	ktap_diag("io_uring READV of %zu bytes in %u pieces: submit to CQE %.3f s", len, np, gap);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_irq_completions) == 1 && IDMA_DELTA(a, b, dma_queued) == 1,
		    "irq_completions %+lld queued %+lld, want +1 +1",
		    IDMA_DELTA(a, b, dma_irq_completions), IDMA_DELTA(a, b, dma_queued));
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == np, "dma_transfers %+lld, want %u",
		    IDMA_DELTA(a, b, dma_transfers), np);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu after the CQE", (unsigned long long)b.dma_held);
	io_uring_queue_exit(&ring);
	close(fd);
	return KTAP_PASS;
}

/*
 * Every write path puts one region of the file (odd offsets and lengths,
 * together the whole file), then every read path reads the whole
 * file back in two requests cut at an odd offset, the second running past
 * the end (short). Two rounds with a new pass and the regions rotated among
 * the writers: every reader sees every writer's bytes, stale bytes of the
 * last pass show. The device must have done exactly one transfer per piece
 * of every request, synchronous ones waited for in the method, the others
 * queued, all completed by the interrupt handler.
 */
#define NR_REGIONS 9

static const unsigned int rt_cuts[2][NR_REGIONS + 1] = {
	{ 0, 1, 517, 1030, 1555, 2049, 2611, 3333, 3900, IDMA_DEV_SIZE },
	{ 0, 263, 777, 1201, 2047, 2500, 3071, 3584, 4001, IDMA_DEV_SIZE },
};

static const enum path rt_writers[NR_REGIONS] = {
	P_WRITE, P_PWRITE, P_WRITEV, P_PWRITEV, P_AIO_PWRITE, P_AIO_PWRITEV,
	P_URING_WRITE, P_URING_WRITEV, P_URING_WRITE_FIXED,
};

static const enum path rt_readers[] = {
	P_READ, P_PREAD, P_READV, P_PREADV, P_AIO_PREAD, P_AIO_PREADV,
	P_URING_READ, P_URING_READV, P_URING_READ_FIXED,
};

/* What the rounds of roundtrip_all_paths share. */
struct roundtrip {
	struct io io;
	struct iovec v[4];
	unsigned int salt;		/* of the next request's layout */
	unsigned char want[IDMA_DEV_SIZE];
	int writer_of[IDMA_DEV_SIZE];	/* the path that wrote each byte last */
};

/* Round @round's writes: each writer puts its region, pattern @pass. */
static int roundtrip_write(struct roundtrip *rt, unsigned int round, unsigned int pass)
{
	unsigned char src[IDMA_DEV_SIZE];
	unsigned int w, k;
	int n;
	long r;

	for (w = 0; w < NR_REGIONS; w++) {
		unsigned int region = (w + 4 * round) % NR_REGIONS;
		unsigned int off = rt_cuts[round][region];
		size_t len = rt_cuts[round][region + 1] - off;

		n = io_layout(&rt->io, rt_writers[w], rt->v, len, rt->salt++);
		idma_pat_fill(src, off, len, pass);
		scatter(rt->v, n, src, len);
		r = xfer(&rt->io, rt_writers[w], rt->v, n, off);
		KTAP_EXPECT(r == (long)len, "round %u: %s of %zu bytes at %u: %ld (%s)", round,
			    paths[rt_writers[w]].name, len, off, r,
			    r < 0 && r != LONG_MIN ? strerror(-r) : "count");
		memcpy(rt->want + off, src, len);
		for (k = off; k < off + len; k++)
			rt->writer_of[k] = rt_writers[w];
	}
	return KTAP_PASS;
}

/*
 * Round @round's reads: each reader reads the whole file back in two
 * requests, the second short at the end; a byte of pass @pass - 1 is stale.
 */
static int roundtrip_read(struct roundtrip *rt, unsigned int round, unsigned int pass)
{
	unsigned char got[IDMA_DEV_SIZE];
	struct iovec *v = rt->v;
	unsigned int k;
	int n;
	long r, d;

	for (k = 0; k < KTAP_ARRAY_SIZE(rt_readers); k++) {
		enum path p = rt_readers[k];
		unsigned int cut = 1 + (k * 409 + round * 211) % 4001;
		size_t len2 = IDMA_DEV_SIZE - cut + 77;

		memset(got, 0, sizeof(got));
		/* [0, cut) */
		n = io_layout(&rt->io, p, v, cut, rt->salt++);
		iov_set(v, n, IDMA_UNTOUCHED);
		r = xfer(&rt->io, p, v, n, 0);
		KTAP_EXPECT(r == (long)cut, "round %u: %s of %u bytes at 0: %ld", round,
			    paths[p].name, cut, r);
		KTAP_EXPECT(untouched_after(v, n, cut), "%s wrote past its result", paths[p].name);
		idma_gather(got, v, n, cut);
		/* [cut, end + 77): short at the end of the file */
		n = io_layout(&rt->io, p, v, len2, rt->salt++);
		iov_set(v, n, IDMA_UNTOUCHED);
		r = xfer(&rt->io, p, v, n, cut);
		KTAP_EXPECT(r == (long)(IDMA_DEV_SIZE - cut),
			    "round %u: %s of %zu bytes at %u: %ld, want %u (short at the end)",
			    round, paths[p].name, len2, cut, r, IDMA_DEV_SIZE - cut);
		KTAP_EXPECT(untouched_after(v, n, IDMA_DEV_SIZE - cut),
			    "%s across the end wrote past its result", paths[p].name);
		idma_gather(got + cut, v, n, IDMA_DEV_SIZE - cut);
		d = idma_first_diff(got, rt->want, IDMA_DEV_SIZE);
		KTAP_EXPECT(d < 0, "round %u: %s read %#x at offset %ld, %s wrote %#x there%s",
			    round, paths[p].name, got[d], d, paths[rt->writer_of[d]].name,
			    rt->want[d],
			    got[d] == idma_pat(d, pass - 1) ? " (the previous pass: stale)" : "");
	}
	return KTAP_PASS;
}

/*
 * What the requests of @io cost the device from @a to @b: one transfer a
 * piece, synchronous ones waited for, the others queued, all completed by
 * the interrupt handler and its thread.
 */
static int roundtrip_costs(const struct io *io, const struct demo_irqdev_stats *pa,
			   const struct demo_irqdev_stats *pb)
{
	const struct demo_irqdev_stats a = *pa, b = *pb;

	KTAP_EXPECT(IDMA_DELTA(a, b, dma_transfers) == (long long)io->pieces,
		    "dma_transfers %+lld, want %llu: not every byte moved by DMA, one piece each",
		    IDMA_DELTA(a, b, dma_transfers), io->pieces);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_bytes) == (long long)io->bytes, "dma_bytes %+lld, want %llu",
		    IDMA_DELTA(a, b, dma_bytes), io->bytes);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_sync_waits) == (long long)io->sync,
		    "dma_sync_waits %+lld, want %llu", IDMA_DELTA(a, b, dma_sync_waits), io->sync);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_queued) == (long long)io->async, "dma_queued %+lld, want %llu",
		    IDMA_DELTA(a, b, dma_queued), io->async);
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_irq_completions) == (long long)(io->sync + io->async),
		    "dma_irq_completions %+lld, want %llu", IDMA_DELTA(a, b, dma_irq_completions),
		    io->sync + io->async);
	/* The handler hands every finished request to its thread, which completes it. */
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_thread_completions) == IDMA_DELTA(a, b, dma_irq_completions),
		    "the IRQ thread completed %+lld of %+lld requests",
		    IDMA_DELTA(a, b, dma_thread_completions), IDMA_DELTA(a, b, dma_irq_completions));
	KTAP_EXPECT(IDMA_DELTA(a, b, thread_calls) > 0 && IDMA_DELTA(a, b, thread_regs_set) == 0,
		    "irq_compat_regs() in the IRQ thread: not NULL in %lld of %lld runs",
		    IDMA_DELTA(a, b, thread_regs_set), IDMA_DELTA(a, b, thread_calls));
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_failed) == 0 && IDMA_DELTA(a, b, dma_cancelled) == 0,
		    "failed %+lld cancelled %+lld", IDMA_DELTA(a, b, dma_failed), IDMA_DELTA(a, b, dma_cancelled));
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	return KTAP_PASS;
}

KTAP_TEST(roundtrip_all_paths, 120)
{
	static struct roundtrip rt = { .salt = 3 };
	struct demo_irqdev_stats a, b;
	unsigned int round;
	double t0 = ktap_now();
	int fd, r;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(io_init(&rt.io, fd) == 0, "setup");
	KTAP_EXPECT(idma_dev_put(fd, 29, rt.want) == 0, "fill the file");
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	for (round = 0; round < 2; round++) {
		unsigned int pass = 30 + round;

		r = roundtrip_write(&rt, round, pass);
		if (r == KTAP_PASS)
			r = roundtrip_read(&rt, round, pass);
		if (r != KTAP_PASS)
			return r;
		ktap_diag("round %u: %d writers, %zu readers agree (cuts at %u..%u)", round,
			  NR_REGIONS, KTAP_ARRAY_SIZE(rt_readers), rt_cuts[round][1],
			  rt_cuts[round][NR_REGIONS - 1]);
	}
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	ktap_diag("%llu synchronous and %llu queued requests, %llu idma_pieces (%lld bounced), %llu bytes in %.1f s",
		  rt.io.sync, rt.io.async, rt.io.pieces, IDMA_DELTA(a, b, dma_bounced), rt.io.bytes,
		  ktap_now() - t0);
	r = roundtrip_costs(&rt.io, &a, &b);
	if (r != KTAP_PASS)
		return r;
	io_fini(&rt.io);
	close(fd);
	return KTAP_PASS;
}

/*
 * kernel_read()/kernel_write() (ITER_KVEC, synchronous): queued and waited
 * for inside the method like read(2), from and into the test module's
 * kernel buffer, kmalloc()ed and then vmalloc()ed (whose page the driver
 * must look up with vmalloc_to_page(): virt_to_page() would name another).
 */
KTAP_TEST(kernel_read_write, 60)
{
	static unsigned char src[3000], got[3000], want[IDMA_DEV_SIZE];
	struct demo_irqdev_stats a, b;
	long long pa = 0;
	long r;
	int fd;

	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(kio_open() == 0, "test module");
	KTAP_EXPECT(idma_dev_put(fd, 90, want) == 0, "fill the file");
	idma_pat_fill(src, 333, sizeof(src), 91);
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	r = kio(DEV_PATH0, 1, src, sizeof(src), 333, &pa);
	KTAP_EXPECT(r == (long)sizeof(src) && pa == 333 + (long long)sizeof(src),
		    "kernel_write: %ld, pos %lld", r, pa);
	r = kio(DEV_PATH0, 0, got, 100, 333, &pa);
	KTAP_EXPECT(r == 100 && !memcmp(got, src, 100), "kernel_read of 100: %ld", r);
	r = kio(DEV_PATH0, 0, got, sizeof(got), 333, &pa);
	KTAP_EXPECT(r == (long)sizeof(got) && !memcmp(got, src, sizeof(got)),
		    "kernel_read of %zu: %ld", sizeof(got), r);
	r = kio(DEV_PATH0, 0, got, sizeof(got), IDMA_DEV_SIZE - 10, NULL);
	KTAP_EXPECT(r == 10, "kernel_read across the end: %ld", r);
	r = kio(DEV_PATH0, 1, src, 10, IDMA_DEV_SIZE, NULL);
	KTAP_EXPECT(r == -ENOSPC, "kernel_write at the end: %ld", r);
	r = kio(DEV_PATH0, 1, src, 0, IDMA_DEV_SIZE, NULL);
	KTAP_EXPECT(r == 0, "kernel_write of nothing at the end: %ld", r);
	idma_pat_fill(src, 77, sizeof(src), 92);
	r = kio_with(IRQAIO_KIO_VMALLOC, DEV_PATH0, 1, src, sizeof(src), 77, NULL);
	KTAP_EXPECT(r == (long)sizeof(src), "kernel_write from vmalloc()ed memory: %ld", r);
	memset(got, 0, sizeof(got));
	r = kio_with(IRQAIO_KIO_VMALLOC, DEV_PATH0, 0, got, sizeof(got), 77, NULL);
	KTAP_EXPECT(r == (long)sizeof(got) && !memcmp(got, src, sizeof(got)),
		    "kernel_read into vmalloc()ed memory: %ld, data %s", r,
		    memcmp(got, src, sizeof(got)) ? "differs" : "same");
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(IDMA_DELTA(a, b, dma_sync_waits) == 6 && IDMA_DELTA(a, b, dma_queued) == 0,
		    "sync waits %+lld queued %+lld, want +6 +0", IDMA_DELTA(a, b, dma_sync_waits),
		    IDMA_DELTA(a, b, dma_queued));
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	close(fd);
	return kio_close() ? KTAP_FAIL : KTAP_PASS;
}

/* One request by each of several paths; the pieces the registered buffer moved. */
static int pins_some_paths(struct io *io, unsigned long long *fixed_pieces)
{
	static const enum path some[] = {
		P_PREADV, P_WRITEV, P_AIO_PREADV, P_AIO_PWRITE, P_URING_READV,
		P_URING_WRITE, P_URING_READ_FIXED, P_URING_WRITE_FIXED,
	};
	struct iovec v[4];
	unsigned long long p0;
	size_t i;
	long res;

	for (i = 0; i < KTAP_ARRAY_SIZE(some); i++) {
		int n = io_layout(io, some[i], v, 1000 + 333 * i, i);

		p0 = io->pieces;
		res = xfer(io, some[i], v, n, 7 * i);
		KTAP_EXPECT(res == (long)(1000 + 333 * i), "%s: %ld", paths[some[i]].name, res);
		if (paths[some[i]].fixed)
			*fixed_pieces += io->pieces - p0;
	}
	return KTAP_PASS;
}

/* Short at a read-only second segment @ro; refused at a read-only first one. */
static int pins_bad_segments(struct io *io, unsigned char *ro)
{
	struct iovec bad[2];
	long res;

	bad[0] = (struct iovec){ io->a + idma_pg - 10, 300 };
	bad[1] = (struct iovec){ ro, 100 };
	res = xfer(io, P_AIO_PREADV, bad, 2, 0);
	KTAP_EXPECT(res == 300, "io_submit PREADV, second segment read-only: %ld, want 300", res);
	res = xfer(io, P_READV, bad, 2, 0);
	KTAP_EXPECT(res == 300, "readv(2), second segment read-only: %ld, want 300", res);
	bad[0] = (struct iovec){ ro, 100 };
	bad[1] = (struct iovec){ io->a + idma_pg - 10, 300 };
	res = xfer(io, P_PREADV, bad, 2, 0);
	KTAP_EXPECT(res == -EFAULT, "preadv(2), first segment read-only: %ld, want -EFAULT", res);
	return KTAP_PASS;
}

/*
 * Four queued (the queue held: none starts), the last two cancelled where
 * the driver can; the pieces they hold in *@batch.
 */
static int pins_queued(struct io *io, unsigned char *bufs, unsigned long long *batch)
{
	struct timespec zero = { 0 }, ts = { .tv_sec = IDMA_WAIT_S };
	struct demo_irqdev_stats a, m;
	struct iocb cb[4], *cbs[4];
	struct io_event ev[4], dummy;
	int fd = io->fd, k, r, got;

	for (k = 0; k < 4; k++) {
		io_prep_pread(&cb[k], fd, bufs + k * idma_pg + idma_pg - 100, 300, k * 300);
		cbs[k] = &cb[k];
		*batch += 2;
	}
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(idma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(io->aio, 4, cbs);
	KTAP_EXPECT(r == 4, "io_submit: %d", r);
	KTAP_EXPECT(io_getevents(io->aio, 0, 4, ev, &zero) == 0, "events right after io_submit");
	KTAP_EXPECT(it_get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(m.dma_held == *batch,
		    "dma_held %llu with 4 requests of 2 pieces waiting, want %llu",
		    (unsigned long long)m.dma_held, *batch);
	io_cancel(io->aio, &cb[3], &dummy);
	io_cancel(io->aio, &cb[2], &dummy);
	KTAP_EXPECT(idma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	for (got = 0; got < 4; got += r) {
		r = io_getevents(io->aio, 1, 4 - got, ev, &ts);
		KTAP_EXPECT(r > 0, "io_getevents: %d", r);
	}
	return KTAP_PASS;
}

/*
 * Every pin the requests took is released once they are done (vmstat's
 * nr_foll_pin_acquired - nr_foll_pin_released back where it was), whatever
 * the path: synchronous, io_submit, io_uring with user and registered
 * buffers, a read short at a fault (second segment read-only), one refused
 * with EFAULT after its first segment could be pinned, requests cancelled
 * while queued; stats.dma_held is 0 when idle and counts every piece while
 * requests wait.
 */
KTAP_TEST(pins_released, 60)
{
	struct demo_irqdev_stats a, b;
	long long acq0, rel0, da, dr;
	unsigned long long user_pieces, fixed_pieces = 0, batch = 0;
	unsigned char *ro, *bufs;
	struct io io;
	int fd, r;

	if (idma_read_pins(&acq0, &rel0)) {
		ktap_diag("/proc/vmstat has no nr_foll_pin_acquired/released");
		return KTAP_SKIP;
	}
	fd = idma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(idma_dev_put(fd, 80, NULL) == 0, "fill the file");
	KTAP_EXPECT(idma_read_pins(&acq0, &rel0) == 0, "vmstat");
	KTAP_EXPECT(io_init(&io, fd) == 0, "setup");	/* registers FIXED_PAGES */
	ro = mmap(NULL, idma_pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bufs = idma_arena(5);	/* the fourth buffer runs into a fifth page */
	KTAP_EXPECT(ro != MAP_FAILED && bufs, "mmap");
	r = pins_some_paths(&io, &fixed_pieces);
	if (r == KTAP_PASS)
		r = pins_bad_segments(&io, ro);
	if (r == KTAP_PASS)
		r = pins_queued(&io, bufs, &batch);
	if (r != KTAP_PASS)
		return r;
	/* pinned at submission, cancelled or not */
	user_pieces = io.pieces - fixed_pieces + batch;
	r = io_uring_unregister_buffers(&io.ring);
	KTAP_EXPECT(r == 0, "io_uring_unregister_buffers: %s", strerror(-r));
	io_fini(&io);
	KTAP_EXPECT(idma_wait_idle(fd, &b, IDMA_WAIT_S) == 0, "not idle: dma_held %llu",
		    (unsigned long long)b.dma_held);
	/* a ring's teardown may unpin from a workqueue: wait for it, not a while */
	r = idma_pins_settle(acq0, rel0, &da, &dr, IDMA_WAIT_S);
	ktap_diag("FOLL_PIN: %lld taken, %lld released (%llu user pieces moved, %d registered pages)",
		  da, dr, user_pieces, FIXED_PAGES);
	KTAP_EXPECT(r == 0, "%lld pins not released %d s after the last request", da - dr,
		    IDMA_WAIT_S);
	KTAP_EXPECT(da >= (long long)user_pieces + FIXED_PAGES,
		    "only %lld pins taken for %llu user pieces and %d registered pages: not FOLL_PIN",
		    da, user_pieces, FIXED_PAGES);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu when idle", (unsigned long long)b.dma_held);
	close(fd);
	return KTAP_PASS;
}

int main(void)
{
	return idma_main("irqdev_dma_paths");
}
