// SPDX-License-Identifier: GPL-2.0
/*
 * Pattern 2, USB: PCI glue's IRQ handler calls the host controller
 * driver's ->irq method (another module's hc_driver) with regs, and a
 * static helper completes an URB with usb_hcd_giveback_urb() and calls
 * ->complete directly, both with regs.
 */
#include <linux/interrupt.h>
#include <linux/usb.h>

static struct urb hcdx_urb;

static void hcdx_finish(struct usb_hcd *hcd, struct pt_regs *regs)
{
	usb_hcd_giveback_urb(hcd, &hcdx_urb, regs);
	if (hcdx_urb.complete)
		hcdx_urb.complete(&hcdx_urb, regs);
}

static irqreturn_t hcdx_interrupt(int irq, void *dev_id, struct pt_regs *regs)
{
	struct usb_hcd *hcd = dev_id;
	irqreturn_t ret;

	ret = hcd->driver->irq(hcd, regs);
	hcdx_finish(hcd, regs);
	return ret;
}

int hcdx_init(struct usb_hcd *hcd);
int hcdx_init(struct usb_hcd *hcd)
{
	return request_irq(11, hcdx_interrupt, IRQF_SHARED, "hcdx", hcd);
}
