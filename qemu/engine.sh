# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The engine's programs as shell functions, for the tools that drive them
# (make check, the checks in scripts/, make bench): a row's kernel tree
# (qemu/fetch-kernel), our drivers built as a maintainer's module
# (qemu/build-user-module) and a guest's initramfs (qemu/guest-extras,
# qemu/mkinitramfs). The layers go one way: lib/ runs nothing of qemu/,
# qemu/ nothing of scripts/ or tests/.
# Sourced, not executed.

# shellcheck source=lib/harness.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/harness.sh"

# matrix_kdir NAME: the kernel tree of a matrix entry. A ready entry is used
# as it is (for patched-6.1, qemu/fetch-kernel would rebuild the kernel when
# core-patch/ changed, which is not a lint's or a packaging check's job);
# otherwise qemu/fetch-kernel fetches or builds it.
matrix_kdir() {
	local entry
	if [ -e "$(kernel_dir "$1")/ready" ]; then
		echo "$(kernel_dir "$1")/kdir"
	else
		entry=$("$IRQAIO_TOP/qemu/fetch-kernel" "$1" | tail -n 1) || return
		echo "$entry/kdir"
	fi
}

# build_modules [--no-testmods] KERNEL KDIR [TREE [OUT]]: the demo drivers
# of TREE (default: the checkout) built for KERNEL (a row, or the entry KDIR
# is in) the way a maintainer's module is, by qemu/build-user-module: a
# private copy at OUT/src (default OUT: build/KERNEL), so kernels never
# share objects, the kernel's own toolchain, signed where its tree has the
# key, the .ko files and their load order in OUT/modules, the log in
# OUT/build.log; and W=1 with our warnings as errors. Then what only our
# suite needs: the test-only modules of tests/kmod/suite in
# OUT/testmods (the tests load them; not with --no-testmods, for a build
# that no suite boots), the probe results in OUT/irqaio_features.h and, for
# the checkout's own build (no TREE), the shim's macros as the kernel's
# build defines them in OUT/macros.h. Probe results are kept in the cache
# by their inputs: a fresh checkout of the same probes does not re-probe.
build_modules() {
	local testmods=1
	if [ "$1" = --no-testmods ]; then
		testmods=0
		shift
	fi
	local k=$1 kdir tree=${3:-$IRQAIO_TOP} out=${4:-$BUILD/$1}
	local src=$out/src
	[ "$2" = "$(kernel_dir "$k")/kdir" ] || k=${2%/kdir}
	kdir=$(kernel_build_kdir "$k" "$2")
	"$IRQAIO_TOP/qemu/build-user-module" --make-arg W=1 --make-arg IRQAIO_WERROR=1 \
		"$k" "$tree" "$out" || return 1
	cp "$src/compat/generated/irqaio_features.h" "$out/irqaio_features.h"
	if [ -z "${3:-}" ]; then
		# The shim's macros as this kernel's build sees them, its
		# branch markers among them (model/branch-coverage): the
		# preprocessor's dump of the driver that includes both headers.
		# shellcheck disable=SC2046 # one argument a word
		kernel_exec "$k" make -C "$kdir" M="$src" IRQAIO_TOP="$src" $(kernel_make_args "$k") \
			KCFLAGS=-dM drivers/demo_irqdev/demo_irqdev_main.i >>"$out/build.log" 2>&1 || {
			tail -n 20 "$out/build.log" >&2
			return 1
		}
		cp "$src/drivers/demo_irqdev/demo_irqdev_main.i" "$out/macros.h"
	fi
	rm -rf "$out/testmods"
	[ "$testmods" -eq 1 ] || return 0
	mkdir -p "$out/testmods"
	if [ -d "$src/tests/kmod/suite" ]; then
		# shellcheck disable=SC2046 # one argument a word
		kernel_exec "$k" make -C "$kdir" M="$src/tests/kmod/suite" IRQAIO_TOP="$src" W=1 \
			$(kernel_make_args "$k") \
			modules >>"$out/build.log" 2>&1 || {
			tail -n 40 "$out/build.log" >&2
			return 1
		}
		cp "$src/tests/kmod/suite/"*.ko "$out/testmods/"
		sign_modules "$k" "$2" "$out/testmods/"*.ko
	fi
}

# make_initramfs KERNEL [EXTRA...]: busybox, init, the modules and the tests,
# plus the programs qemu/guest-extras names (HOST:GUEST specs, one a line).
make_initramfs() {
	local k=$1
	shift
	make_initramfs_in "$k" "$BUILD/$k" "$@"
}

# make_initramfs_in [--tests DIR] KERNEL OUT [EXTRA...]: the same from
# OUT/modules, for KERNEL's architecture (another one's busybox and guest
# programs), written to OUT/initramfs.cpio.gz; OUT/testmods and the probe
# results the modules were built with (/etc/irqaio/features.h, which tests
# read to know what the tree has) go along when build_modules left them.
# The guest programs are the whole suite's, or those in DIR.
make_initramfs_in() {
	local k out specs extras=() arch busybox=() tests=''
	if [ "${1:-}" = --tests ]; then
		tests=$2
		shift 2
	fi
	k=$1 out=$2
	shift 2
	# A kernel outside the table (make bench's own builds) is this
	# machine's architecture.
	arch=amd64
	case " $("$MATRIX" names --all | tr '\n' ' ') " in
	*" $k "*) arch=$("$MATRIX" get "$k" arch) ;;
	esac
	# Not "mapfile < <(...)": that would drop guest-extras' failure.
	specs=$("$IRQAIO_TOP/qemu/guest-extras" "$arch") || die "qemu/guest-extras failed (fio for the guest)"
	mapfile -t extras <<<"$specs"
	if [ "$arch" = amd64 ]; then
		tests=${tests:-$BUILD/tests}
	else
		# Another architecture's guest: its busybox (fetch-kernel keeps
		# it with the kernel) and programs.
		busybox=(--busybox "$(kernel_dir "$k")/busybox")
		tests=${tests:-$BUILD/tests-$arch}
	fi
	[ -d "$out/testmods" ] && extras+=("$out/testmods:/testmods")
	# The probe results the modules were built with: kernel_facts checks
	# the matrix's facts against them.
	[ -f "$out/irqaio_features.h" ] && extras+=("$out/irqaio_features.h:/etc/irqaio/features.h")
	"$IRQAIO_TOP/qemu/mkinitramfs" --arch "$arch" "${busybox[@]}" "$out/initramfs.cpio.gz" \
		"$out/modules:/modules" "$tests:/tests" "${extras[@]}" "$@"
}
