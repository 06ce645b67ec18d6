// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * nonstring-bsp SSDT of predefined names that return a type no repair can
 * turn into the one they must return, of every return type that can be
 * mismatched: a name that may return a Package accepts anything (ACPICA
 * wraps a lone object into a Package), so only Integer, String, Buffer,
 * Integer/String and Reference are left (with \_SB.NSB1._UID of nsbsp.asl).
 * ACPICA finds the expected type in acpi_gbl_predefined_methods (struct
 * acpi_name_info, acpredef.h) by the object's name and logs
 * "Return type mismatch - found X, expected Y"; the checks
 * (rootfs/checks/60-acpi.sh, rootfs/fixtures/checks/61-acpi-eval.sh) want Y
 * to be what acpihelp (Debian's ACPICA, not our kernel) says.
 *
 * Lines "// nsbsp: WHAT PATH" (tools/acpi-initrd.sh):
 *   wrong-type PATH       the kernel evaluates PATH while it boots (device
 *                         enumeration): the message is in the kernel log
 *   eval-wrong-type PATH  no driver of this board evaluates PATH; the check
 *                         evaluates it (AML debugger)
 *
 * The wrong values go through Local0 so that iasl lets them through.
 *
 * nsbsp: upgrade accept
 */
DefinitionBlock ("", "SSDT", 2, "NSBSP", "NSBSPTYP", 0x00000001)
{
    Scope (\_SB)
    {
        Device (NSBT)
        {
            Name (_HID, "NSBS0020")

            /* _SUN (Integer): a Package is no Integer. */
            // nsbsp: eval-wrong-type \_SB.NSBT.TSUN._SUN
            Device (TSUN)
            {
                Name (_ADR, 0x01)
                Method (_SUN, 0, NotSerialized)
                {
                    Local0 = Package () { "slot" }
                    Return (Local0)
                }
            }

            /* _DDN (String): nor is it a String. */
            // nsbsp: eval-wrong-type \_SB.NSBT.TDDN._DDN
            Device (TDDN)
            {
                Name (_ADR, 0x02)
                Method (_DDN, 0, NotSerialized)
                {
                    Local0 = Package () { One }
                    Return (Local0)
                }
            }

            /*
             * _SLI (Buffer): only a Package of Integers converts to a
             * Buffer; this one holds a String.
             */
            // nsbsp: eval-wrong-type \_SB.NSBT.TSLI._SLI
            Device (TSLI)
            {
                Name (_ADR, 0x03)
                Method (_SLI, 0, NotSerialized)
                {
                    Local0 = Package () { "locality" }
                    Return (Local0)
                }
            }

            /*
             * _TZM (Reference, a thermal zone): an Integer converts to no
             * reference.
             */
            // nsbsp: eval-wrong-type \_SB.NSBT.TTZM._TZM
            Device (TTZM)
            {
                Name (_ADR, 0x04)
                Method (_TZM, 0, NotSerialized)
                {
                    Local0 = 0x05
                    Return (Local0)
                }
            }

            /*
             * _HID (Integer/String): the kernel reads it to name the device
             * (which then has no ID of its own).
             */
            // nsbsp: wrong-type \_SB.NSBT.THID._HID
            Device (THID)
            {
                Method (_HID, 0, NotSerialized)
                {
                    Local0 = Package () { 0x20 }
                    Return (Local0)
                }
            }

            /*
             * _ADR (Integer): the kernel reads it for the device's address
             * on its parent bus (and then has none).
             */
            // nsbsp: wrong-type \_SB.NSBT.TADR._ADR
            Device (TADR)
            {
                Method (_ADR, 0, NotSerialized)
                {
                    Local0 = Package () { 0x06 }
                    Return (Local0)
                }
            }
        }
    }
}
