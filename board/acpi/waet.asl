// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * A Windows ACPI Emulated Devices Table (iasl data table): WAET is in
 * table_sigs (drivers/acpi/tables.c), so the kernel installs it from the
 * initrd, and nothing in Linux reads it (it tells Windows which emulated
 * devices need no workaround). Harmless on QEMU virt: no flag is set.
 *
 * nsbsp: upgrade accept
 */
[0004]                          Signature : "WAET"    [Windows ACPI Emulated Devices Table]
[0004]                       Table Length : 00000028
[0001]                           Revision : 01
[0001]                           Checksum : 00
[0006]                             Oem ID : "NSBSP "
[0008]                       Oem Table ID : "NSBSPWAE"
[0004]                       Oem Revision : 00000001
[0004]                    Asl Compiler ID : "INTL"
[0004]              Asl Compiler Revision : 20200925

[0004]              Flags (decoded below) : 00000000
                     RTC needs no INT ack : 0
                  PM timer, one read only : 0
