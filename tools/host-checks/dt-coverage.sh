#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: dt_driver_coverage_rpi3 host
# case: dt_driver_coverage_rpi4 host
# inputs: $NSBSP_DT/nsbsp-rpi3.dtb $NSBSP_DT/nsbsp-rpi4.dtb $NSBSP_KOUT/vmlinux $NSBSP_KOUT/.config $TOP/board/linux/dt-coverage.allow
#
# dt_driver_coverage_BOARD: every enabled device node of the board's final
# DTB has a driver built into the kernel. The product kernel is monolithic
# (every module is a test fixture, kept off the product image): a driver
# counts when it is in vmlinux (=y), never as a module (=m).
#
# Reads: $NSBSP_DT/nsbsp-BOARD.dtb (the board's final DTB, mk/dt.mk),
# $NSBSP_KOUT/vmlinux and .config (this build's kernel), the allow-list
# $TOP/board/linux/dt-coverage.allow and, only to explain a failure, the
# kernel tree $NSBSP_KSRC (not an input: a pass never depends on it).
#
# What is checked: each node with a compatible property whose status, and
# every ancestor's, is absent or "okay" (a disabled parent's children are
# never populated). Nodes without a compatible are data for their parent's
# driver or for core code (/chosen, /aliases, /memory, pin groups,
# partitions...) and no driver can match them; the root's compatible names
# the machine, not a device. Two kinds of node are core code's by their
# binding, not by a match table: CPUs (device_type "cpu", read by arm64's
# SMP and topology code) and cache nodes (compatible "cache", reached from
# the CPUs' next-level-cache by of_find_next_cache_node and cacheinfo).
#
# What "a driver matches" means: one of the node's compatibles is in an
# of_device_id table that is in vmlinux. That covers platform, AMBA, I2C,
# SPI... drivers' of_match_table, and the *_OF_DECLARE tables of core code
# (CLK_OF_DECLARE "fixed-clock", TIMER_OF_DECLARE "arm,armv8-timer",
# IRQCHIP_DECLARE, RESERVEDMEM_OF_DECLARE "shared-dma-pool"...), which end
# in .init.data. The evidence is the built object, not the sources or the
# .config: an entry compiled out by an #ifdef, a driver that is =m or whose
# dependencies are not met is not in vmlinux. An of_device_id is name[32],
# type[32], compatible[128], data: its compatible is an 8-byte aligned
# string followed by NULs up to 128 bytes, unlike a string literal (packed
# in .rodata.str); `strings -t d` gives the runs and their offsets. The
# generic containers simple-bus and simple-mfd only populate a node's
# children: they cover a node that has no more specific compatible (/soc),
# never one that has (/soc/firmware is "raspberrypi,bcm2835-firmware",
# "simple-mfd": its own driver is needed). Not counted: an I2C or SPI
# device bound only through its driver's id_table (the compatible's part
# after the comma); drivers with DT support have an of_match_table.
#
# Why not scripts/dtc/dt_to_config: it finds drivers with `git grep` in
# the kernel tree, and our tree (Debian's linux-source, unpacked in out/)
# is no git repository of its own: inside this project's checkout it greps
# the project's index and reports "no_driver" for every node, silently.
# It also guesses from sources and Makefiles, where vmlinux is the fact.
# A failure still names, per uncovered node, the kernel tree's driver for
# it (the .c files holding the quoted compatible) and the Kconfig option
# of its Makefile line, with that option's value in .config.
#
# The allow-list (board/linux/dt-coverage.allow, "BOARD NODE-PATH # why")
# holds only nodes the board does not use. An entry for a node that is not
# in the DTB, not enabled, or covered after all fails the case, so that
# the list cannot keep stale entries.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

case $1 in
dt_driver_coverage_*) board=${1#dt_driver_coverage_} ;;
*) fail "dt-coverage.sh: unknown case $1" ;;
esac
dtb=$NSBSP_DT/nsbsp-$board.dtb
vmlinux=$NSBSP_KOUT/vmlinux
config=$NSBSP_KOUT/.config
allow=$TOP/board/linux/dt-coverage.allow
ksrc=${NSBSP_KSRC-}
for f in "$dtb" "$vmlinux" "$config" "$allow"; do
	[ -r "$f" ] || fail "no $f (mk/dt.mk builds the DTBs, mk/kernel.mk the kernel)"
