// SPDX-License-Identifier: GPL-2.0
/*
 * aio_vectored - io_submit() with iovecs on /dev/demo_chardev (libaio),
 * plus read/write/readv/writev on the same device.
 *
 * The driver serves every request synchronously through one data path
 * (compat/aio_compat.h) and counts which shape the kernel handed it in;
 * each test prints the counts it caused as "# path: ..." (BUF = one plain
 * buffer, IOVEC = iovec array / ITER_IOVEC, UBUF = ITER_UBUF).
 *
 * Kernel differences asserted (test aio_paths_per_kernel):
 *   5.10   every user request is ITER_IOVEC (no ITER_UBUF before 6.0)
 *   6.1    read(2)/write(2) are ITER_UBUF (6.0); readv(2) and io_submit,
 *          even with one segment or IOCB_CMD_PREAD, are still ITER_IOVEC
 *   6.12   any single-segment request is ITER_UBUF (import_ubuf(), and
 *          __import_iovec() for nr_segs == 1 since 6.4/6.5); 2+ segments
 *          ITER_IOVEC
 * patched-6.1 has the stock 6.1 iov_iter code.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libaio.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <irqaio/demo_chardev.h>
#include "aio_test.h"
#include "chardev_test.h"
#include <ktap.h>

#define MAX_SEGS	1025

/*
 * One vectored request, @op IO_CMD_PREADV or IO_CMD_PWRITEV, of @v[@n] at
 * @off on @fd. vec_wait() waits for its event: the event's res, or what
 * aio_submit_wait() says instead (io_submit()'s answer in *@sr).
 * vec_submit() is for a request io_submit() must refuse: its answer.
 */
static void vec_prep(struct iocb *cb, int fd, int op, const struct iovec *v, int n, long long off)
{
	if (op == IO_CMD_PWRITEV)
		io_prep_pwritev(cb, fd, v, n, off);
	else
		io_prep_preadv(cb, fd, v, n, off);
}

static long vec_wait(io_context_t ctx, int fd, int op, const struct iovec *v, int n, long long off,
		     int *sr)
{
	struct iocb cb;

	vec_prep(&cb, fd, op, v, n, off);
	return aio_submit_wait(ctx, &cb, CT_AIO_WAIT_S, sr);
}

static int vec_submit(io_context_t ctx, int fd, int op, const struct iovec *v, int n, long long off)
{
	struct iocb cb, *cbs[1] = { &cb };

	vec_prep(&cb, fd, op, v, n, off);
	return io_submit(ctx, 1, cbs);
}

/* Segment sizes: a mix of tiny, odd and page-sized pieces. */
static size_t seg_len(int nsegs, int k)
{
	static const size_t mix[] = { 1, 4096, 7, 512, 3000, 13, 65, 8192, 2 };

	if (nsegs == 1)
		return 5000;
	if (nsegs >= 256)
		return 1 + (k * 37) % 190;
	return mix[k % (sizeof(mix) / sizeof(mix[0]))];
}

static int integrity(int nsegs, long long off)
{
	static struct iovec wv[MAX_SEGS], rv[MAX_SEGS];
	unsigned char *src, *dst, *back;
	size_t total = 0, done;
	io_context_t ctx = 0;
	int fd, k, sr;
	long res;

	for (k = 0; k < nsegs; k++)
		total += seg_len(nsegs, k);
	src = malloc(total);
	dst = malloc(total);
	back = malloc(total);
	KTAP_EXPECT(src && dst && back, "malloc");
	ct_fill(src, total, nsegs);
	memset(dst, 0xee, total);
	for (k = 0, done = 0; k < nsegs; k++) {
		wv[k].iov_base = src + done;
		wv[k].iov_len = seg_len(nsegs, k);
		done += wv[k].iov_len;
	}
	/* read back with a different split: the segments in reverse order */
	for (k = 0, done = 0; k < nsegs; k++) {
		rv[k].iov_base = dst + done;
		rv[k].iov_len = seg_len(nsegs, nsegs - 1 - k);
		done += rv[k].iov_len;
	}
	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_PATH, 0, 8, &fd, &ctx) == 0, "setup");
	res = vec_wait(ctx, fd, IO_CMD_PWRITEV, wv, nsegs, off, &sr);
	KTAP_EXPECT(res == (long)total, "pwritev %d segs: submit %d res %ld, want %zu",
		    nsegs, sr, res, total);
	res = vec_wait(ctx, fd, IO_CMD_PREADV, rv, nsegs, off, &sr);
	KTAP_EXPECT(res == (long)total, "preadv %d segs: submit %d res %ld", nsegs, sr, res);
	KTAP_EXPECT(!memcmp(src, dst, total), "preadv %d segs: data differs", nsegs);
	/* and the same bytes through plain pread(2) */
	KTAP_EXPECT(pread(fd, back, total, off) == (ssize_t)total, "pread");
	KTAP_EXPECT(!memcmp(src, back, total), "pread after pwritev: data differs");
	ktap_diag("%d segments, %zu bytes at %lld: ok", nsegs, total, off);
	ct_aio_teardown(fd, ctx);
	free(src);
	free(dst);
	free(back);
	return KTAP_PASS;
}

CT_PATH_TEST(aio_integrity_1seg, 30) { return integrity(1, 100); }
CT_PATH_TEST(aio_integrity_2seg, 30) { return integrity(2, 7777); }
CT_PATH_TEST(aio_integrity_16seg, 30) { return integrity(16, 20000); }
CT_PATH_TEST(aio_integrity_1024seg, 60) { return integrity(1024, 65536 + 3); }

