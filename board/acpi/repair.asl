// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * nonstring-bsp SSDT of wrong return values that ACPICA repairs, one Device
 * per repairable name of its two repair tables (drivers/acpi/acpica):
 * acpi_ns_repairable_names in nsrepair2.c (struct acpi_repair_info) and
 * acpi_object_repair_info in nsrepair.c (struct acpi_simple_repair_info).
 * Both tables are found by the name of the object evaluated, so a changed
 * name in either table leaves that object unrepaired.
 *
 * Each Device Rxxx holds three methods:
 *   _xxx  the predefined name; it returns what XRAW returns
 *   XRAW  the wrong value, as a firmware bug would have it
 *   XEXP  the value the ACPI specification wants, written here from the
 *         specification (section named at each Device), not from ACPICA
 * Neither XRAW nor XEXP is a predefined name, so ACPICA returns them as they
 * are; rootfs/fixtures/checks/61-acpi-eval.sh evaluates all three (AML
 * debugger) and wants _xxx equal to XEXP and XRAW different from it.
 *
 * The values are returned through Local0 so that iasl, which checks the
 * return type of predefined names, lets the wrong ones through.
 *
 * "// nsbsp: repair PATH RAW EXPECTED": the check evaluates PATH and wants
 * what EXPECTED (a sibling of PATH) returns; RAW (a sibling) returns what
 * PATH's method returned before ACPICA repaired it (tools/acpi-initrd.sh).
 *
 * nsbsp: upgrade accept
 */
