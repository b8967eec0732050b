// SPDX-License-Identifier: GPL-2.0
/*
 * splice_chardev - splice(2), tee(2), sendfile(2) and in-kernel
 * kernel_read()/kernel_write() (through the test-only module
 * /testmods/irqaio_kio.ko) on /dev/demo_chardev, every case also on a tmpfs
 * file in the same boot as the reference (chardev_test.h).
 *
 * Shapes the device must see, decided from the probe results the modules
 * were built with (/etc/irqaio/features.h), not from the kernel's name:
 *   splice/sendfile from the device  ITER_PIPE with generic_file_splice_read
 *                                    (IRQAIO_HAVE_SPLICE_GENERIC_READ, <= 6.4),
 *                                    ITER_BVEC with copy_splice_read
 *                                    (IRQAIO_HAVE_SPLICE_COPY_READ, 6.5+)
 *   splice/sendfile to the device    ITER_BVEC (iter_file_splice_write)
 *   kernel_read()/kernel_write()     ITER_KVEC
 */
#include <sys/sendfile.h>
#include <sys/syscall.h>
#include "chardev_test.h"
#include "kio_test.h"

#define SENDFILE_OUT	"/tmp/irqaio_sendfile_out"

/* The shape a splice from the device arrives in, by probe; -1 unknown. */
static int splice_read_shape(void)
{
	if (ct_feature("SPLICE_COPY_READ") == 1)
		return DEMO_CHARDEV_PATH_BVEC;
	if (ct_feature("SPLICE_GENERIC_READ") == 1 && ct_feature("ITER_PIPE") == 1)
		return DEMO_CHARDEV_PATH_PIPE;
	return -1;
}

/* Exactly @n requests, all of @shape (-1: the probes named no shape). */
static int expect_shape(const struct demo_chardev_stats *d, int shape, unsigned long long n)
{
	static const char *const names[] = DEMO_CHARDEV_PATH_NAMES;

	KTAP_EXPECT(shape >= 0, "no features file or no splice probe: %s", CT_FEATURES);
	KTAP_EXPECT(d->requests[shape] == n && ct_other_paths(d, shape) == 0,
		    "device: %llu %s request(s) expected", n, names[shape]);
	return KTAP_PASS;
}

/* The pattern @seed at [@off, @off + @len) of @t and in @want, and a pipe in @p. */
static int put_and_pipe(struct ct_target *t, loff_t off, unsigned char *want, size_t len,
			unsigned int seed, int p[2])
{
	ct_fill(want, len, seed);
	return ct_put(t, off, len, seed) == 0 && pipe(p) == 0 ? 0 : -1;
}

/* Does one read(2) of @len bytes from pipe end @fd give @want? */
static bool pipe_holds(int fd, const unsigned char *want, size_t len)
{
	unsigned char *got = malloc(len);
	bool same;

	if (!got)
		return false;
	same = read(fd, got, len) == (ssize_t)len && !memcmp(got, want, len);
	free(got);
	return same;
}

static void close_pipe(int p[2])
{
	close(p[0]);
	close(p[1]);
}

/*
 * After a splice or sendfile of @src into @t at @off (@what: how it got
 * there): @t holds it, and the device saw ITER_BVEC requests only, one or
 * more (iter_file_splice_write() may split at pipe buffers).
 */
static int expect_spliced_in(struct ct_target *t, loff_t off, const unsigned char *src,
			     size_t len, const struct demo_chardev_stats *d, const char *what)
{
	KTAP_EXPECT(ct_holds(t, off, src, len), "%s: data %s differs", t->name, what);
	if (t->dev)
		KTAP_EXPECT(d->requests[DEMO_CHARDEV_PATH_BVEC] >= 1 &&
			    ct_other_paths(d, DEMO_CHARDEV_PATH_BVEC) == 0,
			    "device: ITER_BVEC expected");
	return KTAP_PASS;
}

/* splice(2), and on the device what paths it took (*@d). */
static ssize_t splice_counted(struct ct_target *t, int in, loff_t *in_off, int out,
			      loff_t *out_off, size_t len, struct demo_chardev_stats *d)
{
	struct demo_chardev_stats b;
	ssize_t n;

	ct_paths_begin(&b);
	n = splice(in, in_off, out, out_off, len, 0);
	if (t->dev)
		ct_paths_end(in == t->fd ? "splice device -> pipe" : "splice pipe -> device", &b, d);
	return n;
}

