// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated air: one open BSS (SSID, BSSID and channel from the config
 * file). While the radio is tuned to its channel it beacons every 100 ms and
 * answers probe requests; every frame the driver sends on EP1 gets its TX
 * status (TXCOMP trap). RX frames use the AR9170 layout of wlan.h:
 * ar9170_rx_head (PLCP, 12 bytes) + MPDU + FCS + ar9170_rx_phystatus
 * (20 bytes) + ar9170_rx_macstatus (4 bytes, status 0 = CCK, single MPDU).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "ar9170emu.h"

#define RX_PLCP_LEN		12
#define RX_PHYSTATUS_LEN	20
#define RX_MACSTATUS_LEN	4
#define RX_PHY_RATE_CCK_1M	0x0a	/* wlan.h AR9170_RX_PHY_RATE_CCK_1M */
#define TX_SUPERDESC_LEN	24	/* wlan.h CARL9170_TX_SUPERDESC_LEN */
#define TX_HWDESC_LEN		8	/* wlan.h AR9170_TX_HWDESC_LEN */
#define FC_PROBE_REQ		0x40
#define FC_PROBE_RESP		0x50
#define FC_BEACON		0x80
#define BEACON_INTERVAL_TU	100

unsigned int net_channel_freq(unsigned int channel)
{
	return channel == 14 ? 2484 : 2407 + 5 * channel;
}

