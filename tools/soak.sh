#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Boot and check every mode N times in a row. A run passes only when the
# summary (tools/ktap-summary.sh) passes its results: every declared case
# of every mode present and passed (or skipped), every verdict clean. Each
# case that failed or was missing in some runs is named FLAKY, in every
# run BROKEN; the last line is "K/N runs passed".
#
# usage: soak.sh [--harness PROGRAM] [--checks DIR] [--nice MODE=N] [--sched MODE=POLICY] N OUTDIR MODES -- HARNESS_OPTION...
#   --harness PROGRAM  what boots one mode (default qemu/harness.sh), run as
#                      "sh PROGRAM --mode MODE --out DIR HARNESS_OPTION...
#                      --sched POLICY" (the harness hands --sched to run.sh)
#   --checks DIR       a folder of on-target checks (default: the product's
#                      and the fixtures'); may be given more than once
#   --nice MODE=N      boot MODE at niceness N, as make check does
#                      (CHECK_ORDER); may be given once per mode
#   --sched MODE=POLICY  boot MODE with that host scheduling policy (the
#                      harness's --sched: batch or other), as make check does
# Exit status: 0 when every run passed, 1 otherwise.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
harness=$here/qemu/harness.sh
checks=
usage() {
	echo "usage: $0 [--harness PROGRAM] [--checks DIR] [--nice MODE=N] [--sched MODE=POLICY] N OUTDIR MODES -- HARNESS_OPTION..." >&2
	exit 1
}
while [ $# -gt 0 ]; do
	case $1 in
	--harness) harness=$2; shift 2 ;;
	--checks) checks="$checks --checks $2"; shift 2 ;;
	--nice)
		case $2 in
		[a-z0-9_]*=[0-9] | [a-z0-9_]*=[0-9][0-9]) ;;
		*) echo "Error: --nice $2: not MODE=N (N a niceness 0-19)" >&2; usage ;;
		esac
		eval "nice_${2%%=*}=\${2#*=}"
		shift 2
		;;
	--sched)
		case $2 in
		[a-z0-9_]*=batch | [a-z0-9_]*=other) ;;
		*) echo "Error: --sched $2: not MODE=batch or MODE=other" >&2; usage ;;
		esac
		eval "sched_${2%%=*}=\${2#*=}"
		shift 2
		;;
	-*) echo "Error: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
if [ $# -lt 4 ] || [ "$4" != -- ]; then usage; fi
n=$1 out=$2 modes=$3
shift 4
case $n in '' | *[!0-9]*) echo "Error: N must be a number, not '$n'" >&2; exit 1 ;; esac
for m in $modes; do
	case $m in *[!a-z0-9_]*) echo "Error: '$m' is not a boot mode name" >&2; exit 1 ;; esac
done
[ -n "$checks" ] || checks="--checks $here/rootfs/checks --checks $here/rootfs/fixtures/checks"
mkdir -p "$out"
: > "$out/cases"
good=0
i=1
while [ "$i" -le "$n" ]; do
	rm -rf "$out/run"
	mkdir -p "$out/run"
	# The modes of one run boot side by side, as in make check.
	for m in $modes; do
		niceness=0 sched=batch
		eval "niceness=\${nice_$m:-0} sched=\${sched_$m:-batch}"
		nice -n "$niceness" sh "$harness" --mode "$m" --out "$out/run" "$@" --sched "$sched" > "$out/run-$m.log" 2>&1 &
		eval "pid_$m=\$!"
	done
	files=
	for m in $modes; do
		eval "wait \"\$pid_$m\"" || true
		files="$files $m=$out/run/$m.ktap"
	done
	# shellcheck disable=SC2086 # one option or MODE=FILE per word
	if sh "$here/tools/ktap-summary.sh" $checks --cases "$out/run/cases" $files \
		> "$out/run/summary" 2>&1; then
		verdict=pass
		good=$((good + 1))
	else
		verdict=FAIL
		for m in $modes; do
			[ ! -f "$out/run/$m.log" ] || cp "$out/run/$m.log" "$out/failed-$i-$m.log"
		done
		sed 's/^/          /' "$out/run/summary"
	fi
	cat "$out/run/cases" >> "$out/cases"
	echo "  SOAK    run $i/$n: $verdict ($(tail -n 1 "$out/run/summary"))"
	i=$((i + 1))
done
# "MODE CASE pass|fail|skip|missing" of every run: a case that was not
# pass or skip in some runs is flaky, in all of them broken.
awk -v n="$n" '
	{ key = $1 " " $2; seen[key] = 1; if ($3 != "pass" && $3 != "skip") bad[key]++ }
	END {
		for (k in bad)
			printf "  %-8s %s: failed or missing in %d of %d runs\n", (bad[k] == n ? "BROKEN" : "FLAKY"), k, bad[k], n
	}' "$out/cases" | sort
echo "$good/$n runs passed (logs of failed runs in $out)"
[ "$good" -eq "$n" ]
