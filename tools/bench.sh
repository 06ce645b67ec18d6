#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Measure the BSP's speed figures and write OUT/bench.json and a table.
# Each figure is the median of several runs, with min and max.
#
# usage: bench.sh   (run by `make bench`; environment from the Makefile:
#   TOP OUT KOUT KIMAGE INITRAMFS MODES, RUNS (default 5),
#   COLD_RUNS (default 1: a cold build takes minutes), MAKE,
#   BOOT_ARGS (the harness's run.sh options: kernel, initrd, DTB, disks...),
#   BASELINE (a git revision: its warm make check too, run for run beside
#   this one's, in a work tree of its own), LAVA (1: make lava's jobs
#   beside the harness's boots of the same modes), FRESH (1: make check
#   on a fresh Debian 12 chroot, tools/fresh-check.sh), FIGURES (the
#   groups to measure, default all: cold noop edit boot check))
# It writes only below OUT: a patch edit is made in a copy of the series.
set -eu
: "${TOP:?}" "${OUT:?}" "${KOUT:?}" "${KIMAGE:?}" "${INITRAMFS:?}" "${BOOT_ARGS:?}"
runs=${RUNS:-5}
cold_runs=${COLD_RUNS:-1}
modes=${MODES:-dt}
make=${MAKE:-make}
figures=${FIGURES:-cold noop edit boot check}
for f in $figures; do
	case $f in
	cold | noop | edit | boot | check) ;;
	*) echo "Error: FIGURES: no group '$f' (cold noop edit boot check)" >&2; exit 2 ;;
	esac
done
# want GROUP: GROUP is one of the figures asked for.
want() {
	case " $figures " in *" $1 "*) return 0 ;; esac
	return 1
}
work=$OUT/bench
mkdir -p "$work"
rows=$work/rows
: > "$rows"

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }

# record NAME UNIT GOAL VALUE... : median/min/max of the values.
record() {
	name=$1 unit=$2 goal=$3
	shift 3
	printf '%s\n' "$@" | sort -g > "$work/values"
	n=$(wc -l < "$work/values")
	med=$(sed -n "$(((n + 1) / 2))p" "$work/values")
	min=$(head -n 1 "$work/values")
	max=$(tail -n 1 "$work/values")
	echo "$name|$unit|$goal|$med|$min|$max|$n" >> "$rows"
	printf '  BENCH   %-34s %10s %s (min %s, max %s, %d runs)\n' "$name" "$med" "$unit" "$min" "$max" "$n"
}

# time_cmd CMD... : print seconds, fail loudly if the command fails.
time_cmd() {
	t0=$(now)
	"$@" > "$work/cmd.log" 2>&1 || { cat "$work/cmd.log" >&2; echo "Error: $* failed" >&2; exit 1; }
	secs "$t0" "$(now)"
}

# prep: make everything, untimed (its log in prep.log, shown if it fails).
prep() {
	$make -C "$TOP" all > "$work/prep.log" 2>&1 || { cat "$work/prep.log" >&2; exit 1; }
}

echo "  BENCH   making sure everything is built first"
prep

# Cold kernel build from the extracted tree, ccache off.
if want cold; then
	v=
	i=0
	while [ $i -lt "$cold_runs" ]; do
		rm -rf "$KOUT"
		v="$v $(time_cmd env CCACHE_DISABLE=1 "$make" -C "$TOP" kernel)"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # one value per word
	record cold_kernel_build s 480 $v
	# What is made from the kernel follows it again, untimed: the no-op
	# figure's first run would make it.
	prep
fi

# The baseline's make, that revision's own: with nothing of this make's
# environment (KOUT and the rest that make bench hands this script are
# this tree's; the baseline would build into this tree's folders).
base_make() {
	env -i PATH="$PATH" HOME="${HOME:-/root}" LANG="${LANG:-C.UTF-8}" "$make" -C "$base" "$@"
}

