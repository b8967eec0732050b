// SPDX-License-Identifier: GPL-2.0
/*
 * bench_shimasync_chardev - bench_async_chardev.c through the shim's
 * asynchronous API (see there).
 */
#define BENCH_SHIM_ASYNC
#include "bench_async_chardev.c"
