// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * A well-formed table whose signature, NSBX, is not one the kernel lets an
 * initrd install or upgrade (table_sigs in drivers/acpi/tables.c): the
 * kernel must refuse it with "ACPI OVERRIDE: Unknown signature".
 *
 * nsbsp: upgrade reject
 */
DefinitionBlock ("", "NSBX", 2, "NSBSP", "FOREIGN", 0x00000001)
{
}
