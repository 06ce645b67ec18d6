#!/bin/sh
# Boot the emulated board in QEMU. This is the one place that holds the
# QEMU command line: `make qemu`, the check harness and the DT dump use it.
#
# usage: run.sh [OPTION]... [-- QEMU_ARG...]
#   --kernel FILE    kernel Image
#   --initrd FILE    initramfs
#   --dtb FILE       the board's DTB (QEMU virt's own DT + dts/ overlays; dt mode)
#   --append ARGS    more kernel command line
#   --check          run the on-target checks, then power off
#   --mode MODE      boot mode: dt (default); acpi (UEFI firmware, QEMU's
#                    ACPI tables, no DT from us); uboot (U-Boot boots the
#                    SD card image, nothing else)
#   --acpi-initrd FILE  the initrd of the acpi mode (ACPI tables + initramfs)
#   --dumpdtb FILE   write QEMU's own DT for this machine and exit
#   --image FILE     uboot mode: the SD card image (out/images/sdcard.img)
#   --uboot-bin FILE uboot mode: U-Boot for QEMU virt (u-boot-qemu)
#   --uboot-dtb FILE uboot mode: the DT QEMU hands U-Boot (with the FIT key)
#   --carl9170 DEV   pass a real AR9170 stick through (VID:PID, or BUS/ADDR
#                    of the host's lsusb) on qemu-xhci, instead of the stub
#   --cachefiles-share DIR   export DIR over virtio-9p (mount tag nsbsp-share)
#   --cachefiles-disk FILE   attach FILE (ext4 cache disk) as virtio-blk
#   --magellan DEV   the SpaceMouse port's host end is serial device DEV
#                    (default: a pty, chardev "magellan", for qemu/magellan-emu)
#   --magellan-control  add the magellan checks' control port (virtio console)
#   --qmp SOCKET     QMP on a unix socket (how magellan-emu finds the ptys)
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
	sed -n '3,30s/^# \{0,1\}//p' "$0" >&2
	exit 1
}

kernel='' initrd='' dtb='' append='' check='' mode=dt dumpdtb='' carl9170='' acpi_initrd=''
cachefiles_share='' cachefiles_disk=''
here=$(cd "$(dirname "$0")" && pwd)
image=$here/../out/images/sdcard.img
uboot_bin=/usr/lib/u-boot/qemu_arm64/u-boot.bin
uboot_dtb=$here/../out/images/u-boot-qemu-virt.dtb
magellan_dev='' magellan_control='' qmp=''	# magellan
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
	--acpi-initrd) acpi_initrd=$2; shift 2 ;;
	--cachefiles-share) cachefiles_share=$2; shift 2 ;;
	--cachefiles-disk) cachefiles_disk=$2; shift 2 ;;
	--magellan) magellan_dev=$2; shift 2 ;;	# magellan
	--magellan-control) magellan_control=1; shift ;;	# magellan
	--qmp) qmp=$2; shift 2 ;;	# magellan
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

# Kernel arguments the devices below ask for, whatever the boot mode.
board_args=

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
	board_args="$board_args nsbsp.carl9170=host"
	set -- -device qemu-xhci,id=xhci -device "usb-host,bus=xhci.0,$usbhost" "$@"
fi
# ---- end carl9170 ----

# ---- cachefiles: 9p share and ext4 cache disk -----------------------------
# virtio-mmio devices, which QEMU describes in its DT and in its ACPI DSDT
# alike, so every boot mode has them. A check boot writes the cache disk to
# a throw-away overlay, so checks never change it; `make qemu` keeps what it
# cached.
for f in "$cachefiles_share" "$cachefiles_disk"; do
	case $f in *,*) echo "Error: $f: QEMU options cannot take a path with a comma" >&2; exit 1 ;; esac
done
if [ -n "$cachefiles_share" ]; then
	[ -d "$cachefiles_share" ] || { echo "Error: $cachefiles_share: not a folder (run make first)" >&2; exit 1; }
	set -- -fsdev "local,id=nsbsp-share,path=$cachefiles_share,security_model=none,readonly=on" \
		-device virtio-9p-device,fsdev=nsbsp-share,mount_tag=nsbsp-share "$@"
fi
if [ -n "$cachefiles_disk" ]; then
	[ -r "$cachefiles_disk" ] || { echo "Error: $cachefiles_disk: not readable (run make first)" >&2; exit 1; }
	set -- -drive "file=$cachefiles_disk,if=none,format=raw,id=nsbsp-cache${check:+,snapshot=on}" \
		-device virtio-blk-device,drive=nsbsp-cache "$@"
fi
# ---- end cachefiles ---------------------------------------------------------

# ---- magellan (begin): the SpaceMouse port --------------------------------
# A second serial port: QEMU virt has one non-secure PL011 (the console), so
# the board gets a PCI 16550 (pci-serial, 1b36:0002, driver 8250_pci; it is
# the same in every boot mode). Its host end is a pty that qemu/magellan-emu
# finds through QMP, or a real serial device. The checks' control port is a
# virtio console port named magellan-ctl (the guest asks the emulator for
# each packet once its input device exists).
if [ -n "$magellan_dev" ]; then
	if [ ! -c "$magellan_dev" ] || [ ! -r "$magellan_dev" ] || [ ! -w "$magellan_dev" ]; then
		echo "Error: $magellan_dev: not a serial device this user can read and write" >&2
		exit 1
	fi
	set -- -chardev "serial,id=magellan,path=$magellan_dev" -device pci-serial,chardev=magellan "$@"
