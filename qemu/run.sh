#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Boot the emulated board in QEMU. This is the one place that holds the
# QEMU command line: `make qemu`, the check harness, the DT dumps and the
# LAVA device use it. A boot mode is a machine and its firmware (below);
# each device of the board adds its part from qemu/devices/NAME.sh.
#
# usage: run.sh [OPTION]... [-- QEMU_ARG...]
#   --mode MODE      boot mode: dt (default: QEMU loads the kernel and our
#                    DTB); acpi (UEFI firmware, QEMU's ACPI tables, no DT
#                    from us); uboot (U-Boot boots the SD card image);
#                    rpi3 (a Raspberry Pi 3 B, QEMU raspi3b: the Pi's
#                    U-Boot boots the SD card image from the SD card)
#   --kernel FILE    kernel Image (dt, acpi)
#   --initrd FILE    initramfs (dt)
#   --dtb FILE       the board's DTB (dt: QEMU virt's own DT + dts/ overlays)
#   --acpi-initrd FILE  the initrd of the acpi mode (ACPI tables + initramfs)
#   --image FILE     uboot mode: the SD card image (out/images/sdcard.img)
#   --uboot-bin FILE uboot mode: U-Boot for QEMU virt (u-boot-qemu)
#   --uboot-dtb FILE uboot mode: the DT QEMU hands U-Boot (with the FIT key)
#   --rpi-uboot-bin FILE  rpi3 mode: the Pis' U-Boot (mk/uboot.mk)
#   --rpi3-uboot-dtb FILE rpi3 mode: the DT the Pi firmware would hand
#                    U-Boot (the card's bcm2837-rpi-3-b.dtb, with the FIT key)
#   --append ARGS    more kernel command line
#   --check          run the on-target checks, then power off
#   --sched POLICY   a check boot's host scheduling policy: batch (default)
#                    or other (the longest boot of make check: see below)
#   --qmp SOCKET     QMP on a unix socket (how host-side emulators find QEMU)
#   --dumpdtb FILE   write QEMU's own DT for this mode's machine and exit
# and each device's options (qemu/devices/*.sh):
#DEVICES
# The board never reaches a network: QEMU always runs with -nic none.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

QEMU=${QEMU:-qemu-system-aarch64}
# The machine: the same options for the DT dump and every boot.
machine=virt
cpu=cortex-a57
mem=512M
smp=1
# The Pi 3's first UART (the PL011, ttyAMA0 on the board) unless a device
# takes it; the console is the second, the mini-UART, as on a real Pi 3.
rpi_serial0=null

# The QEMU arguments and kernel arguments the devices add (qarg, karg).
nl='
'
qemu_args='' kernel_args=''
qarg() {
	for a; do
		qemu_args="$qemu_args$a$nl"
	done
}
karg() {
	kernel_args="${kernel_args:+$kernel_args }$*"
}
die() {
	echo "Error: $*" >&2
	exit 1
}

# shellcheck source=./devices.sh
. "$here/devices.sh"

usage() {
	sed -n '3,/^#DEVICES$/s/^# \{0,1\}//p' "$0" | sed '$d' >&2
	for d in $devices; do "${d}_usage" >&2; done
	echo "The board never reaches a network: QEMU always runs with -nic none." >&2
	exit 1
}

kernel='' initrd='' dtb='' append='' check='' sched=batch mode=dt dumpdtb='' acpi_initrd='' qmp=''
image=$here/../out/images/sdcard.img
uboot_bin=/usr/lib/u-boot/qemu_arm64/u-boot.bin
uboot_dtb=$here/../out/images/u-boot-qemu-virt.dtb
rpi_uboot_bin=$here/../out/uboot/rpi_arm64/u-boot.bin
rpi3_uboot_dtb=$here/../out/build/linux-aarch64-linux-gnu-gcc/nsbsp-fit-key/bcm2837-rpi-3-b.dtb
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--dtb) dtb=$2; shift 2 ;;
	--append) append=${append:+$append }$2; shift 2 ;;
	--check) check=1; shift ;;
	--sched)
		case ${2-} in
		batch | other) sched=$2 ;;
		*) echo "Error: --sched ${2-}: batch or other" >&2; usage ;;
		esac
		shift 2
		;;
	--mode) mode=$2; shift 2 ;;
	--dumpdtb) dumpdtb=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--uboot-bin) uboot_bin=$2; shift 2 ;;
	--uboot-dtb) uboot_dtb=$2; shift 2 ;;
	--rpi-uboot-bin) rpi_uboot_bin=$2; shift 2 ;;
	--rpi3-uboot-dtb) rpi3_uboot_dtb=$2; shift 2 ;;
	--acpi-initrd) acpi_initrd=$2; shift 2 ;;
	--qmp) qmp=$2; shift 2 ;;
	--) shift; break ;;
	-h | --help) usage ;;
	--*)
		[ $# -ge 2 ] || { echo "Error: $1 needs a value, or is unknown" >&2; usage; }
		taken=
		for d in $devices; do
			if "${d}_option" "$1" "$2"; then
				taken=1
				break
			fi
		done
		[ -n "$taken" ] || { echo "Error: unknown option $1" >&2; usage; }
		shift 2
		;;
	*) echo "Error: unknown argument $1" >&2; usage ;;
	esac