/* IOCB_CMD_PREAD/PWRITE: one plain buffer through io_submit. */
CT_AIO_TEST(aio_integrity_single_buffer, 30, 0, 4)
{
	unsigned char src[3000], dst[3000];
	struct iocb cb;
	int sr;

	ct_fill(src, sizeof(src), 77);
	io_prep_pwrite(&cb, t->fd, src, sizeof(src), 4321);
	KTAP_EXPECT(aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, &sr) == (long)sizeof(src), "pwrite %d", sr);
	io_prep_pread(&cb, t->fd, dst, sizeof(dst), 4321);
	KTAP_EXPECT(aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, &sr) == (long)sizeof(dst), "pread %d", sr);
	KTAP_EXPECT(!memcmp(src, dst, sizeof(src)), "data differs");
	return KTAP_PASS;
}

CT_AIO_TEST(aio_zero_length_segments, 30, 0, 4)
{
	unsigned char a[10], b[20], in[30], out[30];
	struct iovec wv[6] = {
		{ a, 0 }, { a, sizeof(a) }, { NULL, 0 }, { b, 0 }, { b, sizeof(b) }, { a, 0 },
	};
	struct iovec rv[3] = { { in, 0 }, { in, sizeof(in) }, { in, 0 } };
	struct iovec zv[3] = { { NULL, 0 }, { a, 0 }, { NULL, 0 } };
	int sr;
	long res;

	ct_fill(a, sizeof(a), 3);
	ct_fill(b, sizeof(b), 4);
	memcpy(out, a, sizeof(a));
	memcpy(out + sizeof(a), b, sizeof(b));
	res = vec_wait(t->ctx, t->fd, IO_CMD_PWRITEV, wv, 6, 900, &sr);
	KTAP_EXPECT(res == 30, "pwritev with empty segments: submit %d res %ld", sr, res);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, rv, 3, 900, &sr);
	KTAP_EXPECT(res == 30 && !memcmp(in, out, 30), "preadv: res %ld", res);
	/* only empty segments: nothing to do, res 0 */
	res = vec_wait(t->ctx, t->fd, IO_CMD_PWRITEV, zv, 3, 900, &sr);
	KTAP_EXPECT(res == 0, "all-empty pwritev: submit %d res %ld", sr, res);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, zv, 1, 900, &sr);
	KTAP_EXPECT(res == 0, "one empty segment preadv: submit %d res %ld", sr, res);
	return KTAP_PASS;
}

/* UIO_MAXIOV + 1 segments: refused by io_submit itself. */
CT_AIO_TEST(aio_1025_segments_einval, 30, 0, 4)
{
	static struct iovec v[1025];
	static unsigned char buf[1025];
	int k, r;

	for (k = 0; k < 1025; k++)
		v[k] = (struct iovec){ buf + k, 1 };
	r = vec_submit(t->ctx, t->fd, IO_CMD_PREADV, v, 1025, 0);
	KTAP_EXPECT(r == -EINVAL, "io_submit preadv 1025 segs: %d", r);
	r = vec_submit(t->ctx, t->fd, IO_CMD_PWRITEV, v, 1025, 0);
	KTAP_EXPECT(r == -EINVAL, "io_submit pwritev 1025 segs: %d", r);
	return KTAP_PASS;
}

/* The iovec array itself unreadable: EFAULT from io_submit. */
CT_PATH_TEST(aio_unreadable_iovec_efault, 30)
{
	io_context_t ctx = 0;
	void *page;
	int fd, r;

	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KTAP_EXPECT(page != MAP_FAILED, "mmap");
	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_PATH, 0, 4, &fd, &ctx) == 0, "setup");
	r = vec_submit(ctx, fd, IO_CMD_PREADV, page, 2, 0);
	KTAP_EXPECT(r == -EFAULT, "preadv with PROT_NONE iovec array: %d", r);
	r = vec_submit(ctx, fd, IO_CMD_PWRITEV, page, 1, 0);
	KTAP_EXPECT(r == -EFAULT, "pwritev with PROT_NONE iovec array: %d", r);
	ct_aio_teardown(fd, ctx);
	munmap(page, 4096);
	return KTAP_PASS;
}

/* Data buffer unmapped: bytes before the fault, else EFAULT, in the event. */
CT_PATH_TEST(aio_unmapped_buffer, 30)
{
	io_context_t ctx = 0;
	unsigned char *p;
	struct iovec v[2];
	int fd, sr, k;
	long res;

	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KTAP_EXPECT(p != MAP_FAILED, "mmap");
	ct_fill(p, 4096, 9);
	/* io_setup() maps the ring: do it first, or it may land in the hole */
	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_PATH, 0, 4, &fd, &ctx) == 0, "setup");
	KTAP_EXPECT(munmap(p + 4096, 4096) == 0, "munmap");
	v[0] = (struct iovec){ p, 4096 };
	v[1] = (struct iovec){ p + 4096, 4096 };
	res = vec_wait(ctx, fd, IO_CMD_PWRITEV, v, 2, 0, &sr);
	KTAP_EXPECT(res == 4096, "pwritev mapped+unmapped: submit %d res %ld", sr, res);
	res = vec_wait(ctx, fd, IO_CMD_PREADV, v, 2, 0, &sr);
	KTAP_EXPECT(res == 4096, "preadv mapped+unmapped: submit %d res %ld", sr, res);
	/*
	 * A segment that runs into the hole comes back short; the walk must
	 * stop there and leave the next (mapped) segment untouched.
	 */
	v[0] = (struct iovec){ p + 2048, 4096 };
	v[1] = (struct iovec){ p, 100 };
	memset(p, 0xaa, 100);
	res = vec_wait(ctx, fd, IO_CMD_PREADV, v, 2, 0, &sr);
	KTAP_EXPECT(res > 0 && res <= 2048, "preadv into a segment half unmapped: %ld", res);
	for (k = 0; k < 100; k++)
		KTAP_EXPECT(p[k] == 0xaa, "segment after the short one was written (byte %d)", k);
	v[1] = (struct iovec){ p + 4096, 4096 };
	res = vec_wait(ctx, fd, IO_CMD_PREADV, &v[1], 1, 0, &sr);
	KTAP_EXPECT(res == -EFAULT, "preadv unmapped only: submit %d res %ld", sr, res);
	res = vec_wait(ctx, fd, IO_CMD_PWRITEV, &v[1], 1, 0, &sr);
	KTAP_EXPECT(res == -EFAULT, "pwritev unmapped only: submit %d res %ld", sr, res);
	ct_aio_teardown(fd, ctx);
	munmap(p, 4096);
	return KTAP_PASS;
}

