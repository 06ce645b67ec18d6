#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: lava_run_qemu lava
#
# lava_run_qemu: the jobs of board/lava/ that need no lab run in LAVA's own
# dispatcher (Debian's lava-run, offline: no server, no network), each on a
# device of board/lava/devices/ rendered as a LAVA server renders it, and
# their LAVA results equal the harness's KTAP of the same boot mode, case
# for case: qemu-dt.yaml (nsbsp-qemu) against harness.sh --mode dt,
# qemu-uboot.yaml (nsbsp-qemu-uboot: flasher, power on, U-Boot commands)
# against --mode uboot. Same names in the same order (kernel_log_clean, the
# checks' own verdict on the kernel log, among them), same verdicts, as
# many results as the plan the board printed, and the job Complete. A dt
# job with a selection (nsbsp.select=) shows a pass, a skip recorded as
# "skip" and a forced failing case (selftest_hang, stopped at its bound) as
# "fail", as the harness does. Shown to bite: a wrong sha256sum fails the
# deploy, an sdcard.img whose FIT has one byte changed ends Incomplete
# (U-Boot refuses it), a boot whose checks never start ends Incomplete, and
# so does one whose checks never finish (with the results it gave).
# Nothing is left running: every process a job or a harness boot started
# (QEMU, the emulators) ends with it (tools/host-checks/lib/procs.sh).
# Needs Debian's lava-dispatcher (make lava installs it) and make's run.sh
# options of every boot (NSBSP_RUN_ARGS, from mk/lava.mk).
# Mode "lava": make check leaves it out, make lava runs it. It starts QEMU
# eight times (three harness boots with them): minutes, against make
# check's minute (docs/lava.md, Figures).
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
# shellcheck source=./lib/procs.sh
. "$TOP/tools/host-checks/lib/procs.sh"

py=/usr/bin/python3
work=$OUT/lava/work
# A boot's bound (make lava: TIMEOUT, as make check's boots).
timeout_s=${NSBSP_LAVA_TIMEOUT:-120}
# Everything the jobs and the harness boots start carries this tag.
tag=lava-run-$$

command -v lava-run > /dev/null || skip "no lava-run: make lava installs Debian's lava-dispatcher"
[ -n "${NSBSP_RUN_ARGS-}" ] || fail "NSBSP_RUN_ARGS is not set (run it through make lava)"
for f in "$KIMAGE" "$INITRAMFS" "$BOARD_DTB" "$OUT/images/sdcard.img" "$OUT/images/fixtures.img"; do
	[ -r "$f" ] || fail "$f: missing (make all image)"
done

rm -rf "$work"
mkdir -p "$work/devices" "$work/jobs"
# The dispatcher's configuration (a worker's /etc/lava-server/dispatcher.d/):
# 2023.01 keeps its jobs' files in /var/lib/lava/dispatcher/tmp/PREFIXID,
# so the prefix keeps two runs of this check apart.
printf 'prefix: "nsbsp-%s-"\n' "$$" > "$work/dispatcher.yaml"

