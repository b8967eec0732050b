// SPDX-License-Identifier: GPL-2.0
/*
 * uring_chardev - io_uring (Debian's liburing, linked statically) on
 * /dev/demo_chardev, every case also on a tmpfs file in the same boot as
 * the reference (chardev_test.h): READV/WRITEV, READ/WRITE, READ_FIXED/
 * WRITE_FIXED (registered buffers reach ->read_iter as ITER_BVEC, from an
 * offset inside the buffer, odd lengths), 64 SQEs in one submit, a linked
 * write then read, reads and writes across and at the end, faults in the
 * middle of a request, RWF_NOWAIT and io_uring's nowait attempt with its
 * io-wq retry against the throttle, IOPOLL refused.
 *
 * Each device case prints the shapes the driver saw ("# path: ...") and
 * asserts the kernel-backed ones (fixed buffers: BVEC only). Which user
 * shape IORING_OP_READ gets is asserted from the matrix fact ubuf
 * (ITER_UBUF for "single", else ITER_IOVEC).
 */
#include <liburing.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include "chardev_test.h"
#include "uring_test.h"

#define RING_DEPTH	64
#define FIXED_LEN	(64 * 1024)
/* No bound on a CQE's wait of its own: the test's timeout is the bound. */
#define CQE_WAIT_S	0

/*
 * Write @wv to @t at @off with one SQE, read it back into @rv with another
 * (WRITEV/READV when @vectored, else WRITE/READ of their one segment) and
 * compare, the device's path counters taken into *@b first.
 */
static int write_read_back(struct ct_target *t, bool vectored, const struct iovec *wv,
			   unsigned int wn, const struct iovec *rv, unsigned int rn, __u64 off,
			   struct demo_chardev_stats *b)
{
	const char *wop = vectored ? "WRITEV" : "WRITE", *rop = vectored ? "READV" : "READ";
	size_t len = 0;
	struct io_uring ring;
	unsigned int k;
	long res;

	for (k = 0; k < wn; k++)
		len += wv[k].iov_len;
	KTAP_EXPECT(io_uring_queue_init(8, &ring, 0) == 0, "queue_init");
	ct_paths_begin(b);
	if (vectored)
		io_uring_prep_writev(uring_sqe_for(&ring, 0), t->fd, wv, wn, off);
	else
		io_uring_prep_write(uring_sqe_for(&ring, 0), t->fd, wv[0].iov_base, len, off);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == (long)len, "%s: %s res %ld", t->name, wop, res);
	if (vectored)
		io_uring_prep_readv(uring_sqe_for(&ring, 0), t->fd, rv, rn, off);
	else
		io_uring_prep_read(uring_sqe_for(&ring, 0), t->fd, rv[0].iov_base, rv[0].iov_len, off);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == (long)len, "%s: %s res %ld", t->name, rop, res);
	KTAP_EXPECT(!memcmp(wv[0].iov_base, rv[0].iov_base, len), "%s: %s data differs", t->name,
		    rop);
	io_uring_queue_exit(&ring);
	return KTAP_PASS;
}

static int readv_writev_on(struct ct_target *t)
{
	unsigned char src[4111], dst[4111];
	struct iovec wv[3] = { { src, 1 }, { src + 1, 4097 }, { src + 4098, 13 } };
	struct iovec rv[2] = { { dst, 4000 }, { dst + 4000, 111 } };
	struct demo_chardev_stats b, d;
	int r;

	ct_fill(src, sizeof(src), 11);
	memset(dst, 0xee, sizeof(dst));
	r = write_read_back(t, true, wv, 3, rv, 2, 1000, &b);
	if (r != KTAP_PASS)
		return r;
	if (t->dev) {
		ct_paths_end("READV/WRITEV", &b, &d);
		KTAP_EXPECT(d.requests[DEMO_CHARDEV_PATH_IOVEC] == 2 && ct_other_paths(&d, DEMO_CHARDEV_PATH_IOVEC) == 0,
			    "two ITER_IOVEC requests expected");
	}
	return KTAP_PASS;
}

KTAP_TEST(uring_readv_writev, 30) { return ct_both(readv_writev_on); }

