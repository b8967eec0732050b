#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# conftest.sh: decide the compat feature macros by compiling small probes
# (compat/probes/*.c) against the target tree, the way NVIDIA's conftest and
# OpenZFS's config/kernel-*.m4 do, and write them as a header.
#
#   conftest.sh --kdir KDIR --out FILE [-- VAR=VALUE...]
#                                         a real kernel tree: the tree's own
#                                         Kbuild compiles every probe with the
#                                         flags it uses for modules, and the
#                                         toolchain arguments given after --
#                                         (CC=, LLVM=, KCFLAGS=, and for another
#                                         architecture's tree ARCH= and
#                                         CROSS_COMPILE=: the ones the module
#                                         build gets); probes compiled for
#                                         another architecture than the
#                                         tree's fail the run
#   conftest.sh --model 'INCDIR...' --out FILE  the historical API model
#                                         (userspace, host gcc); see model/README.md
#   --probes DIR (before --, repeatable)  also the probes DIR/*.c: a driver's
#                                         own, for what its code needs beyond
#                                         the shim; one header for both
#   --cache DIR (before --)               keep each header in DIR under the
#                                         key of its inputs (this script, the
#                                         probes, the tree's release, config,
#                                         build version, exports and compiler)
#                                         and take it from there when they
#                                         recur: for harnesses and CI that
#                                         build from fresh checkouts;
#                                         IRQAIO_PROBE_CACHE in the
#                                         environment means the same, for a
#                                         driver's Makefile that does not
#                                         pass it (irqaio-matrix sets it)
#
# Each probe NAME.c that compiles defines IRQAIO_HAVE_<NAME>. A probe that
# says "probe: link" also defines IRQAIO_HAVE_<NAME>_EXPORTED when every
# symbol it needs is exported to modules (checked against Module.symvers: the
# tree's, or in the model the first include dir's, i.e. the world's), and
# IRQAIO_HAVE_<NAME>_GPL_ONLY when one of them is EXPORT_SYMBOL_GPL (said on
# stderr too: a module under another license cannot use that branch).
# probes/sanity.c must compile, or the run fails: a broken toolchain must not
# turn into "feature absent".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
mode="" target="" out="" cache=${IRQAIO_PROBE_CACHE:-}
toolchain=()
probe_dirs=("$here/probes")
while [ $# -gt 0 ]; do
	case $1 in
	--kdir) mode=kdir target=$2; shift 2 ;;
	--model) mode=model target=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--probes) probe_dirs+=("$2"); shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--) shift; toolchain=("$@"); break ;;
	-h|--help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "conftest.sh: unknown argument $1 (conftest.sh --help)" >&2; exit 2 ;;
	esac
done
if [ -z "$mode" ] || [ -z "$out" ]; then
	echo "usage: conftest.sh --kdir KDIR|--model 'INCDIR...' --out FILE [--probes DIR]... [--cache DIR] [-- VAR=VALUE...]" >&2
	exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kbuild_make ARGS...: the tree's Kbuild on $work, with the toolchain
# arguments and nothing inherited from an outer make (its W=1 would turn
# the probes' -Werror into false negatives; its -j jobserver is not ours).
kbuild_make() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -C "$target" M="$work" "${toolchain[@]}" "$@"
}

# compiler_identity: the compiler and flags Kbuild would use for modules.
# (Kbuild reads $work/Kbuild only for a target in $work: an empty object.)
compiler_identity() {
	{
		# shellcheck disable=SC2016 # make syntax, for Kbuild
		echo '$(info irqaio-cc: $(CC) $(shell $(CC) --version 2>&1 | head -n 1))'
		echo 'obj-m := irqaio_cc_id.o'
	} >"$work/Kbuild"
	: >"$work/irqaio_cc_id.c"
	kbuild_make -s irqaio_cc_id.o 2>/dev/null | sed -n 's/^irqaio-cc: //p' || true
	rm -f "$work"/Kbuild "$work"/irqaio_cc_id.* "$work"/.irqaio_cc_id.*
}

# Every probe, the shim's and the driver's, in one directory.
for d in "${probe_dirs[@]}"; do
	for f in "$d"/*.c; do
		if [ ! -f "$f" ]; then
			echo "conftest.sh: --probes $d: no probe (*.c) there; put NAME.c probes in it or leave it out" >&2
			exit 2
		fi
		# One macro per name: a driver's probe may not shadow another.
		if [ -e "$work/${f##*/}" ]; then
			echo "$f:1: a probe named ${f##*/} is already in ${probe_dirs[0]} or an earlier" \
				"--probes directory; rename it (its name is its macro)" >&2
			exit 2
		fi
		cp "$f" "$work/"
	done