# repeat CMD...: the seconds of RUNS runs of CMD, one per word.
repeat() {
	r=0
	while [ $r -lt "$runs" ]; do
		printf '%s ' "$(time_cmd "$@")"
		r=$((r + 1))
	done
}

if want noop; then
	# shellcheck disable=SC2046 # one value per word
	record noop_make s 2 $(repeat "$make" -C "$TOP" all)
fi

# Edit one patch: a copy of kernel-patches/ gets a throw-away patch that
# touches one driver file, the kernel is built from it (KPATCHES=), then
# from the copy without it again (both rebuilds are timed).
if want edit; then
	patches=$work/kernel-patches
	rm -rf "$patches"
	cp -R "$TOP/kernel-patches" "$patches"
	cp "$patches/series" "$work/series.orig"
	v=
	i=0
	while [ $i -lt "$runs" ]; do
		# The patch quotes the kernel file's licence line (REUSE-IgnoreStart)
		cat > "$patches/9999-bench-edit.patch" <<PATCH
--- a/drivers/input/joystick/magellan.c
+++ b/drivers/input/joystick/magellan.c
@@ -1,3 +1,4 @@
+// bench edit $i
 // SPDX-License-Identifier: GPL-2.0-or-later
 /*
  *  Copyright (c) 1999-2001 Vojtech Pavlik
PATCH
		# REUSE-IgnoreEnd
		echo 9999-bench-edit.patch >> "$patches/series"
		v="$v $(time_cmd "$make" -C "$TOP" all KPATCHES="$patches")"
		cp "$work/series.orig" "$patches/series"
		rm -f "$patches/9999-bench-edit.patch"
		v="$v $(time_cmd "$make" -C "$TOP" all KPATCHES="$patches")"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	record one_patch_edit_rebuild s 60 $v
fi

# QEMU start to KTAP end, per boot mode, and QEMU's peak RSS.
if want boot; then
	for m in $modes; do
		v='' rss=''
		i=0
		while [ $i -lt "$runs" ]; do
			# shellcheck disable=SC2086 # BOOT_ARGS: one run.sh option per word
			/usr/bin/time -f '%M' -o "$work/rss" sh "$TOP/qemu/harness.sh" --mode "$m" \
				--timeout 120 --out "$work/results" $BOOT_ARGS > "$work/harness.log" 2>&1 ||
				{ cat "$work/harness.log" >&2; echo "Error: boot in mode $m failed" >&2; exit 1; }
			v="$v $(sed -n 's/^# mode [a-z]*: QEMU ran \([0-9.]*\)s.*/\1/p' "$work/results/$m.ktap")"
			rss="$rss $(tail -n 1 "$work/rss")"
			i=$((i + 1))
		done
		# shellcheck disable=SC2086
		record "boot_to_results_$m" s 5 $v
		# shellcheck disable=SC2086
		record "qemu_peak_rss_$m" KiB - $rss
	done
fi

