#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# List the nonstring findings of a kernel build: one line per finding,
#   SOURCE:LINE:COL: ARRAY-DECLARATION:LINE: MESSAGE
# (the declaration is where __nonstring belongs; "?" when unknown), with
# paths relative to the kernel tree, sorted, from the X.o.stderr files
# that tools/nonstring-cc.sh keeps beside each object. Only objects whose
# .o is not newer than its findings count (a stale file is ignored).
#
# usage: nonstring-report.sh KOUT KSRC
set -eu
[ $# -eq 2 ] || { echo "usage: $0 KOUT KSRC" >&2; exit 1; }
kout=$1 ksrc=$2
[ -d "$kout" ] || { echo "Error: $kout: no kernel build there (make kernel first)" >&2; exit 1; }
# kbuild names sources relative to the build folder when it can.
relsrc=$(realpath --relative-to="$kout" "$ksrc")

find "$kout" -name '*.o.stderr' | sort | while read -r f; do
	o=${f%.stderr}
	[ -f "$o" ] || continue
	[ -z "$(find "$o" -newer "$f")" ] || continue
	awk -v ksrc="$ksrc/" -v kout="$kout/" -v relsrc="$relsrc/" '
	function rel(p) {
		if (index(p, ksrc) == 1) p = substr(p, length(ksrc) + 1)
		if (index(p, relsrc) == 1) p = substr(p, length(relsrc) + 1)
		if (index(p, kout) == 1) p = substr(p, length(kout) + 1)
		return p
	}
	function flush() {
		if (site != "") print site ": " decl ": " msg
		site = ""
	}
	/: warning: .*\[-Wunterminated-string-initialization\]$/ {
		flush()
		split($0, a, ": warning: ")
		site = rel(a[1]); msg = a[2]; decl = "?"
		sub(/ \[-Wunterminated-string-initialization\]$/, "", msg)
		next
	}
	/: note: .* declared here$/ && site != "" && decl == "?" {
		split($0, a, ": note: ")
		n = split(a[1], p, ":")
		decl = rel(p[1]) ":" p[2]
		next
	}
	/: (warning|error): / { flush() }
	END { flush() }' "$f"
done | sort -u
