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

echo "KTAP version 1"
echo "1..3"
fail=0

if insmod /kcfi/kcfi_cast.ko; then
	echo "ok 1 load_kcfi_cast"
else
	echo "not ok 1 load_kcfi_cast"
	echo "ok 2 typed_handler_runs # SKIP module did not load"
	echo "ok 3 cast_handler_traps # SKIP module did not load"
	exit 1
fi

# calls: the module's counters, "typed=N cast=M".
calls() { cat "$DEV"; }
cfi_reports() { dmesg | grep -c "CFI failure at "; }

before=$(cfi_reports)
if echo typed >"$DEV" && [ "$(calls)" = "typed=1 cast=0" ] && [ "$(cfi_reports)" -eq "$before" ]; then
	echo "ok 2 typed_handler_runs"
else
	echo "# after firing the typed handler: $(calls), CFI reports $before -> $(cfi_reports)"
	echo "not ok 2 typed_handler_runs"
	fail=1
fi

panic_on_oops=$(cat /proc/sys/kernel/panic_on_oops 2>/dev/null)
if ! echo 0 2>/dev/null >/proc/sys/kernel/panic_on_oops; then
	echo "# cannot clear kernel.panic_on_oops (CONFIG_PROC_SYSCTL?): the trap would panic the guest"
	echo "not ok 3 cast_handler_traps"
	exit 1
fi
sh -c "echo cast >$DEV"
rc=$?
echo "$panic_on_oops" >/proc/sys/kernel/panic_on_oops
report=$(dmesg | grep "CFI failure at .*(target: $TARGET+" | tail -n 1)
echo "# firing the cast handler: writer exit status $rc, counters $(calls)"
echo "# kernel: ${report:-no CFI failure report naming $TARGET}"
# 139: the Oops killed the writer with SIGSEGV (128 + 11).
if [ "$rc" -eq 139 ] && [ -n "$report" ] && [ "$(calls)" = "typed=1 cast=0" ]; then
	echo "# the expected outcome: kCFI trapped the call through the cast"
	echo "ok 3 cast_handler_traps"
else
	[ -z "$report" ] && echo "# no kCFI trap: the cast handler was called as if its type were right"
	echo "not ok 3 cast_handler_traps"
	fail=1
fi
exit "$fail"
