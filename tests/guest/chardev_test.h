/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chardev_test.h - what the demo_chardev tests share: opening the device,
 * an aio context on it, the device and a tmpfs file in the same boot (the
 * reference) opened with the same size and contents, fill and check
 * patterns, the device's path counters, and the probe results the modules
 * were built with (/etc/irqaio/features.h in the guest). Its names begin
 * with ct_ (CT_ for macros).
 *
 * The reference is a tmpfs file truncated to the store's size, so reads
 * at and across the end behave the same. Documented differences, which
 * the tests assert as such (t->dev):
 *   - a write across the end of the store is short and one at the end
 *     fails with ENOSPC; the file grows instead;
 *   - a throttled device blocks; tmpfs never does, so RWF_NOWAIT and
 *     O_NONBLOCK requests succeed on it.
 */
#ifndef IRQAIO_CHARDEV_TEST_H
#define IRQAIO_CHARDEV_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <irqaio/demo_chardev.h>
#include <ktap.h>

#define CT_REF_PATH	"/tmp/irqaio_chardev_ref"
#define CT_FEATURES	"/etc/irqaio/features.h"
/*
 * The longest throttle the driver takes (its DEMO_CHARDEV_MAX_THROTTLE_MS):
 * a request that must not sleep it cannot pass by sleeping it quickly.
 */
#define CT_THROTTLE_MAX_MS	10000
/*
 * The throttle of a request that must sleep. Whether it slept is the
 * driver's "slept" counter; that it slept about this long is checked
 * against half of it only: a TCG guest's CLOCK_MONOTONIC and the jiffies
 * msleep() counts drift apart by a few per cent (a 300 ms sleep was seen
 * to take 287 ms).
 */
#define CT_THROTTLE_MS		300
#define CT_THROTTLE_MIN_S	(CT_THROTTLE_MS / 2000.0)

struct ct_target {
	const char *name;	/* "device" or "tmpfs" */
	bool dev;
	int fd;
	size_t size;
};

static inline void ct_fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t k;

	for (k = 0; k < n; k++)
		p[k] = (unsigned char)(seed * 0x9e + k * 31 + (k >> 9) + 1);
}

/* /dev/demo_chardev, read-write, with open(2) @flags added. */
static inline int ct_dev_open(int flags)
{
	return open(DEMO_CHARDEV_PATH, O_RDWR | flags);
}

/* The size of the store behind @fd; 0 if the driver does not say. */
static inline size_t ct_dev_size(int fd)
{
	__u64 size = 0;

	if (ioctl(fd, DEMO_CHARDEV_IOC_GET_SIZE, &size))
		return 0;
	return size;
}

