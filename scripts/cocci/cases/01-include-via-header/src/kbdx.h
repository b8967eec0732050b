/* SPDX-License-Identifier: GPL-2.0 */
/* Pattern 1: the driver's own header brings <linux/interrupt.h>. */
#ifndef KBDX_H
#define KBDX_H
#include <linux/interrupt.h>

struct kbdx {
	unsigned long count;
	unsigned long last_ip;
};
#endif
