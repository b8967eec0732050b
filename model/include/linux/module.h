/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: enough of <linux/module.h> for probes and shims. */
#ifndef MODEL_LINUX_MODULE_H
#define MODEL_LINUX_MODULE_H
#include <linux/version.h>
#include <linux/kernel.h>
#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#endif
