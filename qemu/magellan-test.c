// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * Host unit test of the Magellan protocol model (magellan.c) and the
 * scenario parser. The expected bytes are computed by hand from the table
 * in drivers/input/joystick/magellan.c ("0AB3D56GH9:K<MN?") and the
 * formulas at magellan.c:76 and :84, not by the code under test.
 *
 * usage: magellan-test SCENARIO   (prints what it checks; exit 0 all passed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "magellan.h"
#include "scenario.h"


static void show(const char *p, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < size; i++)
		o += (size_t)snprintf(out + o, size - o, p[i] == '\r' ? "\\r" : "%c", p[i]);
	out[o] = '\0';
}

static void axes_case(const char *what, int x, int y, int z, int rx, int ry, int rz,
		      const char *want)
{
	int v[MAGELLAN_AXES] = { x, y, z, rx, ry, rz };
	char buf[MAGELLAN_D_BYTES], got[128];
	size_t n = magellan_encode_axes(v, buf);

	show(buf, n, got, sizeof(got));
	EXPECT(n == strlen(want) && memcmp(buf, want, n) == 0, "%s: got \"%s\"", what, got);
	printf("encode d %s: %s\n", what, got);
}

static void buttons_case(const char *what, unsigned int mask, const char *want)
{
	char buf[MAGELLAN_K_BYTES], got[32];
	size_t n = magellan_encode_buttons(mask, buf);

	show(buf, n, got, sizeof(got));
	EXPECT(n == strlen(want) && memcmp(buf, want, n) == 0, "%s: got \"%s\"", what, got);
	printf("encode k %s: %s\n", what, got);
}

static void test_encoder(void)
{
	/* notes §2.3, the worked example verified on the real driver. */
	axes_case("100 -200 300 -50 0 360", 100, -200, 300, -50, 0, 360,
		  "dH06DG?3HHAB<G?<NH000HA6H\r");
	/* Words 0123 4567 89AB CDEF FEDC BA98: all 16 nibbles. */
	axes_case("all nibbles", -32477, -15001, 2475, 19951, 32476, 15000,
		  "d0AB3D56GH9:K<MN??NM<K:9H\r");
	/* 0000 FFFF 8000 7FFF 8001 7E98; out of range values are clamped. */
	axes_case("extremes", -32768, 32767, 0, -1, 1, -360, "d0000????H000G???H00AGN9H\r");
	axes_case("clamped", -40000, 40000, 0, 0, 0, 0, "d0000????H000H000H000H000\r");
	buttons_case("BTN_0 BTN_3 BTN_8", 0x109, "kDHA\r");
	buttons_case("none", 0, "k000\r");
	buttons_case("all nine", 0x1ff, "k??A\r");
	buttons_case("BTN_1", 0x002, "kA00\r");
	buttons_case("BTN_5", 0x020, "k0A0\r");
}

static void test_valid(void)
{
	const char *good = "dH06DG?3HHAB<G?<NH000HA6H";
	char buf[64];

	EXPECT(magellan_packet_valid(good, 25), "worked example rejected");
	EXPECT(magellan_packet_valid("kDHA", 4), "kDHA rejected");
	EXPECT(!magellan_packet_valid(good, 24), "truncated d accepted");
	EXPECT(!magellan_packet_valid("kDH", 3), "truncated k accepted");
	memcpy(buf, good, 25);
	buf[7] = 'g';	/* 'g' & 0xf = 7, but the table has 'G' */
	EXPECT(!magellan_packet_valid(buf, 25), "bad nibble accepted");
	buf[0] = '\n';	/* a stray '\n' before a packet (the \r\n trap) */
	memcpy(buf + 1, good, 25);
	EXPECT(!magellan_packet_valid(buf, 26), "\\n + packet accepted");
	memset(buf, '0', 40);
	buf[0] = 'd';
	EXPECT(!magellan_packet_valid(buf, 40), "over-long d accepted");
	EXPECT(!magellan_packet_valid("", 0), "empty accepted");
	EXPECT(!magellan_packet_valid("x000", 4), "type x accepted");
	printf("acceptance: the driver's rules (type, length, alphabet, 32-byte buffer)\n");
}

static enum magellan_rx_result feed(struct magellan_rx *rx, const char *s)
{
	enum magellan_rx_result r = MAGELLAN_RX_MORE;

	for (; *s; s++)
		r = magellan_rx_byte(rx, (unsigned char)*s);
	return r;
}