static int read_write_on(struct ct_target *t)
{
	unsigned char src[5003], dst[5003];
	struct iovec wv = { src, sizeof(src) }, rv = { dst, sizeof(dst) };
	struct demo_chardev_stats b, d;
	int r;

	ct_fill(src, sizeof(src), 12);
	memset(dst, 0xee, sizeof(dst));
	r = write_read_back(t, false, &wv, 1, &rv, 1, 9000, &b);
	if (r != KTAP_PASS)
		return r;
	if (t->dev) {
		/*
		 * One buffer: ITER_UBUF where every single-segment request is
		 * one (matrix fact ubuf=single, 6.5+), else ITER_IOVEC (io_uring
		 * built it with import_single_range() before).
		 */
		const char *ubuf = ktap_fact("ubuf");
		int want = ubuf && !strcmp(ubuf, "single") ? DEMO_CHARDEV_PATH_UBUF :
			   DEMO_CHARDEV_PATH_IOVEC;

		ct_paths_end("READ/WRITE", &b, &d);
		KTAP_EXPECT(ct_user_paths(&d) == 2 && d.requests[DEMO_CHARDEV_PATH_BVEC] == 0,
			    "two user-backed requests expected");
		KTAP_EXPECT(!ubuf || d.requests[want] == 2, "fact ubuf=%s: two %s requests expected",
			    ubuf, want == DEMO_CHARDEV_PATH_UBUF ? "UBUF" : "IOVEC");
	}
	return KTAP_PASS;
}

KTAP_TEST(uring_read_write, 30) { return ct_both(read_write_on); }

/* Two registered 64 KiB buffers. */
static int fixed_setup(struct io_uring *ring, unsigned char **b0, unsigned char **b1)
{
	static unsigned char *bufs;
	struct iovec iov[2];

	if (!bufs)
		bufs = mmap(NULL, 2 * FIXED_LEN, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bufs == MAP_FAILED)
		return -1;
	iov[0] = (struct iovec){ bufs, FIXED_LEN };
	iov[1] = (struct iovec){ bufs + FIXED_LEN, FIXED_LEN };
	if (io_uring_queue_init(8, ring, 0))
		return -1;
	if (io_uring_register_buffers(ring, iov, 2)) {
		io_uring_queue_exit(ring);
		return -1;
	}
	*b0 = bufs;
	*b1 = bufs + FIXED_LEN;
	return 0;
}

/*
 * WRITE_FIXED from 13 bytes into buffer 0, 4099 bytes; READ_FIXED 5
 * bytes further into buffer 1 at offset 7, 3001 bytes: the bytes around
 * the read stay untouched.
 */
static int fixed_on(struct ct_target *t)
{
	struct demo_chardev_stats b, d;
	unsigned char *b0, *b1, *want;
	struct io_uring ring;
	long res;
	size_t k;

	KTAP_EXPECT(fixed_setup(&ring, &b0, &b1) == 0, "register buffers: %s", strerror(errno));
	ct_fill(b0, FIXED_LEN, 13);
	memset(b1, 0xee, FIXED_LEN);
	ct_paths_begin(&b);
	io_uring_prep_write_fixed(uring_sqe_for(&ring, 0), t->fd, b0 + 13, 4099, 20001, 0);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == 4099, "%s: WRITE_FIXED res %ld", t->name, res);
	io_uring_prep_read_fixed(uring_sqe_for(&ring, 0), t->fd, b1 + 7, 3001, 20006, 1);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == 3001, "%s: READ_FIXED res %ld", t->name, res);
	KTAP_EXPECT(!memcmp(b1 + 7, b0 + 18, 3001), "%s: READ_FIXED data differs", t->name);
	for (k = 0; k < FIXED_LEN; k++)
		if (k < 7 || k >= 7 + 3001)
			KTAP_EXPECT(b1[k] == 0xee, "%s: READ_FIXED wrote byte %zu of the buffer", t->name, k);
	/* the store holds what WRITE_FIXED wrote, read the plain way */
	want = b0 + 13;
	KTAP_EXPECT(ct_holds(t, 20001, want, 4099), "%s: pread after WRITE_FIXED differs", t->name);
	io_uring_queue_exit(&ring);
	if (t->dev) {
		ct_paths_end("READ_FIXED/WRITE_FIXED", &b, &d);
		/* the pread of ct_holds() is the one user-backed request */
		KTAP_EXPECT(d.requests[DEMO_CHARDEV_PATH_BVEC] == 2 && ct_user_paths(&d) == 1 &&
			    ct_other_paths(&d, DEMO_CHARDEV_PATH_BVEC) == 1,
			    "fixed buffers: two ITER_BVEC requests expected");
	}
	return KTAP_PASS;
}