done

# Skip the probes when neither the tree, its exports, the toolchain nor the
# probes changed since $out.
key_src=$(
	cat "$0"
	for f in "$work"/*.c; do
		echo "probe ${f##*/}"
		cat "$f"
	done
	echo "$mode $target ${toolchain[*]}"
	if [ "$mode" = kdir ]; then
		# compile.h (utsversion.h from 6.2) names the build: a tree
		# rebuilt from changed sources with the same release and
		# exports is another tree.
		cat "$target/include/generated/utsrelease.h" "$target/include/generated/autoconf.h" \
			"$target/include/generated/compile.h" "$target/include/generated/utsversion.h" \
			"$target/Module.symvers" 2>/dev/null || true
		compiler_identity
	else
		# shellcheck disable=SC2086 # a list of include dirs
		find $target \( -name '*.h' -o -name Module.symvers \) -exec cat {} + 2>/dev/null || true
	fi
)
key=$(printf '%s' "$key_src" | sha256sum | cut -c1-16)
if [ -f "$out" ] && grep -q "inputs $key " "$out"; then
	exit 0
fi

# gpl_note HEADER: say which branches only GPL-compatible modules can use.
gpl_note() {
	local notes
	notes=$(sed -n 's|^#define IRQAIO_HAVE_\(.*\)_GPL_ONLY 1 /\* EXPORT_SYMBOL_GPL: \(.*\) \*/$|\L\1\E (\2)|p' "$1" |
		paste -sd, - | sed 's/,/, /g')
	[ -z "$notes" ] ||
		echo "conftest.sh: note: exported to GPL-compatible modules only (a module under another license cannot use these branches): $notes" >&2
}

# install_out FILE: FILE's copy, renamed over $out: two builds may probe for
# the same output at once, and neither may see the other's half-written one.
install_out() {
	mkdir -p "$(dirname "$out")"
	cp "$1" "$out.tmp.$$"
	mv -f "$out.tmp.$$" "$out"
}

if [ -n "$cache" ] && [ -f "$cache/$key.h" ]; then
	install_out "$cache/$key.h"
	gpl_note "$out"
	exit 0
fi

probes=$(cd "$work" && find . -maxdepth 1 -name '*.c' | sed 's|^\./||; s|\.c$||' | sort)

compile_all() {
	local p
	if [ "$mode" = kdir ]; then
		# A prototype mismatch is only a warning in C: these make it fail
		# the probe. Not a blanket -Werror: any other warning (a newer
		# compiler's in a kernel header, a user's KCFLAGS) would fail the
		# sanity probe and stop a user's build. clang
		# names the function pointer case apart.
		{
			echo "ccflags-y := -Werror=incompatible-pointer-types -Werror=implicit-function-declaration"
			echo "ccflags-y += -Werror=int-conversion -Werror=return-type"
			# shellcheck disable=SC2016 # a make expression, for Kbuild
			echo 'ccflags-y += $(call cc-option,-Werror=incompatible-function-pointer-types)'
			for p in $probes; do echo "obj-m += $p.o"; done
		} >"$work/Kbuild"
		# -k: a probe that fails to compile is an answer, not an error.
		# shellcheck disable=SC2046
		kbuild_make -k -j"$(nproc)" $(for p in $probes; do echo "$p.o"; done) \
			>"$work/build.log" 2>&1 || true
	else
		for p in $probes; do
			# shellcheck disable=SC2046 # $target is a list of include dirs
			gcc -std=gnu11 -Werror -Wall -Wno-unused-function -c -nostdinc \
				-isystem "$(gcc -print-file-name=include)" \
				$(for d in $target; do echo "-I$d"; done) \
				-o "$work/$p.o" "$work/$p.c" >>"$work/build.log" 2>&1 || true
		done
	fi
}

