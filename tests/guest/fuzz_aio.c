// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_aio - a bounded io_submit() fuzzer against /dev/demo_chardev, with
 * fixed seeds and fixed iteration counts so that every run is the same run.
 *
 * What it sends (raw syscalls, no libaio wrapper in the way):
 *   opcodes PREAD, PWRITE, PREADV, PWRITEV, FSYNC, FDSYNC, POLL, NOOP and
 *   invalid ones; 0 to 1100 segments; lengths 0, small, page multiples,
 *   "negative" (>= 2^63) and huge; offsets in range, at and past the end,
 *   negative and near LLONG_MAX; valid, guard-page-crossing, unmapped,
 *   NULL, kernel and non-canonical pointers, for data and for the iovec
 *   array; random aio_rw_flags, aio_flags, aio_reqprio, aio_reserved2;
 *   an eventfd (IOCB_FLAG_RESFD) on and off, or a bad one; bad file
 *   descriptors, bad contexts, bad iocb pointers, negative counts.
 * In-flight cases: io_cancel and io_destroy while requests are pending
 * (aio POLL on an empty eventfd; a request sleeping in the throttled
 * driver in another thread), a signal to a sleeping request, and forked
 * children that exit, or are killed, with requests in flight.
 *
 * The last CANARY_BYTES of the store are a canary: filled with a known
 * pattern first and never written by a request that could move data
 * (a write whose segments could be read from lands below the canary or
 * at an offset that must be refused). At the end the canary's checksum
 * must be unchanged and the device must still answer plain and vectored
 * requests. Requests whose outcome is defined (valid segments, no
 * flags) are checked against the driver's documented semantics.
 *
 * FUZZ_AIO_ITERS overrides the number of batches (default below);
 * FUZZ_AIO_CORRUPT_CANARY=1 writes one canary byte on purpose before the
 * final check, to show that the check can fail.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/aio_abi.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include "chardev_test.h"

#ifndef RWF_HIPRI
#define RWF_HIPRI	0x1
#define RWF_DSYNC	0x2
#define RWF_SYNC	0x4
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT	0x8
#endif
#ifndef RWF_APPEND
#define RWF_APPEND	0x10
#endif

#define FUZZ_SEED		0x6a09e667f3bcc908ULL
#define FUZZ_ITERS		20000	/* batches of 1-8 iocbs */
#define FUZZ_CHILDREN		24
#define CANARY_BYTES		(16 * 1024)
#define MAX_SEGS		1100
#define MAX_BATCH		8
#define RING_EVENTS		128
#define PAGE			4096UL
/*
 * A bound for an event that is due: cancelled POLLs complete from a
 * workqueue, which a loaded host may run late; a missing event still fails.
 */
#define EVENT_WAIT_S		30
#define UIO_MAXIOV_		1024
#define MAX_RW_COUNT_		(INT_MAX & ~(PAGE - 1))
/* A fixed, far-away address that is proven unmapped (mapped, then unmapped). */
#define HOLE_ADDR		((void *)0x100000000000UL)
#define HOLE_LEN		(64 * 1024UL)

static int dev_fd = -1, legacy_fd = -1, efd = -1;
static size_t store_size, canary_start;
static uint64_t canary_sum;
static unsigned char *scratch;		/* store_size + PAGE bytes, then a PROT_NONE page */
static unsigned char *scratch_end;	/* first byte of the guard page */
static struct iovec *edge_iov;		/* iovec slots that run into a PROT_NONE page */
static size_t edge_iov_slots;

/* ktap_rand()'s state: the same sequence from the same seed everywhere. */
static uint64_t rng;
/* A tame batch is mostly well-formed, so that requests reach the driver. */
static int tame;

static uint64_t rnd(void)
{
	return ktap_rand(&rng);
}

static uint64_t rnd_below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static int chance(unsigned int pct)
{
	return rnd_below(100) < pct;
}

