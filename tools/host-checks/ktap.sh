#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: ktap_counting host
# inputs: $TOP/tools/ktap-summary.sh $TOP/tools/soak.sh
#
# ktap_counting: the counting of a check run cannot report a pass it did
# not see. Fixture results for two boot modes and the host run, against
# fixture check files: the good set passes tools/ktap-summary.sh (exit 0,
# every case counted); each fault alone makes it fail, naming it, with the
# exit status of its kind (1 a check failed, 2 the rig failed):
#   a plan that does not count the results, a declared case missing, a case
#   reported twice, a case no check declares, results out of order, a
#   missing mode file (each of its cases counted failed), a header that does
#   not parse, "not ok" with a clean harness_verdict (1), the harness's
#   "# ERROR" (2); a skip counts as skipped, never as passed. A host mode
#   of its own (make lava's "lava") is counted against its host cases
#   only: neither "*" nor mode host's cases belong to it.
# The check runner itself (common/run-checks) reports a header it cannot
# parse and a case asked for that nobody declares as "not ok ... # ERROR";
# its cache of host checks reuses only a pass whose inputs are unchanged.
# And tools/soak.sh, with a stand-in harness writing the fixtures, counts a
# run as passed only when the summary passes it: FLAKY and BROKEN name the
# case that failed.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

summary=$TOP/tools/ktap-summary.sh
work=$OUT/ktap-selftest
rm -rf "$work"
mkdir -p "$work/checks" "$work/host-checks"

# Fixture checks: alpha in dt, beta in dt and acpi, gamma in every boot mode.
printf '#!/bin/sh\n# case: alpha dt\n# case: beta dt,acpi\n' > "$work/checks/10-one.sh"
printf '#!/bin/sh\n# case: gamma *\n# case: never -\n' > "$work/checks/20-two.sh"
printf '#!/bin/sh\n# case: h_one host\n' > "$work/host-checks/10-host.sh"
printf '#!/bin/sh\n# case: l_one lava\nexit 0\n' > "$work/host-checks/20-lava.sh"

# good DIR: the fixture results of a clean run.
good() {
	mkdir -p "$1"
	printf 'KTAP version 1\n1..4\nok 1 alpha\nok 2 beta\n# a diagnostic\nok 3 gamma # SKIP not here\nok 4 harness_verdict\n' > "$1/dt.ktap"
	printf 'KTAP version 1\n1..3\nok 1 beta\nok 2 gamma\nok 3 harness_verdict\n' > "$1/acpi.ktap"
	printf 'KTAP version 1\n1..1\nok 1 h_one\n' > "$1/host.ktap"
}

# run DIR: the summary of DIR's results; sets rc, out in $work/out.
run() {
	rc=0
	sh "$summary" --checks "$work/checks" --host-checks "$work/host-checks" \
		host="$1/host.ktap" dt="$1/dt.ktap" acpi="$1/acpi.ktap" > "$work/out" 2>&1 || rc=$?
}

good "$work/good"
run "$work/good"
cat "$work/out"
[ $rc -eq 0 ] || fail "the good results did not pass (exit $rc)"
grep -qx '7 passed, 0 failed, 1 skipped' "$work/out" || fail "the good results are not counted 7 passed, 1 skipped"

