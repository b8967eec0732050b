// SPDX-License-Identifier: GPL-2.0
/*
 * irqdev_test - in-guest tests of demo_irqdev on QEMU's edu devices.
 *
 * The harness boots with two edu devices whose INTx pins share one line and
 * loads demo_irqdev.ko from /modules before this runs. Expected results are
 * the same on every matrix kernel except where the matrix's facts say
 * otherwise: the NMI handler prototype ("with regs" on stock kernels,
 * "without regs" on patched-6.1) and which handlers the kernel forces into
 * threads (irq_threads: threadirqs, PREEMPT_RT). It also adds QEMU's
 * pci-testdev, a PCI device that is not edu, for the driver to refuse.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <irqaio/demo_irqdev.h>
#include "irqdev_test.h"
#include "module_test.h"
#include <ktap.h>

#define MODULE_PATH	"/modules/demo_irqdev.ko"

/*
 * The matrix's nmi_handler fact "absent": the kernel has no NMI handler API
 * for drivers (Debian's arm64: no register_nmi_handler(), no pseudo-NMI),
 * so the driver is built without its NMI path and its NMI ioctls answer
 * EOPNOTSUPP. handler_prototypes asserts that; the tests of the path skip.
 */
static bool no_nmi(void)
{
	return ktap_fact_is("nmi_handler", "absent");
}

#define SKIP_WITHOUT_NMI()							\
	do {									\
		if (no_nmi()) {							\
			ktap_diag("%s has no NMI handler API for drivers "	\
				  "(nmi_handler: absent)", ktap_kernel());	\
			return KTAP_SKIP;					\
		}								\
	} while (0)

KTAP_TEST(handler_prototypes, 30)
{
	struct demo_irqdev_stats s;
	/* Handler arguments: the matrix's nmi_handler fact (qemu/matrix.toml). */
	unsigned int nmi_expect = no_nmi() ? 0 : ktap_fact_is("nmi_handler", "noregs") ? 1 : 2;
	struct demo_irqdev_nmi_cpu nc = { .cpu = 0 };
	int fd = it_dev_open(0, 0);

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &s) == 0, "stats");
	ktap_diag("IRQ handler: %u arguments; NMI handler: %u arguments (%s)",
		  s.irq_handler_args, s.nmi_handler_args,
		  s.nmi_handler_args == 2 ? "regs passed" : "regs via get_irq_regs()");
	KTAP_EXPECT(s.irq_handler_args == 2, "IRQ handler args %u", s.irq_handler_args);
	KTAP_EXPECT(s.nmi_handler_args == nmi_expect, "NMI handler args %u, expected %u on %s",
		    s.nmi_handler_args, nmi_expect, ktap_kernel());
	if (no_nmi()) {
		KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE_NMI, &(struct demo_irqdev_fire){
			.count = 1 }) < 0 && errno == EOPNOTSUPP, "FIRE_NMI without NMIs: %s",
			strerror(errno));
		KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_NMI_CPU, &nc) < 0 && errno == EOPNOTSUPP,
			    "NMI_CPU without NMIs: %s", strerror(errno));
	}
	close(fd);
	return KTAP_PASS;
}

/* Fire @n interrupts on device 0 and check every counter moved by exactly n. */
static int fire_exact(unsigned int n)
{
	struct demo_irqdev_stats a, b;
	unsigned int done = 0;
	int fd = it_dev_open(0, 0);

	KTAP_EXPECT(fd >= 0, "open /dev/demo_irqdev0: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats: %s", strerror(errno));
	KTAP_EXPECT(it_fire(fd, n, 0, &done) == 0, "fire %u: %s", n, strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats: %s", strerror(errno));
	KTAP_EXPECT(done == n, "done %u of %u", done, n);
	KTAP_EXPECT(b.raise_irqs - a.raise_irqs == n, "raise_irqs moved by %llu, fired %u",
		    (unsigned long long)(b.raise_irqs - a.raise_irqs), n);
	KTAP_EXPECT(b.irq_handled - a.irq_handled == n, "irq_handled moved by %llu",
		    (unsigned long long)(b.irq_handled - a.irq_handled));
	ktap_diag("%u interrupts on irq %u (%s)", n, b.irq,
		  b.irq_mode == DEMO_IRQDEV_MODE_MSI ? "MSI" : "INTx");
	close(fd);
	return KTAP_PASS;
}

KTAP_TEST(irq_fire_1, 30) { return fire_exact(1); }
KTAP_TEST(irq_fire_1000, 60) { return fire_exact(1000); }
KTAP_TEST(irq_fire_100000, 240) { return fire_exact(100000); }

KTAP_TEST(irq_factorial, 30)
{
	static const struct { unsigned int n, expect; } cases[] = {
		{ 0, 1 }, { 5, 120 }, { 10, 3628800 }, { 12, 479001600 },
		{ 13, 1932053504 },	/* 13! mod 2^32: the device computes in 32 bits */
	};
	struct demo_irqdev_stats a, b;
	size_t i;
	int fd = it_dev_open(0, 0);

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	for (i = 0; i < KTAP_ARRAY_SIZE(cases); i++) {
		struct demo_irqdev_factorial fa = { .n = cases[i].n,
						    .timeout_ms = IT_WAIT_MS };

		KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FACTORIAL, &fa) == 0,
			    "factorial(%u): %s", cases[i].n, strerror(errno));
		KTAP_EXPECT(fa.result == cases[i].expect, "%u! = %u, expected %u",
			    cases[i].n, fa.result, cases[i].expect);
	}
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(b.fact_irqs - a.fact_irqs == KTAP_ARRAY_SIZE(cases),
		    "fact_irqs moved by %llu", (unsigned long long)(b.fact_irqs - a.fact_irqs));
	close(fd);
	return KTAP_PASS;
}

