# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The sourcing builder assigns name, fragments, make_args (see below).
# shellcheck disable=SC2154
# source-build.sh: what the source-row builders (qemu/build-patched-kernel,
# qemu/build-clang-kernel) share, sourced after lib/harness.sh. A builder says
# where its tree comes from and what its cache key hashes; everything from
# "tinyconfig + fragments" to the published entry happens here, once.
#
# The builder sets, before calling source_build_main:
#   name        entry name (kernels/NAME, build/NAME-KEY, build/NAME.lock)
#   fragments   config fragments, merged in order (later lines win)
#   make_args   extra make arguments (LLVM=-19), may be empty
#   cache_key   function: prints the 16-hex-digit key of the inputs
#   prepare_tree function: leaves the unpacked (and patched) source in $tree
#   describe    function: one line saying what is built (for the log)
# and gets $dir, $key, $build and $tree.
# Layout of the entry (qemu/fetch-kernel's): vmlinuz, kdir, release, key,
# make_args (one a line, only when there are any), ready (touched last).

jobs=${JOBS:-$(nproc)}

fragment_names() {
	local f names=()
	for f in "${fragments[@]}"; do
		names+=("$(basename "$f")")
	done
	echo "${names[*]}"
}

# wanted_options: the fragments' option lines, the last word on each symbol.
wanted_options() {
	cat "${fragments[@]}" | tac | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
		sym != "" && !(sym in seen) { seen[sym] = 1; print }
		{ sym = "" }' | tac
}

# verify_fragments CONFIG: every option the fragments want took effect.
verify_fragments() {
	local config=$1 line sym want got bad=0
	while read -r line; do
		case $line in
		CONFIG_*=*)
			sym=${line%%=*} want=${line#*=} ;;
		'# CONFIG_'*' is not set')
			sym=${line#'# '} sym=${sym%' is not set'} want=n ;;
		*) continue ;;
		esac
		got=$(sed -n -e "s/^$sym=//p" -e "s/^# $sym is not set\$/n/p" "$config")
		if [ "${got:-n}" != "$want" ]; then
			log "config: $sym wanted $want, got ${got:-unset}"
			bad=1
		fi
	done < <(wanted_options)
	return "$bad"
}

source_configure() {
	(
		cd "$tree"
		make "${make_args[@]}" tinyconfig
		scripts/kconfig/merge_config.sh -m .config "${fragments[@]}"
		make "${make_args[@]}" olddefconfig
	) >"$build/config.log" 2>&1 || { tail -n 20 "$build/config.log" >&2; return 1; }
	verify_fragments "$tree/.config" ||
		die "$build/config.log: the config fragments did not take effect (see the lines above); fix $(fragment_names)"
	log "config: all $(wanted_options | wc -l) options of $(fragment_names) took effect"
}

source_compile() {
	(cd "$tree" && make "${make_args[@]}" -j"$jobs" bzImage modules) >"$build/build.log" 2>&1 ||
		{ tail -n 40 "$build/build.log" >&2; return 1; }
	[ -f "$tree/arch/x86/boot/bzImage" ] || die "$build/build.log: no bzImage after the build"
	[ -f "$tree/Module.symvers" ] ||
		die "$build/build.log: no Module.symvers: out-of-tree modules could not build"
}

source_publish() {
	local release
	release=$(make -s -C "$tree" "${make_args[@]}" kernelrelease)
	rm -rf "$dir"
	mkdir -p "$dir"
	ln -sfn "$tree/arch/x86/boot/bzImage" "$dir/vmlinuz"
	ln -sfn "$tree" "$dir/kdir"
	echo "$release" >"$dir/release"
	[ ${#make_args[@]} -eq 0 ] || printf '%s\n' "${make_args[@]}" >"$dir/make_args"
	echo "$key" >"$dir/key"
	touch "$dir/ready"
}

# Other builds of this entry (older keys) only take disk space. Only
# NAME-KEY (16 hex digits) is this entry's: another entry's NAME-... is not.
remove_stale_builds() {
	local d base
	for d in "$IRQAIO_CACHE"/build/"$name"-*; do
		base=${d##*/}
		[[ ${base#"$name"-} =~ ^[0-9a-f]{16}$ ]] || continue
		[ -d "$d" ] && [ "$d" != "$build" ] && rm -rf "$d"
	done
	return 0
}

source_build_main() {
	local start f
	start=$(date +%s)
	for f in "${fragments[@]}"; do
		[ -f "$f" ] || die "$f: missing config fragment"
	done
	dir=$(kernel_dir "$name")

	# One build at a time: a second caller waits, then finds the cache warm.
	mkdir -p "$IRQAIO_CACHE/build"
	exec 9>"$IRQAIO_CACHE/build/$name.lock"
	if ! flock -n 9; then
		log "$name: another build is running; waiting for it"
		flock 9
	fi

	key=$(cache_key)
	build=$IRQAIO_CACHE/build/$name-$key
	tree=$build/linux

	if [ -f "$dir/ready" ] && [ "$(cat "$dir/key" 2>/dev/null)" = "$key" ] &&
		[ -f "$tree/arch/x86/boot/bzImage" ] && [ -f "$tree/Module.symvers" ]; then
		log "$name: cached build $key ($(cat "$dir/release")) is up to date"
		echo "$dir"
		return 0
	fi
	# Compiled but not published (stopped in between): publish it.
	if [ -f "$build/compiled" ] && [ -f "$tree/arch/x86/boot/bzImage" ] &&
		[ -f "$tree/Module.symvers" ]; then
		log "$name: build $key is complete; publishing it"
		source_publish
		echo "$dir"
		return 0
	fi

	log "$name: building key $key: $(describe), $(fragment_names), -j$jobs"
	rm -f "$dir/ready"
	export GIT_CEILING_DIRECTORIES=$IRQAIO_CACHE/build
	rm -rf "$build"
	mkdir -p "$tree"
	timed "unpacking the source" prepare_tree
	timed "configuring (tinyconfig + $(fragment_names))" source_configure ||
		die "$build/config.log: configuration failed"
	timed "compiling bzImage and modules (log: $build/build.log)" source_compile ||
		die "$build/build.log: kernel build failed"
	touch "$build/compiled"
	source_publish
	remove_stale_builds
	log "$name: $(cat "$dir/release") ready in $(( $(date +%s) - start )) s total"
	echo "$dir"
}
