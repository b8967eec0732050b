// SPDX-License-Identifier: GPL-2.0
/*
 * fault_injection - the drivers' error paths, run by the kernel's fault
 * injection: /proc/thread-self/fail-nth makes the Nth allocation of this
 * thread fail (failslab and fail_page_alloc, GFP_KERNEL included), and each
 * operation below runs once for every N it reaches, N = 1, 2, ..., until a
 * run no longer reaches its Nth allocation. The operations are the ones a
 * driver must unwind by itself: loading each module (its init, and for
 * demo_irqdev the probe of every edu device), opening demo_chardev (its
 * per-file state), binding demo_irqdev to a device, and submitting DMA
 * requests to it (the shim's pinning and page lists, the driver's request).
 *
 * Asserted for every N: an operation that fails says so with an errno and
 * leaves nothing behind (no module, no bound device, no page held for DMA,
 * no completion pending); one that succeeds works; and once no allocation
 * fails, the operation succeeds. The kernel must report nothing: qemu/run
 * fails the boot on any splat, and on a kernel with kmemleak the guest's
 * final scan finds every allocation the unwinding forgot.
 *
 * Skipped where the kernel has no fault injection (CONFIG_FAILSLAB,
 * CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS): Debian's
 * kernels; the source-built rows have it. Where kmemleak runs, only kmalloc
 * allocations fail (fi_setup() says why).
 *
 * The thread's memory is locked first: a page fault between arming and the
 * system call would take the injected failure instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <irqaio/demo_chardev.h>
#include <irqaio/demo_irqdev.h>
#include "irqdev_test.h"
#include "module_test.h"
#include <ktap.h>

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define DEBUGFS		"/sys/kernel/debug"
/* Far beyond the allocations of any operation here: a loop that gets there never ends. */
#define MAX_NTH		5000
#define EVENT_WAIT_S	30

static int fail_nth_fd = -1;

/* Write @val to @attr of fault capability @cap (/sys/kernel/debug/@cap/@attr). */
static int fi_set(const char *cap, const char *attr, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), DEBUGFS "/%s/%s", cap, attr);
	return it_write_file(path, val) ? -errno : 0;
}

/*
 * Arm fault injection for this thread, quietly (a failure is the point, its
 * stack is noise), for sleeping allocations too (by default they are
 * spared). Where kmemleak runs, its own metadata must never fail: a failed
 * kmemleak allocation turns kmemleak off for the rest of the boot (and its
 * report of it takes a console lock under a raw spinlock, which lockdep
 * reports). There only the kmalloc caches fail, those the kernel was booted
 * to mark (slub_debug=A,kmalloc-*, the matrix row's append: 6.1 cannot
 * mark a cache at run time), and no page allocation does. Elsewhere every
 * slab and page allocation may fail.
 */
static int fi_setup(void)
{
	bool only_kmalloc = access(DEBUGFS "/kmemleak", F_OK) == 0;
	char mark[4] = "";
	FILE *f;
	int r;

	if (access(FAIL_NTH, W_OK) || access(DEBUGFS "/failslab", F_OK) ||
	    access(DEBUGFS "/fail_page_alloc", F_OK))
		return -ENOENT;
	if (only_kmalloc) {
		f = fopen("/sys/kernel/slab/kmalloc-64/failslab", "r");
		if (!f || !fgets(mark, sizeof(mark), f) || mark[0] != '1') {
			ktap_diag("kmemleak runs and the kmalloc caches are not marked for "
				  "failslab: boot with slub_debug=A,kmalloc-*");
			if (f)
				fclose(f);
			return -EINVAL;
		}
		fclose(f);
	}
	r = fi_set("failslab", "ignore-gfp-wait", "N");
	r = r ?: fi_set("failslab", "verbose", "0");
	r = r ?: fi_set("failslab", "cache-filter", only_kmalloc ? "Y" : "N");
	r = r ?: fi_set("fail_page_alloc", "ignore-gfp-wait", "N");
	r = r ?: fi_set("fail_page_alloc", "verbose", "0");
	/* Above any order there is: no page allocation fails. */
	r = r ?: fi_set("fail_page_alloc", "min-order", only_kmalloc ? "64" : "0");
	if (r)
		return r;
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		return -errno;
	fail_nth_fd = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	return fail_nth_fd < 0 ? -errno : 0;
}