# device NAME TYPE: a device NAME of type TYPE with a folder of its own.
device() {
	$py "$TOP/tools/lava-device.py" "$TOP/board/lava/devices/$2.jinja2" \
		"$work/devices/$1.jinja2" "$work/devices/$1.yaml" \
		nsbsp_top="$TOP" nsbsp_out="$OUT" nsbsp_state="$work/state/$1" ||
		fail "device $1 ($2) does not render"
}
# job NAME SOURCE LABEL=FILE...: board/lava/SOURCE pointed at the files.
job() {
	name=$1 src=$2
	shift 2
	$py "$TOP/tools/lava-job.py" "$TOP/board/lava/$src" "$work/jobs/$name.yaml" "$@" ||
		fail "job $name ($src) cannot be written"
}
# edit NAME PYTHON: change job NAME (the YAML as "job") in place, for the
# cases that must fail.
edit() {
	$py - "$work/jobs/$1.yaml" "$2" <<'PY' || fail "cannot change job $1"
import sys
import yaml
path, change = sys.argv[1:]
job = yaml.safe_load(open(path))
exec(change)
open(path, "w").write(yaml.safe_dump(job, sort_keys=False))
PY
}
# seconds T0 T1 FILE: the seconds between two `date +%s%N` into FILE.
seconds() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", (b - a) / 1e9 }' > "$3"
}
# lava NAME DEVICE ID: run job NAME on DEVICE with lava-run, its log in
# NAME.log, its outcome in NAME.results (tools/lava-results.py), its
# seconds in NAME.time. The job's own timeouts end it; twice a boot's bound
# is only there in case lava-run hangs (then it has no job result).
lava() {
	t0=$(date +%s%N)
	NSBSP_PROCTAG=$tag timeout -k 5 $((timeout_s * 2)) lava-run --job-id "$3" --output-dir "$work/run-$1" \
		--device "$work/devices/$2.yaml" --dispatcher "$work/dispatcher.yaml" \
		"$work/jobs/$1.yaml" < /dev/null > "$work/$1.log" 2>&1 || true
	seconds "$t0" "$(date +%s%N)" "$work/$1.time"
	$py "$TOP/tools/lava-results.py" "$work/jobs/$1.yaml" "$work/$1.log" > "$work/$1.results" 2>&1 || true
}
# harness NAME MODE [run.sh option...]: the harness's boot, KTAP in NAME/MODE.ktap.
harness() {
	name=$1 mode=$2
	shift 2
	t0=$(date +%s%N)
	# shellcheck disable=SC2086 # NSBSP_RUN_ARGS is a list of options
	NSBSP_PROCTAG=$tag sh "$TOP/qemu/harness.sh" --mode "$mode" --timeout "$timeout_s" --out "$work/$name" \
		--kernel "$KIMAGE" --initrd "$INITRAMFS" --dtb "$BOARD_DTB" $NSBSP_RUN_ARGS "$@" \
		> "$work/$name.harness" 2>&1 || true
	seconds "$t0" "$(date +%s%N)" "$work/$name.time"
}
# The harness's KTAP as "NAME pass|fail|skip", its own harness_verdict left out.
ktap_verdicts() {
	sed -n -E -e 's/^ok [0-9]+ ([^ ]+) # SKIP.*/\1 skip/p' -e 's/^ok [0-9]+ ([^ ]+)$/\1 pass/p' \
		-e 's/^not ok [0-9]+ ([^ ]+).*/\1 fail/p' "$1" | grep -v '^harness_verdict '
}
# same JOB HARNESS_DIR MODE: the job's results equal that harness KTAP.
same() {
	results=$work/$1.results ktap=$2/$3.ktap
	echo "--- $1: LAVA $(head -n 1 "$results"), $(grep -c -v -e '^job ' -e '^plan ' "$results") results" \
		"in $(cat "$work/$1.time") s; harness $3: $(grep '^ok\|^not ok' "$ktap" | tail -n 1)," \
		"in $(cat "$2.time") s"
	[ "$(head -n 1 "$results")" = "job pass" ] || fail "$1: the LAVA job did not finish correctly (see $work/$1.log)"
	grep -v -e '^job ' -e '^plan ' "$results" > "$work/$1.lava-verdicts"
	ktap_verdicts "$ktap" > "$work/$1.harness-verdicts"
	[ -s "$work/$1.harness-verdicts" ] || fail "$1: no results from the harness (see $2/$3.log)"
	diff "$work/$1.harness-verdicts" "$work/$1.lava-verdicts" > "$work/$1.diff" ||
		{ sed 's/^/  /' "$work/$1.diff"; fail "$1: LAVA's results (>) differ from the harness's KTAP (<)"; }
	plan=$(sed -n 's/^plan //p' "$results")
	n=$(wc -l < "$work/$1.lava-verdicts")
	[ "$plan" = "$n" ] || fail "$1: $n LAVA results, the board's plan was ${plan:-missing}"
	[ "$(sed -n 's/^1\.\.//p' "$ktap")" = $((n + 1)) ] || fail "$1: the harness planned another number of cases"
	echo "$1: $n cases, the same names and verdicts as the harness: $(cut -d ' ' -f 2 "$work/$1.lava-verdicts" | sort | uniq -c | tr -s ' \n' ' ')"
}
# logged JOB LEVELS ERE: the messages of the levels LEVELS (an ERE; target:
# the board's console, feedback: the console after the action that waited
# for it ended) in the job's log that match ERE, at most three.
logged() {
	grep -E "^\\{\"dt\": \"[^\"]*\", \"lvl\": \"($2)\", \"msg\": \"" "$work/$1.log" |
		sed -e 's/, "ns": "[^"]*"}$/}/' -e 's/^{"dt": "[^"]*", "lvl": "[^"]*", "msg": "\(.*\)"}$/\1/' |
		grep -E "$3" | head -n 3
}
# incomplete JOB ERE: the job ended Incomplete, LAVA's reason matching ERE.
incomplete() {
	echo "--- $1: LAVA $(head -n 1 "$work/$1.results") ($(cat "$work/$1.time") s)"
	grep -Eq "^job fail .*$2" "$work/$1.results" || fail "$1: not Incomplete for '$2' (see $work/$1.log)"
	if grep -q -v -e '^job ' -e '^plan ' "$work/$1.results"; then
		fail "$1: an Incomplete job with test results: $(grep -v '^job ' "$work/$1.results" | head -n 3 | tr '\n' ' ')"
	fi
}

