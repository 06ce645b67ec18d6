#!/bin/sh
# case: ak8974_probe_ami306 dt,uboot
# case: ak8974_axis_table dt,uboot
# case: ak8974_selftest dt,uboot
# case: ak8974_iio_read dt,uboot
# case: ak8974_probe_ak8974 dt,uboot
# case: ak8974_i2c_stub dt,uboot
# case: ak8974_sim_registers dt,uboot
# case: ak8974_fault_nak dt
# case: ak8974_fault_whoami dt
# case: ak8974_fault_no_drdy dt
#
# The AK8974/AMI306 magnetometers (drivers/iio/magnetometer/ak8974.c) on
# the board's I2C bus (dts/ak8974.dtso), served by the emulated bus of
# kernel-patches/0007 (i2c-ak8974-sim). Every expected value is read from
# the chip model's debugfs folder, /sys/kernel/debug/ak8974-sim/<bus>-<addr>
# (named like the i2c device): variant, otp, field, regs, measurements.
#
# ak8974_probe_ami306  the AMI306 was probed from its DT node: "detected
#                      ami306, FW ver, S/N" with the model's ver & 0x7f and
#                      sn, its supplies found, IIO device named ami306
# ak8974_axis_table    the three "factory calibration for axis" lines: axis
#                      letters X, Y, Z and the gain-axis letters of the
#                      model's gain registers (gain_xz at 0x9c ...), every
#                      number equal to the model's factory values
# ak8974_selftest      no self-test failure for the DT-probed parts (the
#                      model answers 0x55 -> 0xAA -> 0x55)
# ak8974_iio_read      in_magn_{x,y,z}_raw equal the model's field (the
#                      driver reports the sensor's own axes and the DT
#                      mount-matrix beside them), one measurement each; a
#                      new field reads back; a field beyond the range reads
#                      as ERANGE
# ak8974_probe_ak8974  the AK8974 was probed from its DT node: "detected
#                      AK8974", its supplies found, IIO device named ak8974
# ak8974_i2c_stub      the design card's path: i2c-stub, registers preset
#                      with i2cset, new_device, probed as AK8974
# ak8974_sim_registers the chip model itself, through i2c-tools (SMBus
#                      emulated on the same bus): registers equal the
#                      model's dump, the self-test handshake, a forced
#                      measurement with self-clearing FORCE and DRDY,
#                      read-only registers, the nak and no-drdy faults
#
# The fault cases bind the driver to a part that misbehaves and want it to
# fail cleanly: its own error lines (each quoted from ak8974.c below), no
# IIO device where there should be none, no kernel splat. They use the
# emulated bus's spare part (the chip model without a DT node, an AMI305
# at 0x0d in dts/ak8974.dtso), instantiated at run time through
# new_device and deleted at the end with the model's fault and WHOAMI put
# back, so the board's DT-probed parts are never touched.
# ak8974_fault_nak     the part answers nothing: the probe stops at its
#                      first transfer ("could not power on"); with the
#                      fault cleared, binding the driver again probes it
# ak8974_fault_whoami  the part answers a WHOAMI the driver does not know:
#                      "unsupported device (NN)", "neither AK8974 nor
#                      AMI30x found"
# ak8974_fault_no_drdy the part never raises DRDY: the probe succeeds, a
#                      read of in_magn_x_raw fails with ETIMEDOUT within a
#                      bound ("timeout waiting for DRDY"), one measurement
#                      was forced; with the fault cleared reads work again
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

sim=/sys/kernel/debug/ak8974-sim
i2cdevs=/sys/bus/i2c/devices

# fail, for helpers whose output is captured: the reason goes to stderr
# (a diagnostic too), the caller stops with "|| exit 1".
die() {
	echo "$*" >&2
	exit 1
}