static void test_rx(void)
{
	struct magellan_rx rx;
	char longcmd[64];

	magellan_rx_reset(&rx);
	EXPECT(feed(&rx, "m3\rpBB\rz\r") == MAGELLAN_RX_INIT && rx.inits == 1,
	       "init string not recognised");
	EXPECT(feed(&rx, "vQ\r") == MAGELLAN_RX_BAD, "unknown command accepted");
	EXPECT(feed(&rx, "pBB\rz\r") == MAGELLAN_RX_BAD && rx.inits == 1, "init out of order accepted");
	memset(longcmd, 'x', sizeof(longcmd) - 2);
	longcmd[sizeof(longcmd) - 2] = '\r';
	longcmd[sizeof(longcmd) - 1] = '\0';
	EXPECT(feed(&rx, longcmd) == MAGELLAN_RX_BAD, "over-long command accepted");
	EXPECT(feed(&rx, "m3\rm3\rpBB\rz\r") == MAGELLAN_RX_INIT && rx.inits == 2,
	       "init after junk not recognised");
	/* A boot loader's banner on the line before the attach. */
	EXPECT(feed(&rx, "\r\nU-Boot 2023.01\r\nDRAM:  960 MiB\r\n") == MAGELLAN_RX_MORE,
	       "banner: a line feed after CR taken as a command");
	EXPECT(feed(&rx, "\nRPI 3 Model B\n") == MAGELLAN_RX_BAD, "banner line without CR accepted");
	EXPECT(feed(&rx, "\nm3\rpBB\rz\r") == MAGELLAN_RX_INIT && rx.inits == 3,
	       "init after a banner's line feed not recognised");
	EXPECT(feed(&rx, "m3\rpB\nB\rz\r") != MAGELLAN_RX_INIT && rx.inits == 3,
	       "a line feed inside a command ignored");
	printf("commands: init string recognised, junk, banners and over-long commands survived\n");
}

static void test_junk(void)
{
	struct magellan_rng rng;
	char buf[SCN_JUNK_BYTES + MAGELLAN_JUNK_PACKET_MAX + 1];
	unsigned long total = 0;

	magellan_rng_seed(&rng, 1);
	for (int kind = MAGELLAN_JUNK_RANDOM; kind <= MAGELLAN_JUNK_TRUNCATED; kind++) {
		for (int i = 0; i < 2000; i++) {
			size_t n = magellan_junk(&rng, kind, 200, buf, sizeof(buf)), start = 0;

			EXPECT(n > 0 && buf[n - 1] == '\r', "%s: chunk not CR-terminated",
			       magellan_junk_name(kind));
			if (kind == MAGELLAN_JUNK_RANDOM)
				EXPECT(n == 201, "random: %zu bytes, not 201", n);
			for (size_t j = 0; j < n; j++) {
				if (buf[j] != '\r')
					continue;
				EXPECT(!magellan_packet_valid(buf + start, j - start),
				       "%s: a packet the driver takes", magellan_junk_name(kind));
				if (kind != MAGELLAN_JUNK_RANDOM)
					EXPECT(j == n - 1, "%s: more than one packet",
					       magellan_junk_name(kind));
				start = j + 1;
			}
			total += n;
		}
	}
	printf("junk: %lu bytes of every kind, none a packet the driver takes\n", total);
}

/*
 * The driver's framing (magellan_interrupt): bytes go to data[idx++] while
 * idx < 32, '\r' processes the packet and resets idx. Returns how many
 * packets it would report; the last one is copied to last.
 */
static unsigned int driver_feed(const char *p, size_t n, char last[MAGELLAN_MAX_LENGTH])
{
	char data[MAGELLAN_MAX_LENGTH];
	size_t idx = 0;
	unsigned int reported = 0;

	for (size_t i = 0; i < n; i++) {
		if (p[i] != '\r') {
			if (idx < MAGELLAN_MAX_LENGTH)
				data[idx++] = p[i];
			continue;
		}
		if (magellan_packet_valid(data, idx)) {
			reported++;
			memcpy(last, data, idx);
		}
		idx = 0;
	}
	return reported;
}

