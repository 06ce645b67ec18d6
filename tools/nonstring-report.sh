#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# List the nonstring findings of a kernel build: one line per finding,
#   SOURCE:LINE:COL: ARRAY-DECLARATION:LINE: MESSAGE
# (the declaration is where __nonstring belongs; "?" when the compiler
# names none), with paths relative to the kernel tree, sorted, from the
# X.o.stderr files that tools/nonstring-cc.sh keeps beside each object.
# Only objects whose .o is not newer than its findings count (a stale file
# is ignored). SOURCE is where the compiler reports the finding, or with
# --site use|spelling the use or the #define of a literal from a macro;
# --site chain prints the use and every location of the finding instead
# (tools/nonstring-findings.awk).
#
# usage: nonstring-report.sh [--site report|use|spelling|chain] KOUT KSRC
set -eu
site=report
if [ "${1-}" = --site ]; then
	case ${2-} in
	report|use|spelling|chain) site=$2 ;;
	*) echo "Error: --site ${2-}: report, use, spelling or chain" >&2; exit 1 ;;
	esac
	shift 2
fi
[ $# -eq 2 ] || { echo "usage: $0 [--site report|use|spelling|chain] KOUT KSRC" >&2; exit 1; }
kout=$1 ksrc=$2
[ -d "$kout" ] || { echo "Error: $kout: no kernel build there (make kernel first)" >&2; exit 1; }
# kbuild names sources relative to the build folder when it can.
relsrc=$(realpath --relative-to="$kout" "$ksrc")
awk=$(dirname "$0")/nonstring-findings.awk

find "$kout" -name '*.o.stderr' | sort | while read -r f; do
	o=${f%.stderr}
	[ -f "$o" ] || continue
	[ -z "$(find "$o" -newer "$f")" ] || continue
	awk -v site="$site" -v ksrc="$ksrc/" -v kout="$kout/" -v relsrc="$relsrc/" -f "$awk" "$f"
done | sort -u
