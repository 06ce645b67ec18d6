#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
"""Point a LAVA job of board/lava/ at the files of a build.

usage: lava-job.py JOB OUT LABEL=FILE...

The jobs in board/lava/ name the lab's copies of the build's files (a
placeholder URL and checksum). For each LABEL=FILE, the deploy image
LABEL gets url file://FILE (FILE made absolute) and sha256sum of FILE,
which LAVA checks after the download. Every image of the job must be
given, and every LABEL must be an image of the job. The rest of the job
is written as it is, comments included (only those two values change).

Exit status: 0 written; 1 usage; 2 the job and the files do not match.
"""
import hashlib
import os
import re
import sys

import yaml


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def die(msg):
    print("Error: %s" % msg, file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) < 4 or not all("=" in a for a in sys.argv[3:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(1)
    job_path, out = sys.argv[1:3]
    files = dict(a.split("=", 1) for a in sys.argv[3:])
    text = open(job_path, encoding="utf-8").read()
    job = yaml.safe_load(text)
    images = {}
    for action in job["actions"]:
        for label, image in action.get("deploy", {}).get("images", {}).items():
            images[label] = image
    if set(images) != set(files):
        die("%s: its images are %s, given %s" % (job_path, sorted(images), sorted(files)))
    # Edit the text, not a YAML dump of it: the job stays as readable as
    # its source. Each url and sha256sum value occurs once in the job.
    for label, path in files.items():
        if not os.path.isfile(path):
            die("%s: no such file (make all image)" % path)
        for key, value in (("url", "file://" + os.path.abspath(path)), ("sha256sum", sha256(path))):
            old = images[label].get(key)
            if old is None:
                die("%s: image %s has no %s" % (job_path, label, key))
            pattern = re.compile(r"(%s: *)([\"']?)%s\2$" % (key, re.escape(str(old))), re.M)
            text, n = pattern.subn(lambda m, v=value: m.group(1) + m.group(2) + v + m.group(2), text)
            if n != 1:
                die("%s: the %s of image %s is not written once (%d)" % (job_path, key, label, n))
    written = yaml.safe_load(text)
    for action in written["actions"]:
        for label, image in action.get("deploy", {}).get("images", {}).items():
            assert image["url"].startswith("file://") and len(image["sha256sum"]) == 64, label
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
