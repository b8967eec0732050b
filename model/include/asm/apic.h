/* SPDX-License-Identifier: GPL-2.0 */
/* MODEL, not a kernel: no apic driver structure to call. */
#error "model: no local APIC in the model"
