// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * What the plugin must not report, nor make worse: a literal longer than
 * the array (GCC's own "is too long" warning), other -Wc++-compat
 * diagnostics (the plugin turns the option on and swallows them),
 * pointers. GCC's "is too long" has no option, so no -Werror here.
 */
/* ns: cflags -Wno-error */
char n1[2] = "abcd";				/* ns: none (GCC: is too long) */
const char *n2 = "abcd";			/* ns: none */
int class = 1;					/* ns: none (C++ keyword) */

int *h(void *p)
{
	int *q = p;				/* ns: none (void * conversion) */
	return q;
}

enum e1 { A1 };
enum e2 { B1 };
int cmp(enum e1 a) { return a == 0; }		/* ns: none */
