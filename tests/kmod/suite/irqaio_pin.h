/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * irqaio_pin.h - interface of the test-only module irqaio_pin.ko, shared
 * with tests/guest/aio_pin.c: a device whose reads and writes pin the
 * whole request through aio_compat_pin() and complete it from a work item,
 * with no device time per piece, so that a guest test can pin requests as
 * large as the VFS lets through; and how a driver handles a device that
 * never completes, a submit that fails after completing, the file position,
 * DMA alignment and pages cleaned during a read, each by a mode the test
 * sets.
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
	__u64 taken_back;	/* held requests a timed-out wait took back */
	__u64 released;		/* held requests IRQAIO_PIN_IOC_RELEASE completed */
	__u64 misaligned;	/* requests refused for their alignment */
	__u64 cleaned;		/* pages IRQAIO_PIN_CLEAN found dirty and cleaned */
};

/* Modes: what the next requests meet (IRQAIO_PIN_IOC_MODE). */
/* The device never completes: requests wait on a list until released. */
#define IRQAIO_PIN_HOLD		1
/* The submit completes the request with -EIO itself, and returns -EIO. */
#define IRQAIO_PIN_SUBMIT_FAILS	2
/* read(2)/write(2) leave the file position where it was. */
#define IRQAIO_PIN_KEEP_POS	4
/*
 * Writeback cleans the buffer during a read: the device clears its pages'
 * dirty bits before completing, then completes with softirqs off, where
 * nothing may sleep (a timer's or a tasklet's completion).
 */
#define IRQAIO_PIN_CLEAN	8

struct irqaio_pin_mode {
	__u32 flags;		/* IRQAIO_PIN_*, others must be 0 */
	__u32 timeout_ms;	/* not 0: a synchronous caller waits this long */
	__u32 align;		/* not 0: pieces must meet this DMA alignment */
	__u32 pad;		/* 0 */
};

#define IRQAIO_PIN_IOC_STATS	_IOR(0xD9, 0, struct irqaio_pin_stats)
#define IRQAIO_PIN_IOC_MODE	_IOW(0xD9, 1, struct irqaio_pin_mode)
/* Complete every held request now, with its bytes: a device come back. */
#define IRQAIO_PIN_IOC_RELEASE	_IO(0xD9, 2)

#endif /* _UAPI_IRQAIO_PIN_H */