/* The interrupts we raise land while this thread sleeps in the kernel. */
KTAP_TEST(irq_regs_kernel_mode, 30)
{
	struct demo_irqdev_stats a, b;
	int fd = it_dev_open(0, 0);

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(it_fire(fd, 200, 0, NULL) == 0, "fire: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(b.regs_null == a.regs_null, "irq_compat_regs() was NULL %llu times",
		    (unsigned long long)(b.regs_null - a.regs_null));
	/*
	 * An interrupt may land on the other CPU while some other process's
	 * user code runs there (seen once, with the host loaded by two busy
	 * loops): a few, never most. Registers not passed through
	 * (NULL above) or taken from the sleeping task (user mode on every
	 * interrupt) still fail.
	 */
	KTAP_EXPECT(b.regs_user - a.regs_user <= 10 &&
		    b.regs_kernel - a.regs_kernel + (b.regs_user - a.regs_user) == 200,
		    "kernel mode %llu and user mode %llu of 200",
		    (unsigned long long)(b.regs_kernel - a.regs_kernel),
		    (unsigned long long)(b.regs_user - a.regs_user));
	/* Asked to stay in hard-IRQ context, so real registers on every row. */
	KTAP_EXPECT(b.irq_no_thread == 1, "handler requested without IRQF_NO_THREAD");
	KTAP_EXPECT(b.irq_in_thread == a.irq_in_thread, "handler ran in a thread %llu times (%s)",
		    (unsigned long long)(b.irq_in_thread - a.irq_in_thread),
		    ktap_fact("irq_threads"));
	KTAP_EXPECT(b.last_ip != 0, "no instruction pointer recorded");
	ktap_diag("last interrupted at %s (ip %#llx)", b.last_ip_sym,
		  (unsigned long long)b.last_ip);
	close(fd);
	return KTAP_PASS;
}

KTAP_TEST(nmi_self, 60)
{
	struct demo_irqdev_fire f = { .count = 100 };
	struct demo_irqdev_stats a, b;
	int fd = it_dev_open(0, 0);

	SKIP_WITHOUT_NMI();

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE_NMI, &f) == 0, "fire NMI: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(f.done == 100, "NMIs done %u", f.done);
	KTAP_EXPECT(b.nmi_handled - a.nmi_handled == 100, "NMIs handled %llu",
		    (unsigned long long)(b.nmi_handled - a.nmi_handled));
	KTAP_EXPECT(b.nmi_regs_null == a.nmi_regs_null, "irq_compat_regs() NULL in NMI");
	close(fd);
	return KTAP_PASS;
}

