// SPDX-License-Identifier: GPL-2.0
/*
 * aio_legacy - io_submit() on /dev/demo_chardev_legacy, a driver with only
 * ->read/->write (no ->read_iter/->write_iter).
 *
 * Expected per kernel:
 *   deb11-5.10, deb12-6.1, deb12-6.12 (stock): fs/aio.c refuses the file:
 *     io_submit() returns -EINVAL for PREAD, PREADV, PWRITE and PWRITEV,
 *     while read/write/readv/writev on the same file work (readv(2) loops
 *     over ->read, one call per segment).
 *   patched-6.1 (core-patch/ 0002): the same requests are served
 *     synchronously by the readv(2) loop: io_submit() returns 1 and the
 *     event carries the byte count (partial progress as readv(2)); f_pos
 *     does not move.
 *   every kernel: RWF_NOWAIT is refused with -EOPNOTSUPP at submission
 *     (the file does not set FMODE_NOWAIT; aio_prep_rw() checks that before
 *     the method check).
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <irqaio/demo_chardev.h>
#include "ktap.h"

enum kernel_kind { STOCK, PATCHED, UNKNOWN };

static enum kernel_kind kind(void)
{
	/* The matrix's legacy_io_submit fact (qemu/matrix.toml). */
	if (ktap_fact_is("legacy_io_submit", "served"))
		return PATCHED;
	if (ktap_fact_is("legacy_io_submit", "einval"))
		return STOCK;
	return UNKNOWN;
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t k;

	for (k = 0; k < n; k++)
		p[k] = (unsigned char)(seed * 0x9e + k * 31 + 1);
}

static void print_paths(int fd, const struct demo_chardev_stats *before)
{
	struct demo_chardev_stats now;

	if (ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, &now))
		return;
	ktap_diag("path: BUF=%llu IOVEC=%llu UBUF=%llu OTHER=%llu (segments=%llu)",
		  (unsigned long long)(now.requests[0] - before->requests[0]),
		  (unsigned long long)(now.requests[1] - before->requests[1]),
		  (unsigned long long)(now.requests[2] - before->requests[2]),
		  (unsigned long long)(now.requests[3] - before->requests[3]),
		  (unsigned long long)(now.segments - before->segments));
}

/* The synchronous calls work on every kernel, through ->read/->write. */
static int aio_legacy_sync_calls(void)
{
	unsigned char a[100], b[50], in[150], out[150];
	struct iovec v[3] = { { a, sizeof(a) }, { NULL, 0 }, { b, sizeof(b) } };
	struct iovec r[2] = { { in, 70 }, { in + 70, 80 } };
	struct demo_chardev_stats st;
	int fd;

	fd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	KTAP_EXPECT(fd >= 0, "open %s: %s", DEMO_CHARDEV_LEGACY_PATH, strerror(errno));
	KTAP_EXPECT(ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, &st) == 0, "stats");
	fill(a, sizeof(a), 1);
	fill(b, sizeof(b), 2);
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

static int submit(io_context_t ctx, struct iocb *cb, long *res)
{
	struct timespec ts = { .tv_sec = 10 };
	struct iocb *cbs[1] = { cb };
	struct io_event ev;
	int r;

	r = io_submit(ctx, 1, cbs);
	if (r != 1)
		return r;
	if (io_getevents(ctx, 1, 1, &ev, &ts) != 1)
		return -1000;
	*res = (long)ev.res;
	return 1;
}

static int aio_legacy_io_submit(void)
{
	unsigned char a[64], b[200], in[264], out[264];
	struct iovec wv[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct iovec rv[3] = { { in, 1 }, { in + 1, 0 }, { in + 1, 263 } };
	struct demo_chardev_stats st;
	enum kernel_kind kk = kind();
	io_context_t ctx = 0;
	struct iocb cb;
	long res = 0;
	int fd, r;

	fd = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	KTAP_EXPECT(fd >= 0, "open %s: %s", DEMO_CHARDEV_LEGACY_PATH, strerror(errno));
	KTAP_EXPECT(io_setup(8, &ctx) == 0, "io_setup");
	KTAP_EXPECT(ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, &st) == 0, "stats");
	KTAP_EXPECT(lseek(fd, 77, SEEK_SET) == 77, "lseek");
	fill(a, sizeof(a), 3);
	fill(b, sizeof(b), 4);
	memcpy(out, a, 64);
	memcpy(out + 64, b, 200);

	io_prep_pwritev(&cb, fd, wv, 2, 3000);
	r = submit(ctx, &cb, &res);
	ktap_diag("%s: io_submit PWRITEV -> %d, res %ld", ktap_kernel(), r, res);
	if (kk == STOCK) {
		KTAP_EXPECT(r == -EINVAL, "stock kernel must refuse: %d", r);
	} else if (kk == PATCHED) {
		KTAP_EXPECT(r == 1 && res == 264, "patched kernel must serve: %d/%ld", r, res);
	}

	memset(in, 0, sizeof(in));
	io_prep_preadv(&cb, fd, rv, 3, 3000);
	r = submit(ctx, &cb, &res);
	ktap_diag("%s: io_submit PREADV -> %d, res %ld", ktap_kernel(), r, res);
	if (kk == STOCK) {
		KTAP_EXPECT(r == -EINVAL, "stock kernel must refuse: %d", r);
	} else if (kk == PATCHED) {
		KTAP_EXPECT(r == 1 && res == 264 && !memcmp(in, out, 264),
			    "patched kernel must serve: %d/%ld", r, res);
	}

	io_prep_pread(&cb, fd, in, 100, 3000);
	r = submit(ctx, &cb, &res);
	if (kk == STOCK)
		KTAP_EXPECT(r == -EINVAL, "PREAD, stock: %d", r);
	else if (kk == PATCHED)
		KTAP_EXPECT(r == 1 && res == 100, "PREAD, patched: %d/%ld", r, res);

	/* end of store through the fallback: short, then ENOSPC / 0 */
	if (kk == PATCHED) {
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
	io_destroy(ctx);
	close(fd);
	if (kk == UNKNOWN) {
		ktap_diag("kernel %s: the matrix states no legacy_io_submit fact", ktap_kernel());
		return KTAP_FAIL;
	}
	return KTAP_PASS;
}

int main(void)
{
	static const struct ktap_test tests[] = {
		KTAP_TEST(aio_legacy_sync_calls, 30),
		KTAP_TEST(aio_legacy_io_submit, 30),
	};

	return ktap_main("aio_legacy", tests, KTAP_ARRAY_SIZE(tests));
}
