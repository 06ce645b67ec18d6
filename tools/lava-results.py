#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
"""The outcome of a LAVA job, from the dispatcher's log (lava-run's output).

usage: lava-results.py JOB LOG

LOG is the log lava-run prints for JOB, one {"dt", "lvl", "msg"} line
each (JSON; a server's job log has them as a YAML list, "- {...}"). The test is the job's monitor: its name is the definition of the
results, its start the line after which the board prints its KTAP plan.
Prints, one per line:
  job RESULT [ERROR_TYPE: ERROR_MSG]   LAVA's "job" result: pass for a job
                                       that finished correctly (Complete),
                                       fail for an Incomplete one
  plan N                               the KTAP plan "1..N" the board printed
                                       after the start marker (absent if none)
  CASE RESULT                          each result of the monitor, in order
The dispatcher's own results (definition "lava") are not listed, except
"job". Exit status: 0; 1 usage; 2 the log has no job result.
"""
import json
import re
import sys

import yaml


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(1)
    job_path, log_path = sys.argv[1:]
    monitors = [m for a in yaml.safe_load(open(job_path, encoding="utf-8"))["actions"]
                if "test" in a for m in a["test"].get("monitors", [])]
    if len(monitors) != 1:
        print("Error: %s: want one test monitor, found %d" % (job_path, len(monitors)), file=sys.stderr)
        sys.exit(2)
    # LAVA's own naming of the results' definition (TestMonitorAction).
    definition = monitors[0]["name"].replace(" ", "-").lower()
    start = re.compile(monitors[0]["start"])
    job = plan = None
    started = False
    cases = []
    with open(log_path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line[2:] if line.startswith("- {") else line
            if not line.startswith("{"):
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                try:
                    entry = yaml.safe_load(line)
                except yaml.YAMLError:
                    continue
            if not isinstance(entry, dict):
                continue
            msg = entry.get("msg")
            if entry.get("lvl") == "target" and isinstance(msg, str):
                started = started or bool(start.search(msg))
                m = re.fullmatch(r"1\.\.(\d+)", msg.strip())
                if m and started and plan is None:
                    plan = int(m.group(1))
            if entry.get("lvl") != "results" or not isinstance(msg, dict):
                continue
            if msg.get("definition") == "lava" and msg.get("case") == "job":
                job = msg
            elif msg.get("definition") == definition:
                cases.append((msg["case"], msg["result"]))
    if job is None:
        print("Error: %s: no job result (did lava-run finish?)" % log_path, file=sys.stderr)
        sys.exit(2)
    error = ""
    if "error_type" in job or "error_msg" in job:
        error = " %s: %s" % (job.get("error_type", "?"), job.get("error_msg", "?"))
    print("job %s%s" % (job["result"], error))
    if plan is not None:
        print("plan %d" % plan)
    for case, result in cases:
        print("%s %s" % (case, result))


if __name__ == "__main__":
    main()
