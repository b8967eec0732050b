// SPDX-License-Identifier: GPL-2.0
/*
 * aio_legacy - io_submit() on /dev/demo_chardev_legacy, a driver with only
 * ->read/->write (no ->read_iter/->write_iter).
 *
 * Expected per kernel, by the matrix's legacy_io_submit fact
 * (qemu/matrix.toml; no test here looks at a kernel's name):
 *   "einval" (stock kernels): fs/aio.c refuses the file:
 *     io_submit() returns -EINVAL for PREAD, PREADV, PWRITE and PWRITEV,
 *     while read/write/readv/writev on the same file work (readv(2) loops
 *     over ->read, one call per segment).
 *   "served" (core-patch/ 0002): the same requests are served
 *     synchronously by the readv(2) loop: io_submit() returns 1 and the
 *     event carries the byte count (partial progress as readv(2)); f_pos
 *     does not move.
 *   every kernel: RWF_NOWAIT is refused with -EOPNOTSUPP at submission
 *     (the file does not set FMODE_NOWAIT; aio_prep_rw() checks that before
 *     the method check).
 *
 * Loaded with size_kb outside 1..DEMO_CHARDEV_MAX_SIZE_KB, the module
 * refuses with EINVAL and nothing stays loaded; at either end it serves a
 * store of that size.
 *
 * A signal that arrives during a read of two chunks (DEMO_CHARDEV_CHUNK)
 * ends it after the first, with that chunk's bytes.
 *
 * With the module reloaded in the modes of legacy character devices:
 *   nonseekable=1 (nonseekable_open(): lseek/pread/pwrite answer ESPIPE):
 *     einval: EINVAL as above. served: at the request's offset,
 *     as io_uring's loop_rw_iter() serves such a file, not refused with
 *     ESPIPE; read(2)/write(2) keep their own position.
 *   nowait=1 (the file sets FMODE_NOWAIT, so aio accepts RWF_NOWAIT):
 *     einval: EINVAL. served: io_submit() accepts an RWF_NOWAIT
 *     request and completes it with -EAGAIN in the event, without calling
 *     the driver (->read cannot be told not to block), as a ->read_iter
 *     that would block reports it on stock; never EAGAIN from io_submit(),
 *     which libaio users read as "reap and retry". On an O_NONBLOCK file
 *     the request is served, and a driver that would block answers -EAGAIN
 *     itself (the throttle).
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "aio_test.h"
#include "chardev_test.h"
#include "module_test.h"

/*
 * The legacy_io_submit fact: 1 "served", 0 "einval", -1 if the matrix
 * states neither (lib/matrix.py check requires it, so a test fails).
 */
static int fallback_serves(void)
{
	if (ktap_fact_is("legacy_io_submit", "served"))
		return 1;
	return ktap_fact_is("legacy_io_submit", "einval") ? 0 : -1;
}

#define EXPECT_FACT(serves)						\
	KTAP_EXPECT((serves) >= 0, "the matrix states no legacy_io_submit fact for %s", \
		    ktap_kernel())

/* What the requests since @before took, on the legacy device behind @fd. */
static void print_paths(int fd, const struct demo_chardev_stats *before)
{
	struct demo_chardev_stats now, d;

	if (ct_stats_fd(fd, &now))
		return;
	ct_paths_delta("the test's requests", before, &now, &d);
}

/* The synchronous calls work on every kernel, through ->read/->write. */
KTAP_TEST(aio_legacy_sync_calls, 30)
{
	unsigned char a[100], b[50], in[150], out[150];
	struct iovec v[3] = { { a, sizeof(a) }, { NULL, 0 }, { b, sizeof(b) } };
	struct iovec r[2] = { { in, 70 }, { in + 70, 80 } };
	struct demo_chardev_stats st;
	int fd;

	fd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	KTAP_EXPECT(fd >= 0, "open %s: %s", DEMO_CHARDEV_LEGACY_PATH, strerror(errno));
	KTAP_EXPECT(ct_stats_fd(fd, &st) == 0, "stats");
	ct_fill(a, sizeof(a), 1);
	ct_fill(b, sizeof(b), 2);
	memcpy(out, a, 100);
	memcpy(out + 100, b, 50);
	KTAP_EXPECT(pwritev(fd, v, 3, 500) == 150, "pwritev");
	KTAP_EXPECT(preadv(fd, r, 2, 500) == 150 && !memcmp(in, out, 150), "preadv");
	KTAP_EXPECT(write(fd, a, 10) == 10 && lseek(fd, 0, SEEK_CUR) == 10, "write");
	KTAP_EXPECT(pread(fd, in, 150, 500) == 150 && !memcmp(in, out, 150), "pread");
	print_paths(fd, &st);
	close(fd);
	return KTAP_PASS;
}

