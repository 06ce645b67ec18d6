#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
"""Write a LAVA device dictionary and render it, as a LAVA server does.

usage: lava-device.py TEMPLATE DICTIONARY OUT NAME=VALUE...

TEMPLATE is a device-type template of board/lava/devices/ (NAME.jinja2).
DICTIONARY gets the device dictionary a lab would add for one device
({% extends 'TEMPLATE' %} and one {% set NAME = 'VALUE' %} per argument);
OUT gets what the server hands the dispatcher: the dictionary rendered with
Jinja2 the way lava-server renders it (sandboxed, trim_blocks, no
autoescape; here an undefined variable is an error), checked with LAVA's
own device schema (lava_common.schemas.device, Debian's lava-common).

Exit status: 0 written; 1 usage; 2 the template or the result is wrong.
"""
import os
import sys

import jinja2
import jinja2.sandbox
import yaml
from lava_common.schemas.device import validate


def main():
    if len(sys.argv) < 4 or not all("=" in a for a in sys.argv[4:]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(1)
    template, dictionary, out = sys.argv[1:4]
    with open(dictionary, "w", encoding="utf-8") as f:
        f.write("{%% extends '%s' %%}\n" % os.path.basename(template))
        for arg in sys.argv[4:]:
            name, value = arg.split("=", 1)
            f.write("{%% set %s = '%s' %%}\n" % (name, value.replace("'", "\\'")))
    env = jinja2.sandbox.SandboxedEnvironment(
        loader=jinja2.FileSystemLoader([os.path.dirname(os.path.abspath(dictionary)),
                                        os.path.dirname(os.path.abspath(template))]),
        autoescape=False,
        trim_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    try:
        text = env.get_template(os.path.basename(dictionary)).render()
        validate(yaml.safe_load(text))
    except Exception as exc:  # jinja2, YAML and voluptuous errors alike
        print("Error: %s: %s: %s" % (dictionary, type(exc).__name__, exc), file=sys.stderr)
        sys.exit(2)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main()
