// SPDX-License-Identifier: GPL-2.0
/*
 * aio_bench - in-guest micro-benchmarks for demo_chardev and demo_irqdev,
 * run by qemu/bench (make bench). Prints one CSV row per measurement:
 *
 *   BENCH,<kernel>,<case>,<segments>,<bytes per request>,<requests>,<ns per request>,<MiB/s>
 *
 * Cases, for N = 1, 4, 16, 64 segments of 4 KiB (N * 4 KiB per request):
 *   chardev_preadv / chardev_pwritev   one io_submit iocb with N segments
 *   chardev_pread_sep / _pwrite_sep    N one-segment iocbs (PREAD/PWRITE) in one io_submit
 *   chardev_readv / chardev_writev     preadv(2)/pwritev(2), N segments
 *   tmpfs_preadv / tmpfs_pwritev       one N-segment iocb on a tmpfs file
 *   memcpy_read / memcpy_write         memcpy of the same bytes (the ceiling)
 *   legacy_preadv / legacy_pwritev     the ->read/->write-only device through the
 *                                      core patch's fallback (only where io_submit
 *                                      accepts it: patched-6.1)
 * and irq_fire: interrupts per second through DEMO_IRQDEV_IOC_FIRE.
 *
 * Each figure is the best of REPS timed runs of about RUN_NS each, taken in
 * turns with every other case (under TCG the best run is the least disturbed
 * one). Absolute numbers under TCG are
 * not the truth; ratios between cases from one boot are what to quote.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <irqaio/demo_chardev.h>
#include <irqaio/demo_irqdev.h>

#define SEG		4096
#define MAX_N		64
#define REPS		9
#define RUN_NS		60000000LL	/* per timed run */
#define TMPFS_FILE	"/tmp/aio_bench.dat"

static const char *kernel = "unknown";
static unsigned char *buf, *src;
static struct iovec iov[MAX_N];
static aio_context_t ctx;

static long sys_io_submit(long nr, struct iocb **cbs)
{
	return syscall(SYS_io_submit, ctx, nr, cbs);
}

static long sys_io_getevents(long min_nr, long nr, struct io_event *ev)
{
	return syscall(SYS_io_getevents, ctx, min_nr, nr, ev, NULL);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct op {
	int fd;
	int n;			/* segments */
	int write;
	int mode;		/* MODE_* */
};

enum { MODE_AIO_VEC, MODE_AIO_SEP, MODE_SYSCALL_VEC, MODE_MEMCPY };

/* One request of N * 4 KiB; 0 on success. */
static int do_op(const struct op *o)
{
	struct iocb cb[MAX_N], *cbs[MAX_N];
	struct io_event ev[MAX_N];
	ssize_t want = (ssize_t)o->n * SEG, got = 0;
	int i;

	switch (o->mode) {
	case MODE_AIO_VEC:
		memset(&cb[0], 0, sizeof(cb[0]));
		cb[0].aio_lio_opcode = o->write ? IOCB_CMD_PWRITEV : IOCB_CMD_PREADV;
		cb[0].aio_fildes = o->fd;
		cb[0].aio_buf = (uintptr_t)iov;
		cb[0].aio_nbytes = o->n;
		cbs[0] = &cb[0];
		if (sys_io_submit(1, cbs) != 1 || sys_io_getevents(1, 1, ev) != 1)
			return -1;
		return ev[0].res == want ? 0 : -1;
	case MODE_AIO_SEP:
		for (i = 0; i < o->n; i++) {
			memset(&cb[i], 0, sizeof(cb[i]));
			cb[i].aio_lio_opcode = o->write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD;
			cb[i].aio_fildes = o->fd;
			cb[i].aio_buf = (uintptr_t)iov[i].iov_base;
			cb[i].aio_nbytes = SEG;
			cb[i].aio_offset = (uint64_t)i * SEG;
			cbs[i] = &cb[i];
		}
		if (sys_io_submit(o->n, cbs) != o->n)
			return -1;
		for (i = 0; i < o->n; ) {
			long k = sys_io_getevents(1, o->n - i, ev);
			long j;

			if (k <= 0)
				return -1;
			for (j = 0; j < k; j++)
				got += ev[j].res;
			i += k;
		}
		return got == want ? 0 : -1;
	case MODE_SYSCALL_VEC:
		got = o->write ? pwritev(o->fd, iov, o->n, 0) : preadv(o->fd, iov, o->n, 0);
		return got == want ? 0 : -1;
	default:
		if (o->write)
			memcpy(src, buf, want);
		else
			memcpy(buf, src, want);
		__asm__ __volatile__("" : : "r"(buf), "r"(src) : "memory");
		return 0;
	}
}

/*
 * Cases are measured interleaved: every case is calibrated once, then the
 * REPS timed runs go round all cases in turn, so that a disturbance from
 * the host (other guests, TCG's own work) falls on every case alike rather
 * than on one. The figure kept is each case's best run.
 */
#define MAX_CASES	64

struct bench_case {
	const char *name;
	struct op o;
	long iters;		/* per timed run */
	double best;		/* ns per request; < 0: failed */
};

static struct bench_case cases[MAX_CASES];
static int ncases;

static void add_case(const char *name, const struct op *o)
{
	if (ncases < MAX_CASES)
		cases[ncases++] = (struct bench_case){ .name = name, .o = *o, .best = -1 };
}

/* Requests per timed run of about RUN_NS; 0 if the operation fails. */
static long calibrate(const struct op *o)
{
	long iters = 1, i;
	int64_t t0, t;

	for (;;) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			if (do_op(o))
				return 0;
		t = now_ns() - t0;
		if (t > RUN_NS / 10 || iters > (1L << 26))
			break;
		iters *= 2;
	}
	iters = (long)((double)iters * RUN_NS / (double)(t > 0 ? t : 1));
	return iters < 1 ? 1 : iters;
}