CT_AIO_TEST(aio_negative_offset_einval, 30, 0, 4)
{
	unsigned char buf[16];
	struct iovec v = { buf, sizeof(buf) };
	int r;

	r = vec_submit(t->ctx, t->fd, IO_CMD_PREADV, &v, 1, -1);
	KTAP_EXPECT(r == -EINVAL, "preadv at -1: %d", r);
	r = vec_submit(t->ctx, t->fd, IO_CMD_PWRITEV, &v, 1, -4096);
	KTAP_EXPECT(r == -EINVAL, "pwritev at -4096: %d", r);
	return KTAP_PASS;
}

CT_AIO_TEST(aio_read_at_and_past_end, 30, 0, 4)
{
	unsigned char buf[100];
	struct iovec v[2] = { { buf, 40 }, { buf + 40, 60 } };
	size_t size;
	int sr;
	long res;

	size = ct_dev_size(t->fd);
	KTAP_EXPECT(size > 4096, "size %zu", size);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, v, 2, size - 50, &sr);
	KTAP_EXPECT(res == 50, "read across the end: %ld", res);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, v, 2, size, &sr);
	KTAP_EXPECT(res == 0, "read at the end: %ld", res);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, v, 2, size + 4096, &sr);
	KTAP_EXPECT(res == 0, "read past the end: %ld", res);
	KTAP_EXPECT(pread(t->fd, buf, sizeof(buf), size - 10) == 10, "pread across the end");
	KTAP_EXPECT(pread(t->fd, buf, sizeof(buf), size) == 0, "pread at the end");
	return KTAP_PASS;
}

CT_AIO_TEST(aio_write_past_end, 30, 0, 4)
{
	unsigned char buf[100], back[30];
	struct iovec v[2] = { { buf, 70 }, { buf + 70, 30 } };
	size_t size;
	int sr;
	long res;

	size = ct_dev_size(t->fd);
	ct_fill(buf, sizeof(buf), 11);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PWRITEV, v, 2, size - 30, &sr);
	KTAP_EXPECT(res == 30, "write across the end: %ld", res);
	KTAP_EXPECT(pread(t->fd, back, 30, size - 30) == 30 && !memcmp(back, buf, 30),
		    "the 30 bytes that fit");
	res = vec_wait(t->ctx, t->fd, IO_CMD_PWRITEV, v, 2, size, &sr);
	KTAP_EXPECT(res == -ENOSPC, "write at the end: %ld", res);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PWRITEV, v, 2, size + 100, &sr);
	KTAP_EXPECT(res == -ENOSPC, "write past the end: %ld", res);
	errno = 0;
	KTAP_EXPECT(pwrite(t->fd, buf, 10, size) == -1 && errno == ENOSPC, "pwrite at end: %s",
		    strerror(errno));
	return KTAP_PASS;
}

CT_AIO_TEST(aio_eventfd_completion, 30, 0, 8)
{
	unsigned char buf[4][64];
	struct iovec v[4];
	struct iocb cb[4], *cbs[4];
	struct io_event ev[4];
	struct timespec ts = { .tv_sec = 5 };
	uint64_t count = 0;
	int efd, k, r;

	efd = eventfd(0, 0);
	KTAP_EXPECT(efd >= 0, "eventfd: %s", strerror(errno));
	for (k = 0; k < 4; k++) {
		v[k] = (struct iovec){ buf[k], sizeof(buf[k]) };
		io_prep_preadv(&cb[k], t->fd, &v[k], 1, k * 64);
		io_set_eventfd(&cb[k], efd);
		cbs[k] = &cb[k];
	}
	r = io_submit(t->ctx, 4, cbs);
	KTAP_EXPECT(r == 4, "io_submit: %d", r);
	KTAP_EXPECT(read(efd, &count, sizeof(count)) == sizeof(count), "read eventfd");
	KTAP_EXPECT(count == 4, "eventfd counted %llu completions", (unsigned long long)count);
	r = io_getevents(t->ctx, 4, 4, ev, &ts);
	KTAP_EXPECT(r == 4, "io_getevents: %d", r);
	for (k = 0; k < 4; k++)
		KTAP_EXPECT(ev[k].res == 64, "event %d res %ld", k, (long)ev[k].res);
	close(efd);
	return KTAP_PASS;
}

