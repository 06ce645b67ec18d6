#!/bin/sh
# Count the top-level KTAP results of the given files and print one final
# line "N passed, N failed, N skipped". Exit 1 on any failure, or when no
# result was found at all (a run that checked nothing did not pass).
#
# usage: ktap-summary.sh FILE...
set -eu
pass=0 fail=0 skip=0
for f in "$@"; do
	[ -f "$f" ] || { echo "missing results: $f" >&2; fail=$((fail + 1)); continue; }
	p=$(grep -E '^ok [0-9]+ ' "$f" | grep -cv '# SKIP' || true)
	s=$(grep -cE '^ok [0-9]+ .*# SKIP' "$f" || true)
	n=$(grep -cE '^not ok [0-9]+ ' "$f" || true)
	grep -E '^not ok [0-9]+ ' "$f" | sed "s|^|  FAIL    $(basename "$f" .ktap): |" || true
	pass=$((pass + p)) skip=$((skip + s)) fail=$((fail + n))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ $((pass + skip)) -gt 0 ]