done

command -v "$QEMU" > /dev/null || die "$QEMU not found (apt-get install qemu-system-arm)"
case $mode in
dt | acpi | uboot) ;;
rpi3) [ -z "$dumpdtb" ] || die "--dumpdtb: the rpi3 board's DT is the kernel's (bcm2837-rpi-3-b.dtb)" ;;
*) die "unknown boot mode '$mode' (known: dt, acpi, uboot, rpi3)" ;;
esac

if [ -n "$dumpdtb" ]; then
	# uboot mode: the machine as it is under firmware (QEMU virt has no
	# GPIO block then), for the FIT's DTB and U-Boot's own DT.
	set --
	[ "$mode" = uboot ] && set -- -bios "$uboot_bin"
	exec "$QEMU" -M "$machine,dumpdtb=$dumpdtb" -cpu "$cpu" -m "$mem" -smp "$smp" \
		-nic none -display none "$@"
fi

# Each device's QEMU and kernel arguments for this boot ($mode, $check).
for d in $devices; do
	"${d}_qemu"
done
# Any -qmp turns off -nographic's default "mon:stdio" (QEMU vl.c), which
# would leave a console without Ctrl-a x that Ctrl-C kills: ask for it.
[ -z "$qmp" ] || qarg -qmp "unix:$qmp,server=on,wait=off"
# The console: the first serial port of QEMU virt; the second of the Pi 3.
[ "$mode" != rpi3 ] || qarg -serial "$rpi_serial0"
if [ -n "$qmp" ] || [ "$mode" = rpi3 ]; then
	qarg -serial mon:stdio
fi
# Host-side emulators of an interactive boot (the harness starts those of
# a check boot itself): they leave with QEMU, which this shell becomes.
if [ -z "$check" ]; then
	for d in $devices; do
		if command -v "${d}_demo" > /dev/null; then "${d}_demo"; fi
	done
fi
# A check boot's QEMU is a batch job: its vCPU thread computes until the
# guest idles. Beside the other boots, on fewer cores than boots, every
# switch costs a TCG thread its warm caches; SCHED_BATCH keeps the
# others' wakeups from preempting it, so it runs whole time slices. The
# boot the suite waits for longest (make check's CHECK_ORDER) stays
# SCHED_OTHER: its guest waits on short timers (USB, serial) most of its
# time, and the batch boots' slices, not preempted, would stretch each
# wait to a slice.
if [ -n "$check" ] && [ "$sched" = batch ]; then
	chrt -b -p 0 $$ > /dev/null || die "chrt: could not make this boot SCHED_BATCH"
fi

cmdline="panic=-1 nsbsp.mode=$mode${kernel_args:+ $kernel_args}${check:+ nsbsp.check=1}${append:+ $append}"
IFS=$nl
set -f
# shellcheck disable=SC2086 # one argument per line
set -- $qemu_args "$@"
set +f
unset IFS

