/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * bench_async.h - the ioctl of the bench-only asynchronous devices
 * (bench_async_chardev.c, bench_shimasync_chardev.c), shared by the
 * drivers and bench/insn_bench.c.
 *
 * An io_submit() PREADV/PWRITEV on /dev/bench_async_chardev or
 * /dev/bench_shimasync_chardev pins the request's pages and queues it;
 * BENCH_ASYNC_IOC_COMPLETE completes every queued request with its full
 * byte count (no data moves: the "device" is software) and returns how
 * many it completed. Synchronous callers (read(2), readv(2), ...) get
 * -EINVAL.
 */
#ifndef BENCH_ASYNC_H
#define BENCH_ASYNC_H

#include <linux/ioctl.h>

#define BENCH_ASYNC_IOC_MAGIC		0xba
#define BENCH_ASYNC_IOC_COMPLETE	_IO(BENCH_ASYNC_IOC_MAGIC, 1)

#endif /* BENCH_ASYNC_H */