/* RWF_NOWAIT: EAGAIN exactly when the request would block (throttled). */
CT_AIO_TEST(aio_rwf_nowait, 30, 0, 4)
{
	unsigned char buf[128];
	struct iovec v[2] = { { buf, 64 }, { buf + 64, 64 } };
	struct demo_chardev_stats b, d;
	struct iocb cb;
	double t0;
	int sr;
	long res;

	io_prep_preadv2(&cb, t->fd, v, 2, 0, RWF_NOWAIT);
	res = aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, &sr);
	KTAP_EXPECT(res == 128, "RWF_NOWAIT, not throttled: submit %d res %ld", sr, res);
	KTAP_EXPECT(ct_set_throttle(t->fd, CT_THROTTLE_MAX_MS) == 0, "throttle");
	ct_paths_begin(&b);
	io_prep_preadv2(&cb, t->fd, v, 2, 0, RWF_NOWAIT);
	res = aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, &sr);
	KTAP_EXPECT(res == -EAGAIN, "RWF_NOWAIT, throttled: submit %d res %ld", sr, res);
	io_prep_pwritev2(&cb, t->fd, v, 2, 0, RWF_NOWAIT);
	res = aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, &sr);
	KTAP_EXPECT(res == -EAGAIN, "RWF_NOWAIT write, throttled: submit %d res %ld", sr, res);
	ct_paths_end("RWF_NOWAIT READ and WRITE (throttled)", &b, &d);
	KTAP_EXPECT(d.eagain == 2 && d.slept == 0,
		    "RWF_NOWAIT: two EAGAINs and no sleep expected: eagain %llu slept %llu",
		    (unsigned long long)d.eagain, (unsigned long long)d.slept);
	/* the same request without RWF_NOWAIT waits and succeeds */
	KTAP_EXPECT(ct_set_throttle(t->fd, CT_THROTTLE_MS) == 0, "throttle");
	ct_paths_begin(&b);
	t0 = ktap_now();
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, v, 2, 0, &sr);
	KTAP_EXPECT(res == 128, "throttled, may block: submit %d res %ld", sr, res);
	ct_paths_end("READ (throttled, may block)", &b, &d);
	KTAP_EXPECT(d.slept == 1 && d.eagain == 0,
		    "throttled request: one sleep expected: slept %llu eagain %llu",
		    (unsigned long long)d.slept, (unsigned long long)d.eagain);
	KTAP_EXPECT(ktap_now() - t0 >= CT_THROTTLE_MIN_S, "throttled request took %.3fs",
		    ktap_now() - t0);
	return KTAP_PASS;
}

/* O_NONBLOCK: read(2) and aio on a throttled file fail with EAGAIN. */
CT_AIO_TEST(aio_o_nonblock, 30, O_NONBLOCK, 4)
{
	unsigned char buf[64];
	struct iovec v = { buf, sizeof(buf) };
	int sr;
	long res;

	KTAP_EXPECT(read(t->fd, buf, sizeof(buf)) == sizeof(buf), "not throttled: read");
	KTAP_EXPECT(ct_set_throttle(t->fd, 300) == 0, "throttle");
	errno = 0;
	KTAP_EXPECT(pread(t->fd, buf, sizeof(buf), 0) == -1 && errno == EAGAIN, "pread: %s",
		    strerror(errno));
	errno = 0;
	KTAP_EXPECT(writev(t->fd, &v, 1) == -1 && errno == EAGAIN, "writev: %s", strerror(errno));
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, &v, 1, 0, &sr);
	KTAP_EXPECT(res == -EAGAIN, "aio on O_NONBLOCK: submit %d res %ld", sr, res);
	return KTAP_PASS;
}

/* A pread(2) (or pwrite(2): @write) of @len bytes at 0, in a thread of its own. */
struct held_rw {
	int fd;
	int write;
	void *buf;
	size_t len;
	ssize_t n;
};

static void *held_rw_fn(void *arg)
{
	struct held_rw *h = arg;

	h->n = h->write ? pwrite(h->fd, h->buf, h->len, 0) : pread(h->fd, h->buf, h->len, 0);
	return NULL;
}

/*
 * A blocking write (@write) or read in another process, waiting for the
 * lock @fd's device holds, dies with SIGKILL: the wait is killable. 0 when
 * it died so.
 */
static int kill_lock_waiter(int fd, int write)
{
	const char *what = write ? "writer" : "reader";
	int status = 0;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		unsigned char c = 0;

		_exit((write ? pwrite(fd, &c, 1, 0) : pread(fd, &c, 1, 0)) == 1 ? 0 : 1);
	}
	if (pid < 0)
		return -1;
	if (ktap_wait_syscall(pid, write ? SYS_pwrite64 : SYS_pread64))
		ktap_diag("the %s never slept in its system call", what);
	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
		ktap_diag("the waiting %s ended with status %#x, not SIGKILL", what, status);
		return -1;
	}
	return 0;
}

/*
 * A request that may not block meets the device lock held by another:
 * EAGAIN at once, nothing moved; a blocking one waits and can be killed;
 * the holder's request then completes, the lock free after it. The
 * holder is a read whose buffer page is missing behind a userfaultfd: it
 * stays in the driver's copy, under the lock, until this test supplies the
 * page, so the contention is certain, not a race.
 */
