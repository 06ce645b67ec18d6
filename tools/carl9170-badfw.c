// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * carl9170-badfw: damaged copies of the real carl9170-1.fw for the
 * carl9170_bad_fw_set check, each with the error line the driver must log.
 *
 * usage: carl9170-badfw FIRMWARE OUTDIR
 *   writes OUTDIR/NAME/carl9170-1.fw for every image of the table below and
 *   OUTDIR/expect: one "NAME<TAB>MESSAGE" line per image, in table order.
 * Exit codes: 0 done, 1 error (named on stderr), 2 usage.
 *
 * The table is derived from drivers/net/wireless/ath/carl9170/fw.c (6.1):
 *   carl9170_find_fw_desc   size out of [32, 16384]: "firmware size is out
 *                           of bound."; no "OTAR" whose last byte lies before
 *                           len - 8: "unsupported firmware."
 *   carl9170_fw_verify_descs -> "damaged firmware (%d).": a header past the
 *                           end -E2BIG (-7), length < 8 -EBADMSG (-74),
 *                           length > what is left -EOVERFLOW (-75), chain
 *                           ends without a LAST of version 2 -EINVAL (-22)
 *   carl9170_fw_checksum    OTAR below version 7: "failed to find compatible
 *                           firmware descriptor."; CRC area < 256 bytes -EIO;
 *                           code CRC: "fw checksum test failed."; descriptor
 *                           CRC: "descriptor check failed."
 *   carl9170_fw             feature and field checks, each with its line;
 *                           a bad TXSQ address only "failed to parse
 *                           firmware (-22)."; a miniboot_size at or past the
 *                           end of the file (patch 0016): "miniboot size (N)
 *                           is beyond the firmware (M bytes)."
 * Images whose change would already fail the descriptor CRC are "resealed":
 * CHK's two CRCs are recomputed the way carl9170_fw_checksum does, so the
 * driver reaches the check the image is about.
 *
 * The offsets come from the file's own descriptor chain; the derivations
 * assume the chain of firmware-linux-free's carl9170-1.fw 1.9.9 (OTAR 32,
 * TXSQ 12, MOTD 56, DBG 28, CHK 16, LAST 8, ending the file). Another file
 * is refused rather than given wrong expectations.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FW_MAX		16384	/* fwdesc.h CARL9170FW_MAX_SIZE */
#define IMG_MAX		(FW_MAX + 64)

/* Offsets in a descriptor (fwdesc.h). */
#define HEAD_LEN	4	/* __le16 length */
#define HEAD_MIN_VER	6
#define HEAD_CUR_VER	7
#define OTAR_FEATURES	8
#define OTAR_FW_ADDR	12
#define OTAR_MINIBOOT	22
#define OTAR_API_VER	30
#define OTAR_VIF_NUM	31
#define TXSQ_ADDR	8
#define MOTD_DESC	12
#define CHK_FW_CRC	8
#define CHK_HDR_CRC	12

/* enum carl9170fw_feature_list */
#define F_DUMMY		0
#define F_USB_INIT	2
#define F_UNUSABLE	6

static const struct { const char *magic; unsigned int len, min_ver, cur_ver; } layout[] = {
	{ "OTAR", 32, 6, 7 }, { "TXSQ", 12, 1, 1 }, { "MOTD", 56, 1, 2 },
	{ "DBG", 28, 1, 3 }, { "CHK", 16, 1, 2 }, { "LAST", 8, 1, 2 },
};
enum { D_OTAR, D_TXSQ, D_MOTD, D_DBG, D_CHK, D_LAST, D_NUM };

struct img {
	uint8_t b[IMG_MAX];
	size_t len;
};

static size_t desc[D_NUM];	/* offsets in the original file */

static void put_le16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* lib/crc32.c crc32_le: reflected 0xedb88320, no final inversion. */
static uint32_t crc32_le(uint32_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return crc;
}