# fault NAME WANT_RC ERE SED_EXPR FILE: FILE of a copy of the good set
# changed by SED_EXPR ("rm" removes it) must fail with WANT_RC and say ERE.
fault() {
	d=$work/$1
	good "$d"
	if [ "$4" = rm ]; then rm "$d/$5"; else sed -i -e "$4" "$d/$5"; fi
	run "$d"
	echo "$1: exit $rc: $(grep -E 'FAIL|ERROR' "$work/out" | head -n 2 | tr '\n' ' ')$(tail -n 1 "$work/out")"
	[ $rc -eq "$2" ] || fail "$1: the summary exited $rc, not $2"
	grep -Eq -- "$3" "$work/out" || fail "$1: the summary did not say '$3'"
	grep -Eq '^[0-9]+ passed, [1-9][0-9]* failed, [0-9]+ skipped$' "$work/out" || fail "$1: no failure counted"
}
fault plan_mismatch 2 'ERROR   dt: plan 1\.\.5 but 4 results' 's/^1\.\.4$/1..5/' dt.ktap
fault case_missing 2 'ERROR   dt: case beta is missing' '/^ok 2 beta$/d; s/^1\.\.4$/1..3/; s/^ok 3 gamma/ok 2 gamma/; s/^ok 4 harness/ok 3 harness/' dt.ktap
fault case_twice 2 'ERROR   acpi: case beta reported twice' 's/^1\.\.3$/1..4/; s/^ok 3 harness_verdict$/ok 3 beta\nok 4 harness_verdict/' acpi.ktap
fault case_undeclared 2 'ERROR   acpi: case alpha was not declared for mode acpi' 's/^1\.\.3$/1..4/; s/^ok 3 harness_verdict$/ok 3 alpha\nok 4 harness_verdict/' acpi.ktap
fault out_of_order 2 'ERROR   dt: result 2 is numbered 3' 's/^ok 2 beta$/ok 3 beta/; s/^ok 3 gamma/ok 2 gamma/' dt.ktap
fault file_missing 2 'ERROR   acpi: no results: .* is missing' rm acpi.ktap
fault host_missing 2 'ERROR   host: case h_one is missing' 's/^ok 1 h_one$//; s/^1\.\.1$/1..0/' host.ktap
fault not_ok_clean_harness 1 'FAIL    dt: not ok 1 alpha' 's/^ok 1 alpha$/not ok 1 alpha/' dt.ktap
fault harness_error 2 'ERROR   dt: not ok 4 harness_verdict # ERROR timeout' 's/^ok 4 harness_verdict$/not ok 4 harness_verdict # ERROR timeout: QEMU still running/' dt.ktap
grep -qx '5 passed, 0 failed, 1 skipped' "$work/out" && fail "file_missing: acpi's cases were not counted as failed"
# A skip is a skip: the good set with one more skip counts it so.
good "$work/skips"
sed -i 's/^ok 1 beta$/ok 1 beta # SKIP no device/' "$work/skips/acpi.ktap"
run "$work/skips"
grep -qx '6 passed, 0 failed, 2 skipped' "$work/out" || fail "a skip was not counted as skipped: $(tail -n 1 "$work/out")"

# Mode lava: its one case, from the host checks; mode host's is not its own.
lava() {
	printf 'KTAP version 1\n%s\n' "$1" > "$work/lava.ktap"
	rc=0
	sh "$summary" --checks "$work/checks" --host-checks "$work/host-checks" lava="$work/lava.ktap" \
		> "$work/out" 2>&1 || rc=$?
	echo "lava mode, $(echo "$1" | tr "\n" " "): exit $rc: $(grep ERROR "$work/out" | head -n 1 | tr "\n" " ")$(tail -n 1 "$work/out")"
}
# want RC ERE WHY: the summary exited RC and said ERE, else fail WHY.
want() {
	[ $rc -eq "$1" ] || fail "$3 (exit $rc)"
	grep -Eq -- "$2" "$work/out" || fail "$3"
}
lava "$(printf '1..1\nok 1 l_one')"
want 0 '^1 passed, 0 failed, 0 skipped$' "mode lava: its case was not counted"
lava "$(printf '1..2\nok 1 l_one\nok 2 h_one')"
want 2 'ERROR   lava: case h_one was not declared for mode lava' "mode lava: a host case was taken as one of its own"
lava "$(printf '1..0')"
want 2 'ERROR   lava: case l_one is missing' "mode lava: its missing case was not named"
sh "$NSBSP_COMMON/run-checks" --host "$work/host-checks" --mode lava > "$work/runner.out" 2>&1 || fail "run-checks --mode lava failed"
[ "$(grep -c '^ok ' "$work/runner.out")" -eq 1 ] || fail "run-checks --mode lava ran more than its case"
grep -qx 'ok 1 l_one' "$work/runner.out" || fail "run-checks --mode lava did not run l_one: $(tr '\n' ' ' < "$work/runner.out")"