static int splice_to_pipe_on(struct ct_target *t)
{
	unsigned char want[6000];
	struct demo_chardev_stats d;
	loff_t off = 50000;
	int p[2];
	ssize_t n;

	KTAP_EXPECT(put_and_pipe(t, off, want, sizeof(want), 21, p) == 0, "setup");
	n = splice_counted(t, t->fd, &off, p[1], NULL, sizeof(want), &d);
	KTAP_EXPECT(n == (ssize_t)sizeof(want), "%s: splice to a pipe: %zd %s", t->name, n, strerror(errno));
	KTAP_EXPECT(off == 56000, "%s: offset after splice %lld", t->name, (long long)off);
	KTAP_EXPECT(pipe_holds(p[0], want, sizeof(want)), "%s: data spliced to the pipe differs",
		    t->name);
	close_pipe(p);
	return t->dev ? expect_shape(&d, splice_read_shape(), 1) : KTAP_PASS;
}

KTAP_TEST(splice_to_pipe, 30) { return ct_both(splice_to_pipe_on); }

static int splice_from_pipe_on(struct ct_target *t)
{
	unsigned char src[7001];
	struct demo_chardev_stats d;
	loff_t off = 60000;
	int p[2];
	ssize_t n;

	ct_fill(src, sizeof(src), 22);
	KTAP_EXPECT(pipe(p) == 0 && write(p[1], src, sizeof(src)) == (ssize_t)sizeof(src), "setup");
	n = splice_counted(t, p[0], NULL, t->fd, &off, sizeof(src), &d);
	KTAP_EXPECT(n == (ssize_t)sizeof(src), "%s: splice from a pipe: %zd %s", t->name, n, strerror(errno));
	KTAP_EXPECT(off == 60000 + (loff_t)sizeof(src), "%s: offset %lld", t->name, (long long)off);
	close_pipe(p);
	return expect_spliced_in(t, 60000, src, sizeof(src), &d, "spliced in");
}

KTAP_TEST(splice_from_pipe, 30) { return ct_both(splice_from_pipe_on); }

/*
 * Across and at the end: from the file short then 0 on both; into it the
 * device takes what fits, then ENOSPC, the file grows (documented).
 */
static int splice_end_on(struct ct_target *t)
{
	unsigned char src[100], want[100], got[1000];
	loff_t end = t->size, off;
	int p[2];
	ssize_t n;

	KTAP_EXPECT(put_and_pipe(t, end - 100, want, sizeof(want), 23, p) == 0, "setup");
	off = end - 100;
	n = splice(t->fd, &off, p[1], NULL, 1000, 0);
	KTAP_EXPECT(n == 100, "%s: splice across the end: %zd", t->name, n);
	KTAP_EXPECT(pipe_holds(p[0], want, 100), "%s: data", t->name);
	off = end;
	n = splice(t->fd, &off, p[1], NULL, 1000, 0);
	KTAP_EXPECT(n == 0, "%s: splice at the end: %zd", t->name, n);
	ct_fill(src, sizeof(src), 24);
	KTAP_EXPECT(write(p[1], src, sizeof(src)) == 100, "fill pipe");
	off = end - 50;
	n = splice(p[0], NULL, t->fd, &off, 100, 0);
	KTAP_EXPECT(n == (t->dev ? 50 : 100), "%s: splice into the end: %zd", t->name, n);
	if (t->dev) {
		/* the 50 bytes that did not fit are still in the pipe */
		KTAP_EXPECT(read(p[0], got, 100) == 50 && !memcmp(got, src + 50, 50),
			    "device: the pipe should keep what did not fit");
		KTAP_EXPECT(write(p[1], src, 10) == 10, "fill pipe");
		off = end;
		errno = 0;
		n = splice(p[0], NULL, t->fd, &off, 10, 0);
		KTAP_EXPECT(n == -1 && errno == ENOSPC, "device: splice at the end: %zd %s", n,
			    strerror(errno));
	} else {
		KTAP_EXPECT(ftruncate(t->fd, t->size) == 0, "truncate");
	}
	close_pipe(p);
	return KTAP_PASS;
}

KTAP_TEST(splice_across_and_at_end, 30) { return ct_both(splice_end_on); }

