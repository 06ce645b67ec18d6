#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Put files into a staging folder by a list of specs, one per argument:
#   SRC=DEST         copy SRC (a file, or a folder's contents when SRC ends
#                    in "/.") to STAGING/DEST; DEST ending in "/" is a folder
#   link:TARGET=DEST a symbolic link STAGING/DEST -> TARGET
# Links inside SRC are followed (a library's soname link gives its file).
# Every SRC must exist: a missing one is an error naming it.
#
# usage: stage.sh STAGING SPEC...
set -eu
[ $# -ge 1 ] || { echo "usage: $0 STAGING SPEC..." >&2; exit 1; }
staging=$1
shift
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
	link:*) ln -sfn "${src#link:}" "$staging$dest" ;;
	*)
		[ -e "$src" ] || { echo "Error: $src: no such file (for $dest)" >&2; exit 1; }
		cp -RL "$src" "$staging$dest"
		;;
	esac
done