#define FI_SKIP_IF_ABSENT()						\
	do {								\
		int r_ = fi_setup();					\
		if (r_ == -ENOENT) {					\
			ktap_diag("no fault injection in this kernel (" FAIL_NTH \
				  ", failslab, fail_page_alloc)");	\
			return KTAP_SKIP;				\
		}							\
		KTAP_EXPECT(r_ == 0, "fault injection set-up: %s", strerror(-r_)); \
	} while (0)

/*
 * One run of @op(@arg) with the @nth allocation of this thread failing; its
 * result in *@ret. Returns 1 if the run reached that allocation (it
 * failed), 0 if it did not, -1 if fail-nth could not be armed or read.
 */
static int fi_run(unsigned int nth, long (*op)(void *), void *arg, long *ret)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", nth);
	ssize_t n;

	if (pwrite(fail_nth_fd, buf, len, 0) != len)
		return -1;
	*ret = op(arg);
	/* What is left of the count: 0 once the failure was injected. */
	n = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);
	if (pwrite(fail_nth_fd, "0", 1, 0) != 1 || n <= 0)
		return -1;
	buf[n] = '\0';
	return strtoul(buf, NULL, 10) == 0;
}

/*
 * What a check says of one run: the operation worked (FI_WORKED), or it
 * reported a failure and left nothing behind (FI_REFUSED); KTAP_FAIL when
 * the run breaks the contract.
 */
enum { FI_WORKED = KTAP_PASS, FI_REFUSED = 16 };

/*
 * Run @op for N = 1, 2, ... until a run no longer reaches its Nth
 * allocation; @check judges each run (N, whether it was failed, its
 * result). How many runs were failed in *@failed, and how many of them
 * the operation reported as failures in *@errors.
 */
static int fi_each(const char *what, long (*op)(void *), void *arg,
		   int (*check)(void *arg, unsigned int nth, bool injected, long ret),
		   unsigned int *failed, unsigned int *errors)
{
	unsigned int nth;
	long ret;
	int injected, verdict;

	*failed = 0;
	*errors = 0;
	for (nth = 1; nth <= MAX_NTH; nth++) {
		injected = fi_run(nth, op, arg, &ret);
		KTAP_EXPECT(injected >= 0, "%s: arming " FAIL_NTH ": %s", what, strerror(errno));
		verdict = check(arg, nth, injected, ret);
		KTAP_EXPECT(verdict == FI_WORKED || verdict == FI_REFUSED,
			    "%s: with allocation %u failing (%s)", what, nth,
			    injected ? "it was failed" : "no allocation failed");
		if (!injected)
			break;
		(*failed)++;
		if (verdict == FI_REFUSED)
			(*errors)++;
	}
	KTAP_EXPECT(nth <= MAX_NTH, "%s: still allocating after %d failures", what, MAX_NTH);
	ktap_diag("%s: %u allocations failed in turn, %u of them failed the operation "
		  "(the others were retried or optional)", what, *failed, *errors);
	return KTAP_PASS;
}

/* Loading a module from an open file, with its parameters. */
struct load {
	const char *name;
	const char *params;
	int fd;
	bool (*works)(void);
};

static long load_op(void *arg)
{
	struct load *l = arg;

	return module_load_fd(l->fd, l->params);
}

static int load_check(void *arg, unsigned int nth, bool injected, long ret)
{
	struct load *l = arg;

	if (ret < 0) {
		KTAP_EXPECT(injected, "the load failed with no allocation failing: %s",
			    strerror(-ret));
		KTAP_EXPECT(!module_loaded(l->name), "a failed load (%s) left %s behind",
			    strerror(-ret), l->name);
		return FI_REFUSED;
	}
	KTAP_EXPECT(l->works(), "%s loaded but does not work", l->name);
	if (injected)
		KTAP_EXPECT(module_unload(l->name) == 0, "unload after load %u: %s", nth,
			    strerror(errno));
	return FI_WORKED;
}

/*
 * Each allocation of loading @name with @params failed in turn, from a
 * state where it is not loaded; it is not loaded after either.
 */
static int load_each(const char *name, const char *params, bool (*works)(void))
{
	struct load l = { .name = name, .params = params };
	unsigned int failed, errors;
	char path[128];
	int ret;

	snprintf(path, sizeof(path), "/modules/%s.ko", name);
	l.fd = open(path, O_RDONLY | O_CLOEXEC);
	l.works = works;
	KTAP_EXPECT(l.fd >= 0, "open %s: %s", path, strerror(errno));
	ret = fi_each(name, load_op, &l, load_check, &failed, &errors);
	close(l.fd);
	if (module_loaded(name))
		KTAP_EXPECT(module_unload(name) == 0, "unload %s: %s", name, strerror(errno));
	KTAP_EXPECT(ret == KTAP_PASS);
	KTAP_EXPECT(errors > 0, "no failed allocation failed the load: nothing was unwound");
	return KTAP_PASS;
}