KTAP_TEST(uring_fixed_buffers, 30) { return ct_both(fixed_on); }

/* 64 writes in one io_uring_submit(), then one read of all of them. */
static int many_on(struct ct_target *t)
{
	static unsigned char src[RING_DEPTH * 1001];
	long res[RING_DEPTH];
	struct io_uring ring;
	unsigned int k;

	ct_fill(src, sizeof(src), 14);
	KTAP_EXPECT(io_uring_queue_init(RING_DEPTH, &ring, 0) == 0, "queue_init");
	for (k = 0; k < RING_DEPTH; k++) {
		res[k] = LONG_MIN;
		io_uring_prep_write(uring_sqe_for(&ring, k), t->fd, src + k * 1001, 1001, 30000 + k * 1001);
	}
	KTAP_EXPECT(uring_reap(&ring, RING_DEPTH, res, CQE_WAIT_S) == 0, "%s: 64 SQEs", t->name);
	for (k = 0; k < RING_DEPTH; k++)
		KTAP_EXPECT(res[k] == 1001, "%s: SQE %u res %ld", t->name, k, res[k]);
	KTAP_EXPECT(ct_holds(t, 30000, src, sizeof(src)), "%s: data after 64 writes differs", t->name);
	io_uring_queue_exit(&ring);
	return KTAP_PASS;
}

KTAP_TEST(uring_64_sqes_one_submit, 30) { return ct_both(many_on); }

/* WRITE linked to a READ of the same bytes: the read sees the write. */
static int linked_on(struct ct_target *t)
{
	unsigned char src[2500], dst[2500];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	long res[2] = { LONG_MIN, LONG_MIN };

	ct_fill(src, sizeof(src), 15);
	memset(dst, 0, sizeof(dst));
	KTAP_EXPECT(io_uring_queue_init(8, &ring, 0) == 0, "queue_init");
	sqe = uring_sqe_for(&ring, 0);
	io_uring_prep_write(sqe, t->fd, src, sizeof(src), 100000);
	sqe->flags |= IOSQE_IO_LINK;
	io_uring_prep_read(uring_sqe_for(&ring, 1), t->fd, dst, sizeof(dst), 100000);
	KTAP_EXPECT(uring_reap(&ring, 2, res, CQE_WAIT_S) == 0, "%s: linked pair", t->name);
	KTAP_EXPECT(res[0] == 2500 && res[1] == 2500, "%s: write %ld read %ld", t->name, res[0], res[1]);
	KTAP_EXPECT(!memcmp(src, dst, sizeof(src)), "%s: the linked read did not see the write", t->name);
	io_uring_queue_exit(&ring);
	return KTAP_PASS;
}

KTAP_TEST(uring_linked_write_then_read, 30) { return ct_both(linked_on); }

/*
 * At and across the end: reads short, then 0, the same on both. Writes:
 * the device is short, then ENOSPC; the file grows (documented).
 */
static int end_on(struct ct_target *t)
{
	unsigned char *b0, *b1, buf[300], want[100];
	struct io_uring ring;
	off_t end = t->size;
	long res;

	KTAP_EXPECT(ct_put(t, end - 100, 100, 16) == 0, "put");
	ct_fill(want, sizeof(want), 16);
	KTAP_EXPECT(fixed_setup(&ring, &b0, &b1) == 0, "register buffers");
	io_uring_prep_read(uring_sqe_for(&ring, 0), t->fd, buf, sizeof(buf), end - 100);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == 100 && !memcmp(buf, want, 100), "%s: READ across the end: %ld", t->name, res);
	io_uring_prep_read(uring_sqe_for(&ring, 0), t->fd, buf, sizeof(buf), end);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == 0, "%s: READ at the end: %ld", t->name, res);
	io_uring_prep_read_fixed(uring_sqe_for(&ring, 0), t->fd, b1, 1000, end - 10, 1);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == 10 && !memcmp(b1, want + 90, 10), "%s: READ_FIXED across the end: %ld",
		    t->name, res);
	io_uring_prep_write_fixed(uring_sqe_for(&ring, 0), t->fd, b0, 100, end - 50, 0);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == (t->dev ? 50 : 100), "%s: WRITE_FIXED across the end: %ld", t->name, res);
	io_uring_prep_write(uring_sqe_for(&ring, 0), t->fd, buf, 100, end);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == (t->dev ? -ENOSPC : 100), "%s: WRITE at the end: %ld", t->name, res);
	io_uring_queue_exit(&ring);
	if (!t->dev)
		KTAP_EXPECT(ftruncate(t->fd, t->size) == 0, "truncate");
	return KTAP_PASS;
}

