// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 2, reported: a USB driver's URB completion handler has the
 * 2.6.18 usb_complete_t prototype (urb, regs); 2.6.19 removed regs.
 */
#include <linux/interrupt.h>
#include <linux/usb.h>

static unsigned long usbx_done;

static void usbx_complete(struct urb *urb, struct pt_regs *regs)
{
	usbx_done += urb->status == 0;
}

void usbx_setup(struct urb *urb);
void usbx_setup(struct urb *urb)
{
	urb->complete = usbx_complete;
}
