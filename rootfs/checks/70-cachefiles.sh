#!/bin/sh
# case: cachefiles_bind dt,acpi,uboot
# case: cachefiles_charmap dt,acpi,uboot
# case: cachefiles_hit dt,acpi,uboot
#
# cachefiles: a 9p share (QEMU's virtio-9p, run.sh --cachefiles-share)
# mounted with cache=fscache, cached on an ext4 disk (virtio-blk labelled
# nsbsp-cache, run.sh --cachefiles-disk) that cachefiles-bind brings into
# service through /dev/cachefiles. Each case sets up what it needs, so any
# of them runs alone (nsbsp.select=...).
#
# cachefiles_bind: the cache binds (active in /proc/fs/fscache/caches) and
#   the 9p volume appears in it (/proc/fs/fscache/volumes and its folder
#   with the 256 fan-out folders on the disk).
# cachefiles_charmap: the KUnit suite cachefiles_key (the kernel patch that
#   adds fs/cachefiles/key_test.c; vectors of every form, base64 ones
#   included) passed at boot; and every
#   file read through the mount is in the cache under the name that the
#   independent encoder (cachefiles-key, tools/cachefiles-key.c) gives its
#   cookie key (9p's key: the qid path, i.e. the inode number, as le64),
#   with no other file there.
# cachefiles_hit: after the cache daemon was stopped and started again,
#   reading each file again is served from the cache: the fscache read
#   counter moves for each, and the content still matches SHA256SUMS.
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"
set -u

label=nsbsp-cache
cachedir=/var/cache/fscache
tag=nsbsp
share=/mnt/nsbsp-share
pidfile=/run/cachefiles-bind.pid

# poll TENTHS CMD...: run CMD until it succeeds, at most TENTHS tenths of a
# second (a bound on asynchronous kernel work, never a fixed delay).
poll() {
	n=$1
	shift
	until "$@"; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || return 1
		usleep 100000
	done
}

mounted() {
	awk -v m="$1" '$2 == m { found = 1 } END { exit !found }' /proc/mounts
}

cache_active() {
	awk -v t="$tag" '$6 == "A" && $7 == t { found = 1 } END { exit !found }' /proc/fs/fscache/caches
}

daemon_running() {
	[ -f "$pidfile" ] && kill -0 "$(cat "$pidfile" 2> /dev/null)" 2> /dev/null
}

daemon_stopped() { ! daemon_running; }

cache_inactive() { ! cache_active; }

# The mount tag of the 9p share (the sysfs attribute may end in a NUL).
share_tag() {
	for f in /sys/bus/virtio/drivers/9pnet_virtio/*/mount_tag; do
		[ -r "$f" ] || continue
		tr -d '\000\n' < "$f"
		return 0
	done
	return 1
}

cache_up() {
	[ -c /dev/cachefiles ] || fail "no /dev/cachefiles (CONFIG_CACHEFILES)"
	if ! mounted "$cachedir"; then
		dev=$(findfs "LABEL=$label") ||
			fail "no disk labelled $label (QEMU needs run.sh --cachefiles-disk)"
		mkdir -p "$cachedir"
		mount -t ext4 "$dev" "$cachedir" || fail "cannot mount $dev on $cachedir"
	fi
	if ! daemon_running; then
		cachefiles-bind -p "$pidfile" -t "$tag" "$cachedir" || fail "cachefiles-bind failed"
	fi
	cache_active || { cat /proc/fs/fscache/caches; fail "cache $tag is not active"; }
}

cache_down() {
	daemon_running || return 0
	kill "$(cat "$pidfile")"
	poll 100 daemon_stopped || fail "cachefiles-bind did not stop on SIGTERM"
	poll 100 cache_inactive || fail "cache $tag still active after its daemon stopped"
}

share_up() {
	mtag=$(share_tag) || fail "no 9p share (QEMU needs run.sh --cachefiles-share)"
	voldir="$cachedir/cache/I9p,$mtag,"
	mounted "$share" && return 0
	mkdir -p "$share"
	mount -t 9p -o trans=virtio,version=9p2000.L,cache=fscache "$mtag" "$share" ||
		fail "cannot mount 9p $mtag on $share with cache=fscache"
}

share_down() {
	! mounted "$share" || umount "$share" || fail "cannot unmount $share"
}

# The fscache counter of reads from the cache ("IO : rd=N wr=N").
cache_reads() {
	sed -n 's/^IO *: rd=\([0-9]*\) .*/\1/p' /proc/fs/fscache/stats
}

# 9p's cookie key for a file: its qid path, little-endian over 8 bytes, in
# hex (v9fs_cache_inode_get_cookie). The guest sees the qid path as the inode
# number plus 2 (v9fs_qid2ino in fs/9p/vfs_inode.c keeps 0 and 1 free).
cookie_key() {
	ino=$(stat -c %i "$1") || return 1
	printf '%016x' $((ino - 2)) |
		sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8\7\6\5\4\3\2\1/'
}