/* Open the device, or the reference file sized like the device's store. */
static inline int ct_open(struct ct_target *t, bool dev, int flags)
{
	__u64 size = 0;
	int dfd;

	memset(t, 0, sizeof(*t));
	t->dev = dev;
	t->name = dev ? "device" : "tmpfs";
	dfd = open(DEMO_CHARDEV_PATH, O_RDWR);
	if (dfd < 0 || ioctl(dfd, DEMO_CHARDEV_IOC_GET_SIZE, &size)) {
		ktap_diag("%s: %s", DEMO_CHARDEV_PATH, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	t->size = size;
	if (dev) {
		t->fd = dfd;
		if (flags) {
			close(dfd);
			t->fd = open(DEMO_CHARDEV_PATH, O_RDWR | flags);
		}
		return t->fd < 0 ? -1 : 0;
	}
	close(dfd);
	t->fd = open(CT_REF_PATH, O_RDWR | O_CREAT | flags, 0600);
	if (t->fd < 0 || ftruncate(t->fd, t->size)) {
		ktap_diag("%s: %s", CT_REF_PATH, strerror(errno));
		return -1;
	}
	return 0;
}

static inline void ct_close(struct ct_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

/* Run @fn on the device, then on the reference; both must pass. */
static inline int ct_both(int (*fn)(struct ct_target *t))
{
	struct ct_target t;
	int k, r;

	for (k = 0; k < 2; k++) {
		if (ct_open(&t, k == 0, 0))
			return KTAP_FAIL;
		r = fn(&t);
		ct_close(&t);
		if (r != KTAP_PASS) {
			ktap_diag("failed on the %s", t.name);
			return r;
		}
	}
	return KTAP_PASS;
}

/* Put the same pattern at [off, off+len) of a target (plain pwrite). */
static inline int ct_put(struct ct_target *t, off_t off, size_t len,
			 unsigned int seed)
{
	unsigned char *p = malloc(len);
	ssize_t n;

	if (!p)
		return -1;
	ct_fill(p, len, seed);
	n = pwrite(t->fd, p, len, off);
	free(p);
	return n == (ssize_t)len ? 0 : -1;
}

/* Do [off, off+len) of a target hold @want (plain pread)? */
static inline bool ct_holds(struct ct_target *t, off_t off,
			    const unsigned char *want, size_t len)
{
	unsigned char *p = malloc(len);
	bool same;

	if (!p)
		return false;
	same = pread(t->fd, p, len, off) == (ssize_t)len && !memcmp(p, want, len);
	free(p);
	return same;
}

/* The counters of the device behind @fd (demo_chardev or its legacy twin). */
static inline int ct_stats_fd(int fd, struct demo_chardev_stats *st)
{
	return ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, st);
}

static inline int ct_stats(struct demo_chardev_stats *st)
{
	int fd = open(DEMO_CHARDEV_PATH, O_RDONLY);
	int r;

	if (fd < 0)
		return -1;
	r = ct_stats_fd(fd, st);
	close(fd);
	return r;
}

static inline int ct_set_throttle(int fd, unsigned int ms)
{
	__u32 v = ms;

	return ioctl(fd, DEMO_CHARDEV_IOC_SET_THROTTLE, &v);
}

static inline void ct_ignore_signal(int sig)
{
	(void)sig;
}

/*
 * SIGUSR1 caught by a handler that does nothing, without SA_RESTART: a
 * system call it interrupts ends with EINTR or its partial count.
 */
static inline int ct_catch_sigusr1(void)
{
	struct sigaction sa = { .sa_handler = ct_ignore_signal };

	return sigaction(SIGUSR1, &sa, NULL);
}

/*
 * A userfaultfd over the missing pages of [@addr, @addr + @len): a request
 * whose copy touches one waits in the driver, lock held, until the test
 * supplies the page. The descriptor, or -errno (-ENOSYS: a kernel built
 * without CONFIG_USERFAULTFD, as the tinyconfig-based rows are).
 */
static inline int ct_uffd_register(void *addr, size_t len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)addr, .len = len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	int uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK), err;

	if (uffd < 0)
		return -errno;
	if (ioctl(uffd, UFFDIO_API, &api) || ioctl(uffd, UFFDIO_REGISTER, &reg)) {
		err = errno;
		close(uffd);
		return -err;
	}
	return uffd;
}

/* ct_uffd_register() gave @uffd: a kernel without userfaultfd skips the test. */
#define CT_UFFD_SKIP_IF_ABSENT(uffd)					\
	do {								\
		if ((uffd) == -ENOSYS) {				\
			ktap_diag("no userfaultfd in this kernel (CONFIG_USERFAULTFD)"); \
			return KTAP_SKIP;				\
		}							\
	} while (0)

/* Wait until a request faults on @uffd's range: 0, or -1 if none did. */
static inline int ct_uffd_wait_fault(int uffd)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, KTAP_WAIT_S * 1000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		return -1;
	return msg.event == UFFD_EVENT_PAGEFAULT ? 0 : -1;
}

/*
 * Path counters between ct_paths_begin() and ct_paths_end(): prints the
 * shapes the device saw as "# path: <what>: SHAPE=n ..." and returns the
 * delta in @d.
 */
static inline void ct_paths_begin(struct demo_chardev_stats *before)
{
	memset(before, 0, sizeof(*before));
	ct_stats(before);
}

/* The delta from @before to @now in @d, printed as ct_paths_end() does. */
static inline void ct_paths_delta(const char *what, const struct demo_chardev_stats *before,
				  const struct demo_chardev_stats *now,
				  struct demo_chardev_stats *d)
{
	static const char *const names[] = DEMO_CHARDEV_PATH_NAMES;
	char line[256];
	size_t o = 0;
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < DEMO_CHARDEV_NR_PATHS; i++) {
		d->requests[i] = now->requests[i] - before->requests[i];
		if (d->requests[i] && o < sizeof(line))
			o += snprintf(line + o, sizeof(line) - o, " %s=%llu", names[i],
				      (unsigned long long)d->requests[i]);
	}
	d->segments = now->segments - before->segments;
	d->eagain = now->eagain - before->eagain;
	d->interrupted = now->interrupted - before->interrupted;
	d->slept = now->slept - before->slept;
	ktap_diag("path: %s:%s (chunks=%llu eagain=%llu slept=%llu interrupted=%llu)", what,
		  o ? line : " none", (unsigned long long)d->segments,
		  (unsigned long long)d->eagain, (unsigned long long)d->slept,
		  (unsigned long long)d->interrupted);
}

