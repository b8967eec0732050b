#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fio_chardev.sh - Debian's fio, a client nobody here wrote, against
# /dev/demo_chardev: random read/write mixes with block sizes from 512 B to
# 64 KiB, 4 jobs on disjoint quarters of the store, every written block
# verified with crc32c (verify_fatal=1), through
#   libaio (io_submit, iodepth 1 and 32), psync (pread/pwrite) and
#   pvsync2 (preadv2/pwritev2).
# Each engine is one KTAP test; a test fails when fio exits nonzero or
# reports an error or a verify failure. An initramfs without fio fails
# (qemu/guest-extras puts it in every test initramfs): a missing tool must
# not turn the test into a skip that make check would pass.
# CI-sized: the store is 256 KiB and each job covers its 64 KiB quarter
# once per round (fio's verify does not survive loops= over random
# mixed block sizes), so ROUNDS (default 3) runs with fixed seeds per
# engine; each run writes, then reads back and checks, every block.
set -eu
# shellcheck source=lib/ktap.sh
. /lib/irqaio/ktap.sh

DEV=/dev/demo_chardev
ROUNDS=${FIO_ROUNDS:-3}
JOBFILE=/tmp/fio_chardev.fio
OUT=/tmp/fio_chardev.out

write_jobfile() {
	# $1: the store's size in bytes. A character device has no size fio
	# can ask for, and fio takes the size= of a job as the device's size:
	# with size=64k the jobs at offsets 64k+ find nothing to do. So
	# filesize= states the store's size and size=25% gives each of the
	# four jobs a quarter, from its offset_increment on: disjoint ranges.
	cat >"$JOBFILE" <<JOBS
[global]
filename=$DEV
filesize=$1
size=25%
offset_increment=$(($1 / 4))
numjobs=4
group_reporting=1
rw=randrw
rwmixread=50
bsrange=512-64k
blockalign=512
invalidate=0
verify=crc32c
verify_fatal=1
verify_dump=0
verify_state_save=0
do_verify=1

[libaio-qd1]
ioengine=libaio
iodepth=1

[libaio-qd32]
ioengine=libaio
iodepth=32
iodepth_batch_submit=8
iodepth_batch_complete_min=1

[psync]
ioengine=psync

[pvsync2]
ioengine=pvsync2
JOBS
}

# run_round NAME SEED: one fio run of one engine; 0 when clean.
run_round() {
	name=$1 seed=$2 rc=0
	fio --section="$name" --randseed="$seed" --output="$OUT" "$JOBFILE" >/dev/null 2>&1 || rc=$?
	# "err= 0" per job group; any other value or a verify complaint fails.
	if [ "$rc" -ne 0 ] ||
		grep -E 'err=[[:space:]]*[1-9]|verify: bad|bad magic|verify failed' "$OUT" >/dev/null ||
		! grep -q 'err= *0' "$OUT"; then
		cp "$OUT" "/tmp/fio-$name.log"
		echo "$name seed $seed: fio exit status $rc" >>"/tmp/fio-$name.log"
		return 1
	fi
	# The group's "READ: bw=..." / "WRITE: bw=..." lines are the figures to quote.
	grep -E '^ *(READ|WRITE):|issued rwts' "$OUT" | sed "s/^ */$name seed $seed: /" >"$OUT.figures"
	while read -r line; do
		ktap_diag "$line"
	done <"$OUT.figures"
}

# run_section NAME: ROUNDS runs of one engine (fixed seeds), one KTAP line.
run_section() {
	name=$1 seed=0
	while [ "$seed" -lt "$ROUNDS" ]; do
		seed=$((seed + 1))
		if ! run_round "$name" "$seed"; then
			ktap_result 0 "fio_$name" "seed $seed" "/tmp/fio-$name.log"
			return 1
		fi
	done
	ktap_result 1 "fio_$name"
}

if ! command -v fio >/dev/null 2>&1; then
	ktap_begin
	ktap_result 0 fio_chardev "fio is not in the initramfs: qemu/guest-extras puts it there"
	ktap_end
	exit 1
fi
# fio keeps its job state in SysV shared memory (shmget): a kernel built
# without CONFIG_SYSVIPC cannot run it: the whole document is a skip.
if [ ! -d /proc/sysvipc ]; then
	ktap_skip_all "this kernel has no SysV IPC (CONFIG_SYSVIPC), fio needs shmget"
	exit 4
fi
if [ ! -c "$DEV" ]; then
	ktap_begin
	ktap_result 0 fio_chardev "no $DEV"
	ktap_end
	exit 1
fi
ktap_begin "fio_chardev on ${IRQAIO_KERNEL:-unknown}: $(fio --version)"
cd /tmp || exit 1
size_kb=$(cat /sys/module/demo_chardev/parameters/size_kb)
write_jobfile "$((size_kb * 1024))"

for section in libaio-qd1 libaio-qd32 psync pvsync2; do
	run_section "$section" || true
done
ktap_end
