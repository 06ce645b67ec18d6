#!/bin/sh
# case: lava_job_schema host
#
# lava_job_schema: board/lava/*.yaml are LAVA jobs that LAVA itself would
# accept: lava_common.schemas.validate (Debian's lava-common, strict) on
# each. The validator is shown to bite first: the same job without its
# visibility, with a misspelt boot method, or with a monitor without an
# end must be rejected.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"

case $1 in
lava_job_schema)
	set -- "$TOP"/board/lava/*.yaml
	[ -f "$1" ] || fail "no LAVA job in board/lava/"
	/usr/bin/python3 - "$@" <<'PY' || fail "a LAVA job does not follow LAVA's schema"
import copy
import sys

import yaml
from lava_common.schemas import validate

bad = 0
for path in sys.argv[1:]:
    job = yaml.safe_load(open(path))
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
	;;
*)
	fail "lava.sh: unknown case $1"
	;;
esac
