// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_irqdev - a bounded fuzzer for demo_irqdev's user interface, with
 * fixed seeds and fixed iteration counts:
 *   random ioctl numbers with random argument pointers (ENOTTY);
 *   the four real ioctls with NULL, unmapped, kernel, guard-page-crossing
 *   and read-only argument pointers (EFAULT), random counts incl. huge
 *   ones (EINVAL above DEMO_IRQDEV_MAX_FIRE), random flags and timeouts,
 *   each answer checked against the UAPI header's rules;
 *   concurrent callers from several threads on shared and private files,
 *   with the device's counters checked against the work reported;
 *   the same calls racing with sysfs unbind/bind of the PCI devices, after
 *   which every device is rebound in PCI order and must work again.
 * Generic VFS ioctl numbers (FIONBIO, FIFREEZE and friends) are never
 * sent: the VFS answers them before the driver sees them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <irqaio/demo_irqdev.h>
#include "irqdev_test.h"
#include <ktap.h>

#define FUZZ_SEED		0xbb67ae8584caa73bULL
#define MAX_DEVS		4
#define PAGE			4096UL
#define HOLE_ADDR		((void *)0x100000000000UL)
#define NR_THREADS		4
/* The unbind/bind phase of race_unbind stops starting operations after this. */
#define RACE_BUDGET_S		40

static int ndevs;
static char bdf[MAX_DEVS][16];
static int have_nmi;
static unsigned char *guard_end;	/* first byte of a PROT_NONE page */
static unsigned char *ro_page;		/* a read-only page */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	return ktap_rand(&r->s);
}

static uint64_t rnd_below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

static int chance(struct rng *r, unsigned int pct)
{
	return rnd_below(r, 100) < pct;
}

static uint32_t factorial_mod32(uint32_t n)
{
	uint32_t r = 1;

	while (n > 0)
		r *= n--;
	return r;
}

static int is_known_cmd(unsigned int cmd)
{
	return cmd == DEMO_IRQDEV_IOC_FIRE || cmd == DEMO_IRQDEV_IOC_FACTORIAL ||
	       cmd == DEMO_IRQDEV_IOC_STATS || cmd == DEMO_IRQDEV_IOC_FIRE_NMI ||
	       cmd == DEMO_IRQDEV_IOC_NMI_CPU;
}

/* Ioctl types the VFS (or the tty layer) answers itself: never sent. */
static int is_vfs_type(unsigned int type)
{
	return type == 0 || type == 'T' || type == 'X' || type == 'f' ||
	       type == 0x94 || type == 0x12 || type == 'v' || type == 0x15;
}

static unsigned int gen_cmd(struct rng *r)
{
	unsigned int cmd, type;

	do {
		switch (rnd_below(r, 4)) {
		case 0:		/* our magic, any number, size and direction */
			cmd = _IOC(rnd_below(r, 4), DEMO_IRQDEV_IOC_MAGIC, rnd_below(r, 256),
				   rnd_below(r, 1 << 14));
			break;
		case 1:		/* a real number with the wrong size or direction */
			cmd = _IOC(rnd_below(r, 4), DEMO_IRQDEV_IOC_MAGIC, 1 + rnd_below(r, 4),
				   rnd_below(r, 256));
			break;
		default:
			cmd = (uint32_t)rnd(r);
			break;
		}
		type = _IOC_TYPE(cmd);
	} while (is_known_cmd(cmd) || is_vfs_type(type));
	return cmd;
}

static void *gen_bad_ptr(struct rng *r, size_t size)
{
	switch (rnd_below(r, 5)) {
	case 0: return NULL;
	case 1: return (char *)HOLE_ADDR + rnd_below(r, PAGE);
	case 2: return (void *)(uintptr_t)(0xffff888000000000ULL + rnd_below(r, 1ULL << 30));
	case 3: return guard_end - size + 1 + rnd_below(r, size - 1);	/* crosses into the guard */
	default: return (void *)(uintptr_t)(0x8000000000000000ULL | rnd(r));
	}
}

/* ---- one checked call on a real ioctl ------------------------------------ */

struct call_stats {
	unsigned long calls, ok, einval, efault, eopnotsupp, enodev, etimedout, other;
	unsigned long fired[MAX_DEVS];	/* interrupts reported done, per device */
};