/*
 * io_submit() of @cb and its event: io_submit()'s answer (1 when it took
 * the request, the event's res then in *@res), or -1000 when no event came.
 */
static int submit(io_context_t ctx, struct iocb *cb, long *res)
{
	long r;
	int sr;

	r = aio_submit_wait(ctx, cb, CT_AIO_WAIT_S, &sr);
	if (sr != 1)
		return sr;
	if (r == LONG_MIN)
		return -1000;
	*res = r;
	return 1;
}

/* submit(), its answer and res said with @what (and the kernel) in front. */
static int submit_said(io_context_t ctx, struct iocb *cb, long *res, const char *what)
{
	int r = submit(ctx, cb, res);

	ktap_diag("%s: %s -> %d, res %ld", ktap_kernel(), what, r, *res);
	return r;
}

KTAP_TEST(aio_legacy_io_submit, 30)
{
	unsigned char a[64], b[200], in[264], out[264];
	struct iovec wv[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec rv[3] = { { in, 1 }, { in + 1, 0 }, { in + 1, 263 } };
	struct demo_chardev_stats st;
	int serves = fallback_serves();
	io_context_t ctx = 0;
	struct iocb cb;
	long res = 0;
	int fd, r;

	EXPECT_FACT(serves);
	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_LEGACY_PATH, 0, 8, &fd, &ctx) == 0, "setup");
	KTAP_EXPECT(ct_stats_fd(fd, &st) == 0, "stats");
	KTAP_EXPECT(lseek(fd, 77, SEEK_SET) == 77, "lseek");
	ct_fill(a, sizeof(a), 3);
	ct_fill(b, sizeof(b), 4);
	memcpy(out, a, 64);
	memcpy(out + 64, b, 200);

	io_prep_pwritev(&cb, fd, wv, 2, 3000);
	r = submit_said(ctx, &cb, &res, "io_submit PWRITEV");
	if (!serves)
		KTAP_EXPECT(r == -EINVAL, "stock kernel must refuse: %d", r);
	else
		KTAP_EXPECT(r == 1 && res == 264, "patched kernel must serve: %d/%ld", r, res);

	memset(in, 0, sizeof(in));
	io_prep_preadv(&cb, fd, rv, 3, 3000);
	r = submit_said(ctx, &cb, &res, "io_submit PREADV");
	if (!serves)
		KTAP_EXPECT(r == -EINVAL, "stock kernel must refuse: %d", r);
	else
		KTAP_EXPECT(r == 1 && res == 264 && !memcmp(in, out, 264),
			    "patched kernel must serve: %d/%ld", r, res);

	io_prep_pread(&cb, fd, in, 100, 3000);
	r = submit(ctx, &cb, &res);
	if (!serves)
		KTAP_EXPECT(r == -EINVAL, "PREAD, stock: %d", r);
	else
		KTAP_EXPECT(r == 1 && res == 100, "PREAD, patched: %d/%ld", r, res);

	/* end of store through the fallback: short, then ENOSPC / 0 */
	if (serves) {
		__u64 size = 0;

		KTAP_EXPECT(ioctl(fd, DEMO_CHARDEV_IOC_GET_SIZE, &size) == 0, "size");
		io_prep_pwritev(&cb, fd, wv, 2, size - 100);
		KTAP_EXPECT(submit(ctx, &cb, &res) == 1 && res == 100, "short write: %ld", res);
		io_prep_pwritev(&cb, fd, wv, 2, size);
		KTAP_EXPECT(submit(ctx, &cb, &res) == 1 && res == -ENOSPC, "ENOSPC: %ld", res);
		io_prep_preadv(&cb, fd, rv, 3, size);
		KTAP_EXPECT(submit(ctx, &cb, &res) == 1 && res == 0, "read at end: %ld", res);
	}

	/* RWF_NOWAIT: no FMODE_NOWAIT on this file, refused everywhere */
	io_prep_preadv2(&cb, fd, rv, 3, 0, RWF_NOWAIT);
	r = submit(ctx, &cb, &res);
	KTAP_EXPECT(r == -EOPNOTSUPP, "RWF_NOWAIT: %d", r);

	KTAP_EXPECT(lseek(fd, 0, SEEK_CUR) == 77, "aio moved f_pos");
	print_paths(fd, &st);
	ct_aio_teardown(fd, ctx);
	return KTAP_PASS;
}

