#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# module_sig_test.sh: the module-signature negative control, run in the
# guest as /tests/module_sig on a row whose kernel forces signatures
# (module_sig = "forced" in qemu/matrix.toml; the row adds it, with two
# copies of the test-only module under /sig). Prints KTAP.
#
# Expected outcome: signatures are enforced; no module this boot loaded was
# unsigned (taint E never set: every module the harness built was signed
# with the key the kernel's build generated); a copy left unsigned is
# refused (EKEYREJECTED, "Loading of unsigned module is rejected") and so is
# a copy signed with a key the host made and the kernel does not trust
# ("Loading of module with unavailable key is rejected"). A control that
# loads fails: the suite's own modules would then prove nothing about
# signing.

# shellcheck source=lib/ktap.sh
. /lib/irqaio/ktap.sh
ktap_begin "module signature negative control"

enforce=$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null || echo absent)
ktap_result "$([ "$enforce" = Y ] && echo 1)" signatures_enforced "sig_enforce $enforce"
unsigned_taint=$(( ($(cat /proc/sys/kernel/tainted) >> 13) & 1 ))
ktap_result "$([ $unsigned_taint = 0 ] && echo 1)" loaded_modules_signed \
	"unsigned-module taint (E) $unsigned_taint"

# refused FILE REASON NAME: insmod FILE fails, with EKEYREJECTED's message,
# and the kernel logs "Loading of REASON is rejected" (once per load call:
# the guest's insmod was seen to make two for one file).
refused() {
	before=$(dmesg | grep -c "Loading of $2 is rejected")
	if err=$(insmod "$1" 2>&1); then
		rmmod irqaio_kio
		ktap_result 0 "$3" "$1 loaded; a kernel that forces signatures must refuse it"
		return
	fi
	after=$(dmesg | grep -c "Loading of $2 is rejected")
	ok=0
	case $err in
	*"Key was rejected by service"*) [ "$after" -gt "$before" ] && ok=1 ;;
	esac
	ktap_result $ok "$3" "insmod: $err; the kernel logged \"Loading of $2 is rejected\" $((after - before)) times"
}

refused /sig/unsigned.ko "unsigned module" unsigned_copy_refused
refused /sig/foreign.ko "module with unavailable key" untrusted_key_refused
ktap_end
