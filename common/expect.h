/* SPDX-License-Identifier: GPL-2.0-only */
/* SPDX-FileCopyrightText: The nonstring-bsp authors */
/*
 * The host unit tests' assertion (qemu/magellan-test.c,
 * tools/host-checks/carl9170-emu-test.c): a failed one prints where and
 * why, counts in `failures`, and the test goes on.
 */
#ifndef NSBSP_EXPECT_H
#define NSBSP_EXPECT_H

#include <stdio.h>

static int failures;

#define EXPECT(cond, ...)                                           \
	do {                                                        \
		if (!(cond)) {                                      \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                        \
			putchar('\n');                              \
			failures++;                                 \
		}                                                   \
	} while (0)

#endif
