// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * nonstring-bsp SSDT overlay, loaded through the initrd table upgrade
 * (CONFIG_ACPI_TABLE_UPGRADE) on top of the firmware's tables in the acpi
 * boot mode. It exercises the ACPICA name tables that kernel-patches/0003
 * marks __nonstring (see README.md, "The acpi boot mode").
 *
 * Lines "// nsbsp: WHAT ARGS" tell the build (tools/acpi-initrd.sh) what the
 * on-target checks (rootfs/checks/60-acpi.sh) must see:
 *   upgrade accept|reject  the kernel installs this table / refuses it
 *   wrong-type PATH        the object at PATH returns a type its predefined
 *                          name does not allow (the expected type comes from
 *                          acpihelp, Debian's ACPICA, not from our kernel)
 *
 * nsbsp: upgrade accept
 */
DefinitionBlock ("", "SSDT", 2, "NSBSP", "NSBSPSDT", 0x00000001)
{
    Scope (\_SB)
    {
        /*
         * nsrepair2: a _HID string with a leading '*' and lower-case letters
         * is repaired to the upper-case ID without the '*'. The repair is
         * found through acpi_ns_repairable_names (struct acpi_repair_info).
         * A Method (not a Name) so that iasl does not refuse the string.
         */
        Device (NSB0)
        {
            Method (_HID, 0, NotSerialized)
            {
                Return ("*nsbs0001")
            }
        }

        /*
         * nspredef: _UID must return an Integer or a String
         * (acpi_gbl_predefined_methods, struct acpi_name_info). A Package
         * cannot be repaired, so ACPICA logs the mismatch with the expected
         * type. Returned through a local so that iasl does not refuse it.
         */
        // nsbsp: wrong-type \_SB.NSB1._UID
        Device (NSB1)
        {
            Name (_HID, "NSBS0002")
            Method (_UID, 0, NotSerialized)
            {
                Local0 = Package () { One }
                Return (Local0)
            }
        }
    }
}
