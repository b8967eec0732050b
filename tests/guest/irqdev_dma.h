/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqdev_dma.h - what the irqdev_dma_* programs share: the file's size and
 * the bound of a wait, holding the device's queue, waiting for the device
 * to be idle and opening it so, the data pattern of a pass, buffers and
 * the page pieces they make, filling the file, and the FOLL_PIN counters
 * of /proc/vmstat. Its names begin with idma_ (IDMA_ for macros). The
 * programs: irqdev_dma_paths (one request by every path), irqdev_dma_queue
 * (the device's queue: depth, cancel, refusals) and irqdev_dma_teardown
 * (requests in flight when their process, context, ring, device or module
 * goes).
 *
 * What they test: the data path of /dev/demo_irqdev<N>, against the contract
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
 * segment (idma_pieces() below); the driver moves one per transfer, so
 * stats.dma_transfers must move by exactly that many, and dma_held (pieces
 * held right now) equals them while the requests wait.
 *
 * Per kernel, from the matrix (qemu/matrix.toml; irqdev_dma_paths's test
 * branches_match_matrix checks the driver agrees):
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
#ifndef IRQAIO_IRQDEV_DMA_H
#define IRQAIO_IRQDEV_DMA_H

#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <irqaio/demo_irqdev.h>
#include "aio_test.h"
#include "irqdev_test.h"
#include "uring_test.h"
#include <ktap.h>

#define IDMA_DEV_SIZE	DEMO_IRQDEV_DMA_SIZE
/* A bound for one event: far beyond any queue these tests build (100 ms a piece). */
#define IDMA_WAIT_S	30
#define IDMA_ARENA_PAGES	12	/* 4 segments, 3 pages each */
#define IDMA_UNTOUCHED	0xee

static long idma_pg;		/* page size, set by idma_main() */

/*
 * Hold (1) or let go (0) the device's queue: while held, requests queue and
 * none is started, so a test sees them queued however slow the machine is.
 */
static inline int idma_hold(int fd, __u32 on)
{
	return ioctl(fd, DEMO_IRQDEV_IOC_DMA_HOLD, &on);
}

/* How far a counter moved between two samples. */
#define IDMA_DELTA(a, b, f)	((long long)((b).f - (a).f))

static inline const char *idma_complete_name(unsigned int kind)
{
	switch (kind) {
	case 1: return "aio_complete(iocb, res, res2)";
	case 2: return "ki_complete(iocb, res, res2)";
	case 3: return "ki_complete(iocb, res)";
	}
	return "unknown";
}

static inline const char *idma_pin_name(unsigned int kind)
{
	switch (kind) {
	case 1: return "pin_user_pages_fast()";
	case 2: return "iov_iter_extract_pages()";
	}
	return "unknown";
}

static inline void idma_branch_diag(const struct demo_irqdev_stats *s)
{
	ktap_diag("branch: completion %s (kind %u), memory %s (kind %u), io_cancel %s",
		  idma_complete_name(s->dma_complete_kind), s->dma_complete_kind,
		  idma_pin_name(s->dma_pin_kind), s->dma_pin_kind,
		  s->dma_can_cancel ? "reaches the driver" : "not supported (EINVAL)");
}

/* Wait, bounded, until the device holds no pages: nothing queued or on the wire. */
static inline int idma_wait_idle(int fd, struct demo_irqdev_stats *s, double max_s)
{
	double t0 = ktap_now();

	for (;;) {
		if (it_get_stats(fd, s))
			return -1;
		if (!s->dma_held)
			return 0;
		if (ktap_now() - t0 > max_s)
			return -1;
		usleep(10000);
	}
}

/* Open /dev/demo_irqdev<n>, wait until it is idle, print the branches once. */
static inline int idma_begin(int n, struct demo_irqdev_stats *s)
{
	int fd = it_dev_open(n, 0);

	if (fd < 0) {
		ktap_diag("open /dev/" DEMO_IRQDEV_NAME "%d: %s", n, strerror(errno));
		return -1;
	}
	if (idma_wait_idle(fd, s, IDMA_WAIT_S)) {
		ktap_diag("/dev/" DEMO_IRQDEV_NAME "%d: not idle after %d s (%llu pieces held): %s",
			  n, IDMA_WAIT_S, (unsigned long long)s->dma_held, strerror(errno));
		close(fd);
		return -1;
	}
	idma_branch_diag(s);
	return fd;
}

/*
 * The byte at file offset @off after pass @pass wrote it: a hash of the
 * offset (so data moved to the wrong place shows; chardev_test.h's
 * ct_fill() repeats under some 256-byte shifts) plus an odd multiple of
 * the pass (so every byte of an older pass differs).
 */
static inline unsigned char idma_pat(unsigned int off, unsigned int pass)
{
	uint32_t x = (off + 1) * 2654435761u;

	x ^= x >> 16;
	x *= 0x45d9f3bu;
	x ^= x >> 16;
	return (unsigned char)(x + pass * 0x3b);
}

static inline void idma_pat_fill(unsigned char *p, unsigned int off, size_t len, unsigned int pass)
{
	size_t k;

	for (k = 0; k < len; k++)
		p[k] = idma_pat(off + k, pass);
}

static inline long idma_first_diff(const unsigned char *a, const unsigned char *b, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++)
		if (a[k] != b[k])
			return k;
	return -1;
}

