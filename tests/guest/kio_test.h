/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kio_test.h - kernel_read()/kernel_write() on a file from a guest test,
 * through the test-only module irqaio_kio.ko (tests/kmod/suite/): load it,
 * call it, unload it.
 */
#ifndef IRQAIO_KIO_TEST_H
#define IRQAIO_KIO_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "../kmod/suite/irqaio_kio.h"
#include <ktap.h>

#define KIO_MODULE	"/testmods/irqaio_kio.ko"

static int kio_fd = -1;

/* Load the test module (unless loaded) and open its device. */
static inline int kio_open(void)
{
	int fd, r;

	if (kio_fd >= 0)
		return 0;
	fd = open(KIO_MODULE, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ktap_diag("%s: %s", KIO_MODULE, strerror(errno));
		return -1;
	}
	r = syscall(SYS_finit_module, fd, "", 0);
	close(fd);
	if (r && errno != EEXIST) {
		ktap_diag("finit_module %s: %s", KIO_MODULE, strerror(errno));
		return -1;
	}
	kio_fd = open(IRQAIO_KIO_PATH, O_RDWR);
	if (kio_fd < 0)
		ktap_diag("%s: %s", IRQAIO_KIO_PATH, strerror(errno));
	return kio_fd < 0 ? -1 : 0;
}

/*
 * kernel_write() (@write) or kernel_read() of @len bytes at @pos of @path,
 * through a kernel buffer as @flags (IRQAIO_KIO_*) say.
 */
static inline long kio_with(unsigned int flags, const char *path, int write, void *buf,
			    size_t len, long long pos, long long *pos_after)
{
	struct irqaio_kio_req r = {
		.buf = (uintptr_t)buf, .len = len, .pos = pos, .write = write, .flags = flags,
	};

	snprintf(r.path, sizeof(r.path), "%s", path);
	if (ioctl(kio_fd, IRQAIO_KIO_IOC_RW, &r))
		return LONG_MIN;
	if (pos_after)
		*pos_after = r.pos_after;
	return r.result;
}

/* kio_with() a kvzalloc()ed kernel buffer: kmalloc()ed at these sizes. */
static inline long kio(const char *path, int write, void *buf, size_t len, long long pos,
		       long long *pos_after)
{
	return kio_with(0, path, write, buf, len, pos, pos_after);
}

/* Close the device and unload the module: 0, or -1 said with a diagnostic. */
static inline int kio_close(void)
{
	if (kio_fd < 0)
		return 0;
	close(kio_fd);
	kio_fd = -1;
	if (syscall(SYS_delete_module, "irqaio_kio", O_NONBLOCK)) {
		ktap_diag("delete_module irqaio_kio: %s", strerror(errno));
		return -1;
	}
	return 0;
}

#endif /* IRQAIO_KIO_TEST_H */
