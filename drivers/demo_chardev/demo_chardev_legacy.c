// SPDX-License-Identifier: GPL-2.0
/*
 * demo_chardev_legacy - the same driver with only ->read/->write, as char
 * drivers written before aio were: readv(2) works (the VFS loops over
 * ->read), io_submit() answers EINVAL on stock kernels, and a kernel with
 * core-patch/ serves it through a synchronous fallback.
 */
#define DEMO_CHARDEV_LEGACY
#include "demo_chardev.c"