DefinitionBlock ("", "SSDT", 2, "NSBSP", "NSBSPRPR", 0x00000001)
{
    Scope (\_SB)
    {
        Device (NSBR)
        {
            Name (_HID, "NSBS0010")

            /* ---- acpi_ns_repairable_names (nsrepair2.c) ---- */

            /*
             * _ALR (ACPI 6.4, 9.2.5): the packages are listed in order of
             * increasing ambient illuminance (element 1).
             */
            // nsbsp: repair \_SB.NSBR.RALR._ALR XRAW XEXP
            Device (RALR)
            {
                Name (_ADR, 0x01)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 70, 300 },
                        Package () { 10, 0 },
                        Package () { 100, 1000 },
                        Package () { 40, 100 } })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 10, 0 },
                        Package () { 40, 100 },
                        Package () { 70, 300 },
                        Package () { 100, 1000 } })
                }
                Method (_ALR, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _CID (ACPI 6.4, 6.1.2): each ID is a valid PNP or ACPI ID,
             * upper case and without the '*' some firmware puts in front.
             * The kernel evaluates it to list the device's IDs in modalias.
             */
            // nsbsp: repair \_SB.NSBR.RCID._CID XRAW XEXP
            Device (RCID)
            {
                Name (_HID, "NSBS0011")
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () { "*nsbs1011", "nsbs1012" })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () { "NSBS1011", "NSBS1012" })
                }
                Method (_CID, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _CST (ACPI 6.4, 8.4.1.1): Count, then that many C-state
             * packages {Register, Type, Latency, Power}, Type 1 (C1) to 3
             * (C3), in increasing order of Type. A state of Type 0 is not a
             * C state: it is dropped and Count follows.
             */
            // nsbsp: repair \_SB.NSBR.RCST._CST XRAW XEXP
            Device (RCST)
            {
                Name (_ADR, 0x02)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () { 3,
                        Package () { ResourceTemplate () { Register (SystemIO, 8, 0, 0x0812) }, 2, 20, 500 },
                        Package () { ResourceTemplate () { Register (SystemIO, 8, 0, 0x0810) }, 0, 1, 1000 },
                        Package () { ResourceTemplate () { Register (SystemIO, 8, 0, 0x0811) }, 1, 1, 1000 } })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () { 2,
                        Package () { ResourceTemplate () { Register (SystemIO, 8, 0, 0x0811) }, 1, 1, 1000 },
                        Package () { ResourceTemplate () { Register (SystemIO, 8, 0, 0x0812) }, 2, 20, 500 } })
                }
                Method (_CST, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _FDE (ACPI 6.4, 9.9.1): a Buffer of five DWORDs (floppy 0-3,
             * tape); the firmware bug gives five bytes.
             */
            // nsbsp: repair \_SB.NSBR.RFDE._FDE XRAW XEXP
            Device (RFDE)
            {
                Name (_ADR, 0x03)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Buffer () { 1, 0, 0, 0, 2 })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Buffer () { 1, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,
                                        0, 0, 0, 0,  2, 0, 0, 0 })
                }
                Method (_FDE, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _GTM (ACPI 6.4, 9.8.2.1.1): a Buffer of five DWORDs (PIO and
             * DMA timing of drives 0 and 1 in ns, flags); five bytes here.
             */
            // nsbsp: repair \_SB.NSBR.RGTM._GTM XRAW XEXP
            Device (RGTM)
            {
                Name (_ADR, 0x04)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Buffer () { 0x78, 0x14, 0xB4, 0x1E, 0x13 })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Buffer () { 0x78, 0, 0, 0,  0x14, 0, 0, 0,  0xB4, 0, 0, 0,
                                        0x1E, 0, 0, 0,  0x13, 0, 0, 0 })
                }
                Method (_GTM, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _HID (ACPI 6.4, 6.1.5): a valid ACPI ID, upper case, no '*'.
             * The kernel names the device by it (/sys/bus/acpi/devices).
             */
            // nsbsp: repair \_SB.NSBR.RHID._HID XRAW XEXP
            Device (RHID)
            {
                Method (XRAW, 0, NotSerialized)
                {
                    Return ("*nsbs0013")
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return ("NSBS0013")
                }
                Method (_HID, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _PRT (ACPI 6.4, 6.2.13): {Address, Pin, Source, Source Index},
             * Source Index an Integer; the firmware bug swaps Source (a
             * reference to the link device) and Source Index. The second
             * entry is right and stays as it is.
             */
            // nsbsp: repair \_SB.NSBR.RPRT._PRT XRAW XEXP
            Device (RPRT)
            {
                Name (_ADR, 0x06)
                Device (LNKA)
                {
                    Name (_ADR, 0x07)
                }
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 0x0001FFFF, 0, 0, LNKA },
                        Package () { 0x0002FFFF, 1, 0, 36 } })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 0x0001FFFF, 0, LNKA, 0 },
                        Package () { 0x0002FFFF, 1, 0, 36 } })
                }
                Method (_PRT, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _PSS (ACPI 6.4, 8.4.5.2): the states in descending order of
             * power dissipation, which is the order of core frequency
             * (element 0).
             */
            // nsbsp: repair \_SB.NSBR.RPSS._PSS XRAW XEXP
            Device (RPSS)
            {
                Name (_ADR, 0x08)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 800, 400, 10, 10, 0x08, 0x08 },
                        Package () { 1600, 1600, 10, 10, 0x10, 0x10 },
                        Package () { 1200, 900, 10, 10, 0x0C, 0x0C } })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 1600, 1600, 10, 10, 0x10, 0x10 },
                        Package () { 1200, 900, 10, 10, 0x0C, 0x0C },
                        Package () { 800, 400, 10, 10, 0x08, 0x08 } })
                }
                Method (_PSS, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _TSS (ACPI 6.4, 8.4.4.2): the throttling states in descending
             * order of power (element 1). Its own Device: ACPICA leaves a
             * _TSS alone when a _PSS is beside it (the spec then says the
             * power field of _TSS is to be ignored).
             */
            // nsbsp: repair \_SB.NSBR.RTSS._TSS XRAW XEXP
            Device (RTSS)
            {
                Name (_ADR, 0x09)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 50, 500, 0, 0x14, 0 },
                        Package () { 100, 1000, 0, 0x00, 0 },
                        Package () { 75, 750, 0, 0x16, 0 } })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () {
                        Package () { 100, 1000, 0, 0x00, 0 },
                        Package () { 75, 750, 0, 0x16, 0 },
                        Package () { 50, 500, 0, 0x14, 0 } })
                }
                Method (_TSS, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /* ---- acpi_object_repair_info (nsrepair.c) ---- */

            /*
             * _CRS (ACPI 6.4, 6.2.2): a resource template Buffer, at least
             * the End Tag (6.4.2.9: 0x79, checksum 0). Zero is a common
             * "no resources".
             */
            // nsbsp: repair \_SB.NSBR.RCRS._CRS XRAW XEXP
            Device (RCRS)
            {
                Name (_ADR, 0x0A)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Zero)
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Buffer () { 0x79, 0x00 })
                }
                Method (_CRS, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _DMA (ACPI 6.4, 6.2.4): a resource template Buffer; here an
             * empty Buffer, which has no End Tag.
             */
            // nsbsp: repair \_SB.NSBR.RDMA._DMA XRAW XEXP
            Device (RDMA)
            {
                Name (_ADR, 0x0B)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Buffer (Zero) {})
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Buffer () { 0x79, 0x00 })
                }
                Method (_DMA, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /* _PRS (ACPI 6.4, 6.2.12): a resource template Buffer. */
            // nsbsp: repair \_SB.NSBR.RPRS._PRS XRAW XEXP
            Device (RPRS)
            {
                Name (_ADR, 0x0C)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Zero)
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Buffer () { 0x79, 0x00 })
                }
                Method (_PRS, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _DEP (ACPI 6.4, 6.5.8): a Package of references to the devices
             * this one depends on; the bug gives their paths as Strings.
             * No _HID here, so the kernel's scan does not act on it.
             */
            // nsbsp: repair \_SB.NSBR.RDEP._DEP XRAW XEXP
            Device (RDEP)
            {
                Name (_ADR, 0x0D)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () { "\\_SB.NSBR.RCRS", "\\_SB.NSBR.RDMA" })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () { \_SB.NSBR.RCRS, \_SB.NSBR.RDMA })
                }
                Method (_DEP, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _MLS (ACPI 6.4, 6.1.7): packages {Language, Description}, the
             * description a Unicode (UTF-16) Buffer; here an ASCII String.
             */
            // nsbsp: repair \_SB.NSBR.RMLS._MLS XRAW XEXP
            Device (RMLS)
            {
                Name (_ADR, 0x0E)
                Method (XRAW, 0, NotSerialized)
                {
                    Return (Package () { Package () { "en", "nsbsp device" } })
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Package () { Package () { "en", Unicode ("nsbsp device") } })
                }
                Method (_MLS, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }

            /*
             * _STR (ACPI 6.4, 6.1.10): a Unicode (UTF-16) Buffer; here an
             * ASCII String. The kernel shows it as the device's description
             * in sysfs.
             */
            // nsbsp: repair \_SB.NSBR.RSTR._STR XRAW XEXP
            Device (RSTR)
            {
                Name (_HID, "NSBS0014")
                Method (XRAW, 0, NotSerialized)
                {
                    Return ("nsbsp repaired description")
                }
                Method (XEXP, 0, NotSerialized)
                {
                    Return (Unicode ("nsbsp repaired description"))
                }
                Method (_STR, 0, NotSerialized)
                {
                    Local0 = XRAW ()
                    Return (Local0)
                }
            }
        }
    }
}