case $1 in
lava_run_qemu)
	command -v mcopy > /dev/null || fail "no mcopy (mtools)"
	sdcard=$OUT/images/sdcard.img
	for d in dt select nostart noend badsum; do device "qemu-$d" nsbsp-qemu; done
	for d in uboot tamper; do device "qemu-$d" nsbsp-qemu-uboot; done
	dt_files="kernel=$KIMAGE initrd=$INITRAMFS dtb=$BOARD_DTB"
	# shellcheck disable=SC2086 # one LABEL=FILE per word
	for j in dt select nostart noend badsum; do job "$j" qemu-dt.yaml $dt_files; done
	job uboot qemu-uboot.yaml image="$sdcard"

	# The cases that must fail or be skipped: a pass, a skip (the stub's
	# upload is not observable with a passed-through stick), a case that
	# hangs (stopped after 3 s: fail), as harness_check_hang selects them.
	sel="nsbsp.carl9170=host nsbsp.select=boot_dt,carl9170_fw_upload,selftest_hang nsbsp.timeout=3"
	edit select "job['actions'][0]['deploy']['images']['kernel']['image_arg'] = '-kernel {kernel} -append \"nsbsp.check=1 $sel\"'"
	# No nsbsp.check=1: the board boots to its shell, the checks never start.
	edit nostart "job['actions'][0]['deploy']['images']['kernel']['image_arg'] = '-kernel {kernel}'; job['timeouts']['connection'] = {'seconds': 20}"
	# A case that hangs (its bound is 1000 s): the checks never finish, the
	# test's timeout (30 s here) ends the job.
	edit noend "job['actions'][0]['deploy']['images']['kernel']['image_arg'] = '-kernel {kernel} -append \"nsbsp.check=1 nsbsp.select=boot_dt,selftest_hang nsbsp.timeout=1000\"'; job['actions'][2]['test']['timeout'] = {'seconds': 30}"
	# One digit of the kernel's sha256sum changed.
	edit badsum "k = job['actions'][0]['deploy']['images']['kernel']; k['sha256sum'] = ('1' if k['sha256sum'][0] != '1' else '2') + k['sha256sum'][1:]"
	# The image with one byte of the FIT's virt kernel changed (its right
	# checksum in the job: the deploy passes, U-Boot must refuse it): the
	# byte is changed in the image itself, where the FIT's kernel-virt
	# (image 0, the first kernel) lies in the FAT partition.
	off=$(($(od -An -tu4 -j454 -N4 "$sdcard") * 512))
	mcopy -n -i "$sdcard@@$off" ::nsbsp.itb "$work/nsbsp.itb" || fail "no nsbsp.itb in $sdcard"
	dumpimage -T flat_dt -p 0 -o "$work/kernel" "$work/nsbsp.itb" > /dev/null || fail "no kernel image in the FIT"
	$py - "$sdcard" "$work/kernel" "$work/tampered.img" <<'PY' || fail "cannot change the kernel in the image"