# The i2c device name (<bus>-<addr>) of the chip model answering as $1.
sim_chip() {
	for d in "$sim"/*-*; do
		[ -f "$d/variant" ] || continue
		read -r v _ < "$d/variant"
		[ "$v" = "$1" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}

# The model's factory value $2 of chip $1.
otp() {
	v=$(awk -v n="$2" '$1 == n { print $2 }' "$sim/$1/otp")
	[ -n "$v" ] || die "the model of $1 has no factory value $2"
	echo "$v"
}

# The IIO device folder of i2c device $1.
iio_dir() {
	for d in "$i2cdevs/$1"/iio:device*; do
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}

# Chip $1 (a model variant) was probed by ak8974 from its DT node: prints
# the i2c device name.
dt_probed() {
	[ -d "$sim" ] || die "no $sim: the emulated bus (i2c-ak8974-sim) did not probe"
	if ! name=$(sim_chip "$1"); then
		klog | grep -F 'i2c-ak8974-sim' >&2
		die "no $1 chip model on the emulated bus"
	fi
	dev=$i2cdevs/$name
	[ -d "$dev" ] || die "no i2c device $name for the $1 model"
	[ -e "$dev/of_node" ] || die "$name has no DT node: not probed from the device tree"
	grep -qx 'asahi-kasei,ak8974' "$dev/of_node/compatible" ||
		die "$name: DT node is not asahi-kasei,ak8974"
	drv=$(readlink "$dev/driver") || die "$name: no driver bound"
	[ "${drv##*/}" = ak8974 ] || die "$name: bound to ${drv##*/}, not ak8974"
	echo "$name"
}

# The kernel log lines of device $1 (ak8974 <bus>-<addr>: ...).
dev_log() {
	klog | grep -F "ak8974 $1: " || true
}

# Read IIO attribute $1; fails the case on a read error.
iio_read() {
	v=$(cat "$1" 2>/tmp/ak8974.err) || die "reading $1: $(cat /tmp/ak8974.err)"
	echo "$v"
}

# in_magn_{x,y,z}_raw of i2c device $1 equal its model's field, and each
# read is one forced measurement of the model.
check_field() {
	iio=$(iio_dir "$1") || die "$1: no IIO device"
	read -r fx fy fz < "$sim/$1/field"
	before=$(cat "$sim/$1/measurements")
	x=$(iio_read "$iio/in_magn_x_raw") || exit 1
	y=$(iio_read "$iio/in_magn_y_raw") || exit 1
	z=$(iio_read "$iio/in_magn_z_raw") || exit 1
	after=$(cat "$sim/$1/measurements")
	echo "$1: model field $fx $fy $fz, in_magn_{x,y,z}_raw $x $y $z, measurements $before -> $after"
	[ "$x $y $z" = "$fx $fy $fz" ] || die "$1: raw values differ from the model's field"
	[ $((after - before)) -eq 3 ] || die "$1: 3 reads made $((after - before)) measurements, not 3"
}

# The chip model that has no i2c device (the DT's spare part, which only
# the fault cases instantiate): prints its name, <bus>-<addr>.
spare_chip() {
	[ -d "$sim" ] || die "no $sim: the emulated bus (i2c-ak8974-sim) did not probe"
	for d in "$sim"/*-*; do
		[ -f "$d/variant" ] || continue
		[ -e "$i2cdevs/${d##*/}" ] && continue
		echo "${d##*/}"
		return 0
	done
	die "every chip model has an i2c device: no spare part for the fault cases (nonstring-bsp,sim-chips in dts/ak8974.dtso)"
}

