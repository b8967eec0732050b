// SPDX-License-Identifier: GPL-2.0
/*
 * irqdev_dma - the data path of /dev/demo_irqdev<N>, against the contract
 * in <irqaio/demo_irqdev.h>: a file of
 * DEMO_IRQDEV_DMA_SIZE bytes (4095: the header says why) backed by the edu
 * device's DMA buffer, every byte moved by the device's DMA (one transfer
 * of 100 ms of virtual time per page piece, one transfer in flight per
 * device, requests served in order), each request completed from the
 * interrupt handler; read/write/readv/writev/pread/pwrite, io_submit()
 * (libaio) and io_uring (liburing) all go through it.
 *
 * Timing: none assumed. A test that must see requests queued, or nothing
 * completed right after a submission (asserted with a zero timeout,
 * io_uring_peek_cqe(), and the stats), holds the device's queue first
 * (DEMO_IRQDEV_IOC_DMA_HOLD): requests queue and none starts, however slow
 * the machine; where one must be on the wire, the test accepts it having
 * finished early and asserts what follows either way. Every wait is for
 * the event itself, bounded far beyond need; measured times are printed,
 * never asserted, except upper bounds that only a hang would cross.
 *
 * "Page pieces": a request's memory split at page boundaries, per iovec
 * segment (pieces() below); the driver moves one per transfer, so
 * stats.dma_transfers must move by exactly that many, and dma_held (pieces
 * held right now) equals them while the requests wait.
 *
 * Per kernel, from the matrix (qemu/matrix.toml, test branches_match_matrix):
 *   dma_complete  ki_complete2: ki_complete(iocb, res), dma_complete_kind 3
 *                 ki_complete3: ki_complete(iocb, res, res2), kind 2
 *   dma_pin       extract: iov_iter_extract_pages(), dma_pin_kind 2
 *                 pin_user: pin_user_pages_fast(), kind 1
 *   dma_cancel    yes: io_cancel() reaches the driver (dma_can_cancel 1):
 *                 a queued request completes with -ECANCELED, io_cancel()
 *                 returns -EINPROGRESS (fs/aio.c, every kernel since 4.19),
 *                 the one on the wire -EAGAIN and completes normally;
 *                 no: io_cancel() finds no cancel callback and returns
 *                 -EINVAL, every request completes normally.
 * Every test prints the branches the driver reports ("# branch: ...").
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <irqaio/demo_irqdev.h>
#include "irqdev_test.h"
#include "kio_test.h"
#include "module_test.h"
#include "uring_test.h"
#include <ktap.h>

#define DEV_SIZE	DEMO_IRQDEV_DMA_SIZE
#define DEV_PATH0	"/dev/" DEMO_IRQDEV_NAME "0"
/* A bound for one event: far beyond any queue these tests build (100 ms a piece). */
#define EVENT_WAIT_S	30
#define ARENA_PAGES	12	/* 4 segments, 3 pages each */
#define FIXED_PAGES	4
#define UNTOUCHED	0xee

static long pg;		/* page size, set by main() */

/*
 * Hold (1) or let go (0) the device's queue: while held, requests queue and
 * none is started, so a test sees them queued however slow the machine is.
 */
static int dma_hold(int fd, __u32 on)
{
	return ioctl(fd, DEMO_IRQDEV_IOC_DMA_HOLD, &on);
}

/* How far a counter moved between two samples. */
#define DELTA(a, b, f)	((long long)((b).f - (a).f))

static const char *complete_name(unsigned int kind)
{
	switch (kind) {
	case 1: return "aio_complete(iocb, res, res2)";
	case 2: return "ki_complete(iocb, res, res2)";
	case 3: return "ki_complete(iocb, res)";
	}
	return "unknown";
}

static const char *pin_name(unsigned int kind)
{
	switch (kind) {
	case 1: return "pin_user_pages_fast()";
	case 2: return "iov_iter_extract_pages()";
	}
	return "unknown";
}

static void branch_diag(const struct demo_irqdev_stats *s)
{
	ktap_diag("branch: completion %s (kind %u), memory %s (kind %u), io_cancel %s",
		  complete_name(s->dma_complete_kind), s->dma_complete_kind,
		  pin_name(s->dma_pin_kind), s->dma_pin_kind,
		  s->dma_can_cancel ? "reaches the driver" : "not supported (EINVAL)");
}

/* Wait, bounded, until the device holds no pages: nothing queued or on the wire. */
static int wait_idle(int fd, struct demo_irqdev_stats *s, double max_s)
{
	double t0 = ktap_now();

	for (;;) {
		if (get_stats(fd, s))
			return -1;
		if (!s->dma_held)
			return 0;
		if (ktap_now() - t0 > max_s)
			return -1;
		usleep(10000);
	}
}

/* Open /dev/demo_irqdev<n>, wait until it is idle, print the branches once. */
static int dma_begin(int n, struct demo_irqdev_stats *s)
{
	int fd = dev_open(n, 0);

	if (fd < 0) {
		ktap_diag("open /dev/" DEMO_IRQDEV_NAME "%d: %s", n, strerror(errno));
		return -1;
	}
	if (wait_idle(fd, s, EVENT_WAIT_S)) {
		ktap_diag("/dev/" DEMO_IRQDEV_NAME "%d: not idle after %d s (%llu pieces held): %s",
			  n, EVENT_WAIT_S, (unsigned long long)s->dma_held, strerror(errno));
		close(fd);
		return -1;
	}
	branch_diag(s);
	return fd;
}

/*
 * Wait, bounded, until the device holds @want pieces. Only for requests the
 * device cannot finish meanwhile (its queue held): io_uring's may reach it
 * from io-wq, late on a loaded machine.
 */
static int wait_held(int fd, unsigned long long want, struct demo_irqdev_stats *s)
{
	double t0 = ktap_now();

	for (;;) {
		if (get_stats(fd, s))
			return -1;
		if (s->dma_held == want)
			return 0;
		if (ktap_now() - t0 > EVENT_WAIT_S)
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
		if (get_stats(fd, s))
			return -1;
		if (DELTA(*a, *s, dma_sync_waits) >= sync && DELTA(*a, *s, dma_queued) >= queued)
			return 0;
		if (ktap_now() - t0 > EVENT_WAIT_S)
			return -1;
		usleep(1000);
	}
}

/*
 * The byte at file offset @off after pass @pass wrote it: a hash of the
 * offset (so data moved to the wrong place shows; chardev_test.h's
 * ct_fill() repeats under some 256-byte shifts) plus an odd multiple of
 * the pass (so every byte of an older pass differs).
 */
static unsigned char pat(unsigned int off, unsigned int pass)
{
	uint32_t x = (off + 1) * 2654435761u;

	x ^= x >> 16;
	x *= 0x45d9f3bu;
	x ^= x >> 16;
	return (unsigned char)(x + pass * 0x3b);
}

static void pat_fill(unsigned char *p, unsigned int off, size_t len, unsigned int pass)
{
	size_t k;

	for (k = 0; k < len; k++)
		p[k] = pat(off + k, pass);
}

/* Index of the first byte of @p that is not pass @pass at @off, or -1. */
static long pat_diff(const unsigned char *p, unsigned int off, size_t len, unsigned int pass)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (p[k] != pat(off + k, pass))
			return k;
	return -1;
}

static long first_diff(const unsigned char *a, const unsigned char *b, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (a[k] != b[k])
			return k;
	return -1;
}

