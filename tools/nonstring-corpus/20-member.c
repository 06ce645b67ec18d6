// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/* Struct and union members, positional and designated, nested. */
#define nonstring __attribute__((__nonstring__))

struct tag {
	char name[4];
	char magic[4] nonstring;
	int n;
};

union u {
	char c[2];
	int i;
};

struct outer {
	struct tag t;
	union u u;
	char extra[3];
};

struct tag m1 = { "abcd", "OTAR", 1 };		/* ns: warn */
struct tag m2 = { .magic = "OTAR", .name = "efgh" };	/* ns: warn */
struct tag m3 = { "abc", "OTAR", 2 };		/* ns: none */
struct tag m4 = { { 'a', 'b', 'c', 'd' }, "OTAR", 3 };	/* ns: none */
struct tag m5[] = {
	{ "ijkl", "OTAR", 4 },			/* ns: warn */
	{ .n = 5, .name = { 'x', 'y', 'z', 'w' } },	/* ns: none */
	[3] = { .name = "mnop" },		/* ns: warn */
	[2].name = "qrst",			/* ns: warn */
	[4].magic = "uvwx",			/* ns: none */
};
union u m6 = { "ab" };				/* ns: warn */
union u m7 = { .c = "a" };			/* ns: none */
struct outer m8 = {
	.t = { .name = "abcd", .magic = "abcd" },	/* ns: warn */
	.u.c = "ab",				/* ns: warn */
	.extra = "xyz",				/* ns: warn */
};
struct outer m9 = { { "abc", "abcd", 0 }, { "a" }, { 1, 2, 3 } };	/* ns: none */
struct tag m10 = { "abcd", "abcd", 0 };		/* ns: warn */
struct tag m11 = { { 'a', 'b', 'c', 'd' }, { 'a', 'b', 'c', 'd' }, 0 };	/* ns: none */

void g(struct tag *p)
{
	struct tag l = { .name = "wxyz" };	/* ns: warn */
	*p = l;
}