static void count_errno(struct call_stats *st, int ret, int e)
{
	st->calls++;
	if (!ret)
		st->ok++;
	else if (e == EINVAL)
		st->einval++;
	else if (e == EFAULT)
		st->efault++;
	else if (e == EOPNOTSUPP)
		st->eopnotsupp++;
	else if (e == ENODEV)
		st->enodev++;
	else if (e == ETIMEDOUT)
		st->etimedout++;
	else
		st->other++;
}

/* One call on a real ioctl: what is sent, and what the UAPI says must come back. */
struct call {
	unsigned int cmd;
	union {
		struct demo_irqdev_fire f;
		struct demo_irqdev_factorial fa;
		struct demo_irqdev_stats s;
	} u;
	size_t size;		/* of the argument */
	void *arg;		/* &u, a bad pointer, or a read-only copy of u */
	int bad_ptr, ro;
	int want;		/* the errno the driver must answer, or 0 */
	uint32_t count, n;	/* FIRE's count, FACTORIAL's n */
};

/* FIRE or FIRE_NMI: a count, flags and a timeout, valid or not. */
static void gen_fire(struct rng *r, struct call *c)
{
	struct demo_irqdev_fire *f = &c->u.f;
	unsigned int k = rnd_below(r, 100);

	c->count = k < 70 ? rnd_below(r, 20) : k < 80 ? DEMO_IRQDEV_MAX_FIRE + 1 :
		   k < 90 ? UINT32_MAX : DEMO_IRQDEV_MAX_FIRE + 1 + (uint32_t)rnd_below(r, 1U << 31);
	f->count = c->count;
	f->flags = chance(r, 75) ? 0 : chance(r, 50) ? DEMO_IRQDEV_FIRE_NESTED_NMI
						     : (uint32_t)rnd(r);
	/*
	 * Valid timeouts are generous: 0 (the driver's 1000 ms) or a
	 * few seconds would bet that no interrupt of hundreds waits
	 * that long on a loaded host, and a timeout fails the call.
	 */
	f->timeout_ms = chance(r, 85) ? IT_WAIT_MS :
			chance(r, 66) ? IT_WAIT_MS + rnd_below(r, 4000) :
			DEMO_IRQDEV_MAX_TIMEOUT_MS + 1 + (uint32_t)rnd_below(r, 1U << 31);
	f->done = (uint32_t)rnd(r);
	/* The driver's order: FIRE checks its input first, FIRE_NMI its support. */
	if (c->cmd == DEMO_IRQDEV_IOC_FIRE_NMI && !have_nmi)
		c->want = EOPNOTSUPP;
	else if (c->count > DEMO_IRQDEV_MAX_FIRE)
		c->want = EINVAL;
	else if (c->cmd == DEMO_IRQDEV_IOC_FIRE && ((f->flags & ~DEMO_IRQDEV_FIRE_FLAGS) ||
						    f->timeout_ms > DEMO_IRQDEV_MAX_TIMEOUT_MS))
		c->want = EINVAL;
	else if (c->cmd == DEMO_IRQDEV_IOC_FIRE_NMI && f->flags)
		c->want = EINVAL;
	else if (!have_nmi && (f->flags & DEMO_IRQDEV_FIRE_NESTED_NMI))
		c->want = EOPNOTSUPP;
}

static void gen_factorial(struct rng *r, struct call *c)
{
	c->n = chance(r, 80) ? rnd_below(r, 13) : rnd_below(r, 1000);
	c->u.fa.n = c->n;
	c->u.fa.timeout_ms = chance(r, 95) ? IT_WAIT_MS : DEMO_IRQDEV_MAX_TIMEOUT_MS + 1;
	if (c->u.fa.timeout_ms > DEMO_IRQDEV_MAX_TIMEOUT_MS)
		c->want = EINVAL;
}

