// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * cachefiles-key: name a cache file the way cachefiles does, from its
 * cookie key, without the kernel's code.
 *
 * Written from the description of the encoding in fs/cachefiles/key.c (the
 * comments and Documentation/filesystems/caching/cachefiles.rst), not from
 * its code, so that it can serve as an independent reference for the KUnit
 * vectors (fs/cachefiles/key_test.c, a patch of kernel-patches/) and for the names found in a real cache.
 *
 * The rules, in order:
 *  - a key made only of the characters '!'..'.' and '0'..DEL is used as
 *    it is, after a 'D';
 *  - otherwise the key, padded with zero bytes to whole 32-bit words, is
 *    written as one lower-case hex number per word (no leading zeros, an
 *    empty field for zero), fields separated by ',' and the first one
 *    preceded by 'S' (words read big-endian) or 'T' (little-endian),
 *    whichever is shorter ('S' on a tie), if that is shorter than base64;
 *  - otherwise 'E', the count of padding bytes ('0'..'2'), then 3 bytes at
 *    a time, taken little-endian into 24 bits, as four 6-bit digits, least
 *    significant first, of the alphabet 0-9 a-z A-Z _ -.
 *
 * usage: cachefiles-key HEXKEY
 *        cachefiles-key --vector DESC HEXKEY
 * The first form prints the name; the second prints the line of the
 * KUnit vector table for that key (the entry of key_test.c). Exit 0 on success, 1 on bad input.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keys are at most NAME_MAX - 3 bytes (the kernel's BUG_ON). */
#define KEY_MAX 252
#define NAME_LEN_MAX (2 + (KEY_MAX + 2) / 3 * 4 + 1)

static void help(int status)
{
	fprintf(stderr,
		"usage: cachefiles-key HEXKEY\n"
		"       cachefiles-key --vector DESC HEXKEY\n"
		"Print the cachefiles file name for a cookie key given in hex\n"
		"(1 to %d bytes), or the C line of a KUnit vector for it.\n",
		KEY_MAX);
	exit(status);
}

/* The 64 digits of the base64 form, built from their description. */
static char b64_digit(unsigned int v)
{
	if (v < 10)
		return (char)('0' + v);
	if (v < 36)
		return (char)('a' + v - 10);
	if (v < 62)
		return (char)('A' + v - 36);
	return v == 62 ? '_' : '-';
}

static int is_plain(uint8_t c)
{
	return (c >= '!' && c <= '.') || (c >= '0' && c <= 127);
}

/* Hex digits needed for x (none for zero). */
static unsigned int hex_digits(uint32_t x)
{
	unsigned int n = 0;

	while (x) {
		n++;
		x >>= 4;
	}
	return n;
}

static uint32_t word(const uint8_t *p, int big_endian)
{
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

/* Cook key[0..len) into name (NAME_LEN_MAX bytes). */
static void cook(const uint8_t *key, size_t len, char *name)
{
	uint8_t padded[KEY_MAX + 4] = { 0 };
	size_t words = (len + 3) / 4, i, plain = 1;
	size_t groups = (len + 2) / 3;
	size_t b64_len = 2 + groups * 4;
	size_t be_len = 0, le_len = 0;
	char *p = name;

	for (i = 0; i < len; i++)
		plain &= is_plain(key[i]);
	if (plain) {
		*p++ = 'D';
		memcpy(p, key, len);
		p[len] = '\0';
		return;
	}

	memcpy(padded, key, len);
	for (i = 0; i < words; i++) {
		be_len += 1 + hex_digits(word(padded + 4 * i, 1));
		le_len += 1 + hex_digits(word(padded + 4 * i, 0));
	}
	if (be_len < b64_len || le_len < b64_len) {
		int big = be_len <= le_len;

		for (i = 0; i < words; i++) {
			uint32_t w = word(padded + 4 * i, big);

			*p++ = i ? ',' : (big ? 'S' : 'T');
			if (w)
				p += sprintf(p, "%x", (unsigned int)w);
		}
		*p = '\0';
		return;
	}

	*p++ = 'E';
	*p++ = (char)('0' + groups * 3 - len);
	for (i = 0; i < groups; i++) {
		/* padded[] is zero beyond len: the missing bytes count as 0 */
		uint32_t v = padded[3 * i] | (uint32_t)padded[3 * i + 1] << 8 |
			     (uint32_t)padded[3 * i + 2] << 16;
		int d;

		for (d = 0; d < 4; d++, v >>= 6)
			*p++ = b64_digit(v & 63);
	}
	*p = '\0';
}

static int hex_value(int c)
{
	if (isdigit(c))
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static size_t parse_hex(const char *s, uint8_t *key)
{
	size_t n = strlen(s), i;

	if (n == 0 || n % 2 || n / 2 > KEY_MAX) {
		fprintf(stderr, "Error: key '%s': need 1 to %d bytes as an even number of hex digits\n",
			s, KEY_MAX);
		exit(1);
	}
	for (i = 0; i < n / 2; i++) {
		int hi = hex_value((unsigned char)s[2 * i]);
		int lo = hex_value((unsigned char)s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			fprintf(stderr, "Error: key '%s': '%c%c' is not a hex byte\n",
				s, s[2 * i], s[2 * i + 1]);
			exit(1);
		}
		key[i] = (uint8_t)(hi << 4 | lo);
	}
	return n / 2;
}

int main(int argc, char **argv)
{
	uint8_t key[KEY_MAX];
	char name[NAME_LEN_MAX];
	size_t len;

	if (argc == 2 && strcmp(argv[1], "--help") && strcmp(argv[1], "-h")) {
		len = parse_hex(argv[1], key);
		cook(key, len, name);
		printf("%s\n", name);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--vector")) {
		if (strpbrk(argv[2], "\"\\")) {
			fprintf(stderr, "Error: description '%s': no quotes or backslashes\n", argv[2]);
			return 1;
		}
		len = parse_hex(argv[3], key);
		cook(key, len, name);
		if (strpbrk(name, "\"\\")) {
			fprintf(stderr, "Error: key %s: its name %s needs C escapes; pick another key\n",
				argv[3], name);
			return 1;
		}
		printf("\t{\n\t\t.desc = \"%s\",\n\t\t.key = \"%s\",\n\t\t.name = \"%s\",\n\t},\n",
		       argv[2], argv[3], name);
		return 0;
	}
	help(argc == 2 ? 0 : 1);
}