static bool chardev_works(void)
{
	int fd = open(DEMO_CHARDEV_PATH, O_RDWR);
	char c = 'x';
	bool ok;

	if (fd < 0)
		return false;
	ok = pwrite(fd, &c, 1, 0) == 1 && pread(fd, &c, 1, 0) == 1 && c == 'x';
	close(fd);
	return ok;
}

KTAP_TEST(fail_each_alloc_chardev_load, 600)
{
	int ret;

	FI_SKIP_IF_ABSENT();
	KTAP_EXPECT(module_unload(DEMO_CHARDEV_NAME) == 0, "unload: %s", strerror(errno));
	ret = load_each(DEMO_CHARDEV_NAME, "", chardev_works);
	KTAP_EXPECT(module_load(DEMO_CHARDEV_NAME, "") == 0, "load again");
	return ret;
}

static long open_op(void *arg)
{
	int fd = open(arg, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A failed open(2) says so; an open file reads and writes, then closes. */
static int open_check(void *arg, unsigned int nth, bool injected, long ret)
{
	char c = 'o';
	bool ok;

	if (ret < 0) {
		KTAP_EXPECT(injected, "open(%s) failed with no allocation failing: %s",
			    (char *)arg, strerror(-ret));
		return FI_REFUSED;
	}
	ok = pwrite(ret, &c, 1, 0) == 1 && pread(ret, &c, 1, 0) == 1 && c == 'o';
	KTAP_EXPECT(close(ret) == 0, "close after open %u: %s", nth, strerror(errno));
	KTAP_EXPECT(ok, "%s opened with allocation %u failing, but does not work",
		    (char *)arg, nth);
	return FI_WORKED;
}

/*
 * demo_chardev's open() allocates the file's state, and so does the legacy
 * variant's before its own steps: each allocation of open(2) fails in turn,
 * on each device.
 */
KTAP_TEST(fail_each_alloc_chardev_open, 300)
{
	static char *const paths[] = { DEMO_CHARDEV_PATH, DEMO_CHARDEV_LEGACY_PATH };
	unsigned int failed, errors;
	size_t i;

	FI_SKIP_IF_ABSENT();
	for (i = 0; i < KTAP_ARRAY_SIZE(paths); i++) {
		KTAP_EXPECT(fi_each("open", open_op, paths[i], open_check, &failed,
				    &errors) == KTAP_PASS, "%s", paths[i]);
		KTAP_EXPECT(errors > 0, "no failed allocation failed open(2) of %s", paths[i]);
	}
	return KTAP_PASS;
}

/* Every bound device fires an interrupt through its node. */
static bool irqdev_works(void)
{
	char bdf[4][16];
	int i, n = it_bound_devices(bdf, 4);

	for (i = 0; i < n; i++) {
		int fd = it_dev_open(i, 0);
		bool ok = fd >= 0 && it_fire(fd, 1, 0, NULL) == 0;

		if (fd >= 0)
			close(fd);
		if (!ok)
			return false;
	}
	return true;
}

/*
 * While demo_irqdev's allocations fail, two steps of the probe that are the
 * kernel's, not the driver's, are kept from running, because the kernel
 * does not survive a failed allocation in them:
 *  - allocating an MSI vector: demo_irqdev is loaded with force_intx=1.
 *    Linux 6.1's irq_insert_desc() ignores radix_tree_insert()'s failure
 *    and irq_domain_alloc_irqs_locked() then dereferences the descriptor it
 *    never stored (seen: an Oops in pci_alloc_irq_vectors());
 *  - routing the INTx line when the device is first enabled: the devices
 *    are held enabled through sysfs, so the probe's pcim_enable_device()
 *    only counts. On 6.12 the ACPI interpreter evaluating _PRT for it
 *    dereferenced NULL after a failed allocation
 *    (acpi_ut_update_object_reference()).
 * The driver's own steps are all still reached.
 */
#define IRQDEV_PARAMS	"force_intx=1"

/* Hold the unbound edu devices enabled (@on: "1") or let them go ("0"). */
static int hold_enabled(char bdf[][16], int n, const char *on)
{
	char path[96];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/enable", bdf[i]);
		if (it_write_file(path, on))
			return -1;
	}
	return 0;
}

KTAP_TEST(fail_each_alloc_irqdev_load, 900)
{
	char bdf[4][16];
	int ret;

	FI_SKIP_IF_ABSENT();
	KTAP_EXPECT(it_bound_devices(bdf, 4) == 2, "two edu devices bound before");
	KTAP_EXPECT(module_unload(DEMO_IRQDEV_NAME) == 0, "unload: %s", strerror(errno));
	KTAP_EXPECT(hold_enabled(bdf, 2, "1") == 0, "enable: %s", strerror(errno));
	ret = load_each(DEMO_IRQDEV_NAME, IRQDEV_PARAMS, irqdev_works);
	KTAP_EXPECT(hold_enabled(bdf, 2, "0") == 0, "disable: %s", strerror(errno));
	KTAP_EXPECT(module_load(DEMO_IRQDEV_NAME, "") == 0, "load again");
	KTAP_EXPECT(ret == KTAP_PASS);
	KTAP_EXPECT(it_bound_devices(bdf, 4) == 2, "two edu devices bound after");
	return KTAP_PASS;
}

/* Binding demo_irqdev to the device at bdf (a write to the driver's bind file). */
struct bind {
	const char *bdf;
	int fd;
};

static long bind_op(void *arg)
{
	struct bind *b = arg;
	ssize_t n = pwrite(b->fd, b->bdf, strlen(b->bdf), 0);

	return n < 0 ? -errno : 0;
}

static int bind_check(void *arg, unsigned int nth, bool injected, long ret)
{
	struct bind *b = arg;

	if (ret < 0) {
		KTAP_EXPECT(injected, "bind failed with no allocation failing: %s", strerror(-ret));
		KTAP_EXPECT(!it_is_bound(b->bdf), "a failed bind (%s) left %s bound",
			    strerror(-ret), b->bdf);
		return FI_REFUSED;
	}
	KTAP_EXPECT(it_is_bound(b->bdf), "bind said yes, %s is not bound", b->bdf);
	KTAP_EXPECT(irqdev_works(), "bound, but the devices do not fire");
	if (injected)
		KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/unbind", b->bdf) == 0,
			    "unbind after bind %u: %s", nth, strerror(errno));
	return FI_WORKED;
}