# A header that does not parse is an error, for the summary and the runner.
good "$work/header"
cp -R "$work/checks" "$work/checks.good"
printf '#!/bin/sh\n# case: alpha dt\n# case: beta dt,acpi extra words\n' > "$work/checks/10-one.sh"
run "$work/header"
echo "bad header: exit $rc: $(grep ERROR "$work/out" | head -n 1)"
[ $rc -eq 2 ] || fail "the summary took a header it cannot parse (exit $rc)"
grep -q 'ERROR   .*10-one.sh:3: unparseable case header' "$work/out" || fail "the summary did not name the bad header"
# shellcheck disable=SC2016 # $1 is the fixture check's
printf '#!/bin/sh\n# case: alpha host\n# case: beta host extra\n[ "$1" = alpha ]\n' > "$work/host-checks/10-host.sh"
sh "$NSBSP_COMMON/run-checks" --host "$work/host-checks" > "$work/runner.out" 2>&1 || fail "run-checks failed"
cat "$work/runner.out"
grep -Eq '^not ok [0-9]+ 10-host\.sh:3 # ERROR unparseable case header' "$work/runner.out" ||
	fail "run-checks did not report the header it cannot parse"
grep -qx 'ok 1 alpha' "$work/runner.out" || fail "run-checks did not run the good case beside the bad header"
grep -qx '1\.\.2' "$work/runner.out" || fail "run-checks' plan does not count the bad header"
sh "$NSBSP_COMMON/run-checks" --host "$work/host-checks" alpha no_such_case > "$work/runner.out" 2>&1 || fail "run-checks failed"
cat "$work/runner.out"
grep -qx 'not ok 3 no_such_case # ERROR no check declares a case no_such_case' "$work/runner.out" ||
	fail "run-checks did not report a case asked for that no check declares"
rm -rf "$work/checks"
mv "$work/checks.good" "$work/checks"

# The runner's cache of host checks (NSBSP_CHECK_CACHE): a pass with the
# same inputs is reused, a changed input runs the case again, a failure is
# never reused.
mkdir -p "$work/cache-checks"
printf '#!/bin/sh\n# case: c_one host\n# inputs: %s\necho ran >> %s\ngrep -q pass %s\n' \
	"$work/cache-input" "$work/cache-runs" "$work/cache-input" > "$work/cache-checks/10-c.sh"
# cached INPUT RESULT RAN WHAT [keep-mtime]: with INPUT, the runner
# reports RESULT (ok, not ok) and ran the case (yes) or reused a pass (no).
# keep-mtime writes INPUT in place and sets its modification time back:
# the runner keeps each input's hash beside its stat, and only the change
# time then tells the file was written.
cached() {
	touch -r "$work/cache-input" "$work/cache-mtime" 2> /dev/null || :
	echo "$1" > "$work/cache-input"
	[ "${5-}" != keep-mtime ] || touch -r "$work/cache-mtime" "$work/cache-input"
	: > "$work/cache-runs"
	NSBSP_CHECK_CACHE=$work/cache sh "$NSBSP_COMMON/run-checks" --host "$work/cache-checks" \
		> "$work/runner.out" 2>&1 || fail "run-checks failed"
	grep -qx "$2 1 c_one" "$work/runner.out" || fail "cache, $4: want '$2 1 c_one': $(tr '\n' ' ' < "$work/runner.out")"
	ran=no
	[ ! -s "$work/cache-runs" ] || ran=yes
	[ "$ran" = "$3" ] || fail "cache, $4: the case ran: $ran, want $3"
	echo "cache, $4: $2, ran: $ran"
}
cached pass ok yes "first run"
cached pass ok no "same inputs"
cached "pass again" ok yes "an input changed"
cached "pass agaim" ok yes "an input changed, same size and time" keep-mtime
cached fail "not ok" yes "a failure"
cached fail "not ok" yes "the same failure again"

# Soak: a stand-in harness writes the good results, with one case failing
# in the runs $SOAK_FAIL_RUNS names; soak must count those runs as failed.
cat > "$work/fake-harness.sh" <<'FAKE'
#!/bin/sh
# usage: fake-harness.sh --mode MODE --out DIR (the fixtures of one mode)
mode=$2 out=$4
n=$(($(cat "$out/../count.$mode" 2>/dev/null || echo 0) + 1))
echo "$n" > "$out/../count.$mode"
nice > "$out/../nice.$mode"
# the last two arguments: the real harness takes its own options first
# and hands the rest, --sched among them, to run.sh
eval "echo \"\${$(($# - 1))} \${$#}\"" > "$out/../sched.$mode"
case $mode in
dt)
	a='ok 1 alpha'
	case " $SOAK_FAIL_RUNS " in *" $n "*) a='not ok 1 alpha' ;; esac
	printf 'KTAP version 1\n1..4\n%s\nok 2 beta\nok 3 gamma\nok 4 harness_verdict\n' "$a" > "$out/dt.ktap"
	;;
