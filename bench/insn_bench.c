// SPDX-License-Identifier: GPL-2.0
/*
 * insn_bench - guest side of qemu/bench's instruction counts: runs each
 * request between the insn_window plugin's markers (bench/insn_window.h),
 * REPS times after WARMUP unmarked ones, pinned to one vCPU, and says on
 * stdout what each case was:
 *
 *   ICASE,<suite>,<impl>,<op>,<shape>,<segments>,<segment bytes>,<reps>
 *
 * The n-th ICASE line is the plugin's case n; the host joins them
 * (bench/report.py join). Every request is checked (full byte count, ioctl
 * success): a failed one ends the program with status 1.
 *
 *   insn_bench chardev IMPL=/dev/PATH...   read/write (UBUF) and readv/writev
 *                                          (IOVEC) of 1, 16, 1024 segments
 *                                          of 64 B and 4 KiB, per device
 *   insn_bench aio IMPL=/dev/PATH...       io_submit PREADV/PWRITEV of 1, 4,
 *                                          16, 64 segments of 4 KiB
 *   insn_bench uring IMPL=/dev/PATH...     io_uring READ_FIXED/WRITE_FIXED
 *                                          from one registered buffer
 *                                          (ITER_BVEC, a page a segment): 1 x
 *                                          64 B, 1, 16, 1024 pages
 *   insn_bench irq /dev/demo_irqdevN       DEMO_IRQDEV_IOC_FIRE and _FIRE_NMI
 *                                          of 0, 1 and 16 interrupts
 *   insn_bench async IMPL=/dev/PATH...     requests finished later (the
 *                                          bench_async devices): io_submit
 *                                          of one PREADV/PWRITEV of 1, 16,
 *                                          64 segments of 4 KiB (shape
 *                                          "submit") and the
 *                                          BENCH_ASYNC_IOC_COMPLETE ioctl
 *                                          that completes it ("complete"),
 *                                          each its own case; io_getevents,
 *                                          outside the windows, checks the
 *                                          result is every byte
 *
 * IMPL names the column (shim, native, legacy, ...): a new implementation
 * is one more argument, and the report gains a column.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <liburing.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <irqaio/demo_irqdev.h>
#include "insn_window.h"
#include "native_chardev/bench_async.h"

#define REPS		15
#define WARMUP		3
#define MAX_SEGS	1024
#define MAX_SEG_LEN	4096
#define BENCH_CPU	1

static unsigned char *buf;
static struct iovec iov[MAX_SEGS];
static aio_context_t ctx;
static struct io_uring ring;

static void fail(const char *what)
{
	fprintf(stderr, "insn_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One request; returns the bytes moved (or, for irq, 0 on success). */
typedef long (*request_fn)(int fd, int write, int segs, size_t seg_len);

static long req_ubuf(int fd, int write, int segs, size_t seg_len)
{
	(void)segs;
	return write ? pwrite(fd, buf, seg_len, 0) : pread(fd, buf, seg_len, 0);
}

static long req_iovec(int fd, int write, int segs, size_t seg_len)
{
	(void)seg_len;
	return write ? pwritev(fd, iov, segs, 0) : preadv(fd, iov, segs, 0);
}

/* One IOCB_CMD_PREADV/PWRITEV over the first @segs entries of iov[]. */
static struct iocb vec_iocb(int fd, int write, int segs)
{
	return (struct iocb){
		.aio_fildes = fd,
		.aio_lio_opcode = write ? IOCB_CMD_PWRITEV : IOCB_CMD_PREADV,
		.aio_buf = (unsigned long)iov,
		.aio_nbytes = segs,
	};
}

static long req_aio(int fd, int write, int segs, size_t seg_len)
{
	struct iocb cb = vec_iocb(fd, write, segs);
	struct iocb *cbs[1] = { &cb };
	struct io_event ev;

	(void)seg_len;
	if (syscall(SYS_io_submit, ctx, 1, cbs) != 1)
		return -1;
	if (syscall(SYS_io_getevents, ctx, 1, 1, &ev, NULL) != 1)
		return -1;
	return ev.res;
}

/* READ_FIXED/WRITE_FIXED of segs pages (or of seg_len bytes, one segment). */
static long req_fixed(int fd, int write, int segs, size_t seg_len)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	struct io_uring_cqe *cqe;
	unsigned int len = (unsigned int)((size_t)segs * seg_len);
	long res;

	if (!sqe)
		return -1;
	if (write)
		io_uring_prep_write_fixed(sqe, fd, buf, len, 0, 0);
	else
		io_uring_prep_read_fixed(sqe, fd, buf, len, 0, 0);
	if (io_uring_submit_and_wait(&ring, 1) != 1)
		return -1;
	if (io_uring_peek_cqe(&ring, &cqe))
		return -1;
	res = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	if (res < 0)
		errno = -res;
	return res;
}

