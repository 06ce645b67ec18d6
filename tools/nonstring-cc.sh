#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The kernel's C compiler, run as given. For an object (-o X.o) whatever
# the compiler prints is also kept in X.o.stderr (removed when it prints
# nothing), so that the findings and warnings of every object of a build
# can be listed afterwards, including those ccache replays and those of
# objects that were not rebuilt: `make nonstring-report`, the
# nonstring_board_clean check and `make compilers` read them.
#
# usage: nonstring-cc.sh COMPILER [ARG...]
out='' prev=''
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	prev=$a
done
case $out in
*.o) ;;
*) exec "$@" ;;
esac

err=$out.stderr.tmp
"$@" 2> "$err"
rc=$?
cat "$err" >&2
if [ -s "$err" ]; then
	mv -f "$err" "$out.stderr"
	touch "$out.stderr"	# not older than the object
else
	rm -f "$err" "$out.stderr"
fi
exit "$rc"
