#!/bin/sh
# Boot and check every mode N times in a row; report each case that failed
# in some runs (flaky) or in all of them, by name, and "K/N runs passed".
#
# usage: soak.sh N OUTDIR MODES -- harness options (kernel, initrd, dtb...)
set -eu
if [ $# -lt 4 ] || [ "$4" != -- ]; then
	echo "usage: $0 N OUTDIR MODES -- HARNESS_OPTION..." >&2
	exit 1
fi
n=$1 out=$2 modes=$3
shift 4
case $n in '' | *[!0-9]*) echo "Error: N must be a number, not '$n'" >&2; exit 1 ;; esac
for m in $modes; do
	case $m in *[!a-z0-9_]*) echo "Error: '$m' is not a boot mode name" >&2; exit 1 ;; esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
: > "$out/cases"
good=0
i=1
while [ "$i" -le "$n" ]; do
	ok=1
	# The modes of one run boot side by side, as in make check.
	for m in $modes; do
		sh "$here/qemu/harness.sh" --mode "$m" --out "$out/run" "$@" > "$out/run-$m.log" 2>&1 &
		eval "pid_$m=\$!"
	done
	for m in $modes; do
		mode_ok=1
		eval "wait \"\$pid_$m\"" || mode_ok=0
		# "mode case ok|fail" for every top-level result.
		sed -n -e "s/^ok [0-9]* \([^ ]*\).*/$m \1 ok/p" -e "s/^not ok [0-9]* \([^ ]*\).*/$m \1 fail/p" \
			"$out/run/$m.ktap" >> "$out/cases"
		[ $mode_ok -eq 1 ] || { ok=0; cp "$out/run/$m.log" "$out/failed-$i-$m.log"; }
	done
	[ $ok -eq 0 ] || good=$((good + 1))
	echo "  SOAK    run $i/$n: $([ $ok -eq 1 ] && echo pass || echo FAIL)"
	i=$((i + 1))
done
sort "$out/cases" | uniq -c | awk -v n="$n" '
	{ key = $2 " " $3; if ($4 == "fail") fails[key] = $1; seen[key] = 1 }
	END {
		for (k in seen) if (k in fails)
			printf "  %-8s %s: failed %d of %d runs\n", (fails[k] == n ? "BROKEN" : "FLAKY"), k, fails[k], n
	}' | sort
echo "$good/$n runs passed (logs of failed runs in $out)"
[ "$good" -eq "$n" ]