volume_listed() {
	awk -v t="$tag" -v k="9p,$mtag," '$6 == t && $7 == k { found = 1 } END { exit !found }' \
		/proc/fs/fscache/volumes
}

fanouts() {
	find "$voldir" -mindepth 1 -maxdepth 1 -type d -name '@[0-9a-f][0-9a-f]' 2> /dev/null | wc -l
}

fanouts_complete() {
	[ "$(fanouts)" -eq 256 ]
}

# Names of the data files in the volume's fan-out folders, sorted.
cached_names() {
	find "$voldir" -mindepth 2 -type f | sed 's|.*/||' | sort
}

names_are_wanted() {
	[ "$(cached_names)" = "$want" ]
}

kunit_suite() {
	ktap=$(klog | sed -n '/^ *# Subtest: cachefiles_key$/,/^ *\(not \)\{0,1\}ok [0-9]* cachefiles_key$/p')
	[ -n "$ktap" ] || fail "no KUnit results for cachefiles_key in the kernel log (CONFIG_CACHEFILES_KUNIT_TEST)"
	echo "$ktap" | grep -E '^ *(not )?ok [0-9]+ [DSTE][0-2]?: '
	if echo "$ktap" | grep -Eq '^ *not ok '; then
		echo "$ktap"
		fail "KUnit cachefiles_key has failures"
	fi
	for form in D S T E0 E1 E2; do
		echo "$ktap" | grep -Eq "^ *ok [0-9]+ $form: " || fail "KUnit cachefiles_key ran no vector of form $form"
	done
	n=$(echo "$ktap" | grep -Ec '^ *ok [0-9]+ [DSTE][0-2]?: ')
	total=$(echo "$ktap" | sed -n 's/^ *# cachefiles_cook_key_test: pass:\([0-9]*\) fail:0 skip:0 total:\1$/\1/p')
	[ "$n" = "$total" ] || fail "KUnit cachefiles_key: $n vectors passed, the suite counts '${total:-no total}'"
	echo "$ktap" | tail -n 1 | grep -Eq '^ *ok [0-9]+ cachefiles_key$' || fail "KUnit suite cachefiles_key did not pass"
	echo "KUnit cachefiles_key: all $n vectors passed"
}

case $1 in
cachefiles_bind)
	cache_up
	awk -v t="$tag" '$7 == t' /proc/fs/fscache/caches
	share_up
	poll 100 volume_listed || { cat /proc/fs/fscache/volumes; fail "volume 9p,$mtag, is not in cache $tag"; }
	# cachefiles makes the volume's folder and its 256 fan-out folders in
	# the background once fscache has acquired the volume.
	poll 100 fanouts_complete || fail "$voldir has $(fanouts) fan-out folders, not 256"
	echo "volume 9p,$mtag, in cache $tag: $voldir, $(fanouts) fan-out folders"
	;;
cachefiles_charmap)
	kunit_suite
	cache_up
	share_up
	(cd "$share" && sha256sum -c SHA256SUMS) || fail "content read through the cache differs from SHA256SUMS"
	want=''
	for f in "$share"/*; do
		key=$(cookie_key "$f")
		name=$(cachefiles-key "$key") || fail "cachefiles-key $key failed"
		echo "${f#"$share"/}: cookie key $key, expected cache file $name"
		want="$want$name
"
	done
	want=$(printf '%s' "$want" | sort)
	# New cache files are linked into the volume when their cookie is
	# relinquished: unmounting does that for all of them.
	share_down
	poll 100 names_are_wanted || {
		echo "in the cache:"
		find "$voldir" -mindepth 2 -type f
		fail "the cache file names are not those of the encoder"
	}
	echo "every cache file is named as the encoder says"
	;;
cachefiles_hit)
	[ -r /proc/fs/fscache/stats ] || fail "no /proc/fs/fscache/stats (CONFIG_FSCACHE_STATS)"
	cache_up
	share_up
	(cd "$share" && cat -- * > /dev/null) || fail "cannot read $share"
	share_down
	# Stopping the daemon withdraws the cache; nothing may be lost.
	cache_down
	cache_up
	share_up
	for f in "$share"/*; do
		before=$(cache_reads)
		cat -- "$f" > /dev/null || fail "cannot read $f"
		after=$(cache_reads)
		echo "${f#"$share"/}: fscache reads $before -> $after"
		[ "$after" -gt "$before" ] || fail "${f#"$share"/} was not read from the cache"
	done
	(cd "$share" && sha256sum -c SHA256SUMS) || fail "content read from the cache differs from SHA256SUMS"
	;;
*)
	fail "70-cachefiles.sh: unknown case $1"
	;;
esac