# exported PROBE: every symbol the probe object needs is available to modules.
exported() {
	local sym d symvers=$target/Module.symvers
	if [ "$mode" = model ]; then
		# A model world lists what it exports in its own Module.symvers
		# (model/worlds/NAME/), so the model decides exports the same way
		# as a real tree; a world without one exports nothing.
		symvers=/nonexistent
		for d in $target; do
			if [ -f "$d/Module.symvers" ]; then
				symvers=$d/Module.symvers
				break
			fi
		done
	fi
	[ -f "$symvers" ] || return 1
	gpl_only=
	for sym in $(nm -u "$work/$1.o" | awk '{ print $2 }'); do
		awk -v s="$sym" '$2 == s { found = 1 } END { exit !found }' "$symvers" || return 1
		# Exported to GPL-compatible modules only: a driver under another
		# license cannot link it, and is told so here, not by modpost.
		if awk -v s="$sym" '$2 == s && $4 ~ /_GPL$/ { found = 1 } END { exit !found }' "$symvers"; then
			gpl_only+=${gpl_only:+ }$sym
		fi
	done
}

# A distribution's headers tree seen from outside its own system (a chroot's
# /usr/src from the host) includes files at paths that exist only there:
# say so instead of letting every probe fail.
if [ "$mode" = kdir ] && [ -f "$target/Makefile" ]; then
	while IFS=: read -r line inc; do
		[ -e "$inc" ] && continue
		echo "$target/Makefile:$line: includes $inc, which does not exist here: the tree belongs" \
			"to another system (a chroot or container of the kernel's release); build there, with" \
			"KDIR set to the tree's path inside it" >&2
		exit 1
	done < <(grep -n '^include /[^ ]*$' "$target/Makefile" | sed 's/:include /:/')
fi

compile_all
if [ ! -f "$work/sanity.o" ]; then
	echo "conftest.sh: the sanity probe did not compile against $target;" >&2
	echo "the toolchain or tree is broken, so no feature can be decided:" >&2
	# The first errors say why; make -k ends with a line per probe.
	# (head ends grep early: not a second failure.)
	grep -v 'not remade because of errors' "$work/build.log" | head -n 30 >&2 || true
	exit 1
fi

# The probes must be objects for the tree's architecture: a tree of
# another one's (arm64 headers) compiled by this machine's compiler would
# make every probe an answer about the wrong target. Without ARCH= and
# CROSS_COMPILE= after "--", Kbuild uses the host's.
if [ "$mode" = kdir ]; then
	want=
	grep -q '^#define CONFIG_X86_64 1' "$target/include/generated/autoconf.h" 2>/dev/null &&
		want="62 x86_64"
	grep -q '^#define CONFIG_ARM64 1' "$target/include/generated/autoconf.h" 2>/dev/null &&
		want="183 arm64"
	got=$(od -An -tu2 --endian=little -j18 -N2 "$work/sanity.o" | tr -d ' ')
	if [ -n "$want" ] && [ "$got" != "${want%% *}" ]; then
		echo "conftest.sh: $target is an ${want#* } tree, but the probes were compiled" \
			"for ELF machine $got: pass the target's toolchain after --" \
			"(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-), as its module build gets it" >&2
		exit 1
	fi
fi

release=model
[ "$mode" = kdir ] && release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$target/include/generated/utsrelease.h" 2>/dev/null)

{
	echo "/* SPDX-License-Identifier: GPL-2.0 */"
	echo "/* Generated by compat/conftest.sh from compile probes; do not edit. */"
	echo "#ifndef IRQAIO_FEATURES_H"
	echo "#define IRQAIO_FEATURES_H"
	echo "/* inputs $key (probes + tree) */"
	echo "#define IRQAIO_FEATURES_RELEASE \"$release\""
	for p in $probes; do
		[ "$p" = sanity ] && continue
		macro=IRQAIO_HAVE_$(echo "$p" | tr '[:lower:]' '[:upper:]')
		if [ -f "$work/$p.o" ]; then
			echo "#define $macro 1"
			if grep -q 'probe: link' "$work/$p.c"; then
				if exported "$p"; then
					echo "#define ${macro}_EXPORTED 1"
					if [ -n "$gpl_only" ]; then
						echo "#define ${macro}_GPL_ONLY 1 /* EXPORT_SYMBOL_GPL: $gpl_only */"
					fi
				else
					echo "/* ${macro}_EXPORTED: not exported to modules */"
				fi
			fi
		else
			echo "/* $macro: probe did not compile */"
		fi
	done
	echo "#endif /* IRQAIO_FEATURES_H */"
} >"$work/irqaio_features.h"
install_out "$work/irqaio_features.h"
if [ -n "$cache" ]; then
	mkdir -p "$cache"
	cp "$out" "$cache/$key.h.tmp.$$"
	mv -f "$cache/$key.h.tmp.$$" "$cache/$key.h"
fi
gpl_note "$out"