static void test_flood(void)
{
	enum { N = 100000 };
	static char one[N + MAGELLAN_D_BYTES], cut[N], other[N];
	struct magellan_flood f;
	struct magellan_rng rng;
	unsigned long long scrubbed = 0;
	char last[MAGELLAN_MAX_LENGTH], pkt[MAGELLAN_D_BYTES];
	const int axes[MAGELLAN_AXES] = { 100, -200, 300, -50, 0, 360 };
	size_t n = 0;

	/* Any seed: the same bytes however the line takes them. */
	for (uint32_t seed = 1; seed <= 20; seed++) {
		magellan_flood_start(&f, seed * 2654435761u, N);
		EXPECT(magellan_flood_fill(&f, one, N + 10) == N, "seed %u: not %d bytes", seed, N);
		EXPECT(magellan_flood_fill(&f, one, 10) == 0, "seed %u: more after the end", seed);
		EXPECT(one[N - 1] == '\r', "seed %u: the flood does not end with \\r", seed);
		scrubbed += f.scrubbed;
		magellan_flood_start(&f, seed * 2654435761u, N);
		magellan_rng_seed(&rng, seed);
		for (n = 0; n < N;)
			n += magellan_flood_fill(&f, cut + n, 1 + magellan_rng_next(&rng) % 5000);
		EXPECT(n == N && memcmp(one, cut, N) == 0, "seed %u: chunked flood differs", seed);
		/* The driver reports the packet after it, and nothing of it. */
		n = N + magellan_encode_axes(axes, one + N);
		unsigned int reports = driver_feed(one, n, last);

		EXPECT(reports == 1 && memcmp(last, one + N, 25) == 0,
		       "seed %u: the driver would report %u packets, not just the one after the "
		       "flood", seed, reports);
	}
	magellan_flood_start(&f, 7, N);
	magellan_flood_fill(&f, one, N);
	uint32_t hash7 = f.hash;

	magellan_flood_start(&f, 8, N);
	magellan_flood_fill(&f, other, N);
	EXPECT(memcmp(one, other, N) != 0 && f.hash != hash7, "seeds 7 and 8 give the same flood");
	magellan_flood_start(&f, 7, N);
	magellan_flood_fill(&f, other, N);
	EXPECT(memcmp(one, other, N) == 0 && f.hash == hash7, "seed 7 twice gives two floods");

	/* Scrubbing: a '\r' that would end a valid packet is sent as 'x'. */
	magellan_flood_start(&f, 1, 100);
	magellan_encode_buttons(0x109, pkt);
	for (int i = 0; i < 4; i++)
		magellan_flood_put(&f, pkt[i]);
	EXPECT(magellan_flood_put(&f, '\r') == 'x' && f.scrubbed == 1, "kDHA\\r not scrubbed");
	EXPECT(magellan_flood_put(&f, '\r') == '\r', "\\r after a broken packet changed");
	/* The byte that would complete a packet before the final '\r'. */
	magellan_flood_start(&f, 1, MAGELLAN_D_BYTES);
	magellan_encode_axes(axes, pkt);
	for (int i = 0; i < MAGELLAN_D_BYTES - 2; i++)
		magellan_flood_put(&f, pkt[i]);
	EXPECT(magellan_flood_put(&f, pkt[MAGELLAN_D_BYTES - 2]) == 'x',
	       "the last nibble before the final \\r not scrubbed");
	EXPECT(magellan_flood_put(&f, 'A') == '\r', "the flood's last byte is not \\r");
	EXPECT(magellan_flood_put(&f, 'A') == '\0' && f.left == 0, "a byte after the end");
	/* Past the driver's 32 bytes a packet is dropped: its '\r' stays. */
	magellan_flood_start(&f, 1, 100);
	for (int i = 0; i < 40; i++)
		magellan_flood_put(&f, i ? '0' : 'd');
	EXPECT(magellan_flood_put(&f, '\r') == '\r', "overlong packet's \\r changed");
	printf("flood: %d bytes x 20 seeds, the same in any chunks, ends with \\r, the driver "
	       "reports only the packet after it (%llu bytes scrubbed); seeds differ\n", N,
	       scrubbed);
}

static void parse_error(const char *text, const char *want)
{
	static struct scenario scn;
	char err[256] = "";
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	EXPECT(f && scenario_load(&scn, f, err, sizeof(err)) < 0 && strstr(err, want),
	       "scenario \"%s\": error \"%s\", wanted \"%s\"", text, err, want);
	if (f)
		fclose(f);
}

static void test_scenario(const char *path)
{
	static struct scenario scn;
	char err[256];
	FILE *f = fopen(path, "r");
	unsigned int d = 0, k = 0, junk = 0;

	EXPECT(f != NULL, "%s: cannot open", path);
	if (!f)
		return;
	EXPECT(scenario_load(&scn, f, err, sizeof(err)) == 0, "%s: %s", path, err);
	fclose(f);
	for (unsigned int i = 0; i < scn.nitems; i++) {
		d += scn.item[i].type == 'd';
		k += scn.item[i].type == 'k';
		junk += scn.item[i].njunk;
	}
	EXPECT(scenario_find(&scn, "decode", 0) && scenario_find(&scn, "buttons", 0) &&
		       scenario_find(&scn, "garbage", 0) && scenario_find(&scn, "flood", 0) &&
		       scenario_find(&scn, "flood", 0)->flood > 0,
	       "%s: a section is missing", path);
	printf("scenario %s: %u d, %u k packets, %u junk lines\n", path, d, k, junk);

	parse_error("frobnicate 1\n", "line 1: unknown keyword");
	parse_error("section a\nd 1 2 3 4 5\n", "line 2: d takes 6 values");
	parse_error("section a\nd 1 2 3 4 5 32768\n", "not in -32768..32767");
	parse_error("buttons BTN_0\nsection a\nk BTN_9\n", "line 3: unknown button");
	parse_error("section a\njunk random 5\n", "junk at the end");
	parse_error("section a\njunk random 0\nd 1 2 3 4 5 6\n", "junk count");
	parse_error("d 1 2 3 4 5 6\n", "before the first section");
	parse_error("# nothing\n", "no packets");
	parse_error("section a\nflood 0\nd 1 2 3 4 5 6\n", "flood takes one count");
	parse_error("section a\nflood 10000001\nd 1 2 3 4 5 6\n", "flood takes one count");
	parse_error("section a\nflood 5\njunk random 5\nd 1 2 3 4 5 6\n", "line 3: junk and a flood");
	parse_error("section a\nd 1 2 3 4 5 6\nflood 5\n", "junk at the end");
	printf("scenario errors: named with their line\n");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: magellan-test SCENARIO\n");
		return 1;
	}
	test_encoder();
	test_valid();
	test_rx();
	test_junk();
	test_flood();
	test_scenario(argv[1]);
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
