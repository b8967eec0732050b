# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the qemu/ scripts: cache location, timed steps, package set-up.
# Sourced, not executed.

# The cache lives outside the repository; IRQAIO_CACHE overrides it.
IRQAIO_CACHE=${IRQAIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqaio-compat}
IRQAIO_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export IRQAIO_CACHE IRQAIO_TOP

# Matrix entries in the order make check runs them.
export IRQAIO_KERNELS_ALL="deb11-5.10 deb12-6.1 deb12-6.12 patched-6.1"
export IRQAIO_KERNEL_DEFAULT=deb12-6.1

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# timed DESCRIPTION CMD...: run a long step, say what it is and how long it took.
timed() {
	local what=$1 start rc=0
	shift
	start=$(date +%s)
	log "$what ..."
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then
		log "$what: done in $(( $(date +%s) - start )) s"
	else
		log "$what: FAILED (rc=$rc) after $(( $(date +%s) - start )) s"
	fi
	return "$rc"
}

# ensure_packages PKG...: install the Debian packages that are missing.
ensure_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root or install them)"
	timed "installing ${missing[*]}" install_packages "${missing[@]}"
}

install_packages() {
	apt-get update -q >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null ||
		die "apt-get could not install: $* (is the Debian registry reachable?)"
}

# Host packages every build, boot and test needs. dwarves (pahole): a
# module build against a CONFIG_DEBUG_INFO_BTF_MODULES tree (deb12-6.12)
# runs pahole; it used to arrive only with the patched kernel's build, so a
# new machine failed deb12-6.12 before it got there.
HOST_PACKAGES="qemu-system-x86 busybox-static libaio-dev kmod cpio gzip zstd xz-utils rsync
	bc bison flex libelf-dev libssl-dev make gcc libc6-dev python3 ca-certificates
	debian-archive-keyring dwarves"

ensure_host_packages() {
	# shellcheck disable=SC2086
	ensure_packages $HOST_PACKAGES
}

kernel_dir() { echo "$IRQAIO_CACHE/kernels/$1"; }

# Build outputs (in the checkout, ignored by git): per kernel under build/NAME.
BUILD=$IRQAIO_TOP/build

build_userspace_tests() {
	make -s -C "$IRQAIO_TOP/userspace-tests" OUT="$BUILD/tests"
}

# build_modules KERNEL KDIR [TREE [OUT]]: out-of-tree build (W=1, our
# warnings are errors) in a private copy of TREE (default: the checkout) at
# OUT/src (default OUT: build/KERNEL), so kernels never share objects or
# probe results. Leaves the .ko files in OUT/modules, the log in
# OUT/build.log.
build_modules() {
	local k=$1 kdir=$2 tree=${3:-$IRQAIO_TOP} out=${4:-$BUILD/$1}
	local src=$out/src
	mkdir -p "$src" "$out/modules"
	rsync -a --delete --exclude /build --exclude /.git --exclude /results "$tree/" "$src/"
	make -C "$src" KDIR="$kdir" W=1 IRQAIO_WERROR=1 modules >"$out/build.log" 2>&1 || {
		tail -n 40 "$out/build.log" >&2
		return 1
	}
	rm -f "$out/modules/"*.ko
	find "$src/drivers" -name '*.ko' -exec cp {} "$out/modules/" \;
	cp "$src/compat/generated/irqaio_features.h" "$out/irqaio_features.h"
}

# make_initramfs KERNEL [EXTRA...]: busybox, init, the modules and the tests,
# plus the programs qemu/guest-extras names (HOST:GUEST specs, one a line).
make_initramfs() {
	local k=$1
	shift
	make_initramfs_in "$BUILD/$k" "$@"
}

# make_initramfs_in OUT [EXTRA...]: the same from OUT/modules, written to
# OUT/initramfs.cpio.gz.
make_initramfs_in() {
	local out=$1 extras
	shift
	mapfile -t extras < <("$IRQAIO_TOP/qemu/guest-extras")
	"$IRQAIO_TOP/qemu/mkinitramfs" "$out/initramfs.cpio.gz" \
		"$out/modules:/modules" "$BUILD/tests:/tests" "${extras[@]}" "$@"
}
