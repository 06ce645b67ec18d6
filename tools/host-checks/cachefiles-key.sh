#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: cachefiles_vectors host
# inputs: $TOP/kernel-patches $HOST_BIN/cachefiles-key
#
# cachefiles_vectors: the expected names of the KUnit vectors in the
# cachefiles patch (fs/cachefiles/key_test.c) are those that our own
# encoder, common/cachefiles-key.c (written from the description of the
# encoding, not from the kernel's code), computes for their keys: each
# entry is regenerated from its description and key and must be identical.
# The vectors must cover every form: D, S, T and base64 with pad 0, 1, 2.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

encoder=$HOST_BIN/cachefiles-key
patch=$(grep -l '^+++ b/fs/cachefiles/key_test.c$' "$TOP"/kernel-patches/*.patch | head -n 1)

case $1 in
cachefiles_vectors)
	[ -x "$encoder" ] || fail "no $encoder (make check builds it)"
	[ -n "$patch" ] || fail "no patch in kernel-patches/ adds fs/cachefiles/key_test.c"
	echo "vectors of ${patch##*/}"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	# The table's entries as in the patch, without the diff's '+'.
	sed -n '/^+static const struct cachefiles_key_vector cachefiles_key_vectors\[\] = {$/,/^+};$/p' "$patch" |
		sed -e '1d;$d' -e 's/^+//' > "$work/patch"
	[ -s "$work/patch" ] || fail "no cachefiles_key_vectors table in ${patch##*/}"
	sed -n 's/^\t\t\.desc = "\(.*\)",$/\1/p' "$work/patch" > "$work/descs"
	sed -n 's/^\t\t\.key = "\(.*\)",$/\1/p' "$work/patch" > "$work/keys"
	[ "$(wc -l < "$work/descs")" -eq "$(wc -l < "$work/keys")" ] || fail "unparsable vector table"
	paste -d '\n' "$work/descs" "$work/keys" | while read -r desc && read -r key; do
		"$encoder" --vector "$desc" "$key" || echo "encoder failed on '$key'"
	done > "$work/ours"
	if ! diff -u "$work/patch" "$work/ours"; then
		fail "the patch's vectors differ from the encoder's (diff above: - patch, + encoder)"
	fi
	sed -n 's/^\t\t\.name = "\(.*\)",$/\1/p' "$work/patch" | paste "$work/keys" - | sed 's/^/  /'
	for form in D S T E0 E1 E2; do
		grep -q "^$form: " "$work/descs" || fail "no vector of form $form"
	done
	echo "$(wc -l < "$work/keys") vectors, every form covered, all equal to the encoder's"
	;;
*)
	fail "cachefiles-key.sh: unknown case $1"
	;;
esac
