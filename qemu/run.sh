#!/bin/sh
# Boot the emulated board in QEMU. This is the one place that holds the
# QEMU command line: `make qemu`, the check harness and the DT dump use it.
#
# usage: run.sh [OPTION]... [-- QEMU_ARG...]
#   --kernel FILE    kernel Image
#   --initrd FILE    initramfs
#   --dtb FILE       the board's DTB (QEMU virt's own DT + dts/ overlays)
#   --append ARGS    more kernel command line
#   --check          run the on-target checks, then power off
#   --mode MODE      boot mode: dt (default), uboot
#   --dumpdtb FILE   write QEMU's own DT for this machine and exit
#   --image FILE     uboot mode: the SD card image (out/images/sdcard.img)
#   --uboot-bin FILE uboot mode: U-Boot for QEMU virt (u-boot-qemu)
#   --uboot-dtb FILE uboot mode: the DT QEMU hands U-Boot (with the FIT key)
#   --carl9170 DEV   pass a real AR9170 stick through (VID:PID, or BUS/ADDR
#                    of the host's lsusb) on qemu-xhci, instead of the stub
#
# The board never reaches a network: QEMU always runs with -nic none.
set -eu

QEMU=${QEMU:-qemu-system-aarch64}
# The machine: the same options for the DT dump and every boot.
machine=virt
cpu=cortex-a57
mem=512M
smp=1

usage() {
	sed -n '3,18s/^# \{0,1\}//p' "$0" >&2
	exit 1
}

kernel='' initrd='' dtb='' append='' check='' mode=dt dumpdtb='' carl9170=''
here=$(cd "$(dirname "$0")" && pwd)
image=$here/../out/images/sdcard.img
uboot_bin=/usr/lib/u-boot/qemu_arm64/u-boot.bin
uboot_dtb=$here/../out/images/u-boot-qemu-virt.dtb
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--dtb) dtb=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--check) check=1; shift ;;
	--mode) mode=$2; shift 2 ;;
	--dumpdtb) dumpdtb=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--uboot-bin) uboot_bin=$2; shift 2 ;;
	--uboot-dtb) uboot_dtb=$2; shift 2 ;;
	--carl9170) carl9170=$2; shift 2 ;;
	--) shift; break ;;
	-h | --help) usage ;;
	*) echo "Error: unknown option $1" >&2; usage ;;
	esac
done

command -v "$QEMU" > /dev/null || { echo "Error: $QEMU not found (apt-get install qemu-system-arm)" >&2; exit 1; }

if [ -n "$dumpdtb" ]; then
	# uboot mode: the machine as it is under firmware (QEMU virt has no
	# GPIO block then), for the FIT's DTB and U-Boot's own DT.
	set --
	[ "$mode" = uboot ] && set -- -bios "$uboot_bin"
	exec "$QEMU" -M "$machine,dumpdtb=$dumpdtb" -cpu "$cpu" -m "$mem" -smp "$smp" \
		-nic none -display none "$@"
fi

case $mode in
dt) ;;
uboot) ;;
*) echo "Error: unknown boot mode '$mode' (known: dt, uboot)" >&2; exit 1 ;;
esac

# ---- uboot mode (image, issue 8) --------------------------------------------
# Debian's U-Boot for QEMU virt boots the SD card image, read-only, as a
# virtio disk, through its standard distro boot: nothing else is given
# (no -kernel, no network). QEMU hands U-Boot --uboot-dtb, its own DT
# with the FIT public key. The image never changes between a check boot
# and an interactive one: kernel arguments (nsbsp.check=1, --append) go
# into U-Boot's environment as nsbsp_bootargs, set by a /config/bootcmd
# in that DT (U-Boot's documented override), which boot.scr appends.
if [ "$mode" = uboot ]; then
	for f in "$image" "$uboot_bin" "$uboot_dtb"; do
		[ -r "$f" ] || { echo "Error: $f: not readable (run make image; u-boot-qemu installed?)" >&2; exit 1; }
	done
	extra=
	[ -n "$check" ] && extra="nsbsp.check=1"
	[ -n "$append" ] && extra="${extra:+$extra }$append"
	[ -z "$carl9170" ] || { echo "Error: --carl9170 works in dt mode only" >&2; exit 1; }
	fwdtb=$uboot_dtb
	if [ -n "$extra" ]; then
		case $extra in *[\'\"\;\$]*)
			echo "Error: --append: no quotes, ';' or '$' in uboot mode (they go through U-Boot's shell)" >&2
			exit 1 ;;
		esac
		tmp=$(mktemp "${TMPDIR:-/tmp}/nsbsp-uboot-dtb.XXXXXX")
		cp "$uboot_dtb" "$tmp"
		fdtput -p -t s "$tmp" /config bootcmd "setenv nsbsp_bootargs '$extra'; run distro_bootcmd"
		# QEMU reads the DT at start: keep it open on fd 3, unlinked,
		# so nothing is left behind whatever ends QEMU.
		exec 3< "$tmp"
		rm -f "$tmp"
		fwdtb=/dev/fd/3
	fi
	exec "$QEMU" -M "$machine" -cpu "$cpu" -m "$mem" -smp "$smp" -nographic -no-reboot \
		-nic none -bios "$uboot_bin" -dtb "$fwdtb" \
		-drive "if=none,id=sdcard,format=raw,readonly=on,file=$image" \
		-device virtio-blk-device,drive=sdcard "$@"
fi
# ---- end of uboot mode --------------------------------------------------------

for f in "$kernel" "$initrd" "$dtb"; do
	[ -n "$f" ] || { echo "Error: --kernel, --initrd and --dtb are needed" >&2; exit 1; }
	[ -r "$f" ] || { echo "Error: $f: not readable (run make first)" >&2; exit 1; }
done

cmdline="console=ttyAMA0 panic=-1 nsbsp.mode=$mode"
[ -n "$check" ] && cmdline="$cmdline nsbsp.check=1"
[ -n "$append" ] && cmdline="$cmdline $append"

# ---- carl9170: a real stick instead of the stub (the guest's /init then
# does not start it: nsbsp.carl9170=host) ----
if [ -n "$carl9170" ]; then
	case $carl9170 in
	[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F])
		usbhost="vendorid=0x${carl9170%:*},productid=0x${carl9170#*:}" ;;
	[0-9]*/[0-9]*)
		usbhost="hostbus=${carl9170%/*},hostaddr=${carl9170#*/}" ;;
	*) echo "Error: --carl9170 '$carl9170': want VID:PID (0cf3:9170) or BUS/ADDR (3/7)" >&2; exit 1 ;;
	esac
	cmdline="$cmdline nsbsp.carl9170=host"
	set -- -device qemu-xhci,id=xhci -device "usb-host,bus=xhci.0,$usbhost" "$@"
fi
# ---- end carl9170 ----

# -no-reboot: a guest reboot or panic ends QEMU instead of looping.
exec "$QEMU" -M "$machine" -cpu "$cpu" -m "$mem" -smp "$smp" -nographic -no-reboot \
	-nic none -kernel "$kernel" -initrd "$initrd" -dtb "$dtb" -append "$cmdline" "$@"
