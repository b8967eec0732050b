// SPDX-License-Identifier: GPL-2.0
/*
 * irqaio_demo - what "make run" shows in the guest: drive the demo modules
 * once and print a short, readable report of what they did.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include <irqaio/demo_chardev.h>
#include <irqaio/demo_irqdev.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int demo_irq(void)
{
	struct demo_irqdev_fire f = { .count = 1000 };
	struct demo_irqdev_factorial fa = { .n = 10 };
	struct demo_irqdev_stats s;
	double t;
	int fd = open("/dev/" DEMO_IRQDEV_NAME "0", O_RDWR);

	if (fd < 0) {
		printf("demo_irqdev: /dev/demo_irqdev0: %s\n", strerror(errno));
		return 1;
	}
	t = now();
	if (ioctl(fd, DEMO_IRQDEV_IOC_FIRE, &f)) {
		printf("demo_irqdev: fire: %s\n", strerror(errno));
		return 1;
	}
	t = now() - t;
	if (ioctl(fd, DEMO_IRQDEV_IOC_FACTORIAL, &fa)) {
		printf("demo_irqdev: factorial: %s\n", strerror(errno));
		return 1;
	}
	printf("demo_irqdev: raised %u interrupts one by one in %.2f s (%.0f/s under TCG)\n",
	       f.done, t, f.done / t);
	printf("demo_irqdev: the edu device computed 10! = %u and interrupted when done\n",
	       fa.result);
	f = (struct demo_irqdev_fire){ .count = 10 };
	if (ioctl(fd, DEMO_IRQDEV_IOC_FIRE_NMI, &f))
		printf("demo_irqdev: NMIs: %s\n", strerror(errno));
	if (ioctl(fd, DEMO_IRQDEV_IOC_STATS, &s)) {
		printf("demo_irqdev: stats: %s\n", strerror(errno));
		return 1;
	}
	printf("demo_irqdev: irq %u via %s; handler built with the %u-argument prototype\n",
	       s.irq, s.irq_mode == DEMO_IRQDEV_MODE_MSI ? "MSI" : "INTx", s.irq_handler_args);
	printf("demo_irqdev: %llu interrupts handled (%llu raised, %llu factorial), %llu not ours\n",
	       (unsigned long long)s.irq_handled, (unsigned long long)s.raise_irqs,
	       (unsigned long long)s.fact_irqs, (unsigned long long)s.irq_none);
	printf("demo_irqdev: irq_compat_regs(): kernel mode %llu times, user mode %llu, NULL %llu;\n"
	       "             last interrupted at %s\n",
	       (unsigned long long)s.regs_kernel, (unsigned long long)s.regs_user,
	       (unsigned long long)s.regs_null, s.last_ip_sym);
	printf("demo_irqdev: NMI handler (%s) claimed %llu self-NMIs\n",
	       s.nmi_handler_args == 2 ? "regs passed as argument" :
	       s.nmi_handler_args == 1 ? "regs via get_irq_regs()" : "not available",
	       (unsigned long long)s.nmi_handled);
	close(fd);
	return 0;
}

/*
 * One asynchronous request carried out by the device: a PREADV of edu's DMA
 * buffer, queued by the driver; io_submit() returns at once, nothing is
 * complete until the DMA interrupt.
 */
