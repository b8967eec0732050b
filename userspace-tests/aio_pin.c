// SPDX-License-Identifier: GPL-2.0
/*
 * aio_pin - requests of every size the VFS lets through, pinned whole by
 * aio_compat_pin() on the test-only device /dev/irqaio_pin
 * (kmod/irqaio_pin.c: no device time per piece) and completed from a work
 * item: a gigabyte through io_submit() and readv(2), and a request at the
 * VFS's limit (MAX_RW_COUNT, INT_MAX rounded down to a page), which the
 * kernel clips before the driver sees it. The list must walk to exactly
 * the bytes pinned, one entry per page piece, and nothing may stay pinned
 * afterwards. The iovecs all point at one buffer, as a program may: a 1 GiB
 * request in a guest of 1 GiB.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "chardev_test.h"
#include "kmod/irqaio_pin.h"
#include "module_test.h"
#include <ktap.h>

#define PIN_MODULE	"/testmods/irqaio_pin.ko"
#define MIB		(1024UL * 1024)
#define SEGS		1024	/* UIO_MAXIOV */
/* What rw_verify_area() clips a request to: MAX_RW_COUNT. */
#define VFS_MAX		(INT_MAX & ~(4096UL - 1))
#define PIN_WAIT_S	120

static int pin_stats(int fd, struct irqaio_pin_stats *s)
{
	if (ioctl(fd, IRQAIO_PIN_IOC_STATS, s)) {
		ktap_diag("IRQAIO_PIN_IOC_STATS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* SEGS iovecs of @seg bytes, each at @skip into one buffer. */
static struct iovec *pin_iovecs(size_t seg, size_t skip)
{
	static struct iovec iov[SEGS];
	char *buf;
	int k;

	buf = mmap(NULL, seg + skip, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED) {
		ktap_diag("mmap %zu: %s", seg + skip, strerror(errno));
		return NULL;
	}
	for (k = 0; k < SEGS; k++)
		iov[k] = (struct iovec){ .iov_base = buf + skip, .iov_len = seg };
	return iov;
}

/* Page pieces of @want bytes of SEGS iovecs of @seg bytes at @skip. */
static unsigned long pin_pieces(size_t seg, size_t skip, size_t want)
{
	unsigned long n = 0;
	size_t done = 0;

	while (done < want) {
		size_t at = (done % seg) + skip;
		size_t piece = 4096 - at % 4096;

		if (piece > seg - done % seg)
			piece = seg - done % seg;
		if (piece > want - done)
			piece = want - done;
		done += piece;
		n++;
	}
	return n;
}

/*
 * One request of SEGS x @seg bytes at @skip: by io_submit() (@async) or
 * readv/writev (@write), expected to move @want bytes; then the list the
 * driver saw and what it still holds.
 */
static int pin_one(bool async, bool write, size_t seg, size_t skip, size_t want)
{
	struct irqaio_pin_stats before, after;
	struct iovec *iov = pin_iovecs(seg, skip);
	unsigned long pieces = pin_pieces(seg, skip, want);
	io_context_t ctx;
	long res;
	int fd, ok;

	KTAP_EXPECT(iov, "buffer");
	KTAP_EXPECT(ct_aio_setup(IRQAIO_PIN_PATH, 0, 1, &fd, &ctx) == 0, "setup");
	ok = pin_stats(fd, &before) == 0;
	if (ok && async) {
		struct iocb cb;
		int submitted;

		if (write)
			io_prep_pwritev(&cb, fd, iov, SEGS, 0);
		else
			io_prep_preadv(&cb, fd, iov, SEGS, 0);
		res = ct_aio_submit_wait(ctx, &cb, PIN_WAIT_S, &submitted);
		if (res == LONG_MIN)
			ktap_diag("io_submit: %d (%s)", submitted, strerror(-submitted));
	} else if (ok) {
		res = write ? writev(fd, iov, SEGS) : readv(fd, iov, SEGS);
		if (res < 0)
			res = -errno;
	}
	ok = ok && pin_stats(fd, &after) == 0;
	ct_aio_teardown(fd, ctx);
	munmap((char *)iov[0].iov_base - skip, seg + skip);
	KTAP_EXPECT(ok, "stats");
	KTAP_EXPECT(res == (long)want, "%s %s of %d x %zu at +%zu: %ld, want %zu",
		    async ? "io_submit" : "sync", write ? "write" : "read", SEGS, seg,
		    skip, res, want);
	KTAP_EXPECT(after.requests == before.requests + 1 && !after.held,
		    "requests %llu -> %llu, %llu entries still pinned",
		    (unsigned long long)before.requests, (unsigned long long)after.requests,
		    (unsigned long long)after.held);
	KTAP_EXPECT(after.bad_lists == before.bad_lists,
		    "the list's walk did not add up to its nents and bytes");
	KTAP_EXPECT(after.last_pinned == want && after.last_nents == pieces,
		    "list of %llu entries, %llu bytes; want %lu, %zu",
		    (unsigned long long)after.last_nents,
		    (unsigned long long)after.last_pinned, pieces, want);
	ktap_diag("%lu entries, %zu bytes", pieces, want);
	return KTAP_PASS;
}

KTAP_TEST(load_module, 60)
{
	int fd = open(PIN_MODULE, O_RDONLY | O_CLOEXEC), r;

	KTAP_EXPECT(fd >= 0, "%s: %s", PIN_MODULE, strerror(errno));
	r = module_load_fd(fd, "");
	close(fd);
	KTAP_EXPECT(!r || r == -EEXIST, "finit_module %s: %s", PIN_MODULE, strerror(-r));
	return KTAP_PASS;
}

/* 262144 page pieces: the single list allocation was 8 MiB, past kmalloc's limit. */
KTAP_TEST(async_read_1gib, PIN_WAIT_S)
{
	return pin_one(true, false, MIB, 0, SEGS * MIB);
}

KTAP_TEST(async_write_1gib, PIN_WAIT_S)
{
	return pin_one(true, true, MIB, 0, SEGS * MIB);
}

/* Not page aligned: each segment spans 257 pages, 263168 pieces. */
KTAP_TEST(sync_read_1gib_unaligned, PIN_WAIT_S)
{
	return pin_one(false, false, MIB, 100, SEGS * MIB);
}

/* 2 GiB asked for; the VFS clips it to MAX_RW_COUNT: 524287 pieces. */
KTAP_TEST(async_read_vfs_limit, PIN_WAIT_S)
{
	return pin_one(true, false, 2 * MIB, 0, VFS_MAX);
}

KTAP_TEST(sync_write_vfs_limit, PIN_WAIT_S)
{
	return pin_one(false, true, 2 * MIB, 0, VFS_MAX);
}

KTAP_TEST(unload_module, 60)
{
	int r = module_unload("irqaio_pin");

	KTAP_EXPECT(!r, "delete_module irqaio_pin: %s", strerror(-r));
	return KTAP_PASS;
}

int main(void)
{
	return ktap_main("aio_pin: aio_compat_pin() on requests up to the VFS's limit");
}
