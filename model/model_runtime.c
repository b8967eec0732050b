// SPDX-License-Identifier: GPL-2.0
/* MODEL, not a kernel: the state behind the model headers. */
#include <linux/interrupt.h>

struct model_irqaction model_irq_table[MODEL_NR_IRQS];
#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 19)
struct pt_regs *__irq_regs;
#endif