KTAP_TEST(fail_each_alloc_irqdev_bind, 600)
{
	char bdf[4][16];
	struct bind b;
	unsigned int failed, errors;
	int ret;

	FI_SKIP_IF_ABSENT();
	KTAP_EXPECT(module_unload(DEMO_IRQDEV_NAME) == 0, "unload: %s", strerror(errno));
	KTAP_EXPECT(module_load(DEMO_IRQDEV_NAME, IRQDEV_PARAMS) == 0, "load with " IRQDEV_PARAMS);
	KTAP_EXPECT(it_bound_devices(bdf, 4) == 2, "two edu devices bound before");
	b.bdf = bdf[1];
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/unbind", b.bdf) == 0, "unbind %s", b.bdf);
	KTAP_EXPECT(hold_enabled(bdf + 1, 1, "1") == 0, "enable: %s", strerror(errno));
	b.fd = open(IT_DRIVER_DIR "/bind", O_WRONLY | O_CLOEXEC);
	KTAP_EXPECT(b.fd >= 0, "open bind: %s", strerror(errno));
	ret = fi_each("bind", bind_op, &b, bind_check, &failed, &errors);
	close(b.fd);
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/unbind", b.bdf) == 0, "unbind %s", b.bdf);
	KTAP_EXPECT(hold_enabled(bdf + 1, 1, "0") == 0, "disable: %s", strerror(errno));
	KTAP_EXPECT(module_unload(DEMO_IRQDEV_NAME) == 0, "unload: %s", strerror(errno));
	KTAP_EXPECT(module_load(DEMO_IRQDEV_NAME, "") == 0, "load again without parameters");
	KTAP_EXPECT(ret == KTAP_PASS);
	KTAP_EXPECT(errors > 0, "no failed allocation failed the probe: nothing was unwound");
	return KTAP_PASS;
}

/*
 * One io_submit() of a request over three segments, each across a page
 * boundary (six page pieces: the shim's page and scatter lists, the
 * driver's request and its mappings), to or from /dev/demo_irqdev0.
 */