done
work=$(mktemp -d "${TMPDIR:-/tmp}/dt-coverage.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

dtc -q -I dtb -O dts -o "$work/board.dts" "$dtb" || fail "dtc cannot read $dtb"
# The nodes, "PATH ENABLED DEVICE_TYPE COMPATIBLE..." a line (a node
# without compatible: none). dtc's output has one property a line, the
# properties of a node before its subnodes.
awk '
	function emit() {
		print path[d], en[d], (dt[d] == "" ? "-" : dt[d]), (co[d] == "" ? "-" : co[d])
	}
	# The strings of a property line: the fields between quotes.
	function strs(line,   n, i, a, s) {
		n = split(line, a, "\"")
		s = ""
		for (i = 2; i <= n; i += 2) s = s (s == "" ? "" : " ") a[i]
		# A string list can also be one string with \0 between items.
		gsub(/\\0/, " ", s)
		return s
	}
	/^\t*([^ \t]+: )*[^ \t]+ \{$/ {
		name = $NF == "{" ? $(NF - 1) : $NF
		d++
		path[d] = d == 1 ? "/" : (path[d - 1] == "/" ? "/" name : path[d - 1] "/" name)
		en[d] = d == 1 ? 1 : en[d - 1]
		dt[d] = ""; co[d] = ""
		next
	}
	/^\t*\};$/ { emit(); d--; next }
	d > 0 && /^\t*compatible = / { co[d] = strs($0) }
	d > 0 && /^\t*device_type = / { dt[d] = strs($0) }
	d > 0 && /^\t*status = / {
		s = strs($0)
		if (s != "okay" && s != "ok") en[d] = 0
	}
' "$work/board.dts" | LC_ALL=C sort > "$work/nodes"
[ -s "$work/nodes" ] || fail "no nodes in $dtb"

# The compatibles of vmlinux's of_device_id tables (see above): strings at
# 8-byte aligned offsets with no other string in the next 128 bytes.
strings -a -t d -n 2 "$vmlinux" | awk '
	{ off = $1; sub(/^ *[0-9]+ /, "") }
	prev != "" && poff % 8 == 0 && off - poff >= 128 && length(prev) < 128 { print prev }
	{ prev = $0; poff = off }
' | LC_ALL=C sort -u > "$work/table"
[ -s "$work/table" ] || fail "no of_device_id table found in $vmlinux"

# This board's allow-list: "PATH why" a line.
awk -v b="$board" '$1 == b { p = $2; sub(/^[^#]*#[ \t]*/, ""); print p, $0 }' "$allow" > "$work/allow"

# usb_id COMPATIBLE: the VID and PID of a USB device's compatible
# ("usbVID,PID", hex; usb-device.yaml), as grep -P bytes (little endian).
usb_id() {
	case $1 in
	usb*,*) ;;
	*) return 1 ;;
	esac
	echo "$1" | awk '{
		if (!match($0, /^usb[0-9a-f]+,[0-9a-f]+$/)) exit 1
		split(substr($0, 4), a, ",")
		if (length(a[1]) > 4 || length(a[2]) > 4) exit 1
		v = sprintf("%04s", a[1]); p = sprintf("%04s", a[2])
		gsub(/ /, "0", v); gsub(/ /, "0", p)
		printf "\\x%s\\x%s\\x%s\\x%s\n", substr(v, 3), substr(v, 1, 2), substr(p, 3), substr(p, 1, 2)
	}'
}
# usb_driver PATH ID: what drives the USB device node PATH, or nothing.
# A USB device is found by enumeration and bound by its IDs and classes,
# the node only lends it an of_node (a MAC address, a hub's ports): no
# of_device_id names it. A node with USB devices under it is a hub, which
# the USB core's hub driver takes by class (hub_probe in vmlinux). Any
# other is covered by a usb_device_id entry in vmlinux matching its VID
# and PID: match_flags (low byte 0x03 or 0x83: USB_DEVICE,
# USB_DEVICE_AND_INTERFACE_INFO...), then idVendor and idProduct.
usb_driver() {
	if awk -v p="$1/" 'index($1, p) == 1 && $4 ~ /^usb[0-9a-f]+,/ { f = 1 } END { exit !f }' "$work/nodes"; then
		! grep -q ' hub_probe$' "$work/nm" || echo "core (USB hub)"
	elif LC_ALL=C grep -qaP "[\x03\x83][\x00-\x07]$2" "$vmlinux"; then
		echo "a usb_device_id"
	fi
}

