# SPDX-License-Identifier: GPL-2.0
"""The kernel's side of the conversion: which APIs lost regs in 2.6.19 and
which keep it, the 2.6.18 page-cache aio methods, and the calls that mark a
request finished later. The planner and the generators both read these
tables, so a name added here is planned for and converted alike.
"""

# Kernel APIs whose regs argument commit 7d12e780e003 (Linux 2.6.19) removed:
# name -> (index of the regs argument, arguments in the 2.6.18 call). Calls
# that hand a regs parameter on to them are converted (native: the argument
# goes; compat: both calls, under "#if IRQAIO_IRQ_HANDLER_ARGS == 3", the
# probe of the same commit) by the semantic patch "lost-cocci" writes from
# this table.
LOST_REGS = {
    "serio_interrupt": (3, 4),          # (serio, data, dfl, regs)
    "handle_sysrq": (1, 3),             # (key, regs, tty)
    "__handle_sysrq": (1, 4),           # (key, regs, tty, check_mask)
    "uart_handle_sysrq_char": (2, 3),   # (port, ch, regs)
    "profile_tick": (1, 2),             # (type, regs)
    "generic_handle_irq": (1, 2),       # (irq, regs)
    "__do_IRQ": (1, 2),                 # (irq, regs)
    "handle_IRQ_event": (1, 3),         # (irq, regs, action)
    "usb_hcd_giveback_urb": (2, 3),     # (hcd, urb, regs)
    "usb_hcd_irq": (2, 3),              # usbcore's 3-argument IRQ handler
    "snd_mpu401_uart_interrupt": (2, 3),  # ALSA's 3-argument IRQ handler
}
# Gone entirely in 2.6.19: the statement is kept for 2.6.18 only.
GONE_REGS = {"input_regs": (1, 2)}      # (dev, regs): dev->regs for sysrq
# Function-pointer members that lost regs: member -> (index, arguments).
LOST_REGS_FIELDS = {
    "irq": (1, 2),        # struct hc_driver: irqreturn_t (*irq)(hcd, regs)
    "complete": (1, 2),   # struct urb: usb_complete_t (*complete)(urb, regs)
}
# Kernel functions and macros that read regs and still take it after 2.6.19.
KEEPS_REGS = {
    "user_mode", "user_mode_vm", "instruction_pointer", "profile_pc",
    "show_regs", "die", "notify_die", "regs_return_value",
}
# 2.6.18 page-cache aio entry points whose prototype 027445c37282 vectored.
PAGECACHE_AIO = {
    "generic_file_aio_read", "generic_file_aio_write",
    "generic_file_aio_write_nolock", "__generic_file_aio_write_nolock",
}
# What a line analyze.cocci marks as finishing a request later does, in the
# words of the report, by the first of these names it holds.
ASYNC_WHAT = {"EIOCBQUEUED": "returns -EIOCBQUEUED", "aio_complete": "aio_complete()",
              "kick_iocb": "kick_iocb()", "ki_cancel": "sets ki_cancel",
              "ki_list": "keeps the kiocb on a list"}
