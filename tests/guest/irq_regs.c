// SPDX-License-Identifier: GPL-2.0
/*
 * irq_regs.c - irq_compat_regs() as demo_irqdev's interrupt handler sees
 * it when the interrupt lands on a CPU running user code: user_mode() true
 * and the instruction pointer exactly the user instruction it interrupted.
 * The NMI tests show the same for x86's NMIs; this is the interrupt every
 * architecture has (arm64's kernels have no NMI for drivers).
 *
 * The device's interrupt is steered to CPU 1 (/proc/irq/N/smp_affinity_list)
 * while a child spins in user space there and this process, on CPU 0,
 * raises the interrupts one at a time. A file opened without CAP_SYSLOG
 * then gets neither that address nor a symbol for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <irqaio/demo_irqdev.h>
#include "irqdev_test.h"
#include <ktap.h>

/* One user-mode sample in this many interrupts is required. */
#define USER_TRIES	20
/* Where the kernel's addresses start, on x86-64 and arm64 alike. */
#define KERNEL_BASE	0xffff800000000000ULL

/* The affinity list of IRQ @irq into @buf (newline dropped): 0 or -1. */
static int irq_affinity(unsigned int irq, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int set_irq_affinity(unsigned int irq, const char *list)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	return it_write_file(path, list);
}

/*
 * Interrupts raised one at a time until one finds CPU 1 in user mode; each
 * that finds it in the kernel instead (a tick, a vCPU the host descheduled)
 * must report a kernel address. Returns KTAP_PASS or KTAP_FAIL (said).
 */
static int sample_user_mode(int fd, uintptr_t loop)
{
	struct demo_irqdev_stats a, b;
	unsigned int done;
	int tries;

	for (tries = 0; tries < USER_TRIES; tries++) {
		if (it_get_stats(fd, &a) || it_fire(fd, 1, 0, &done) || done != 1 ||
		    it_get_stats(fd, &b)) {
			ktap_diag("fire 1: %s (done %u)", strerror(errno), done);
			return KTAP_FAIL;
		}
		if (b.regs_null != a.regs_null) {
			ktap_diag("irq_compat_regs() NULL in a hard-IRQ handler");
			return KTAP_FAIL;
		}
		if (b.regs_user - a.regs_user == 1) {
			ktap_diag("interrupt %d on CPU 1 found user mode at %#llx, the loop is at %#lx",
				  tries + 1, (unsigned long long)b.last_ip, (unsigned long)loop);
			if (b.last_ip != loop) {
				ktap_diag("user-mode ip %#llx is not the loop's %#lx",
					  (unsigned long long)b.last_ip, (unsigned long)loop);
				return KTAP_FAIL;
			}
			return KTAP_PASS;
		}
		if (b.regs_kernel - a.regs_kernel != 1 || b.last_ip < KERNEL_BASE) {
			ktap_diag("interrupt %d: kernel mode %llu, user mode %llu, ip %#llx",
				  tries + 1, (unsigned long long)(b.regs_kernel - a.regs_kernel),
				  (unsigned long long)(b.regs_user - a.regs_user),
				  (unsigned long long)b.last_ip);
			return KTAP_FAIL;
		}
		ktap_diag("interrupt %d found CPU 1 in the kernel at %s; again", tries + 1,
			  b.last_ip_sym);
		usleep(20000);
	}
	ktap_diag("no interrupt of %d found CPU 1 in user mode", USER_TRIES);
	return KTAP_FAIL;
}

KTAP_TEST(irq_user_mode, 60)
{
	struct demo_irqdev_stats s;
	char saved[64];
	struct it_spinner sp;
	int fd, ret;

	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &s) == 0, "stats: %s", strerror(errno));
	KTAP_EXPECT(s.irq_no_thread == 1, "the handler may run in a thread (no regs there)");
	KTAP_EXPECT(irq_affinity(s.irq, saved, sizeof(saved)) == 0,
		    "/proc/irq/%u/smp_affinity_list: %s", s.irq, strerror(errno));
	KTAP_EXPECT(it_pin_to(0) == 0, "pin to CPU 0: %s", strerror(errno));
	KTAP_EXPECT(set_irq_affinity(s.irq, "1") == 0, "IRQ %u to CPU 1: %s", s.irq,
		    strerror(errno));
	ret = KTAP_FAIL;
	if (it_spinner_start(&sp, 1) == 0) {
		ret = sample_user_mode(fd, it_spinner_loop(&sp));
		it_spinner_stop(&sp);
	}
	if (set_irq_affinity(s.irq, saved)) {
		ktap_diag("IRQ %u back to CPUs %s: %s", s.irq, saved, strerror(errno));
		ret = KTAP_FAIL;
	}
	close(fd);
	if (ret != KTAP_PASS)
		return ret;
	/* %pS of a user address is the bare address: "?" instead. */
	KTAP_EXPECT(it_drop_capability(CAP_SYSLOG) == 0, "capset: %s", strerror(errno));
	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open without CAP_SYSLOG: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &s) == 0, "stats: %s", strerror(errno));
	close(fd);
	KTAP_EXPECT(s.last_ip == 0 && !strcmp(s.last_ip_sym, "?"),
		    "without CAP_SYSLOG the user-mode ip shows as %#llx, \"%s\"",
		    (unsigned long long)s.last_ip, s.last_ip_sym);
	return KTAP_PASS;
}

/* With CPU 1 idle (the spinner reaped), the same interrupt finds the kernel. */
KTAP_TEST(irq_idle_cpu_kernel_mode, 30)
{
	struct demo_irqdev_stats a, b;
	char saved[64];
	int fd, ret = KTAP_PASS;

	fd = it_dev_open(0, 0);
	KTAP_EXPECT(fd >= 0, "open: %s", strerror(errno));
	KTAP_EXPECT(it_get_stats(fd, &a) == 0, "stats: %s", strerror(errno));
	KTAP_EXPECT(irq_affinity(a.irq, saved, sizeof(saved)) == 0,
		    "/proc/irq/%u/smp_affinity_list: %s", a.irq, strerror(errno));
	KTAP_EXPECT(it_pin_to(0) == 0, "pin to CPU 0: %s", strerror(errno));
	KTAP_EXPECT(set_irq_affinity(a.irq, "1") == 0, "IRQ %u to CPU 1: %s", a.irq,
		    strerror(errno));
	if (it_fire(fd, 20, 0, NULL) || it_get_stats(fd, &b)) {
		ktap_diag("fire 20: %s", strerror(errno));
		ret = KTAP_FAIL;
	} else if (b.regs_kernel - a.regs_kernel + (b.regs_user - a.regs_user) != 20 ||
		   b.regs_user - a.regs_user > 2 ||
		   (b.regs_user == a.regs_user && b.last_ip < KERNEL_BASE)) {
		/* Another process's user code may run on CPU 1 now and then: a few. */
		ktap_diag("kernel mode %llu, user mode %llu of 20, last ip %#llx",
			  (unsigned long long)(b.regs_kernel - a.regs_kernel),
			  (unsigned long long)(b.regs_user - a.regs_user),
			  (unsigned long long)b.last_ip);
		ret = KTAP_FAIL;
	}
	if (set_irq_affinity(a.irq, saved)) {
		ktap_diag("IRQ %u back to CPUs %s: %s", a.irq, saved, strerror(errno));
		ret = KTAP_FAIL;
	}
	close(fd);
	return ret;
}

int main(void)
{
	return ktap_main("irq_regs");
}