static int locked_body(int uffd, void *area, size_t page)
{
	unsigned char want[64], in[64], *src = malloc(page);
	struct held_rw h = { .buf = area, .len = page };
	struct uffdio_copy fill = { .dst = (uintptr_t)area, .len = page };
	struct iovec v = { in, sizeof(in) };
	struct demo_chardev_stats b, d;
	pthread_t th;
	int nb, r;

	KTAP_EXPECT(src, "malloc");
	h.fd = open(DEMO_CHARDEV_PATH, O_RDWR);
	nb = open(DEMO_CHARDEV_PATH, O_RDWR | O_NONBLOCK);
	KTAP_EXPECT(h.fd >= 0 && nb >= 0, "open: %s", strerror(errno));
	ct_fill(want, sizeof(want), 41);
	KTAP_EXPECT(pwrite(h.fd, want, sizeof(want), 0) == sizeof(want), "pwrite");
	ct_paths_begin(&b);
	KTAP_EXPECT(pthread_create(&th, NULL, held_rw_fn, &h) == 0, "pthread_create");
	/* The fault is raised inside the copy, so the lock is held from here. */
	KTAP_EXPECT(ct_uffd_wait_fault(uffd) == 0, "no page fault from the read");
	errno = 0;
	r = pwrite(nb, in, sizeof(in), 0);
	KTAP_EXPECT(r == -1 && errno == EAGAIN, "O_NONBLOCK write, lock held: %d %s", r,
		    strerror(errno));
	errno = 0;
	r = preadv2(h.fd, &v, 1, 0, RWF_NOWAIT);
	KTAP_EXPECT(r >= 0, "RWF_NOWAIT read shares the read lock: %d %s", r, strerror(errno));
	errno = 0;
	r = pwritev2(h.fd, &v, 1, 0, RWF_NOWAIT);
	KTAP_EXPECT(r == -1 && errno == EAGAIN, "RWF_NOWAIT write, lock held: %d %s", r,
		    strerror(errno));
	KTAP_EXPECT(kill_lock_waiter(h.fd, 1) == 0, "a writer waiting for the lock was not killed");
	memset(src, 0, page);
	fill.src = (uintptr_t)src;
	KTAP_EXPECT(ioctl(uffd, UFFDIO_COPY, &fill) == 0, "UFFDIO_COPY: %s", strerror(errno));
	pthread_join(th, NULL);
	ct_paths_end("reads and writes beside a held lock", &b, &d);
	KTAP_EXPECT(h.n == (ssize_t)page && !memcmp(area, want, sizeof(want)),
		    "the holder's read: %zd", h.n);
	KTAP_EXPECT(d.eagain == 2, "two EAGAINs expected: %llu", (unsigned long long)d.eagain);
	KTAP_EXPECT(pwrite(nb, in, sizeof(in), 0) == sizeof(in), "O_NONBLOCK write, lock free");
	close(nb);
	close(h.fd);
	free(src);
	return KTAP_PASS;
}

/* @body(uffd, page, its size) over one missing page behind a userfaultfd. */
static int with_uffd_page(int (*body)(int uffd, void *area, size_t page))
{
	size_t page = sysconf(_SC_PAGESIZE);
	void *area = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int uffd, ret;

	KTAP_EXPECT(area != MAP_FAILED, "mmap: %s", strerror(errno));
	uffd = ct_uffd_register(area, page);
	if (uffd < 0)
		munmap(area, page);
	CT_UFFD_SKIP_IF_ABSENT(uffd);
	KTAP_EXPECT(uffd >= 0, "userfaultfd: %s", strerror(-uffd));
	ret = body(uffd, area, page);
	munmap(area, page);
	close(uffd);
	return ret;
}

CT_PATH_TEST(nowait_while_locked, 30)
{
	return with_uffd_page(locked_body);
}

/*
 * The read side of the lock is killable too: a reader waits while a write
 * holds the lock (its source page missing behind the userfaultfd, so the
 * copy stops under the lock until the test supplies it) and dies with
 * SIGKILL; the write then completes.
 */