KTAP_TEST(uring_across_and_at_end, 30) { return ct_both(end_on); }

/*
 * How far short of a fault the device's copy may stop: x86's user copies
 * go byte by byte up to the faulting address; arm64's copy_from_user()
 * gives up the block it was copying (seen: 48 bytes short of the page, on
 * 6.1 and 7.3), at most one 64-byte iteration of its copy loop.
 */
static long fault_slack(void)
{
	struct utsname u;

	return uname(&u) == 0 && !strcmp(u.machine, "aarch64") ? 64 : 0;
}

/*
 * A buffer whose second page is not mapped: WRITE moves some bytes before
 * the fault and leaves every byte after the ones it reports as it was;
 * READ fills only bytes before the fault. The device reports the whole
 * first page each time (less fault_slack()); tmpfs may stop earlier (seen:
 * 960 bytes for the write on 5.10), which a short count allows.
 */
static int fault_on(struct ct_target *t)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m, *want;
	struct io_uring ring;
	long res;

	m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	want = malloc(2 * pg);
	KTAP_EXPECT(m != MAP_FAILED && want, "mmap");
	KTAP_EXPECT(ct_put(t, 40000, 2 * pg, 17) == 0, "put");
	ct_fill(want, 2 * pg, 17);
	ct_fill(m, pg, 18);
	KTAP_EXPECT(mprotect(m + pg, pg, PROT_NONE) == 0, "mprotect");
	KTAP_EXPECT(io_uring_queue_init(8, &ring, 0) == 0, "queue_init");
	io_uring_prep_write(uring_sqe_for(&ring, 0), t->fd, m, 2 * pg, 40000);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res > 0 && res <= pg && (!t->dev || res >= pg - fault_slack()),
		    "%s: WRITE into a fault: %ld (page %ld)", t->name, res, pg);
	memcpy(want, m, res);
	KTAP_EXPECT(ct_holds(t, 40000, want, 2 * pg),
		    "%s: the faulting WRITE changed bytes it did not report", t->name);
	memset(m, 0xee, pg);
	io_uring_prep_read(uring_sqe_for(&ring, 0), t->fd, m, 2 * pg, 40000);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res > 0 && res <= pg && (!t->dev || res >= pg - fault_slack()),
		    "%s: READ into a fault: %ld (page %ld)", t->name, res, pg);
	KTAP_EXPECT(!memcmp(m, want, res), "%s: READ into a fault: data differs", t->name);
	io_uring_queue_exit(&ring);
	munmap(m, 2 * pg);
	free(want);
	return KTAP_PASS;
}

KTAP_TEST(uring_fault_mid_request, 30) { return ct_both(fault_on); }

/*
 * RWF_NOWAIT on a throttled device: -EAGAIN at once, nothing moved. Without
 * it, io_uring first tries without blocking (the driver counts an EAGAIN)
 * and then retries from an io-wq worker, which sleeps in the throttle and
 * succeeds; the same for a fixed-buffer write. tmpfs never blocks
 * (documented difference): the requests that may block succeed, and
 * RWF_NOWAIT is served or, where shmem does not set FMODE_NOWAIT, refused
 * with -EOPNOTSUPP (io_uring's answer for such a file); either is printed.
 */
