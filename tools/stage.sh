#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Put files into a staging folder by a list of specs, one per argument:
#   SRC=DEST         copy SRC (a file, or a folder's contents when SRC ends
#                    in "/.") to STAGING/DEST; DEST ending in "/" is a folder
#   link:TARGET=DEST a symbolic link STAGING/DEST -> TARGET
# Links inside SRC are followed (a library's soname link gives its file).
# Every SRC must exist: a missing one is an error naming it.
# --origins FILE: append "DEST<TAB>SOURCE" for every file and link staged
# (SOURCE: the file copied, or link:TARGET), for make legal-info.
#
# usage: stage.sh [--origins FILE] STAGING SPEC...
#        stage.sh --unchanged STAMP SPEC...
# The second form tells a caller whether staging again can be skipped: it
# exits 0 when STAMP (the caller writes the specs into it, one a line,
# once its output is made) lists exactly these specs and no SRC of them,
# nor anything below a SRC folder, is newer than it; 1 otherwise.
set -eu
usage() {
	echo "usage: $0 [--origins FILE] STAGING SPEC... | --unchanged STAMP SPEC..." >&2
	exit 1
}
[ $# -ge 1 ] || usage
if [ "$1" = --unchanged ]; then
	[ $# -ge 2 ] || usage
	stamp=$2
	shift 2
	[ -f "$stamp" ] && [ "$(printf '%s\n' "$@")" = "$(cat "$stamp")" ] || exit 1
	# One find over every SRC (a missing one makes it fail).
	for spec in "$@"; do
		shift
		case $spec in link:*) ;; *) set -- "$@" "${spec%%=*}" ;; esac
	done
	newer=$(find -L "$@" -newer "$stamp" -print -quit 2> /dev/null) || exit 1
	[ -z "$newer" ]
	exit
fi
origins=
if [ "$1" = --origins ]; then
	[ $# -ge 3 ] || usage
	origins=$2
	shift 2
fi
staging=$1
shift
record() {
	[ -z "$origins" ] || printf '%s\t%s\n' "$1" "$2" >> "$origins"
}
for spec in "$@"; do
	src=${spec%%=*} dest=${spec#*=}
	if [ "$src" = "$spec" ] || [ -z "$dest" ]; then
		echo "Error: '$spec' is not SRC=DEST" >&2
		exit 1
	fi
	case $dest in /*) ;; *) echo "Error: '$spec': DEST must start with /" >&2; exit 1 ;; esac
	case $dest in
	*/) mkdir -p "$staging$dest" ;;
	*) mkdir -p "$(dirname "$staging$dest")" ;;
	esac
	case $src in
	link:*)
		ln -sfn "${src#link:}" "$staging$dest"
		record "$dest" "$src"
		;;
	*)
		[ -e "$src" ] || { echo "Error: $src: no such file (for $dest)" >&2; exit 1; }
		# (cp puts a folder into DEST when DEST is one already)
		into=
		case $src in */.) ;; *) [ ! -d "$staging$dest" ] || into=/$(basename "$src") ;; esac
		cp -RL "$src" "$staging$dest"
		if [ -n "$origins" ]; then
			if [ -d "$src" ]; then
				to=${dest%/}$into
				(cd "$src" && find -L . ! -type d) | while read -r f; do
					record "$to/${f#./}" "$src/${f#./}"
				done
			else
				case $dest in */) record "$dest$(basename "$src")" "$src" ;; *) record "$dest" "$src" ;; esac
			fi
		fi
		;;
	esac
done
