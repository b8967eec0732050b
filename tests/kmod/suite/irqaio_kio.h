/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * irqaio_kio.h - interface of the test-only module irqaio_kio.ko, shared
 * with tests/guest/splice_chardev.c: kernel_read()/kernel_write() on a
 * file named by path, as other kernel code would call them (the file then
 * sees an ITER_KVEC iov_iter).
 */
#ifndef _UAPI_IRQAIO_KIO_H
#define _UAPI_IRQAIO_KIO_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define IRQAIO_KIO_NAME		"irqaio_kio"
#define IRQAIO_KIO_PATH		"/dev/" IRQAIO_KIO_NAME
#define IRQAIO_KIO_MAX_LEN	(1024 * 1024)
/* The kernel buffer from vzalloc(), as a driver's large buffer may be. */
#define IRQAIO_KIO_VMALLOC	1

struct irqaio_kio_req {
	char path[256];		/* file to open (O_RDWR), NUL-terminated */
	__u64 buf;		/* user buffer: source of a write, destination of a read */
	__u64 len;		/* bytes, at most IRQAIO_KIO_MAX_LEN */
	__s64 pos;		/* file position to start at */
	__u32 write;		/* 1: kernel_write(), 0: kernel_read() */
	__u32 flags;		/* IRQAIO_KIO_*, others must be 0 */
	__s64 result;		/* out: what kernel_read()/kernel_write() returned */
	__s64 pos_after;	/* out: the position they left */
};

#define IRQAIO_KIO_IOC_RW	_IOWR(0xD8, 0, struct irqaio_kio_req)

#endif /* _UAPI_IRQAIO_KIO_H */