static void set_segments(int segs, size_t seg_len)
{
	int k;

	for (k = 0; k < segs; k++) {
		iov[k].iov_base = buf + (size_t)k * seg_len;
		iov[k].iov_len = seg_len;
	}
}

/* Announce a case, then WARMUP unmarked and REPS marked requests. */
static void run_case(const char *suite, const char *impl, int fd, int write,
		     const char *shape, request_fn fn, int segs, size_t seg_len)
{
	long want = (long)segs * (long)seg_len, got;
	int r;

	set_segments(segs, seg_len);
	printf("ICASE,%s,%s,%s,%s,%d,%zu,%d\n", suite, impl,
	       write ? "write" : "read", shape, segs, seg_len, REPS);
	fflush(stdout);
	insn_window_case();
	for (r = 0; r < WARMUP + REPS; r++) {
		if (r >= WARMUP)
			insn_window_begin();
		got = fn(fd, write, segs, seg_len);
		if (r >= WARMUP)
			insn_window_end();
		if (got != want) {
			fprintf(stderr, "insn_bench: %s %s %s %s %d x %zu: %ld, wanted %ld (%s)\n",
				suite, impl, write ? "write" : "read", shape, segs,
				seg_len, got, want, strerror(errno));
			exit(1);
		}
	}
}

static int open_impl(const char *arg, char *name, size_t len)
{
	const char *eq = strchr(arg, '=');
	int fd;

	if (!eq || (size_t)(eq - arg) >= len) {
		fprintf(stderr, "insn_bench: want IMPL=/dev/PATH, got %s\n", arg);
		exit(2);
	}
	memcpy(name, arg, eq - arg);
	name[eq - arg] = '\0';
	fd = open(eq + 1, O_RDWR);
	if (fd < 0)
		fail(eq + 1);
	return fd;
}

/* The cases of a suite on one implementation, IMPL named @impl, open as @fd. */
typedef void (*impl_cases_fn)(const char *impl, int fd);

/* Each IMPL=/dev/PATH argument in turn: opened, its cases run, closed. */
static void run_per_impl(int argc, char **argv, impl_cases_fn cases)
{
	char impl[32];
	int a, fd;

	for (a = 0; a < argc; a++) {
		fd = open_impl(argv[a], impl, sizeof(impl));
		cases(impl, fd);
		close(fd);
	}
}

static void chardev_cases(const char *impl, int fd)
{
	static const int segs[] = { 1, 16, 1024 };
	static const size_t lens[] = { 64, 4096 };
	int w, s, l;

	for (w = 0; w < 2; w++) {
		for (l = 0; l < 2; l++) {
			run_case("chardev", impl, fd, w, "ubuf", req_ubuf, 1, lens[l]);
			for (s = 0; s < 3; s++)
				run_case("chardev", impl, fd, w, "iovec", req_iovec, segs[s],
					 lens[l]);
		}
	}
}

static void suite_chardev(int argc, char **argv)
{
	run_per_impl(argc, argv, chardev_cases);
}

static void aio_cases(const char *impl, int fd)
{
	static const int segs[] = { 1, 4, 16, 64 };
	int w, s;

	for (w = 0; w < 2; w++)
		for (s = 0; s < 4; s++)
			run_case("aio", impl, fd, w, "iovec", req_aio, segs[s], 4096);
}

static void suite_aio(int argc, char **argv)
{
	if (syscall(SYS_io_setup, 8, &ctx))
		fail("io_setup");
	run_per_impl(argc, argv, aio_cases);
}

static void uring_cases(const char *impl, int fd)
{
	static const int segs[] = { 1, 1, 16, 1024 };
	static const size_t lens[] = { 64, 4096, 4096, 4096 };
	int w, s;

	for (w = 0; w < 2; w++)
		for (s = 0; s < 4; s++)
			run_case("uring", impl, fd, w, "bvec", req_fixed, segs[s], lens[s]);
}

static void suite_uring(int argc, char **argv)
{
	struct iovec whole = { buf, (size_t)MAX_SEGS * MAX_SEG_LEN };
	int r;

	r = io_uring_queue_init(8, &ring, 0);
	if (r == -ENOSYS) {
		/* A kernel without CONFIG_IO_URING: nothing to count. */
		printf("ICASE-SKIP,uring,no io_uring in this kernel\n");
		return;
	}
	if (r) {
		errno = -r;
		fail("io_uring_queue_init");
	}
	r = io_uring_register_buffers(&ring, &whole, 1);
	if (r) {
		errno = -r;
		fail("io_uring_register_buffers");
	}
	run_per_impl(argc, argv, uring_cases);
	io_uring_queue_exit(&ring);
}

/*
 * One request of the async suite in its three steps, only @measured of
 * them (0 io_submit, 1 the COMPLETE ioctl) between the markers: a case
 * counts one step, so submission and completion are two cases. Each step
 * is checked before the next (io_getevents() would wait forever for a
 * request that was not queued or not completed).
 */