static int nowait_on(struct ct_target *t)
{
	struct demo_chardev_stats b, d;
	unsigned char *b0, *b1, buf[512];
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	double t0;
	long res;

	KTAP_EXPECT(fixed_setup(&ring, &b0, &b1) == 0, "register buffers");
	if (t->dev)
		KTAP_EXPECT(ct_set_throttle(t->fd, CT_THROTTLE_MAX_MS) == 0, "throttle");
	ct_paths_begin(&b);
	sqe = uring_sqe_for(&ring, 0);
	io_uring_prep_read(sqe, t->fd, buf, sizeof(buf), 0);
	sqe->rw_flags = RWF_NOWAIT;
	res = uring_one(&ring, CQE_WAIT_S);
	if (t->dev) {
		KTAP_EXPECT(res == -EAGAIN, "device: RWF_NOWAIT READ, throttled: %ld", res);
		ct_paths_end("RWF_NOWAIT READ (throttled)", &b, &d);
		KTAP_EXPECT(d.eagain == 1 && d.slept == 0,
			    "device: one EAGAIN and no sleep expected: eagain %llu slept %llu",
			    (unsigned long long)d.eagain, (unsigned long long)d.slept);
		KTAP_EXPECT(ct_set_throttle(t->fd, CT_THROTTLE_MS) == 0, "throttle");
	} else {
		KTAP_EXPECT(res == (long)sizeof(buf) || res == -EOPNOTSUPP,
			    "tmpfs: RWF_NOWAIT READ: %ld", res);
		ktap_diag("tmpfs: RWF_NOWAIT READ %s", res == -EOPNOTSUPP ?
			  "refused with EOPNOTSUPP (no FMODE_NOWAIT)" : "served");
	}
	ct_paths_begin(&b);
	t0 = ktap_now();
	io_uring_prep_read(uring_sqe_for(&ring, 0), t->fd, buf, sizeof(buf), 0);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == (long)sizeof(buf), "%s: READ that may block: %ld", t->name, res);
	if (t->dev) {
		ct_paths_end("READ (throttled, io-wq retry)", &b, &d);
		KTAP_EXPECT(d.slept == 1, "device: the throttled READ slept %llu times",
			    (unsigned long long)d.slept);
		KTAP_EXPECT(ktap_now() - t0 >= CT_THROTTLE_MIN_S, "device: throttled READ took %.3fs",
			    ktap_now() - t0);
		KTAP_EXPECT(d.eagain >= 1 && ct_user_paths(&d) == d.eagain + 1,
			    "device: a nowait attempt (EAGAIN) then the io-wq retry expected");
	}
	ct_paths_begin(&b);
	t0 = ktap_now();
	io_uring_prep_write_fixed(uring_sqe_for(&ring, 0), t->fd, b0, 777, 5000, 0);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == 777, "%s: WRITE_FIXED that may block: %ld", t->name, res);
	if (t->dev) {
		ct_paths_end("WRITE_FIXED (throttled, io-wq retry)", &b, &d);
		KTAP_EXPECT(d.slept == 1, "device: the throttled WRITE_FIXED slept %llu times",
			    (unsigned long long)d.slept);
		KTAP_EXPECT(ktap_now() - t0 >= CT_THROTTLE_MIN_S,
			    "device: throttled WRITE_FIXED took %.3fs", ktap_now() - t0);
		KTAP_EXPECT(d.eagain >= 1 && d.requests[DEMO_CHARDEV_PATH_BVEC] == d.eagain + 1,
			    "device: a nowait attempt (EAGAIN) then the io-wq retry expected");
		KTAP_EXPECT(ct_set_throttle(t->fd, 0) == 0, "unthrottle");
	}
	io_uring_queue_exit(&ring);
	return KTAP_PASS;
}

KTAP_TEST(uring_nowait_and_iowq_retry, 30) { return ct_both(nowait_on); }

/*
 * IORING_SETUP_IOPOLL needs O_DIRECT and ->iopoll, which neither the
 * device nor tmpfs has: the request completes with -EOPNOTSUPP and never
 * reaches the driver.
 */
static int iopoll_on(struct ct_target *t)
{
	struct demo_chardev_stats b, d;
	unsigned char buf[64];
	struct io_uring ring;
	long res;
	int r;

	r = io_uring_queue_init(8, &ring, IORING_SETUP_IOPOLL);
	KTAP_EXPECT(r == 0, "IOPOLL ring: %s", strerror(-r));
	ct_paths_begin(&b);
	io_uring_prep_read(uring_sqe_for(&ring, 0), t->fd, buf, sizeof(buf), 0);
	res = uring_one(&ring, CQE_WAIT_S);
	KTAP_EXPECT(res == -EOPNOTSUPP, "%s: IOPOLL READ: %ld, want -EOPNOTSUPP", t->name, res);
	io_uring_queue_exit(&ring);
	if (t->dev) {
		ct_paths_end("IOPOLL READ", &b, &d);
		KTAP_EXPECT(ct_other_paths(&d, -1) == 0, "device: the refused request reached the driver");
	}
	return KTAP_PASS;
}

KTAP_TEST(uring_iopoll_refused, 30) { return ct_both(iopoll_on); }

int main(void)
{
	return ktap_main("uring_chardev");
}
