/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MODEL, not a kernel: the parts of <linux/usb.h> and the host-controller
 * interface (drivers/usb/core/hcd.h) whose callbacks lost their regs
 * argument in Linux 2.6.19 (commit 7d12e780e003): usb_complete_t,
 * hc_driver.irq, usb_hcd_giveback_urb().
 */
#ifndef MODEL_LINUX_USB_H
#define MODEL_LINUX_USB_H
#include <linux/interrupt.h>

struct urb;
struct usb_hcd;

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
typedef void (*usb_complete_t)(struct urb *, struct pt_regs *);
#else
typedef void (*usb_complete_t)(struct urb *);
#endif

struct urb {
	int status;
	void *context;
	usb_complete_t complete;
};

struct hc_driver {
	const char *description;
#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
	irqreturn_t (*irq)(struct usb_hcd *hcd, struct pt_regs *regs);
#else
	irqreturn_t (*irq)(struct usb_hcd *hcd);
#endif
};

struct usb_hcd {
	const struct hc_driver *driver;
	void *hcd_priv;
};

#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 19)
void usb_hcd_giveback_urb(struct usb_hcd *hcd, struct urb *urb, struct pt_regs *regs);
#else
void usb_hcd_giveback_urb(struct usb_hcd *hcd, struct urb *urb);
#endif
#endif /* MODEL_LINUX_USB_H */
