/* SPDX-License-Identifier: GPL-2.0-only */
/* SPDX-FileCopyrightText: The nonstring-bsp authors */
/*
 * Magellan / SpaceMouse protocol model (host side): what the device sends,
 * what the driver accepts, the commands the device understands, and junk
 * that the driver must drop. The driver is drivers/input/joystick/magellan.c;
 * line references are to Debian's linux-source-6.1.
 */
#ifndef NSBSP_MAGELLAN_H
#define NSBSP_MAGELLAN_H

#include <stddef.h>
#include <stdint.h>

#define MAGELLAN_AXES		6	/* ABS_X..ABS_RZ (magellan.c:29) */
#define MAGELLAN_BUTTONS	9	/* BTN_0..BTN_8 (magellan.c:28) */
#define MAGELLAN_MAX_LENGTH	32	/* driver's packet buffer (magellan.c:26) */
#define MAGELLAN_D_BYTES	26	/* 'd', 6 axes x 4 nibbles, '\r' */
#define MAGELLAN_K_BYTES	5	/* 'k', 3 nibbles, '\r' */
#define MAGELLAN_AXIS_MIN	(-32768)	/* 4 nibbles minus 32768 (magellan.c:76) */
#define MAGELLAN_AXIS_MAX	32767
/* Longest junk chunk one generator call writes (random: the caller's n). */
#define MAGELLAN_JUNK_PACKET_MAX 64

/* The device's nibble alphabet: nibble n is sent as magellan_nibbles[n]. */
extern const char magellan_nibbles[16];

/* One 'd' packet for six axis values (each clamped to the 16-bit range). */
size_t magellan_encode_axes(const int value[MAGELLAN_AXES], char out[MAGELLAN_D_BYTES]);
/* One 'k' packet for a button mask (bit i = BTN_i held). */
size_t magellan_encode_buttons(unsigned int mask, char out[MAGELLAN_K_BYTES]);
/*
 * Would the driver report the packet p[0..len) (the bytes before its '\r')?
 * The same test as magellan_process_packet(), used to keep junk junk.
 */
int magellan_packet_valid(const char *p, size_t len);

/*
 * Commands from the host to the device, '\r' terminated. inputattach
 * initialises a Magellan with "m3\rpBB\rz\r": mode 3 (send axes and keys),
 * period BB, zero. The model counts complete init sequences.
 */
#define MAGELLAN_CMD_MAX 16
struct magellan_rx {
	char cmd[MAGELLAN_CMD_MAX];	/* command being received */
	size_t len;
	int overflow;			/* the command did not fit: drop it */
	int step;			/* 0: want m3, 1: want pBB, 2: want z */
	unsigned int inits;		/* complete init sequences seen */
};

enum magellan_rx_result {
	MAGELLAN_RX_MORE,	/* byte stored, command not complete */
	MAGELLAN_RX_CMD,	/* a known command, init not (yet) complete */
	MAGELLAN_RX_INIT,	/* the init sequence completed */
	MAGELLAN_RX_BAD,	/* unknown, out of order or over-long command */
};

void magellan_rx_reset(struct magellan_rx *rx);
/* Feed one byte; on a result other than MORE, cmd holds the command text. */
enum magellan_rx_result magellan_rx_byte(struct magellan_rx *rx, unsigned char c);

/* Junk the driver must drop, from a reproducible generator. */
enum magellan_junk {
	MAGELLAN_JUNK_RANDOM,		/* n random bytes */
	MAGELLAN_JUNK_OVERLONG,		/* packets longer than the driver takes */
	MAGELLAN_JUNK_BADNIBBLE,	/* packets with one byte outside the alphabet */
	MAGELLAN_JUNK_TRUNCATED,	/* packets cut short */
};

struct magellan_rng {
	uint32_t state;
};

void magellan_rng_seed(struct magellan_rng *rng, uint32_t seed);
uint32_t magellan_rng_next(struct magellan_rng *rng);
int magellan_junk_kind(const char *name);	/* -1 if unknown */
const char *magellan_junk_name(int kind);
/*
 * Write one junk chunk of the kind to out (at most cap bytes): for RANDOM
 * n bytes, for the packet kinds one packet (n is ignored). The chunk ends
 * with '\r' and none of its '\r'-separated packets is one the driver takes,
 * so the packet after it starts clean. Returns the length, 0 if cap is
 * too small.
 */
size_t magellan_junk(struct magellan_rng *rng, int kind, size_t n, char *out, size_t cap);

/*
 * A flood: n random bytes from a seeded generator, produced in pieces of
 * any size as the line takes them (the same bytes however it is cut). Like
 * the other junk, none of its '\r'-separated packets is one the driver
 * would report: a '\r' that would end one is sent as 'x' instead (and the
 * byte that would complete one before the final '\r' likewise). The last
 * byte is '\r', so the driver's packet index is 0 after it and the next
 * packet decodes: the driver (magellan_interrupt) keeps the first 32 bytes
 * of an overlong packet and drops it at its '\r'.
 */
struct magellan_flood {
	struct magellan_rng rng;
	unsigned long long left;	/* bytes still to produce */
	char pkt[MAGELLAN_MAX_LENGTH];	/* the packet being sent, as the driver keeps it */
	size_t pkt_len;			/* bytes since the last '\r' (capped as the driver does) */
	unsigned long long scrubbed;	/* bytes changed so that no packet is valid */
	uint32_t hash;			/* FNV-1a of the bytes so far: the same seed, the same flood */
};

void magellan_flood_start(struct magellan_flood *f, uint32_t seed, unsigned long long n);
/*
 * Account one candidate byte; returns the byte to send instead ('x' where
 * c would make a valid packet, '\r' for the last one). Used by
 * magellan_flood_fill, public for the unit test.
 */
char magellan_flood_put(struct magellan_flood *f, char c);
/* Produce up to cap more bytes of the flood; 0 once it is over. */
size_t magellan_flood_fill(struct magellan_flood *f, char *out, size_t cap);

#endif