static inline void ct_paths_end(const char *what,
				const struct demo_chardev_stats *before,
				struct demo_chardev_stats *d)
{
	struct demo_chardev_stats now;

	memset(d, 0, sizeof(*d));
	if (ct_stats(&now))
		return;
	ct_paths_delta(what, before, &now, d);
}

/* Run a test and report which paths its requests took. */
static inline int ct_with_paths(int (*fn)(void))
{
	struct demo_chardev_stats before, d;
	int r;

	if (ct_stats(&before)) {
		ktap_diag("no %s: %s", DEMO_CHARDEV_PATH, strerror(errno));
		return KTAP_FAIL;
	}
	r = fn();
	ct_paths_end("the test's requests", &before, &d);
	return r;
}

/* KTAP_TEST(name, timeout) whose body runs under ct_with_paths(). */
#define CT_PATH_TEST(name, timeout)					\
	static int name##_body(void);					\
	KTAP_TEST(name, timeout) { return ct_with_paths(name##_body); }	\
	static int name##_body(void)

/* Requests of shapes other than @shape in a delta. */
static inline unsigned long long ct_other_paths(const struct demo_chardev_stats *d, int shape)
{
	unsigned long long n = 0;
	int i;

	for (i = 0; i < DEMO_CHARDEV_NR_PATHS; i++)
		if (i != shape)
			n += d->requests[i];
	return n;
}

static inline unsigned long long ct_user_paths(const struct demo_chardev_stats *d)
{
	return d->requests[DEMO_CHARDEV_PATH_IOVEC] + d->requests[DEMO_CHARDEV_PATH_UBUF];
}

/*
 * Did the compile probes find IRQAIO_HAVE_<name> for the modules this
 * guest runs? 1 yes, 0 no, -1 no features file (then the test cannot
 * know what the tree has and must not guess).
 */
static inline int ct_feature(const char *name)
{
	char line[256], want[128];
	FILE *f = fopen(CT_FEATURES, "r");
	int found = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "#define IRQAIO_HAVE_%s 1", name);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)) &&
		    (line[strlen(want)] == '\n' || line[strlen(want)] == '\0'))
			found = 1;
	fclose(f);
	return found;
}

/*
 * libaio helpers, for the programs that include <libaio.h> first. fuzz_aio
 * speaks the raw system calls through <linux/aio_abi.h>, whose struct iocb
 * and struct io_event clash with libaio's, and so sees only the rest.
 */
#ifdef __LIBAIO_H
/* How long a test waits for the event of a request that is not held up. */
#define CT_AIO_WAIT_S	10

/*
 * Open @path (O_RDWR | @flags) and an aio context of @depth events on it:
 * 0, or -1 with a diagnostic saying which step failed (nothing left open).
 */
static inline int ct_aio_setup(const char *path, int flags, unsigned int depth, int *fd,
			       io_context_t *ctx)
{
	int r;

	*ctx = 0;
	*fd = open(path, O_RDWR | flags);
	if (*fd < 0) {
		ktap_diag("open %s: %s", path, strerror(errno));
		return -1;
	}
	r = io_setup(depth, ctx);
	if (r) {
		ktap_diag("io_setup: %s", strerror(-r));
		close(*fd);
		*fd = -1;
		return -1;
	}
	return 0;
}

static inline void ct_aio_teardown(int fd, io_context_t ctx)
{
	io_destroy(ctx);
	close(fd);
}

/* A test's demo device file and aio context (CT_AIO_TEST()). */
struct ct_aio {
	int fd;
	io_context_t ctx;
};

/*
 * CT_AIO_TEST(name, timeout, flags, depth): a CT_PATH_TEST() whose body gets
 * the demo device opened with @flags and an aio context of @depth requests
 * (struct ct_aio *t), closed and destroyed after the body, whatever it
 * returned.
 */
#define CT_AIO_TEST(name, timeout, flags, depth)			\
	static int name##_aio(struct ct_aio *t);			\
	CT_PATH_TEST(name, timeout)					\
	{								\
		struct ct_aio t_;					\
		int r_;							\
									\
		KTAP_EXPECT(ct_aio_setup(DEMO_CHARDEV_PATH, (flags), (depth), &t_.fd, \
					 &t_.ctx) == 0, "setup");	\
		r_ = name##_aio(&t_);					\
		ct_aio_teardown(t_.fd, t_.ctx);				\
		return r_;						\
	}								\
	static int name##_aio(struct ct_aio *t)

#endif /* __LIBAIO_H */

#endif /* IRQAIO_CHARDEV_TEST_H */
