#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# kcfi_cast_test.sh: the kCFI negative control, run in the guest as
# /tests/kcfi_cast on the clang-cfi kernel only (its row adds it, with the
# module at /kcfi/kcfi_cast.ko). Prints KTAP.
#
# Expected outcome: the correctly typed handler runs; firing the handler
# registered through a cast to irq_handler_t makes the kernel trap in its
# IRQ core ("CFI failure at ... (target: kcfi_cast_legacy_handler ...)",
# then an Oops that kills the writing process), and the handler never runs.
# Any other outcome fails: a kernel without kCFI runs the cast handler, and
# a module that calls through the right type does not trap.
#
# The trap is an Oops, and the suite boots with oops=panic: panic_on_oops
# is cleared for the one process that fires the cast, and restored after.
# The host (qemu/run --expect-cfi-trap kcfi_cast_legacy_handler) does not
# count that one report as a splat; any other report still is one.

DEV=/dev/kcfi_cast
TARGET=kcfi_cast_legacy_handler

# shellcheck source=lib/ktap.sh
. /lib/irqaio/ktap.sh
ktap_begin "kCFI negative control"

if insmod /kcfi/kcfi_cast.ko; then
	ktap_result 1 load_kcfi_cast
else
	ktap_result 0 load_kcfi_cast
	ktap_skip typed_handler_runs "module did not load"
	ktap_skip cast_handler_traps "module did not load"
	ktap_end
	exit 1
fi

# calls: the module's counters, "typed=N cast=M".
calls() { cat "$DEV"; }
cfi_reports() { dmesg | grep -c "CFI failure at "; }

before=$(cfi_reports)
if echo typed >"$DEV" && [ "$(calls)" = "typed=1 cast=0" ] && [ "$(cfi_reports)" -eq "$before" ]; then
	ktap_result 1 typed_handler_runs
else
	ktap_result 0 typed_handler_runs \
		"after firing the typed handler: $(calls), CFI reports $before -> $(cfi_reports)"
fi

panic_on_oops=$(cat /proc/sys/kernel/panic_on_oops 2>/dev/null)
if ! echo 0 2>/dev/null >/proc/sys/kernel/panic_on_oops; then
	ktap_result 0 cast_handler_traps \
		"cannot clear kernel.panic_on_oops (CONFIG_PROC_SYSCTL?): the trap would panic the guest"
	ktap_end
	exit 1
fi
sh -c "echo cast >$DEV"
rc=$?
echo "$panic_on_oops" >/proc/sys/kernel/panic_on_oops
report=$(dmesg | grep "CFI failure at .*(target: $TARGET+" | tail -n 1)
ktap_diag "firing the cast handler: writer exit status $rc, counters $(calls)"
ktap_diag "kernel: ${report:-no CFI failure report naming $TARGET}"
# 139: the Oops killed the writer with SIGSEGV (128 + 11).
if [ "$rc" -eq 139 ] && [ -n "$report" ] && [ "$(calls)" = "typed=1 cast=0" ]; then
	ktap_result 1 cast_handler_traps "the expected outcome: kCFI trapped the call through the cast"
else
	why="the writer was not killed by the trap, or the counters moved"
	[ -n "$report" ] || why="no kCFI trap: the cast handler was called as if its type were right"
	ktap_result 0 cast_handler_traps "$why"
fi
ktap_end
