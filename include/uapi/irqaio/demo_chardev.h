/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * demo_chardev.h - interface of drivers/demo_chardev shared with userspace
 *
 * Two misc devices, one RAM store each:
 *   /dev/demo_chardev         read/write/llseek, readv/writev, io_submit
 *                             (IOCB_CMD_PREAD[V]/PWRITE[V]), io_uring (fixed
 *                             buffers too), splice/sendfile/tee and
 *                             kernel_read()/kernel_write() through
 *                             compat/aio_compat.h's copy API
 *   /dev/demo_chardev_legacy  only ->read/->write: io_submit answers EINVAL on
 *                             stock kernels; a kernel with core-patch/ serves
 *                             it through a synchronous fallback
 */
#ifndef _UAPI_IRQAIO_DEMO_CHARDEV_H
#define _UAPI_IRQAIO_DEMO_CHARDEV_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define DEMO_CHARDEV_NAME		"demo_chardev"
#define DEMO_CHARDEV_LEGACY_NAME	"demo_chardev_legacy"
#define DEMO_CHARDEV_PATH		"/dev/" DEMO_CHARDEV_NAME
#define DEMO_CHARDEV_LEGACY_PATH	"/dev/" DEMO_CHARDEV_LEGACY_NAME

/*
 * How a request reached the driver's single data path (the shape the
 * compat helper found); counted per device since load. Values are
 * stable; new ones are added before DEMO_CHARDEV_NR_PATHS.
 */
enum demo_chardev_path {
	DEMO_CHARDEV_PATH_BUF = 0,	/* one user buffer (->read/->write, 2.6.18 aio_read) */
	DEMO_CHARDEV_PATH_IOVEC = 1,	/* iovec array (ITER_IOVEC, 2.6.19 aio_read) */
	DEMO_CHARDEV_PATH_UBUF = 2,	/* ITER_UBUF (Linux 6.0+) */
	DEMO_CHARDEV_PATH_OTHER = 3,	/* an iov_iter type the helper does not name */
	DEMO_CHARDEV_PATH_KVEC = 4,	/* ITER_KVEC: kernel_read()/kernel_write() */
	DEMO_CHARDEV_PATH_BVEC = 5,	/* ITER_BVEC: io_uring fixed buffers, splice */
	DEMO_CHARDEV_PATH_PIPE = 6,	/* ITER_PIPE: splice/sendfile from the device (4.9-6.4) */
	DEMO_CHARDEV_PATH_XARRAY = 7,	/* ITER_XARRAY (5.14+; not seen by a char device today) */
	DEMO_CHARDEV_PATH_FOLIOQ = 8,	/* ITER_FOLIOQ (6.12+; not seen by a char device today) */
	DEMO_CHARDEV_PATH_DISCARD = 9,	/* ITER_DISCARD (4.20+) */
	DEMO_CHARDEV_NR_PATHS = 10,
};

/* Names of the paths, for test output: DEMO_CHARDEV_PATH_NAMES[path]. */
#define DEMO_CHARDEV_PATH_NAMES { "BUF", "IOVEC", "UBUF", "OTHER", "KVEC", \
	"BVEC", "PIPE", "XARRAY", "FOLIOQ", "DISCARD" }

struct demo_chardev_stats {
	__u64 requests[DEMO_CHARDEV_NR_PATHS];	/* indexed by enum demo_chardev_path */
	__u64 segments;		/* copy calls of the data path (chunks of up to 1 MiB) */
	__u64 eagain;		/* requests refused because they would block */
	__u64 interrupted;	/* requests cut short by a signal */
	__u64 slept;		/* requests that slept their whole throttle */
};

#define DEMO_CHARDEV_IOC_MAGIC		0xD7

/*
 * The module parameter size_kb sets the RAM store's size in KiB, from 1 to
 * this; a value outside fails the load with EINVAL.
 */
#define DEMO_CHARDEV_MAX_SIZE_KB	(64 * 1024)

/*
 * Bytes per copy call: a pending signal is looked at, and the CPU may be
 * given up, between two; a request a signal cuts short there returns what
 * the chunks before it moved. 1 MiB keeps a 64 MiB request responsive
 * while a request of up to 1 MiB pays the copy's fixed costs once.
 */
#define DEMO_CHARDEV_CHUNK		(1U << 20)

/* Size of the RAM store in bytes (module parameter size_kb). */
#define DEMO_CHARDEV_IOC_GET_SIZE	_IOR(DEMO_CHARDEV_IOC_MAGIC, 0, __u64)
/*
 * Throttle this open file: every later request on it sleeps this many
 * milliseconds (interruptibly, before taking the lock) before it moves data;
 * 0 turns it off. A throttled request that may not block (O_NONBLOCK on the
 * file, or RWF_NOWAIT / IOCB_NOWAIT on the request) fails with EAGAIN
 * instead, having moved nothing (as it does when a conflicting request
 * holds the device lock). A signal during the sleep ends the request
 * with ERESTARTSYS (EINTR for a handler without SA_RESTART).
 */
#define DEMO_CHARDEV_IOC_SET_THROTTLE	_IOW(DEMO_CHARDEV_IOC_MAGIC, 1, __u32)
/* Per-device counters since load (struct demo_chardev_stats). */
#define DEMO_CHARDEV_IOC_GET_STATS	_IOR(DEMO_CHARDEV_IOC_MAGIC, 2, struct demo_chardev_stats)

#endif /* _UAPI_IRQAIO_DEMO_CHARDEV_H */