/* What carl9170_fw_checksum computes for an unchanged layout. */
static void chk_crcs(const struct img *m, uint32_t *fw_crc, uint32_t *hdr_crc)
{
	size_t area = desc[D_LAST] + 8 - desc[D_OTAR];

	*fw_crc = crc32_le(~0u, m->b, m->len - area);
	*hdr_crc = crc32_le(*fw_crc, m->b + desc[D_OTAR], desc[D_CHK] - desc[D_OTAR]);
}

static void reseal(struct img *m)
{
	uint32_t fw, hdr;

	chk_crcs(m, &fw, &hdr);
	put_le32(m->b + desc[D_CHK] + CHK_FW_CRC, fw);
	put_le32(m->b + desc[D_CHK] + CHK_HDR_CRC, hdr);
}

/* ---- the mutations: each gets the image and the table's argument ---- */

static void truncate_at(struct img *m, long at)
{
	m->len = (size_t)at;
}

/* arg: D(descriptor, offset in it) */
static void truncate_in(struct img *m, long arg)
{
	m->len = desc[arg / 256] + (size_t)(arg % 256);
}

/* arg: an offset in the code before the descriptors */
static void flip_code(struct img *m, long at)
{
	m->b[at] ^= 1;
}

static void pad_to(struct img *m, long len)
{
	memset(m->b + m->len, 0, (size_t)len - m->len);
	m->len = (size_t)len;
}

/* arg: D(descriptor, offset in it): that byte XOR 1 */
static void flip(struct img *m, long arg)
{
	m->b[desc[arg / 256] + arg % 256] ^= 1;
}

/* arg: descriptor index * 65536 + new length */
static void set_len(struct img *m, long arg)
{
	put_le16(m->b + desc[arg / 65536] + HEAD_LEN, (unsigned int)(arg % 65536));
}

static void last_magic(struct img *m, long arg)
{
	m->b[desc[D_LAST] + 3] = (uint8_t)arg;
}

static void last_min_ver(struct img *m, long v)
{
	m->b[desc[D_LAST] + HEAD_MIN_VER] = (uint8_t)v;
}

static void otar_cur_ver(struct img *m, long v)
{
	m->b[desc[D_OTAR] + HEAD_CUR_VER] = (uint8_t)v;
}

static void api_ver(struct img *m, long v)
{
	m->b[desc[D_OTAR] + OTAR_API_VER] = (uint8_t)v;
	reseal(m);
}

static void feature_clear(struct img *m, long bit)
{
	uint8_t *p = m->b + desc[D_OTAR] + OTAR_FEATURES;

	put_le32(p, get_le32(p) & ~(1u << bit));
	reseal(m);
}

static void feature_set(struct img *m, long bit)
{
	uint8_t *p = m->b + desc[D_OTAR] + OTAR_FEATURES;

	put_le32(p, get_le32(p) | 1u << bit);
	reseal(m);
}

static void vif_num(struct img *m, long v)
{
	m->b[desc[D_OTAR] + OTAR_VIF_NUM] = (uint8_t)v;
	reseal(m);
}

static void fw_address(struct img *m, long v)
{
	put_le32(m->b + desc[D_OTAR] + OTAR_FW_ADDR, (uint32_t)v);
	reseal(m);
}

static void txsq_address(struct img *m, long v)
{
	put_le32(m->b + desc[D_TXSQ] + TXSQ_ADDR, (uint32_t)v);
	reseal(m);
}

/*
 * miniboot_size = the file's length + arg: the upload would start at or past
 * the end of the file (refused since patch 0016; the line names the sizes).
 */
static void miniboot(struct img *m, long past)
{
	put_le16(m->b + desc[D_OTAR] + OTAR_MINIBOOT, (unsigned int)(m->len + (size_t)past));
	reseal(m);
}

/* 'arg' bytes of code, then the whole descriptor block: CRC area below 256. */
static void short_code(struct img *m, long keep)
{
	size_t area = desc[D_LAST] + 8 - desc[D_OTAR];

	memmove(m->b + keep, m->b + desc[D_OTAR], area);
	m->len = (size_t)keep + area;
}

