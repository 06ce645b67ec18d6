#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Hold the GCC checker's findings against clang's on the tree without the
# series: two folders of make nonstring-unpatched (GCC-DIR: the plugin or
# GCC 15; CLANG-DIR: clang >= 21), each with build/ and src/. Both must
# have compiled the same objects; every finding is taken at its use site
# (a literal from a macro: where the macro is used, which clang reports
# and GCC names in its last "in expansion of macro" note), and the
# (file, line) sites of the two are compared. Each site only one compiler
# reports is listed; the only ones accepted:
#   explicit-nul   GCC only, the literal's last written character is an
#                  explicit NUL ("...\0"): clang does not warn when the
#                  literal ends in a NUL of its own (llvm PR 143487,
#                  clang/lib/Sema/SemaInit.cpp CheckStringInit), GCC 15
#                  counts it like any other character.
# With --full (whole kernels, make compilers), every object with a finding
# must also be one that make check compiles (DIR/objects), or make check's
# comparison would miss it.
# Exit 0 when the sites agree (but for accepted differences), 1 otherwise.
#
# usage: nonstring-compare.sh [--full] GCC-DIR CLANG-DIR
set -eu
full=
if [ "${1-}" = --full ]; then
	full=1
	shift
fi
[ $# -eq 2 ] || { echo "usage: $0 [--full] GCC-DIR CLANG-DIR" >&2; exit 1; }
gdir=$1 cdir=$2
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for d in "$gdir" "$cdir"; do
	[ -f "$d/checker" ] || { echo "Error: no unpatched build in $d (make nonstring-unpatched)" >&2; exit 1; }
	case $(cat "$d/checker") in
	plugin|builtin) ;;
	*) echo "Error: $d: $(cat "$d/checker")" >&2; exit 1 ;;
	esac
done
# The objects each side compiled (a full build: every object it has).
for d in "$gdir" "$cdir"; do
	if [ -n "$full" ]; then
		(cd "$d/build" && find . -name '*.o' ! -name '*.mod.o' ! -name 'vmlinux.o' | sed 's|^\./||' | sort)
	else
		sort "$d/objects"
	fi > "$work/$(basename "$d").objects"
done
g=$work/$(basename "$gdir") c=$work/$(basename "$cdir")
if ! cmp -s "$g.objects" "$c.objects"; then
	echo "Objects compiled by only one side (< GCC, > clang):"
	diff "$g.objects" "$c.objects" | grep '^[<>]' || true
	echo "FAIL: the two sides did not compile the same objects"
	exit 1
fi
missing=0
while read -r o; do
	for d in "$gdir" "$cdir"; do
		[ -f "$d/build/$o" ] || { echo "not compiled: $d/build/$o"; missing=$((missing + 1)); }
	done
done < "$g.objects"
[ "$missing" -eq 0 ] || { echo "FAIL: $missing objects missing"; exit 1; }

# USE:LINE:COL: DECLARATION: MESSAGE, one line per finding; and the use,
# a tab, every location of the finding (tools/nonstring-findings.awk).
sh "$here/nonstring-report.sh" --site use "$gdir/build" "$gdir/src" > "$g.use"
sh "$here/nonstring-report.sh" --site chain "$gdir/build" "$gdir/src" > "$g.chain"
sh "$here/nonstring-report.sh" --site use "$cdir/build" "$cdir/src" > "$c.use"
sites() {
	cut -d: -f1,2 "$1" | sort -u
}
sites "$g.use" > "$g.sites"
sites "$c.use" > "$c.sites"
same=$(comm -12 "$g.sites" "$c.sites" | wc -l)
echo "$(wc -l < "$g.use") GCC findings at $(wc -l < "$g.sites") sites ($(cat "$gdir/checker"))," \
	"$(wc -l < "$c.use") clang findings at $(wc -l < "$c.sites") sites, in $(wc -l < "$g.objects") objects; $same sites agree"
[ -s "$g.sites" ] || { echo "FAIL: no finding at all (is the checker on?)"; exit 1; }