acpi) printf 'KTAP version 1\n1..3\nok 1 beta\nok 2 gamma\nok 3 harness_verdict\n' > "$out/acpi.ktap" ;;
esac
FAKE
# soak RUNS FAIL_RUNS WANT_RC: soak over the fake harness.
soak() {
	rm -rf "$work/soak"
	rc=0
	SOAK_FAIL_RUNS=$2 sh "$TOP/tools/soak.sh" --harness "$work/fake-harness.sh" --checks "$work/checks" \
		"$1" "$work/soak" "dt acpi" -- > "$work/soak.out" 2>&1 || rc=$?
	echo "soak $1 runs, alpha failing in runs '$2': exit $rc: $(grep -E 'FLAKY|BROKEN' "$work/soak.out" | tr '\n' ' ')$(tail -n 1 "$work/soak.out")"
	[ $rc -eq "$3" ] || { cat "$work/soak.out"; fail "soak exited $rc, not $3"; }
}
export SOAK_FAIL_RUNS
soak 2 "" 0
grep -q '^2/2 runs passed' "$work/soak.out" || fail "soak: clean runs not counted as passed"
soak 2 "1 2" 1
grep -q '^0/2 runs passed' "$work/soak.out" || fail "soak: runs with a failing case counted as passed"
grep -q 'BROKEN   dt alpha: failed or missing in 2 of 2 runs' "$work/soak.out" || fail "soak: the broken case is not named"
soak 3 "2" 1
grep -q '^2/3 runs passed' "$work/soak.out" || fail "soak: a run with a failing case counted as passed"
grep -q 'FLAKY    dt alpha: failed or missing in 1 of 3 runs' "$work/soak.out" || fail "soak: the flaky case is not named"
# make soak boots each mode at make check's niceness (--nice MODE=N).
base=$(nice)
rm -rf "$work/soak"
sh "$TOP/tools/soak.sh" --harness "$work/fake-harness.sh" --checks "$work/checks" --nice acpi=4 \
	1 "$work/soak" "dt acpi" -- > "$work/soak.out" 2>&1 || { cat "$work/soak.out"; fail "soak --nice acpi=4 failed"; }
echo "soak --nice acpi=4: dt at niceness $(cat "$work/soak/nice.dt"), acpi at $(cat "$work/soak/nice.acpi") (soak's own: $base)"
[ "$(cat "$work/soak/nice.dt")" -eq "$base" ] || fail "soak: dt did not keep soak's niceness"
[ "$(cat "$work/soak/nice.acpi")" -eq $((base + 4)) ] || fail "soak: acpi was not booted 4 nicer"
! sh "$TOP/tools/soak.sh" --nice acpi=x 1 "$work/soak" "dt acpi" -- > "$work/soak.out" 2>&1 ||
	fail "soak took --nice acpi=x"
grep -q 'not MODE=N' "$work/soak.out" || fail "soak: --nice acpi=x refused without saying why"
# and the first of CHECK_ORDER with the harness's --sched other, the
# others batch.
rm -rf "$work/soak"
sh "$TOP/tools/soak.sh" --harness "$work/fake-harness.sh" --checks "$work/checks" --sched dt=other \
	1 "$work/soak" "dt acpi" -- --timeout 60 > "$work/soak.out" 2>&1 || { cat "$work/soak.out"; fail "soak --sched dt=other failed"; }
echo "soak --sched dt=other: dt '$(cat "$work/soak/sched.dt")', acpi '$(cat "$work/soak/sched.acpi")'"
[ "$(cat "$work/soak/sched.dt")" = "--sched other" ] || fail "soak: dt was not booted with --sched other"
[ "$(cat "$work/soak/sched.acpi")" = "--sched batch" ] || fail "soak: acpi was not booted with --sched batch"
! sh "$TOP/tools/soak.sh" --sched dt=fast 1 "$work/soak" "dt acpi" -- > "$work/soak.out" 2>&1 ||
	fail "soak took --sched dt=fast"
grep -q 'not MODE=batch or MODE=other' "$work/soak.out" || fail "soak: --sched dt=fast refused without saying why"
