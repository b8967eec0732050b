// SPDX-License-Identifier: GPL-2.0
/*
 * bench_shimcopy_chardev - bench_native_chardev.c through the shim's copy
 * API (see there).
 */
#define BENCH_SHIM_COPY
#include "bench_native_chardev.c"