import sys
img = bytearray(open(sys.argv[1], "rb").read())
kernel = open(sys.argv[2], "rb").read()
at = img.find(kernel[:4096])
assert at >= 0 and img[at:at + len(kernel)] == kernel, "the kernel is not in one piece in the image"
img[at + len(kernel) // 2] ^= 0x01
open(sys.argv[3], "wb").write(img)
print("tampered: byte %d of sdcard.img (the middle of the FIT's kernel-virt)" % (at + len(kernel) // 2))
PY
	[ "$(cmp -l "$sdcard" "$work/tampered.img" | wc -l)" -eq 1 ] || fail "the tampered image differs in more than one byte"
	mcopy -n -i "$work/tampered.img@@$off" ::nsbsp.itb "$work/tampered.itb" || fail "no nsbsp.itb in the tampered image"
	[ "$(cmp -l "$work/nsbsp.itb" "$work/tampered.itb" | wc -l)" -eq 1 ] || fail "the tampered image's FIT does not differ in one byte"
	job tamper qemu-uboot.yaml image="$work/tampered.img"

	# Each job beside its harness boot (two QEMUs at a time, as two boot
	# modes of make check: the checks' timing is the same for both), the
	# short ones together.
	lava dt qemu-dt 1 &
	harness harness-dt dt &
	wait
	lava uboot qemu-uboot 2 &
	harness harness-uboot uboot &
	wait
	lava select qemu-select 3 &
	harness harness-select dt --append "$sel" &
	lava badsum qemu-badsum 4 &
	lava tamper qemu-tamper 5 &
	lava nostart qemu-nostart 6 &
	lava noend qemu-noend 7 &
	wait

	same dt "$work/harness-dt" dt
	same uboot "$work/harness-uboot" uboot
	for j in dt uboot; do
		tail -n 1 "$work/$j.lava-verdicts" | grep -q '^kernel_log_clean ' ||
			fail "$j: kernel_log_clean is not the job's last result"
	done
	same select "$work/harness-select" dt
	[ "$(cut -d ' ' -f 2 "$work/select.lava-verdicts" | tr '\n' ' ')" = "pass skip fail " ] ||
		fail "select: want pass, skip, fail; LAVA gave $(tr '\n' ' ' < "$work/select.lava-verdicts")"
	incomplete badsum 'sha256'
	logged badsum error 'sha256'
	incomplete tamper "matched a bootloader error message"
	logged tamper 'target|feedback' 'sha256 error|Bad hash value|SCRIPT FAILED'
	[ -z "$(logged tamper 'target|feedback' '^Starting kernel')" ] || fail "tamper: U-Boot started a kernel"
	incomplete nostart "wait for prompt timed out"
	logged nostart info 'Waiting for start message'
	[ -z "$(logged nostart info 'start string found')" ] || fail "nostart: LAVA saw the start marker"
	echo "--- noend: LAVA $(head -n 1 "$work/noend.results") ($(cat "$work/noend.time") s)"
	grep -q '^job fail .*lava-test-monitor timed out' "$work/noend.results" ||
		fail "noend: not Incomplete on the test's timeout (see $work/noend.log)"
	[ "$(grep -v -e '^job ' -e '^plan ' "$work/noend.results" | tr '\n' ' ')" = "boot_dt pass " ] ||
		fail "noend: want the one result before the hang, got $(tr '\n' ' ' < "$work/noend.results")"
	# Every QEMU and emulator of the jobs and boots has ended with them.
	procs_gone "$tag" 10 || fail "left running after the jobs"
	;;
*)
	fail "lava-run.sh: unknown case $1"
	;;
esac