KTAP_TEST(nmi_nested_in_irq, 60)
{
	struct demo_irqdev_stats a, b;
	unsigned int done = 0;
	int fd = it_dev_open(0, 0);

	SKIP_WITHOUT_NMI();

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(it_fire(fd, 200, DEMO_IRQDEV_FIRE_NESTED_NMI, &done) == 0,
		    "fire nested: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(done == 200, "done %u", done);
	KTAP_EXPECT(b.nested_nmi_bad == a.nested_nmi_bad,
		    "an NMI inside the IRQ handler changed its registers pointer %llu times",
		    (unsigned long long)(b.nested_nmi_bad - a.nested_nmi_bad));
	KTAP_EXPECT(b.nested_nmi_ok - a.nested_nmi_ok == 200, "nested checks %llu of 200",
		    (unsigned long long)(b.nested_nmi_ok - a.nested_nmi_ok));
	close(fd);
	return KTAP_PASS;
}

KTAP_TEST(two_devices, 60)
{
	struct demo_irqdev_stats a0, a1, b0, b1;
	int fd0 = it_dev_open(0, 0), fd1 = it_dev_open(1, 0);

	KTAP_EXPECT(fd0 >= 0 && fd1 >= 0, "need two edu devices: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd0, &a0) == 0 && it_get_stats(fd1, &a1) == 0, "stats");
	KTAP_EXPECT(it_fire(fd0, 300, 0, NULL) == 0, "fire dev0");
	KTAP_EXPECT(it_fire(fd1, 100, 0, NULL) == 0, "fire dev1");
	KTAP_EXPECT(it_get_stats(fd0, &b0) == 0 && it_get_stats(fd1, &b1) == 0, "stats");
	KTAP_EXPECT(b0.raise_irqs - a0.raise_irqs == 300, "dev0 raised %llu",
		    (unsigned long long)(b0.raise_irqs - a0.raise_irqs));
	KTAP_EXPECT(b1.raise_irqs - a1.raise_irqs == 100, "dev1 raised %llu",
		    (unsigned long long)(b1.raise_irqs - a1.raise_irqs));
	close(fd0);
	close(fd1);
	return KTAP_PASS;
}

/* Unload demo_irqdev and load it again with @params; 0, or -1 (said). */
static int reload(const char *params)
{
	int r = module_unload(DEMO_IRQDEV_NAME);

	if (r) {
		ktap_diag("unload " DEMO_IRQDEV_NAME ": %s", strerror(-r));
		return -1;
	}
	r = module_load(DEMO_IRQDEV_NAME, params);
	if (r)
		ktap_diag("load " DEMO_IRQDEV_NAME " %s: %s", params, strerror(-r));
	return r ? -1 : 0;
}

/*
 * With no_thread=0 the handler is requested without IRQ_COMPAT_NO_THREAD.
 * Where the kernel forces handlers into threads (the matrix's irq_threads
 * fact) it then runs in one and irq_compat_regs() is NULL there, never
 * another context's registers; elsewhere nothing changes. DMA completes
 * either way.
 */
static int forced_thread_checks(int fd)
{
	int threaded = !ktap_fact_is("irq_threads", "none");
	unsigned char out[64], in[64];
	struct demo_irqdev_stats a, b;
	unsigned long long calls;
	size_t i;

	for (i = 0; i < sizeof(out); i++)
		out[i] = (unsigned char)(i * 7 + 3);
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(a.irq_no_thread == 0, "no_thread=0 still asked for IRQF_NO_THREAD");
	KTAP_EXPECT(it_fire(fd, 200, 0, NULL) == 0, "fire: %s", strerror(errno));
	KTAP_EXPECT(pwrite(fd, out, sizeof(out), 100) == sizeof(out), "pwrite: %s", strerror(errno));
	KTAP_EXPECT(pread(fd, in, sizeof(in), 100) == sizeof(in), "pread: %s", strerror(errno));
	KTAP_EXPECT(!memcmp(in, out, sizeof(in)), "read back differs");
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	calls = b.irq_handled - a.irq_handled;
	ktap_diag("irq_threads=%s: %llu handler calls, %llu in a thread, regs NULL %llu, kernel %llu",
		  ktap_fact("irq_threads"), calls,
		  (unsigned long long)(b.irq_in_thread - a.irq_in_thread),
		  (unsigned long long)(b.regs_null - a.regs_null),
		  (unsigned long long)(b.regs_kernel - a.regs_kernel));
	KTAP_EXPECT(b.raise_irqs - a.raise_irqs == 200, "raised %llu of 200",
		    (unsigned long long)(b.raise_irqs - a.raise_irqs));
	KTAP_EXPECT(b.irq_in_thread - a.irq_in_thread == (threaded ? calls : 0),
		    "%llu of %llu calls in a thread, want %s",
		    (unsigned long long)(b.irq_in_thread - a.irq_in_thread), calls,
		    threaded ? "all" : "none");
	KTAP_EXPECT(b.regs_null - a.regs_null == (threaded ? calls : 0),
		    "irq_compat_regs() NULL in %llu of %llu calls, want %s",
		    (unsigned long long)(b.regs_null - a.regs_null), calls, threaded ? "all" : "none");
	KTAP_EXPECT(b.regs_kernel - a.regs_kernel + b.regs_user - a.regs_user ==
		    (threaded ? 0 : calls), "registers reported in %llu calls",
		    (unsigned long long)(b.regs_kernel - a.regs_kernel + b.regs_user - a.regs_user));
	KTAP_EXPECT(b.dma_thread_completions - a.dma_thread_completions == 2,
		    "the IRQ thread completed %llu of 2 requests",
		    (unsigned long long)(b.dma_thread_completions - a.dma_thread_completions));
	return KTAP_PASS;
}

KTAP_TEST(irq_forced_thread, 60)
{
	int fd, ret;

	KTAP_EXPECT(reload("no_thread=0") == 0, "reload with no_thread=0");
	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	ret = forced_thread_checks(fd);
	close(fd);
	KTAP_EXPECT(reload("") == 0, "reload with the defaults");
	return ret;
}

/*
 * INTx with both devices on one line: an interrupt from device 0 also runs
 * device 1's handler, which must find status 0, return IRQ_NONE and count
 * nothing as handled.
 */
KTAP_TEST(intx_shared_line, 120)
{
	struct demo_irqdev_stats a0, a1, b0, b1;
	int fd0, fd1, ret = KTAP_PASS;

	KTAP_EXPECT(reload("force_intx=1") == 0, "reload with force_intx=1");
	fd0 = it_dev_open(0, 0);
	fd1 = it_dev_open(1, 0);
	KTAP_EXPECT(fd0 >= 0 && fd1 >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd0, &a0) == 0 && it_get_stats(fd1, &a1) == 0, "stats");
	KTAP_EXPECT(a0.irq_mode == DEMO_IRQDEV_MODE_INTX, "mode %u", a0.irq_mode);
	KTAP_EXPECT(it_fire(fd0, 1000, 0, NULL) == 0, "fire: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd0, &b0) == 0 && it_get_stats(fd1, &b1) == 0, "stats");
	KTAP_EXPECT(b0.raise_irqs - a0.raise_irqs == 1000, "dev0 raised %llu",
		    (unsigned long long)(b0.raise_irqs - a0.raise_irqs));
	KTAP_EXPECT(b1.irq_handled == a1.irq_handled, "dev1 claimed dev0's interrupts");
	if (a0.irq == a1.irq) {
		ktap_diag("irq %u shared: dev1 returned IRQ_NONE %llu times", a0.irq,
			  (unsigned long long)(b1.irq_none - a1.irq_none));
		KTAP_EXPECT(b1.irq_none - a1.irq_none >= 1000, "dev1 IRQ_NONE %llu",
			    (unsigned long long)(b1.irq_none - a1.irq_none));
	} else {
		ktap_diag("irqs %u and %u not shared: no spurious calls to check", a0.irq, a1.irq);
		ret = KTAP_FAIL;	/* the harness places the devices to share a line */
	}
	close(fd0);
	close(fd1);
	KTAP_EXPECT(reload("") == 0, "reload with MSI");
	return ret;
}

/* edu registers this test drives directly (QEMU docs/specs/edu.rst). */
#define EDU_ID_MAGIC		0xed
#define EDU_REG_IRQ_RAISE	0x60
#define EDU_REG_IRQ_ACK		0x64
#define EDU_IRQ_SOFT		0x10000

/* /proc/irq/N/spurious: the kernel's count of interrupts nobody claimed. */
struct spurious {
	unsigned long count, unhandled, last_unhandled_ms;
};

static int read_spurious(unsigned int irq, struct spurious *sp)
{
	char path[64];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/irq/%u/spurious", irq);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fscanf(f, "count %lu unhandled %lu last_unhandled %lu ms",
		   &sp->count, &sp->unhandled, &sp->last_unhandled_ms);
	fclose(f);
	return n == 3 ? 0 : -1;
}

/* The number in @path (decimal, or hex with 0x as sysfs IDs are); -1 if none. */
static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%li", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * Raise an interrupt on the unbound device @bdf straight through its BAR0
 * and take it down again once the kernel has seen it. @fd is the bound
 * device on the same line, whose handler runs, finds its own status 0 and
 * must return IRQ_NONE: the kernel then counts the interrupt as unhandled
 * (last_unhandled moves). A handler that claimed it would hide a stuck line
 * from the kernel's "nobody cared" detection.
 */
static int unclaimed_body(const char *bdf, int fd, unsigned int irq)
{
	struct demo_irqdev_stats a, b;
	struct spurious s0, s1;
	volatile uint32_t *regs;
	char path[96];
	double t0;
	int bar, rd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/irq", bdf);
	KTAP_EXPECT(read_long(path) == irq, "%s is on irq %ld, not %u", bdf, read_long(path), irq);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", bdf);
	bar = open(path, O_RDWR | O_SYNC);
	KTAP_EXPECT(bar >= 0, "open %s: %s", path, strerror(errno));
	regs = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, bar, 0);
	close(bar);
	KTAP_EXPECT(regs != MAP_FAILED, "mmap BAR0: %s", strerror(errno));
	KTAP_EXPECT((regs[0] & 0xff) == EDU_ID_MAGIC, "BAR0 id %#x", regs[0]);
	/* Far from the end of the kernel's 100000-interrupt window. */
	KTAP_EXPECT(read_spurious(irq, &s0) == 0, "read /proc/irq/%u/spurious", irq);
	if (s0.count > 90000) {
		KTAP_EXPECT(it_fire(fd, 12000, 0, NULL) == 0, "roll the window");
		KTAP_EXPECT(read_spurious(irq, &s0) == 0, "spurious");
	}
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	/*
	 * Until the kernel records the interrupt, however long a loaded host
	 * takes to run CPU 0; no sleep between looks: the line storms until
	 * the ack, and 100000 unhandled interrupts would have the kernel
	 * disable it. The bound only ends the storm of a driver that claims
	 * the interrupt; the check below then fails.
	 */
	regs[EDU_REG_IRQ_RAISE / 4] = EDU_IRQ_SOFT;
	t0 = ktap_now();
	while ((rd = read_spurious(irq, &s1)) == 0 &&
	       s1.last_unhandled_ms == s0.last_unhandled_ms && ktap_now() - t0 < KTAP_WAIT_S)
		;
	regs[EDU_REG_IRQ_ACK / 4] = EDU_IRQ_SOFT;
	munmap((void *)regs, 4096);
	KTAP_EXPECT(rd == 0, "read /proc/irq/%u/spurious", irq);
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	ktap_diag("irq %u: count %lu -> %lu, unhandled %lu -> %lu, bound device IRQ_NONE +%llu",
		  irq, s0.count, s1.count, s0.unhandled, s1.unhandled,
		  (unsigned long long)(b.irq_none - a.irq_none));
	KTAP_EXPECT(b.irq_none > a.irq_none, "the bound device's handler did not run");
	KTAP_EXPECT(b.irq_handled == a.irq_handled, "the bound device counted it as its own");
	KTAP_EXPECT(s1.last_unhandled_ms != s0.last_unhandled_ms,
		    "the kernel saw no unhandled interrupt: a handler claimed it");
	return KTAP_PASS;
}