static void run_cases(void)
{
	int c, r;
	long i;

	for (c = 0; c < ncases; c++)
		cases[c].iters = calibrate(&cases[c].o);
	for (r = 0; r < REPS; r++) {
		for (c = 0; c < ncases; c++) {
			struct bench_case *bc = &cases[c];
			int64_t t0;
			double per;

			if (!bc->iters)
				continue;
			t0 = now_ns();
			for (i = 0; i < bc->iters; i++)
				if (do_op(&bc->o))
					break;
			if (i < bc->iters) {
				bc->iters = 0;
				bc->best = -1;
				continue;
			}
			per = (double)(now_ns() - t0) / bc->iters;
			if (bc->best < 0 || per < bc->best)
				bc->best = per;
		}
	}
	for (c = 0; c < ncases; c++) {
		struct bench_case *bc = &cases[c];
		double bytes = (double)bc->o.n * SEG;

		if (bc->best < 0) {
			printf("BENCH,%s,%s,%d,%.0f,0,fail,fail\n", kernel, bc->name, bc->o.n, bytes);
			continue;
		}
		printf("BENCH,%s,%s,%d,%.0f,%ld,%.0f,%.1f\n", kernel, bc->name, bc->o.n, bytes,
		       bc->iters, bc->best, bytes / (bc->best / 1e9) / (1024.0 * 1024.0));
	}
	fflush(stdout);
}

/* Does io_submit accept this file at all? (The legacy device: patched only.) */
static int aio_accepts(int fd)
{
	struct op o = { .fd = fd, .n = 1, .write = 0, .mode = MODE_AIO_VEC };

	return do_op(&o) == 0;
}

static void irq_rate(void)
{
	struct demo_irqdev_fire f = { .count = 2000 };
	int fd = open("/dev/" DEMO_IRQDEV_NAME "0", O_RDWR);
	double best = 0;
	int r;

	if (fd < 0) {
		printf("BENCH,%s,irq_fire,0,0,0,fail,fail\n", kernel);
		return;
	}
	for (r = 0; r < REPS; r++) {
		int64_t t0 = now_ns();
		double rate;

		f.done = 0;
		if (ioctl(fd, DEMO_IRQDEV_IOC_FIRE, &f) || f.done != f.count)
			break;
		rate = f.count / ((now_ns() - t0) / 1e9);
		if (rate > best)
			best = rate;
	}
	close(fd);
	/* ns per interrupt; the last column is interrupts per second. */
	printf("BENCH,%s,irq_fire,1,0,%u,%.0f,%.0f\n", kernel, f.count, best > 0 ? 1e9 / best : 0,
	       best);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static const int ns[] = { 1, 4, 16, 64 };
	int dev, legacy, tmp, legacy_ok, k, i;

	if (argc > 1)
		kernel = argv[1];
	else if (getenv("IRQAIO_KERNEL"))
		kernel = getenv("IRQAIO_KERNEL");
	buf = aligned_alloc(SEG, MAX_N * SEG);
	src = aligned_alloc(SEG, MAX_N * SEG);
	if (!buf || !src)
		return 1;
	memset(buf, 0x5a, MAX_N * SEG);
	memset(src, 0xa5, MAX_N * SEG);
	for (i = 0; i < MAX_N; i++) {
		iov[i].iov_base = buf + (size_t)i * SEG;
		iov[i].iov_len = SEG;
	}
	if (syscall(SYS_io_setup, 256, &ctx)) {
		perror("io_setup");
		return 1;
	}
	dev = open(DEMO_CHARDEV_PATH, O_RDWR);
	legacy = open(DEMO_CHARDEV_LEGACY_PATH, O_RDWR);
	tmp = open(TMPFS_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (dev < 0 || tmp < 0) {
		perror("open");
		return 1;
	}
	/* Same size and contents as the device's store. */
	for (i = 0; i < 256 * 1024 / SEG; i++)
		if (pwrite(tmp, src, SEG, (off_t)i * SEG) != SEG)
			return 1;
	legacy_ok = legacy >= 0 && aio_accepts(legacy);

	printf("BENCH-COLUMNS,kernel,case,segments,bytes,requests,ns_per_request,MiB_per_s\n");
	for (k = 0; k < 4; k++) {
		int n = ns[k];
		struct op o = { .n = n };

		for (o.write = 0; o.write <= 1; o.write++) {
			o.fd = dev;
			o.mode = MODE_AIO_VEC;
			add_case(o.write ? "chardev_pwritev" : "chardev_preadv", &o);
			o.mode = MODE_AIO_SEP;
			add_case(o.write ? "chardev_pwrite_sep" : "chardev_pread_sep", &o);
			o.mode = MODE_SYSCALL_VEC;
			add_case(o.write ? "chardev_writev" : "chardev_readv", &o);
			o.fd = tmp;
			o.mode = MODE_AIO_VEC;
			add_case(o.write ? "tmpfs_pwritev" : "tmpfs_preadv", &o);
			o.mode = MODE_MEMCPY;
			add_case(o.write ? "memcpy_write" : "memcpy_read", &o);
			if (legacy_ok) {
				o.fd = legacy;
				o.mode = MODE_AIO_VEC;
				add_case(o.write ? "legacy_pwritev" : "legacy_preadv", &o);
				o.mode = MODE_AIO_SEP;
				add_case(o.write ? "legacy_pwrite_sep" : "legacy_pread_sep", &o);
			}
		}
	}
	run_cases();
	irq_rate();
	unlink(TMPFS_FILE);
	return 0;
}
