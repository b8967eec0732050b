// SPDX-License-Identifier: GPL-2.0
/* The handlers as a driver writes them with compat/irq_compat.h. */
#include <irq_compat.h>
#include "zo_body.h"

#define ZO_REGS irq_compat_regs()

IRQ_COMPAT_HANDLER(zo_irq_handler, irq, dev_id);

IRQ_COMPAT_HANDLER(zo_irq_handler, irq, dev_id)
{
	ZO_IRQ_BODY(dev_id);
}

#ifdef IRQAIO_NMI_HANDLER_ARGS
NMI_COMPAT_HANDLER(zo_nmi_handler, type);

NMI_COMPAT_HANDLER(zo_nmi_handler, type)
{
	ZO_NMI_BODY(type);
}
#endif