static int write_locked_body(int uffd, void *area, size_t page)
{
	unsigned char *src = malloc(page), back[64];
	struct held_rw h = { .write = 1, .buf = area, .len = page };
	struct uffdio_copy fill = { .dst = (uintptr_t)area, .len = page };
	pthread_t th;

	KTAP_EXPECT(src, "malloc");
	h.fd = open(DEMO_CHARDEV_PATH, O_RDWR);
	KTAP_EXPECT(h.fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(pthread_create(&th, NULL, held_rw_fn, &h) == 0, "pthread_create");
	KTAP_EXPECT(ct_uffd_wait_fault(uffd) == 0, "no page fault from the write");
	KTAP_EXPECT(kill_lock_waiter(h.fd, 0) == 0, "a reader waiting for the lock was not killed");
	ct_fill(src, page, 43);
	fill.src = (uintptr_t)src;
	KTAP_EXPECT(ioctl(uffd, UFFDIO_COPY, &fill) == 0, "UFFDIO_COPY: %s", strerror(errno));
	pthread_join(th, NULL);
	KTAP_EXPECT(h.n == (ssize_t)page, "the holder's write: %zd", h.n);
	KTAP_EXPECT(pread(h.fd, back, sizeof(back), 0) == sizeof(back) &&
		    !memcmp(back, src, sizeof(back)), "the holder's write reads back");
	close(h.fd);
	free(src);
	return KTAP_PASS;
}

CT_PATH_TEST(reader_killed_while_write_locked, 30)
{
	return with_uffd_page(write_locked_body);
}

/* Signals @target once thread @tid sleeps in system call @nr. */
struct kicker {
	pthread_t target;
	pid_t tid;
	long nr;
	int asleep;
};

static void *kick(void *arg)
{
	struct kicker *k = arg;

	/* In the driver's sleep, not on its way there: the signal must cut it short. */
	k->asleep = ktap_wait_syscall(k->tid, k->nr) == 0;
	pthread_kill(k->target, SIGUSR1);
	return NULL;
}

/*
 * A signal during the throttle sleep: EINTR (ERESTARTSYS, no SA_RESTART),
 * well before the longest throttle is over.
 */
CT_AIO_TEST(aio_signal_interrupts, 30, 0, 4)
{
	unsigned char buf[64];
	struct iovec v = { buf, sizeof(buf) };
	struct kicker k = { pthread_self(), (pid_t)syscall(SYS_gettid), SYS_read, 0 };
	struct demo_chardev_stats b, d;
	pthread_t th;
	ssize_t n;
	long res;
	int sr;

	KTAP_EXPECT(ct_catch_sigusr1() == 0, "sigaction");
	KTAP_EXPECT(ct_set_throttle(t->fd, CT_THROTTLE_MAX_MS) == 0, "throttle");
	ct_paths_begin(&b);
	pthread_create(&th, NULL, kick, &k);
	errno = 0;
	n = read(t->fd, buf, sizeof(buf));
	pthread_join(th, NULL);
	KTAP_EXPECT(k.asleep, "read(2) never slept in the driver");
	KTAP_EXPECT(n == -1 && errno == EINTR, "read: %zd %s", n, strerror(errno));
	ct_paths_end("read(2), interrupted", &b, &d);
	KTAP_EXPECT(d.interrupted == 1 && d.slept == 0,
		    "read: the signal must cut the sleep short: interrupted %llu slept %llu",
		    (unsigned long long)d.interrupted, (unsigned long long)d.slept);
	/* the same for io_submit: the event carries -EINTR */
	k.nr = SYS_io_submit;
	k.asleep = 0;
	ct_paths_begin(&b);
	pthread_create(&th, NULL, kick, &k);
	res = vec_wait(t->ctx, t->fd, IO_CMD_PREADV, &v, 1, 0, &sr);
	pthread_join(th, NULL);
	KTAP_EXPECT(k.asleep, "io_submit() never slept in the driver");
	KTAP_EXPECT(res == -EINTR, "aio preadv interrupted: submit %d res %ld", sr, res);
	ct_paths_end("io_submit, interrupted", &b, &d);
	KTAP_EXPECT(d.interrupted == 1 && d.slept == 0,
		    "io_submit: the signal must cut the sleep short: interrupted %llu slept %llu",
		    (unsigned long long)d.interrupted, (unsigned long long)d.slept);
	return KTAP_PASS;
}

/* io_cancel() of a request that thread @tid is submitting, while it sleeps. */
struct canceller {
	io_context_t ctx;
	struct iocb *cb;
	pid_t tid;
	int ret;
	int during;	/* the submitter slept in io_submit() before and after */
};

static void *cancel_later(void *arg)
{
	struct canceller *c = arg;
	struct io_event ev;

	c->during = ktap_wait_syscall(c->tid, SYS_io_submit) == 0;
	c->ret = io_cancel(c->ctx, c->cb, &ev);
	c->during = c->during && ktap_syscall_of(c->tid) == SYS_io_submit;
	return NULL;
}

/*
 * io_cancel(): the driver completes every request during io_submit() and
 * registers no cancel callback (kiocb_set_cancel_fn()), so io_cancel()
 * finds nothing to cancel and returns EINVAL on every kernel, both after
 * completion and while the request sleeps; the event still arrives whole.
 * "While it sleeps" is seen from /proc, not assumed from a delay: a round
 * where the throttle ran out before io_cancel() returned is done again.
 */
#define CANCEL_ROUNDS	3

CT_AIO_TEST(aio_cancel, 30, 0, 4)
{
	unsigned char buf[256];
	struct iovec v = { buf, sizeof(buf) };
	struct canceller c;
	struct io_event ev;
	struct iocb cb;
	pthread_t th;
	int r, round;
	long res;

	io_prep_preadv(&cb, t->fd, &v, 1, 0);
	res = aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, NULL);
	KTAP_EXPECT(res == 256, "preadv: %ld", res);
	r = io_cancel(t->ctx, &cb, &ev);
	KTAP_EXPECT(r == -EINVAL, "io_cancel after completion: %d", r);
	KTAP_EXPECT(ct_set_throttle(t->fd, 1000) == 0, "throttle");
	for (round = 0; round < CANCEL_ROUNDS; round++) {
		c = (struct canceller){ t->ctx, &cb, (pid_t)syscall(SYS_gettid), 1, 0 };
		pthread_create(&th, NULL, cancel_later, &c);
		io_prep_preadv(&cb, t->fd, &v, 1, 0);
		res = aio_submit_wait(t->ctx, &cb, CT_AIO_WAIT_S, NULL);
		pthread_join(th, NULL);
		KTAP_EXPECT(c.ret == -EINVAL, "io_cancel during the request: %d", c.ret);
		KTAP_EXPECT(res == 256, "the event still carries the whole result: %ld", res);
		if (c.during)
			break;
		ktap_diag("round %d: io_cancel() not seen inside the request's sleep; again",
			  round);
	}
	KTAP_EXPECT(round < CANCEL_ROUNDS, "io_cancel() never ran while the request slept");
	return KTAP_PASS;
}

/*
 * io_submit() of the @n iocbs in @cbs at once (@op names them), then
 * their @n events, in any order, each with res @want (@what: "read" or
 * "write").
 */
static int submit_all(io_context_t ctx, struct iocb **cbs, struct io_event *ev, int n,
		      unsigned long want, const char *op, const char *what)
{
	struct timespec ts = { .tv_sec = 10 };
	int k, r, got;

	r = io_submit(ctx, n, cbs);
	KTAP_EXPECT(r == n, "io_submit %d %s: %d", n, op, r);
	for (got = 0; got < n; got += r) {
		r = io_getevents(ctx, 1, n - got, ev, &ts);
		KTAP_EXPECT(r > 0, "io_getevents: %d", r);
		for (k = 0; k < r; k++)
			KTAP_EXPECT(ev[k].res == want, "%s event res %ld", what, (long)ev[k].res);
	}
	return KTAP_PASS;
}

/* Many iocbs in one io_submit(), and a bad one stopping the batch. */
enum { MANY_N = 128, MANY_BLK = 700 };