static inline unsigned char *idma_arena(size_t pages)
{
	void *p = mmap(NULL, pages * idma_pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* Pages [a, a+len) touches: one piece each. */
static inline unsigned int idma_span_pages(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;

	return len ? (a + len - 1) / idma_pg - a / idma_pg + 1 : 0;
}

/* Page pieces of the first @limit bytes of an iovec array. */
static inline unsigned int idma_pieces(const struct iovec *v, int n, size_t limit)
{
	unsigned int total = 0;
	int k;

	for (k = 0; k < n && limit; k++) {
		size_t l = v[k].iov_len < limit ? v[k].iov_len : limit;

		total += idma_span_pages(v[k].iov_base, l);
		limit -= l;
	}
	return total;
}

/* The segments' first @len bytes, in order, into @dst. */
static inline void idma_gather(unsigned char *dst, const struct iovec *v, int n, size_t len)
{
	int k;

	for (k = 0; k < n && len; k++) {
		size_t l = v[k].iov_len < len ? v[k].iov_len : len;

		memcpy(dst, v[k].iov_base, l);
		dst += l;
		len -= l;
	}
}

/*
 * @len bytes over @n segments of @a (IDMA_ARENA_PAGES pages; segment k in pages
 * 3k..3k+2), each starting a little before a page end so that most cross
 * into the next page; with 4 segments the second is empty. @salt varies
 * the split and the placement.
 */
static inline void idma_layout(struct iovec *v, int n, unsigned char *a, size_t len, unsigned int salt)
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
		v[k].iov_base = a + (3 * k + 1) * idma_pg - 1 - (salt * 37 + k * 101) % 300;
		v[k].iov_len = l;
		left -= l;
	}
}

/* Put pass @pass over the whole file with pwrite(2); @want gets it too. */
static inline int idma_dev_put(int fd, unsigned int pass, unsigned char *want)
{
	unsigned char buf[IDMA_DEV_SIZE];
	ssize_t n;

	idma_pat_fill(buf, 0, IDMA_DEV_SIZE, pass);
	n = pwrite(fd, buf, IDMA_DEV_SIZE, 0);
	if (n != IDMA_DEV_SIZE) {
		ktap_diag("pwrite of the whole file: %zd (%s)", n, n < 0 ? strerror(errno) : "short");
		return -1;
	}
	if (want)
		memcpy(want, buf, IDMA_DEV_SIZE);
	return 0;
}

/* Close the device @fd with the aio context @ctx and the ring @ring on it. */
static inline void idma_close_with_rings(int fd, io_context_t ctx, struct io_uring *ring)
{
	io_uring_queue_exit(ring);
	io_destroy(ctx);
	close(fd);
}

/* FOLL_PIN pins taken and released so far (/proc/vmstat, folded first); -1 if absent. */
static inline int idma_read_pins(long long *acq, long long *rel)
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
static inline int idma_pins_settle(long long acq0, long long rel0, long long *da, long long *dr,
			      double max_s)
{
	double t0 = ktap_now();
	long long acq, rel;

	*da = *dr = 0;	/* the callers print them even when vmstat cannot be read */
	for (;;) {
		if (idma_read_pins(&acq, &rel))
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

/*
 * Each program's main(): the page size the helpers need, then its tests
 * (ktap_main(@prog)), then how long they took.
 */
static inline int idma_main(const char *prog)
{
	double t0 = ktap_now();
	int r;

	idma_pg = sysconf(_SC_PAGESIZE);
	r = ktap_main(prog);
	ktap_diag("%s: %.1f s", prog, ktap_now() - t0);
	return r;
}

#endif /* IRQAIO_IRQDEV_DMA_H */
