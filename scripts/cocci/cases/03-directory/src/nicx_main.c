// SPDX-License-Identifier: GPL-2.0
/* Pattern 3: ... and registered from another. */
#include "nicx.h"

int nicx_open(struct nicx *nic)
{
	return request_irq(10, nicx_interrupt, IRQF_SHARED, "nicx", nic);
}