KTAP_TEST(intx_unclaimed_reported, 120)
{
	struct demo_irqdev_stats st;
	char bdf[4][16], path[96], aff_path[64], aff[64] = "";
	cpu_set_t cpus, all;
	int fd0, fd1, fd, ret;
	FILE *f;

	KTAP_EXPECT(reload("force_intx=1") == 0, "reload with force_intx=1");
	KTAP_EXPECT(it_bound_devices(bdf, 4) == 2, "two edu devices bound");
	fd0 = it_dev_open(0, 0);
	fd1 = it_dev_open(1, 0);
	KTAP_EXPECT(fd0 >= 0 && fd1 >= 0, "open: %s", strerror(errno));
	/* Unbind the second; whichever fd still answers is the bound one. */
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/unbind", bdf[1]) == 0, "unbind %s", bdf[1]);
	fd = it_get_stats(fd0, &st) == 0 ? fd0 : fd1;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/enable", bdf[1]);
	if (it_get_stats(fd, &st) || it_write_file(path, "1")) {
		ktap_diag("stats or enable %s: %s", bdf[1], strerror(errno));
		ret = KTAP_FAIL;
	} else {
		/* Interrupts on CPU 0, this thread on CPU 1: the storm cannot starve the ack. */
		snprintf(aff_path, sizeof(aff_path), "/proc/irq/%u/smp_affinity_list", st.irq);
		f = fopen(aff_path, "r");
		if (!f || !fgets(aff, sizeof(aff), f))
			aff[0] = '\0';
		if (f)
			fclose(f);
		sched_getaffinity(0, sizeof(all), &all);
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		if (aff[0] && it_write_file(aff_path, "0") == 0 &&
		    sched_setaffinity(0, sizeof(cpus), &cpus))
			ktap_diag("cannot pin to CPU 1: %s", strerror(errno));
		ret = unclaimed_body(bdf[1], fd, st.irq);
		it_write_file(path, "0");
		if (aff[0])
			it_write_file(aff_path, aff);
		sched_setaffinity(0, sizeof(all), &all);
	}
	close(fd0);
	close(fd1);
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/bind", bdf[1]) == 0, "bind %s again", bdf[1]);
	KTAP_EXPECT(reload("") == 0, "reload with MSI");
	return ret;
}

/*
 * Rounds of unbinding and binding every device. Each bind and unbind
 * costs some 150 ms of a TCG guest's CPU, nearly all of it the ACPI
 * interpreter running the PCI routing table (_PRT) for
 * pci_enable_device() and pci_disable_device(). A device number not
 * given back shows after the first round (numbers_reused()), memory a
 * round leaks at unload (kmemleak, where the kernel has it).
 */
#define REBIND_ROUNDS	10

/* /dev/demo_irqdev0 to <n - 1> all there: the numbers a bind took are free again. */
static int numbers_reused(int n, int round)
{
	char path[64];
	int k;

	for (k = 0; k < n; k++) {
		snprintf(path, sizeof(path), "/dev/" DEMO_IRQDEV_NAME "%d", k);
		KTAP_EXPECT(access(path, F_OK) == 0, "round %d: no %s: a device number leaked",
			    round, path);
	}
	return KTAP_PASS;
}

KTAP_TEST(unbind_bind_rounds, 180)
{
	char bdf[4][16];
	int i, k, n = it_bound_devices(bdf, 4);

	KTAP_EXPECT(n >= 1, "no bound device");
	for (i = 0; i < REBIND_ROUNDS; i++) {
		for (k = 0; k < n; k++)
			KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/unbind", bdf[k]) == 0,
				    "unbind %s (round %d): %s", bdf[k], i, strerror(errno));
		for (k = 0; k < n; k++)
			KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/bind", bdf[k]) == 0,
				    "bind %s (round %d): %s", bdf[k], i, strerror(errno));
		if (numbers_reused(n, i) != KTAP_PASS)
			return KTAP_FAIL;
	}
	KTAP_EXPECT(it_bound_devices(bdf, 4) == n, "devices lost after %d rounds", REBIND_ROUNDS);
	for (k = 0; k < n; k++) {
		int fd = it_dev_open(k, 0);

		KTAP_EXPECT(fd >= 0, "open dev%d after rebinding: %s", k, strerror(errno));
		KTAP_EXPECT(it_fire(fd, 10, 0, NULL) == 0, "fire after rebinding");
		close(fd);
	}
	return KTAP_PASS;
}

/* Interrupts the kernel took on @irq so far, on all CPUs; -1 if not listed. */
static long long irq_count(unsigned int irq)
{
	char line[4096], *p, *end;
	long long sum = -1, v;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (sum < 0 && fgets(line, sizeof(line), f)) {
		if (strtoul(line, &p, 10) != irq || p == line || *p != ':')
			continue;
		/* "  24:   1200   3400  PCI-MSI ...": the counts, one per CPU */
		for (sum = 0, p++; v = strtoll(p, &end, 10), end != p; p = end)
			sum += v;
	}
	fclose(f);
	return sum;
}

/*
 * A child that fires interrupts until it is stopped; reports via exit code.
 * The interrupt line of device 0 in *@irq.
 */
static pid_t start_firing(int *fdp, unsigned int *irq)
{
	struct demo_irqdev_stats st;
	pid_t pid;
	int fd = it_dev_open(0, 0);

	if (fd < 0)
		return -1;
	if (it_get_stats(fd, &st)) {
		close(fd);
		return -1;
	}
	*irq = st.irq;
	pid = fork();
	if (pid == 0) {
		unsigned int done = 0;
		int ret = it_fire(fd, DEMO_IRQDEV_MAX_FIRE, 0, &done);

		/* After unbind, the fd must answer ENODEV, not crash or hang. */
		if (ret == 0 || errno == ENODEV || errno == EINTR) {
			ret = it_fire(fd, 1, 0, NULL);
			_exit(ret < 0 && errno == ENODEV ? 0 : 2);
		}
		_exit(1);
	}
	*fdp = fd;
	return pid;
}