struct dma {
	int fd;
	io_context_t ctx;
	bool write;
	unsigned char *arena;	/* three segments of 2 pages, from offset 100 of each */
	unsigned char ref[3 * 1000];
	struct iovec iov[3];
	struct iocb cb;
	long page;
};

static long dma_op(void *arg)
{
	struct dma *d = arg;
	struct iocb *cbs[1] = { &d->cb };
	int r;

	if (d->write)
		io_prep_pwritev(&d->cb, d->fd, d->iov, 3, 0);
	else
		io_prep_preadv(&d->cb, d->fd, d->iov, 3, 0);
	r = io_submit(d->ctx, 1, cbs);
	return r == 1 ? 0 : r < 0 ? r : -EIO;
}

static void dma_segments(struct dma *d, unsigned int seed)
{
	int i;

	for (i = 0; i < 3; i++) {
		d->iov[i].iov_base = d->arena + 2 * i * d->page + d->page - 500;
		d->iov[i].iov_len = 1000;
		memset(d->iov[i].iov_base, seed, 1000);
	}
}

static int dma_check(void *arg, unsigned int nth, bool injected, long ret)
{
	struct dma *d = arg;
	struct demo_irqdev_stats s;
	struct timespec ts = { .tv_sec = EVENT_WAIT_S };
	struct timespec none = { 0 };
	struct io_event ev;
	int i, r, verdict = FI_REFUSED;

	(void)nth;
	if (ret < 0) {
		KTAP_EXPECT(injected, "io_submit failed with no allocation failing: %s",
			    strerror(-ret));
		KTAP_EXPECT(io_getevents(d->ctx, 0, 1, &ev, &none) == 0,
			    "a completion for a request io_submit() refused");
	} else {
		/* A method's error completes the request: it is in the event. */
		r = io_getevents(d->ctx, 1, 1, &ev, &ts);
		KTAP_EXPECT(r == 1, "no completion within %d s: %d", EVENT_WAIT_S, r);
		KTAP_EXPECT(ev.res == 3000 || (injected && (long)ev.res < 0),
			    "completion res %ld", (long)ev.res);
		if (ev.res == 3000)
			verdict = FI_WORKED;
		if (!d->write && ev.res == 3000)
			for (i = 0; i < 3; i++)
				KTAP_EXPECT(!memcmp(d->iov[i].iov_base, d->ref + 1000 * i, 1000),
					    "segment %d read wrong data", i);
	}
	KTAP_EXPECT(it_get_stats(d->fd, &s) == 0, "stats");
	KTAP_EXPECT(s.dma_held == 0, "%llu page pieces still held for DMA",
		    (unsigned long long)s.dma_held);
	if (!d->write)
		dma_segments(d, 0xee);
	return verdict;
}

static int dma_each(struct dma *d)
{
	unsigned int failed, errors;

	KTAP_EXPECT(fi_each(d->write ? "io_submit PWRITEV" : "io_submit PREADV", dma_op, d,
			    dma_check, &failed, &errors) == KTAP_PASS);
	KTAP_EXPECT(errors > 0, "no failed allocation failed the submission");
	return KTAP_PASS;
}

KTAP_TEST(fail_each_alloc_irqdev_dma, 900)
{
	struct dma *d = calloc(1, sizeof(*d));
	int i, ret;

	KTAP_EXPECT(d, "calloc");
	FI_SKIP_IF_ABSENT();
	d->page = sysconf(_SC_PAGESIZE);
	d->arena = mmap(NULL, 6 * d->page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	KTAP_EXPECT(d->arena != MAP_FAILED, "mmap: %s", strerror(errno));
	d->fd = it_dev_open(0, 0);
	KTAP_EXPECT(d->fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(io_setup(4, &d->ctx) == 0, "io_setup");
	/* What the device holds: written without fault injection. */
	for (i = 0; i < (int)sizeof(d->ref); i++)
		d->ref[i] = (unsigned char)(i * 13 + 5);
	KTAP_EXPECT(pwrite(d->fd, d->ref, sizeof(d->ref), 0) == (ssize_t)sizeof(d->ref),
		    "pwrite: %s", strerror(errno));
	dma_segments(d, 0xee);
	ret = dma_each(d);
	if (ret == KTAP_PASS) {
		d->write = true;
		for (i = 0; i < 3; i++)
			memcpy(d->iov[i].iov_base, d->ref + 1000 * i, 1000);
		ret = dma_each(d);
	}
	io_destroy(d->ctx);
	close(d->fd);
	return ret;
}

int main(void)
{
	return ktap_main("fault_injection");
}
