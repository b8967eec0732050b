// SPDX-License-Identifier: GPL-2.0
/*
 * bench_segwalk_chardev - bench_native_chardev.c through the shim's segment
 * walk (see there).
 */
#define BENCH_SHIM_SEGWALK
#include "bench_native_chardev.c"