# uboot_args EXTRA: the kernel arguments of a U-Boot mode go into U-Boot's
# environment as nsbsp_bootargs, which boot.scr appends (the image stays
# the same): refuse what U-Boot's shell would take as its own.
uboot_args() {
	case $1 in *[\'\"\;\$]*)
		die "kernel arguments: no quotes, ';' or '\$' in U-Boot modes (they go through U-Boot's shell)" ;;
	esac
}

# no_autoboot_delay DTB: in a check boot nobody can press a key, so U-Boot
# boots at once instead of counting down its bootdelay (its /config
# bootdelay overrides the environment's); make qemu keeps the countdown.
no_autoboot_delay() {
	[ -z "$check" ] || fdtput -p -t i "$1" /config bootdelay 0
}

# ---- the boot modes ---------------------------------------------------------
case $mode in
rpi3)
	# A Raspberry Pi 3 B (QEMU raspi3b: 1 GiB, four cores, no PCI, no
	# virtio) with sdcard.img as its SD card. QEMU stands in for the Pi
	# firmware: it starts the Pis' U-Boot (config.txt's kernel=) with the
	# card's DTB (device_tree=, with the FIT key). U-Boot's distro boot
	# finds boot.scr on mmc 0, which boots the FIT's rpi3 configuration.
	# Kernel arguments reach boot.scr as nsbsp_bootargs through the DT's
	# /config/environment (U-Boot's ENV_IMPORT_FDT), so the card is the
	# product image, untouched: QEMU writes to a throw-away snapshot.
	for f in "$image" "$rpi_uboot_bin" "$rpi3_uboot_dtb"; do
		[ -r "$f" ] || die "$f: not readable (run make image)"
	done
	extra=${cmdline#panic=-1 nsbsp.mode=rpi3}
	extra=${extra# }
	uboot_args "$extra"
	tmp=$(mktemp "${TMPDIR:-/tmp}/nsbsp-rpi3-dtb.XXXXXX")
	cp "$rpi3_uboot_dtb" "$tmp"
	fdtput -p -t s "$tmp" /config/environment nsbsp_bootargs "$extra"
	# No "usb start" before the boot (the Pis' preboot): after U-Boot has
	# driven QEMU's DWC2 model, Linux's dwc2 never gets the port's connect
	# interrupt ("dwc2 3f980000.usb: Not connected") and no USB device,
	# the fixture disk among them, comes up. U-Boot boots from the SD card.
	fdtput -t s "$tmp" /config/environment preboot ""
	no_autoboot_delay "$tmp"
	exec 3< "$tmp"
	rm -f "$tmp"
	# One host thread runs the four vCPUs in turn (-accel tcg,thread=single):
	# with a thread per vCPU, QEMU spends more host CPU keeping the threads
	# in step (each TLB flush reaches all four) than on the guest, on a
	# host with fewer cores than the Pi; the guest still has four CPUs.
	exec "$QEMU" -M raspi3b -accel tcg,thread=single -nographic -no-reboot -nic none \
		-kernel "$rpi_uboot_bin" -dtb /dev/fd/3 "$@" \
		-drive "if=sd,format=raw,snapshot=on,file=$image"
	;;
uboot)
	# Debian's U-Boot for QEMU virt boots the SD card image, read-only, as
	# a virtio disk, through its standard distro boot: no -kernel. QEMU
	# hands U-Boot --uboot-dtb, its own DT with the FIT public key. The
	# image never changes between a check boot and an interactive one:
	# kernel arguments go into U-Boot's environment as nsbsp_bootargs, set
	# by a /config/bootcmd in that DT (U-Boot's documented override), which
	# boot.scr appends.
	for f in "$image" "$uboot_bin" "$uboot_dtb"; do
		[ -r "$f" ] || die "$f: not readable (run make image; u-boot-qemu installed?)"
	done
	extra=${cmdline#panic=-1 nsbsp.mode=uboot}
	extra=${extra# }
	uboot_args "$extra"
	# Distro boot on every virtio disk in turn (its default tries virtio
	# 0 only, and which disk is 0 depends on the other devices).
	# shellcheck disable=SC2016 # ${n} is U-Boot's, not ours
	bootcmd='for n in 0 1 2 3 4 5 6 7; do setenv devnum ${n}; run virtio_boot; done'
	[ -z "$extra" ] || bootcmd="setenv nsbsp_bootargs '$extra'; $bootcmd"
	tmp=$(mktemp "${TMPDIR:-/tmp}/nsbsp-uboot-dtb.XXXXXX")
	cp "$uboot_dtb" "$tmp"
	fdtput -p -t s "$tmp" /config bootcmd "$bootcmd"
	no_autoboot_delay "$tmp"
	# QEMU reads the DT at start: keep it open on fd 3, unlinked, so that
	# nothing is left behind whatever ends QEMU.
	exec 3< "$tmp"
	rm -f "$tmp"
	exec "$QEMU" -M "$machine" -cpu "$cpu" -m "$mem" -smp "$smp" -nographic -no-reboot \
		-nic none -bios "$uboot_bin" -dtb /dev/fd/3 "$@" \
		-drive "if=none,id=sdcard,format=raw,readonly=on,file=$image" \
		-device virtio-blk-device,drive=sdcard
	;;
dt)
	[ -n "$dtb" ] || die "--mode dt needs --dtb"
	[ -r "$dtb" ] || die "$dtb: not readable (run make first)"
	set -- -dtb "$dtb" "$@"
	;;
acpi)
	# UEFI (EDK2) starts the kernel's EFI stub from fw_cfg, hands it the
	# initrd and QEMU's ACPI tables, and no DT: the initrd carries our SSDT.
	efi_fw=${QEMU_EFI:-/usr/share/qemu-efi-aarch64/QEMU_EFI.fd}
	[ -r "$efi_fw" ] || die "$efi_fw: not readable (apt-get install qemu-efi-aarch64)"
	[ -n "$acpi_initrd" ] || die "--mode acpi needs --acpi-initrd"
	initrd=$acpi_initrd
	set -- -bios "$efi_fw" "$@"
	;;
esac
for f in "$kernel" "$initrd"; do
	[ -n "$f" ] || die "--kernel and --initrd are needed"
	[ -r "$f" ] || die "$f: not readable (run make first)"
done
# -no-reboot: a guest reboot or panic ends QEMU instead of looping.
exec "$QEMU" -M "$machine" -cpu "$cpu" -m "$mem" -smp "$smp" -nographic -no-reboot \
	-nic none -kernel "$kernel" -initrd "$initrd" -append "console=ttyAMA0 $cmdline" "$@"