/* Load the legacy module with @params: 0, or the load's -errno. */
static int load_legacy(const char *params)
{
	return module_load(DEMO_CHARDEV_LEGACY_NAME, params);
}

/* Unload the legacy module (not waiting for users): 0 or -errno. */
static int unload_legacy(void)
{
	return module_unload(DEMO_CHARDEV_LEGACY_NAME);
}

static int reload_legacy(const char *params)
{
	int r = unload_legacy();

	return r ? r : load_legacy(params);
}

static unsigned long long total_requests(int fd)
{
	struct demo_chardev_stats st;

	if (ct_stats_fd(fd, &st))
		return ~0ULL;
	return ct_other_paths(&st, -1);
}

static int nonseekable_body(io_context_t ctx, int fd, int serves)
{
	unsigned char a[64], b[200], in[264], out[264];
	struct iovec wv[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec rv[2] = { { in, 100 }, { in + 100, 164 } };
	struct iocb cb;
	long res = 0;
	int r;

	KTAP_EXPECT(lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE, "lseek on a nonseekable file");
	KTAP_EXPECT(pread(fd, in, 10, 0) < 0 && errno == ESPIPE, "pread on a nonseekable file");
	ct_fill(a, sizeof(a), 5);
	ct_fill(b, sizeof(b), 6);
	memcpy(out, a, 64);
	memcpy(out + 64, b, 200);
	/* f_pos 0 -> 10 */
	KTAP_EXPECT(write(fd, b, 10) == 10, "write: %s", strerror(errno));

	io_prep_pwritev(&cb, fd, wv, 2, 3000);
	r = submit_said(ctx, &cb, &res, "nonseekable PWRITEV at 3000");
	if (!serves) {
		KTAP_EXPECT(r == -EINVAL, "stock kernel must refuse: %d", r);
		return KTAP_PASS;
	}
	KTAP_EXPECT(r == 1 && res == 264, "must be served at its offset, not ESPIPE: %d/%ld", r, res);
	memset(in, 0, sizeof(in));
	io_prep_preadv(&cb, fd, rv, 2, 3000);
	r = submit(ctx, &cb, &res);
	KTAP_EXPECT(r == 1 && res == 264 && !memcmp(in, out, 264), "PREADV at 3000: %d/%ld", r, res);
	/* write(2) continues at f_pos 10, which the aio requests did not move */
	KTAP_EXPECT(write(fd, a, 5) == 5, "write: %s", strerror(errno));
	io_prep_pread(&cb, fd, in, 15, 0);
	r = submit(ctx, &cb, &res);
	KTAP_EXPECT(r == 1 && res == 15 && !memcmp(in, b, 10) && !memcmp(in + 10, a, 5),
		    "PREAD at 0 after write(2) at f_pos 10: %d/%ld", r, res);
	return KTAP_PASS;
}

KTAP_TEST(aio_legacy_nonseekable, 30)
{
	int serves = fallback_serves();
	io_context_t ctx = 0;
	int fd, ret;

	EXPECT_FACT(serves);
	KTAP_EXPECT(reload_legacy("nonseekable=1") == 0, "reload with nonseekable=1");
	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_LEGACY_PATH, 0, 8, &fd, &ctx) == 0, "setup");
	ret = nonseekable_body(ctx, fd, serves);
	ct_aio_teardown(fd, ctx);
	KTAP_EXPECT(reload_legacy("") == 0, "reload without parameters");
	return ret;
}