/*
 * sendfile from the device: up to some release between 5.10 and 6.1 the
 * kernel refused any input that is not a regular file or block device in
 * splice_direct_to_actor() (-EINVAL before the driver sees anything). The
 * test tells that apart from a driver that cannot splice by splicing the
 * same bytes to a pipe first, which must work; the matrix fact
 * sendfile_from_chardev (ok|einval), when the guest has it, must agree.
 */
static int sendfile_refused_by_kernel(struct ct_target *t)
{
	loff_t off = 70000;
	int p[2];
	ssize_t n;

	if (pipe(p))
		return 0;
	n = splice(t->fd, &off, p[1], NULL, 100, 0);
	close_pipe(p);
	return n == 100;
}

static int sendfile_to_tmpfs_on(struct ct_target *t)
{
	static unsigned char want[20000];
	struct demo_chardev_stats b, d;
	const char *fact = ktap_fact("sendfile_from_chardev");
	off_t off = 70000;
	ssize_t n;
	int out;

	KTAP_EXPECT(ct_put(t, off, sizeof(want), 25) == 0, "put");
	ct_fill(want, sizeof(want), 25);
	out = open(SENDFILE_OUT, O_RDWR | O_CREAT | O_TRUNC, 0600);
	KTAP_EXPECT(out >= 0, "open %s", SENDFILE_OUT);
	ct_paths_begin(&b);
	errno = 0;
	n = sendfile(out, t->fd, &off, sizeof(want));
	if (t->dev)
		ct_paths_end("sendfile device -> tmpfs", &b, &d);
	if (t->dev && n == -1 && errno == EINVAL && (!fact || !strcmp(fact, "einval"))) {
		close(out);
		unlink(SENDFILE_OUT);
		KTAP_EXPECT(ct_other_paths(&d, -1) == 0, "device: refused, but the driver saw a request");
		KTAP_EXPECT(sendfile_refused_by_kernel(t),
			    "device: sendfile EINVAL and splice to a pipe fails too: the driver cannot splice");
		ktap_diag("device: sendfile from a char device refused by the kernel (EINVAL; splice works)%s",
			  fact ? ", as the matrix says" : "");
		return KTAP_PASS;
	}
	KTAP_EXPECT(!fact || !t->dev || !strcmp(fact, "ok"), "device: fact %s, sendfile %zd", fact, n);
	KTAP_EXPECT(n == (ssize_t)sizeof(want), "%s: sendfile: %zd %s", t->name, n, strerror(errno));
	KTAP_EXPECT(off == 90000, "%s: offset %lld", t->name, (long long)off);
	{
		struct ct_target o = { .name = "out", .fd = out };

		KTAP_EXPECT(ct_holds(&o, 0, want, sizeof(want)), "%s: sendfile data differs", t->name);
	}
	close(out);
	unlink(SENDFILE_OUT);
	/* sendfile splices through an internal pipe, one request per fill */
	if (t->dev) {
		int shape = splice_read_shape();

		KTAP_EXPECT(shape >= 0 && d.requests[shape] >= 1 && ct_other_paths(&d, shape) == 0,
			    "device: sendfile should arrive as the splice read shape");
	}
	return KTAP_PASS;
}

KTAP_TEST(sendfile_to_tmpfs, 30) { return ct_both(sendfile_to_tmpfs_on); }

/* sendfile into the target at its file position, from a tmpfs file. */
static int sendfile_from_tmpfs_on(struct ct_target *t)
{
	static unsigned char src[12345];
	struct demo_chardev_stats b, d;
	ssize_t n;
	int in;

	ct_fill(src, sizeof(src), 26);
	in = open(SENDFILE_OUT, O_RDWR | O_CREAT | O_TRUNC, 0600);
	KTAP_EXPECT(in >= 0 && write(in, src, sizeof(src)) == (ssize_t)sizeof(src), "input file");
	KTAP_EXPECT(lseek(in, 0, SEEK_SET) == 0 && lseek(t->fd, 90000, SEEK_SET) == 90000, "lseek");
	ct_paths_begin(&b);
	n = sendfile(t->fd, in, NULL, sizeof(src));
	if (t->dev)
		ct_paths_end("sendfile tmpfs -> device", &b, &d);
	KTAP_EXPECT(n == (ssize_t)sizeof(src), "%s: sendfile in: %zd %s", t->name, n, strerror(errno));
	KTAP_EXPECT(lseek(t->fd, 0, SEEK_CUR) == 90000 + (off_t)sizeof(src), "%s: f_pos", t->name);
	close(in);
	unlink(SENDFILE_OUT);
	return expect_spliced_in(t, 90000, src, sizeof(src), &d, "sent in");
}