/*
 * Wait until the child @pid raises interrupts on @irq: it is then inside
 * its FIRE of a million, not still on its way there.
 */
static int wait_firing(pid_t pid, unsigned int irq)
{
	long long c0 = irq_count(irq);
	double t0 = ktap_now();

	if (c0 < 0) {
		ktap_diag("irq %u is not in /proc/interrupts", irq);
		return -1;
	}
	while (irq_count(irq) <= c0) {
		if (ktap_task_ended(pid) || ktap_now() - t0 > KTAP_WAIT_S) {
			ktap_diag("no interrupt on irq %u from the firing child within %d s", irq,
				  KTAP_WAIT_S);
			return -1;
		}
		usleep(1000);
	}
	return 0;
}

KTAP_TEST(unbind_while_firing, 60)
{
	char bdf[4][16];
	int st, fd = -1, firing;
	unsigned int irq;
	pid_t pid;

	KTAP_EXPECT(it_bound_devices(bdf, 4) >= 1, "no device");
	pid = start_firing(&fd, &irq);
	KTAP_EXPECT(pid > 0, "fork/open: %s", strerror(errno));
	close(fd);
	firing = wait_firing(pid, irq);
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/unbind", bdf[0]) == 0, "unbind: %s", strerror(errno));
	KTAP_EXPECT(waitpid(pid, &st, 0) == pid, "wait");
	KTAP_EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		    "the firing process saw something other than partial progress + ENODEV (%d)", st);
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/bind", bdf[0]) == 0, "rebind: %s", strerror(errno));
	KTAP_EXPECT(firing == 0, "the unbind did not come while the child fired");
	return fire_exact(10);
}

KTAP_TEST(rmmod_while_firing, 60)
{
	int st, r, fd = -1, firing;
	unsigned int irq;
	pid_t pid = start_firing(&fd, &irq);

	KTAP_EXPECT(pid > 0, "fork/open: %s", strerror(errno));
	firing = wait_firing(pid, irq);
	/* An open file pins the module: unloading is refused, and nothing may break. */
	r = module_unload(DEMO_IRQDEV_NAME);
	if (r != -EWOULDBLOCK) {
		ktap_diag("unloading with the device open: %s, want %s",
			  r ? strerror(-r) : "it unloaded", strerror(EWOULDBLOCK));
		firing = -1;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd);
	KTAP_EXPECT(firing == 0, "rmmod while firing");
	KTAP_EXPECT(reload("") == 0, "unload after the last close, load again");
	return fire_exact(10);
}

/*
 * dma_bits (what the devices' DMA engine reaches) outside 24-32 fails the
 * load with EINVAL and leaves no module behind; the boot's own value (the
 * machine's, from the command line) loads again.
 */
KTAP_TEST(dma_bits_out_of_range_refused, 60)
{
	static const char *const bad[] = { "dma_bits=23", "dma_bits=33" };
	size_t i;
	int r;

	KTAP_EXPECT(module_unload(DEMO_IRQDEV_NAME) == 0, "unload: %s", strerror(errno));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = module_load(DEMO_IRQDEV_NAME, bad[i]);
		KTAP_EXPECT(r == -EINVAL, "%s: load gave %d, want %d", bad[i], r, -EINVAL);
		KTAP_EXPECT(!module_loaded(DEMO_IRQDEV_NAME), "%s: a module left behind", bad[i]);
	}
	KTAP_EXPECT(module_load(DEMO_IRQDEV_NAME, "") == 0, "load with the boot's parameters");
	return fire_exact(10);
}

/* PCI command register bits (include/uapi/linux/pci_regs.h). */
#define PCI_COMMAND_OFF		0x04
#define PCI_CMD_MASTER		0x0004
#define PCI_CMD_INTX_DISABLE	0x0400

static int config_rw16(const char *bdf, unsigned int off, uint16_t *v, int write)
{
	char path[96];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", bdf);
	fd = open(path, O_RDWR);
	if (fd < 0)
		return -1;
	n = write ? pwrite(fd, v, 2, off) : pread(fd, v, 2, off);
	close(fd);
	return n == 2 ? 0 : -1;
}

/* A child waiting in @cmd for an interrupt that cannot come; exit 0 on ENODEV. */
static pid_t start_waiting(unsigned long cmd)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct demo_irqdev_fire f = { .count = 1,
					      .timeout_ms = DEMO_IRQDEV_MAX_TIMEOUT_MS };
		struct demo_irqdev_factorial fa = { .n = 5,
						    .timeout_ms = DEMO_IRQDEV_MAX_TIMEOUT_MS };
		int fd = it_dev_open(0, 0), ret;

		if (fd < 0)
			_exit(3);
		ret = ioctl(fd, cmd, cmd == DEMO_IRQDEV_IOC_FIRE ? (void *)&f : (void *)&fa);
		if (ret == 0)
			_exit(4);	/* the interrupt came after all */
		_exit(errno == ENODEV ? 0 : 5);
	}
	return pid;
}

/*
 * A lost interrupt: with bus mastering off the edu device's MSI write goes
 * nowhere, with INTx disabled its pin stays quiet. Two ioctls wait for it
 * with the longest timeout, @first holding the device, the other queued
 * behind it; unbind must still complete before that timeout could end the
 * first wait, and both must fail with ENODEV.
 */
