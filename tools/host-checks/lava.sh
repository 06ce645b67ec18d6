#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: lava_job_schema host
# inputs: $TOP/board/lava /usr/lib/python3/dist-packages/lava_common
#
# lava_job_schema: board/lava/*.yaml are LAVA jobs that LAVA itself would
# accept: lava_common.schemas.validate (Debian's lava-common, strict) on
# each. The validator is shown to bite first: the same job without its
# visibility, with a misspelt boot method, or with a monitor without an
# end must be rejected. Every job ends with the one test of all jobs,
# board/lava/parts/test.yaml, byte for byte (a job whose test has one word
# changed is shown to be caught). And that test's monitor reads what the
# runner prints: on the output of common/run-checks for a passing, a
# failing and a skipped case its pattern gives exactly those three results,
# under the whole name, and a line cut anywhere (the dispatcher matches as
# soon as a read ends) gives no result or the whole one, never a cut name.
# Shown to bite: a runner printing another word than KTAP_RESULT
# (common/ktap.sh), the Pi job's first pattern (ok/not ok: a skip is a
# pass, names cut) and a pattern ending on the name. The device types of
# board/lava/devices/ are not jobs: lava_run_qemu renders and runs them.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"

case $1 in
lava_job_schema)
	set -- "$TOP"/board/lava/*.yaml
	[ -f "$1" ] || fail "no LAVA job in board/lava/"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	# The runner's output for three cases, and that of a runner whose
	# result line has another word (a copy of common/ with it changed).
	mkdir -p "$work/checks"
	# shellcheck disable=SC2016 # $1 is the fixture check's
	printf '#!/bin/sh\n# case: c_pass host\n# case: c_fail host\n# case: carl9170_c_skip host\n%s\n' \
		'case $1 in c_pass) exit 0 ;; c_fail) echo why; exit 1 ;; *) echo not here; exit 4 ;; esac' \
		> "$work/checks/cases.sh"
	sh "$NSBSP_COMMON/run-checks" --host "$work/checks" > "$work/runner.out" 2>&1 || fail "run-checks failed"
	cp -R "$NSBSP_COMMON" "$work/common"
	sed -i "s/^KTAP_RESULT=.*/KTAP_RESULT='# nsbsp-verdict:'/" "$work/common/ktap.sh"
	grep -q "^KTAP_RESULT='# nsbsp-verdict:'$" "$work/common/ktap.sh" || fail "cannot change KTAP_RESULT in a copy of common/ktap.sh"
	sh "$work/common/run-checks" --host "$work/checks" > "$work/other.out" 2>&1 || fail "run-checks (copy) failed"
	/usr/bin/python3 - "$TOP/board/lava/parts/test.yaml" "$work/runner.out" "$work/other.out" "$@" <<'PY' ||
import copy
import re
import sys

import yaml
from lava_common.schemas import validate

test_path, runner_out, other_out = sys.argv[1:4]
test_part = open(test_path).read()
want = [("c_pass", "pass"), ("c_fail", "fail"), ("carl9170_c_skip", "skip")]


def shares_test(text):
    """The job ends with the shared test, its only test action."""
    tests = [a for a in yaml.safe_load(text)["actions"] if "test" in a]
    return text.endswith("\n" + test_part) and len(tests) == 1


def reads_runner(pattern, out_path, fixup=None):
    """What is wrong with PATTERN (and a monitor's FIXUP of results) on the
    runner's output OUT_PATH; None when nothing is."""
    rx = re.compile(pattern)
    fixup = fixup or {}
    lines = open(out_path).read().splitlines()
    got = []
    for line in lines:
        m = rx.search(line)
        if m:
            got.append((m.group("test_case_id"), fixup.get(m.group("result"), m.group("result"))))
    if got != want:
        return "results %s, not %s" % (got, want)
    for line in lines:
        whole = rx.search(line)
        for cut in range(len(line)):
            m = rx.search(line[:cut])
            if m and (not whole or m.group("test_case_id") != whole.group("test_case_id")):
                return "a line cut after %d characters gives %r" % (cut, m.group("test_case_id"))
    return None


bad = 0
pattern = yaml.safe_load(test_part)[0]["test"]["monitors"][0]["pattern"]
why = reads_runner(pattern, runner_out)
print("parts/test.yaml's pattern on run-checks' output: %s" % (why or "c_pass pass, c_fail fail, carl9170_c_skip skip; no cut name"))
bad |= why is not None
for what, pat, out, fixup in [
    ("a runner printing another word", pattern, other_out, None),
    ("the Pi job's first pattern", r"(?P<result>not ok|ok) \d+ (?P<test_case_id>[a-z0-9_]+)", runner_out,
     {"ok": "pass", "not ok": "fail"}),
    ("a pattern ending on the name", pattern.replace(" (?P<result>pass|fail|skip)", " ?(?P<result>pass|fail|skip)?"),
     runner_out, None),
]:
    if pat == pattern and out == runner_out:
        sys.exit("cannot make the changed pattern")
    why = reads_runner(pat, out, fixup)
    if why:
        print("  rejected: %s: %s" % (what, why))
    else:
        print("  accepted: %s" % what)
        bad = 1

for path in sys.argv[4:]:
    text = open(path).read()
    job = yaml.safe_load(text)
    if shares_test(text):
        print("%s: ends with parts/test.yaml" % path.rsplit("/", 1)[-1])
    else:
        print("%s: its test is not board/lava/parts/test.yaml" % path)
        bad = 1
    if shares_test(text.replace("pass|fail|skip", "pass|fail")):
        print("  the shared test check accepted a changed test")
        bad = 1
    try:
        validate(job, strict=True)
        print("%s: valid" % path.rsplit("/", 1)[-1])
    except Exception as e:
        print("%s: invalid: %s" % (path, e))
        bad = 1
        continue
    boots = [a["boot"] for a in job["actions"] if "boot" in a]
    monitors = [m for a in job["actions"] if "test" in a for m in a["test"].get("monitors", [])]
    breaks = [("no visibility", lambda j: j.pop("visibility"))]
    if boots:
        breaks.append(("boot method 'uboot'", lambda j: [a["boot"].update(method="uboot") for a in j["actions"] if "boot" in a]))
    if monitors:
        breaks.append(("a monitor without end", lambda j: [m.pop("end") for a in j["actions"] if "test" in a for m in a["test"].get("monitors", [])]))
    for what, change in breaks:
        broken = copy.deepcopy(job)
        change(broken)
        try:
            validate(broken, strict=True)
            print("  the validator accepted it with %s" % what)
            bad = 1
        except Exception:
            print("  rejected with %s" % what)
sys.exit(bad)
PY
		fail "a LAVA job does not follow LAVA's schema, has a test of its own, or its test does not read the runner's results"
	;;
*)
	fail "lava.sh: unknown case $1"
	;;
esac