KTAP_TEST(sendfile_from_tmpfs, 30) { return ct_both(sendfile_from_tmpfs_on); }

/* splice into one pipe, tee it to a second: both carry the same bytes. */
static int tee_on(struct ct_target *t)
{
	unsigned char want[4096];
	loff_t off = 110000;
	int p1[2], p2[2];
	ssize_t n;

	KTAP_EXPECT(put_and_pipe(t, off, want, sizeof(want), 27, p1) == 0 && pipe(p2) == 0,
		    "setup");
	n = splice(t->fd, &off, p1[1], NULL, sizeof(want), 0);
	KTAP_EXPECT(n == (ssize_t)sizeof(want), "%s: splice: %zd", t->name, n);
	n = tee(p1[0], p2[1], sizeof(want), 0);
	KTAP_EXPECT(n == (ssize_t)sizeof(want), "%s: tee: %zd %s", t->name, n, strerror(errno));
	KTAP_EXPECT(pipe_holds(p2[0], want, sizeof(want)), "%s: the tee'd pipe differs", t->name);
	KTAP_EXPECT(pipe_holds(p1[0], want, sizeof(want)), "%s: the first pipe differs after tee",
		    t->name);
	close_pipe(p1);
	close_pipe(p2);
	return KTAP_PASS;
}

KTAP_TEST(tee_pipes, 30) { return ct_both(tee_on); }

static int kernel_rw_on(struct ct_target *t)
{
	const char *path = t->dev ? DEMO_CHARDEV_PATH : CT_REF_PATH;
	unsigned char src[3333], got[2000], want[100];
	struct demo_chardev_stats b, d;
	long long end = t->size, pa = 0;
	long r;

	KTAP_EXPECT(kio_open() == 0, "test module");
	ct_fill(src, sizeof(src), 28);
	ct_paths_begin(&b);
	r = kio(path, 1, src, sizeof(src), 120001, &pa);
	KTAP_EXPECT(r == (long)sizeof(src) && pa == 120001 + (long long)sizeof(src),
		    "%s: kernel_write: %ld pos %lld", t->name, r, pa);
	r = kio(path, 0, got, sizeof(got), 120500, &pa);
	KTAP_EXPECT(r == (long)sizeof(got) && pa == 122500, "%s: kernel_read: %ld pos %lld", t->name, r, pa);
	KTAP_EXPECT(!memcmp(got, src + 499, sizeof(got)), "%s: kernel_read data differs", t->name);
	/* across and at the end */
	KTAP_EXPECT(ct_put(t, end - 100, 100, 29) == 0, "put");
	ct_fill(want, sizeof(want), 29);
	r = kio(path, 0, got, sizeof(got), end - 10, NULL);
	KTAP_EXPECT(r == 10 && !memcmp(got, want + 90, 10), "%s: kernel_read across the end: %ld", t->name, r);
	r = kio(path, 0, got, sizeof(got), end, NULL);
	KTAP_EXPECT(r == 0, "%s: kernel_read at the end: %ld", t->name, r);
	r = kio(path, 1, src, 100, end - 50, NULL);
	KTAP_EXPECT(r == (t->dev ? 50 : 100), "%s: kernel_write across the end: %ld", t->name, r);
	r = kio(path, 1, src, 100, end, NULL);
	KTAP_EXPECT(r == (t->dev ? -ENOSPC : 100), "%s: kernel_write at the end: %ld", t->name, r);
	if (t->dev) {
		ct_paths_end("kernel_read/kernel_write", &b, &d);
		/* 6 kio calls; ct_put's pwrite is the one user-backed request */
		KTAP_EXPECT(d.requests[DEMO_CHARDEV_PATH_KVEC] == 6 && ct_user_paths(&d) == 1 &&
			    ct_other_paths(&d, DEMO_CHARDEV_PATH_KVEC) == 1,
			    "device: six ITER_KVEC requests expected");
	} else {
		KTAP_EXPECT(ftruncate(t->fd, t->size) == 0, "truncate");
	}
	return KTAP_PASS;
}

KTAP_TEST(kernel_read_write, 30)
{
	int r = ct_both(kernel_rw_on);

	return kio_close() ? KTAP_FAIL : r;
}

int main(void)
{
	return ktap_main("splice_chardev");
}
