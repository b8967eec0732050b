#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What irqaio_example promises, seen from user space: the KTAP test that
# docs/testing-your-driver.md runs on every kernel with irqaio-matrix. The
# guest runs it after loading the modules; /lib/irqaio/ktap.sh is the
# guest's KTAP emitter.
# shellcheck source=lib/ktap.sh
. /lib/irqaio/ktap.sh

dev=/dev/irqaio_example
size=4096
ktap_begin "irqaio_example: $dev"

# check NAME WHY [LOG]: a result from the status of the command before it;
# WHY and LOG say what went wrong only when it did.
check() {
	if [ "$rc" -eq 0 ]; then
		ktap_result 1 "$1"
	else
		ktap_result 0 "$@"
	fi
}

[ -c "$dev" ]
rc=$?
check device_exists "$dev is not a character device"

# One request writes the buffer, eight read it back: each read starts where
# the last one stopped (the file position).
dd if=/dev/urandom of=/tmp/in bs=$size count=1 2>/dev/null
dd if=/tmp/in of="$dev" bs=$size count=1 2>/tmp/err &&
	dd if="$dev" of=/tmp/out bs=512 count=8 2>>/tmp/err && cmp /tmp/in /tmp/out >>/tmp/err 2>&1
rc=$?
check write_then_read_in_pieces "what was read is not what was written" /tmp/err

# Writing at the end gets ENOSPC; reading there gets end of file.
! dd if=/tmp/in of="$dev" bs=1 count=1 seek=$size conv=notrunc 2>/tmp/err &&
	grep -q 'No space left' /tmp/err
rc=$?
check write_past_end_is_enospc "no ENOSPC" /tmp/err
n=$(dd if="$dev" bs=1 skip=$size count=1 2>/dev/null | wc -c)
[ "$n" -eq 0 ]
rc=$?
check read_at_end_is_eof "read $n bytes at the end"
ktap_end
