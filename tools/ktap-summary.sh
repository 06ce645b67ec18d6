#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The verdict of a check run, decided in this one place: each KTAP file is
# held against the cases the check files declare for its mode
# (common/ktap.sh): every declared case must appear exactly once, in a plan
# that counts them all, numbered in order; a case that is missing, doubled
# or not declared is named. A boot mode's file ends with the harness's own
# case, harness_verdict. Prints a FAIL or ERROR line for each problem and
# one final line "N passed, N failed, N skipped", where a missing case or
# file counts as failed.
#
# usage: ktap-summary.sh [--cases FILE] [--checks DIR]... [--host-checks DIR] MODE=FILE...
#   --checks DIR       on-target checks (NN-name.sh), for the boot modes
#                      (the product's and the fixtures' folders)
#   --host-checks DIR  host-side checks, for the host modes ("host", "lava":
#                      KTAP_HOST_MODES of common/ktap.sh)
#   --cases FILE       also write "MODE NAME pass|fail|skip|missing" a line
# Exit status: 0 all passed or skipped; 1 a check failed; 2 the rig failed
# (a file, a case or the plan missing or wrong, a result "# ERROR": what
# tuxrun and KCIDB call ERROR, against FAIL); 2 also when nothing ran.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../common/ktap.sh
. "$here/common/ktap.sh"

usage() {
	echo "usage: $0 [--cases FILE] [--checks DIR]... [--host-checks DIR] MODE=FILE..." >&2
	exit 2
}
checks='' host_checks='' cases_out=''
while [ $# -gt 0 ]; do
	case $1 in
	--checks) checks="$checks $2"; shift 2 ;;
	--host-checks) host_checks=$2; shift 2 ;;
	--cases) cases_out=$2; shift 2 ;;
	-*) echo "Error: unknown option $1" >&2; usage ;;
	*=*) break ;;
	*) echo "Error: '$1' is not MODE=FILE" >&2; usage ;;
	esac
done
[ $# -gt 0 ] || usage
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -z "$cases_out" ] || : > "$cases_out"

pass=0 fail=0 skip=0 error=0
for arg in "$@"; do
	mode=${arg%%=*} file=${arg#*=}
	# The cases this mode must report, in order.
	case " $KTAP_MODES " in *" $mode "*) ;; *) echo "Error: unknown mode $mode ($KTAP_MODES)" >&2; usage ;; esac
	case " $KTAP_HOST_MODES " in *" $mode "*) onhost=1 ;; *) onhost='' ;; esac
	if [ -n "$onhost" ]; then
		[ -n "$host_checks" ] || { echo "Error: mode $mode needs --host-checks" >&2; usage; }
		ktap_cases "$mode" "$host_checks"/*.sh > "$tmp/declared"
	else
		[ -n "$checks" ] || { echo "Error: mode $mode needs --checks" >&2; usage; }
		set --
		for d in $checks; do set -- "$@" "$d"/*.sh; done
		ktap_cases "$mode" "$@" > "$tmp/declared"
		echo "harness_verdict harness" >> "$tmp/declared"
	fi
	absent='' input=$file
	[ -f "$file" ] || absent=1 input=/dev/null
	awk -v mode="$mode" -v file="$file" -v absent="$absent" \
		-v declared="$tmp/declared" -v cases="${cases_out:-/dev/null}" '
	# A problem; one that is no case of its own also counts as a failure.
	function err(msg) { printf "  ERROR   %s: %s\n", mode, msg; errors++ }
	function bad(msg) { err(msg); extra++ }
	BEGIN {
		while ((getline l < declared) > 0) {
			split(l, w, " ")
			if (w[1] == "!") { bad(substr(l, 3)); continue }
			want[w[1]] = 1
			order[nwant++] = w[1]
		}
		if (absent) err("no results: " file " is missing (each of its " nwant " cases counted as failed)")
	}
	/^1\.\.[0-9]+$/ { plans++; plan = substr($0, 4) + 0; next }
	/^(not )?ok [0-9]+ / {
		notok = ($1 == "not")
		num = $(2 + notok) + 0
		name = $(3 + notok)
		results++
		if (num != results)
			bad("result " results " is numbered " num)
		directive = ""
		if (match($0, / # [A-Z]+/))
			directive = substr($0, RSTART + 3, RLENGTH - 3)
		if (!(name in want)) {
			bad("case " name " was not declared for mode " mode ": " $0)
			next
		}
		if (name in got) {
			bad("case " name " reported twice")
			next
		}
		if (notok) {
			got[name] = "fail"
			if (directive == "ERROR")
				err($0)
			else
				printf "  FAIL    %s: %s\n", mode, $0
		} else if (directive == "SKIP")
			got[name] = "skip"
		else
			got[name] = "pass"
	}
	END {
		if (!absent) {
			if (plans != 1)
				bad(plans + 0 " plan lines (1..N) in " file)
			else if (plan != results)
				bad("plan 1.." plan " but " results + 0 " results in " file)
		}
		for (i = 0; i < nwant; i++) {
			k = order[i]
			if (!(k in got)) {
				if (!absent)
					err("case " k " is missing")
				got[k] = "missing"
			}
			print mode, k, got[k] >> cases
			if (got[k] == "pass") p++
			else if (got[k] == "skip") s++
			else f++
		}
		printf "counts %d %d %d %d\n", p, f + extra, s, errors
	}' "$input" > "$tmp/out"
	grep -v '^counts ' "$tmp/out" || true
	# shellcheck disable=SC2046 # four numbers
	set -- $(sed -n 's/^counts //p' "$tmp/out")
	pass=$((pass + $1)) fail=$((fail + $2)) skip=$((skip + $3)) error=$((error + $4))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$error" -eq 0 ] || exit 2
[ $((pass + skip)) -gt 0 ] || exit 2
[ "$fail" -eq 0 ] || exit 1