# last_nul FILE LINE COL: whether the string literal that starts at that
# (display) column, or after a #name there, ends with an explicit
# NUL, pieces concatenated: its last character an octal or hex escape of
# value 0. A finding's own location or one of its macro notes is where its
# literal is spelled (a #name "\0" in a macro: the note "in definition of
# macro").
last_nul() {
	[ -f "$1" ] || return 1
	awk -v line="$2" -v col="$3" '
	function expand(s,    out, i, ch) {	# tabs to 8 columns, as GCC counts
		out = ""
		for (i = 1; i <= length(s); i++) {
			ch = substr(s, i, 1)
			if (ch == "\t") { do out = out " "; while (length(out) % 8) }
			else out = out ch
		}
		return out
	}
	NR < line { next }
	NR == line {
		# GCC points at the name of a #name; the # belongs to it
		t = expand($0)
		text = substr(t, col)
		if (col > 1 && substr(t, col - 1, 1) == "#") text = "#" text
		next
	}
	NR < line + 20 { text = text "\n" $0 }
	END {
		n = length(text); i = 1; last = -1; inlit = 0
		while (i <= n) {
			ch = substr(text, i, 1)
			if (!inlit) {
				if (ch == "\"") { inlit = 1; bol = 0; i++; continue }
				# between pieces: blanks, line continuations and a
				# #name (a macro argument made a string: not a NUL);
				# a # that starts a line is a directive, the end
				if (ch == "\n") bol = 1
				if (ch ~ /[ \t\n\\]/) { i++; continue }
				if (ch == "#" && !bol) {
					i++
					while (substr(text, i, 1) ~ /[ \t]/) i++
					if (substr(text, i, 1) !~ /[A-Za-z_]/) break
					while (substr(text, i, 1) ~ /[A-Za-z0-9_]/) i++
					last = 1
					continue
				}
				break
			}
			if (ch == "\"") { inlit = 0; i++; continue }
			if (ch != "\\") { last = 1; i++; continue }
			ch = substr(text, i + 1, 1)
			if (ch ~ /[0-7]/) {
				j = i + 1; v = 0
				while (j <= i + 3 && substr(text, j, 1) ~ /[0-7]/) { v = v * 8 + substr(text, j, 1); j++ }
				last = v; i = j
			} else if (ch == "x") {
				j = i + 2; v = 0; hex = "0123456789abcdef"
				while (substr(text, j, 1) ~ /[0-9A-Fa-f]/) { v = v * 16 + index(hex, tolower(substr(text, j, 1))) - 1; j++ }
				last = v; i = j
			} else { last = 1; i += 2 }
		}
		exit last == 0 ? 0 : 1
	}' "$1"
}

bad=0 accepted=0
comm -23 "$g.sites" "$c.sites" > "$g.only"
comm -13 "$g.sites" "$c.sites" > "$c.only"
while read -r s; do
	# Each GCC finding at that use site: accepted when one of its
	# locations spells a literal ending in an explicit NUL.
	awk -F'\t' -v s="$s" '{ split($1, u, ":") } u[1] ":" u[2] == s { print $2 }' "$g.chain" > "$work/chains"
	why=
	while read -r locs; do
		nul=
		for loc in $locs; do
			f=${loc%%:*} lc=${loc#*:}
			last_nul "$gdir/src/$f" "${lc%:*}" "${lc#*:}" && nul=1
		done
		if [ -n "$nul" ]; then why=${why:-explicit-nul}; else why=none; fi
	done < "$work/chains"
	if [ "$why" = explicit-nul ]; then
		echo "accepted (explicit-nul, llvm PR 143487): $s: GCC only: $(awk -F: -v s="$s" '$1 ":" $2 == s' "$g.use" | head -n 1)"
		accepted=$((accepted + 1))
	else
		echo "DISAGREE: $s: GCC only: $(awk -F: -v s="$s" '$1 ":" $2 == s' "$g.use" | head -n 1)"
		bad=$((bad + 1))
	fi
done < "$g.only"
while read -r s; do
	echo "DISAGREE: $s: clang only: $(awk -F: -v s="$s" '$1 ":" $2 == s' "$c.use" | head -n 1)"
	bad=$((bad + 1))
done < "$c.only"

if [ -n "$full" ]; then
	# The objects with a finding, from either side, and make check's list.
	for d in "$gdir" "$cdir"; do
		grep -l -r -F --include='*.o.stderr' -e '[-Wunterminated-string-initialization]' "$d/build" |
			sed -e "s|^$d/build/||" -e 's|\.stderr$||' || true
	done | sort -u > "$work/reporting"
	sort "$gdir/objects" > "$work/cheap"
	outside=$(comm -23 "$work/reporting" "$work/cheap")
	if [ -n "$outside" ]; then
		echo "$outside" | sed 's/^/NOT IN MAKE CHECK: /'
		echo "FAIL: $(echo "$outside" | wc -l) objects with findings are not among make check's $(wc -l < "$work/cheap")"
		exit 1
	fi
	echo "findings in $(wc -l < "$work/reporting") objects, all among the $(wc -l < "$work/cheap") that make check compiles"
fi
[ "$bad" -eq 0 ] || { echo "FAIL: $bad sites reported by one compiler only"; exit 1; }
echo "OK: the same sites, $accepted accepted differences"
