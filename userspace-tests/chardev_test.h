/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chardev_test.h - helpers shared by the tests that run each case on
 * /dev/demo_chardev and on a tmpfs file in the same boot (the reference):
 * open both with the same size and contents, fill and check patterns, the
 * device's path counters, and the probe results the modules were built
 * with (/etc/irqaio/features.h in the guest).
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
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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

static inline int ct_stats(struct demo_chardev_stats *st)
{
	int fd = open(DEMO_CHARDEV_PATH, O_RDONLY);
	int r;

	if (fd < 0)
		return -1;
	r = ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, st);
	close(fd);
	return r;
}

static inline int ct_set_throttle(int fd, unsigned int ms)
{
	__u32 v = ms;

	return ioctl(fd, DEMO_CHARDEV_IOC_SET_THROTTLE, &v);
}

static inline double ct_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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

static inline void ct_paths_end(const char *what,
				const struct demo_chardev_stats *before,
				struct demo_chardev_stats *d)
{
	static const char *const names[] = DEMO_CHARDEV_PATH_NAMES;
	struct demo_chardev_stats now;
	char line[256];
	size_t o = 0;
	int i;

	memset(d, 0, sizeof(*d));
	if (ct_stats(&now))
		return;
	for (i = 0; i < DEMO_CHARDEV_NR_PATHS; i++) {
		d->requests[i] = now.requests[i] - before->requests[i];
		if (d->requests[i] && o < sizeof(line))
			o += snprintf(line + o, sizeof(line) - o, " %s=%llu", names[i],
				      (unsigned long long)d->requests[i]);
	}
	d->segments = now.segments - before->segments;
	d->eagain = now.eagain - before->eagain;
	d->interrupted = now.interrupted - before->interrupted;
	d->slept = now.slept - before->slept;
	ktap_diag("path: %s:%s (chunks=%llu eagain=%llu slept=%llu interrupted=%llu)", what,
		  o ? line : " none", (unsigned long long)d->segments,
		  (unsigned long long)d->eagain, (unsigned long long)d->slept,
		  (unsigned long long)d->interrupted);
}

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

#endif /* IRQAIO_CHARDEV_TEST_H */
