/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: no register_nmi_handler() before Linux 3.2. */
#error "model: register_nmi_handler() does not exist in the modelled worlds"