/* A random call on a real ioctl, its argument good, bad or read-only. */
static void gen_call(struct rng *r, struct call *c)
{
	static const unsigned int cmds[] = {
		DEMO_IRQDEV_IOC_FIRE, DEMO_IRQDEV_IOC_FACTORIAL,
		DEMO_IRQDEV_IOC_STATS, DEMO_IRQDEV_IOC_FIRE_NMI,
	};

	memset(c, 0, sizeof(*c));
	c->cmd = cmds[rnd_below(r, 4)];
	c->size = _IOC_SIZE(c->cmd);
	c->arg = &c->u;
	if (chance(r, 15)) {
		c->arg = gen_bad_ptr(r, c->size);
		c->bad_ptr = 1;
	} else if (chance(r, 5) && c->cmd != DEMO_IRQDEV_IOC_STATS) {
		c->ro = 1;	/* input readable, output not writable */
	}
	if (c->cmd == DEMO_IRQDEV_IOC_FIRE || c->cmd == DEMO_IRQDEV_IOC_FIRE_NMI)
		gen_fire(r, c);
	else if (c->cmd == DEMO_IRQDEV_IOC_FACTORIAL)
		gen_factorial(r, c);
}

/* What a call that succeeded wrote back: done counts, the factorial, sane stats. */
static int check_result(const struct call *c, int dev, int racing, struct call_stats *st)
{
	switch (c->cmd) {
	case DEMO_IRQDEV_IOC_FIRE:
		if (dev >= 0 && dev < MAX_DEVS)
			st->fired[dev] += c->u.f.done;
		/* fall through */
	case DEMO_IRQDEV_IOC_FIRE_NMI:
		if (c->u.f.done != c->count && !racing) {
			ktap_diag("cmd %#x: done %u of %u", c->cmd, c->u.f.done, c->count);
			return -1;
		}
		return 0;
	case DEMO_IRQDEV_IOC_FACTORIAL:
		if (c->u.fa.result != factorial_mod32(c->n)) {
			ktap_diag("factorial(%u) = %u, expected %u", c->n, c->u.fa.result,
				  factorial_mod32(c->n));
			return -1;
		}
		return 0;
	default:
		if ((c->u.s.irq_mode != DEMO_IRQDEV_MODE_INTX &&
		     c->u.s.irq_mode != DEMO_IRQDEV_MODE_MSI) ||
		    (c->u.s.irq_handler_args != 2 && c->u.s.irq_handler_args != 3) ||
		    !memchr(c->u.s.last_ip_sym, 0, sizeof(c->u.s.last_ip_sym))) {
			ktap_diag("stats look wrong: mode %u args %u", c->u.s.irq_mode,
				  c->u.s.irq_handler_args);
			return -1;
		}
		return 0;
	}
}

/* Does the answer (@ret, errno @e) obey the UAPI rules for @c? 0 if so. */
static int check_answer(const struct call *c, int ret, int e, int dev, int racing,
			struct call_stats *st)
{
	if (racing && ret && (e == ENODEV || e == EINTR))
		return 0;
	if (c->bad_ptr) {
		if (ret && e == EFAULT)
			return 0;
		ktap_diag("cmd %#x with a bad pointer %p: %d (%s)", c->cmd, c->arg, ret, strerror(e));
		return -1;
	}
	if (c->want) {
		if (ret && e == c->want)
			return 0;
		ktap_diag("cmd %#x count %u flags %#x: %d (%s), expected %s", c->cmd, c->count,
			  c->u.f.flags, ret, strerror(e), strerror(c->want));
		return -1;
	}
	if (c->ro) {
		/* The work was done, the answer could not be written back. */
		if (c->cmd == DEMO_IRQDEV_IOC_FIRE && dev >= 0 && dev < MAX_DEVS)
			st->fired[dev] += c->count;
		if (ret && e == EFAULT)
			return 0;
		ktap_diag("cmd %#x with a read-only argument: %d (%s)", c->cmd, ret, strerror(e));
		return -1;
	}
	if (ret) {
		ktap_diag("cmd %#x count %u flags %#x n %u: %s", c->cmd, c->count, c->u.f.flags,
			  c->n, strerror(e));
		return -1;
	}
	return check_result(c, dev, racing, st);
}

/*
 * One random call on a real ioctl; returns 0 if the answer obeys the UAPI
 * rules. @racing: the device may be unbound under us (ENODEV is fine).
 */
