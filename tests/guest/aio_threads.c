// SPDX-License-Identifier: GPL-2.0
/*
 * aio_threads - 8 threads, each with its own aio context, doing random
 * PWRITEV/PREADV (random offsets, 1-8 segments of random split) on
 * /dev/demo_chardev:
 *  - disjoint: each thread owns 16 KiB and keeps a shadow copy; every read
 *    must return exactly the thread's last writes;
 *  - overlapping: all threads share 64 KiB of 256-byte blocks; a write
 *    fills whole blocks, each block self-describing (writer, generation,
 *    block number, payload derived from them). Every read must see each
 *    block either never written (zero) or whole from one write: the
 *    driver's lock makes each request atomic, so a torn block is a bug.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include "aio_test.h"
#include "chardev_test.h"

#define NTHREADS	8
#define OWN_SIZE	(16 * 1024)
#define SHARED_BASE	(NTHREADS * OWN_SIZE)
#define BLK		256
#define SHARED_BLKS	256		/* 64 KiB */
#define ITERS		300
#define MAGIC		0x5eedb10cu

struct worker {
	int id;
	int fd;
	int failed;
	uint64_t seed;
	char why[160];
};

static unsigned int rnd(uint64_t *s)
{
	return (unsigned int)(ktap_rand(s) >> 40);
}

/* Split [buf, buf+len) into 1-8 random segments (some empty). */
static int split(uint64_t *s, unsigned char *buf, size_t len, struct iovec *v)
{
	int n = 1 + rnd(s) % 8, k;
	size_t at = 0;

	for (k = 0; k < n - 1; k++) {
		size_t l = len - at ? rnd(s) % (len - at + 1) : 0;

		v[k] = (struct iovec){ buf + at, l };
		at += l;
	}
	v[n - 1] = (struct iovec){ buf + at, len - at };
	return n;
}

/*
 * One PWRITEV (@write) or PREADV, waited for: res, -10000 if io_submit()
 * refused it, -10001 if no event came. Eight threads share the device: a
 * longer wait than a lone request's.
 */
static long rw(io_context_t ctx, int fd, int write, struct iovec *v, int n, long long off)
{
	struct iocb cb;
	long res;
	int sr;

	if (write)
		io_prep_pwritev(&cb, fd, v, n, off);
	else
		io_prep_preadv(&cb, fd, v, n, off);
	res = aio_submit_wait(ctx, &cb, 2 * CT_AIO_WAIT_S, &sr);
	if (sr != 1)
		return -10000;
	return res == LONG_MIN ? -10001 : res;
}

static unsigned char block_byte(uint32_t writer, uint32_t gen, uint32_t blk, size_t k)
{
	return (unsigned char)(writer * 7 + gen * 13 + blk * 3 + k + 1);
}

static void make_block(unsigned char *b, uint32_t writer, uint32_t gen, uint32_t blk)
{
	uint32_t hdr[4] = { MAGIC, writer, gen, blk };
	size_t k;

	memcpy(b, hdr, sizeof(hdr));
	for (k = sizeof(hdr); k < BLK; k++)
		b[k] = block_byte(writer, gen, blk, k);
}

/* 0: consistent; 1: torn or foreign. */
static int check_block(const unsigned char *b, uint32_t blk)
{
	static const unsigned char zero[BLK];
	uint32_t hdr[4];
	size_t k;

	if (!memcmp(b, zero, BLK))
		return 0;
	memcpy(hdr, b, sizeof(hdr));
	if (hdr[0] != MAGIC || hdr[3] != blk || hdr[1] >= NTHREADS)
		return 1;
	for (k = sizeof(hdr); k < BLK; k++)
		if (b[k] != block_byte(hdr[1], hdr[2], blk, k))
			return 1;
	return 0;
}

#define WFAIL(w, ...) do { snprintf((w)->why, sizeof((w)->why), __VA_ARGS__); \
			   (w)->failed = 1; goto out; } while (0)