# generic_built COMPATIBLE...: the generic containers are all built in:
# simple-bus and simple-mfd in of_platform_populate's table, syscon's
# regmap (a consumer asks syscon_node_to_regmap for it).
generic_built() {
	for _g in $1; do
		case $_g in
		syscon) grep -q ' syscon_node_to_regmap$' "$work/nm" || return 1 ;;
		*) grep -qxF -e "$_g" "$work/table" || return 1 ;;
		esac
	done
}
# in_tree COMPATIBLE...: the kernel tree has a driver (a match table entry
# or an OF_DECLARE) for one of them. A node whose own compatible has none
# is served by its generic fallbacks ("brcm,bcm2711-avs-monitor", "syscon",
# "simple-mfd"); one that has a driver needs it. Without the tree, no.
in_tree() {
	[ -n "$ksrc" ] && [ -d "$ksrc/drivers" ] || return 1
	for _c in $1; do echo "\"$_c\""; done > "$work/intree"
	[ -n "$(drivers_of "$work/intree")" ]
}
# drivers_of PATTERNS: "FILE:COMPATIBLE" for each .c file of the kernel
# tree (arm64's, not other architectures') with one of the quoted
# compatibles of PATTERNS on a match table line (".compatible =") or in an
# OF_DECLARE; a compatible named elsewhere (a quirk, a lookup) is no driver.
drivers_of() {
	(cd "$ksrc" && grep -rsF --include='*.c' -f "$1" drivers arch/arm64 sound kernel lib) |
		grep -E -e '\.compatible[[:space:]]*=' -e '_DECLARE\(' -e 'IRQCHIP_MATCH\(' |
		awk 'NR == FNR { p[$0] = 1; next }
			{ f = substr($0, 1, index($0, ":") - 1)
			  for (c in p) if (index($0, c)) { gsub(/"/, "", c); print f ":" c } }' "$1" - |
		LC_ALL=C sort -u
}

nm "$vmlinux" > "$work/nm" 2> /dev/null
total=0 covered=0 allowed=0 disabled=0 data=0
: > "$work/missing"
: > "$work/allowed"
while read -r path en dtype compat; do
	if [ "$compat" = - ] || [ "$path" = / ]; then
		data=$((data + 1))
		continue
	fi
	if [ "$en" = 0 ]; then
		disabled=$((disabled + 1))
		continue
	fi
	total=$((total + 1))
	by=''
	if [ "$dtype" = cpu ]; then
		by="core (CPU)"
	elif [ "$compat" = cache ]; then
		by="core (cache)"
	elif usb=$(usb_id "$compat"); then
		by=$(usb_driver "$path" "$usb")
	else
		# The generic containers count only on a node with nothing else.
		specific='' generic=''
		for c in $compat; do
			case $c in
			simple-bus | simple-mfd | syscon) generic="$generic $c" ;;
			*) specific="$specific $c" ;;
			esac
		done
		for c in $specific; do
			if grep -qxF -e "$c" "$work/table"; then by=$c; break; fi
		done
		if [ -z "$by" ] && [ -n "$generic" ] && generic_built "$generic" &&
			{ [ -z "$specific" ] || ! in_tree "$specific"; }; then
			by=${generic# }
		fi
	fi
	if [ -n "$by" ]; then
		covered=$((covered + 1))
		if grep -q "^$path " "$work/allow"; then
			echo "STALE allow-list entry $board $path: covered by $by"
			echo "$path" >> "$work/stale"
		fi
	elif grep -q "^$path " "$work/allow"; then
		allowed=$((allowed + 1))
		echo "$path $compat" >> "$work/allowed"
	else
		echo "$path $compat" >> "$work/missing"
	fi
done < "$work/nodes"

# Allow-list entries for nodes that are not enabled device nodes here.
while read -r path _; do
	awk -v p="$path" '$1 == p && $2 == 1 && $4 != "-" { f = 1 } END { exit !f }' "$work/nodes" ||
		{ echo "STALE allow-list entry $board $path: no enabled node with a compatible"; echo "$path" >> "$work/stale"; }
done < "$work/allow"

while read -r path compat; do
	echo "allow-listed $path $compat: $(awk -v p="$path" '$1 == p { $1 = ""; sub(/^ /, ""); print }' "$work/allow")"
done < "$work/allowed"

# config_of FILE: the Kconfig options of FILE's Makefile lines (the kernel
# tree's), following composite objects and obj-y folders upwards.
config_of() {
	_dir=${1%/*} _obj=${1##*/}
	_obj=${_obj%.c}.o
	_n=0
	while [ $_n -lt 8 ] && [ -n "$_dir" ] && [ "$_dir" != . ]; do
		_n=$((_n + 1))
		if [ ! -r "$ksrc/$_dir/Makefile" ]; then
			_obj=${_dir##*/}/$_obj _dir=${_dir%/*}
			continue
		fi
		# The left-hand sides naming $_obj, continuation lines joined.
		_lhs=$(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$ksrc/$_dir/Makefile" |
			awk -v o="$_obj" '{ for (i = 3; i <= NF; i++) if ($i == o) { print $1; break } }' | head -n 1)
		case $_lhs in
		obj-\$\(CONFIG_*\)) _c=${_lhs#obj-\$\(}; echo "${_c%\)}"; return ;;
		obj-y)
			# Always built in its folder: the folder's own option.
			_obj=${_dir##*/}/ _dir=${_dir%/*}
			;;
		'')
			# Named by a Makefile further up, with its folder.
			_obj=${_dir##*/}/$_obj _dir=${_dir%/*}
			;;
		*-y | *-objs | *-\$\(CONFIG_*\))
			case $_lhs in *-\$\(CONFIG_*\)) _c=${_lhs#*-\$\(}; echo "${_c%\)}" ;; esac
			_obj=${_lhs%-*}.o
			;;
		*) return ;;
		esac
	done
}
# state OPTION: its value in this build's .config.
state() {
	if grep -q "^$1=y" "$config"; then echo "$1=y, yet its match is not in vmlinux"
	elif grep -q "^$1=m" "$config"; then echo "$1=m (a module does not count)"
	elif grep -q "^# $1 is not set" "$config"; then echo "$1 is not set"
	else echo "$1 is not set (dependencies not met)"
	fi
}

if [ -s "$work/missing" ]; then
	# The kernel tree's drivers of the missing compatibles, found at once:
	# "FILE:COMPATIBLE" a line.
	: > "$work/drivers"
	if [ -n "$ksrc" ] && [ -d "$ksrc/drivers" ]; then
		cut -d ' ' -f 2- "$work/missing" | tr ' ' '\n' | grep -v -x -e simple-bus -e simple-mfd -e syscon |
			sed 's/.*/"&"/' | sort -u > "$work/pat"
		drivers_of "$work/pat" > "$work/drivers"
		# The generic containers' own code.
		printf '%s\n' drivers/of/platform.c:simple-bus drivers/of/platform.c:simple-mfd \
			drivers/mfd/syscon.c:syscon >> "$work/drivers"
	fi
	while read -r path compat; do
		hint=
		# The driver files of the node's compatibles, each once.
		# (the generic containers' code only when it is not built in).
		for c in $compat; do
			case $c in simple-bus | simple-mfd | syscon) ! generic_built "$c" || continue ;; esac
			echo "$c"
		done > "$work/c"
		awk -F : 'NR == FNR { want[$0] = 1; next } want[$2] && !seen[$1]++ { print $1 }' \
			"$work/c" "$work/drivers" > "$work/f"
		while read -r f; do
			# The options that are not =y; all =y, the outermost.
			opts='' last=''
			for o in $(config_of "$f"); do
				last=$o
				grep -q "^$o=y" "$config" || opts="$opts, $(state "$o")"
			done
			[ -n "$opts" ] || [ -z "$last" ] || opts=", $(state "$last")"
			hint="$hint; $f${opts:-, no Kconfig option in its Makefile}"
		done < "$work/f"
		echo "MISSING $path $compat (${hint#; })" | sed 's/ ()$/ (no driver in the kernel tree)/'
	done < "$work/missing"
fi

n_missing=$(wc -l < "$work/missing")
counts="$total enabled nodes: $covered covered by built-in drivers, $allowed allow-listed ($disabled disabled, $data without a compatible or the root, not checked)"
[ "$n_missing" -eq 0 ] || fail "$n_missing of $total enabled nodes have no built-in driver"
[ ! -s "$work/stale" ] || fail "$(wc -l < "$work/stale") stale allow-list entries for $board (remove them)"
echo "$board: $counts"