static int unbind_waiters(unsigned long first, unsigned long second)
{
	pid_t pids[2];
	char bdf[64];
	uint16_t cmd, off;
	double t0, t1, took, since;
	int i, st, ret = KTAP_PASS;

	KTAP_EXPECT(it_dev_bdf(0, bdf, sizeof(bdf)) == 0, "device of demo_irqdev0: %s",
		    strerror(errno));
	KTAP_EXPECT(config_rw16(bdf, PCI_COMMAND_OFF, &cmd, 0) == 0, "read command: %s",
		    strerror(errno));
	off = (cmd & ~PCI_CMD_MASTER) | PCI_CMD_INTX_DISABLE;
	KTAP_EXPECT(config_rw16(bdf, PCI_COMMAND_OFF, &off, 1) == 0, "write command: %s",
		    strerror(errno));
	t0 = ktap_now();
	/* Each asleep in its ioctl: the first holds the device, the second queues. */
	pids[0] = start_waiting(first);
	if (ktap_wait_syscall(pids[0], SYS_ioctl))
		ret = KTAP_FAIL;
	pids[1] = start_waiting(second);
	if (ktap_wait_syscall(pids[1], SYS_ioctl))
		ret = KTAP_FAIL;
	t1 = ktap_now();
	if (it_write_file(IT_DRIVER_DIR "/unbind", bdf)) {
		ktap_diag("unbind %s: %s", bdf, strerror(errno));
		ret = KTAP_FAIL;
	}
	took = ktap_now() - t1;
	since = ktap_now() - t0;
	ktap_diag("unbind with a %s waiting (timeout %u ms) took %.3f s, %.3f s after it started",
		  first == DEMO_IRQDEV_IOC_FIRE ? "FIRE" : "FACTORIAL",
		  DEMO_IRQDEV_MAX_TIMEOUT_MS, took, since);
	for (i = 0; i < 2; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			ktap_diag("%s waiter did not end with ENODEV: status %#x",
				  i ? "queued" : "first", st);
			ret = KTAP_FAIL;
		}
	}
	/*
	 * The first wait began after t0: had unbind waited for its timeout,
	 * it would return no sooner than that timeout after t0 (less a second
	 * for the timer's rounding). A bound from the driver's contract, not
	 * from the machine's speed.
	 */
	if (since >= DEMO_IRQDEV_MAX_TIMEOUT_MS / 1000.0 - 1) {
		ktap_diag("unbind waited for the ioctl's timeout");
		ret = KTAP_FAIL;
	}
	config_rw16(bdf, PCI_COMMAND_OFF, &cmd, 1);
	KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/bind", bdf) == 0, "rebind: %s", strerror(errno));
	return ret;
}

KTAP_TEST(unbind_while_waiting, 200)
{
	int ret = unbind_waiters(DEMO_IRQDEV_IOC_FACTORIAL, DEMO_IRQDEV_IOC_FIRE);

	if (unbind_waiters(DEMO_IRQDEV_IOC_FIRE, DEMO_IRQDEV_IOC_FACTORIAL) != KTAP_PASS)
		ret = KTAP_FAIL;
	if (ret != KTAP_PASS)
		return ret;
	return fire_exact(10);
}

/* Raise an NMI on @cpu through the driver; 0 or -errno. */
static int nmi_on_cpu(int fd, unsigned int cpu, struct demo_irqdev_nmi_cpu *nc)
{
	memset(nc, 0, sizeof(*nc));
	nc->cpu = cpu;
	return ioctl(fd, DEMO_IRQDEV_IOC_NMI_CPU, nc) ? -errno : 0;
}

/*
 * stats.last_ip is a kernel address here (the interrupts land while the
 * ioctl sleeps): a file opened without CAP_SYSLOG gets 0 and the symbol
 * only; one opened with it keeps the address even when its user drops the
 * capability later (the opener's credentials decide, as for /proc/kallsyms).
 * The same for the address NMI_CPU reports.
 */
KTAP_TEST(stats_last_ip_unprivileged, 30)
{
	struct demo_irqdev_nmi_cpu nc;
	struct demo_irqdev_stats s;
	int fd_priv, fd, r;

	ktap_diag("kptr_restrict %ld", read_long("/proc/sys/kernel/kptr_restrict"));
	fd_priv = it_dev_open(0, 0);
	KTAP_EXPECT(fd_priv >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_fire(fd_priv, 10, 0, NULL) == 0, "fire: %s", strerror(errno));
	KTAP_EXPECT(it_drop_capability(CAP_SYSLOG) == 0, "capset: %s", strerror(errno));
	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open without CAP_SYSLOG: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &s) == 0, "stats: %s", strerror(errno));
	ktap_diag("without CAP_SYSLOG: last_ip %#llx, last_ip_sym \"%s\"",
		  (unsigned long long)s.last_ip, s.last_ip_sym);
	KTAP_EXPECT(s.last_ip == 0, "a raw kernel address reached an unprivileged opener");
	KTAP_EXPECT(strncmp(s.last_ip_sym, "0x", 2) && strchr(s.last_ip_sym, '+'),
		    "last_ip_sym \"%s\" is not symbol+offset", s.last_ip_sym);
	KTAP_EXPECT(it_get_stats(fd_priv, &s) == 0, "stats: %s", strerror(errno));
	KTAP_EXPECT(s.last_ip != 0, "the file opened with CAP_SYSLOG lost the address");
	if (no_nmi()) {
		r = nmi_on_cpu(fd, 1, &nc);
		KTAP_EXPECT(r == -EOPNOTSUPP, "NMI_CPU without NMIs: %s", strerror(-r));
		close(fd);
		close(fd_priv);
		return KTAP_PASS;
	}
	/* NMI_CPU raises it on another CPU than the caller's. */
	KTAP_EXPECT(it_pin_to(0) == 0, "pin to CPU 0: %s", strerror(errno));
	r = nmi_on_cpu(fd, 1, &nc);
	KTAP_EXPECT(r == 0, "NMI_CPU without CAP_SYSLOG: %s", strerror(-r));
	KTAP_EXPECT(nc.ip == 0, "NMI_CPU gave an unprivileged opener %#llx",
		    (unsigned long long)nc.ip);
	r = nmi_on_cpu(fd_priv, 1, &nc);
	KTAP_EXPECT(r == 0 && nc.ip != 0, "NMI_CPU on the file opened with CAP_SYSLOG: %d, ip %#llx",
		    r, (unsigned long long)nc.ip);
	close(fd);
	close(fd_priv);
	return KTAP_PASS;
}

/*
 * NMI_CPU names a CPU that can take the NMI: one beyond the possible CPUs
 * and an offline one are refused (EINVAL). A kernel that cannot take CPU 1
 * offline (no CPU hotplug) skips the second.
 */
KTAP_TEST(nmi_cpu_offline_refused, 60)
{
	const char *online = "/sys/devices/system/cpu/cpu1/online";
	struct demo_irqdev_nmi_cpu nc;
	int fd = it_dev_open(0, 0), r, back;

	SKIP_WITHOUT_NMI();

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	r = nmi_on_cpu(fd, UINT32_MAX, &nc);
	KTAP_EXPECT(r == -EINVAL, "NMI_CPU on CPU %u: %s", UINT32_MAX, strerror(-r));
	if (it_write_file(online, "0")) {
		ktap_diag("%s: %s: CPU 1 cannot go offline here", online, strerror(errno));
		close(fd);
		return KTAP_SKIP;
	}
	r = nmi_on_cpu(fd, 1, &nc);
	back = it_write_file(online, "1");
	KTAP_EXPECT(back == 0, "CPU 1 back online: %s", strerror(errno));
	KTAP_EXPECT(r == -EINVAL, "NMI_CPU on offline CPU 1: %s", r ? strerror(-r) : "taken");
	close(fd);
	return KTAP_PASS;
}