CT_AIO_TEST(aio_many_iocbs, 60, 0, MANY_N)
{
	static unsigned char out[MANY_N][MANY_BLK], in[MANY_N][MANY_BLK];
	static struct iovec wv[MANY_N][2], rv[MANY_N][3];
	static struct iocb cb[MANY_N], *cbs[MANY_N];
	static struct io_event ev[MANY_N];
	struct timespec ts = { .tv_sec = 10 };
	int k, r;

	for (k = 0; k < MANY_N; k++) {
		ct_fill(out[k], MANY_BLK, 1000 + k);
		wv[k][0] = (struct iovec){ out[k], 100 };
		wv[k][1] = (struct iovec){ out[k] + 100, MANY_BLK - 100 };
		io_prep_pwritev(&cb[k], t->fd, wv[k], 2, (long long)k * MANY_BLK);
		cb[k].data = (void *)(long)k;
		cbs[k] = &cb[k];
	}
	r = submit_all(t->ctx, cbs, ev, MANY_N, MANY_BLK, "pwritev", "write");
	if (r != KTAP_PASS)
		return r;
	for (k = 0; k < MANY_N; k++) {
		rv[k][0] = (struct iovec){ in[k], 1 };
		rv[k][1] = (struct iovec){ in[k] + 1, 0 };
		rv[k][2] = (struct iovec){ in[k] + 1, MANY_BLK - 1 };
		io_prep_preadv(&cb[k], t->fd, rv[k], 3, (long long)k * MANY_BLK);
	}
	r = submit_all(t->ctx, cbs, ev, MANY_N, MANY_BLK, "preadv", "read");
	if (r != KTAP_PASS)
		return r;
	KTAP_EXPECT(!memcmp(in, out, sizeof(in)), "data differs");
	/* a batch whose 6th iocb is invalid: 5 submitted */
	for (k = 0; k < 10; k++)
		io_prep_preadv(&cb[k], t->fd, rv[k], 3, k == 5 ? -1 : (long long)k * MANY_BLK);
	r = io_submit(t->ctx, 10, cbs);
	KTAP_EXPECT(r == 5, "batch with a bad 6th iocb: %d", r);
	r = io_getevents(t->ctx, 5, 5, ev, &ts);
	KTAP_EXPECT(r == 5, "its 5 events: %d", r);
	return KTAP_PASS;
}

/* read/write/readv/writev/llseek on the same device; aio never moves f_pos. */
CT_AIO_TEST(aio_sync_syscalls_same_device, 30, 0, 4)
{
	unsigned char a[300], b[5], c[2000], in[2305], out[2305];
	struct iovec wv[3] = { { a, sizeof(a) }, { b, sizeof(b) }, { c, sizeof(c) } };
	struct iovec rv[2] = { { in, 1000 }, { in + 1000, 1305 } };
	size_t size;
	int sr;

	size = ct_dev_size(t->fd);
	ct_fill(a, sizeof(a), 21);
	ct_fill(b, sizeof(b), 22);
	ct_fill(c, sizeof(c), 23);
	memcpy(out, a, 300);
	memcpy(out + 300, b, 5);
	memcpy(out + 305, c, 2000);
	KTAP_EXPECT(lseek(t->fd, 10000, SEEK_SET) == 10000, "lseek");
	KTAP_EXPECT(writev(t->fd, wv, 3) == 2305, "writev");
	KTAP_EXPECT(lseek(t->fd, 0, SEEK_CUR) == 12305, "f_pos after writev");
	KTAP_EXPECT(lseek(t->fd, -2305, SEEK_CUR) == 10000, "lseek back");
	memset(in, 0, sizeof(in));
	KTAP_EXPECT(read(t->fd, in, 305) == 305 && read(t->fd, in + 305, 2000) == 2000, "read");
	KTAP_EXPECT(!memcmp(in, out, sizeof(out)), "read after writev: data differs");
	KTAP_EXPECT(lseek(t->fd, 10000, SEEK_SET) == 10000, "lseek");
	memset(in, 0, sizeof(in));
	KTAP_EXPECT(readv(t->fd, rv, 2) == 2305 && !memcmp(in, out, sizeof(out)), "readv");
	KTAP_EXPECT(preadv(t->fd, rv, 2, 10000) == 2305 && !memcmp(in, out, sizeof(out)), "preadv");
	KTAP_EXPECT(pwrite(t->fd, "xyz", 3, 10001) == 3, "pwrite");
	KTAP_EXPECT(pread(t->fd, in, 3, 10001) == 3 && !memcmp(in, "xyz", 3), "pread");
	/* write(2) then aio: f_pos moves only with the synchronous calls */
	KTAP_EXPECT(lseek(t->fd, 123, SEEK_SET) == 123, "lseek 123");
	KTAP_EXPECT(vec_wait(t->ctx, t->fd, IO_CMD_PWRITEV, wv, 3, 20000, &sr) == 2305, "pwritev");
	KTAP_EXPECT(vec_wait(t->ctx, t->fd, IO_CMD_PREADV, rv, 2, 20000, &sr) == 2305 &&
		    !memcmp(in, out, sizeof(out)), "preadv");
	KTAP_EXPECT(lseek(t->fd, 0, SEEK_CUR) == 123, "aio moved f_pos");
	KTAP_EXPECT(write(t->fd, a, 10) == 10 && lseek(t->fd, 0, SEEK_CUR) == 133, "write moves f_pos");
	KTAP_EXPECT(lseek(t->fd, 0, SEEK_END) == (off_t)size, "SEEK_END is the store size");
	errno = 0;
	KTAP_EXPECT(lseek(t->fd, size + 1, SEEK_SET) == -1 && errno == EINVAL, "seek past end");
	errno = 0;
	KTAP_EXPECT(ioctl(t->fd, _IO(DEMO_CHARDEV_IOC_MAGIC, 99)) == -1 && errno == ENOTTY,
		    "unknown ioctl");
	return KTAP_PASS;
}

