// SPDX-License-Identifier: GPL-2.0
/*
 * aio_pin - requests of every size the VFS lets through, pinned whole by
 * aio_compat_pin() on the test-only device /dev/irqaio_pin
 * (tests/kmod/suite/irqaio_pin.c: no device time per piece) and completed
 * from a work item: a gigabyte through io_submit() and readv(2), and a
 * request at the VFS's limit (MAX_RW_COUNT, INT_MAX rounded down to a
 * page), which the kernel clips before the driver sees it. The list must walk to exactly
 * the bytes pinned, one entry per page piece, and nothing may stay pinned
 * afterwards. The iovecs all point at one buffer, as a program may: a 1 GiB
 * request in a guest of 1 GiB.
 *
 * Then the device's modes, each a shape of a real DMA driver: a device
 * that never completes (a synchronous read(2) returns ETIMEDOUT within
 * its bound, or dies by SIGKILL, and a late completion finds nothing), a
 * submit that completes the request with an error and also returns it
 * (one completion, nothing leaked or freed twice), read(2)/write(2) that
 * keep the file position, pieces refused for their DMA alignment with
 * nothing left pinned, and a read buffer cleaned during the transfer
 * dirtied again.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "aio_test.h"
#include "chardev_test.h"
#include "../kmod/suite/irqaio_pin.h"
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

/* @nsegs iovecs of @seg bytes, each at @skip into one buffer. */
static struct iovec *pin_iovecs(int nsegs, size_t seg, size_t skip)
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
	for (k = 0; k < nsegs; k++)
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
 * One request of @nsegs x @seg bytes at @skip: by io_submit() (@async) or
 * readv/writev (@write), expected to move @want bytes; then the list the
 * driver saw and what it still holds.
 */
