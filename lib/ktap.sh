# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0
# lib/ktap.sh: the KTAP emitter of the shell tools and of the guest's test
# scripts (sourced; POSIX sh, as busybox runs it in the guest, where it is
# /lib/irqaio/ktap.sh; lib/ktap.py reads what they print), in the spirit of
# the kernel's
# tools/testing/selftests/kselftest/ktap_helpers.sh. Results are kept until
# ktap_end prints the document, version line and plan first, the plan
# counted from the results: no tool counts its tests by hand. A run that may
# be cut short (the guest's suite, a long mutant run) streams instead: it
# names its plan first, each result is printed as it comes, and ktap_end
# fails when the results did not match the plan.
#
#   ktap_begin [COMMENT]                 a new document; COMMENT goes under the plan
#   ktap_plan N [COMMENT]                a new streamed document: version line,
#                                        plan 1..N and COMMENT printed now
#   ktap_result OK NAME [DETAIL [LOG...]] OK 1 is "ok"; anything else "not ok",
#                                        with the last 15 lines of each LOG as
#                                        diagnostics
#   ktap_skip NAME REASON                "ok N NAME # SKIP REASON"
#   ktap_skip_all REASON                 a document of no tests, "1..0 # SKIP
#                                        REASON"; then exit 4, the guest's skip
#   ktap_diag TEXT                       a "# TEXT" line where it happens
#   ktap_nested OK NAME FILE             the KTAP document in FILE, indented as
#                                        NAME's subtests, then NAME's result
#   ktap_end                             print it all (streamed: the totals);
#                                        status 1 if anything failed or, streamed,
#                                        the results did not match the plan

ktap_begin() {
	KTAP_BUF=$(mktemp)
	KTAP_COMMENT=${1:-}
	KTAP_N=0 KTAP_FAILED=0 KTAP_SKIPPED=0 KTAP_PLAN=
}

ktap_plan() {
	KTAP_BUF='' KTAP_COMMENT=''
	KTAP_N=0 KTAP_FAILED=0 KTAP_SKIPPED=0 KTAP_PLAN=$1
	echo "KTAP version 1"
	echo "1..$1"
	[ -z "${2:-}" ] || echo "# $2"
}

# _ktap_put: standard input into the document, printed now when streamed.
_ktap_put() {
	if [ -n "$KTAP_PLAN" ]; then cat; else cat >>"$KTAP_BUF"; fi
}

ktap_diag() {
	printf '# %s\n' "$*" | _ktap_put
}

ktap_result() {
	_ktap_ok=$1 _ktap_name=$2 _ktap_detail=${3:-}
	if [ $# -ge 3 ]; then shift 3; else shift $#; fi
	KTAP_N=$((KTAP_N + 1))
	if [ "$_ktap_ok" = 1 ]; then
		printf 'ok %d %s%s\n' "$KTAP_N" "$_ktap_name" "${_ktap_detail:+ # $_ktap_detail}" | _ktap_put
		return 0
	fi
	KTAP_FAILED=$((KTAP_FAILED + 1))
	printf 'not ok %d %s%s\n' "$KTAP_N" "$_ktap_name" "${_ktap_detail:+ # $_ktap_detail}" | _ktap_put
	for _ktap_log in "$@"; do
		[ -f "$_ktap_log" ] || continue
		printf '# --- %s\n' "$_ktap_log"
		tail -n 15 "$_ktap_log" | sed 's/^/# /'
	done | _ktap_put
}

ktap_skip() {
	KTAP_N=$((KTAP_N + 1)) KTAP_SKIPPED=$((KTAP_SKIPPED + 1))
	printf 'ok %d %s # SKIP %s\n' "$KTAP_N" "$1" "$2" | _ktap_put
}

ktap_skip_all() {
	echo "KTAP version 1"
	echo "1..0 # SKIP $1"
}

ktap_nested() {
	sed 's/^/    /' "$3" | _ktap_put
	ktap_result "$1" "$2"
}

ktap_end() {
	if [ -z "$KTAP_PLAN" ]; then
		echo "KTAP version 1"
		echo "1..$KTAP_N"
		[ -z "$KTAP_COMMENT" ] || echo "# $KTAP_COMMENT"
		cat "$KTAP_BUF"
		rm -f "$KTAP_BUF"
	fi
	echo "# $((KTAP_N - KTAP_FAILED - KTAP_SKIPPED)) passed, $KTAP_FAILED failed, $KTAP_SKIPPED skipped"
	if [ -n "$KTAP_PLAN" ] && [ "$KTAP_N" -ne "$KTAP_PLAN" ]; then
		echo "# the plan said 1..$KTAP_PLAN, but $KTAP_N results came"
		return 1
	fi
	[ "$KTAP_FAILED" -eq 0 ]
}