static unsigned char *arena(size_t pages)
{
	void *p = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Pages [a, a+len) touches: one piece each. */
static unsigned int span_pages(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;

	return len ? (a + len - 1) / pg - a / pg + 1 : 0;
}

/* Page pieces of the first @limit bytes of an iovec array. */
static unsigned int pieces(const struct iovec *v, int n, size_t limit)
{
	unsigned int total = 0;
	int k;

	for (k = 0; k < n && limit; k++) {
		size_t l = v[k].iov_len < limit ? v[k].iov_len : limit;

		total += span_pages(v[k].iov_base, l);
		limit -= l;
	}
	return total;
}

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

/* The segments' first @len bytes, in order, into @dst. */
static void gather(unsigned char *dst, const struct iovec *v, int n, size_t len)
{
	int k;

	for (k = 0; k < n && len; k++) {
		size_t l = v[k].iov_len < len ? v[k].iov_len : len;

		memcpy(dst, v[k].iov_base, l);
		dst += l;
		len -= l;
	}
}

static void iov_set(const struct iovec *v, int n, int c)
{
	int k;

	for (k = 0; k < n; k++)
		memset(v[k].iov_base, c, v[k].iov_len);
}

/* Are the segments' bytes after the first @from all UNTOUCHED? */
static bool untouched_after(const struct iovec *v, int n, size_t from)
{
	int k;
	size_t j;

	for (k = 0; k < n; k++) {
		const unsigned char *p = v[k].iov_base;

		for (j = 0; j < v[k].iov_len; j++, from ? from-- : 0)
			if (!from && p[j] != UNTOUCHED)
				return false;
	}
	return true;
}

/*
 * @len bytes over @n segments of @a (ARENA_PAGES pages; segment k in pages
 * 3k..3k+2), each starting a little before a page end so that most cross
 * into the next page; with 4 segments the second is empty. @salt varies
 * the split and the placement.
 */
static void layout(struct iovec *v, int n, unsigned char *a, size_t len, unsigned int salt)
{
	size_t left = len;
	int k;

	for (k = 0; k < n; k++) {
		size_t l;

		if (k == n - 1)
			l = left;
		else if (n == 4 && k == 1)
			l = 0;
		else
			l = len / n + (salt * 13 + k * 7) % 17;
		if (l > left)
			l = left;
		v[k].iov_base = a + (3 * k + 1) * pg - 1 - (salt * 37 + k * 101) % 300;
		v[k].iov_len = l;
		left -= l;
	}
}

/* Put pass @pass over the whole file with pwrite(2); @want gets it too. */
static int dev_put(int fd, unsigned int pass, unsigned char *want)
{
	unsigned char buf[DEV_SIZE];
	ssize_t n;

	pat_fill(buf, 0, DEV_SIZE, pass);
	n = pwrite(fd, buf, DEV_SIZE, 0);
	if (n != DEV_SIZE) {
		ktap_diag("pwrite of the whole file: %zd (%s)", n, n < 0 ? strerror(errno) : "short");
		return -1;
	}
	if (want)
		memcpy(want, buf, DEV_SIZE);
	return 0;
}

/* Does the file hold @want (one pread(2) of all of it)? */
static int dev_holds(int fd, const unsigned char *want, const char *what)
{
	unsigned char buf[DEV_SIZE];
	ssize_t n = pread(fd, buf, DEV_SIZE, 0);
	long d;

	if (n != DEV_SIZE) {
		ktap_diag("%s: pread of the whole file: %zd (%s)", what, n,
			  n < 0 ? strerror(errno) : "short");
		return -1;
	}
	d = first_diff(buf, want, DEV_SIZE);
	if (d >= 0) {
		ktap_diag("%s: the file differs at offset %ld: %#x, want %#x", what, d, buf[d],
			  want[d]);
		return -1;
	}
	return 0;
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
	unsigned char *a;	/* ARENA_PAGES pages for the segments */
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
	io->a = arena(ARENA_PAGES);
	io->fixed = arena(FIXED_PAGES);
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
	reg = (struct iovec){ io->fixed, FIXED_PAGES * pg };
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
		v[0] = (struct iovec){ io->fixed + pg - 3 - salt % 5, len };
		return 1;
	}
	if (pi->segs == 1) {
		v[0] = (struct iovec){ io->a + pg - 1 - (salt * 37) % 300, len };
		return 1;
	}
	layout(v, pi->segs, io->a, len, salt);
	return pi->segs;
}

/* Wait for the event of @cb (submitted): its res, or LONG_MIN (explained). */
static long aio_wait_for(io_context_t ctx, struct iocb *cb)
{
	struct timespec ts = { .tv_sec = EVENT_WAIT_S };
	struct io_event ev;
	int r;

	r = io_getevents(ctx, 1, 1, &ev, &ts);
	if (r != 1 || ev.obj != cb || ev.data != cb) {
		ktap_diag("io_getevents: %d, obj %p (want %p)", r, r == 1 ? (void *)ev.obj : NULL,
			  (void *)cb);
		return LONG_MIN;
	}
	return (long)ev.res;
}

/*
 * Submit one iocb and wait for its event: res; a failed submission gives
 * its -errno and sets *@refused (NULL: explain it and give LONG_MIN).
 */