#define D(d, off) ((long)(d) * 256 + (off))
#define L(d, len) ((long)(d) * 65536 + (len))

static const struct bad {
	const char *name;
	void (*mutate)(struct img *m, long arg);
	long arg;
	const char *expect;
} table[] = {
	/* carl9170_find_fw_desc */
	{ "size-31", truncate_at, 31, "firmware size is out of bound." },
	{ "size-16385", pad_to, FW_MAX + 1, "firmware size is out of bound." },
	{ "bad-magic", flip, D(D_OTAR, 3), "unsupported firmware." },
	{ "trunc-before-otar", truncate_in, D(D_OTAR, 0), "unsupported firmware." },
	/* "OTAR" must end before len - 8: at OTAR + 11 it is not found, at + 12 it is */
	{ "trunc-otar-11", truncate_in, D(D_OTAR, 11), "unsupported firmware." },
	/* carl9170_fw_verify_descs */
	{ "trunc-otar-12", truncate_in, D(D_OTAR, 12), "damaged firmware (-75)." },
	{ "trunc-txsq-header", truncate_in, D(D_TXSQ, 4), "damaged firmware (-7)." },
	{ "trunc-motd-body", truncate_in, D(D_MOTD, 20), "damaged firmware (-75)." },
	{ "trunc-before-chk", truncate_in, D(D_CHK, 0), "damaged firmware (-22)." },
	{ "trunc-last-header", truncate_in, D(D_LAST, 6), "damaged firmware (-7)." },
	{ "len-0", set_len, L(D_TXSQ, 0), "damaged firmware (-74)." },
	{ "len-7", set_len, L(D_TXSQ, 7), "damaged firmware (-74)." },
	{ "len-past-end", set_len, L(D_MOTD, 4096), "damaged firmware (-75)." },
	/* TXSQ 13: the next header is MOTD + 1, "OTD" 0x38, length 0x0100 (MOTD's 0, min_ver 1) > what is left */
	{ "len-unaligned", set_len, L(D_TXSQ, 13), "damaged firmware (-75)." },
	{ "len-max", set_len, L(D_OTAR, 0xffff), "damaged firmware (-75)." },
	{ "no-last", last_magic, 'X', "damaged firmware (-22)." },
	{ "last-min-ver-3", last_min_ver, 3, "damaged firmware (-22)." },
	/* carl9170_fw_checksum */
	{ "otar-version-6", otar_cur_ver, 6, "failed to find compatible firmware descriptor." },
	{ "crc-area-short", short_code, 64, "failed to parse firmware (-5)." },
	{ "code-byte", flip_code, 0x100, "fw checksum test failed." },
	{ "chk-fw-crc", flip, D(D_CHK, CHK_FW_CRC), "fw checksum test failed." },
	{ "chk-hdr-crc", flip, D(D_CHK, CHK_HDR_CRC), "descriptor check failed." },
	{ "motd-text", flip, D(D_MOTD, MOTD_DESC), "descriptor check failed." },
	/* carl9170_fw, resealed */
	{ "api-version-2", api_ver, 2, "unsupported firmware api version." },
	{ "no-dummy-feature", feature_clear, F_DUMMY, "invalid firmware descriptor format detected." },
	{ "unusable-feature", feature_set, F_UNUSABLE, "firmware does support mandatory features." },
	{ "no-usb-init", feature_clear, F_USB_INIT, "firmware does not provide mandatory interfaces." },
	{ "vif-num-0", vif_num, 0, "firmware shows obvious signs of malicious tampering." },
	{ "fw-address-0", fw_address, 0, "firmware shows obvious signs of malicious tampering." },
	{ "txsq-address-0", txsq_address, 0, "failed to parse firmware (-22)." },
	/* carl9170_fw, patch 0016: the line is written with the sizes, in main */
	{ "miniboot-whole-file", miniboot, 0, NULL },
	{ "miniboot-past-end", miniboot, 1, NULL },
};

