# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the maintainer tools in scripts/ (lint, convert,
# dkms-check). Sourced, not executed. Builds on qemu/lib.sh (cache location,
# timed steps, ensure_packages).

# shellcheck source=qemu/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../qemu/lib.sh"

# checkpatch.pl, spelling.txt and const_structs.checkpatch from Debian's
# kernel source (checkpatch finds its data files next to itself; --no-tree
# needs nothing else).
ensure_checkpatch() {
	local dir
	dir=$(source_extract checkpatch 2 '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch') || return 1
	export CHECKPATCH=$dir/checkpatch.pl
}

# copy_tree DEST: the checkout without .git and build outputs, so that
# builds never touch the shared checkout's objects or probe results.
copy_tree() {
	mkdir -p "$1"
	rsync -a --delete "${TREE_EXCLUDES[@]}" --exclude 'compat/generated/' "$IRQAIO_TOP/" "$1/"
}

# vendor_compat DEST: the files compat/MANIFEST lists, copied to DEST as a
# driver vendors them (modes kept: conftest.sh and kernel-cc run).
vendor_compat() {
	local pattern f
	while read -r pattern; do
		case $pattern in '' | '#'*) continue ;; esac
		for f in "$IRQAIO_TOP"/compat/$pattern; do
			[ -e "$f" ] || die "compat/MANIFEST: $pattern matches nothing in compat/"
			mkdir -p "$1/$(dirname "${f#"$IRQAIO_TOP"/compat/}")"
			cp -p "$f" "$1/${f#"$IRQAIO_TOP"/compat/}"
		done
	done <"$IRQAIO_TOP/compat/MANIFEST"
}

# suite_sources SUITE: an apt sources.list of SUITE with its updates and
# security fixes, as a user's machine has them, in the cache; prints its path.
suite_sources() {
	local f=$IRQAIO_CACHE/apt/suite-$1.sources.list
	mkdir -p "$IRQAIO_CACHE/apt"
	{
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $1 $1-updates main"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $1-security main"
	} >"$f"
	echo "$f"
}

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