static long aio_one(io_context_t ctx, struct iocb *cb, bool *refused)
{
	struct iocb *cbs[1] = { cb };
	int r;

	cb->data = cb;
	r = io_submit(ctx, 1, cbs);
	if (refused)
		*refused = r != 1;
	if (r != 1) {
		if (refused && r < 0)
			return r;
		ktap_diag("io_submit: %d (%s)", r, r < 0 ? strerror(-r) : "none submitted");
		return LONG_MIN;
	}
	return aio_wait_for(ctx, cb);
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
		io_uring_prep_rw(pi->uring_op, sqe_for(&io->ring, 0), io->fd,
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
		r = aio_one(io->aio, &cb, NULL);
	if (pi->kind == K_URING) {
		r = LONG_MIN;
		if (uring_reap(&io->ring, 1, &r, EVENT_WAIT_S))
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
		io->pieces += pieces(v, n, r);
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
		fd[k] = dev_open(k, 0);
		KTAP_EXPECT(fd[k] >= 0, "open /dev/demo_irqdev%d: %s", k, strerror(errno));
		KTAP_EXPECT(get_stats(fd[k], &s[k]) == 0, "stats: %s", strerror(errno));
		close(fd[k]);
	}
	branch_diag(&s[0]);
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
 * (layout @salt) set to UNTOUCHED, and in *@np the pieces they make.
 */
static int held_read_prepare(int fd, unsigned char *want, unsigned int pass, struct iovec *v,
			     int nseg, size_t len, unsigned int salt, unsigned int *np)
{
	unsigned char *ar = arena(ARENA_PAGES);

	KTAP_EXPECT(ar, "mmap");
	KTAP_EXPECT(dev_put(fd, pass, want) == 0, "fill the file");
	layout(v, nseg, ar, len, salt);
	*np = pieces(v, nseg, len);
	iov_set(v, nseg, UNTOUCHED);
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
	struct timespec zero = { 0 }, ts = { .tv_sec = EVENT_WAIT_S };
	struct demo_irqdev_stats a, m, b;
	unsigned char want[DEV_SIZE], got[DEV_SIZE];
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

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(io_setup(8, &ctx) == 0, "io_setup");
	r = held_read_prepare(fd, want, 20, v, 3, len, 1, &np);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
	io_prep_preadv(&cb, fd, v, 3, off);
	cb.data = &cb;
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	t0 = ktap_now();
	r = io_submit(ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	r = io_getevents(ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0, "an event (%d, res %ld) right after io_submit: completed in the method",
		    r, r == 1 ? (long)ev.res : 0);
	KTAP_EXPECT(get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(DELTA(a, m, dma_queued) == 1, "dma_queued moved by %lld, want 1",
		    DELTA(a, m, dma_queued));
	KTAP_EXPECT(DELTA(a, m, dma_irq_completions) == 0, "completed already (%lld)",
		    DELTA(a, m, dma_irq_completions));
	KTAP_EXPECT(m.dma_held == np, "dma_held %llu while queued, want %u pieces",
		    (unsigned long long)m.dma_held, np);
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	r = io_getevents(ctx, 1, 1, &ev, &ts);
	gap = ktap_now() - t0;
	KTAP_EXPECT(r == 1, "no event within %d s: %d", EVENT_WAIT_S, r);
	KTAP_EXPECT(ev.obj == &cb && ev.data == &cb, "event for %p, want %p", (void *)ev.obj,
		    (void *)&cb);
	KTAP_EXPECT((long)ev.res == (long)len && ev.res2 == 0, "res %ld res2 %ld, want %zu",
		    (long)ev.res, (long)ev.res2, len);
	gather(got, v, 3, len);
	d = first_diff(got, want + off, len);
	KTAP_EXPECT(d < 0, "PREADV data differs at file offset %lld", (long long)(off + d));
	KTAP_EXPECT(get_stats(fd, &b) == 0, "stats");
	ktap_diag("PREADV of %zu bytes in %u pieces: submit to event %.3f s", len, np, gap);
	KTAP_EXPECT(DELTA(a, b, dma_irq_completions) == 1 && DELTA(a, b, dma_queued) == 1 &&
		    DELTA(a, b, dma_sync_waits) == 0,
		    "irq_completions %+lld queued %+lld sync_waits %+lld, want +1 +1 +0",
		    DELTA(a, b, dma_irq_completions), DELTA(a, b, dma_queued),
		    DELTA(a, b, dma_sync_waits));
	KTAP_EXPECT(DELTA(a, b, dma_transfers) == np, "dma_transfers %+lld, want %u (one per piece)",
		    DELTA(a, b, dma_transfers), np);
	KTAP_EXPECT(DELTA(a, b, dma_bytes) == (long long)len, "dma_bytes %+lld, want %zu",
		    DELTA(a, b, dma_bytes), len);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu after the event", (unsigned long long)b.dma_held);
	io_destroy(ctx);
	close(fd);
	return KTAP_PASS;
}

/* The same with io_uring READV: no CQE right after the submission. */
KTAP_TEST(uring_not_before_irq, 60)
{
	struct __kernel_timespec ts = { .tv_sec = EVENT_WAIT_S };
	struct demo_irqdev_stats a, m, b;
	unsigned char want[DEV_SIZE], got[DEV_SIZE];
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	struct iovec v[2];
	const off_t off = 77;
	const size_t len = 3999;
	unsigned int np;
	double t0, gap;
	int fd, r, res;
	long d;

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(io_uring_queue_init(8, &ring, 0) == 0, "io_uring_queue_init");
	r = held_read_prepare(fd, want, 21, v, 2, len, 2, &np);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(wait_idle(fd, &a, EVENT_WAIT_S) == 0, "not idle after pwrite(2)");
	io_uring_prep_readv(sqe_for(&ring, 42), fd, v, 2, off);
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
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
	KTAP_EXPECT(get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(DELTA(a, m, dma_eagain) == 0, "io_uring's nowait attempt refused on an idle device");
	KTAP_EXPECT(DELTA(a, m, dma_queued) == 1 && DELTA(a, m, dma_irq_completions) == 0,
		    "queued %+lld, completed %+lld right after the submission, want +1, +0",
		    DELTA(a, m, dma_queued), DELTA(a, m, dma_irq_completions));
	KTAP_EXPECT(m.dma_held == np, "dma_held %llu while queued, want %u",
		    (unsigned long long)m.dma_held, np);
	KTAP_EXPECT(io_uring_peek_cqe(&ring, &cqe) == -EAGAIN, "a CQE while the queue is held");
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	r = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
	gap = ktap_now() - t0;
	KTAP_EXPECT(r == 0, "no CQE within %d s: %s", EVENT_WAIT_S, strerror(-r));
	res = cqe->res;
	KTAP_EXPECT(cqe->user_data == 42, "CQE user_data %llu", (unsigned long long)cqe->user_data);
	io_uring_cqe_seen(&ring, cqe);
	KTAP_EXPECT(res == (int)len, "READV res %d, want %zu", res, len);
	gather(got, v, 2, len);
	d = first_diff(got, want + off, len);
	KTAP_EXPECT(d < 0, "READV data differs at file offset %lld", (long long)(off + d));
	KTAP_EXPECT(io_uring_peek_cqe(&ring, &cqe) == -EAGAIN, "a second CQE");
	KTAP_EXPECT(get_stats(fd, &b) == 0, "stats");
	ktap_diag("io_uring READV of %zu bytes in %u pieces: submit to CQE %.3f s", len, np, gap);
	KTAP_EXPECT(DELTA(a, b, dma_irq_completions) == 1 && DELTA(a, b, dma_queued) == 1,
		    "irq_completions %+lld queued %+lld, want +1 +1",
		    DELTA(a, b, dma_irq_completions), DELTA(a, b, dma_queued));
	KTAP_EXPECT(DELTA(a, b, dma_transfers) == np, "dma_transfers %+lld, want %u",
		    DELTA(a, b, dma_transfers), np);
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
	{ 0, 1, 517, 1030, 1555, 2049, 2611, 3333, 3900, DEV_SIZE },
	{ 0, 263, 777, 1201, 2047, 2500, 3071, 3584, 4001, DEV_SIZE },
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
	unsigned char want[DEV_SIZE];
	int writer_of[DEV_SIZE];	/* the path that wrote each byte last */
};

/* Round @round's writes: each writer puts its region, pattern @pass. */
static int roundtrip_write(struct roundtrip *rt, unsigned int round, unsigned int pass)
{
	unsigned char src[DEV_SIZE];
	unsigned int w, k;
	int n;
	long r;

	for (w = 0; w < NR_REGIONS; w++) {
		unsigned int region = (w + 4 * round) % NR_REGIONS;
		unsigned int off = rt_cuts[round][region];
		size_t len = rt_cuts[round][region + 1] - off;

		n = io_layout(&rt->io, rt_writers[w], rt->v, len, rt->salt++);
		pat_fill(src, off, len, pass);
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
	unsigned char got[DEV_SIZE];
	struct iovec *v = rt->v;
	unsigned int k;
	int n;
	long r, d;

	for (k = 0; k < KTAP_ARRAY_SIZE(rt_readers); k++) {
		enum path p = rt_readers[k];
		unsigned int cut = 1 + (k * 409 + round * 211) % 4001;
		size_t len2 = DEV_SIZE - cut + 77;

		memset(got, 0, sizeof(got));
		/* [0, cut) */
		n = io_layout(&rt->io, p, v, cut, rt->salt++);
		iov_set(v, n, UNTOUCHED);
		r = xfer(&rt->io, p, v, n, 0);
		KTAP_EXPECT(r == (long)cut, "round %u: %s of %u bytes at 0: %ld", round,
			    paths[p].name, cut, r);
		KTAP_EXPECT(untouched_after(v, n, cut), "%s wrote past its result", paths[p].name);
		gather(got, v, n, cut);
		/* [cut, end + 77): short at the end of the file */
		n = io_layout(&rt->io, p, v, len2, rt->salt++);
		iov_set(v, n, UNTOUCHED);
		r = xfer(&rt->io, p, v, n, cut);
		KTAP_EXPECT(r == (long)(DEV_SIZE - cut),
			    "round %u: %s of %zu bytes at %u: %ld, want %u (short at the end)",
			    round, paths[p].name, len2, cut, r, DEV_SIZE - cut);
		KTAP_EXPECT(untouched_after(v, n, DEV_SIZE - cut),
			    "%s across the end wrote past its result", paths[p].name);
		gather(got + cut, v, n, DEV_SIZE - cut);
		d = first_diff(got, rt->want, DEV_SIZE);
		KTAP_EXPECT(d < 0, "round %u: %s read %#x at offset %ld, %s wrote %#x there%s",
			    round, paths[p].name, got[d], d, paths[rt->writer_of[d]].name,
			    rt->want[d],
			    got[d] == pat(d, pass - 1) ? " (the previous pass: stale)" : "");
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

	KTAP_EXPECT(DELTA(a, b, dma_transfers) == (long long)io->pieces,
		    "dma_transfers %+lld, want %llu: not every byte moved by DMA, one piece each",
		    DELTA(a, b, dma_transfers), io->pieces);
	KTAP_EXPECT(DELTA(a, b, dma_bytes) == (long long)io->bytes, "dma_bytes %+lld, want %llu",
		    DELTA(a, b, dma_bytes), io->bytes);
	KTAP_EXPECT(DELTA(a, b, dma_sync_waits) == (long long)io->sync,
		    "dma_sync_waits %+lld, want %llu", DELTA(a, b, dma_sync_waits), io->sync);
	KTAP_EXPECT(DELTA(a, b, dma_queued) == (long long)io->async, "dma_queued %+lld, want %llu",
		    DELTA(a, b, dma_queued), io->async);
	KTAP_EXPECT(DELTA(a, b, dma_irq_completions) == (long long)(io->sync + io->async),
		    "dma_irq_completions %+lld, want %llu", DELTA(a, b, dma_irq_completions),
		    io->sync + io->async);
	/* The handler hands every finished request to its thread, which completes it. */
	KTAP_EXPECT(DELTA(a, b, dma_thread_completions) == DELTA(a, b, dma_irq_completions),
		    "the IRQ thread completed %+lld of %+lld requests",
		    DELTA(a, b, dma_thread_completions), DELTA(a, b, dma_irq_completions));
	KTAP_EXPECT(DELTA(a, b, thread_calls) > 0 && DELTA(a, b, thread_regs_set) == 0,
		    "irq_compat_regs() in the IRQ thread: not NULL in %lld of %lld runs",
		    DELTA(a, b, thread_regs_set), DELTA(a, b, thread_calls));
	KTAP_EXPECT(DELTA(a, b, dma_failed) == 0 && DELTA(a, b, dma_cancelled) == 0,
		    "failed %+lld cancelled %+lld", DELTA(a, b, dma_failed), DELTA(a, b, dma_cancelled));
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

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(io_init(&rt.io, fd) == 0, "setup");
	KTAP_EXPECT(dev_put(fd, 29, rt.want) == 0, "fill the file");
	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
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
	KTAP_EXPECT(get_stats(fd, &b) == 0, "stats");
	ktap_diag("%llu synchronous and %llu queued requests, %llu pieces (%lld bounced), %llu bytes in %.1f s",
		  rt.io.sync, rt.io.async, rt.io.pieces, DELTA(a, b, dma_bounced), rt.io.bytes,
		  ktap_now() - t0);
	r = roundtrip_costs(&rt.io, &a, &b);
	if (r != KTAP_PASS)
		return r;
	io_fini(&rt.io);
	close(fd);
	return KTAP_PASS;
}

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
	unsigned char want[DEV_SIZE];
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
		pat_fill(buf, t->off[k], t->len[k], 41);
		memcpy(t->want + t->off[k], buf, t->len[k]);
	} else {
		memset(buf, UNTOUCHED, t->len[k]);
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
			t->v0[j] = (struct iovec){ t->bufs + (j + 1) * pg + 7, quarter };
			pat_fill(t->v0[j].iov_base, t->off[0] + j * quarter, quarter, 41);
		}
		io_prep_pwritev(&t->cb[0], fd, t->v0, 4, t->off[0]);
		t->np += pieces(t->v0, 4, t->len[0]) - 1;
	}
	t->cb[k].data = (void *)(uintptr_t)(k + 1);
	t->cbs[k] = &t->cb[k];
	t->np += pieces(v, nseg, t->len[k]);
	t->bytes += t->len[k];
}

/* All of them in one io_submit() while the queue is held: queued, none done. */
static int depth_submit_held(struct depth *t)
{
	struct timespec zero = { 0 };
	struct demo_irqdev_stats a, m;
	struct io_event ev[DEPTH];
	int fd = t->fd, r;

	KTAP_EXPECT(get_stats(fd, &t->a) == 0, "stats");
	a = t->a;
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	t->t0 = ktap_now();
	r = io_submit(t->ctx, DEPTH, t->cbs);
	KTAP_EXPECT(r == DEPTH, "io_submit of %d: %d", DEPTH, r);
	r = io_getevents(t->ctx, 0, DEPTH, ev, &zero);
	KTAP_EXPECT(r == 0, "%d events right after io_submit", r);
	KTAP_EXPECT(get_stats(fd, &m) == 0, "stats");
	ktap_diag("io_submit of %d took %.3f s; queue depth now %u at most, %llu pieces held",
		  DEPTH, ktap_now() - t->t0, m.dma_max_depth, (unsigned long long)m.dma_held);
	KTAP_EXPECT(DELTA(a, m, dma_queued) == DEPTH, "dma_queued %+lld, want %d",
		    DELTA(a, m, dma_queued), DEPTH);
	KTAP_EXPECT(m.dma_held == t->np, "dma_held %llu, want %u", (unsigned long long)m.dma_held,
		    t->np);
	KTAP_EXPECT(m.dma_max_depth >= DEPTH, "dma_max_depth %u, want >= %d", m.dma_max_depth,
		    DEPTH);
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	return KTAP_PASS;
}

/* Released: every event once, whole, in submission order; then no more. */
static int depth_reap_in_order(struct depth *t)
{
	struct timespec zero = { 0 }, ts = { .tv_sec = EVENT_WAIT_S };
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

	KTAP_EXPECT(get_stats(t->fd, &b) == 0, "stats");
	for (k = 1; k < DEPTH; k += 2) {
		long d = pat_diff(t->bufs + k * 64 + k % 3, t->off[k], t->len[k], 40);

		KTAP_EXPECT(d < 0, "read %d: wrong byte at file offset %ld", k, t->off[k] + d);
	}
	KTAP_EXPECT(DELTA(a, b, dma_transfers) == np && DELTA(a, b, dma_irq_completions) == DEPTH,
		    "transfers %+lld (want %u), irq_completions %+lld (want %d)",
		    DELTA(a, b, dma_transfers), np, DELTA(a, b, dma_irq_completions), DEPTH);
	KTAP_EXPECT(DELTA(a, b, dma_bytes) == (long long)bytes, "dma_bytes %+lld, want %zu",
		    DELTA(a, b, dma_bytes), bytes);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	KTAP_EXPECT(dev_holds(t->fd, t->want, "after 64 requests") == 0, "content");
	return KTAP_PASS;
}

KTAP_TEST(depth_64, 120)
{
	static struct depth t;
	int k, r;

	t.fd = dma_begin(0, &t.a);
	KTAP_EXPECT(t.fd >= 0, "device");
	KTAP_EXPECT(io_setup(2 * DEPTH, &t.ctx) == 0, "io_setup");
	t.bufs = arena(5);
	KTAP_EXPECT(t.bufs, "mmap");
	KTAP_EXPECT(dev_put(t.fd, 40, t.want) == 0, "fill the file");
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

/* Close the device @fd with the aio context @ctx and the ring @ring on it. */
static void close_with_rings(int fd, io_context_t ctx, struct io_uring *ring)
{
	io_uring_queue_exit(ring);
	io_destroy(ctx);
	close(fd);
}

/*
 * Five requests: 0 a read of four pieces (on the wire, 400 ms), then of
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
	unsigned char want[DEV_SIZE], *bufs, *buf[NCANCEL];
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
		t->v0[k] = (struct iovec){ t->bufs + (NCANCEL + k) * pg + 17, len / 4 };
		memset(t->v0[k].iov_base, UNTOUCHED, len / 4);
	}
	for (k = 0; k < NCANCEL; k++) {
		unsigned int off = 100 + k * 600;

		t->buf[k] = t->bufs + k * pg + 17;
		t->res[k] = LONG_MIN;
		if (cancel_is_write[k]) {
			pat_fill(t->buf[k], off, len, 51);
			io_prep_pwrite(&t->cb[k], fd, t->buf[k], len, off);
		} else {
			memset(t->buf[k], UNTOUCHED, len);
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

	t->fd = dma_begin(0, &t->a);
	KTAP_EXPECT(t->fd >= 0, "device");
	t->can = t->a.dma_can_cancel;
	KTAP_EXPECT(io_setup(16, &t->ctx) == 0, "io_setup");
	t->bufs = arena(NCANCEL + 4);
	KTAP_EXPECT(t->bufs, "mmap");
	KTAP_EXPECT(dev_put(t->fd, 50, t->want) == 0, "fill the file");
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

	KTAP_EXPECT(get_stats(fd, &t->a) == 0, "stats");
	/* the first on the wire, the others queued behind a held queue */
	r = io_submit(t->ctx, 1, t->cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
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
	KTAP_EXPECT(get_stats(fd, &t->m) == 0, "stats");
	a = t->a;
	m = t->m;
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
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
		KTAP_EXPECT(r0 != -EINVAL || DELTA(a, m, dma_irq_completions) == 1,
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
	struct timespec zero = { 0 }, ts = { .tv_sec = EVENT_WAIT_S };
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
			gather(got0, t->v0, 4, len);
			KTAP_EXPECT(pat_diff(got0, off, len, 50) < 0, "read 0: data differs");
		} else if (!cancel_is_write[k] && !cancelled) {
			KTAP_EXPECT(pat_diff(buf, off, len, 50) < 0, "read %d: data differs", k);
		}
		if (!cancel_is_write[k] && cancelled)
			KTAP_EXPECT(buf[0] == UNTOUCHED && !memcmp(buf, buf + 1, len - 1),
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
	KTAP_EXPECT(get_stats(t->fd, &b) == 0, "stats");
	KTAP_EXPECT(DELTA(a, b, dma_cancelled) == (can ? 2 : 0), "dma_cancelled %+lld, want %d",
		    DELTA(a, b, dma_cancelled), can ? 2 : 0);
	KTAP_EXPECT(DELTA(a, b, dma_transfers) == (can ? 6 : 8) &&
		    DELTA(a, b, dma_irq_completions) == (can ? 3 : 5),
		    "transfers %+lld, irq_completions %+lld, want %d, %d: a cancelled request moved",
		    DELTA(a, b, dma_transfers), DELTA(a, b, dma_irq_completions), can ? 6 : 8,
		    can ? 3 : 5);
	KTAP_EXPECT(DELTA(a, b, dma_queued) == NCANCEL && DELTA(a, b, dma_failed) == 0,
		    "queued %+lld failed %+lld", DELTA(a, b, dma_queued), DELTA(a, b, dma_failed));
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
	unsigned char want[DEV_SIZE];
	unsigned char *rb, *wb;		/* 200 bytes at 100 read into rb, written from wb */
	struct iovec v[4], rv, wv;	/* the busy request's segments; rb's and wb's */
	unsigned int np;		/* the busy request's pieces */
	struct iocb busy;
	struct demo_irqdev_stats a;	/* before the busy request */
};

/* An io_uring READ of rb with RWF_NOWAIT, submitted and reaped: its res in *@res. */
static int nowait_uring_read(struct nowait *t, long *res)
{
	struct io_uring_sqe *sqe = sqe_for(&t->ring, 0);

	io_uring_prep_read(sqe, t->fd, t->rb, 200, 100);
	sqe->rw_flags = RWF_NOWAIT;
	*res = LONG_MIN;
	KTAP_EXPECT(uring_reap(&t->ring, 1, res, EVENT_WAIT_S) == 0, "io_uring");
	return KTAP_PASS;
}

static int nowait_setup(void *state)
{
	struct nowait *t = state;
	unsigned char *ar;

	t->fd = dma_begin(0, &t->a);
	KTAP_EXPECT(t->fd >= 0, "device");
	t->nb = dev_open(0, O_NONBLOCK);
	KTAP_EXPECT(t->nb >= 0, "open O_NONBLOCK: %s", strerror(errno));
	KTAP_EXPECT(io_setup(8, &t->ctx) == 0, "io_setup");
	KTAP_EXPECT(io_uring_queue_init(8, &t->ring, 0) == 0, "io_uring_queue_init");
	ar = arena(ARENA_PAGES);
	t->rb = arena(1);
	t->wb = arena(1);
	KTAP_EXPECT(ar && t->rb && t->wb, "mmap");
	KTAP_EXPECT(dev_put(t->fd, 60, t->want) == 0, "fill the file");
	memset(t->rb, UNTOUCHED, pg);
	pat_fill(t->wb, 100, 200, 61);
	t->rv = (struct iovec){ t->rb, 200 };
	t->wv = (struct iovec){ t->wb, 200 };
	layout(t->v, 4, ar, 3000, 4);
	t->np = pieces(t->v, 4, 3000);
	KTAP_EXPECT(t->np >= 4, "layout: %u pieces", t->np);
	return KTAP_PASS;
}

static int nowait_teardown(void *state)
{
	struct nowait *t = state;

	close_with_rings(t->fd, t->ctx, &t->ring);
	close(t->nb);
	return KTAP_PASS;
}

/* The busy request: queued, not started, for as long as the refusals take. */
static int nowait_make_busy(void *state)
{
	struct nowait *t = state;
	struct iocb *cbs[1] = { &t->busy };
	int r;

	KTAP_EXPECT(get_stats(t->fd, &t->a) == 0, "stats");
	io_prep_preadv(&t->busy, t->fd, t->v, 4, 0);
	t->busy.data = &t->busy;
	KTAP_EXPECT(dma_hold(t->fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(t->ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	return KTAP_PASS;
}

/* While busy, every request that may not block is refused with EAGAIN. */
static int nowait_refused(void *state)
{
	struct nowait *t = state;
	struct timespec ts = { .tv_sec = EVENT_WAIT_S };
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
	struct timespec zero = { 0 }, ts = { .tv_sec = EVENT_WAIT_S };
	const struct demo_irqdev_stats a = t->a;
	struct demo_irqdev_stats m, b;
	unsigned int np = t->np;
	struct io_event ev;
	int fd = t->fd, r, k;

	r = io_getevents(t->ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0, "the busy request (%u pieces) completed during the refusals", np);
	KTAP_EXPECT(get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(DELTA(a, m, dma_eagain) == 7, "dma_eagain %+lld, want 7",
		    DELTA(a, m, dma_eagain));
	KTAP_EXPECT(DELTA(a, m, dma_queued) == 1 && DELTA(a, m, dma_sync_waits) == 0,
		    "queued %+lld sync_waits %+lld, want +1 +0: a refused request was queued",
		    DELTA(a, m, dma_queued), DELTA(a, m, dma_sync_waits));
	KTAP_EXPECT(m.dma_held == np, "dma_held %llu, want %u", (unsigned long long)m.dma_held, np);
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	r = io_getevents(t->ctx, 1, 1, &ev, &ts);
	KTAP_EXPECT(r == 1 && ev.obj == &t->busy && (long)ev.res == 3000,
		    "the busy request: %d events, res %ld", r, r == 1 ? (long)ev.res : 0);
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0, "not idle");
	KTAP_EXPECT(DELTA(a, b, dma_transfers) == np && DELTA(a, b, dma_bytes) == 3000,
		    "transfers %+lld bytes %+lld, want %u and 3000: a refused request moved data",
		    DELTA(a, b, dma_transfers), DELTA(a, b, dma_bytes), np);
	for (k = 0; k < pg; k++)
		KTAP_EXPECT(t->rb[k] == UNTOUCHED, "a refused read wrote byte %d of its buffer", k);
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

	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0, "not idle");
	n = preadv2(fd, &t->rv, 1, 100, RWF_NOWAIT);
	KTAP_EXPECT(n == 200, "preadv2 RWF_NOWAIT, idle: %zd (%s)", n, n < 0 ? strerror(errno) : "");
	d = pat_diff(rb, 100, 200, 60);
	KTAP_EXPECT(d < 0, "preadv2 RWF_NOWAIT: data differs at %ld", d);
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0, "not idle");
	memset(rb, UNTOUCHED, 200);
	r = nowait_uring_read(t, &res);
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(res == 200 && pat_diff(rb, 100, 200, 60) < 0,
		    "io_uring READ RWF_NOWAIT, idle: res %ld", res);
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0, "not idle");
	memset(rb, UNTOUCHED, 200);
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
		bool refused_;							\
		long res_ = aio_one(ctx, cb, &refused_);			\
										\
		KTAP_EXPECT(!refused_ && res_ == -EFAULT, "%s: %s %ld", what,	\
			    refused_ ? "io_submit" : "res", res_);		\
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
	unsigned char want[DEV_SIZE];
	unsigned long long np, bytes;	/* pieces and bytes the edges moved */
};

static int bad_input_setup(void *state)
{
	struct bad_input *t = state;
	int k;

	t->fd = dma_begin(0, &t->a);
	KTAP_EXPECT(t->fd >= 0, "device");
	KTAP_EXPECT(io_setup(8, &t->ctx) == 0, "io_setup");
	KTAP_EXPECT(io_uring_queue_init(8, &t->ring, 0) == 0, "io_uring_queue_init");
	t->good = arena(2);
	t->ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t->none = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* the hole last: nothing mapped after it may land there */
	t->hole = arena(3);
	KTAP_EXPECT(t->good && t->ro != MAP_FAILED && t->none != MAP_FAILED && t->hole, "mmap");
	KTAP_EXPECT(munmap(t->hole + pg, pg) == 0, "munmap");
	t->hole += pg;
	t->hv = (struct iovec){ t->hole, 100 };
	memset(t->good, UNTOUCHED, 2 * pg);
	for (k = 0; k <= IOV_MAX; k++)
		t->many[k] = (struct iovec){ t->good + k % pg, 1 };
	KTAP_EXPECT(dev_put(t->fd, 70, t->want) == 0, "fill the file");
	KTAP_EXPECT(lseek(t->fd, 0, SEEK_SET) == 0, "lseek: %s", strerror(errno));
	KTAP_EXPECT(get_stats(t->fd, &t->a) == 0, "stats");
	return KTAP_PASS;
}

static int bad_input_teardown(void *state)
{
	struct bad_input *t = state;

	close_with_rings(t->fd, t->ctx, &t->ring);
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

	io_uring_prep_read(sqe_for(&t->ring, 0), fd, t->ro, 100, 10);
	res = uring_one(&t->ring, EVENT_WAIT_S);
	KTAP_EXPECT(res == -EFAULT, "io_uring READ into PROT_READ memory: %ld", res);
	io_uring_prep_write(sqe_for(&t->ring, 0), fd, t->hole, 100, 10);
	res = uring_one(&t->ring, EVENT_WAIT_S);
	KTAP_EXPECT(res == -EFAULT, "io_uring WRITE from unmapped memory: %ld", res);
	io_uring_prep_readv(sqe_for(&t->ring, 0), fd, t->many, IOV_MAX + 1, 0);
	res = uring_one(&t->ring, EVENT_WAIT_S);
	KTAP_EXPECT(res == -EINVAL, "io_uring READV of IOV_MAX + 1 segments: %ld", res);

	n = pread(fd, t->good, 0, 10);
	KTAP_EXPECT(n == 0, "pread(2) of 0 bytes: %zd", n);
	io_prep_pread(&cb, fd, t->good, 0, 10);
	res = aio_one(t->ctx, &cb, NULL);
	KTAP_EXPECT(res == 0, "io_submit PREAD of 0 bytes: %ld", res);
	return KTAP_PASS;
}

/* None of the requests so far moved, queued or pinned anything. */
static int bad_input_nothing_moved(void *state)
{
	struct bad_input *t = state;
	struct demo_irqdev_stats m;
	int k;

	KTAP_EXPECT(get_stats(t->fd, &m) == 0, "stats");
	KTAP_EXPECT(DELTA(t->a, m, dma_transfers) == 0 && DELTA(t->a, m, dma_bytes) == 0,
		    "bad requests moved data: transfers %+lld bytes %+lld",
		    DELTA(t->a, m, dma_transfers), DELTA(t->a, m, dma_bytes));
	KTAP_EXPECT(DELTA(t->a, m, dma_queued) == 0 && DELTA(t->a, m, dma_sync_waits) == 0 &&
		    DELTA(t->a, m, dma_irq_completions) == 0,
		    "bad requests reached the queue: queued %+lld sync_waits %+lld completions %+lld",
		    DELTA(t->a, m, dma_queued), DELTA(t->a, m, dma_sync_waits),
		    DELTA(t->a, m, dma_irq_completions));
	KTAP_EXPECT(m.dma_held == 0, "dma_held %llu after refused requests: pins leaked",
		    (unsigned long long)m.dma_held);
	for (k = 0; k < 2 * pg; k++)
		KTAP_EXPECT(t->good[k] == UNTOUCHED,
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

	KTAP_EXPECT(get_stats(fd, &t->a) == 0, "stats");
	v2[0] = (struct iovec){ good + pg - 50, 100 };	/* two pieces */
	v2[1] = t->hv;
	n = readv(fd, v2, 2);	/* the file position is 0 */
	KTAP_EXPECT(n == 100, "readv(2) whose second segment is unmapped: %zd (%s), want 100 (short)",
		    n, n < 0 ? strerror(errno) : "");
	KTAP_EXPECT(pat_diff(good + pg - 50, 0, 100, 70) < 0, "readv before the fault: data differs");
	t->np += pieces(v2, 2, 100);
	t->bytes += 100;
	pat_fill(good + pg - 50, 200, 100, 71);
	n = pwritev(fd, v2, 2, 200);
	KTAP_EXPECT(n == 100, "pwritev(2) whose second segment is unmapped: %zd (%s), want 100",
		    n, n < 0 ? strerror(errno) : "");
	memcpy(t->want + 200, good + pg - 50, 100);
	t->np += pieces(v2, 2, 100);
	t->bytes += 100;
	memset(good, UNTOUCHED, 2 * pg);
	io_prep_preadv(&cb, fd, v2, 2, 300);
	res = aio_one(t->ctx, &cb, NULL);
	KTAP_EXPECT(res == 100 && pat_diff(good + pg - 50, 300, 100, 70) < 0,
		    "io_submit PREADV whose second segment is unmapped: %ld, want 100", res);
	t->np += pieces(v2, 2, 100);
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

	KTAP_EXPECT(pread(fd, good, 100, DEV_SIZE) == 0, "pread(2) at the end");
	KTAP_EXPECT(pread(fd, good, 100, DEV_SIZE + 904) == 0, "pread(2) past the end");
	memset(good, UNTOUCHED, 300);
	n = pread(fd, good, 300, DEV_SIZE - 96);
	KTAP_EXPECT(n == 96 && pat_diff(good, DEV_SIZE - 96, 96, 70) < 0 && good[96] == UNTOUCHED,
		    "pread(2) across the end: %zd, want 96", n);
	t->np += span_pages(good, 96);
	t->bytes += 96;
	EXPECT_FAILS(pwrite(fd, good, 10, DEV_SIZE), ENOSPC, "pwrite(2) at the end");
	EXPECT_FAILS(pwrite(fd, good, 10, DEV_SIZE + 5903), ENOSPC, "pwrite(2) past the end");
	pat_fill(good, DEV_SIZE - 6, 20, 72);
	n = pwrite(fd, good, 20, DEV_SIZE - 6);
	KTAP_EXPECT(n == 6, "pwrite(2) across the end: %zd, want 6", n);
	memcpy(t->want + DEV_SIZE - 6, good, 6);
	t->np += 1;
	t->bytes += 6;
	KTAP_EXPECT(lseek(fd, DEV_SIZE, SEEK_SET) == DEV_SIZE, "lseek to the end: %s", strerror(errno));
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

	io_prep_preadv(&cb, fd, t->v2, 1, DEV_SIZE);
	res = aio_one(t->ctx, &cb, NULL);
	KTAP_EXPECT(res == 0, "io_submit PREADV at the end: %ld", res);
	io_prep_pwritev(&cb, fd, t->v2, 1, DEV_SIZE);
	res = aio_one(t->ctx, &cb, NULL);
	KTAP_EXPECT(res == -ENOSPC, "io_submit PWRITEV at the end: %ld", res);
	memset(good, UNTOUCHED, 300);
	io_prep_pread(&cb, fd, good + 1, 200, DEV_SIZE - 96);
	res = aio_one(t->ctx, &cb, NULL);
	KTAP_EXPECT(res == 96 && pat_diff(good + 1, DEV_SIZE - 96, 90, 70) < 0,
		    "io_submit PREAD across the end: %ld, want 96", res);
	t->np += 1;
	t->bytes += 96;
	io_uring_prep_read(sqe_for(&t->ring, 0), fd, good, 100, DEV_SIZE);
	res = uring_one(&t->ring, EVENT_WAIT_S);
	KTAP_EXPECT(res == 0, "io_uring READ at the end: %ld", res);
	io_uring_prep_write(sqe_for(&t->ring, 0), fd, good, 100, DEV_SIZE);
	res = uring_one(&t->ring, EVENT_WAIT_S);
	KTAP_EXPECT(res == -ENOSPC, "io_uring WRITE at the end: %ld", res);
	pat_fill(good, DEV_SIZE - 1, 5, 73);
	io_uring_prep_write(sqe_for(&t->ring, 0), fd, good, 5, DEV_SIZE - 1);
	res = uring_one(&t->ring, EVENT_WAIT_S);
	KTAP_EXPECT(res == 1, "io_uring WRITE across the end: %ld, want 1", res);
	t->want[DEV_SIZE - 1] = good[0];
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

	KTAP_EXPECT(get_stats(t->fd, &b) == 0, "stats");
	KTAP_EXPECT(DELTA(t->a, b, dma_transfers) == (long long)np &&
		    DELTA(t->a, b, dma_bytes) == (long long)bytes,
		    "edges: transfers %+lld bytes %+lld, want %llu and %llu",
		    DELTA(t->a, b, dma_transfers), DELTA(t->a, b, dma_bytes), np, bytes);
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
		if (drop_capability(CAP_SYS_ADMIN))
			_exit(2);
		_exit(dma_hold(fd, 1) == -1 && errno == EPERM ? 0 : 1);
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
	struct timespec zero = { 0 }, ts = { .tv_sec = EVENT_WAIT_S };
	unsigned char out[300], in[sizeof(out)];
	struct iocb cb, *cbs[1] = { &cb };
	struct demo_irqdev_stats a, b;
	const unsigned int off = 1000;
	io_context_t ctx = 0;
	struct io_event ev;
	int fd, holder, r;
	__u32 two = 2;

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_IRQDEV_IOC_DMA_HOLD, (void *)8), EFAULT,
			  "DMA_HOLD from no memory");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_IRQDEV_IOC_DMA_HOLD, &two), EINVAL, "DMA_HOLD 2");
	KTAP_EXPECT(hold_unprivileged_refused(fd) == 0, "DMA_HOLD without CAP_SYS_ADMIN");
	holder = dev_open(0, 0);
	KTAP_EXPECT(holder >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(dma_hold(holder, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	KTAP_EXPECT_ERRNO(dma_hold(fd, 1), EBUSY, "DMA_HOLD while another file holds");
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0 by another file: %s", strerror(errno));
	KTAP_EXPECT(io_setup(1, &ctx) == 0, "io_setup");
	pat_fill(out, off, sizeof(out), 41);
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
	KTAP_EXPECT(get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(DELTA(a, b, dma_irq_completions) == 1 && DELTA(a, b, dma_failed) == 0 &&
		    b.dma_held == 0, "completions %+lld failed %+lld held %llu, want +1 +0 0",
		    DELTA(a, b, dma_irq_completions), DELTA(a, b, dma_failed),
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(pread(fd, in, sizeof(in), off) == (ssize_t)sizeof(in), "pread: %s",
		    strerror(errno));
	r = (int)pat_diff(in, off, sizeof(in), 41);
	KTAP_EXPECT(r < 0, "the device holds other data at offset %u", off + r);
	io_destroy(ctx);
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
	static unsigned char src[3000], got[3000], want[DEV_SIZE];
	struct demo_irqdev_stats a, b;
	long long pa = 0;
	long r;
	int fd;

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(kio_open() == 0, "test module");
	KTAP_EXPECT(dev_put(fd, 90, want) == 0, "fill the file");
	pat_fill(src, 333, sizeof(src), 91);
	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
	r = kio(DEV_PATH0, 1, src, sizeof(src), 333, &pa);
	KTAP_EXPECT(r == (long)sizeof(src) && pa == 333 + (long long)sizeof(src),
		    "kernel_write: %ld, pos %lld", r, pa);
	r = kio(DEV_PATH0, 0, got, 100, 333, &pa);
	KTAP_EXPECT(r == 100 && !memcmp(got, src, 100), "kernel_read of 100: %ld", r);
	r = kio(DEV_PATH0, 0, got, sizeof(got), 333, &pa);
	KTAP_EXPECT(r == (long)sizeof(got) && !memcmp(got, src, sizeof(got)),
		    "kernel_read of %zu: %ld", sizeof(got), r);
	r = kio(DEV_PATH0, 0, got, sizeof(got), DEV_SIZE - 10, NULL);
	KTAP_EXPECT(r == 10, "kernel_read across the end: %ld", r);
	r = kio(DEV_PATH0, 1, src, 10, DEV_SIZE, NULL);
	KTAP_EXPECT(r == -ENOSPC, "kernel_write at the end: %ld", r);
	r = kio(DEV_PATH0, 1, src, 0, DEV_SIZE, NULL);
	KTAP_EXPECT(r == 0, "kernel_write of nothing at the end: %ld", r);
	pat_fill(src, 77, sizeof(src), 92);
	r = kio_with(IRQAIO_KIO_VMALLOC, DEV_PATH0, 1, src, sizeof(src), 77, NULL);
	KTAP_EXPECT(r == (long)sizeof(src), "kernel_write from vmalloc()ed memory: %ld", r);
	memset(got, 0, sizeof(got));
	r = kio_with(IRQAIO_KIO_VMALLOC, DEV_PATH0, 0, got, sizeof(got), 77, NULL);
	KTAP_EXPECT(r == (long)sizeof(got) && !memcmp(got, src, sizeof(got)),
		    "kernel_read into vmalloc()ed memory: %ld, data %s", r,
		    memcmp(got, src, sizeof(got)) ? "differs" : "same");
	KTAP_EXPECT(get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(DELTA(a, b, dma_sync_waits) == 6 && DELTA(a, b, dma_queued) == 0,
		    "sync waits %+lld queued %+lld, want +6 +0", DELTA(a, b, dma_sync_waits),
		    DELTA(a, b, dma_queued));
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu", (unsigned long long)b.dma_held);
	close(fd);
	return kio_close() ? KTAP_FAIL : KTAP_PASS;
}

/* FOLL_PIN pins taken and released so far (/proc/vmstat, folded first); -1 if absent. */
static int read_pins(long long *acq, long long *rel)
{
	char name[64];
	long long val;
	FILE *f;
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1\n", 2) < 0) {
			/* then the per-CPU deltas fold in within a second */
		}
		close(fd);
	}
	*acq = *rel = -1;
	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &val) == 2) {
		if (!strcmp(name, "nr_foll_pin_acquired"))
			*acq = val;
		else if (!strcmp(name, "nr_foll_pin_released"))
			*rel = val;
	}
	fclose(f);
	return *acq >= 0 && *rel >= 0 ? 0 : -1;
}

/*
 * Wait, bounded, until every pin taken since (@acq0, @rel0) is released;
 * how many were taken and released in *@da, *@dr.
 */
static int pins_settle(long long acq0, long long rel0, long long *da, long long *dr, double max_s)
{
	double t0 = ktap_now();
	long long acq, rel;

	for (;;) {
		if (read_pins(&acq, &rel))
			return -1;
		*da = acq - acq0;
		*dr = rel - rel0;
		if (*da == *dr)
			return 0;
		if (ktap_now() - t0 > max_s)
			return -1;
		usleep(50000);
	}
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

	bad[0] = (struct iovec){ io->a + pg - 10, 300 };
	bad[1] = (struct iovec){ ro, 100 };
	res = xfer(io, P_AIO_PREADV, bad, 2, 0);
	KTAP_EXPECT(res == 300, "io_submit PREADV, second segment read-only: %ld, want 300", res);
	res = xfer(io, P_READV, bad, 2, 0);
	KTAP_EXPECT(res == 300, "readv(2), second segment read-only: %ld, want 300", res);
	bad[0] = (struct iovec){ ro, 100 };
	bad[1] = (struct iovec){ io->a + pg - 10, 300 };
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
	struct timespec zero = { 0 }, ts = { .tv_sec = EVENT_WAIT_S };
	struct demo_irqdev_stats a, m;
	struct iocb cb[4], *cbs[4];
	struct io_event ev[4], dummy;
	int fd = io->fd, k, r, got;

	for (k = 0; k < 4; k++) {
		io_prep_pread(&cb[k], fd, bufs + k * pg + pg - 100, 300, k * 300);
		cbs[k] = &cb[k];
		*batch += 2;
	}
	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(io->aio, 4, cbs);
	KTAP_EXPECT(r == 4, "io_submit: %d", r);
	KTAP_EXPECT(io_getevents(io->aio, 0, 4, ev, &zero) == 0, "events right after io_submit");
	KTAP_EXPECT(get_stats(fd, &m) == 0, "stats");
	KTAP_EXPECT(m.dma_held == *batch,
		    "dma_held %llu with 4 requests of 2 pieces waiting, want %llu",
		    (unsigned long long)m.dma_held, *batch);
	io_cancel(io->aio, &cb[3], &dummy);
	io_cancel(io->aio, &cb[2], &dummy);
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
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

	if (read_pins(&acq0, &rel0)) {
		ktap_diag("/proc/vmstat has no nr_foll_pin_acquired/released");
		return KTAP_SKIP;
	}
	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	KTAP_EXPECT(dev_put(fd, 80, NULL) == 0, "fill the file");
	KTAP_EXPECT(read_pins(&acq0, &rel0) == 0, "vmstat");
	KTAP_EXPECT(io_init(&io, fd) == 0, "setup");	/* registers FIXED_PAGES */
	ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bufs = arena(5);	/* the fourth buffer runs into a fifth page */
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
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0, "not idle: dma_held %llu",
		    (unsigned long long)b.dma_held);
	/* a ring's teardown may unpin from a workqueue: wait for it, not a while */
	r = pins_settle(acq0, rel0, &da, &dr, EVENT_WAIT_S);
	ktap_diag("FOLL_PIN: %lld taken, %lld released (%llu user pieces moved, %d registered pages)",
		  da, dr, user_pieces, FIXED_PAGES);
	KTAP_EXPECT(r == 0, "%lld pins not released %d s after the last request", da - dr,
		    EVENT_WAIT_S);
	KTAP_EXPECT(da >= (long long)user_pieces + FIXED_PAGES,
		    "only %lld pins taken for %llu user pieces and %d registered pages: not FOLL_PIN",
		    da, user_pieces, FIXED_PAGES);
	KTAP_EXPECT(b.dma_held == 0, "dma_held %llu when idle", (unsigned long long)b.dma_held);
	close(fd);
	return KTAP_PASS;
}

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
		memset(bufs + k * pg, UNTOUCHED, 300);
		io_prep_pread(&cb[k], fd, bufs + k * pg, 300, k * 300);
		cb[k].data = &cb[k];
		cbs[k] = &cb[k];
	}
	if (long_first) {
		for (k = 0; k < 4; k++)
			long_v[k] = (struct iovec){ bufs + (n + k) * pg + 1000, 100 };
		io_prep_preadv(&cb[0], fd, long_v, 4, 0);
		cb[0].data = &cb[0];
	}
}

/*
 * io_uring READs of 300 bytes, one piece each, but the first a READV of
 * four pieces (400 ms on the wire): with the first queued, io_uring's
 * nowait attempt of the others is refused and io-wq queues them later; the
 * caller holds the queue and waits until all are held (wait_held()) before
 * it counts on them being queued.
 */
static struct iovec first_v[4];

static void uring_queue_reads(struct io_uring *ring, int n, int fd, unsigned char *bufs)
{
	int k;

	for (k = 0; k < 4; k++)
		first_v[k] = (struct iovec){ bufs + k * pg + 1000, 100 };
	io_uring_prep_readv(sqe_for(ring, 0), fd, first_v, 4, 0);
	for (k = 1; k < n; k++)
		io_uring_prep_read(sqe_for(ring, k), fd, bufs + (k + 3) * pg, 300, k * 300);
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
	unsigned char *bufs = arena(n + 4);
	int fd = dev_open(0, 0), ret;

	if (fd < 0 || !bufs)
		return 2;
	if (dma_hold(hold_fd, 1))
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
	if (dma_hold(hold_fd, 0) || dma_hold(hold_fd, 1))
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
	if (dma_hold(hold_fd, 0) && !ret)
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

	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
	t0 = ktap_now();
	pid = fork();
	KTAP_EXPECT(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(exit_with_requests(n, part, can, fd));
	KTAP_EXPECT(waitpid(pid, &st, 0) == pid, "waitpid: %s", strerror(errno));
	dt = ktap_now() - t0;
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	KTAP_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "the child failed before exiting (status %#x; 2 open, 3 setup, 4 submit, 5 completed at once, 6 never all held, 7 DMA_HOLD)",
		    st);
	ktap_diag("process exit with %d %s requests in flight: %.3f s", n,
		  part ? "io_uring" : "io_submit", dt);
	/* the child's own bounded waits, then the exit: only a hang takes longer */
	KTAP_EXPECT(dt < n * 0.1 + 2 * EVENT_WAIT_S, "the exit took %.1f s", dt);
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0,
		    "not idle %d s after the exit: dma_held %llu", EVENT_WAIT_S,
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(DELTA(a, b, dma_queued) == n && DELTA(a, b, dma_failed) == 0,
		    "queued %+lld failed %+lld, want %d, 0", DELTA(a, b, dma_queued),
		    DELTA(a, b, dma_failed), n);
	KTAP_EXPECT(DELTA(a, b, dma_cancelled) == cancelled &&
		    DELTA(a, b, dma_transfers) == moved &&
		    DELTA(a, b, dma_irq_completions) == n - cancelled,
		    "cancelled %+lld transfers %+lld completions %+lld, want %d %d %d",
		    DELTA(a, b, dma_cancelled), DELTA(a, b, dma_transfers),
		    DELTA(a, b, dma_irq_completions), cancelled, moved, n - cancelled);
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
	fd2 = dev_open(0, 0);
	KTAP_EXPECT(fd2 >= 0, "open: %s", strerror(errno));
	prep_reads(cb, cbs, 6, fd2, bufs, true);
	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(ctx, 1, cbs);
	KTAP_EXPECT(r == 1, "io_submit: %d", r);
	KTAP_EXPECT(io_getevents(ctx, 0, 1, &ev, &zero) == 0, "an event right after io_submit");
	KTAP_EXPECT(dma_hold(fd, 0) == 0 && dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(ctx, 5, cbs + 1);
	KTAP_EXPECT(r == 5, "io_submit: %d", r);
	r = io_getevents(ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(r == 0 || (r == 1 && ev.obj == &cb[0]),
		    "an event of a queued request right after io_submit");
	KTAP_EXPECT(close(fd2) == 0, "close with requests in flight: %s", strerror(errno));
	if (!can)
		KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	t0 = ktap_now();
	r = io_destroy(ctx);
	dt = ktap_now() - t0;
	ktap_diag("io_destroy with 6 requests in flight: %d after %.3f s", r, dt);
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	KTAP_EXPECT(r == 0, "io_destroy: %s", strerror(-r));
	KTAP_EXPECT(dt < 6 * 0.1 + EVENT_WAIT_S, "io_destroy took %.1f s", dt);
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0,
		    "not idle after io_destroy: dma_held %llu", (unsigned long long)b.dma_held);
	k = can ? 5 : 0;
	KTAP_EXPECT(DELTA(a, b, dma_cancelled) == k && DELTA(a, b, dma_transfers) == 9 - k &&
		    DELTA(a, b, dma_failed) == 0,
		    "cancelled %+lld transfers %+lld failed %+lld, want %d %d 0",
		    DELTA(a, b, dma_cancelled), DELTA(a, b, dma_transfers), DELTA(a, b, dma_failed),
		    k, 9 - k);
	for (k = can ? 1 : 6; k < 6; k++)
		KTAP_EXPECT(bufs[k * pg] == UNTOUCHED && !memcmp(bufs + k * pg, bufs + k * pg + 1, 299),
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
	KTAP_EXPECT(get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	uring_queue_reads(&ring, 3, fd, bufs);
	r = io_uring_submit(&ring);
	KTAP_EXPECT(r == 3, "io_uring_submit: %d", r);
	KTAP_EXPECT(io_uring_peek_cqe(&ring, &cqe) == -EAGAIN, "a CQE right after the submission");
	KTAP_EXPECT(wait_held(fd, 6, &b) == 0, "the driver never held all 3 requests (%llu pieces)",
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	t0 = ktap_now();
	io_uring_queue_exit(&ring);
	dt = ktap_now() - t0;
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0,
		    "not idle after the ring's exit: dma_held %llu",
		    (unsigned long long)b.dma_held);
	ktap_diag("io_uring_queue_exit with 3 requests in flight: %.3f s, idle after %.3f s", dt,
		  ktap_now() - t0);
	KTAP_EXPECT(DELTA(a, b, dma_transfers) == 6 && DELTA(a, b, dma_irq_completions) == 3 &&
		    DELTA(a, b, dma_failed) == 0,
		    "transfers %+lld completions %+lld failed %+lld, want 6 3 0",
		    DELTA(a, b, dma_transfers), DELTA(a, b, dma_irq_completions),
		    DELTA(a, b, dma_failed));
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

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	can = a.dma_can_cancel;
	bufs = arena(10);
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

	u->fd = dma_begin(1, &u->a);
	KTAP_EXPECT(u->fd >= 0, "device");
	KTAP_EXPECT(io_setup(16, &u->ctx) == 0, "io_setup");
	KTAP_EXPECT(io_uring_queue_init(8, &u->ring, 0) == 0, "io_uring_queue_init");
	big = arena(8);
	u->bufs = arena(8);
	KTAP_EXPECT(big && u->bufs, "mmap");
	KTAP_EXPECT(dev_put(u->fd, 90, NULL) == 0, "fill the file");
	u->s1 = (struct sync_reader){ .fd = u->fd, .n = 8 };
	for (k = 0; k < 8; k++)
		u->s1.v[k] = (struct iovec){ big + k * pg + 100, 500 };
	u->s2 = (struct sync_reader){ .fd = u->fd, .n = 1, .v[0] = { u->bufs + 7 * pg, 200 } };
	u->ures[0] = LONG_MIN;
	u->ures[1] = LONG_MIN;
	KTAP_EXPECT(get_stats(u->fd, &u->a) == 0, "stats");
	return KTAP_PASS;
}

/* The first preadv(2) on the wire, the queue held, the second waiting for it. */
static int unbind_start_sync(struct unbind *u)
{
	KTAP_EXPECT(pthread_create(&u->t1, NULL, sync_read, &u->s1) == 0, "thread");
	KTAP_EXPECT(wait_reached(u->fd, &u->a, 1, 0, &u->m) == 0,
		    "the 8-piece preadv never reached the device");
	KTAP_EXPECT(dma_hold(u->fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
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
		io_uring_prep_read(sqe_for(&u->ring, k), fd, u->bufs + (5 + k) * pg, 300, 0);
	r = io_uring_submit(&u->ring);
	if (r != 2) {
		ktap_diag("io_uring_submit: %d", r);
		ret = KTAP_FAIL;
	}
	/* the io_uring ones reach the driver from io-wq (the device is busy) */
	if (ret == KTAP_PASS && wait_reached(fd, &u->a, 2, 7, &m)) {
		ktap_diag("not all 10 requests reached the device: synchronous %+lld, queued %+lld",
			  DELTA(a, m, dma_sync_waits), DELTA(a, m, dma_queued));
		ret = KTAP_FAIL;
	}
	/* one piece each queued; the first's eight until it is done, and only it can be */
	if (ret == KTAP_PASS &&
	    (DELTA(a, m, dma_irq_completions) > 1 || (m.dma_held != 16 && m.dma_held != 8) ||
	     (m.dma_held == 8 && !DELTA(a, m, dma_irq_completions)))) {
		ktap_diag("dma_held %llu, %lld done before the unbind: want 16 (8: the first done)",
			  (unsigned long long)m.dma_held, DELTA(a, m, dma_irq_completions));
		ret = KTAP_FAIL;
	}
	ktap_diag("before the unbind: the first %s", DELTA(a, m, dma_irq_completions) ?
		  "already done" : "on the wire");
	return ret;
}

/* After the unbind: the five events and the two CQEs. */
static int unbind_reap(struct unbind *u)
{
	struct timespec ts = { .tv_sec = EVENT_WAIT_S };
	int k, r, got;

	for (got = 0; got < 5; got += r) {
		r = io_getevents(u->ctx, 1, 5 - got, u->ev + got, &ts);
		KTAP_EXPECT(r > 0, "io_getevents after %d of 5 events: %d", got, r);
	}
	for (k = 0; k < 2; k++) {
		struct __kernel_timespec uts = { .tv_sec = EVENT_WAIT_S };
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
	bool pins = read_pins(&acq0, &rel0) == 0;
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
	r = write_file(DRIVER_DIR "/unbind", bdf);
	dt = ktap_now() - t0;
	ktap_diag("unbind %s with 10 requests in flight: %s after %.3f s", bdf,
		  r ? strerror(errno) : "done", dt);
	if (r)
		dma_hold(u.fd, 0);	/* still bound: let the queued ones run and end */
	KTAP_EXPECT(r == 0, "unbind");
	KTAP_EXPECT(dt < EVENT_WAIT_S, "unbind took %.1f s", dt);
	pthread_join(u.t1, NULL);
	pthread_join(u.t2, NULL);
	KTAP_EXPECT(ret == KTAP_PASS, "the requests were not all queued before the unbind");
	r = unbind_reap(&u);
	if (r == KTAP_PASS)
		r = unbind_results(&u);
	if (r != KTAP_PASS)
		return r;
	close_with_rings(u.fd, u.ctx, &u.ring);
	if (pins) {
		r = pins_settle(acq0, rel0, &da, &dr, EVENT_WAIT_S);
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

	if (!is_bound(bdf) && write_file(DRIVER_DIR "/bind", bdf)) {
		ktap_diag("bind %s: %s", bdf, strerror(errno));
		return -1;
	}
	while (ktap_now() - t0 < EVENT_WAIT_S) {
		if (!dev_bdf(1, now, sizeof(now)) && !strcmp(now, bdf) &&
		    !access("/dev/" DEMO_IRQDEV_NAME "1", F_OK))
			return 0;
		usleep(10000);
	}
	ktap_diag("%s bound, but /dev/demo_irqdev1 is not it after %d s", bdf, EVENT_WAIT_S);
	return -1;
}

KTAP_TEST(unbind_in_flight, 120)
{
	struct demo_irqdev_stats s;
	unsigned char want[DEV_SIZE], got[DEV_SIZE];
	struct iovec v[2] = { { got, 1234 }, { got + 1234, DEV_SIZE - 1234 } };
	io_context_t ctx = 0;
	struct iocb cb;
	char bdf[64];
	int fd, st, body;
	pid_t pid;
	long res;

	KTAP_EXPECT(dev_bdf(1, bdf, sizeof(bdf)) == 0, "device of demo_irqdev1: %s", strerror(errno));
	pid = fork();
	KTAP_EXPECT(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0)
		_exit(unbind_body(bdf));
	KTAP_EXPECT(waitpid(pid, &st, 0) == pid, "waitpid");
	body = WIFEXITED(st) ? WEXITSTATUS(st) : KTAP_FAIL;
	/* rebind whatever happened: the next programs need both devices */
	KTAP_EXPECT(rebind(bdf) == 0, "rebind");
	KTAP_EXPECT(body == KTAP_PASS, "requests across the unbind failed (status %#x)", st);
	fd = dev_open(1, 0);
	KTAP_EXPECT(fd >= 0, "open after rebinding: %s", strerror(errno));
	KTAP_EXPECT(get_stats(fd, &s) == 0, "stats");
	KTAP_EXPECT(s.dma_transfers == 0 && s.dma_queued == 0 && s.dma_held == 0 && s.dma_failed == 0,
		    "counters of a new binding: transfers %llu queued %llu held %llu failed %llu",
		    (unsigned long long)s.dma_transfers, (unsigned long long)s.dma_queued,
		    (unsigned long long)s.dma_held, (unsigned long long)s.dma_failed);
	KTAP_EXPECT(dev_put(fd, 91, want) == 0, "write after rebinding");
	KTAP_EXPECT(io_setup(4, &ctx) == 0, "io_setup");
	io_prep_preadv(&cb, fd, v, 2, 0);
	res = aio_one(ctx, &cb, NULL);
	KTAP_EXPECT(res == DEV_SIZE && !memcmp(got, want, DEV_SIZE),
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
	struct timespec ts = { .tv_sec = EVENT_WAIT_S };
	struct demo_irqdev_stats a, b;
	struct iocb cb[4], *cbs[4];
	struct io_event ev[4];
	io_context_t ctx = 0;
	unsigned char *bufs;
	int fd, k, r, st, got = 0;
	double t0, dt;

	fd = dma_begin(0, &a);
	KTAP_EXPECT(fd >= 0, "device");
	bufs = arena(10);
	KTAP_EXPECT(bufs, "mmap");
	KTAP_EXPECT(io_setup(4, &ctx) == 0, "io_setup");
	prep_reads(cb, cbs, 4, fd, bufs, false);
	KTAP_EXPECT(dma_hold(fd, 1) == 0, "DMA_HOLD: %s", strerror(errno));
	r = io_submit(ctx, 4, cbs);
	KTAP_EXPECT(r == 4, "io_submit: %d", r);
	t0 = ktap_now();
	st = system("rmmod demo_irqdev 2>/dev/null");
	dt = ktap_now() - t0;
	KTAP_EXPECT(dma_hold(fd, 0) == 0, "DMA_HOLD 0: %s", strerror(errno));
	KTAP_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) != 0 && module_loaded("demo_irqdev"),
		    "rmmod with 4 requests in flight succeeded (status %#x)", st);
	ktap_diag("rmmod with 4 requests in flight refused in %.3f s", dt);
	/* Refused, not waiting for the held requests: that wait would never end. */
	KTAP_EXPECT(dt < EVENT_WAIT_S, "rmmod took %.1f s to be refused", dt);
	while (got < 4) {
		r = io_getevents(ctx, 1, 4 - got, ev, &ts);
		KTAP_EXPECT(r > 0, "%d of 4 events within %d s", got, EVENT_WAIT_S);
		for (k = 0; k < r; k++)
			KTAP_EXPECT((long)ev[k].res == 300, "res %ld, want 300", (long)ev[k].res);
		got += r;
	}
	KTAP_EXPECT(wait_idle(fd, &b, EVENT_WAIT_S) == 0, "not idle: dma_held %llu",
		    (unsigned long long)b.dma_held);
	KTAP_EXPECT(DELTA(a, b, dma_queued) == 4 && DELTA(a, b, dma_failed) == 0 &&
		    DELTA(a, b, dma_irq_completions) == 4,
		    "queued %+lld failed %+lld completions %+lld, want 4 0 4",
		    DELTA(a, b, dma_queued), DELTA(a, b, dma_failed), DELTA(a, b, dma_irq_completions));
	io_destroy(ctx);
	close(fd);
	return KTAP_PASS;
}

int main(void)
{
	double t0 = ktap_now();
	int r;

	pg = sysconf(_SC_PAGESIZE);
	r = ktap_main("irqdev_dma");
	ktap_diag("irqdev_dma: %.1f s", ktap_now() - t0);
	return r;
}
