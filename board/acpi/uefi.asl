// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * A UEFI ACPI Data Table (iasl data table): UEFI is in table_sigs
 * (drivers/acpi/tables.c), so the kernel installs it from the initrd, and
 * nothing in Linux reads it. Harmless on QEMU virt: it carries an
 * identifier of no known use and no data.
 *
 * nsbsp: upgrade accept
 */
[0004]                          Signature : "UEFI"    [UEFI Boot Optimization Table]
[0004]                       Table Length : 00000036
[0001]                           Revision : 01
[0001]                           Checksum : 00
[0006]                             Oem ID : "NSBSP "
[0008]                       Oem Table ID : "NSBSPUEF"
[0004]                       Oem Revision : 00000001
[0004]                    Asl Compiler ID : "INTL"
[0004]              Asl Compiler Revision : 20200925

[0016]                    UUID Identifier : 6e736273-7000-4000-8000-6e7362737000
[0002]                        Data Offset : 0036