static int write_file(const char *path, const uint8_t *b, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(b, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "Error: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The file's chain must be the one the table was derived for. */
static int check_layout(const struct img *fw, const char *path)
{
	const uint8_t *otar = NULL;
	size_t pos;
	uint32_t fw_crc, hdr_crc;

	for (size_t i = 0; i + 4 <= fw->len; i++) {
		if (!memcmp(fw->b + i, "OTAR", 4)) {
			if (otar) {
				fprintf(stderr, "Error: %s: more than one OTAR magic\n", path);
				return -1;
			}
			otar = fw->b + i;
		}
	}
	if (!otar) {
		fprintf(stderr, "Error: %s: no OTAR magic\n", path);
		return -1;
	}
	pos = (size_t)(otar - fw->b);
	for (int d = 0; d < D_NUM; d++) {
		const uint8_t *h = fw->b + pos;

		if (pos + 8 > fw->len || memcmp(h, layout[d].magic, strlen(layout[d].magic)) ||
		    (h[4] | h[5] << 8) != (int)layout[d].len || h[HEAD_MIN_VER] != layout[d].min_ver ||
		    h[HEAD_CUR_VER] != layout[d].cur_ver) {
			fprintf(stderr, "Error: %s: descriptor %d at %zu is not %s (length %u, versions %u/%u): "
				"the table of carl9170-badfw.c was derived for another chain\n",
				path, d, pos, layout[d].magic, layout[d].len, layout[d].min_ver, layout[d].cur_ver);
			return -1;
		}
		desc[d] = pos;
		pos += layout[d].len;
	}
	if (pos != fw->len) {
		fprintf(stderr, "Error: %s: %zu bytes after LAST\n", path, fw->len - pos);
		return -1;
	}
	/* our CRCs are the driver's: the file's CHK must equal them */
	chk_crcs(fw, &fw_crc, &hdr_crc);
	if (fw_crc != get_le32(fw->b + desc[D_CHK] + CHK_FW_CRC) ||
	    hdr_crc != get_le32(fw->b + desc[D_CHK] + CHK_HDR_CRC)) {
		fprintf(stderr, "Error: %s: CHK does not match the CRCs computed as carl9170_fw_checksum does\n",
			path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct img fw, m;
	char path[4096];
	FILE *f, *expect;

	if (argc != 3) {
		fprintf(stderr, "usage: carl9170-badfw FIRMWARE OUTDIR\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		fprintf(stderr, "Error: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fw.len = fread(fw.b, 1, sizeof(fw.b), f);
	if (ferror(f) || !feof(f) || fw.len > FW_MAX) {
		fprintf(stderr, "Error: %s: not readable or larger than %d bytes\n", argv[1], FW_MAX);
		fclose(f);
		return 1;
	}
	fclose(f);
	if (check_layout(&fw, argv[1]))
		return 1;

	snprintf(path, sizeof(path), "%s/expect", argv[2]);
	expect = fopen(path, "w");
	if (!expect) {
		fprintf(stderr, "Error: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct bad *t = &table[i];

		m = fw;
		t->mutate(&m, t->arg);
		if (!memcmp(m.b, fw.b, fw.len) && m.len == fw.len) {
			fprintf(stderr, "Error: image %s is not damaged\n", t->name);
			fclose(expect);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[2], t->name);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "Error: %s: %s\n", path, strerror(errno));
			fclose(expect);
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s/carl9170-1.fw", argv[2], t->name);
		if (write_file(path, m.b, m.len)) {
			fclose(expect);
			return 1;
		}
		if (t->mutate == miniboot)
			fprintf(expect, "%s\tminiboot size (%u) is beyond the firmware (%zu bytes).\n",
				t->name, m.b[desc[D_OTAR] + OTAR_MINIBOOT] |
				m.b[desc[D_OTAR] + OTAR_MINIBOOT + 1] << 8, m.len);
		else
			fprintf(expect, "%s\t%s\n", t->name, t->expect);
	}
	if (fclose(expect)) {
		fprintf(stderr, "Error: %s/expect: %s\n", argv[2], strerror(errno));
		return 1;
	}
	return 0;
}
