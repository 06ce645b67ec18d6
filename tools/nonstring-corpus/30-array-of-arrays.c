// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * Arrays of char arrays: GCC 15.1 accepts nonstring on them, GCC < 15
 * rejects it; the kernel writes __nonstring_array, which the plugin's
 * nonstring_array attribute stands for (kernel-patches/0001).
 */
#ifdef NONSTRING_PLUGIN
#define __nonstring_array __attribute__((nonstring_array))
#else
#define __nonstring_array __attribute__((__nonstring__))	/* GCC >= 15.1 */
#endif
#define ACPI_SIG_BERT "BERT"			/* ns: warn */
#define ACPI_SIG_MADT "APIC"			/* ns: warn */

static const char a1[][4] = { ACPI_SIG_BERT, ACPI_SIG_MADT, "SRAT" };	/* ns: warn */
static const char a2[][4] __nonstring_array = { ACPI_SIG_BERT, "SRAT" };	/* ns: none */
const char a3[2][4] = { [1] = "abcd", [0] = "efg" };	/* ns: warn */
const char a4[2][2][2] = { { "ab", "c" }, { [1] = "de" } };	/* ns: warn 2 */
const char a5[2][2][2] __nonstring_array = { { "ab", "cd" } };	/* ns: none */
const char a6[][4] = { { 'a', 'b', 'c', 'd' }, { 0x41, 0x42, 0x43, 0x44 } };	/* ns: none */
const char a7[][4] = { "abc", "def" };		/* ns: none */
unsigned char a8[][2] = { "ab" };		/* ns: warn */
const char a9[4][2] = { [0 ... 3] = "ab", [1] = "cd" };	/* ns: warn 5; ns: clang 2 (range designator: checked once) */
const char a10[4][2] __nonstring_array = { [0 ... 3] = "ab", [1] = "cd" };	/* ns: none */

struct table {
	char names[2][4] __nonstring_array;
	char plain[2][4];
};

struct table t1 = { { "abcd", "efgh" }, { "ijkl", "mno" } };	/* ns: warn */
struct table t2 = { .plain[1] = "pqrs", .names[0] = "tuvw" };	/* ns: warn */

const char *use(int i)
{
	return a1[i] + a2[i][0] + a3[i][0] + a4[i][0][0] + a5[i][0][0] +
	       a6[i][0] + a7[i][0] + a8[i][0] + a9[i][0] + a10[i][0];
}