# Sets name, bus, addr and variant for the spare part, and restores its
# model (no fault, its own WHOAMI) and deletes its client however the case
# ends.
fault_setup() {
	name=$(spare_chip) || exit 1
	bus=${name%%-*}
	addr=$(printf '0x%02x' $((0x${name#*-})))
	read -r variant whoami < "$sim/$name/variant"
	echo "spare part $name: $variant, WHOAMI $whoami"
	trap fault_cleanup EXIT
}

fault_cleanup() {
	echo none > "$sim/$name/fault"
	echo "$whoami" > "$sim/$name/whoami"
	if [ -e "$i2cdevs/$name" ]; then
		echo "$addr" > "$i2cdevs/i2c-$bus/delete_device"
	fi
}

# Instantiate the spare part at run time; the driver probes it at once.
instantiate() {
	echo "$variant $addr" > "$i2cdevs/i2c-$bus/new_device" ||
		fail "new_device $variant $addr on i2c-$bus failed"
	[ -e "$i2cdevs/$name" ] || fail "new_device made no i2c device $name"
}

# The expected line (a fixed string) was logged after the marker.
want_line() {
	klog_since | grep -Fqx -- "$1" || fail "missing in the kernel log: '$1'"
	echo "logged: '$1'"
}

# No kernel splat since the marker: named here with the case, not only
# by kernel_log_clean and the boot's verdict.
no_splat() {
	s=$(klog_since | splats)
	[ -z "$s" ] || fail "kernel splat during $1: $s"
}

# The IIO devices of the whole system, one a line.
iio_list() {
	ls /sys/bus/iio/devices 2>/dev/null || true
}

# The probe of $name failed: no driver bound, no IIO device anywhere that
# was not there before ($1).
not_bound() {
	[ ! -e "$i2cdevs/$name/driver" ] ||
		fail "$name: bound to $(readlink "$i2cdevs/$name/driver") despite the fault"
	[ "$(iio_list)" = "$1" ] || fail "an IIO device appeared despite the fault: $(iio_list | tr '\n' ' ')"
	echo "$name: no driver bound, no new IIO device"
}

# The line ak8974_detect() logs for the spare part's variant
# (ak8974.c:513-523): AMI30x with version (bits 0-6) and serial number.
detected_line() {
	case $variant in
	ami305 | ami306)
		ver=$(otp "$name" ver) || exit 1
		sn=$(otp "$name" sn) || exit 1
		printf 'ak8974 %s: detected %s, FW ver %02x, S/N: %04x' "$name" "$variant" $((ver & 0x7f)) "$sn"
		;;
	ak8974) echo "ak8974 $name: detected AK8974" ;;
	*) echo "ak8974 $name: detected $variant" ;;
	esac
}

# Uptime in centiseconds.
now_cs() {
	read -r up _ < /proc/uptime
	echo "${up%.*}${up#*.}" | sed 's/^0*//; s/^$/0/'
}

# A random field value within the 12-bit range.
rand12() {
	r=$(od -An -tu2 -N2 /dev/urandom | tr -d ' ')
	echo $((r % 4096 - 2048))
}

# probed_as NAME VARIANT: the DT part NAME found its DT supplies and
# registered an IIO device whose name is VARIANT.
probed_as() {
	if dev_log "$1" | grep -q 'supply .* not found'; then
		fail "$1: the DT supplies were not found"
	fi
	iio=$(iio_dir "$1") || fail "$1: no IIO device"
	got=$(cat "$iio/name")
	echo "${iio##*/}: name $got"
	[ "$got" = "$2" ] || fail "${iio##*/}: name is '$got', not $2"
}

case $1 in
ak8974_probe_ami306)
	name=$(dt_probed ami306) || exit 1
	ver=$(otp "$name" ver) || exit 1
	sn=$(otp "$name" sn) || exit 1
	# ak8974_detect prints ver & 0x7f (bits 0-6 valid) and the LE16 S/N
	want=$(printf 'ak8974 %s: detected ami306, FW ver %02x, S/N: %04x' "$name" $((ver & 0x7f)) "$sn")
	dev_log "$name"
	klog_has "$want" || fail "missing: $want"
	probed_as "$name" ami306
	;;
ak8974_axis_table)
	name=$(dt_probed ami306) || exit 1
	dev_log "$name" | grep 'factory calibration' || true
	n=$(dev_log "$name" | grep -c 'factory calibration for axis') || true
	[ "$n" -eq 3 ] || fail "$name: $n factory calibration lines, want 3"
	for axis in X Y Z; do
		a=$(echo "$axis" | tr XYZ xyz)
		offz=$(otp "$name" "offz_$a") || exit 1
		sens=$(otp "$name" "sens_$a") || exit 1
		fine=$(otp "$name" "fine_$a") || exit 1
		# The two gain registers of this axis, in register order
		# (gain_xz, gain_xy for X): "pgaZ=<gain_xz> pgaY=<gain_xy>".
		pga=$(awk -v a="gain_$a" 'index($1, a) == 1 {
			printf " pga%s=%s", toupper(substr($1, length($1))), $2 }' "$sim/$name/otp")
		[ "$(echo "$pga" | wc -w)" -eq 2 ] || fail "the model has no two gain values for axis $axis"
		# ak8974_detect prints offz & 0x7f
		want="ak8974 $name: factory calibration for axis $axis: offz=$((offz & 0x7f)) sens=$sens fine=$fine$pga"
		klog_has "$want" || fail "missing: $want"
	done
	;;