else
	set -- -chardev pty,id=magellan -device pci-serial,chardev=magellan "$@"
fi
if [ -n "$magellan_control" ]; then
	set -- -device virtio-serial-pci -chardev pty,id=magellan-ctl \
		-device virtserialport,chardev=magellan-ctl,name=magellan-ctl "$@"
fi
# Any -qmp turns off -nographic's default "mon:stdio" (QEMU vl.c), which
# would leave a console without Ctrl-a x that Ctrl-C kills: ask for it.
[ -z "$qmp" ] || set -- -qmp "unix:$qmp,server=on,wait=off" -serial mon:stdio "$@"
# ---- magellan (end) ---------------------------------------------------------

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
	[ -z "$carl9170" ] || { echo "Error: --carl9170 works in dt and acpi mode only" >&2; exit 1; }
	case $extra in *[\'\"\;\$]*)
		echo "Error: --append: no quotes, ';' or '$' in uboot mode (they go through U-Boot's shell)" >&2
		exit 1 ;;
	esac
	# The boot command, in the DT QEMU hands U-Boot: distro boot on every
	# virtio disk in turn (its default tries virtio 0 only, and which disk
	# is 0 depends on the other devices of the board).
	# shellcheck disable=SC2016 # ${n} is U-Boot's, not ours
	bootcmd='for n in 0 1 2 3 4 5 6 7; do setenv devnum ${n}; run virtio_boot; done'
	[ -z "$extra" ] || bootcmd="setenv nsbsp_bootargs '$extra'; $bootcmd"
	tmp=$(mktemp "${TMPDIR:-/tmp}/nsbsp-uboot-dtb.XXXXXX")
	cp "$uboot_dtb" "$tmp"
	fdtput -p -t s "$tmp" /config bootcmd "$bootcmd"
	# QEMU reads the DT at start: keep it open on fd 3, unlinked,
	# so nothing is left behind whatever ends QEMU.
	exec 3< "$tmp"
	rm -f "$tmp"
	exec "$QEMU" -M "$machine" -cpu "$cpu" -m "$mem" -smp "$smp" -nographic -no-reboot \
		-nic none -bios "$uboot_bin" -dtb /dev/fd/3 "$@" \
		-drive "if=none,id=sdcard,format=raw,readonly=on,file=$image" \
		-device virtio-blk-device,drive=sdcard
fi
# ---- end of uboot mode --------------------------------------------------------

for f in "$kernel" "$initrd"; do
	[ -n "$f" ] || { echo "Error: --kernel and --initrd are needed" >&2; exit 1; }
	[ -r "$f" ] || { echo "Error: $f: not readable (run make first)" >&2; exit 1; }
done

# What each mode boots with (put before the caller's QEMU arguments): the
# firmware, or QEMU's own loader, and what describes the board.
case $mode in
dt)
	[ -n "$dtb" ] || { echo "Error: --mode dt needs --dtb" >&2; exit 1; }
	[ -r "$dtb" ] || { echo "Error: $dtb: not readable (run make first)" >&2; exit 1; }
	set -- -dtb "$dtb" "$@"
	;;
# ---- acpi boot mode --------------------------------------------------------
# UEFI (EDK2) starts the kernel's EFI stub from fw_cfg, hands it the initrd
# and QEMU's ACPI tables, and no DT: the initrd carries our SSDT.
acpi)
	efi_fw=${QEMU_EFI:-/usr/share/qemu-efi-aarch64/QEMU_EFI.fd}
	[ -r "$efi_fw" ] || { echo "Error: $efi_fw: not readable (apt-get install qemu-efi-aarch64)" >&2; exit 1; }
	[ -n "$acpi_initrd" ] || { echo "Error: --mode acpi needs --acpi-initrd" >&2; exit 1; }
	[ -r "$acpi_initrd" ] || { echo "Error: $acpi_initrd: not readable (run make first)" >&2; exit 1; }
	initrd=$acpi_initrd
	set -- -bios "$efi_fw" "$@"
	;;
# ---- end acpi boot mode ----------------------------------------------------
*) echo "Error: unknown boot mode '$mode' (known: dt, acpi, uboot)" >&2; exit 1 ;;
esac

cmdline="console=ttyAMA0 panic=-1 nsbsp.mode=$mode$board_args"
[ -n "$check" ] && cmdline="$cmdline nsbsp.check=1"
[ -n "$append" ] && cmdline="$cmdline $append"

# -no-reboot: a guest reboot or panic ends QEMU instead of looping.
exec "$QEMU" -M "$machine" -cpu "$cpu" -m "$mem" -smp "$smp" -nographic -no-reboot \
	-nic none -kernel "$kernel" -initrd "$initrd" -append "$cmdline" "$@"