static int pin_n(int nsegs, bool async, bool write, size_t seg, size_t skip, size_t want)
{
	struct irqaio_pin_stats before, after;
	struct iovec *iov = pin_iovecs(nsegs, seg, skip);
	unsigned long pieces = pin_pieces(seg, skip, want);
	io_context_t ctx;
	long res;
	int fd, ok;

	KTAP_EXPECT(iov, "buffer");
	KTAP_EXPECT(ct_aio_setup(IRQAIO_PIN_PATH, 0, 1, &fd, &ctx) == 0, "setup");
	ok = pin_stats(fd, &before) == 0;
	if (ok && async) {
		struct iocb cb;

		if (write)
			io_prep_pwritev(&cb, fd, iov, nsegs, 0);
		else
			io_prep_preadv(&cb, fd, iov, nsegs, 0);
		res = aio_submit_wait(ctx, &cb, PIN_WAIT_S, NULL);
	} else if (ok) {
		res = write ? writev(fd, iov, nsegs) : readv(fd, iov, nsegs);
		if (res < 0)
			res = -errno;
	}
	ok = ok && pin_stats(fd, &after) == 0;
	ct_aio_teardown(fd, ctx);
	munmap((char *)iov[0].iov_base - skip, seg + skip);
	KTAP_EXPECT(ok, "stats");
	KTAP_EXPECT(res == (long)want, "%s %s of %d x %zu at +%zu: %ld, want %zu",
		    async ? "io_submit" : "sync", write ? "write" : "read", nsegs, seg,
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

static int pin_one(bool async, bool write, size_t seg, size_t skip, size_t want)
{
	return pin_n(SEGS, async, write, seg, skip, want);
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

/* One segment of 64 MiB: 16385 pages unaligned, pinned in many batches. */
KTAP_TEST(sync_read_one_64mib_segment, PIN_WAIT_S)
{
	return pin_n(1, false, false, 64 * MIB, 100, 64 * MIB);
}

KTAP_TEST(async_write_one_64mib_segment, PIN_WAIT_S)
{
	return pin_n(1, true, true, 64 * MIB, 0, 64 * MIB);
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

/* Open the device with the next requests' mode @flags, @timeout_ms, @align. */
static int pin_open(unsigned int flags, unsigned int timeout_ms, unsigned int align)
{
	struct irqaio_pin_mode m = { .flags = flags, .timeout_ms = timeout_ms, .align = align };
	int fd = open(IRQAIO_PIN_PATH, O_RDWR);

	if (fd < 0) {
		ktap_diag("open %s: %s", IRQAIO_PIN_PATH, strerror(errno));
		return -1;
	}
	if (ioctl(fd, IRQAIO_PIN_IOC_MODE, &m)) {
		ktap_diag("IRQAIO_PIN_IOC_MODE: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The device back to its plain mode, every held request completed. */
static void pin_close(int fd)
{
	struct irqaio_pin_mode m = { 0 };

	ioctl(fd, IRQAIO_PIN_IOC_RELEASE);
	ioctl(fd, IRQAIO_PIN_IOC_MODE, &m);
	close(fd);
}

/*
 * Wait up to KTAP_WAIT_S for child @pid, blocked in a read(2) on @fd, to
 * end; 0 and its *@status, or -1 (said) after releasing the device so
 * that the child ends and is reaped anyway.
 */
static int pin_reap(int fd, pid_t pid, int *status, const char *what)
{
	double t0 = ktap_now();

	while (waitpid(pid, status, WNOHANG) == 0)
		if (ktap_now() - t0 < KTAP_WAIT_S) {
			usleep(10000);
		} else {
			ioctl(fd, IRQAIO_PIN_IOC_RELEASE);
			waitpid(pid, status, 0);
			ktap_diag("%s: the read(2) still waited after %d s", what, KTAP_WAIT_S);
			return -1;
		}
	return 0;
}

/*
 * A device that never completes, a synchronous wait bounded at 300 ms:
 * read(2) fails with ETIMEDOUT, in a child so that a wait that never ends
 * is seen as such (and the device then released) instead of hanging the
 * test; the request was taken back, nothing stays pinned, the position
 * did not move, and releasing the device afterwards finds nothing.
 */
KTAP_TEST(sync_wait_times_out, 60)
{
	struct irqaio_pin_stats before, after;
	int fd = pin_open(IRQAIO_PIN_HOLD, 300, 0), status = 0;
	pid_t pid;

	KTAP_EXPECT(fd >= 0, "open");
	KTAP_EXPECT(pin_stats(fd, &before) == 0, "stats");
	pid = fork();
	if (!pid) {
		char buf[4096];
		ssize_t n = read(fd, buf, sizeof(buf));

		_exit(n == -1 && errno == ETIMEDOUT ? 0 : n < 0 ? 2 : 1);
	}
	KTAP_EXPECT(pid > 0, "fork: %s", strerror(errno));
	if (pin_reap(fd, pid, &status, "a 300 ms bound")) {
		pin_close(fd);
		return KTAP_FAIL;
	}
	KTAP_EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "read(2) on a device that never completes: status %#x, want ETIMEDOUT", status);
	KTAP_EXPECT(ioctl(fd, IRQAIO_PIN_IOC_RELEASE) == 0, "release");
	KTAP_EXPECT(pin_stats(fd, &after) == 0, "stats");
	KTAP_EXPECT(lseek(fd, 0, SEEK_CUR) == 0, "the position moved");
	pin_close(fd);
	KTAP_EXPECT(after.taken_back == before.taken_back + 1 && after.released == before.released &&
		    !after.held && after.requests == before.requests + 1,
		    "taken back %llu, released %llu, held %llu",
		    (unsigned long long)(after.taken_back - before.taken_back),
		    (unsigned long long)(after.released - before.released),
		    (unsigned long long)after.held);
	return KTAP_PASS;
}

/* The same wait, bounded at a minute, ends when its process is killed. */
KTAP_TEST(sync_wait_killed, 60)
{
	struct irqaio_pin_stats before, after;
	int fd = pin_open(IRQAIO_PIN_HOLD, 60000, 0), status = 0;
	pid_t pid;

	KTAP_EXPECT(fd >= 0, "open");
	KTAP_EXPECT(pin_stats(fd, &before) == 0, "stats");
	pid = fork();
	if (!pid) {
		char buf[4096];

		_exit(read(fd, buf, sizeof(buf)) < 0 ? 2 : 1);
	}
	KTAP_EXPECT(pid > 0, "fork: %s", strerror(errno));
	if (ktap_wait_syscall(pid, SYS_read)) {
		pin_close(fd);
		waitpid(pid, &status, 0);
		return KTAP_FAIL;
	}
	kill(pid, SIGKILL);
	if (pin_reap(fd, pid, &status, "SIGKILL")) {
		pin_close(fd);
		return KTAP_FAIL;
	}
	KTAP_EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %#x", status);
	KTAP_EXPECT(pin_stats(fd, &after) == 0, "stats");
	pin_close(fd);
	KTAP_EXPECT(after.taken_back == before.taken_back + 1 && !after.held,
		    "taken back %llu, held %llu",
		    (unsigned long long)(after.taken_back - before.taken_back),
		    (unsigned long long)after.held);
	return KTAP_PASS;
}

/*
 * An io_submit() request on a device that never completes is not waited
 * for: no event until the device is released, then one, with the bytes.
 */
KTAP_TEST(async_held_then_released, 60)
{
	struct timespec zero = { 0 }, wait = { .tv_sec = KTAP_WAIT_S };
	static char buf[8192];
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	io_context_t ctx = 0;
	int fd = pin_open(IRQAIO_PIN_HOLD, 300, 0), n;

	KTAP_EXPECT(fd >= 0, "open");
	KTAP_EXPECT(io_setup(1, &ctx) == 0, "io_setup");
	io_prep_pread(&cb, fd, buf, sizeof(buf), 0);
	n = io_submit(ctx, 1, cbs);
	if (n != 1) {
		pin_close(fd);
		io_destroy(ctx);
		KTAP_EXPECT(0, "io_submit: %d", n);
	}
	n = io_getevents(ctx, 0, 1, &ev, &zero);
	KTAP_EXPECT(ioctl(fd, IRQAIO_PIN_IOC_RELEASE) == 0, "release");
	KTAP_EXPECT(io_getevents(ctx, 1, 1, &ev, &wait) == 1, "no event after the release");
	pin_close(fd);
	io_destroy(ctx);
	KTAP_EXPECT(n == 0, "an event before the device finished: %d", n);
	KTAP_EXPECT(ev.obj == &cb && ev.res == sizeof(buf), "res %lld", (long long)ev.res);
	return KTAP_PASS;
}

/*
 * A submit that completes the request with -EIO itself and also returns
 * -EIO: io_submit() gets one event with -EIO, read(2) fails with EIO,
 * and each request is counted, given back and freed once (a second free
 * is a SLUB or KASAN report, a second completion an aio refcount one).
 */
KTAP_TEST(submit_completes_and_fails, 60)
{
	struct irqaio_pin_stats before, after;
	static char buf[4096];
	struct iocb cb;
	io_context_t ctx;
	int fd, ok;
	long res;
	ssize_t n;

	fd = pin_open(IRQAIO_PIN_SUBMIT_FAILS, 0, 0);
	KTAP_EXPECT(fd >= 0, "open");
	ctx = 0;
	if (io_setup(1, &ctx)) {
		pin_close(fd);
		KTAP_EXPECT(0, "io_setup");
	}
	ok = pin_stats(fd, &before) == 0;
	io_prep_pread(&cb, fd, buf, sizeof(buf), 0);
	res = aio_submit_wait(ctx, &cb, KTAP_WAIT_S, NULL);
	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		n = -errno;
	ok = ok && pin_stats(fd, &after) == 0;
	pin_close(fd);
	io_destroy(ctx);
	KTAP_EXPECT(ok, "stats");
	KTAP_EXPECT(res == -EIO, "io_submit's event: %ld, want -EIO", res);
	KTAP_EXPECT(n == -EIO, "read(2): %zd, want -EIO", n);
	KTAP_EXPECT(after.requests == before.requests + 2 && !after.held,
		    "requests %llu, held %llu",
		    (unsigned long long)(after.requests - before.requests),
		    (unsigned long long)after.held);
	return KTAP_PASS;
}

/* keep_pos: read(2) and write(2) done in full, the position unmoved. */
KTAP_TEST(keep_pos, 60)
{
	static char buf[100];
	off_t plain, kept;
	int fd = pin_open(0, 0, 0);

	KTAP_EXPECT(fd >= 0, "open");
	lseek(fd, 4096, SEEK_SET);
	KTAP_EXPECT(read(fd, buf, sizeof(buf)) == sizeof(buf), "read: %s", strerror(errno));
	plain = lseek(fd, 0, SEEK_CUR);
	pin_close(fd);
	fd = pin_open(IRQAIO_PIN_KEEP_POS, 0, 0);
	KTAP_EXPECT(fd >= 0, "open");
	lseek(fd, 4096, SEEK_SET);
	KTAP_EXPECT(read(fd, buf, sizeof(buf)) == sizeof(buf), "read: %s", strerror(errno));
	KTAP_EXPECT(write(fd, buf, sizeof(buf)) == sizeof(buf), "write: %s", strerror(errno));
	kept = lseek(fd, 0, SEEK_CUR);
	pin_close(fd);
	KTAP_EXPECT(plain == 4196, "without keep_pos the position is %lld, want 4196",
		    (long long)plain);
	KTAP_EXPECT(kept == 4096, "with keep_pos the position moved to %lld", (long long)kept);
	return KTAP_PASS;
}

/*
 * A DMA alignment of 64 bytes, the card address being the file position:
 * a piece whose page offset differs from its card address modulo 64, or
 * one that ends off a boundary before the next, is refused with EINVAL
 * and nothing stays pinned; the same bytes aligned pass.
 */
KTAP_TEST(misaligned_refused, 60)
{
	struct irqaio_pin_stats before, after;
	char *buf = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	struct iovec split[2];
	ssize_t ok1, ok2, bad1, bad2, bad3;
	int fd = pin_open(0, 0, 64);

	KTAP_EXPECT(buf != MAP_FAILED, "mmap");
	KTAP_EXPECT(fd >= 0, "open");
	KTAP_EXPECT(pin_stats(fd, &before) == 0, "stats");
	ok1 = pread(fd, buf, 8192, 0);
	ok2 = pread(fd, buf + 64, 4096, 64 + 4096);
	bad1 = pread(fd, buf + 1, 4096, 0) < 0 ? -errno : 0;
	bad2 = pread(fd, buf, 4096, 32) < 0 ? -errno : 0;
	split[0] = (struct iovec){ .iov_base = buf, .iov_len = 100 };
	split[1] = (struct iovec){ .iov_base = buf + 4096, .iov_len = 100 };
	bad3 = preadv(fd, split, 2, 0) < 0 ? -errno : 0;
	pin_stats(fd, &after);
	pin_close(fd);
	munmap(buf, 3 * 4096);
	KTAP_EXPECT(ok1 == 8192 && ok2 == 4096, "aligned: %zd, %zd", ok1, ok2);
	KTAP_EXPECT(bad1 == -EINVAL && bad2 == -EINVAL && bad3 == -EINVAL,
		    "misaligned: %zd, %zd, %zd, want -EINVAL", bad1, bad2, bad3);
	KTAP_EXPECT(after.misaligned == before.misaligned + 3 && !after.held,
		    "refused %llu, held %llu",
		    (unsigned long long)(after.misaligned - before.misaligned),
		    (unsigned long long)after.held);
	return KTAP_PASS;
}

/*
 * The dirty bit of the page mapped at @addr, from /proc/self/pagemap and
 * /proc/kpageflags (KPF_DIRTY, bit 4): 1, 0, or -1 where the kernel has
 * no page monitoring (CONFIG_PROC_PAGE_MONITOR).
 */
static int page_dirty(const void *addr)
{
	uint64_t ent = 0, flags = 0;
	int pm = open("/proc/self/pagemap", O_RDONLY);
	int kf = open("/proc/kpageflags", O_RDONLY);
	int ret = -1;

	if (pm >= 0 && kf >= 0 &&
	    pread(pm, &ent, sizeof(ent), (uintptr_t)addr / 4096 * sizeof(ent)) == sizeof(ent) &&
	    (ent >> 63) && (ent & ((1ULL << 55) - 1)) &&
	    pread(kf, &flags, sizeof(flags), (ent & ((1ULL << 55) - 1)) * sizeof(flags)) ==
	    sizeof(flags))
		ret = (flags >> 4) & 1;
	if (pm >= 0)
		close(pm);
	if (kf >= 0)
		close(kf);
	return ret;
}

/* Pages of @buf that are not dirty (polling up to @wait_s), or -1. */
static int pages_clean(const char *buf, int pages, int wait_s)
{
	int k, clean, tries = wait_s * 10;

	do {
		clean = 0;
		for (k = 0; k < pages; k++) {
			int d = page_dirty(buf + k * 4096);

			if (d < 0)
				return -1;
			clean += !d;
		}
		if (!clean || tries-- <= 0)
			return clean;
		usleep(100 * 1000);
	} while (1);
}

#define CLEAN_PAGES	16

/*
 * A read into shared memory whose pages writeback cleans during the
 * transfer (IRQAIO_PIN_CLEAN: the device clears every dirty bit, then
 * completes with softirqs off): after the read every page is dirty again,
 * at once for read(2) (its wait dirties them), and soon for io_submit()
 * (a work item does, as bio_check_pages_dirty() defers it). A shim that
 * dirtied only at pinning leaves them clean: what the device wrote could
 * be dropped unsaved.
 */
KTAP_TEST(read_redirties_cleaned_pages, 60)
{
	struct irqaio_pin_stats before, mid, after;
	char *buf = mmap(NULL, CLEAN_PAGES * 4096, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ssize_t n = 0;
	long res = 0;
	int fd = pin_open(IRQAIO_PIN_CLEAN, 0, 0);
	int sync_clean = -1, async_clean = -1;
	io_context_t ctx = 0;
	struct iocb cb;

	KTAP_EXPECT(buf != MAP_FAILED, "mmap");
	KTAP_EXPECT(fd >= 0, "open");
	KTAP_EXPECT(pin_stats(fd, &before) == 0, "stats");
	n = pread(fd, buf, CLEAN_PAGES * 4096, 0);
	sync_clean = pages_clean(buf, CLEAN_PAGES, 0);
	pin_stats(fd, &mid);
	if (io_setup(1, &ctx) == 0) {
		io_prep_pread(&cb, fd, buf, CLEAN_PAGES * 4096, 0);
		res = aio_submit_wait(ctx, &cb, KTAP_WAIT_S, NULL);
		async_clean = pages_clean(buf, CLEAN_PAGES, KTAP_WAIT_S);
		io_destroy(ctx);
	}
	pin_stats(fd, &after);
	pin_close(fd);
	munmap(buf, CLEAN_PAGES * 4096);
	KTAP_EXPECT(n == CLEAN_PAGES * 4096 && res == CLEAN_PAGES * 4096,
		    "read(2) %zd, io_submit %ld", n, res);
	KTAP_EXPECT(mid.cleaned == before.cleaned + CLEAN_PAGES &&
		    after.cleaned == mid.cleaned + CLEAN_PAGES && !after.held,
		    "cleaned %llu then %llu pages, want %d each; held %llu",
		    (unsigned long long)(mid.cleaned - before.cleaned),
		    (unsigned long long)(after.cleaned - mid.cleaned), CLEAN_PAGES,
		    (unsigned long long)after.held);
	if (sync_clean < 0 || async_clean < 0) {
		ktap_diag("no /proc/kpageflags (CONFIG_PROC_PAGE_MONITOR): dirty bits not read");
		return KTAP_SKIP;
	}
	KTAP_EXPECT(!sync_clean, "read(2): %d of %d pages left clean", sync_clean, CLEAN_PAGES);
	KTAP_EXPECT(!async_clean, "io_submit: %d of %d pages still clean after %d s",
		    async_clean, CLEAN_PAGES, KTAP_WAIT_S);
	return KTAP_PASS;
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