/*
 * The ioctls refuse what they cannot use and change nothing: a pointer to
 * no memory (EFAULT), a throttle beyond the longest (EINVAL, the old one
 * kept: a request still does not sleep).
 */
CT_PATH_TEST(ioctl_bad_arguments, 30)
{
	__u32 too_long = CT_THROTTLE_MAX_MS + 1;
	struct demo_chardev_stats b, d;
	unsigned char c;
	int fd;

	fd = ct_dev_open(0);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_CHARDEV_IOC_SET_THROTTLE, (void *)8), EFAULT,
			  "SET_THROTTLE from no memory");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_CHARDEV_IOC_SET_THROTTLE, &too_long), EINVAL,
			  "SET_THROTTLE beyond the longest");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, (void *)8), EFAULT,
			  "GET_STATS into no memory");
	KTAP_EXPECT_ERRNO(ioctl(fd, DEMO_CHARDEV_IOC_GET_SIZE, (void *)8), EFAULT,
			  "GET_SIZE into no memory");
	KTAP_EXPECT(ct_stats_fd(fd, &b) == 0, "stats: %s", strerror(errno));
	KTAP_EXPECT(pread(fd, &c, 1, 0) == 1, "read: %s", strerror(errno));
	ct_paths_end("a read after the refused ioctls", &b, &d);
	KTAP_EXPECT(d.slept == 0, "a refused throttle was kept: %llu reads slept",
		    (unsigned long long)d.slept);
	close(fd);
	return KTAP_PASS;
}

/*
 * Which shape each kind of request reaches the driver in, per kernel (see
 * the comment at the top). A single request of each kind, counted by the
 * driver; a kernel not in the matrix is only reported.
 */
struct path_case {
	const char *what;
	int expect[3];	/* path index for 5.10, 6.1, 6.12 */
};

static int run_case(int fd, io_context_t ctx, int which)
{
	unsigned char buf[64];
	struct iovec v[2] = { { buf, 32 }, { buf + 32, 32 } };
	struct iocb cb;

	switch (which) {
	case 0: return read(fd, buf, 64) == 64;
	case 1: return write(fd, buf, 64) == 64;
	case 2: return readv(fd, v, 1) == 32;
	case 3: return readv(fd, v, 2) == 64;
	case 4: io_prep_pread(&cb, fd, buf, 64, 0);
		return aio_submit_wait(ctx, &cb, CT_AIO_WAIT_S, NULL) == 64;
	case 5: io_prep_preadv(&cb, fd, v, 1, 0);
		return aio_submit_wait(ctx, &cb, CT_AIO_WAIT_S, NULL) == 32;
	case 6: io_prep_pwritev(&cb, fd, v, 2, 0);
		return aio_submit_wait(ctx, &cb, CT_AIO_WAIT_S, NULL) == 64;
	}
	return 0;
}

CT_PATH_TEST(aio_paths_per_kernel, 30)
{
	enum { B = DEMO_CHARDEV_PATH_BUF, I = DEMO_CHARDEV_PATH_IOVEC, U = DEMO_CHARDEV_PATH_UBUF };
	static const struct path_case cases[] = {
		{ "read(2)",			{ I, U, U } },
		{ "write(2)",			{ I, U, U } },
		{ "readv(2) 1 segment",		{ I, I, U } },
		{ "readv(2) 2 segments",	{ I, I, I } },
		{ "io_submit PREAD",		{ I, I, U } },
		{ "io_submit PREADV 1 segment",	{ I, I, U } },
		{ "io_submit PWRITEV 2 segs",	{ I, I, I } },
	};
	static const char *const names[] = DEMO_CHARDEV_PATH_NAMES;
	const char *k = ktap_kernel();
	/* Columns: the matrix's "ubuf" fact (qemu/matrix.toml). */
	int col = ktap_fact_is("ubuf", "none") ? 0 :
		  ktap_fact_is("ubuf", "rw") ? 1 :
		  ktap_fact_is("ubuf", "single") ? 2 : -1;
	io_context_t ctx = 0;
	int fd, failed = 0;
	size_t c;

	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_PATH, 0, 4, &fd, &ctx) == 0, "setup");
	(void)B;
	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct demo_chardev_stats before, after;
		int p, seen = -1, n = 0;

		KTAP_EXPECT(ct_stats(&before) == 0 && lseek(fd, 0, SEEK_SET) == 0, "stats");
		KTAP_EXPECT(run_case(fd, ctx, c), "%s failed", cases[c].what);
		KTAP_EXPECT(ct_stats(&after) == 0, "stats");
		for (p = 0; p < DEMO_CHARDEV_NR_PATHS; p++) {
			if (after.requests[p] != before.requests[p]) {
				seen = p;
				n += after.requests[p] - before.requests[p];
			}
		}
		ktap_diag("path: %-28s -> %s%s", cases[c].what, seen < 0 ? "none" : names[seen],
			  n == 1 ? "" : " (not exactly one request!)");
		if (n != 1 || (col >= 0 && seen != cases[c].expect[col])) {
			ktap_diag("  expected %s on %s", col >= 0 ? names[cases[c].expect[col]] : "?", k);
			failed = 1;
		}
	}
	ct_aio_teardown(fd, ctx);
	if (failed)
		return KTAP_FAIL;
	if (col < 0) {
		ktap_diag("kernel %s: the matrix states no ubuf fact", k);
		return KTAP_FAIL;
	}
	return KTAP_PASS;
}

int main(void)
{
	return ktap_main("aio_vectored");
}
