// SPDX-License-Identifier: GPL-2.0
/*
 * Must-pass probe: a trivial module file. If this does not compile, the
 * toolchain or the tree is broken and no other probe result can be trusted,
 * so conftest.sh stops instead of reporting features as missing.
 */
#include <linux/module.h>
#include <linux/kernel.h>

int irqaio_probe_sanity(void);
int irqaio_probe_sanity(void)
{
	return 0;
}