/*
 * An NMI this driver did not raise must be left to others: the NMI
 * backtrace (sysrq l) sends one to the other CPU, where the backtrace
 * handler claims it; ours, called for every local NMI, must answer
 * NMI_DONE. A pending flag that wrapped (a late NMI racing the raiser's
 * give-up) would make ours claim it, and every NMI after it.
 */
KTAP_TEST(nmi_unrelated_not_claimed, 30)
{
	struct demo_irqdev_fire f = { .count = 100 };
	struct demo_irqdev_stats a, b;
	struct demo_irqdev_nmi_cpu nc;
	int fd = it_dev_open(0, 0), r;

	SKIP_WITHOUT_NMI();

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE_NMI, &f) == 0 && f.done == 100,
		    "fire NMI: %s", strerror(errno));
	KTAP_EXPECT(it_pin_to(0) == 0, "pin to CPU 0: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats");
	KTAP_EXPECT(it_write_file("/proc/sysrq-trigger", "l") == 0, "sysrq l: %s", strerror(errno));
	/*
	 * The write returns once CPU 1's backtrace handler ran, maybe before
	 * ours did. An NMI of our own to CPU 1 is held until that one has
	 * returned (NMIs do not nest): once it is answered, every handler has
	 * seen the backtrace's, whatever the host's delays, and ours must have
	 * claimed exactly this one.
	 */
	r = nmi_on_cpu(fd, 1, &nc);
	KTAP_EXPECT(r == 0, "NMI to CPU 1 after the backtrace: %s", strerror(-r));
	KTAP_EXPECT(it_get_stats(fd, &b) == 0, "stats");
	KTAP_EXPECT(b.nmi_handled - a.nmi_handled == 1,
		    "demo_irqdev claimed %llu NMIs, want 1: the one it raised",
		    (unsigned long long)(b.nmi_handled - a.nmi_handled));
	close(fd);
	return KTAP_PASS;
}

/*
 * Where an NMI lands, as the handler sees it (irq_compat_regs(): the regs
 * argument on stock kernels, get_irq_regs() on patched-6.1): on CPU 1
 * spinning in user space (it_spinner_start()), the NMI must report user mode
 * at exactly the spinner's loop; on CPU 1 idle, kernel mode at a kernel
 * address.
 */
#define NMI_USER_TRIES 20

KTAP_TEST(nmi_interrupted_context, 30)
{
	struct demo_irqdev_nmi_cpu nc;
	struct it_spinner sp;
	int fd, r = 0, tries;
	uintptr_t loop;

	SKIP_WITHOUT_NMI();

	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_pin_to(0) == 0, "pin to CPU 0: %s", strerror(errno));
	if (it_spinner_start(&sp, 1))
		return KTAP_FAIL;
	loop = it_spinner_loop(&sp);
	/*
	 * The spinner is not in user mode every moment: a tick, or the
	 * host descheduling the vCPU under TCG, puts CPU 1 in the kernel for
	 * a while (seen once in a loaded run). Such a sample must still be
	 * a kernel address; a user-mode one must be exactly the loop. One
	 * user-mode sample of NMI_USER_TRIES is required.
	 */
	for (tries = 0; tries < NMI_USER_TRIES; tries++) {
		r = nmi_on_cpu(fd, 1, &nc);
		if (r || (nc.flags & (DEMO_IRQDEV_NMI_USER | DEMO_IRQDEV_NMI_REGS_NULL)) ||
		    nc.ip < 0xffff800000000000ULL)
			break;
		ktap_diag("NMI on CPU 1 found it in the kernel at %#llx; again",
			  (unsigned long long)nc.ip);
		usleep(50000);
	}
	it_spinner_stop(&sp);
	KTAP_EXPECT(r == 0, "NMI to CPU 1: %s", strerror(-r));
	ktap_diag("NMI on CPU 1 spinning at %#lx: flags %#x, ip %#llx (sample %d)",
		  (unsigned long)loop, nc.flags, (unsigned long long)nc.ip, tries + 1);
	KTAP_EXPECT(!(nc.flags & DEMO_IRQDEV_NMI_REGS_NULL), "irq_compat_regs() NULL in the NMI");
	KTAP_EXPECT(nc.flags & DEMO_IRQDEV_NMI_USER, "the NMI did not see user mode in %d samples",
		    NMI_USER_TRIES);
	KTAP_EXPECT(nc.ip == loop, "ip %#llx, the loop is at %#lx",
		    (unsigned long long)nc.ip, (unsigned long)loop);

	/*
	 * The spinner is reaped: nothing else of this guest runs in user mode
	 * on CPU 1 (every other process sleeps), so no wait is needed there.
	 */
	r = nmi_on_cpu(fd, 1, &nc);
	KTAP_EXPECT(r == 0, "NMI to idle CPU 1: %s", strerror(-r));
	ktap_diag("NMI on idle CPU 1: flags %#x, ip %#llx", nc.flags, (unsigned long long)nc.ip);
	KTAP_EXPECT(!(nc.flags & (DEMO_IRQDEV_NMI_USER | DEMO_IRQDEV_NMI_REGS_NULL)),
		    "flags %#x on an idle CPU", nc.flags);
	KTAP_EXPECT(nc.ip >= 0xffff800000000000ULL, "ip %#llx is not a kernel address",
		    (unsigned long long)nc.ip);
	KTAP_EXPECT(nmi_on_cpu(fd, 0, &nc) == -EINVAL, "NMI to the caller's own CPU");
	KTAP_EXPECT(nmi_on_cpu(fd, 4096, &nc) == -EINVAL, "NMI to CPU 4096");
	close(fd);
	return KTAP_PASS;
}

/*
 * Whether the module file at @path calls @sym: an undefined symbol in its
 * symbol table (the imports modpost resolved). 1, 0, or -1 if the file is
 * not a readable 64-bit ELF object.
 */
static int module_imports(const char *path, const char *sym)
{
	struct stat st;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	unsigned char *map;
	int fd, found = -1;
	size_t i, k;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*eh)) {
		close(fd);
		return -1;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	eh = (const Elf64_Ehdr *)map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > (size_t)st.st_size)
		goto out;
	sh = (const Elf64_Shdr *)(map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *strs = &sh[sh[i].sh_link];
		const Elf64_Sym *syms = (const Elf64_Sym *)(map + sh[i].sh_offset);

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + sh[i].sh_size > (size_t)st.st_size ||
		    strs->sh_offset + strs->sh_size > (size_t)st.st_size)
			continue;
		found = 0;
		for (k = 0; k < sh[i].sh_size / sizeof(*syms); k++) {
			const char *name = (const char *)map + strs->sh_offset + syms[k].st_name;

			if (syms[k].st_shndx == SHN_UNDEF && syms[k].st_name < strs->sh_size &&
			    strnlen(name, strs->sh_size - syms[k].st_name) < strs->sh_size - syms[k].st_name &&
			    !strcmp(name, sym))
				found = 1;
		}
	}