# Warm make check: nothing changed since the last one. The first after a
# build is not: it runs again the host checks that read what the build
# changed (a commit changes the images), so it is a figure of its own and
# the warm runs follow it. With BASELINE, that revision's too, alternating
# run for run so that both see the same machine.
if want check; then
	record first_make_check s - "$(time_cmd "$make" -C "$TOP" check)"
	if [ -n "${BASELINE-}" ]; then
		base=$work/baseline
		rev=$(git -C "$TOP" rev-parse --verify "$BASELINE^{commit}") ||
			{ echo "Error: BASELINE=$BASELINE is not a revision of $TOP" >&2; exit 1; }
		if [ "$(git -C "$base" rev-parse HEAD 2> /dev/null)" != "$rev" ]; then
			git -C "$TOP" worktree remove --force "$base" 2> /dev/null || rm -rf "$base"
			git -C "$TOP" worktree prune
			git -C "$TOP" worktree add -q --detach "$base" "$rev"
		fi
		echo "  BENCH   baseline $(git -C "$TOP" log -1 --format='%h %s' "$rev") in $base"
		base_make all > "$work/baseline-prep.log" 2>&1 || { cat "$work/baseline-prep.log" >&2; exit 1; }
		base_make check > "$work/baseline-prep.log" 2>&1 || { cat "$work/baseline-prep.log" >&2; exit 1; }
		v='' vb=''
		r=0
		while [ $r -lt "$runs" ]; do
			v="$v $(time_cmd "$make" -C "$TOP" check)"
			vb="$vb $(time_cmd base_make check)"
			r=$((r + 1))
		done
		# shellcheck disable=SC2086
		record warm_make_check s 45 $v
		# shellcheck disable=SC2086
		record "warm_make_check_at_$(git -C "$TOP" rev-parse --short "$rev")" s - $vb
	else
		# shellcheck disable=SC2046
		record warm_make_check s 45 $(repeat "$make" -C "$TOP" check)
	fi
fi

# make lava: each LAVA job's time beside the harness's boot of its mode
# (lava_run_qemu runs both, one after the other).
if [ "${LAVA-}" = 1 ]; then
	$make -C "$TOP" lava > "$work/lava.log" 2>&1 || { cat "$work/lava.log" >&2; echo "Error: make lava failed" >&2; exit 1; }
	# "# --- dt: LAVA job pass, 33 results in 52.1 s; harness dt: ok 33 ..., in 50.3 s"
	sed -n 's/^# --- \(dt\|uboot\): LAVA job pass, .* in \([0-9.]*\) s; harness \([a-z]*\): .* in \([0-9.]*\) s$/\1 \2 \3 \4/p' \
		"$OUT/results/lava.ktap" > "$work/lava.times"
	[ -s "$work/lava.times" ] || { echo "Error: no job times in $OUT/results/lava.ktap" >&2; exit 1; }
	while read -r job t _ th; do
		record "lava_job_$job" s - "$t"
		record "harness_boot_beside_$job" s - "$th"
	done < "$work/lava.times"
fi

# A fresh machine's make check, last: it takes the cores for many minutes.
if [ "${FRESH-}" = 1 ]; then
	sh "$TOP/tools/fresh-check.sh" "$work/fresh" | tee "$work/fresh.out"
	# shellcheck disable=SC2046 # "fresh_check SECONDS STATUS"
	set -- $(tail -n 1 "$work/fresh.out")
	[ "$3" -eq 0 ] || { echo "Error: make check failed in the fresh chroot (exit $3): $work/fresh/check.log" >&2; exit 1; }
	record fresh_make_check s 600 "$2"
fi

record kernel_image_size KiB - "$(($(wc -c < "$KIMAGE") / 1024))"
record initramfs_size KiB - "$(($(wc -c < "$INITRAMFS") / 1024))"

# JSON and a Markdown table (the README quotes it).
{
	echo "{"
	echo "  \"date\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\", \"cores\": $(nproc),"
	echo "  \"figures\": ["
	awk -F'|' '{ printf "%s    {\"name\": \"%s\", \"unit\": \"%s\", \"goal\": \"%s\", \"median\": %s, \"min\": %s, \"max\": %s, \"runs\": %s}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5, $6, $7 } END { print "" }' "$rows"
	echo "  ]"
	echo "}"
} > "$OUT/bench.json"
{
	echo "| figure | median | min | max | runs | goal |"
	echo "| --- | --- | --- | --- | --- | --- |"
	awk -F'|' '{ printf "| %s | %s %s | %s | %s | %s | %s |\n", $1, $4, $2, $5, $6, $7, ($3 == "-" ? "-" : "<= " $3 " " $2) }' "$rows"
} > "$OUT/bench.md"
cat "$OUT/bench.md"
echo "  BENCH   wrote $OUT/bench.json and $OUT/bench.md"
