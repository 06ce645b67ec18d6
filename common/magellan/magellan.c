// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * Magellan / SpaceMouse protocol model: encoder, the driver's acceptance
 * test, the device's command parser and the junk generator. No I/O here:
 * magellan-emu.c drives it, magellan-test.c tests it.
 */
#include "magellan.h"

#include <string.h>

/* magellan.c:51: nibble n is the byte whose low nibble is n. */
const char magellan_nibbles[16] = {
	'0', 'A', 'B', '3', 'D', '5', '6', 'G', 'H', '9', ':', 'K', '<', 'M', 'N', '?',
};

static int nibble_ok(unsigned char c)
{
	return c == (unsigned char)magellan_nibbles[c & 0xf];
}

size_t magellan_encode_axes(const int value[MAGELLAN_AXES], char out[MAGELLAN_D_BYTES])
{
	size_t n = 0;

	out[n++] = 'd';
	for (int i = 0; i < MAGELLAN_AXES; i++) {
		int v = value[i];

		if (v < MAGELLAN_AXIS_MIN)
			v = MAGELLAN_AXIS_MIN;
		if (v > MAGELLAN_AXIS_MAX)
			v = MAGELLAN_AXIS_MAX;
		/* magellan.c:76: value = 16-bit word - 32768, MSB nibble first. */
		unsigned int u = (unsigned int)(v + 32768);

		for (int shift = 12; shift >= 0; shift -= 4)
			out[n++] = magellan_nibbles[(u >> shift) & 0xf];
	}
	out[n++] = '\r';
	return n;
}

size_t magellan_encode_buttons(unsigned int mask, char out[MAGELLAN_K_BYTES])
{
	/*
	 * magellan.c:84: t = n1 << 1 | n2 << 5 | n3, BTN_i = bit i of t. The
	 * fields overlap (n3 covers bits 0-3); the canonical encoding puts
	 * bits 1-4 in n1, 5-8 in n2 and only bit 0 in n3.
	 */
	out[0] = 'k';
	out[1] = magellan_nibbles[(mask >> 1) & 0xf];
	out[2] = magellan_nibbles[(mask >> 5) & 0xf];
	out[3] = magellan_nibbles[mask & 1];
	out[4] = '\r';
	return MAGELLAN_K_BYTES;
}

int magellan_packet_valid(const char *p, size_t len)
{
	size_t want;

	/* magellan.c:94-103: bytes past the buffer are dropped, not stored. */
	if (len > MAGELLAN_MAX_LENGTH)
		len = MAGELLAN_MAX_LENGTH;
	if (len == 0)
		return 0;
	if (p[0] == 'd')
		want = MAGELLAN_D_BYTES - 1;
	else if (p[0] == 'k')
		want = MAGELLAN_K_BYTES - 1;
	else
		return 0;
	if (len != want)
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!nibble_ok((unsigned char)p[i]))
			return 0;
	return 1;
}

void magellan_rx_reset(struct magellan_rx *rx)
{
	memset(rx, 0, sizeof(*rx));
}

enum magellan_rx_result magellan_rx_byte(struct magellan_rx *rx, unsigned char c)
{
	static const char *const init[] = { "m3", "pBB", "z" };

	/*
	 * A line feed ends no command (the host ends them with CR) but is
	 * line noise that ends what came before it: a boot loader's banner on
	 * the same UART ("\r\n" per line) leaves none in front of "m3".
	 */
	if (c == '\n') {
		int noise = rx->len || rx->overflow;

		rx->cmd[rx->len] = '\0';
		rx->len = 0;
		rx->overflow = 0;
		if (!noise)
			return MAGELLAN_RX_MORE;
		rx->step = 0;
		return MAGELLAN_RX_BAD;
	}
	if (c != '\r') {
		if (rx->len < sizeof(rx->cmd) - 1)
			rx->cmd[rx->len++] = (char)c;
		else
			rx->overflow = 1;
		return MAGELLAN_RX_MORE;
	}
	rx->cmd[rx->len] = '\0';
	rx->len = 0;
	if (rx->overflow) {
		rx->overflow = 0;
		rx->step = 0;
		return MAGELLAN_RX_BAD;
	}
	if (strcmp(rx->cmd, init[rx->step]) == 0) {
		if (++rx->step < 3)
			return MAGELLAN_RX_CMD;
		rx->step = 0;
		rx->inits++;
		return MAGELLAN_RX_INIT;
	}
	/* Out of order: a new "m3" starts over, anything else is unknown. */
	rx->step = strcmp(rx->cmd, init[0]) == 0 ? 1 : 0;
	return rx->step ? MAGELLAN_RX_CMD : MAGELLAN_RX_BAD;
}

void magellan_rng_seed(struct magellan_rng *rng, uint32_t seed)
{
	rng->state = seed ? seed : 0x9e3779b9u;
}

/* xorshift32: small, reproducible on every host. */
uint32_t magellan_rng_next(struct magellan_rng *rng)
{
	uint32_t x = rng->state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rng->state = x;
	return x;
}

