/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * irqaio_pin.h - interface of the test-only module irqaio_pin.ko, shared
 * with userspace-tests/aio_pin.c: a device whose reads and writes pin the
 * whole request through aio_compat_pin() and complete it from a work item,
 * with no device time per piece, so that a guest test can pin requests as
 * large as the VFS lets through.
 */
#ifndef _UAPI_IRQAIO_PIN_H
#define _UAPI_IRQAIO_PIN_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define IRQAIO_PIN_NAME		"irqaio_pin"
#define IRQAIO_PIN_PATH		"/dev/" IRQAIO_PIN_NAME

struct irqaio_pin_stats {
	__u64 requests;		/* requests pinned and completed */
	__u64 held;		/* list entries pinned and not yet given back */
	__u64 bad_lists;	/* lists whose walk disagreed with nents/pinned */
	__u64 last_nents;	/* entries of the last request's list */
	__u64 last_pinned;	/* bytes of the last request's list */
};

#define IRQAIO_PIN_IOC_STATS	_IOR(0xD9, 0, struct irqaio_pin_stats)

#endif /* _UAPI_IRQAIO_PIN_H */