static uint32_t crc32_ieee(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static bool on_our_channel(struct ar9170 *ar)
{
	bool on;

	pthread_mutex_lock(&ar->lock);
	on = ar->booted && ar->freq_mhz == net_channel_freq(ar->cfg.channel);
	pthread_mutex_unlock(&ar->lock);
	return on;
}

/* A beacon or probe response of the BSS to 'da', as the chip would pass it up. */
static size_t bss_frame(struct ar9170 *ar, uint8_t fc, const uint8_t da[6], uint8_t *out)
{
	static const uint8_t rates[] = { 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24 };
	uint8_t *m = out + RX_PLCP_LEN, *p;
	struct timespec ts;
	uint64_t tsf;
	uint32_t fcs;
	uint16_t seq;

	memset(out, 0, RX_PLCP_LEN);
	out[0] = RX_PHY_RATE_CCK_1M;

	pthread_mutex_lock(&ar->lock);
	seq = ar->bss_seq++;
	pthread_mutex_unlock(&ar->lock);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	tsf = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;

	p = m;
	*p++ = fc;
	*p++ = 0;
	*p++ = 0;	/* duration */
	*p++ = 0;
	memcpy(p, da, 6);
	p += 6;
	memcpy(p, ar->cfg.bssid, 6);	/* SA */
	p += 6;
	memcpy(p, ar->cfg.bssid, 6);
	p += 6;
	*p++ = (uint8_t)(seq << 4);
	*p++ = (uint8_t)(seq >> 4);
	for (int i = 0; i < 8; i++)
		*p++ = (uint8_t)(tsf >> (8 * i));
	*p++ = BEACON_INTERVAL_TU;
	*p++ = 0;
	*p++ = 0x01;	/* capability: ESS, no privacy (open) */
	*p++ = 0x04;	/* short slot time */
	*p++ = 0;	/* SSID */
	*p++ = (uint8_t)ar->cfg.ssid_len;
	memcpy(p, ar->cfg.ssid, ar->cfg.ssid_len);
	p += ar->cfg.ssid_len;
	*p++ = 1;	/* supported rates */
	*p++ = sizeof(rates);
	memcpy(p, rates, sizeof(rates));
	p += sizeof(rates);
	*p++ = 3;	/* DS parameter set */
	*p++ = 1;
	*p++ = (uint8_t)ar->cfg.channel;
	if (fc == FC_BEACON) {
		*p++ = 5;	/* TIM: DTIM count 0, period 1 */
		*p++ = 4;
		*p++ = 0;
		*p++ = 1;
		*p++ = 0;
		*p++ = 0;
	}
	fcs = crc32_ieee(m, (size_t)(p - m));
	for (int i = 0; i < 4; i++)
		*p++ = (uint8_t)(fcs >> (8 * i));
	/* phy status: a strong, clean signal on one chain */
	memset(p, 0, RX_PHYSTATUS_LEN);
	p[0] = 40;	/* rssi_ant0 */
	p[6] = 40;	/* rssi_combined */
	p += RX_PHYSTATUS_LEN;
	memset(p, 0, RX_MACSTATUS_LEN);
	p += RX_MACSTATUS_LEN;
	return (size_t)(p - out);
}

/* Does a probe request ask for our SSID (or any)? Every IE length is bounded. */
static bool probe_wants_us(struct ar9170 *ar, const uint8_t *f, size_t len)
{
	size_t i = 24;

	while (i + 2 <= len) {
		size_t ie_len = f[i + 1];

		if (i + 2 + ie_len > len)
			return false;
		if (f[i] == 0)
			return ie_len == 0 || (ie_len == ar->cfg.ssid_len &&
					       !memcmp(f + i + 2, ar->cfg.ssid, ie_len));
		i += 2 + ie_len;
	}
	return false;
}

/* EP1: one frame per transfer: [stream header] superdesc + hwdesc + 802.11 frame. */
void *net_tx_thread(void *arg)
{
	static uint8_t buf[AR9170_TX_MAX];
	static uint8_t rx[AR9170_RX_MAX];
	struct ar9170 *ar = arg;
	unsigned int gen;

	pthread_mutex_lock(&ar->lock);
	gen = ar->config_gen;
	pthread_mutex_unlock(&ar->lock);
	for (;;) {
		int n = rg_ep_read(ar->fd, ar->ep_tx, buf, sizeof(buf));
		const uint8_t *d = buf, *f;
		size_t len, flen;
		uint8_t status[2];

		if (n < 0 && errno == ESHUTDOWN) {
			dev_wait_configured(ar, gen);
			gen = ar->config_gen;
			continue;
		}
		if (n < 0) {
			emu_log("TX endpoint failed: no more frames");
			return NULL;
		}
		len = (size_t)n;
		if (ar->fw_features & FW_FEAT_USB_DOWN_STREAM) {
			if (len < 4) {
				emu_log("TX: %zu bytes, no stream header: dropped", len);
				continue;
			}
			d += 4;
			len -= 4;
		}
		if (len < TX_SUPERDESC_LEN + TX_HWDESC_LEN) {
			emu_log("TX: %zu bytes, shorter than its descriptors: dropped", len);
			continue;
		}
		/* TXCOMP: cookie, then queue | rix 0 | tries 1 | success */
		status[0] = d[4];
		status[1] = (uint8_t)((d[6] & 0x3) | 1 << 4 | 0x80);
		dev_send_record(ar, RSP_TXCOMP, 1, status, sizeof(status));

		f = d + TX_SUPERDESC_LEN + TX_HWDESC_LEN;
		flen = len - TX_SUPERDESC_LEN - TX_HWDESC_LEN;
		if (flen >= 24 && f[0] == FC_PROBE_REQ && on_our_channel(ar) && probe_wants_us(ar, f, flen)) {
			emu_log("probe request from %02x:%02x:%02x:%02x:%02x:%02x: probe response",
				f[10], f[11], f[12], f[13], f[14], f[15]);
			dev_send_rx(ar, rx, bss_frame(ar, FC_PROBE_RESP, f + 10, rx));
		}
	}
}

void *net_beacon_thread(void *arg)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static uint8_t rx[AR9170_RX_MAX];
	const struct timespec period = { 0, BEACON_INTERVAL_TU * 1024L * 1000L };
	struct ar9170 *ar = arg;

	for (;;) {
		/* the beacon interval is the device's own clock, not a synchronisation */
		nanosleep(&period, NULL);
		if (on_our_channel(ar))
			dev_send_rx(ar, rx, bss_frame(ar, FC_BEACON, bcast, rx));
	}
	return NULL;
}