static const char *const junk_names[] = {
	[MAGELLAN_JUNK_RANDOM] = "random",
	[MAGELLAN_JUNK_OVERLONG] = "overlong",
	[MAGELLAN_JUNK_BADNIBBLE] = "badnibble",
	[MAGELLAN_JUNK_TRUNCATED] = "truncated",
};

int magellan_junk_kind(const char *name)
{
	for (size_t i = 0; i < sizeof(junk_names) / sizeof(junk_names[0]); i++)
		if (strcmp(name, junk_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *magellan_junk_name(int kind)
{
	if (kind < 0 || (size_t)kind >= sizeof(junk_names) / sizeof(junk_names[0]))
		return "?";
	return junk_names[kind];
}

static size_t below(struct magellan_rng *rng, size_t n)
{
	return magellan_rng_next(rng) % n;
}

static char random_nibble(struct magellan_rng *rng)
{
	return magellan_nibbles[below(rng, 16)];
}

/* A byte that is neither '\r' nor in the alphabet at its own low nibble. */
static char bad_nibble(struct magellan_rng *rng)
{
	for (;;) {
		unsigned char c = (unsigned char)below(rng, 256);

		if (c != '\r' && !nibble_ok(c))
			return (char)c;
	}
}

/*
 * Terminate the chunk and make sure that none of its packets is one the
 * driver would report: random bytes can form one by chance.
 */
static size_t seal(char *out, size_t len)
{
	size_t start = 0;

	out[len++] = '\r';
	for (size_t i = 0; i < len; i++) {
		if (out[i] != '\r')
			continue;
		if (magellan_packet_valid(out + start, i - start))
			out[i - 1] = 'x';	/* 'x' is not in the alphabet */
		start = i + 1;
	}
	return len;
}

size_t magellan_junk(struct magellan_rng *rng, int kind, size_t n, char *out, size_t cap)
{
	size_t len = 0, body;
	char type = below(rng, 2) ? 'd' : 'k';

	body = type == 'd' ? MAGELLAN_D_BYTES - 2 : MAGELLAN_K_BYTES - 2;
	if (cap < MAGELLAN_JUNK_PACKET_MAX + 1 || (kind == MAGELLAN_JUNK_RANDOM && cap < n + 1))
		return 0;
	switch (kind) {
	case MAGELLAN_JUNK_RANDOM:
		for (len = 0; len < n; len++)
			out[len] = (char)below(rng, 256);
		break;
	case MAGELLAN_JUNK_OVERLONG:
		/* 1..(max - body - 2) nibbles too many: up to 'd' + 60 bytes. */
		out[len++] = type;
		for (size_t i = body + 1 + below(rng, MAGELLAN_JUNK_PACKET_MAX - body - 3); i > 0; i--)
			out[len++] = random_nibble(rng);
		break;
	case MAGELLAN_JUNK_BADNIBBLE:
		out[len++] = type;
		for (size_t i = 0; i < body; i++)
			out[len++] = random_nibble(rng);
		out[1 + below(rng, body)] = bad_nibble(rng);
		break;
	case MAGELLAN_JUNK_TRUNCATED:
		out[len++] = type;
		for (size_t i = below(rng, body); i > 0; i--)
			out[len++] = random_nibble(rng);
		break;
	default:
		return 0;
	}
	return seal(out, len);
}

void magellan_flood_start(struct magellan_flood *f, uint32_t seed, unsigned long long n)
{
	memset(f, 0, sizeof(*f));
	magellan_rng_seed(&f->rng, seed);
	f->left = n;
	f->hash = 2166136261u;
}

/* Would the packet so far, followed by c and then '\r', be reported? */
static int completes_packet(const struct magellan_flood *f, char c)
{
	char p[MAGELLAN_MAX_LENGTH];
	size_t n = f->pkt_len;

	if (n >= MAGELLAN_MAX_LENGTH)
		return 0;		/* already overlong: the driver drops it */
	memcpy(p, f->pkt, n);
	p[n++] = c;
	return magellan_packet_valid(p, n);
}

char magellan_flood_put(struct magellan_flood *f, char c)
{
	if (!f->left)
		return '\0';
	if (f->left == 1) {
		c = '\r';			/* the flood ends the driver's packet */
	} else if (c == '\r') {
		if (magellan_packet_valid(f->pkt, f->pkt_len)) {
			c = 'x';		/* not in the alphabet: the packet grows invalid */
			f->scrubbed++;
		}
	} else if (f->left == 2 && completes_packet(f, c)) {
		c = 'x';			/* the final '\r' would end a valid packet */
		f->scrubbed++;
	}
	f->left--;
	f->hash = (f->hash ^ (unsigned char)c) * 16777619u;
	if (c == '\r') {
		f->pkt_len = 0;
	} else if (f->pkt_len < MAGELLAN_MAX_LENGTH) {
		f->pkt[f->pkt_len++] = c;	/* the driver drops bytes past its buffer */
	}
	return c;
}

size_t magellan_flood_fill(struct magellan_flood *f, char *out, size_t cap)
{
	size_t n = 0;

	while (n < cap && f->left)
		out[n++] = magellan_flood_put(f, (char)(magellan_rng_next(&f->rng) & 0xff));
	return n;
}
