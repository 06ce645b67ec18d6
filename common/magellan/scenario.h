/* SPDX-License-Identifier: GPL-2.0-only */
/* SPDX-FileCopyrightText: The nonstring-bsp authors */
/*
 * The Magellan scenario file (common/magellan/magellan.scenario): what the
 * input device must look like, and sections of 'd' and 'k' packets, each
 * optionally preceded by junk or a flood. The file describes its own
 * format in its header. One parser for both sides: the host emulator
 * (qemu/magellan-emu) sends what it says, the on-target check
 * (magellan-check) compares evdev with it.
 */
#ifndef NSBSP_MAGELLAN_SCENARIO_H
#define NSBSP_MAGELLAN_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "magellan.h"

#define SCN_NAME_MAX	32
#define SCN_ITEMS_MAX	1024	/* packets in the whole file */
#define SCN_JUNK_MAX	8	/* junk lines before one packet */
#define SCN_JUNK_BYTES	4096	/* random junk bytes in one line */
#define SCN_JUNK_PACKETS 64	/* junk packets in one line */
#define SCN_FLOOD_MAX	10000000	/* bytes of one flood */

struct scn_junk {
	int kind;		/* enum magellan_junk */
	unsigned int count;	/* bytes (random) or packets */
};

struct scn_item {
	char section[SCN_NAME_MAX];
	unsigned int index;	/* position among the section's packets */
	char type;		/* 'd' or 'k' */
	int axis[MAGELLAN_AXES];
	unsigned int buttons;	/* bit i: the i-th name of the buttons line */
	struct scn_junk junk[SCN_JUNK_MAX];
	unsigned int njunk;
	unsigned long flood;	/* random bytes at full speed before it (0: none) */
	unsigned int line;
};

struct scenario {
	uint32_t seed;
	char device_name[64];		/* "name": the input device's name */
	char axis_names[MAGELLAN_AXES][SCN_NAME_MAX];	/* "axes": evdev codes, packet order */
	unsigned int naxes;
	int range_min, range_max;	/* "range": what the driver advertises */
	char button_names[MAGELLAN_BUTTONS][SCN_NAME_MAX];
	unsigned int nbuttons;
	struct scn_item item[SCN_ITEMS_MAX];
	unsigned int nitems;
};

/*
 * Parse the file; on error return -1 with "LINE: reason" in err. The
 * scenario is large: allocate it statically or on the heap.
 */
int scenario_load(struct scenario *scn, FILE *f, char *err, size_t errsz);
/* The item INDEX of SECTION, or NULL. */
const struct scn_item *scenario_find(const struct scenario *scn, const char *section,
				     unsigned int index);
/*
 * A packet's values as the control port's answer and the check's messages
 * show them: "d X Y Z RX RY RZ", or "k" and the names of the buttons held
 * ("k -" for none).
 */
void scenario_describe(const struct scenario *scn, char type, const int axis[MAGELLAN_AXES],
		       unsigned int buttons, char *out, size_t size);

#endif