static int nowait_body(io_context_t ctx, int fd, int nbfd, int serves)
{
	unsigned char in[264], out[264];
	struct iovec rv[2] = { { in, 64 }, { in + 64, 200 } };
	struct demo_chardev_stats a, b;
	unsigned long long n0;
	struct iocb cb;
	long res = 0;
	int r;

	ct_fill(out, sizeof(out), 7);
	KTAP_EXPECT(pwrite(fd, out, sizeof(out), 5000) == (ssize_t)sizeof(out), "pwrite");

	n0 = total_requests(fd);
	io_prep_preadv2(&cb, fd, rv, 2, 5000, RWF_NOWAIT);
	r = submit_said(ctx, &cb, &res, "RWF_NOWAIT PREADV, blocking file");
	if (!serves) {
		KTAP_EXPECT(r == -EINVAL, "stock kernel must refuse: %d", r);
		return KTAP_PASS;
	}
	KTAP_EXPECT(r != -EAGAIN, "io_submit() itself answered EAGAIN (\"reap and retry\")");
	KTAP_EXPECT(r == 1 && res == -EAGAIN, "expected the event to carry -EAGAIN: %d/%ld", r, res);
	KTAP_EXPECT(total_requests(fd) == n0, "the driver was called for it");

	memset(in, 0, sizeof(in));
	io_prep_preadv2(&cb, nbfd, rv, 2, 5000, RWF_NOWAIT);
	r = submit_said(ctx, &cb, &res, "RWF_NOWAIT PREADV, O_NONBLOCK file");
	KTAP_EXPECT(r == 1 && res == 264 && !memcmp(in, out, 264),
		    "O_NONBLOCK file must be served: %d/%ld", r, res);

	/* A throttled O_NONBLOCK file: the driver itself says it would block. */
	KTAP_EXPECT(ct_set_throttle(nbfd, 200) == 0, "throttle");
	KTAP_EXPECT(ct_stats_fd(nbfd, &a) == 0, "stats");
	io_prep_preadv2(&cb, nbfd, rv, 2, 5000, RWF_NOWAIT);
	r = submit(ctx, &cb, &res);
	KTAP_EXPECT(ct_stats_fd(nbfd, &b) == 0, "stats");
	KTAP_EXPECT(r == 1 && res == -EAGAIN && b.eagain == a.eagain + 1,
		    "throttled: %d/%ld, driver EAGAIN +%llu", r, res,
		    (unsigned long long)(b.eagain - a.eagain));

	/* Without RWF_NOWAIT the blocking file is served as before. */
	memset(in, 0, sizeof(in));
	io_prep_preadv(&cb, fd, rv, 2, 5000);
	r = submit(ctx, &cb, &res);
	KTAP_EXPECT(r == 1 && res == 264 && !memcmp(in, out, 264), "PREADV: %d/%ld", r, res);
	return KTAP_PASS;
}

KTAP_TEST(aio_legacy_nowait, 30)
{
	int serves = fallback_serves();
	io_context_t ctx = 0;
	int fd, nbfd, ret;

	EXPECT_FACT(serves);
	KTAP_EXPECT(reload_legacy("nowait=1") == 0, "reload with nowait=1");
	KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_LEGACY_PATH, 0, 8, &fd, &ctx) == 0, "setup");
	nbfd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR | O_NONBLOCK);
	KTAP_EXPECT(nbfd >= 0, "open O_NONBLOCK: %s", strerror(errno));
	ret = nowait_body(ctx, fd, nbfd, serves);
	ct_aio_teardown(fd, ctx);
	close(nbfd);
	KTAP_EXPECT(reload_legacy("") == 0, "reload without parameters");
	return ret;
}

/*
 * size_kb out of range fails the load with EINVAL and leaves no module
 * behind; both ends of the range load a store of that size.
 */
static int size_kb_case(unsigned int kb, int want)
{
	char param[32];
	__u64 size = 0;
	int fd, r;

	snprintf(param, sizeof(param), "size_kb=%u", kb);
	r = load_legacy(param);
	KTAP_EXPECT(r == want, "%s: load gave %d, want %d", param, r, want);
	if (r) {
		KTAP_EXPECT(unload_legacy() == -ENOENT, "%s: a module left behind", param);
		return KTAP_PASS;
	}
	fd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	KTAP_EXPECT(fd >= 0, "%s: open: %s", param, strerror(errno));
	r = ioctl(fd, DEMO_CHARDEV_IOC_GET_SIZE, &size);
	close(fd);
	KTAP_EXPECT(r == 0 && size == (__u64)kb * 1024, "%s: store of %llu bytes",
		    param, (unsigned long long)size);
	KTAP_EXPECT(unload_legacy() == 0, "%s: unload: %s", param, strerror(errno));
	return KTAP_PASS;
}

KTAP_TEST(aio_legacy_size_kb_range, 60)
{
	static const struct {
		unsigned int kb;
		int want;
	} cases[] = {
		{ 0, -EINVAL },
		{ DEMO_CHARDEV_MAX_SIZE_KB + 1, -EINVAL },
		{ 1, 0 },
		{ DEMO_CHARDEV_MAX_SIZE_KB, 0 },
	};
	size_t i;
	int ret = KTAP_PASS;

	KTAP_EXPECT(unload_legacy() == 0, "unload: %s", strerror(errno));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]) && ret == KTAP_PASS; i++) {
		ret = size_kb_case(cases[i].kb, cases[i].want);
		if (ret != KTAP_PASS)
			unload_legacy();
	}
	KTAP_EXPECT(load_legacy("") == 0, "load without parameters");
	return ret;
}