static int checked_call(struct rng *r, int fd, int dev, int racing, struct call_stats *st)
{
	unsigned char *ro_arg = NULL;
	struct call c;
	int ret, e;

	gen_call(r, &c);
	if (c.ro) {
		/* A private page per call: other threads toggle no protection we use. */
		ro_arg = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ro_arg == MAP_FAILED)
			return -1;
		memcpy(ro_arg + PAGE - c.size, &c.u, c.size);
		c.arg = ro_arg + PAGE - c.size;
		if (mprotect(ro_arg, PAGE, PROT_READ))
			return -1;
	}
	ret = ioctl(fd, c.cmd, c.arg);
	e = ret ? errno : 0;
	if (c.ro)
		munmap(ro_arg, PAGE);
	count_errno(st, ret, e);
	return check_answer(&c, ret, e, dev, racing, st);
}

static void print_stats(const char *what, const struct call_stats *st)
{
	ktap_diag("%s: %lu calls: %lu ok, EINVAL %lu, EFAULT %lu, EOPNOTSUPP %lu, ENODEV %lu, ETIMEDOUT %lu, other %lu",
		  what, st->calls, st->ok, st->einval, st->efault, st->eopnotsupp, st->enodev,
		  st->etimedout, st->other);
}

/* ---- tests ---------------------------------------------------------------- */

KTAP_TEST(random_numbers, 120)
{
	struct rng r = { FUZZ_SEED };
	unsigned long i, enotty = 0, iters = 20000;
	int fd = it_dev_open(0, 0), ret;
	unsigned int cmd;
	void *arg;

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	for (i = 0; i < iters; i++) {
		cmd = gen_cmd(&r);
		arg = chance(&r, 50) ? gen_bad_ptr(&r, 64) : (void *)ro_page;
		ret = ioctl(fd, cmd, arg);
		KTAP_EXPECT(ret == -1 && errno == ENOTTY, "ioctl %#x: %d (%s), expected ENOTTY",
			    cmd, ret, strerror(errno));
		enotty++;
	}
	close(fd);
	ktap_diag("%lu random ioctl numbers: all ENOTTY", enotty);
	return KTAP_PASS;
}

KTAP_TEST(real_ioctls, 180)
{
	struct rng r = { FUZZ_SEED ^ 1 };
	struct call_stats st = { 0 };
	int fds[MAX_DEVS], k, i;

	for (k = 0; k < ndevs; k++) {
		fds[k] = it_dev_open(k, 0);
		KTAP_EXPECT(fds[k] >= 0, "open dev%d: %s", k, strerror(errno));
	}
	for (i = 0; i < 3000; i++) {
		k = rnd_below(&r, ndevs);
		if (checked_call(&r, fds[k], k, 0, &st)) {
			print_stats("real_ioctls", &st);
			return KTAP_FAIL;
		}
	}
	for (k = 0; k < ndevs; k++)
		close(fds[k]);
	print_stats("real_ioctls", &st);
	return KTAP_PASS;
}

struct worker {
	pthread_t t;
	unsigned int idx;
	int racing;
	int *shared_fds;
	unsigned int iters;
	volatile int *stop;
	struct call_stats st;
	int failed;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct rng r = { FUZZ_SEED + 0x100 * (w->idx + 1) + w->racing };
	int own[MAX_DEVS], k, fd;
	unsigned int i;

	for (k = 0; k < ndevs; k++)
		own[k] = it_dev_open(k, 0);
	for (i = 0; i < w->iters && !(w->stop && *w->stop); i++) {
		k = rnd_below(&r, ndevs);
		if (w->racing && chance(&r, 10)) {
			/* Reopen by name: the node may be gone or belong to a new binding. */
			if (own[k] >= 0)
				close(own[k]);
			own[k] = it_dev_open(k, 0);
		}
		fd = chance(&r, 50) ? w->shared_fds[k] : own[k];
		if (fd < 0)
			continue;
		if (chance(&r, 10)) {
			unsigned int cmd = gen_cmd(&r);

			if (ioctl(fd, cmd, ro_page) != -1 || errno != ENOTTY) {
				ktap_diag("worker %u: ioctl %#x: %s", w->idx, cmd, strerror(errno));
				w->failed = 1;
				break;
			}
			continue;
		}
		/* Private files only count toward a device's interrupts when not racing. */
		if (checked_call(&r, fd, w->racing ? -1 : k, w->racing, &w->st)) {
			ktap_diag("worker %u failed at call %u", w->idx, i);
			w->failed = 1;
			break;
		}
	}
	for (k = 0; k < ndevs; k++)
		if (own[k] >= 0)
			close(own[k]);
	return NULL;
}

