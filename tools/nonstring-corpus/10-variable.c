// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/* Variables: char, signed char and unsigned char arrays. */
#define SIG "FACP"				/* ns: warn */
#define nonstring __attribute__((__nonstring__))
#define NUL_NAME(n) #n "\0"

char v1[4] = "abcd";				/* ns: warn */
signed char v2[2] = "ab";			/* ns: warn */
unsigned char v3[3] = "abc";			/* ns: warn */
const char v4[4] = { "abcd" };			/* ns: warn */
char v5[6] = "abc"				/* ns: warn */
	"def";					/* ns: none (reported on the line above) */
char v6[4] = SIG;
static const char v7[3] = "a\0b";		/* ns: warn */
char v8[5] = "abcd";				/* ns: none: the NUL fits */
char v9[] = "abcd";				/* ns: none: sized by the literal */
char v10[4] nonstring = "abcd";			/* ns: none: nonstring */
nonstring char v11[4] = "abcd";			/* ns: none: nonstring */
char v12[4] = { 'a', 'b', 'c', 'd' };		/* ns: none: not a literal */
unsigned char v13[4] = { 0x41, 0x42, 0x43, 0x44 };	/* ns: none */
char v14[2] = { 'a', 'b' }, v15[2] = "ab";	/* ns: warn */
int v16[2] = { 'a', 'b' };			/* ns: none: not a char array */
char v17[4] = "abc";				/* ns: none */
/* The NUL that does not fit is the literal's own, after an explicit one. */
char v18[2] = "a\0";				/* ns: warn; ns: clang 0 (llvm PR 143487) */
char v19[4] = NUL_NAME(abc);			/* ns: warn; ns: clang 0 (llvm PR 143487) */
char v20[3] = "a\0b";				/* ns: warn: the NUL is not the last */

int f(void)
{
	char l1[4] = "wxyz";			/* ns: warn */
	static const char l2[2] = "xy";		/* ns: warn */
	char l3[4] nonstring = "wxyz";		/* ns: none */
	char l4[4] = { 'w', 'x', 'y', 'z' };	/* ns: none */

	return l1[0] + l2[0] + l3[0] + l4[0];
}