static long sys_io_setup(unsigned int nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long sys_io_destroy(aio_context_t ctx)
{
	return syscall(SYS_io_destroy, ctx);
}

static long sys_io_submit(aio_context_t ctx, long nr, struct iocb **cbs)
{
	return syscall(SYS_io_submit, ctx, nr, cbs);
}

static long sys_io_cancel(aio_context_t ctx, struct iocb *cb, struct io_event *ev)
{
	return syscall(SYS_io_cancel, ctx, cb, ev);
}

static long sys_io_getevents(aio_context_t ctx, long min_nr, long nr,
			     struct io_event *ev, struct timespec *ts)
{
	return syscall(SYS_io_getevents, ctx, min_nr, nr, ev, ts);
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static unsigned char canary_byte(size_t i)
{
	return (unsigned char)((i * 131 + 7) ^ 0x5a ^ (i >> 8));
}

/* Read the canary back through plain pread(2); 0 on success. */
static int canary_read_sum(uint64_t *sum)
{
	unsigned char *buf = malloc(CANARY_BYTES);
	ssize_t n;

	if (!buf)
		return -1;
	n = pread(dev_fd, buf, CANARY_BYTES, canary_start);
	if (n != CANARY_BYTES) {
		ktap_diag("canary pread: %zd (%s)", n, strerror(errno));
		free(buf);
		return -1;
	}
	*sum = fnv1a(buf, CANARY_BYTES);
	free(buf);
	return 0;
}

/* ---- request generation ------------------------------------------------ */

enum ptr_class { PC_VALID, PC_EDGE, PC_HOLE, PC_NULL, PC_KERNEL, PC_NONCANON };

/*
 * Could a write through this pointer change the store? Valid memory, of
 * course; but also any user address the kernel lets through to the driver
 * (NULL, the hole, the guard page): copy_from_user() zero-fills what it
 * could not copy, so a faulting copy straight into the store clears it.
 * Only kernel and non-canonical addresses are refused (access_ok) before
 * the driver runs. The test faulting_write_keeps_data checks that case on
 * its own; the fuzzer keeps such writes below the canary too, so that the
 * canary speaks for everything else.
 */
static int ptr_may_move_data(enum ptr_class c)
{
	return c != PC_KERNEL && c != PC_NONCANON;
}

static void *gen_ptr(enum ptr_class *cls)
{
	unsigned int r = tame && chance(85) ? 0 : rnd_below(100);

	if (r < 64) {
		*cls = PC_VALID;	/* up to store_size bytes fit before the guard */
		return scratch + rnd_below(PAGE);
	}
	if (r < 74) {
		*cls = PC_EDGE;		/* runs into the PROT_NONE page */
		return scratch_end - 1 - rnd_below(PAGE);
	}
	if (r < 82) {
		*cls = PC_HOLE;
		return (char *)HOLE_ADDR + rnd_below(HOLE_LEN);
	}
	if (r < 88) {
		*cls = PC_NULL;
		return (void *)(uintptr_t)rnd_below(64);
	}
	if (r < 94) {
		*cls = PC_KERNEL;
		return (void *)(uintptr_t)(0xffff888000000000ULL + rnd_below(1ULL << 30));
	}
	*cls = PC_NONCANON;
	return (void *)(uintptr_t)(0x8000000000000000ULL | rnd_below(1ULL << 40));
}

static uint64_t gen_len(void)
{
	static const uint64_t hostile[] = {
		UINT64_MAX, UINT64_MAX - 4095, 1ULL << 62, (uint64_t)INT_MAX + 1,
		(uint64_t)MAX_RW_COUNT_ + 1, (uint64_t)LLONG_MAX, (uint64_t)LLONG_MAX + 1,
		UINT32_MAX, (uint64_t)-512,
	};
	unsigned int r = tame && chance(85) ? rnd_below(78) : rnd_below(100);

	if (r < 40)
		return rnd_below(PAGE + 1);
	if (r < 55)
		return PAGE * (1 + rnd_below(16));
	if (r < 65)
		return 0;
	if (r < 78)
		return rnd_below(store_size + 1);
	return hostile[rnd_below(sizeof(hostile) / sizeof(hostile[0]))];
}

static int64_t gen_off(void)
{
	unsigned int r = tame && chance(85) ? rnd_below(68) : rnd_below(100);

	if (r < 50)
		return rnd_below(store_size);
	if (r < 60)
		return rnd_below(store_size / 512) * 512;
	if (r < 68)
		return store_size + (chance(30) ? 0 : rnd_below(store_size));
	if (r < 80) {
		switch (rnd_below(3)) {
		case 0: return -1;
		case 1: return -(int64_t)(1 + rnd_below(1ULL << 40));
		default: return LLONG_MIN;
		}
	}
	switch (rnd_below(3)) {
	case 0: return LLONG_MAX;
	case 1: return LLONG_MAX - (int64_t)rnd_below(PAGE);
	default: return 1LL << 62;
	}
}

/* An offset the driver must refuse for writes, or the kernel before it. */
static int64_t gen_refused_off(void)
{
	switch (rnd_below(4)) {
	case 0: return store_size + rnd_below(store_size);
	case 1: return -(int64_t)(1 + rnd_below(PAGE));
	case 2: return LLONG_MAX - (int64_t)rnd_below(PAGE);
	default: return store_size;
	}
}

struct req {
	struct iocb cb;
	struct iovec *iov;		/* MAX_SEGS slots, for vectored opcodes */
	int clean;			/* outcome defined: check it */
	int64_t expect;			/* expected res of a clean request */
	uint64_t total;			/* sum of segment lengths (clean only) */
};

static int is_rw(unsigned int op)
{
	return op == IOCB_CMD_PREAD || op == IOCB_CMD_PWRITE ||
	       op == IOCB_CMD_PREADV || op == IOCB_CMD_PWRITEV;
}

static int is_write(unsigned int op)
{
	return op == IOCB_CMD_PWRITE || op == IOCB_CMD_PWRITEV;
}

static unsigned int gen_opcode(void)
{
	static const unsigned int ops[] = {
		IOCB_CMD_PREAD, IOCB_CMD_PWRITE, IOCB_CMD_PREADV, IOCB_CMD_PWRITEV,
	};
	unsigned int r = tame && chance(90) ? 0 : rnd_below(100);

	if (r < 80)
		return ops[rnd_below(4)];
	if (r < 84)
		return IOCB_CMD_FSYNC;
	if (r < 87)
		return IOCB_CMD_FDSYNC;
	if (r < 90)
		return IOCB_CMD_POLL;
	if (r < 93)
		return IOCB_CMD_NOOP;
	if (r < 96)
		return 4;		/* the old IOCB_CMD_PREADX slot: invalid */
	return 9 + rnd_below(0x10000 - 9);
}

static uint32_t gen_rw_flags(int *odd)
{
	static const uint32_t known[] = { RWF_HIPRI, RWF_DSYNC, RWF_SYNC, RWF_NOWAIT, RWF_APPEND };
	unsigned int r = rnd_below(100);
	uint32_t f = 0;
	unsigned int i;

	*odd = 1;
	if (r < 70 || (tame && chance(80))) {
		*odd = 0;
		return 0;
	}
	if (r < 92) {
		for (i = 0; i < 5; i++)
			if (chance(30))
				f |= known[i];
		return f;
	}
	return (uint32_t)rnd();
}

/* The file a request names: mostly the device, in a wild batch others. */
static void gen_fildes(struct iocb *cb)
{
	cb->aio_fildes = dev_fd;
	switch (tame ? 19 : rnd_below(20)) {
	case 0: cb->aio_fildes = legacy_fd; break;	/* EINVAL on stock kernels */
	case 1: cb->aio_fildes = (uint32_t)-1; break;
	case 2: cb->aio_fildes = 9999; break;
	case 3: cb->aio_fildes = efd; break;		/* non-blocking eventfd */
	default: break;
	}
}

static void gen_poll(struct iocb *cb)
{
	/* POLL on the empty eventfd would stay in flight: the in-flight
	 * tests do that on purpose, the batches poll the device. */
	if ((int)cb->aio_fildes == efd)
		cb->aio_fildes = dev_fd;
	cb->aio_buf = chance(80) ? (POLLIN | POLLOUT) : rnd_below(0x10000);
	if (chance(10))
		cb->aio_offset = rnd();
}

/*
 * What a request's buffers add up to: the bytes they could move into the
 * store (@exposure), their total length, and whether every one is valid
 * memory that fits (then the outcome can be defined).
 */
struct gen_bufs {
	uint64_t exposure, total;
	int all_valid;
};

/* The segments of a PREADV/PWRITEV, and now and then a bad iovec array. */
static void gen_segments(struct req *r, struct gen_bufs *g)
{
	struct iocb *cb = &r->cb;
	uint64_t nsegs, i;
	enum ptr_class cls;
	unsigned int s = rnd_below(100);

	if (s < 5)
		nsegs = 0;
	else if (s < 60)
		nsegs = 1 + rnd_below(16);
	else if (s < 85)
		nsegs = 17 + rnd_below(UIO_MAXIOV_ - 16);
	else if (s < 95)
		nsegs = UIO_MAXIOV_ + 1 + rnd_below(MAX_SEGS - UIO_MAXIOV_);
	else
		nsegs = chance(50) ? UINT32_MAX : (uint64_t)rnd() >> 1;
	for (i = 0; i < nsegs && i < MAX_SEGS; i++) {
		r->iov[i].iov_base = gen_ptr(&cls);
		r->iov[i].iov_len = gen_len();
		if (ptr_may_move_data(cls))
			g->exposure += r->iov[i].iov_len > store_size ?
				       store_size : r->iov[i].iov_len;
		if (cls != PC_VALID || r->iov[i].iov_len > store_size ||
		    (unsigned char *)r->iov[i].iov_base + r->iov[i].iov_len > scratch_end)
			g->all_valid = 0;
		g->total += r->iov[i].iov_len;
	}
	if (nsegs > UIO_MAXIOV_)
		g->all_valid = 0;
	cb->aio_nbytes = nsegs;
	cb->aio_buf = (uintptr_t)r->iov;
	if (!tame && chance(4)) {
		/* The iovec array itself is bad, or runs into a guard page. */
		g->all_valid = 0;
		if (chance(50) && nsegs > edge_iov_slots) {
			memcpy(edge_iov, r->iov, edge_iov_slots * sizeof(*edge_iov));
			cb->aio_buf = (uintptr_t)edge_iov;
		} else {
			cb->aio_buf = (uintptr_t)gen_ptr(&cls);
			if (cls == PC_VALID || cls == PC_EDGE)
				cb->aio_buf = (uintptr_t)HOLE_ADDR;
		}
	}
}

/* The one buffer of a PREAD/PWRITE (or of an opcode that takes none). */
static void gen_buffer(struct iocb *cb, struct gen_bufs *g)
{
	enum ptr_class cls;

	cb->aio_buf = (uintptr_t)gen_ptr(&cls);
	cb->aio_nbytes = gen_len();
	if (ptr_may_move_data(cls))
		g->exposure = cb->aio_nbytes > store_size ? store_size : cb->aio_nbytes;
	if (cls != PC_VALID || cb->aio_nbytes > store_size ||
	    (unsigned char *)(uintptr_t)cb->aio_buf + cb->aio_nbytes > scratch_end)
		g->all_valid = 0;
	g->total = cb->aio_nbytes;
}

/*
 * The canary rule: a write to the device that could move @exposure bytes
 * into the canary goes below it, or to an offset that must be refused.
 */
static int64_t canary_safe_off(const struct iocb *cb, int64_t off, uint64_t exposure)
{
	if (is_write(cb->aio_lio_opcode) && (int)cb->aio_fildes == dev_fd && exposure &&
	    off >= 0 && (uint64_t)off < store_size &&
	    (uint64_t)off + exposure > canary_start) {
		if (exposure <= canary_start && chance(60))
			off = rnd_below(canary_start - exposure + 1);
		else
			off = gen_refused_off();
	}
	return off;
}

/* aio_rw_flags, an eventfd, the rarer fields: whether any is unusual. */
static int gen_flags(struct iocb *cb)
{
	int odd_flags;

	cb->aio_rw_flags = gen_rw_flags(&odd_flags);
	if (chance(30)) {
		cb->aio_flags = IOCB_FLAG_RESFD;
		cb->aio_resfd = (uint32_t)(chance(90) ? efd : (chance(50) ? dev_fd : -1));
		if ((int)cb->aio_resfd != efd)
			odd_flags = 1;
	}
	if (!tame && chance(5)) {
		cb->aio_flags |= chance(50) ? IOCB_FLAG_IOPRIO : (uint32_t)rnd();
		cb->aio_reqprio = (uint16_t)rnd();
		odd_flags = 1;
	}
	if (!tame && chance(3)) {
		cb->aio_reserved2 = rnd() | 1;
		odd_flags = 1;
	}
	return odd_flags;
}

/* Is the outcome of @r defined? Then say what it must be. */
static void set_expect(struct req *r, const struct gen_bufs *g, int odd_flags)
{
	const struct iocb *cb = &r->cb;
	unsigned int op = cb->aio_lio_opcode;
	int64_t off = cb->aio_offset;
	uint64_t total = g->total;
	int overflow = 0;

	if (total > (uint64_t)LLONG_MAX)
		overflow = 1;
	if (is_rw(op) && (int)cb->aio_fildes == dev_fd && g->all_valid && !odd_flags &&
	    !overflow && total > 0) {
		r->clean = 1;
		r->total = total;
		if (off < 0 || (uint64_t)off > (uint64_t)LLONG_MAX - total)
			r->expect = -EINVAL;
		else if ((uint64_t)off >= store_size)
			r->expect = is_write(op) ? -ENOSPC : 0;
		else
			r->expect = total < store_size - off ? (int64_t)total
							     : (int64_t)(store_size - off);
	}
}

/*
 * Fill @r with one random request. Writes to the device obey the canary
 * rule: the bytes that could be moved land below canary_start, or the
 * offset is one the kernel or the driver must refuse.
 */
static void gen_req(struct req *r)
{
	struct iocb *cb = &r->cb;
	unsigned int op = gen_opcode();
	struct gen_bufs g = { .all_valid = 1 };
	int64_t off;

	memset(cb, 0, sizeof(*cb));
	r->clean = 0;
	cb->aio_lio_opcode = op;
	gen_fildes(cb);
	if (op == IOCB_CMD_POLL) {
		gen_poll(cb);
		return;
	}
	off = gen_off();
	if (op == IOCB_CMD_PREADV || op == IOCB_CMD_PWRITEV)
		gen_segments(r, &g);
	else
		gen_buffer(cb, &g);
	cb->aio_offset = canary_safe_off(cb, off, g.exposure);
	set_expect(r, &g, gen_flags(cb));
}

/* ---- batches ------------------------------------------------------------ */

static void dump_batch(const struct req *reqs, long n)
{
	long i;
	uint64_t k;

	for (i = 0; i < n; i++) {
		const struct iocb *cb = &reqs[i].cb;

		ktap_diag("  iocb %ld: op %u fd %d off %lld buf %#llx nbytes %llu rw_flags %#x flags %#x",
			  i, cb->aio_lio_opcode, (int)cb->aio_fildes, (long long)cb->aio_offset,
			  (unsigned long long)cb->aio_buf, (unsigned long long)cb->aio_nbytes,
			  cb->aio_rw_flags, cb->aio_flags);
		if (cb->aio_lio_opcode != IOCB_CMD_PREADV && cb->aio_lio_opcode != IOCB_CMD_PWRITEV)
			continue;
		for (k = 0; k < cb->aio_nbytes && k < 8; k++)
			ktap_diag("    seg %llu: %p + %zu", (unsigned long long)k,
				  reqs[i].iov[k].iov_base, reqs[i].iov[k].iov_len);
	}
}

/* The canary after a batch: unchanged, or say which batch changed it. */
static int canary_check(const struct req *reqs, long n, unsigned long batch)
{
	uint64_t sum;

	if (canary_read_sum(&sum))
		return -1;
	if (sum == canary_sum)
		return 0;
	ktap_diag("canary changed by batch %lu:", batch);
	dump_batch(reqs, n);
	return -1;
}

struct fuzz_stats {
	unsigned long batches, iocbs, submitted, completed, clean_checked;
	unsigned long submit_err[8];	/* EINVAL EFAULT EBADF EAGAIN EOPNOTSUPP other */
	unsigned long cancelled;
};

static int errno_slot(int e)
{
	switch (e) {
	case EINVAL: return 0;
	case EFAULT: return 1;
	case EBADF: return 2;
	case EAGAIN: return 3;
	case EOPNOTSUPP: return 4;
	default: return 5;
	}
}

/*
 * The errnos io_submit may answer a hostile iocb with. ENOTBLK: on a
 * kernel without CONFIG_BLOCK (patched-6.1's config) ioprio_check_cap()
 * refuses every IOCB_FLAG_IOPRIO with it. patched-6.1 serves a file
 * without ->write_iter (the eventfd) through ->write whether or not it can
 * seek, as io_uring does, so ESPIPE is no longer an answer.
 */
static int submit_errno_ok(int e)
{
	return e == EINVAL || e == EFAULT || e == EBADF || e == EAGAIN ||
	       e == EOPNOTSUPP || e == ENOSPC || e == EINTR || e == EPERM ||
	       e == ENOMEM || e == ENOTBLK;
}

static int check_event(struct req *reqs, long n, const struct io_event *ev,
		       struct fuzz_stats *st)
{
	uint64_t idx = ev->data;
	struct req *r;

	if (idx >= (uint64_t)n || ev->obj != (uintptr_t)&reqs[idx].cb) {
		ktap_diag("event for an unknown iocb: data=%llu obj=%#llx",
			  (unsigned long long)ev->data, (unsigned long long)ev->obj);
		return -1;
	}
	r = &reqs[idx];
	st->completed++;
	if (ev->res > 0 && is_rw(r->cb.aio_lio_opcode) &&
	    (uint64_t)ev->res > store_size && (int)r->cb.aio_fildes == dev_fd) {
		ktap_diag("op %u moved %lld bytes, more than the store",
			  r->cb.aio_lio_opcode, (long long)ev->res);
		return -1;
	}
	if (!r->clean)
		return 0;
	st->clean_checked++;
	if ((int64_t)ev->res != r->expect) {
		ktap_diag("op %u off %lld total %llu: res %lld, expected %lld",
			  r->cb.aio_lio_opcode, (long long)r->cb.aio_offset,
			  (unsigned long long)r->total, (long long)ev->res,
			  (long long)r->expect);
		return -1;
	}
	return 0;
}

/*
 * Submit one batch and reap it. Requests still pending after the reap
 * (POLL) are cancelled; every submitted request must produce an event.
 */
static int run_batch(aio_context_t ctx, struct req *reqs, long n,
		     struct fuzz_stats *st)
{
	struct iocb *cbs[MAX_BATCH + 1];
	struct io_event ev[RING_EVENTS];
	struct timespec ts = { 0, 0 };
	long i, done = 0, tries, ret, k;

	tame = chance(60);
	for (i = 0; i < n; i++) {
		gen_req(&reqs[i]);
		reqs[i].cb.aio_data = i;
		cbs[i] = &reqs[i].cb;
	}
	st->batches++;
	st->iocbs += n;
	/* Now and then a bad iocb pointer in the array: submission stops there. */
	if (n > 1 && !tame && chance(3))
		cbs[rnd_below(n)] = chance(50) ? NULL : (struct iocb *)HOLE_ADDR;

	ret = sys_io_submit(ctx, n, cbs);
	if (ret < 0) {
		int e = errno;

		st->submit_err[errno_slot(e)]++;
		if (!submit_errno_ok(e)) {
			ktap_diag("io_submit: unexpected errno %d (%s)", e, strerror(e));
			return -1;
		}
		/* A clean first request may only be refused for its offset. */
		if (cbs[0] == &reqs[0].cb && reqs[0].clean && reqs[0].expect != -EINVAL &&
		    e != EAGAIN) {
			ktap_diag("clean op %u off %lld refused: %s", reqs[0].cb.aio_lio_opcode,
				  (long long)reqs[0].cb.aio_offset, strerror(e));
			return -1;
		}
		return 0;
	}
	if (ret > n) {
		ktap_diag("io_submit returned %ld for %ld iocbs", ret, n);
		return -1;
	}
	st->submitted += ret;
	for (tries = 0; done < ret && tries < 3; tries++) {
		k = sys_io_getevents(ctx, 0, RING_EVENTS, ev, &ts);
		if (k < 0) {
			ktap_diag("io_getevents: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < k; i++)
			if (check_event(reqs, n, &ev[i], st))
				return -1;
		done += k;
		if (done < ret)
			usleep(1000);
	}
	if (done < ret) {
		/* Pending (POLL): cancel what was submitted and collect it. */
		for (i = 0; i < ret; i++) {
			struct io_event cev;

			if (sys_io_cancel(ctx, cbs[i], &cev) == 0)
				st->cancelled++;
		}
		ts.tv_sec = EVENT_WAIT_S;
		while (done < ret) {
			k = sys_io_getevents(ctx, 1, RING_EVENTS, ev, &ts);
			if (k <= 0) {
				ktap_diag("%ld of %ld submitted requests never completed",
					  ret - done, ret);
				return -1;
			}
			for (i = 0; i < k; i++)
				if (check_event(reqs, n, &ev[i], st))
					return -1;
			done += k;
		}
	}
	return 0;
}

static struct req *alloc_reqs(void)
{
	struct req *reqs = calloc(MAX_BATCH, sizeof(*reqs));
	unsigned int i;

	if (!reqs)
		return NULL;
	for (i = 0; i < MAX_BATCH; i++) {
		reqs[i].iov = calloc(MAX_SEGS, sizeof(struct iovec));
		if (!reqs[i].iov)
			return NULL;
	}
	return reqs;
}

static unsigned long env_ulong(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : def;
}

/* Hostile calls around the batches: bad contexts, counts and arrays. */
static int hostile_calls(aio_context_t ctx)
{
	struct iocb *one[1] = { NULL };
	struct io_event ev;
	struct timespec ts = { 0, 0 };

	switch (rnd_below(6)) {
	case 0:
		return sys_io_submit(0, 1, one) == -1 && errno == EINVAL ? 0 : -1;
	case 1:
		return sys_io_submit(ctx + PAGE * (1 + rnd_below(16)), 1, one) == -1 &&
		       errno == EINVAL ? 0 : -1;
	case 2:
		return sys_io_submit(ctx, -(long)(1 + rnd_below(100)), one) == -1 &&
		       errno == EINVAL ? 0 : -1;
	case 3:
		return sys_io_submit(ctx, 1 + rnd_below(4), NULL) == -1 &&
		       errno == EFAULT ? 0 : -1;
	case 4:
		return sys_io_getevents(ctx, 2, 1, &ev, &ts) == -1 && errno == EINVAL ? 0 : -1;
	default:
		return sys_io_submit(ctx, 0, one) == 0 ? 0 : -1;
	}
}

static void print_stats(const char *what, const struct fuzz_stats *st)
{
	ktap_diag("%s: %lu batches, %lu iocbs, %lu submitted, %lu completed, %lu checked against the semantics, %lu cancelled",
		  what, st->batches, st->iocbs, st->submitted, st->completed,
		  st->clean_checked, st->cancelled);
	ktap_diag("%s: io_submit errors EINVAL=%lu EFAULT=%lu EBADF=%lu EAGAIN=%lu EOPNOTSUPP=%lu other=%lu",
		  what, st->submit_err[0], st->submit_err[1], st->submit_err[2],
		  st->submit_err[3], st->submit_err[4], st->submit_err[5]);
}

/* ---- tests -------------------------------------------------------------- */

/*
 * A write that faults must not change what it did not write: pwrite() from
 * an unmapped buffer fails with EFAULT and leaves the store as it was; one
 * whose buffer runs into a PROT_NONE page writes its valid prefix, returns
 * that count, and leaves the bytes after it as they were. The same through
 * io_submit.
 */
KTAP_TEST(faulting_write_keeps_data, 30)
{
	const size_t off = 8192, len = 8192;
	unsigned char *before = malloc(len), *after = malloc(len);
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	struct timespec ts = { 5, 0 };
	aio_context_t ctx = 0;
	ssize_t n;
	size_t i;

	KTAP_EXPECT(before && after, "out of memory");
	for (i = 0; i < len; i++)
		before[i] = (unsigned char)(0xa5 ^ i);
	KTAP_EXPECT(pwrite(dev_fd, before, len, off) == (ssize_t)len, "pwrite");

	n = pwrite(dev_fd, HOLE_ADDR, len, off);
	KTAP_EXPECT(n == -1 && errno == EFAULT, "pwrite from an unmapped buffer: %zd", n);
	KTAP_EXPECT(pread(dev_fd, after, len, off) == (ssize_t)len, "pread");
	for (i = 0; i < len && after[i] == before[i]; i++)
		;
	KTAP_EXPECT(i == len, "pwrite failed with EFAULT but changed the store at +%zu: %#x, was %#x (copy_from_user() zero-fills the bytes it could not copy)",
		    i, after[i], before[i]);

	/* 100 valid bytes, then the guard page. */
	memset(scratch_end - 100, 0x3c, 100);
	n = pwrite(dev_fd, scratch_end - 100, len, off);
	KTAP_EXPECT(n > 0 && n <= 100, "pwrite into a guard page: %zd (%s)", n, strerror(errno));
	KTAP_EXPECT(pread(dev_fd, after, len, off) == (ssize_t)len, "pread");
	for (i = n; i < len && after[i] == before[i]; i++)
		;
	KTAP_EXPECT(i == len, "short pwrite of %zd bytes changed the store at +%zu: %#x, was %#x",
		    n, i, after[i], before[i]);

	KTAP_EXPECT(pwrite(dev_fd, before, len, off) == (ssize_t)len, "pwrite");
	KTAP_EXPECT(sys_io_setup(4, &ctx) == 0, "io_setup: %s", strerror(errno));
	memset(&cb, 0, sizeof(cb));
	cb.aio_lio_opcode = IOCB_CMD_PWRITE;
	cb.aio_fildes = dev_fd;
	cb.aio_buf = (uintptr_t)HOLE_ADDR;
	cb.aio_nbytes = len;
	cb.aio_offset = off;
	KTAP_EXPECT(sys_io_submit(ctx, 1, cbs) == 1, "io_submit: %s", strerror(errno));
	KTAP_EXPECT(sys_io_getevents(ctx, 1, 1, &ev, &ts) == 1, "io_getevents");
	sys_io_destroy(ctx);
	KTAP_EXPECT((long long)ev.res == -EFAULT, "aio write from an unmapped buffer: %lld",
		    (long long)ev.res);
	KTAP_EXPECT(pread(dev_fd, after, len, off) == (ssize_t)len, "pread");
	for (i = 0; i < len && after[i] == before[i]; i++)
		;
	KTAP_EXPECT(i == len, "aio write failed with EFAULT but changed the store at +%zu", i);
	free(before);
	free(after);
	return KTAP_PASS;
}

KTAP_TEST(fuzz_submit, 280)
{
	unsigned long iters = env_ulong("FUZZ_AIO_ITERS", FUZZ_ITERS), it;
	struct fuzz_stats st = { 0 };
	struct req *reqs = alloc_reqs();
	aio_context_t ctx = 0;
	struct timespec t0, t1;

	KTAP_EXPECT(reqs, "out of memory");
	rng = FUZZ_SEED;
	KTAP_EXPECT(sys_io_setup(RING_EVENTS, &ctx) == 0, "io_setup: %s", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (it = 0; it < iters; it++) {
		long n = 1 + rnd_below(MAX_BATCH);

		if (run_batch(ctx, reqs, n, &st) || canary_check(reqs, n, it)) {
			ktap_diag("failed in batch %lu (seed %#llx)", it,
				  (unsigned long long)FUZZ_SEED);
			print_stats("fuzz_submit", &st);
			return KTAP_FAIL;
		}
		if (chance(5) && hostile_calls(ctx)) {
			ktap_diag("hostile call answered wrongly in batch %lu: %s", it,
				  strerror(errno));
			return KTAP_FAIL;
		}
		/* Context churn. */
		if (it % 500 == 499) {
			KTAP_EXPECT(sys_io_destroy(ctx) == 0, "io_destroy: %s", strerror(errno));
			ctx = 0;
			KTAP_EXPECT(sys_io_setup(RING_EVENTS, &ctx) == 0, "io_setup: %s",
				    strerror(errno));
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	KTAP_EXPECT(sys_io_destroy(ctx) == 0, "io_destroy: %s", strerror(errno));
	print_stats("fuzz_submit", &st);
	ktap_diag("fuzz_submit: %.1f s", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return st.clean_checked ? KTAP_PASS : KTAP_FAIL;
}

struct sleeper {
	aio_context_t ctx;
	int fd;			/* a throttled file: each request sleeps first */
	struct iocb cb;
	struct iovec iov[4];
	long ret;
	int err;
	pid_t tid;		/* the thread's, once it runs */
};

/* Submit one vectored read on a throttled file: io_submit sleeps in the driver. */
static void *sleeper_thread(void *arg)
{
	struct sleeper *s = arg;
	struct iocb *cbs[1] = { &s->cb };
	unsigned int i;

	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);

	for (i = 0; i < 4; i++) {
		s->iov[i].iov_base = scratch + i * PAGE;
		s->iov[i].iov_len = PAGE;
	}
	memset(&s->cb, 0, sizeof(s->cb));
	s->cb.aio_lio_opcode = IOCB_CMD_PREADV;
	s->cb.aio_fildes = s->fd;
	s->cb.aio_buf = (uintptr_t)s->iov;
	s->cb.aio_nbytes = 4;
	s->cb.aio_offset = 0;
	s->ret = sys_io_submit(s->ctx, 1, cbs);
	s->err = errno;
	return NULL;
}

static int open_throttled(unsigned int ms)
{
	int fd = ct_dev_open(0);

	if (fd >= 0 && ct_set_throttle(fd, ms)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Submit @n POLL requests on an empty eventfd: they stay in flight. */
static int submit_polls(aio_context_t ctx, int fd, struct iocb *cbs, unsigned int n)
{
	struct iocb *p[16];
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(&cbs[i], 0, sizeof(cbs[i]));
		cbs[i].aio_lio_opcode = IOCB_CMD_POLL;
		cbs[i].aio_fildes = fd;
		cbs[i].aio_buf = POLLIN;
		cbs[i].aio_data = 1000 + i;
		p[i] = &cbs[i];
	}
	return sys_io_submit(ctx, n, p);
}

KTAP_TEST(cancel_inflight, 120)
{
	struct iocb polls[8], bogus;
	struct io_event ev[16], cev;
	struct timespec ts = { EVENT_WAIT_S, 0 };
	struct sleeper s = { 0 };
	aio_context_t ctx = 0;
	int pfd, got = 0, round, einprogress = 0, asleep;
	long k;
	pthread_t t;

	KTAP_EXPECT(ct_catch_sigusr1() == 0, "sigaction");
	pfd = eventfd(0, EFD_NONBLOCK);
	KTAP_EXPECT(pfd >= 0, "eventfd: %s", strerror(errno));
	KTAP_EXPECT(sys_io_setup(64, &ctx) == 0, "io_setup: %s", strerror(errno));

	for (round = 0; round < 20; round++) {
		/* POLLs in flight: each cancel succeeds once, then EINVAL. */
		KTAP_EXPECT(submit_polls(ctx, pfd, polls, 8) == 8, "poll submit: %s", strerror(errno));
		for (k = 0; k < 8; k++) {
			long c = sys_io_cancel(ctx, &polls[k], &cev);

			KTAP_EXPECT(c == 0 || errno == EINPROGRESS, "io_cancel: %s", strerror(errno));
			einprogress += c != 0;
			KTAP_EXPECT(sys_io_cancel(ctx, &polls[k], &cev) == -1 && errno == EINVAL,
				    "second io_cancel of the same iocb: %ld %s", c, strerror(errno));
		}
		for (got = 0; got < 8; got += k) {
			k = sys_io_getevents(ctx, 1, 16, ev, &ts);
			KTAP_EXPECT(k > 0, "cancelled POLLs: %d of 8 events (%s)", got, strerror(errno));
		}
		/* io_cancel of iocbs that were never submitted, or bad pointers. */
		memset(&bogus, 0, sizeof(bogus));
		bogus.aio_lio_opcode = IOCB_CMD_PREAD;
		KTAP_EXPECT(sys_io_cancel(ctx, &bogus, &cev) == -1 && errno == EINVAL,
			    "cancel of an unsubmitted iocb: %s", strerror(errno));
		KTAP_EXPECT(sys_io_cancel(ctx, (struct iocb *)HOLE_ADDR, &cev) == -1 &&
			    errno == EFAULT, "cancel of an unmapped iocb: %s", strerror(errno));

		/* A request sleeping in the driver: not cancellable; a signal ends it. */
		s.ctx = ctx;
		s.tid = 0;
		s.fd = open_throttled(2000);
		KTAP_EXPECT(s.fd >= 0, "throttle: %s", strerror(errno));
		KTAP_EXPECT(pthread_create(&t, NULL, sleeper_thread, &s) == 0, "pthread_create");
		/* In the driver's 2 s sleep, seen from /proc rather than hoped for. */
		while (!__atomic_load_n(&s.tid, __ATOMIC_ACQUIRE))
			sched_yield();
		asleep = ktap_wait_syscall(s.tid, SYS_io_submit) == 0;
		k = sys_io_cancel(ctx, &s.cb, &cev);
		pthread_kill(t, SIGUSR1);
		pthread_join(t, NULL);
		close(s.fd);
		KTAP_EXPECT(asleep, "the submitting thread never slept in the driver");
		KTAP_EXPECT(k == -1, "io_cancel of a request in ->read_iter succeeded");
		KTAP_EXPECT(s.ret == 1, "sleeping submit returned %ld (%s)", s.ret, strerror(s.err));
		k = sys_io_getevents(ctx, 1, 1, ev, &ts);
		KTAP_EXPECT(k == 1, "no event for the interrupted request");
		KTAP_EXPECT((long long)ev[0].res == -EINTR || ev[0].res == 4 * PAGE,
			    "interrupted request: res %lld", (long long)ev[0].res);
	}
	KTAP_EXPECT(sys_io_destroy(ctx) == 0, "io_destroy: %s", strerror(errno));
	close(pfd);
	ktap_diag("20 rounds: 160 POLLs cancelled (%d with EINPROGRESS), 20 sleeping requests signalled",
		  einprogress);
	return KTAP_PASS;
}

KTAP_TEST(destroy_inflight, 120)
{
	struct iocb polls[8];
	struct io_event ev;
	struct timespec ts = { 0, 0 };
	struct sleeper s = { 0 };
	aio_context_t ctx;
	int pfd, round;
	pthread_t t;

	pfd = eventfd(0, EFD_NONBLOCK);
	KTAP_EXPECT(pfd >= 0, "eventfd: %s", strerror(errno));
	for (round = 0; round < 20; round++) {
		ctx = 0;
		KTAP_EXPECT(sys_io_setup(64, &ctx) == 0, "io_setup: %s", strerror(errno));
		KTAP_EXPECT(submit_polls(ctx, pfd, polls, 8) == 8, "poll submit: %s", strerror(errno));
		s.ctx = ctx;
		s.fd = open_throttled(50);
		KTAP_EXPECT(s.fd >= 0, "throttle: %s", strerror(errno));
		KTAP_EXPECT(pthread_create(&t, NULL, sleeper_thread, &s) == 0, "pthread_create");
		usleep(5000 + round * 1000);
		/* Waits for the sleeping request; cancels the POLLs. */
		KTAP_EXPECT(sys_io_destroy(ctx) == 0, "io_destroy with requests in flight: %s",
			    strerror(errno));
		pthread_join(t, NULL);
		close(s.fd);
		/* The sleeper raced with the destroy: submitted, or EINVAL. */
		KTAP_EXPECT(s.ret == 1 || (s.ret == -1 && s.err == EINVAL),
			    "submit racing io_destroy: %ld (%s)", s.ret, strerror(s.err));
		KTAP_EXPECT(sys_io_getevents(ctx, 0, 1, &ev, &ts) == -1 && errno == EINVAL,
			    "io_getevents on a destroyed context");
		KTAP_EXPECT(sys_io_destroy(ctx) == -1 && errno == EINVAL,
			    "second io_destroy");
	}
	close(pfd);
	ktap_diag("20 contexts destroyed with 8 POLLs and a sleeping request in flight");
	return KTAP_PASS;
}

/* A child: fuzz batches, then in-flight requests, then exit or be killed. */
static void child_body(unsigned int idx)
{
	struct fuzz_stats st = { 0 };
	struct req *reqs = alloc_reqs();
	struct iocb polls[8];
	struct sleeper s = { 0 };
	aio_context_t ctx = 0;
	pthread_t t;
	int pfd, i;

	rng = FUZZ_SEED + 0x1000 * (idx + 1);
	if (!reqs || sys_io_setup(RING_EVENTS, &ctx))
		_exit(2);
	for (i = 0; i < 100; i++)
		if (run_batch(ctx, reqs, 1 + rnd_below(MAX_BATCH), &st))
			_exit(1);
	pfd = eventfd(0, EFD_NONBLOCK);
	if (pfd < 0 || submit_polls(ctx, pfd, polls, 8) != 8)
		_exit(2);
	s.ctx = ctx;
	s.fd = open_throttled(100);
	if (s.fd < 0 || pthread_create(&t, NULL, sleeper_thread, &s))
		_exit(2);
	usleep(20000);
	/* Exit with the POLLs and the sleeping request in flight (or be killed before). */
	_exit(0);
}

KTAP_TEST(exit_inflight, 120)
{
	unsigned int i, exited = 0, killed = 0;
	int status;
	pid_t pid;

	rng = FUZZ_SEED ^ 3;
	for (i = 0; i < FUZZ_CHILDREN; i++) {
		unsigned int kill_after = i % 2 ? 5000 + rnd_below(200000) : 0;

		fflush(stdout);
		pid = fork();
		KTAP_EXPECT(pid >= 0, "fork: %s", strerror(errno));
		if (pid == 0)
			child_body(i);
		if (kill_after) {
			usleep(kill_after);
			kill(pid, SIGKILL);
		}
		KTAP_EXPECT(waitpid(pid, &status, 0) == pid, "waitpid: %s", strerror(errno));
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
			killed++;
		} else {
			KTAP_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
				    "child %u: status %#x", i, status);
			exited++;
		}
	}
	ktap_diag("%u children: %u exited and %u were killed with requests in flight",
		  FUZZ_CHILDREN, exited, killed);
	return KTAP_PASS;
}

/* After everything: the canary is intact and the device still works. */
KTAP_TEST(device_intact, 30)
{
	unsigned char *out, *in;
	struct iovec iov[3];
	uint64_t sum;
	size_t len = 64 * 1024;
	ssize_t n;

	if (getenv("FUZZ_AIO_CORRUPT_CANARY")) {
		unsigned char b = 0xff ^ canary_byte(100);

		ktap_diag("FUZZ_AIO_CORRUPT_CANARY: writing one canary byte on purpose");
		KTAP_EXPECT(pwrite(dev_fd, &b, 1, canary_start + 100) == 1, "pwrite");
	}
	KTAP_EXPECT(canary_read_sum(&sum) == 0, "cannot read the canary back");
	KTAP_EXPECT(sum == canary_sum, "canary checksum %#llx, was %#llx: the fuzzer's requests changed bytes no request may change",
		    (unsigned long long)sum, (unsigned long long)canary_sum);
	ktap_diag("canary of %d bytes intact (fnv1a %#llx)", CANARY_BYTES,
		  (unsigned long long)sum);

	out = malloc(len);
	in = malloc(len);
	KTAP_EXPECT(out && in, "out of memory");
	for (size_t i = 0; i < len; i++)
		out[i] = (unsigned char)(i * 7 + 3);
	n = pwrite(dev_fd, out, len, 4096);
	KTAP_EXPECT(n == (ssize_t)len, "pwrite after fuzzing: %zd (%s)", n, strerror(errno));
	iov[0].iov_base = in;
	iov[0].iov_len = 1000;
	iov[1].iov_base = in + 1000;
	iov[1].iov_len = 30000;
	iov[2].iov_base = in + 31000;
	iov[2].iov_len = len - 31000;
	n = preadv(dev_fd, iov, 3, 4096);
	KTAP_EXPECT(n == (ssize_t)len && !memcmp(in, out, len),
		    "preadv after fuzzing: %zd, data %s", n, memcmp(in, out, len) ? "differs" : "same");
	KTAP_EXPECT(pread(dev_fd, in, 16, store_size) == 0, "read at the end is not 0");
	return KTAP_PASS;
}

static int setup(void)
{
	unsigned char *canary;
	void *p;
	size_t i;

	dev_fd = ct_dev_open(0);
	store_size = dev_fd < 0 ? 0 : ct_dev_size(dev_fd);
	if (store_size < 4 * CANARY_BYTES) {
		printf("# no usable %s: %s\n", DEMO_CHARDEV_PATH, strerror(errno));
		return -1;
	}
	canary_start = store_size - CANARY_BYTES;
	legacy_fd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	efd = eventfd(0, EFD_NONBLOCK);

	/* Data buffers: store_size + PAGE usable bytes, then a guard page. */
	p = mmap(NULL, store_size + 2 * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	scratch = p;
	scratch_end = scratch + store_size + PAGE;
	if (mprotect(scratch_end, PAGE, PROT_NONE))
		return -1;
	/* iovec slots that end in a guard page: copying the array faults. */
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect((char *)p + PAGE, PAGE, PROT_NONE))
		return -1;
	edge_iov_slots = 16;
	edge_iov = (struct iovec *)((char *)p + PAGE) - edge_iov_slots;
	/* The hole: map it to prove the range is ours to use, then unmap it. */
	p = mmap(HOLE_ADDR, HOLE_LEN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != HOLE_ADDR || munmap(p, HOLE_LEN))
		return -1;

	canary = malloc(CANARY_BYTES);
	if (!canary)
		return -1;
	for (i = 0; i < CANARY_BYTES; i++)
		canary[i] = canary_byte(i);
	if (pwrite(dev_fd, canary, CANARY_BYTES, canary_start) != CANARY_BYTES)
		return -1;
	canary_sum = fnv1a(canary, CANARY_BYTES);
	free(canary);
	return 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setup())
		return ktap_setup_failed("fuzz_aio", "no usable %s or test mappings (%s)",
					 DEMO_CHARDEV_PATH, strerror(errno));
	return ktap_main("fuzz_aio");
}
