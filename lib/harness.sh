# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# The one shell library of the tools: cache location, timed steps, package
# set-up, kernels of the matrix, private copies of the tree (qemu/,
# scripts/ and tests/ alike). It runs none of their programs: what drives
# the engine's programs is qemu/engine.sh, which sources this file.
# Sourced, not executed.

# The cache lives outside the repository; IRQAIO_CACHE overrides it.
IRQAIO_CACHE=${IRQAIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqaio-compat}
IRQAIO_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export IRQAIO_CACHE IRQAIO_TOP


# shellcheck source=lib/ktap.sh
. "$(dirname "${BASH_SOURCE[0]}")/ktap.sh"

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
	# make check's jobs run side by side: one apt-get at a time, and
	# what another job installed meanwhile is not installed again.
	mkdir -p "$IRQAIO_CACHE"
	(
		flock 7
		local still=()
		for p in "${missing[@]}"; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || still+=("$p")
		done
		[ ${#still[@]} -eq 0 ] || timed "installing ${still[*]}" install_packages "${still[@]}"
	) 7>"$IRQAIO_CACHE/.apt-install.lock"
}

install_packages() {
	# Another program's apt-get (not ours: ensure_packages holds a lock)
	# is waited for, not failed on.
	apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends "$@" >/dev/null ||
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

# The matrix (qemu/matrix.toml, read by lib/matrix.py): the kernels make
# check runs, in order. Read once: a script sourced again inside a kernel's
# chroot, which has no python3, inherits it. On a new machine python3 may be
# missing before anything else runs (found by qemu/fresh-machine).
MATRIX=$IRQAIO_TOP/lib/matrix.py
if [ -z "${IRQAIO_KERNELS_ALL:-}" ]; then
	command -v python3 >/dev/null || ensure_packages python3
	IRQAIO_KERNELS_ALL=$("$MATRIX" names) || exit 2
	IRQAIO_KERNEL_DEFAULT=$("$MATRIX" default) || exit 2
fi
export IRQAIO_KERNELS_ALL IRQAIO_KERNEL_DEFAULT MATRIX

# kernel_dir KERNEL: a matrix row's entry in the cache. A path names an
# entry itself: a kernel the cache holds that is no row (qemu/bench's
# nodebug builds), for the kernel_* functions and qemu/build-user-module.
kernel_dir() {
	case $1 in
	/*) echo "$1" ;;
	*) echo "$IRQAIO_CACHE/kernels/$1" ;;
	esac
}

# chroot_exec ROOT CMD...: run CMD in the Debian system at ROOT (a
# qemu/mkchroot chroot) in a private mount namespace, so nothing stays
# mounted afterwards: /proc (objtool reads the stack limit there), /dev,
# /sys, /tmp, and the checkout, the cache and the current directory at their own
# paths, so that every path means the same inside and outside.
chroot_exec() {
	local root=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- /bin/bash -euc '
		root=$1 cwd=$2
		shift 2
		mount -t proc proc "$root/proc"
		mount --rbind /dev "$root/dev"
		mount --rbind /sys "$root/sys"
		# IRQAIO_CHROOT_BARE: a system that must see nothing of this one
		# (qemu/fresh-machine) gets only the pseudo file systems.
		if [ -n "${IRQAIO_CHROOT_BARE:-}" ]; then
			exec chroot "$root" "$@"
		fi
		mount --bind /tmp "$root/tmp"
		for d in "$IRQAIO_TOP" "$IRQAIO_CACHE" "$cwd"; do
			case $d/ in "$root"/*) continue ;; esac
			[ -d "$d" ] || continue
			mkdir -p "$root$d"
			mount --bind "$d" "$root$d"
		done
		exec chroot "$root" /usr/bin/env \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			/bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
	' chroot_exec "$root" "$PWD" "$@"
}

# kernel_exec KERNEL CMD...: run CMD with the toolchain that builds modules
# for KERNEL: the chroot its entry names in "chroot", else this machine.
kernel_exec() {
	local root
	root=$(cat "$(kernel_dir "$1")/chroot" 2>/dev/null || true)
	shift
	if [ -n "$root" ]; then
		chroot_exec "$root" "$@"
	else
		"$@"
	fi
}

# kernel_build_kdir KERNEL KDIR: the tree path make -C needs for KERNEL.
# In a chroot that is the path inside it (/usr/src/...): Kbuild rewrites an
# output directory's Makefile when reached by another path.
kernel_build_kdir() {
	cat "$(kernel_dir "$1")/build_kdir" 2>/dev/null || echo "$2"
}

# kernel_arch DEBIAN_ARCH: the kernel's name for it (ARCH=).
kernel_arch() {
	case $1 in
	amd64) echo x86 ;;
	*) echo "$1" ;;
	esac
}

# kernel_make_args KERNEL: the toolchain arguments its modules need (LLVM=...).
kernel_make_args() {
	cat "$(kernel_dir "$1")/make_args" 2>/dev/null || true
}

# kernel_llvm K: the LLVM= of K's make arguments: "-N" for a kernel built
# with one LLVM's versioned tools (clang-N...), "1" for unversioned ones,
# nothing for gcc.
kernel_llvm() {
	kernel_make_args "$1" | sed -n 's/^LLVM=//p'
}

# kernel_llvm_bin K: for an LLVM=-N kernel, /usr/lib/llvm-N/bin: that LLVM's
# unversioned tools, which dkms calls (CC=clang LD=ld.lld) for a kernel
# built with clang; nothing for any other kernel.
kernel_llvm_bin() {
	local llvm
	llvm=$(kernel_llvm "$1")
	case $llvm in -[0-9]*) echo "/usr/lib/llvm$llvm/bin" ;; esac
}

# private_apt NAME: an apt state of its own for matrix row NAME, in
# $IRQAIO_CACHE/apt/NAME, with the row's architecture, suites and security
# suites (and its target release), updated from deb.debian.org now. The
# machine's own apt sources are not touched. Sets apt_dir (downloads go to
# apt_dir/debs), APT_OPTS, main_suites and sec_suites.
private_apt() {
	local name=$1
	mapfile -t main_suites < <("$MATRIX" get "$name" suites)
	mapfile -t sec_suites < <("$MATRIX" get "$name" security)
	apt_state "$IRQAIO_CACHE/apt/$name" "$("$MATRIX" get "$name" arch)" \
		"$("$MATRIX" get "$name" target)" "$name"
}

# apt_state DIR ARCH TARGET WHAT: the apt state in DIR for ARCH, of the
# suites in main_suites and sec_suites, TARGET its default release (or
# empty); WHAT names it in messages. Sets apt_dir and APT_OPTS.
apt_state() {
	local target=$3 what=$4 s arch=$2
	ensure_packages dpkg-dev debian-archive-keyring ca-certificates
	apt_dir=$1
	mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/debs"
	# One line per suite: apt wants "deb URI SUITE COMPONENT".
	{
		for s in "${main_suites[@]}"; do
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $s main"
		done
		for s in "${sec_suites[@]}"; do
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $s main"
		done
	} >"$apt_dir/sources.list"
	APT_OPTS=(-o "Dir::State=$apt_dir/state" -o "Dir::State::status=/dev/null"
		-o "Dir::Cache=$apt_dir/cache" -o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o "Dir::Etc::SourceParts=/dev/null" -o "Dir::Etc::Preferences=/dev/null"
		-o "Dir::Etc::PreferencesParts=/dev/null" -o Debug::NoLocking=1
		-o "APT::Architecture=$arch" -o "APT::Architectures::=$arch")
	# Another architecture's row also sees amd64: the kernel's kbuild
	# (Multi-Arch: foreign) runs on this machine.
	[ "$arch" = amd64 ] || APT_OPTS+=(-o "APT::Architectures::=amd64")
	# Backports are pinned below the release they extend; a row about them says so.
	[ -n "$target" ] && APT_OPTS+=(-o "APT::Default-Release=$target")
	timed "apt update for $what (${main_suites[*]} ${sec_suites[*]})" \
		apt-get "${APT_OPTS[@]}" -q update >"$apt_dir/update.log" 2>&1 ||
		die "$apt_dir/update.log: cannot reach Debian's registry (deb.debian.org) for $what; check the network and retry"
}

# guest_libs ARCH: the static libraries the guest programs link (libaio.a,
# liburing.a) and their headers for ARCH, from this machine's Debian
# release, unpacked once under $IRQAIO_CACHE/guest/ARCH/root; prints that
# root. (For amd64 they are this machine's own packages.)
guest_libs() {
	local arch=$1 root=$IRQAIO_CACHE/guest/$1 codename p
	if [ ! -f "$root/ready" ]; then
		codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
		main_suites=("$codename" "$codename-updates") sec_suites=("$codename-security")
		apt_state "$root/apt" "$arch" "" "the $arch guest programs"
		(cd "$apt_dir/debs" && rm -f ./*.deb &&
			apt-get "${APT_OPTS[@]}" -q download libaio-dev liburing-dev >"$apt_dir/download.log" 2>&1) ||
			die "$apt_dir/download.log: libaio-dev/liburing-dev for $arch could not be downloaded"
		rm -rf "$root/root"
		for p in "$apt_dir/debs/"*.deb; do
			dpkg-deb -x "$p" "$root/root"
		done
		echo ok >"$root/ready"
	fi
	echo "$root/root"
}

# apt_deps PKG PATTERN: the dependencies of PKG's candidate whose names
# match PATTERN (private_apt state).
apt_deps() {
	apt-cache "${APT_OPTS[@]}" depends "$1=$(apt_candidate "$1")" |
		awk -v pat="$2" '/^ *Depends:/ && $2 ~ pat { print $2 }' || true
}

# apt_candidate PKG: the version apt would take (private_apt state).
apt_candidate() {
	apt-cache "${APT_OPTS[@]}" policy "$1" | awk '/Candidate:/ { print $2; exit }'
}

# source_extract NAME STRIP PATTERN...: files of Debian's kernel source
# package (the source of the row whose role is "patched", whose tree the
# core patch and the host tools come from), extracted once per package version into
# $IRQAIO_CACHE/tools/NAME-VERSION (tar --strip-components=STRIP), which it
# prints. A half-done extraction is never published.
source_extract() {
	local name=$1 strip=$2 pkg tarball version dir tmp
	shift 2
	pkg=$("$MATRIX" get "$("$MATRIX" role patched)" source) || return 1
	ensure_packages "$pkg"
	tarball=$(dpkg -L "$pkg" | grep -m1 '^/usr/src/linux-source-.*\.tar\.xz$') ||
		die "$pkg: no /usr/src/linux-source-*.tar.xz in the package"
	version=$(dpkg-query -W -f='${Version}' "$pkg")
	dir=$IRQAIO_CACHE/tools/$name-$version
	if [ ! -e "$dir/.complete" ]; then
		mkdir -p "$IRQAIO_CACHE/tools"
		tmp=$(mktemp -d "$IRQAIO_CACHE/tools/.$name.XXXXXX")
		timed "extracting $name from $pkg $version" \
			tar -xJf "$tarball" -C "$tmp" --strip-components="$strip" --wildcards "$@" >&2 ||
			{ rm -rf "$tmp"; return 1; }
		touch "$tmp/.complete"
		rm -rf "$dir"
		mv -T "$tmp" "$dir"
	fi
	echo "$dir"
}

# Build outputs (in the checkout, ignored by git): per kernel under build/NAME.
BUILD=$IRQAIO_TOP/build

# build_userspace_tests ARCH: the guest programs in $BUILD/tests (amd64)
# or $BUILD/tests-ARCH, static, libaio.a and liburing.a linked in; for
# another architecture with the cross gcc its kernels are built with
# (fetch-kernel installed it) and that architecture's libraries.
build_userspace_tests() {
	local arch=$1 triplet root cc
	if [ "$arch" = amd64 ]; then
		ensure_packages libaio-dev liburing-dev
		make -s -C "$IRQAIO_TOP/tests/guest" OUT="$BUILD/tests"
		return
	fi
	triplet=$(dpkg-architecture -a "$arch" -q DEB_HOST_GNU_TYPE 2>/dev/null)
	cc=$(compgen -c "$triplet-gcc-" | grep -E -- "-gcc-[0-9]+$" | sort -t- -k5 -n | tail -n 1)
	[ -n "$cc" ] || die "no $triplet-gcc-N here: fetch one of the $arch kernels first (it installs it)"
	ensure_packages "libc6-dev-$arch-cross"
	root=$(guest_libs "$arch")
	# CFLAGS and LDFLAGS from the environment: the Makefile adds to them.
	CFLAGS="-O2 -g -I$root/usr/include" LDFLAGS="-L$root/usr/lib/$triplet" \
		make -s -C "$IRQAIO_TOP/tests/guest" OUT="$BUILD/tests-$arch" CC="$cc"
}

# What a private copy of a checkout leaves out: git's data, the harness's
# outputs, and what an in-tree "make" left (objects built for whichever
# kernel that was; probe results are kept, conftest.sh judges those).
TREE_EXCLUDES=(--exclude /build --exclude /.git --exclude /results
	--exclude '*.o' --exclude '*.ko' --exclude '.*.cmd')

# sign_modules KERNEL KDIR MODULE...: sign the modules with the key KERNEL's
# own build generated (certs/signing_key.pem, by CONFIG_MODULE_SIG_KEY's
# default), with the tree's scripts/sign-file and CONFIG_MODULE_SIG_HASH, as
# "make modules_install" would. A tree without that key (a distribution's
# headers: its key stays with the distribution) signs nothing; a kernel that
# forces signatures then refuses the modules, and says so at insmod.
sign_modules() {
	local k=$1 kdir=$2 hash m
	shift 2
	[ -f "$kdir/certs/signing_key.pem" ] && grep -q '^CONFIG_MODULE_SIG=y' "$kdir/.config" ||
		return 0
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kdir/.config")
	[ -n "$hash" ] || die "$kdir/.config: CONFIG_MODULE_SIG=y without CONFIG_MODULE_SIG_HASH"
	for m in "$@"; do
		kernel_exec "$k" "$kdir/scripts/sign-file" "$hash" "$kdir/certs/signing_key.pem" \
			"$kdir/certs/signing_key.x509" "$m" || die "$m: sign-file failed"
	done
}

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