static void run_async_case(const char *impl, int fd, int write, int measured,
			   int segs)
{
	static const char *const steps[] = { "submit", "complete" };
	long want = (long)segs * MAX_SEG_LEN, got;
	struct iocb cb = vec_iocb(fd, write, segs);
	struct iocb *cbs[1] = { &cb };
	/* A request the driver lost fails the run instead of hanging it. */
	struct timespec wait = { .tv_sec = 10 };
	struct io_event ev;
	const char *what;
	int r, mark;

	set_segments(segs, MAX_SEG_LEN);
	printf("ICASE,async,%s,%s,%s,%d,%d,%d\n", impl, write ? "write" : "read",
	       steps[measured], segs, MAX_SEG_LEN, REPS);
	fflush(stdout);
	insn_window_case();
	for (r = 0; r < WARMUP + REPS; r++) {
		mark = r >= WARMUP;
		if (mark && measured == 0)
			insn_window_begin();
		got = syscall(SYS_io_submit, ctx, 1, cbs);
		if (mark && measured == 0)
			insn_window_end();
		what = "io_submit";
		if (got != 1)
			goto bad;
		if (mark && measured == 1)
			insn_window_begin();
		got = ioctl(fd, BENCH_ASYNC_IOC_COMPLETE);
		if (mark && measured == 1)
			insn_window_end();
		what = "BENCH_ASYNC_IOC_COMPLETE";
		if (got != 1)
			goto bad;
		what = "io_getevents";
		got = syscall(SYS_io_getevents, ctx, 1, 1, &ev, &wait);
		if (got != 1) {
			if (!got)
				errno = ETIMEDOUT;
			goto bad;
		}
		what = "res";
		got = ev.res;
		if (got != want) {
			if (got < 0)
				errno = -got;
			goto bad;
		}
	}
	return;
bad:
	fprintf(stderr, "insn_bench: async %s %s %s %d x %d: %s gave %ld (%s)\n", impl,
		write ? "write" : "read", steps[measured], segs, MAX_SEG_LEN, what, got,
		strerror(errno));
	exit(1);
}

static void async_cases(const char *impl, int fd)
{
	static const int segs[] = { 1, 16, 64 };
	int w, s, m;

	for (w = 0; w < 2; w++)
		for (s = 0; s < 3; s++)
			for (m = 0; m < 2; m++)
				run_async_case(impl, fd, w, m, segs[s]);
}

static void suite_async(int argc, char **argv)
{
	if (syscall(SYS_io_setup, 8, &ctx))
		fail("io_setup");
	run_per_impl(argc, argv, async_cases);
}

/* seg_len carries the number of interrupts, write selects NMIs: done. */
static long req_fire(int fd, int nmi, int segs, size_t count)
{
	struct demo_irqdev_fire f = { .count = count };

	(void)segs;
	if (ioctl(fd, nmi ? DEMO_IRQDEV_IOC_FIRE_NMI : DEMO_IRQDEV_IOC_FIRE, &f))
		return -1;
	return f.done;
}

static void suite_irq(int argc, char **argv)
{
	static const size_t counts[] = { 0, 1, 16 };
	int nmi, c, fd;

	if (argc != 1) {
		fprintf(stderr, "insn_bench: irq wants one device\n");
		exit(2);
	}
	fd = open(argv[0], O_RDWR);
	if (fd < 0)
		fail(argv[0]);
	for (nmi = 0; nmi < 2; nmi++)
		for (c = 0; c < 3; c++)
			run_case("irq", "demo_irqdev", fd, nmi,
				 nmi ? "fire_nmi" : "fire", req_fire, 1, counts[c]);
}

int main(int argc, char **argv)
{
	cpu_set_t cpus;

	if (argc < 3) {
		fprintf(stderr, "usage: insn_bench chardev|aio|uring|irq|async ARGS...\n");
		return 2;
	}
	/* One vCPU: the plugin counts per vCPU, and so do the windows. */
	CPU_ZERO(&cpus);
	CPU_SET(BENCH_CPU, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		fail("sched_setaffinity");
	buf = mmap(NULL, (size_t)MAX_SEGS * MAX_SEG_LEN, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		fail("mmap");
	memset(buf, 0x5a, (size_t)MAX_SEGS * MAX_SEG_LEN);
	if (mlock(buf, (size_t)MAX_SEGS * MAX_SEG_LEN))
		fail("mlock");

	if (!strcmp(argv[1], "chardev"))
		suite_chardev(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "aio"))
		suite_aio(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "uring"))
		suite_uring(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "irq"))
		suite_irq(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "async"))
		suite_async(argc - 2, argv + 2);
	else
		return 2;
	printf("ICASE-END\n");
	return 0;
}
