// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * A Maximum System Characteristics Table (iasl data table): MSCT is in
 * table_sigs (drivers/acpi/tables.c), so the kernel installs it from the
 * initrd, and nothing in Linux reads it. Harmless on QEMU virt, and true
 * of it: one proximity domain (0), one clock domain, 44 address bits.
 *
 * nsbsp: upgrade accept
 */
[0004]                          Signature : "MSCT"    [Maximum System Characteristics Table]
[0004]                       Table Length : 00000000
[0001]                           Revision : 01
[0001]                           Checksum : 00
[0006]                             Oem ID : "NSBSP "
[0008]                       Oem Table ID : "NSBSPMSC"
[0004]                       Oem Revision : 00000001
[0004]                    Asl Compiler ID : "INTL"
[0004]              Asl Compiler Revision : 20200925

[0004]                   Proximity Offset : 00000038
[0004]              Max Proximity Domains : 00000000
[0004]                  Max Clock Domains : 00000000
[0008]               Max Physical Address : 00000FFFFFFFFFFF

[0001]                           Revision : 01
[0001]                             Length : 16
[0004]                 Domain Range Start : 00000000
[0004]                   Domain Range End : 00000000
[0004]                 Processor Capacity : 00000001
[0008]                    Memory Capacity : 0000000020000000