out:
	munmap(map, st.st_size);
	return found;
}

KTAP_TEST(bad_input, 30)
{
	struct demo_irqdev_fire f = { .count = DEMO_IRQDEV_MAX_FIRE + 1 };
	int fd = it_dev_open(0, 0);

	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE, &f) < 0 && errno == EINVAL, "huge count");
	f.count = 1;
	f.flags = 0x80000000;
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE, &f) < 0 && errno == EINVAL, "bad flags");
	f.flags = 0;
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE_NMI, &(struct demo_irqdev_fire){
		.count = 1, .flags = 1 }) < 0 && errno == (no_nmi() ? EOPNOTSUPP : EINVAL),
		"NMI flags: %s", strerror(errno));
	f.timeout_ms = DEMO_IRQDEV_MAX_TIMEOUT_MS + 1;
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE, &f) < 0 && errno == EINVAL, "FIRE timeout");
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FACTORIAL, &(struct demo_irqdev_factorial){
		.n = 3, .timeout_ms = UINT32_MAX }) < 0 && errno == EINVAL, "FACTORIAL timeout");
	f.timeout_ms = 0;
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_FIRE, NULL) < 0 && errno == EFAULT, "NULL arg");
	KTAP_EXPECT(ioctl(fd, DEMO_IRQDEV_IOC_STATS, (void *)8) < 0 && errno == EFAULT,
		    "bad pointer");
	KTAP_EXPECT(ioctl(fd, _IO('E', 99)) < 0 && errno == ENOTTY, "unknown ioctl");
	close(fd);
	return KTAP_PASS;
}

/*
 * The PCI devres rework (6.11) deprecated
 * pcim_iomap_regions()/pcim_iomap_table() for pcim_iomap_region(). Where the
 * matrix says the kernel exports the new call (fact pcim_iomap_region,
 * cross-checked with the link probe by kernel_facts), the module that was
 * loaded must import it and neither deprecated one; elsewhere the old pair.
 */
KTAP_TEST(pcim_iomap_api, 30)
{
	int want_new = ktap_fact_is("pcim_iomap_region", "exported");
	int region = module_imports(MODULE_PATH, "pcim_iomap_region");
	int regions = module_imports(MODULE_PATH, "pcim_iomap_regions");
	int table = module_imports(MODULE_PATH, "pcim_iomap_table");

	KTAP_EXPECT(want_new || ktap_fact_is("pcim_iomap_region", "absent"),
		    "the matrix states no pcim_iomap_region fact for %s", ktap_kernel());
	KTAP_EXPECT(region >= 0, "%s: no symbol table to read", MODULE_PATH);
	ktap_diag("%s imports pcim_iomap_region %d, pcim_iomap_regions %d, pcim_iomap_table %d",
		  MODULE_PATH, region, regions, table);
	if (want_new)
		KTAP_EXPECT(region == 1 && !regions && !table,
			    "the kernel has pcim_iomap_region(): the deprecated calls are used");
	else
		KTAP_EXPECT(!region && regions == 1 && table == 1,
			    "no pcim_iomap_region() here: expected pcim_iomap_regions() + table");
	return KTAP_PASS;
}

/* QEMU's pci-testdev (hw/misc/pci-testdev.c): Red Hat's test device ID. */
#define TESTDEV_VENDOR	0x1b36
#define TESTDEV_DEVICE	0x0005
#define TESTDEV_ID	"1b36 0005"	/* as new_id takes them */

/* The PCI address of the first device @vendor:@device; -1 if none. */
static int find_pci_device(long vendor, long device, char *bdf, size_t size)
{
	char path[300];
	glob_t g;
	size_t i;
	int found = -1;

	if (glob("/sys/bus/pci/devices/*", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc && found < 0; i++) {
		snprintf(path, sizeof(path), "%s/vendor", g.gl_pathv[i]);
		if (read_long(path) != vendor)
			continue;
		snprintf(path, sizeof(path), "%s/device", g.gl_pathv[i]);
		if (read_long(path) != device)
			continue;
		snprintf(bdf, size, "%s", strrchr(g.gl_pathv[i], '/') + 1);
		found = 0;
	}
	globfree(&g);
	return found;
}

/* Whether the kernel log holds @what. */
static int klog_has(const char *what)
{
	int size = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf = size > 0 ? malloc(size + 1) : NULL;
	int n, found;

	if (!buf)
		return -1;
	n = klogctl(3, buf, size);		/* SYSLOG_ACTION_READ_ALL */
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	found = strstr(buf, what) != NULL;
	free(buf);
	return found;
}

/*
 * Offered a PCI device that is not edu (a new_id, as an administrator would
 * try), the driver reads the ID register, refuses it with -ENODEV and says
 * why; the device stays unbound and the edu devices keep working.
 */
KTAP_TEST(probe_refuses_other_device, 30)
{
	char bdf[4][16], other[16], said[64];
	int n = it_bound_devices(bdf, 4), fd, added, refused;

	KTAP_EXPECT(find_pci_device(TESTDEV_VENDOR, TESTDEV_DEVICE, other, sizeof(other)) == 0,
		    "no pci-testdev (%s) in the guest", TESTDEV_ID);
	added = it_write_file(IT_DRIVER_DIR "/new_id", TESTDEV_ID);
	refused = !it_is_bound(other);
	snprintf(said, sizeof(said), "%s: not an edu device", other);
	if (added == 0)
		KTAP_EXPECT(it_write_file(IT_DRIVER_DIR "/remove_id", TESTDEV_ID) == 0,
			    "remove_id: %s", strerror(errno));
	KTAP_EXPECT(added == 0, "new_id %s: %s", TESTDEV_ID, strerror(errno));
	KTAP_EXPECT(refused, "the driver bound %s, which is not an edu device", other);
	KTAP_EXPECT(klog_has(said) == 1, "no \"%s\" in the kernel log: probe did not look", said);
	KTAP_EXPECT(it_bound_devices(bdf, 4) == n, "edu devices lost");
	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open dev0: %s", strerror(errno));
	added = it_fire(fd, 10, 0, NULL);
	close(fd);
	KTAP_EXPECT(added == 0, "fire after the refusal");
	return KTAP_PASS;
}

int main(void)
{
	return ktap_main("irqdev");
}