/* Wait for @n workers and add up their counts in @total: whether any failed. */
static int join_workers(struct worker *w, unsigned int n, struct call_stats *total)
{
	int failed = 0, k;
	unsigned int i;

	for (i = 0; i < n; i++) {
		pthread_join(w[i].t, NULL);
		failed |= w[i].failed;
		total->calls += w[i].st.calls;
		total->ok += w[i].st.ok;
		total->einval += w[i].st.einval;
		total->efault += w[i].st.efault;
		total->eopnotsupp += w[i].st.eopnotsupp;
		total->enodev += w[i].st.enodev;
		total->etimedout += w[i].st.etimedout;
		total->other += w[i].st.other;
		for (k = 0; k < MAX_DEVS; k++)
			total->fired[k] += w[i].st.fired[k];
	}
	return failed;
}

KTAP_TEST(concurrent_callers, 180)
{
	struct worker w[NR_THREADS];
	struct demo_irqdev_stats a[MAX_DEVS], b[MAX_DEVS];
	struct call_stats total = { 0 };
	int fds[MAX_DEVS], k, failed = 0;
	unsigned int i;

	for (k = 0; k < ndevs; k++) {
		fds[k] = it_dev_open(k, 0);
		KTAP_EXPECT(fds[k] >= 0 && ioctl(fds[k], DEMO_IRQDEV_IOC_STATS, &a[k]) == 0,
			    "dev%d: %s", k, strerror(errno));
	}
	memset(w, 0, sizeof(w));
	for (i = 0; i < NR_THREADS; i++) {
		w[i].idx = i;
		w[i].shared_fds = fds;
		w[i].iters = 500;
		KTAP_EXPECT(pthread_create(&w[i].t, NULL, worker_main, &w[i]) == 0, "pthread_create");
	}
	failed = join_workers(w, NR_THREADS, &total);
	print_stats("concurrent_callers", &total);
	KTAP_EXPECT(!failed, "a worker failed");
	for (k = 0; k < ndevs; k++) {
		KTAP_EXPECT(ioctl(fds[k], DEMO_IRQDEV_IOC_STATS, &b[k]) == 0, "stats");
		ktap_diag("dev%d: %lu interrupts reported done, raise_irqs +%llu", k, total.fired[k],
			  (unsigned long long)(b[k].raise_irqs - a[k].raise_irqs));
		KTAP_EXPECT(b[k].raise_irqs - a[k].raise_irqs == total.fired[k],
			    "dev%d: the handler counted %llu software interrupts, callers %lu", k,
			    (unsigned long long)(b[k].raise_irqs - a[k].raise_irqs), total.fired[k]);
		KTAP_EXPECT(b[k].nested_nmi_bad == a[k].nested_nmi_bad, "nested NMI clobbered regs");
		close(fds[k]);
	}
	return KTAP_PASS;
}

/* Unbind every device, then bind them in PCI order: stable /dev names. */
static int rebind_all_in_order(void)
{
	double t0;
	int k;

	for (k = 0; k < ndevs; k++)
		if (it_is_bound(bdf[k]) && it_write_file(IT_DRIVER_DIR "/unbind", bdf[k]))
			return -1;
	for (k = 0; k < ndevs; k++)
		if (it_write_file(IT_DRIVER_DIR "/bind", bdf[k]))
			return -1;
	/* devtmpfs creates the nodes as the misc devices register. */
	for (t0 = ktap_now(); ktap_now() - t0 < KTAP_WAIT_S;) {
		for (k = 0; k < ndevs; k++) {
			char path[64];

			snprintf(path, sizeof(path), "/dev/" DEMO_IRQDEV_NAME "%d", k);
			if (access(path, F_OK))
				break;
		}
		if (k == ndevs)
			return 0;
		usleep(10000);
	}
	return -1;
}