/* A read(2) of @len bytes into @buf, in a thread of its own. */
struct chunked_read {
	int fd;
	unsigned char *buf;
	size_t len;
	ssize_t n;
};

static void *chunked_read_fn(void *arg)
{
	struct chunked_read *r = arg;

	r->n = read(r->fd, r->buf, r->len);
	return NULL;
}

/*
 * The read of two chunks parks on the missing last page of its first chunk
 * (a userfaultfd); the page is supplied without waking it, the signal sent,
 * then the wake: the signal is pending before the first chunk ends, so the
 * driver stops between the chunks and returns the first one.
 */
static int chunks_body(int fd, int uffd, unsigned char *buf, size_t page)
{
	struct chunked_read r = { .fd = fd, .buf = buf, .len = 2 * DEMO_CHARDEV_CHUNK };
	unsigned long park = (uintptr_t)buf + DEMO_CHARDEV_CHUNK - page;
	unsigned char *zero = calloc(1, page);
	struct uffdio_copy fill = { .dst = park, .src = (uintptr_t)zero, .len = page,
				    .mode = UFFDIO_COPY_MODE_DONTWAKE };
	struct uffdio_range wake = { .start = park, .len = page };
	struct demo_chardev_stats b, a;
	pthread_t th;

	KTAP_EXPECT(zero, "calloc");
	KTAP_EXPECT(ct_stats_fd(fd, &b) == 0, "stats");
	KTAP_EXPECT(pthread_create(&th, NULL, chunked_read_fn, &r) == 0, "pthread_create");
	KTAP_EXPECT(ct_uffd_wait_fault(uffd) == 0, "the read never faulted");
	KTAP_EXPECT(ioctl(uffd, UFFDIO_COPY, &fill) == 0, "UFFDIO_COPY: %s", strerror(errno));
	KTAP_EXPECT(pthread_kill(th, SIGUSR1) == 0, "pthread_kill");
	KTAP_EXPECT(ioctl(uffd, UFFDIO_WAKE, &wake) == 0, "UFFDIO_WAKE: %s", strerror(errno));
	pthread_join(th, NULL);
	free(zero);
	KTAP_EXPECT(ct_stats_fd(fd, &a) == 0, "stats");
	ktap_diag("read of %u bytes: %zd; chunks +%llu, interrupted +%llu",
		  2 * DEMO_CHARDEV_CHUNK, r.n, (unsigned long long)(a.segments - b.segments),
		  (unsigned long long)(a.interrupted - b.interrupted));
	KTAP_EXPECT(r.n == DEMO_CHARDEV_CHUNK, "the read must end after its first chunk");
	KTAP_EXPECT(a.interrupted - b.interrupted == 1 && a.segments - b.segments == 1,
		    "one chunk copied, one interruption counted");
	KTAP_EXPECT(lseek(fd, 0, SEEK_CUR) == DEMO_CHARDEV_CHUNK, "f_pos after the short read");
	return KTAP_PASS;
}

KTAP_TEST(signal_between_chunks, 60)
{
	size_t page = sysconf(_SC_PAGESIZE), len = 2 * DEMO_CHARDEV_CHUNK;
	unsigned char *buf, *park;
	int uffd, fd, ret;
	char param[32];

	KTAP_EXPECT(ct_catch_sigusr1() == 0, "sigaction");
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	KTAP_EXPECT(buf != MAP_FAILED, "mmap: %s", strerror(errno));
	/*
	 * Every page present but the one the read parks on. Registered first:
	 * that splits the page into a mapping of its own, which a transparent
	 * huge page faulted in for its neighbours cannot then cover.
	 */
	park = buf + DEMO_CHARDEV_CHUNK - page;
	uffd = ct_uffd_register(park, page);
	if (uffd < 0)
		munmap(buf, len);
	CT_UFFD_SKIP_IF_ABSENT(uffd);
	KTAP_EXPECT(uffd >= 0, "userfaultfd: %s", strerror(-uffd));
	memset(buf, 0xa5, park - buf);
	memset(park + page, 0xa5, buf + len - park - page);
	/* A store of two chunks and one more page. */
	snprintf(param, sizeof(param), "size_kb=%zu", (len + page) / 1024);
	KTAP_EXPECT(reload_legacy(param) == 0, "reload with %s", param);
	fd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	ret = chunks_body(fd, uffd, buf, page);
	close(uffd);
	close(fd);
	munmap(buf, len);
	KTAP_EXPECT(reload_legacy("") == 0, "reload without parameters");
	return ret;
}

int main(void)
{
	return ktap_main("aio_legacy");
}