ak8974_selftest)
	for variant in ami306 ak8974; do
		name=$(dt_probed "$variant") || exit 1
		klog | grep -q "ak8974 $name: detected" || fail "$name: the probe did not reach the self-test"
		bad=$(dev_log "$name" | grep -i 'selftest') || true
		[ -z "$bad" ] || fail "$name ($variant): $bad"
		echo "$name ($variant): self-test passed (no selftest message)"
	done
	;;
ak8974_iio_read)
	for variant in ami306 ak8974; do
		name=$(dt_probed "$variant") || exit 1
		iio=$(iio_dir "$name") || fail "$name: no IIO device"
		# The driver reports the sensor's axes; the DT's mount-matrix
		# (strings) is shown beside them, as "a, b, c; d, e, f; g, h, i".
		# shellcheck disable=SC2046,SC2183 # one matrix element per word
		want=$(printf '%s, %s, %s; %s, %s, %s; %s, %s, %s' \
			$(tr '\0' ' ' < "$i2cdevs/$name/of_node/mount-matrix"))
		got=$(iio_read "$iio/in_mount_matrix") || exit 1
		echo "$name: in_mount_matrix $got"
		[ "$got" = "$want" ] || fail "$name: in_mount_matrix is not the DT's ($want)"
		check_field "$name"
		old=$(cat "$sim/$name/field")
		echo "$(rand12) $(rand12) $(rand12)" > "$sim/$name/field" || fail "$name: the model refused a new field"
		check_field "$name"
		# Beyond the 12-bit range the part flags INT_SRC.RANGE.
		echo "4000 0 0" > "$sim/$name/field"
		if cat "$iio/in_magn_x_raw" 2>/tmp/ak8974.err; then
			fail "$name: a field beyond the range read without error"
		fi
		echo "$name: field 4000 0 0: $(cat /tmp/ak8974.err)"
		grep -q 'out of range' /tmp/ak8974.err || fail "$name: not ERANGE"
		echo "$old" > "$sim/$name/field"
	done
	;;
ak8974_probe_ak8974)
	name=$(dt_probed ak8974) || exit 1
	dev_log "$name"
	klog_has "ak8974 $name: detected AK8974" || fail "missing: ak8974 $name: detected AK8974"
	probed_as "$name" ak8974
	;;