KTAP_TEST(race_unbind, 200)
{
	struct rng r = { FUZZ_SEED ^ 2 };
	struct worker w[NR_THREADS - 1];
	struct call_stats total = { 0 };
	volatile int stop = 0;
	int fds[MAX_DEVS], k, failed = 0, rounds = 0, binds = 0, rebound;
	unsigned int i;
	time_t t0;

	for (k = 0; k < ndevs; k++)
		fds[k] = it_dev_open(k, 0);
	memset(w, 0, sizeof(w));
	for (i = 0; i < NR_THREADS - 1; i++) {
		w[i].idx = i;
		w[i].racing = 1;
		w[i].shared_fds = fds;
		w[i].iters = 1000000;
		w[i].stop = &stop;
		KTAP_EXPECT(pthread_create(&w[i].t, NULL, worker_main, &w[i]) == 0, "pthread_create");
	}
	t0 = time(NULL);
	/* 30 operations, or fewer where binding is slow (KASAN, ACPI under TCG). */
	for (rounds = 0; rounds < 30 && time(NULL) - t0 < RACE_BUDGET_S; rounds++) {
		k = rnd_below(&r, ndevs);
		usleep(rnd_below(&r, 30000));
		if (it_is_bound(bdf[k])) {
			if (it_write_file(IT_DRIVER_DIR "/unbind", bdf[k])) {
				ktap_diag("unbind %s: %s", bdf[k], strerror(errno));
				failed = 1;
				break;
			}
		} else {
			if (it_write_file(IT_DRIVER_DIR "/bind", bdf[k])) {
				ktap_diag("bind %s: %s", bdf[k], strerror(errno));
				failed = 1;
				break;
			}
			binds++;
		}
	}
	stop = 1;
	failed |= join_workers(w, NR_THREADS - 1, &total);
	for (k = 0; k < ndevs; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	print_stats("race_unbind", &total);
	ktap_diag("%d unbind/bind operations (%d binds) under %d calling threads in %ld s",
		  rounds, binds, NR_THREADS - 1, (long)(time(NULL) - t0));
	/* Rebind first: a failure must not leave the next program without devices. */
	rebound = rebind_all_in_order();
	KTAP_EXPECT(!failed, "a worker or a sysfs write failed");
	KTAP_EXPECT(rebound == 0, "rebinding: %s", strerror(errno));

	/* Every device works again, and counts exactly what it is asked. */
	for (k = 0; k < ndevs; k++) {
		struct demo_irqdev_stats a, b;
		unsigned int done = 0;
		int fd = it_dev_open(k, 0);

		KTAP_EXPECT(fd >= 0, "open dev%d after rebinding: %s", k, strerror(errno));
		KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_STATS, &a) == 0, "stats");
		KTAP_EXPECT(it_fire(fd, 10, 0, &done) == 0 && done == 10,
			    "fire after rebinding: %s, done %u", strerror(errno), done);
		KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_STATS, &b) == 0 &&
			    b.raise_irqs - a.raise_irqs == 10, "raise_irqs +%llu",
			    (unsigned long long)(b.raise_irqs - a.raise_irqs));
		close(fd);
	}
	return KTAP_PASS;
}

static int setup(void)
{
	struct demo_irqdev_stats s;
	void *p;
	int fd;

	ndevs = it_bound_devices(bdf, MAX_DEVS);
	if (ndevs < 1)
		return -1;
	fd = it_dev_open(0, 0);
	if (fd < 0 || ioctl(fd, DEMO_IRQDEV_IOC_STATS, &s))
		return -1;
	have_nmi = s.nmi_handler_args != 0;
	close(fd);
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || mprotect((char *)p + PAGE, PAGE, PROT_NONE))
		return -1;
	guard_end = (unsigned char *)p + PAGE;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	ro_page = p;
	memset(ro_page, 0, PAGE);
	if (mprotect(ro_page, PAGE, PROT_READ))
		return -1;
	/* The hole: proven unmapped. */
	p = mmap(HOLE_ADDR, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != HOLE_ADDR || munmap(p, PAGE))
		return -1;
	return 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setup())
		return ktap_setup_failed("fuzz_irqdev", "no demo_irqdev device (%s)",
					 strerror(errno));
	ktap_diag("%d devices, NMI %s", ndevs, have_nmi ? "available" : "not available");
	return ktap_main("fuzz_irqdev");
}
