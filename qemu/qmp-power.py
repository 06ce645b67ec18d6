#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
"""Power control of the emulated board for a LAVA device's power commands.

usage: qmp-power.py SOCKET on|reset|off

SOCKET is the QMP socket of a QEMU that qemu/lava-device.sh --power started
powered off (-S, -qmp unix:SOCKET,server=on,wait=off): "on" lets it run,
"reset" resets the machine and lets it run (a power cycle: U-Boot starts
again from the top, -no-reboot or not), "off" quits QEMU (the serial
connection then ends).
Each command waits for QEMU's answer: a QMP client that leaves before it
may lose its commands. A QEMU that is already gone is off.

Exit status: 0 done; 1 usage; 2 no QEMU on SOCKET (on, reset) or an error
answer.
"""
import json
import socket
import sys
import time

WAIT_S = 30  # how long QEMU may take to create its socket after the connect


class NoQemu(Exception):
    """Nothing answers on the socket."""


def die(msg):
    print("Error: %s" % msg, file=sys.stderr)
    sys.exit(2)


def connect(path, wait):
    """The QMP connection, after the greeting and qmp_capabilities."""
    end = time.monotonic() + wait
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            break
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            sock.close()
            if time.monotonic() >= end:
                raise NoQemu(exc) from None
            # QEMU has not created it yet: poll for it, with a bound.
            time.sleep(0.05)
    qmp = sock.makefile("rw", encoding="utf-8")
    json.loads(qmp.readline())  # the greeting
    command(qmp, "qmp_capabilities")
    return qmp


def command(qmp, name, **arguments):
    """Send one command and read lines up to its answer (events come first)."""
    qmp.write(json.dumps({"execute": name, "arguments": arguments}) + "\n")
    qmp.flush()
    while True:
        line = qmp.readline()
        if not line:
            if name == "quit":
                return
            die("QEMU closed its QMP socket before answering %s" % name)
        answer = json.loads(line)
        if "error" in answer:
            die("%s: %s" % (name, answer["error"].get("desc", answer["error"])))
        if "return" in answer:
            return


def main():
    # run.sh's -no-reboot makes a reset a shutdown (a guest's reboot ends
    # QEMU); a power cycle resets, so the reboot action is "reset" while
    # the reset is requested (QEMU decides when it is asked), then back.
    actions = {
        "on": [("cont", {})],
        "reset": [("set-action", {"reboot": "reset"}), ("system_reset", {}),
                  ("set-action", {"reboot": "shutdown"}), ("cont", {})],
        "off": [("quit", {})],
    }
    if len(sys.argv) != 3 or sys.argv[2] not in actions:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(1)
    path, action = sys.argv[1], sys.argv[2]
    try:
        qmp = connect(path, 0 if action == "off" else WAIT_S)
    except NoQemu as exc:
        if action == "off":
            return
        die("%s: no QEMU after %d s: %s" % (path, WAIT_S, exc))
    for name, arguments in actions[action]:
        command(qmp, name, **arguments)
    print("%s: %s" % (path, action))


if __name__ == "__main__":
    main()