ak8974_i2c_stub)
	addr=0x0e
	modprobe i2c-stub chip_addr=$addr || fail "modprobe i2c-stub failed"
	bus=
	for a in "$i2cdevs"/i2c-*; do
		grep -qx 'SMBus stub driver' "$a/name" 2>/dev/null && bus=${a##*/i2c-}
	done
	cleanup() {
		[ -e "$i2cdevs/$bus-000e" ] && echo $addr > "$i2cdevs/i2c-$bus/delete_device"
		rmmod i2c-stub
	}
	[ -n "$bus" ] || { rmmod i2c-stub; fail "no i2c-stub adapter"; }
	name=$bus-000e
	echo "i2c-stub is i2c-$bus"
	x=$(rand12) y=$(rand12) z=$(rand12)
	# The register file before new_device (section 1.7 of the notes):
	# WHOAMI AK8974, SELFTEST idle, STATUS.DRDY, no INT_SRC, X/Y/Z (LE16).
	set -- 0x0f 0x48 0x0c 0x55 0x18 0x40 0x16 0x00 \
		0x10 $((x & 0xff)) 0x11 $(((x >> 8) & 0xff)) \
		0x12 $((y & 0xff)) 0x13 $(((y >> 8) & 0xff)) \
		0x14 $((z & 0xff)) 0x15 $(((z >> 8) & 0xff))
	while [ $# -gt 0 ]; do
		i2cset -y "$bus" $addr "$1" "$2" || { cleanup; fail "i2cset $1 $2 failed"; }
		shift 2
	done
	echo ak8974 $addr > "$i2cdevs/i2c-$bus/new_device"
	# new_device probes synchronously; the IIO device is there or not.
	iio=$(iio_dir "$name") || { dev_log "$name"; cleanup; fail "$name: not probed (no IIO device)"; }
	dev_log "$name"
	res=0
	klog_has "ak8974 $name: detected AK8974" || { echo "missing: detected AK8974"; res=1; }
	echo "expected with i2c-stub: a static register file cannot answer the self-test (0x55 -> 0xAA), so 'selftest result NOT OK (55)' and 'selftest failed (continuing anyway)'"
	klog_has "ak8974 $name: selftest failed (continuing anyway)" || { echo "missing: the self-test failure a static register file gives"; res=1; }
	got=$(cat "$iio/name")
	[ "$got" = ak8974 ] || { echo "${iio##*/}: name is '$got', not ak8974"; res=1; }
	raw="$(cat "$iio/in_magn_x_raw") $(cat "$iio/in_magn_y_raw") $(cat "$iio/in_magn_z_raw")"
	echo "preset $x $y $z, in_magn_{x,y,z}_raw $raw"
	[ "$raw" = "$x $y $z" ] || { echo "raw values differ from the preset registers"; res=1; }
	cleanup || fail "cleanup failed"
	[ ! -e "$i2cdevs/i2c-$bus" ] || fail "i2c-$bus is still there after rmmod i2c-stub"
	[ $res -eq 0 ] || fail "i2c-stub path failed"
	;;
ak8974_sim_registers)
	name=$(dt_probed ak8974) || exit 1
	bus=${name%%-*} addr=0x${name#*-00}
	get() {
		v=$(i2cget -f -y "$bus" "$addr" "$1") || die "i2cget $bus $addr $1 failed"
		echo $((v))
	}
	put() { i2cset -f -y "$bus" "$addr" "$1" "$2" || fail "i2cset $bus $addr $1 $2 failed"; }
	# register $1 in the model's dump ("0x10: 48 00 ..." lines)
	model() {
		line=$(grep "^$(printf %02x $(($1 & 0xf0))): " "$sim/$name/regs")
		# shellcheck disable=SC2086 # one byte per word
		set -- $(($1 & 0xf)) ${line#*: }
		shift "$(($1 + 1))"
		echo $((0x$1))
	}
	get 0x1a > /dev/null || exit 1	# INT_CLEAR: no pending status
	for reg in 0x0c 0x0f 0x16 0x18 0x1b 0x1c 0x1d 0x1e 0x31; do
		v=$(get $reg) || exit 1
		m=$(model $reg)
		echo "reg $reg: i2cget $v, model $m"
		[ "$v" = "$m" ] || fail "register $reg over I2C differs from the model"
	done
	[ "$(get 0x0f)" = "$(awk '{ print $2 }' "$sim/$name/variant" | xargs printf '%d')" ] ||
		fail "WHOAMI is not the variant's"

	idle=$(get 0x0c) || exit 1
	put 0x1d 0x10	# CTRL3 SELFTEST
	pending=$(($(get 0x1d) & 0x10)) st1=$(get 0x0c) st2=$(get 0x0c) done=$(($(get 0x1d) & 0x10))
	echo "self-test: 0x0c $idle -> $st1 -> $st2, CTRL3.SELFTEST $pending -> $done"
	[ "$idle $st1 $st2" = "85 170 85" ] || fail "self-test handshake is not 0x55 -> 0xaa -> 0x55"
	[ "$pending $done" = "16 0" ] || fail "CTRL3.SELFTEST did not clear after the result was read"

	n0=$(cat "$sim/$name/measurements")
	x=$(rand12) y=$(rand12) z=$(rand12)
	echo "$x $y $z" > "$sim/$name/field"
	put 0x1d 0x40	# CTRL3 FORCE
	force=$(($(get 0x1d) & 0x40)) drdy=$(($(get 0x18) & 0x40))
	got=
	for reg in 0x10 0x12 0x14; do
		lo=$(get $reg) hi=$(get "$(printf 0x%02x $((reg + 1)))")
		v=$((hi << 8 | lo))
		[ $v -ge 32768 ] && v=$((v - 65536))
		got="$got $v"
	done
	after=$(($(get 0x18) & 0x40)) n1=$(cat "$sim/$name/measurements")
	echo "forced measurement: field $x $y $z, DATA$got, CTRL3.FORCE $force, DRDY $drdy -> $after, measurements $n0 -> $n1"
	[ "$got" = " $x $y $z" ] || fail "DATA is not the model's field"
	[ "$force $drdy $after" = "0 64 0" ] || fail "FORCE must clear itself, DRDY set until DATA is read"
	[ $((n1 - n0)) -eq 1 ] || fail "one FORCE made $((n1 - n0)) measurements"

	who=$(get 0x0f) || exit 1
	put 0x0f $(((who + 1) & 0xff))
	[ "$(get 0x0f)" = "$who" ] || fail "WHOAMI changed by a write"
	klog | grep -F "write $(printf '0x%02x' $(((who + 1) & 0xff))) to read-only register 0x0f ignored" ||
		fail "no log line for the write to WHOAMI"

	# Bad input to the model is refused and changes nothing.
	state=$(cat "$sim/$name/field" "$sim/$name/fault" "$sim/$name/otp")
	for bad in "field:1 2" "field:1 2 3 4" "field:40000 0 0" "fault:broken" "otp:sn 1"; do
		if echo "${bad#*:}" 2>/dev/null > "$sim/$name/${bad%%:*}"; then
			fail "the model took '${bad#*:}' for ${bad%%:*}"
		fi
	done
	[ "$(cat "$sim/$name/field" "$sim/$name/fault" "$sim/$name/otp")" = "$state" ] || fail "refused input changed the model"
	echo "bad input refused: field '1 2', '1 2 3 4', '40000 0 0'; fault 'broken'; otp 'sn 1' (an AK8974 has no S/N)"

	echo nak > "$sim/$name/fault"
	if i2cget -f -y "$bus" "$addr" 0x0f > /dev/null 2>&1; then
		echo none > "$sim/$name/fault"
		fail "fault nak: the chip still answers"
	fi
	echo no-drdy > "$sim/$name/fault"
	iio=$(iio_dir "$name") || fail "$name: no IIO device"
	if cat "$iio/in_magn_x_raw" 2>/tmp/ak8974.err; then
		echo none > "$sim/$name/fault"
		fail "fault no-drdy: the read succeeded"
	fi
	echo none > "$sim/$name/fault"
	echo "fault nak: no answer; fault no-drdy: $(cat /tmp/ak8974.err)"
	grep -q 'timed out' /tmp/ak8974.err || fail "fault no-drdy: not ETIMEDOUT"
	klog_has "ak8974 $name: timeout waiting for DRDY" || fail "no 'timeout waiting for DRDY' from the driver"
	;;
ak8974_fault_nak)
	fault_setup
	before=$(iio_list)
	echo nak > "$sim/$name/fault"
	if i2cget -y "$bus" "$addr" 0x0f > /dev/null 2>&1; then
		fail "fault nak: $name still answers i2cget"
	fi
	klog_mark ak8974_fault_nak
	instantiate
	klog_since | grep -F "$name" || true
	not_bound "$before"
	# ak8974_probe(): the first transfer is ak8974_set_power()'s CTRL1
	# write; when it fails: dev_err(&i2c->dev, "could not power on\n")
	# (ak8974.c:868-871), and the probe returns the i2c error.
	want_line "ak8974 $name: could not power on"
	no_splat "the failed probe"

	echo none > "$sim/$name/fault"
	klog_mark ak8974_fault_nak recovery
	echo "$name" > /sys/bus/i2c/drivers/ak8974/bind ||
		{ klog_since; fail "fault none: binding ak8974 to $name failed"; }
	iio=$(iio_dir "$name") || { klog_since; fail "fault none: $name bound but has no IIO device"; }
	line=$(detected_line) || exit 1
	want_line "$line"
	got=$(cat "$iio/name")
	[ "$got" = "$variant" ] || fail "${iio##*/}: name is '$got', not $variant"
	read -r fx _ < "$sim/$name/field"
	x=$(iio_read "$iio/in_magn_x_raw") || exit 1
	echo "fault none: re-probed as ${iio##*/} ($got), in_magn_x_raw $x, model field x $fx"
	[ "$x" = "$fx" ] || fail "in_magn_x_raw is not the model's field"
	no_splat "the re-probe"
	;;
ak8974_fault_whoami)
	fault_setup
	before=$(iio_list)
	# A WHOAMI ak8974_detect() does not know: none of its
	# AK8974_WHOAMI_VALUE_* (ak8974.c:50-53, 0x46 to 0x49).
	while :; do
		bad=$(od -An -tu1 -N1 /dev/urandom | tr -d ' ')
		if [ "$bad" -lt $((0x46)) ] || [ "$bad" -gt $((0x49)) ]; then
			break
		fi
	done
	printf '0x%02x\n' "$bad" > "$sim/$name/whoami" || fail "the model refused WHOAMI $bad"
	got=$(i2cget -y "$bus" "$addr" 0x0f) || fail "i2cget $bus $addr 0x0f failed"
	echo "WHOAMI on the bus: $got (model: $(cat "$sim/$name/whoami"))"
	[ $((got)) -eq "$bad" ] || fail "the part does not answer the WHOAMI set"
	klog_mark ak8974_fault_whoami
	instantiate
	klog_since | grep -F "$name" || true
	not_bound "$before"
	# ak8974_detect(), default case: dev_err(&ak8974->i2c->dev,
	# "unsupported device (%02x) ", whoami) (ak8974.c:525-528; the format
	# has no newline, so the line ends in a space), then ak8974_probe():
	# dev_err(&i2c->dev, "neither AK8974 nor AMI30x found\n") (:874-877).
	want_line "$(printf 'ak8974 %s: unsupported device (%02x) ' "$name" "$bad")"
	want_line "ak8974 $name: neither AK8974 nor AMI30x found"
	if klog_since | grep -F "ak8974 $name: detected"; then
		fail "the driver took WHOAMI $bad for a part it knows"
	fi
	no_splat "the refused probe"
	;;
ak8974_fault_no_drdy)
	fault_setup
	echo no-drdy > "$sim/$name/fault"
	klog_mark ak8974_fault_no_drdy
	instantiate
	# The probe forces no measurement, so it does not notice.
	iio=$(iio_dir "$name") || { klog_since; fail "$name: the probe failed with fault no-drdy"; }
	line=$(detected_line) || exit 1
	want_line "$line"
	read -r fx _ < "$sim/$name/field"
	n0=$(cat "$sim/$name/measurements")
	t0=$(now_cs)
	# One read(2), one measurement: cat would retry a failed sendfile
	# with read and so measure twice.
	if x=$(dd if="$iio/in_magn_x_raw" bs=64 count=1 2>/tmp/ak8974.err); then
		fail "fault no-drdy: in_magn_x_raw read $x without error"
	fi
	t1=$(now_cs)
	n1=$(cat "$sim/$name/measurements")
	err=$(cat /tmp/ak8974.err)
	echo "fault no-drdy: '$err' after $(((t1 - t0) * 10)) ms, measurements $n0 -> $n1"
	# ak8974_await_drdy() without an IRQ reads STATUS twice,
	# AK8974_MEASTIME (3 ms) apart, then dev_err(&ak8974->i2c->dev,
	# "timeout waiting for DRDY\n"); return -ETIMEDOUT; (ak8974.c:351-364),
	# strerror(ETIMEDOUT) "Connection timed out" to cat. With the runtime
	# resume before it (50 ms) that is well under a second, even in TCG.
	case $err in
	*"Connection timed out") ;;
	*) fail "fault no-drdy: the read failed, but not with ETIMEDOUT" ;;
	esac
	want_line "ak8974 $name: timeout waiting for DRDY"
	[ $((t1 - t0)) -le 100 ] || fail "fault no-drdy: the read took $(((t1 - t0) * 10)) ms, more than 1 s"
	[ $((n1 - n0)) -eq 1 ] || fail "fault no-drdy: the read forced $((n1 - n0)) measurements, not 1"
	no_splat "the timed-out read"

	echo none > "$sim/$name/fault"
	klog_mark ak8974_fault_no_drdy recovery
	x=$(iio_read "$iio/in_magn_x_raw") || exit 1
	echo "fault none: in_magn_x_raw $x, model field x $fx"
	[ "$x" = "$fx" ] || fail "fault none: in_magn_x_raw is not the model's field"
	if klog_since | grep -F "ak8974 $name: timeout"; then
		fail "fault none: the driver still timed out"
	fi
	no_splat "the read after the fault"
	;;
*)
	fail "30-ak8974.sh: unknown case $1"
	;;
esac