static int demo_dma(void)
{
	static char msg[] = "moved by edu's DMA, completed by its interrupt";
	static char head[16], tail[sizeof(msg) - 16];
	struct iovec rv[] = { { head, sizeof(head) }, { tail, sizeof(tail) } };
	struct demo_irqdev_stats s0, s1;
	struct iocb cb, *cbs[] = { &cb };
	struct timespec zero = { 0, 0 };
	struct io_event ev;
	io_context_t ctx = 0;
	int fd = open("/dev/" DEMO_IRQDEV_NAME "0", O_RDWR), early;
	double t;

	if (fd < 0 || pwrite(fd, msg, sizeof(msg), 100) != (ssize_t)sizeof(msg) ||
	    ioctl(fd, DEMO_IRQDEV_IOC_STATS, &s0) || io_setup(1, &ctx)) {
		printf("demo_irqdev: DMA set-up failed: %s\n", strerror(errno));
		return 1;
	}
	io_prep_preadv(&cb, fd, rv, 2, 100);
	t = now();
	if (io_submit(ctx, 1, cbs) != 1) {
		printf("demo_irqdev: io_submit failed\n");
		return 1;
	}
	early = io_getevents(ctx, 0, 1, &ev, &zero);
	printf("demo_irqdev: io_submit(IOCB_CMD_PREADV) returned after %.3f s; events ready: %d\n",
	       now() - t, early);
	if (io_getevents(ctx, 1, 1, &ev, NULL) != 1 || ioctl(fd, DEMO_IRQDEV_IOC_STATS, &s1)) {
		printf("demo_irqdev: no completion\n");
		return 1;
	}
	printf("demo_irqdev: completed after %.3f s with %ld bytes (\"%.16s%s\"),\n"
	       "             %llu DMA transfers, %llu completion from the interrupt handler\n",
	       now() - t, (long)ev.res, head, tail,
	       (unsigned long long)(s1.dma_transfers - s0.dma_transfers),
	       (unsigned long long)(s1.dma_irq_completions - s0.dma_irq_completions));
	io_destroy(ctx);
	close(fd);
	return early != 0 || ev.res != (long)sizeof(msg);
}

/* Write four scattered buffers with one vectored io_submit, read them back in three. */
static int demo_aio(void)
{
	static char a[100], b[4000], c[1], d[3000], back[7101];
	struct iovec wv[] = { { a, sizeof(a) }, { b, sizeof(b) }, { c, sizeof(c) }, { d, sizeof(d) } };
	struct iovec rv[] = { { back, 1 }, { back + 1, 5000 }, { back + 5001, 2100 } };
	struct iocb cb, *cbs[] = { &cb };
	struct demo_chardev_stats st;
	struct io_event ev;
	io_context_t ctx = 0;
	size_t i, total = sizeof(a) + sizeof(b) + sizeof(c) + sizeof(d);
	int fd = open("/dev/demo_chardev", O_RDWR), ret;

	if (fd < 0) {
		printf("demo_chardev: /dev/demo_chardev: %s (module not built yet?)\n", strerror(errno));
		return 0;
	}
	for (i = 0; i < sizeof(wv) / sizeof(wv[0]); i++)
		memset(wv[i].iov_base, 'A' + i, wv[i].iov_len);
	ret = io_setup(4, &ctx);
	if (ret) {
		printf("demo_chardev: io_setup: %s\n", strerror(-ret));
		return 1;
	}
	io_prep_pwritev(&cb, fd, wv, 4, 4096);
	if (io_submit(ctx, 1, cbs) != 1 || io_getevents(ctx, 1, 1, &ev, NULL) != 1) {
		printf("demo_chardev: PWRITEV failed\n");
		return 1;
	}
	printf("demo_chardev: io_submit(IOCB_CMD_PWRITEV, 4 segments of 100/4000/1/3000 B) at 4096 -> %ld\n",
	       (long)ev.res);
	io_prep_preadv(&cb, fd, rv, 3, 4096);
	if (io_submit(ctx, 1, cbs) != 1 || io_getevents(ctx, 1, 1, &ev, NULL) != 1) {
		printf("demo_chardev: PREADV failed\n");
		return 1;
	}
	ret = memcmp(back, a, sizeof(a)) || memcmp(back + 100, b, sizeof(b)) ||
	      back[4100] != c[0] || memcmp(back + 4101, d, sizeof(d));
	printf("demo_chardev: io_submit(IOCB_CMD_PREADV, 3 segments of 1/5000/2100 B) -> %ld, data %s\n",
	       (long)ev.res, (long)ev.res == (long)total && !ret ? "identical" : "DIFFERENT");
	io_destroy(ctx);
	if (!ioctl(fd, DEMO_CHARDEV_IOC_GET_STATS, &st))
		printf("demo_chardev: the helper saw %llu iovec-array and %llu ITER_UBUF requests, %llu segments\n",
		       (unsigned long long)st.requests[DEMO_CHARDEV_PATH_IOVEC],
		       (unsigned long long)st.requests[DEMO_CHARDEV_PATH_UBUF],
		       (unsigned long long)st.segments);
	close(fd);
	return (long)ev.res == (long)total && !ret ? 0 : 1;
}

int main(void)
{
	int ret = demo_irq();

	ret |= demo_dma();
	ret |= demo_aio();
	return ret;
}
