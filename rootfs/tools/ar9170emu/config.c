// SPDX-License-Identifier: GPL-2.0
/*
 * The model's identity and network, from one file that the carl9170 checks
 * read too (/etc/ar9170emu.conf): "key=value" lines, '#' comments.
 *   mac=02:03:7f:aa:bb:cc   EEPROM MAC address
 *   regdomain=0x0000        EEPROM regulatory domain (0 = default country, US)
 *   ssid=...                the open BSS (1..32 bytes)
 *   bssid=...               its BSSID
 *   channel=6               its 2.4 GHz channel (1..13)
 * Every key is required; anything else is an error naming the line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar9170emu.h"

static int parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &end) != 6)
		return -1;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 0);
	if (errno || end == s || *end || *out > max)
		return -1;
	return 0;
}

int config_load(const char *path, struct emu_config *cfg)
{
	enum { K_MAC = 1, K_REG = 2, K_SSID = 4, K_BSSID = 8, K_CHAN = 16, K_ALL = 31 };
	char line[256];
	unsigned int seen = 0, lineno = 0;
	unsigned long v;
	FILE *f = fopen(path, "r");

	if (!f) {
		emu_log("Error: %s: %s", path, strerror(errno));
		return -1;
	}
	memset(cfg, 0, sizeof(*cfg));
	while (fgets(line, sizeof(line), f)) {
		char *key = line, *val, *nl;
		int bad = 0;

		lineno++;
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		else if (!feof(f))
			bad = 1;	/* longer than the buffer */
		if (!bad && (line[0] == '#' || line[0] == 0))
			continue;
		val = strchr(line, '=');
		if (bad || !val) {
			emu_log("Error: %s:%u: not a key=value line", path, lineno);
			fclose(f);
			return -1;
		}
		*val++ = 0;
		if (!strcmp(key, "mac")) {
			bad = parse_mac(val, cfg->mac);
			seen |= K_MAC;
		} else if (!strcmp(key, "bssid")) {
			bad = parse_mac(val, cfg->bssid);
			seen |= K_BSSID;
		} else if (!strcmp(key, "regdomain")) {
			bad = parse_uint(val, 0xffff, &v);
			cfg->regdomain = (uint16_t)v;
			seen |= K_REG;
		} else if (!strcmp(key, "channel")) {
			bad = parse_uint(val, 13, &v) || v < 1;
			cfg->channel = (unsigned int)v;
			seen |= K_CHAN;
		} else if (!strcmp(key, "ssid")) {
			cfg->ssid_len = strlen(val);
			bad = cfg->ssid_len < 1 || cfg->ssid_len > 32;
			if (!bad)
				memcpy(cfg->ssid, val, cfg->ssid_len + 1);
			seen |= K_SSID;
		} else {
			emu_log("Error: %s:%u: unknown key '%s'", path, lineno, key);
			fclose(f);
			return -1;
		}
		if (bad) {
			emu_log("Error: %s:%u: bad value for %s: '%s'", path, lineno, key, val);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (seen != K_ALL) {
		emu_log("Error: %s: needs mac, regdomain, ssid, bssid and channel", path);
		return -1;
	}
	return 0;
}