static void *worker(void *arg)
{
	struct worker *w = arg;
	static __thread unsigned char shadow[OWN_SIZE], buf[OWN_SIZE], sbuf[16 * BLK];
	long long own = (long long)w->id * OWN_SIZE;
	io_context_t ctx = 0;
	struct iovec v[8];
	int i, n;

	memset(shadow, 0, sizeof(shadow));
	if (io_setup(4, &ctx))
		WFAIL(w, "io_setup");
	/* start from a known own range */
	v[0] = (struct iovec){ shadow, OWN_SIZE };
	if (rw(ctx, w->fd, 1, v, 1, own) != OWN_SIZE)
		WFAIL(w, "initial write");
	for (i = 0; i < ITERS; i++) {
		size_t off = rnd(&w->seed) % OWN_SIZE, len = 1 + rnd(&w->seed) % 3000;
		unsigned int nb, b0, k;
		long r;

		if (off + len > OWN_SIZE)
			len = OWN_SIZE - off;
		if (rnd(&w->seed) & 1) {	/* disjoint write */
			for (k = 0; k < len; k++)
				buf[k] = (unsigned char)(w->id * 31 + i * 5 + k);
			n = split(&w->seed, buf, len, v);
			r = rw(ctx, w->fd, 1, v, n, own + off);
			if (r != (long)len)
				WFAIL(w, "disjoint pwritev %zu@%lld: %ld", len, own + (long long)off, r);
			memcpy(shadow + off, buf, len);
		} else {			/* disjoint read */
			n = split(&w->seed, buf, len, v);
			r = rw(ctx, w->fd, 0, v, n, own + off);
			if (r != (long)len || memcmp(buf, shadow + off, len))
				WFAIL(w, "disjoint preadv %zu@%lld: %ld or data differs", len,
				      own + (long long)off, r);
		}
		/* overlapping: 1-16 whole blocks */
		nb = 1 + rnd(&w->seed) % 16;
		b0 = rnd(&w->seed) % (SHARED_BLKS - nb + 1);
		if (rnd(&w->seed) & 1) {
			for (k = 0; k < nb; k++)
				make_block(sbuf + k * BLK, w->id, i, b0 + k);
			n = split(&w->seed, sbuf, nb * BLK, v);
			r = rw(ctx, w->fd, 1, v, n, SHARED_BASE + (long long)b0 * BLK);
			if (r != (long)(nb * BLK))
				WFAIL(w, "shared pwritev: %ld", r);
		} else {
			n = split(&w->seed, sbuf, nb * BLK, v);
			r = rw(ctx, w->fd, 0, v, n, SHARED_BASE + (long long)b0 * BLK);
			if (r != (long)(nb * BLK))
				WFAIL(w, "shared preadv: %ld", r);
			for (k = 0; k < nb; k++)
				if (check_block(sbuf + k * BLK, b0 + k))
					WFAIL(w, "torn or foreign block %u (iteration %d)", b0 + k, i);
		}
	}
out:
	if (ctx)
		io_destroy(ctx);
	return NULL;
}

KTAP_TEST(aio_threads_random, 240)
{
	struct demo_chardev_stats before, after, d;
	struct worker w[NTHREADS];
	pthread_t th[NTHREADS];
	static unsigned char zero[SHARED_BLKS * BLK];
	int fd, i, failed = 0;

	fd = ct_dev_open(0);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(ct_stats_fd(fd, &before) == 0, "stats");
	/* the shared area starts zeroed, so that leftovers cannot pass as blocks */
	KTAP_EXPECT(pwrite(fd, zero, sizeof(zero), SHARED_BASE) == sizeof(zero), "zero");
	for (i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){ .id = i, .fd = fd, .seed = 0x1234 + i * 7919 };
		pthread_create(&th[i], NULL, worker, &w[i]);
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		if (w[i].failed) {
			ktap_diag("thread %d: %s", i, w[i].why);
			failed = 1;
		}
	}
	KTAP_EXPECT(ct_stats_fd(fd, &after) == 0, "stats");
	ct_paths_delta("the test's requests", &before, &after, &d);
	close(fd);
	return failed ? KTAP_FAIL : KTAP_PASS;
}

int main(void)
{
	return ktap_main("aio_threads");
}
