/* SPDX-License-Identifier: GPL-2.0 */
/*
 * irqdev_test.h - what the demo_irqdev tests share: opening
 * /dev/demo_irqdev<n>, its statistics, firing interrupts, dropping a
 * capability, finding, unbinding and binding the PCI devices behind it
 * through sysfs, and a process spinning in user space on another CPU for
 * an interrupt to land in. Its names begin with it_ (IT_ for macros).
 */
#ifndef IRQAIO_IRQDEV_TEST_H
#define IRQAIO_IRQDEV_TEST_H

#include <fcntl.h>
#include <glob.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <irqaio/demo_irqdev.h>
#include <ktap.h>

#define IT_DRIVER_DIR	"/sys/bus/pci/drivers/demo_irqdev"

/*
 * timeout_ms for a FIRE or FACTORIAL that must succeed. The driver's
 * default (0: 1000 ms per interrupt) bets that no vCPU of a loaded host
 * stalls for a second across 100000 interrupts; a lost interrupt still
 * fails the call, only later.
 */
#define IT_WAIT_MS	20000

/* /dev/demo_irqdev<n>, read-write, with open(2) @flags added. */
static inline int it_dev_open(int n, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/" DEMO_IRQDEV_NAME "%d", n);
	return open(path, O_RDWR | flags);
}

static inline int it_get_stats(int fd, struct demo_irqdev_stats *s)
{
	memset(s, 0, sizeof(*s));
	return ioctl(fd, DEMO_IRQDEV_IOC_STATS, s);
}

/* FIRE @count interrupts (@flags) and wait for them; how many were done in *@done. */
static inline int it_fire(int fd, unsigned int count, unsigned int flags, unsigned int *done)
{
	struct demo_irqdev_fire f = { .count = count, .flags = flags,
				      .timeout_ms = IT_WAIT_MS };
	int ret = ioctl(fd, DEMO_IRQDEV_IOC_FIRE, &f);

	if (done)
		*done = f.done;
	return ret;
}

/* Drop capability @cap from every set of this process (uid stays 0). */
static inline int it_drop_capability(int cap)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	uint32_t bit = 1U << (cap % 32);

	if (syscall(SYS_capget, &h, d))
		return -1;
	d[cap / 32].effective &= ~bit;
	d[cap / 32].permitted &= ~bit;
	d[cap / 32].inheritable &= ~bit;
	return syscall(SYS_capset, &h, d) ? -1 : 0;
}

/* Write @s to a sysfs file in one write(2). */
static inline int it_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* PCI address of /dev/demo_irqdev<n>: its misc device's parent. */
static inline int it_dev_bdf(int n, char *bdf, size_t size)
{
	char path[96], link[256], *base;
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/class/misc/" DEMO_IRQDEV_NAME "%d/device", n);
	len = readlink(path, link, sizeof(link) - 1);
	if (len < 0)
		return -1;
	link[len] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strlen(base) >= size)
		return -1;
	memcpy(bdf, base, strlen(base) + 1);
	return 0;
}

/* Whether the driver is bound to the PCI device at @bdf. */
static inline int it_is_bound(const char *bdf)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), IT_DRIVER_DIR "/%s", bdf);
	return lstat(path, &st) == 0;
}

/* Bound devices by PCI address, as the sysfs directory lists them (sorted). */
static inline int it_bound_devices(char bdf[][16], int max)
{
	glob_t g;
	size_t i;
	int n = 0;

	if (glob(IT_DRIVER_DIR "/0000:*", 0, NULL, &g))
		return 0;
	for (i = 0; i < g.gl_pathc && n < max; i++)
		snprintf(bdf[n++], 16, "%s", strrchr(g.gl_pathv[i], '/') + 1);
	globfree(&g);
	return n;
}

/* Run the calling thread on @cpu only. */
static inline int it_pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * A child pinned to a CPU, spinning in user space on a one-instruction
 * loop in the first of two shared pages. Its code first stores 1 to the
 * second page's first byte (PC-relative), then branches to itself for
 * ever: once that byte reads 1, an interrupt landing on that CPU while it
 * is in user mode finds it at exactly it_spinner_loop(), never on its way
 * there (the C code between fork() and the loop).
 */
struct it_spinner {
	unsigned char *page;
	pid_t pid;
};

#if defined(__x86_64__)
/* movb $1, 0xff9(%rip) (the flag: 0x1000 - 7); jmp . */
#define IT_SPINNER_CODE	{ 0xc6, 0x05, 0xf9, 0x0f, 0x00, 0x00, 0x01, 0xeb, 0xfe }
#define IT_SPINNER_LOOP_OFF	7
#elif defined(__aarch64__)
/* adr x0, .+0x1000 (the flag); mov w1, #1; strb w1, [x0]; b . (little-endian words) */
#define IT_SPINNER_CODE	{ 0x00, 0x80, 0x00, 0x10, 0x21, 0x00, 0x80, 0x52, \
			  0x01, 0x00, 0x00, 0x39, 0x00, 0x00, 0x00, 0x14 }
#define IT_SPINNER_LOOP_OFF	12
#else
#error "irqdev_test.h: no user-space spin loop for this architecture"
#endif

static inline uintptr_t it_spinner_loop(const struct it_spinner *s)
{
	return (uintptr_t)s->page + IT_SPINNER_LOOP_OFF;
}

static inline void it_spinner_stop(struct it_spinner *s)
{
	int st;

	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, &st, 0);
	}
	if (s->page != MAP_FAILED)
		munmap(s->page, 2 * 4096);
	s->pid = -1;
	s->page = MAP_FAILED;
}

/* Start the spinner on @cpu and wait until it is in its loop: 0, or -1 (said). */
static inline int it_spinner_start(struct it_spinner *s, int cpu)
{
	static const unsigned char spinner_code[] = IT_SPINNER_CODE;
	double t0;

	s->pid = -1;
	s->page = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->page == MAP_FAILED) {
		ktap_diag("spinner: mmap: %s", strerror(errno));
		return -1;
	}
	memcpy(s->page, spinner_code, sizeof(spinner_code));
	/* Written as data, run as code: the instruction cache must see it. */
	__builtin___clear_cache((char *)s->page, (char *)s->page + sizeof(spinner_code));
	s->pid = fork();
	if (s->pid == 0) {
		/* Never outlives the test, whichever way the test ends. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || it_pin_to(cpu))
			_exit(1);
		((void (*)(void))s->page)();
	}
	if (s->pid < 0) {
		ktap_diag("spinner: fork: %s", strerror(errno));
		it_spinner_stop(s);
		return -1;
	}
	t0 = ktap_now();
	while (!__atomic_load_n(s->page + 4096, __ATOMIC_ACQUIRE) && !ktap_task_ended(s->pid) &&
	       ktap_now() - t0 < KTAP_WAIT_S)
		usleep(1000);
	if (!__atomic_load_n(s->page + 4096, __ATOMIC_ACQUIRE)) {
		ktap_diag("the spinner never reached its loop on CPU %d", cpu);
		it_spinner_stop(s);
		return -1;
	}
	return 0;
}

#endif /* IRQAIO_IRQDEV_TEST_H */
