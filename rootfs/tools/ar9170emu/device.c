// SPDX-License-Identifier: GPL-2.0
/*
 * The AR9170 itself: reset state (synthetic EEPROM), firmware upload and
 * boot, the command/response protocol on EP4 -> EP2 (or EP3), and the RX
 * framing the uploaded firmware declares (notes 3.4-3.9).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ar9170emu.h"

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Reset. The EEPROM (struct ar9170_eeprom, eeprom.h) holds only what the
 * driver needs: length @0 (not 0xffff, main.c carl9170_read_eeprom),
 * operating_flags @6 (2 GHz only), reg_domain[0] @8 (checked by
 * ath_regd_init), mac_address @12, rx_mask/tx_mask @18/@19 (one chain).
 * Calibration data stays zero. Registers read 0 until written.
 */
void dev_reset(struct ar9170 *ar)
{
	memset(ar->eeprom, 0, sizeof(ar->eeprom));
	put_le16(ar->eeprom + 0, AR9170_EEPROM_SIZE);
	put_le16(ar->eeprom + 6, 0x0002);	/* AR9170_OPFLAG_2GHZ */
	put_le16(ar->eeprom + 8, ar->cfg.regdomain);
	memcpy(ar->eeprom + 12, ar->cfg.mac, 6);
	ar->eeprom[18] = 1;
	ar->eeprom[19] = 1;
	ar->nregs = 0;
	ar->fw_bytes = 0;
	ar->fw_next_addr = 0;
	ar->booted = false;
	ar->fw_features = 0;
	ar->cmd_bufs = 16;
	ar->seq = 0;
	ar->freq_mhz = 0;
}

/* ---- fault injection ---- */

int fault_parse(const char *name, enum emu_fault *fault)
{
	static const struct { const char *name; enum emu_fault f; } faults[] = {
		{ "none", FAULT_NONE },
		{ "disconnect-upload", FAULT_DISCONNECT_UPLOAD },
		{ "disconnect-cmd", FAULT_DISCONNECT_CMD },
		{ "garbled-resp", FAULT_GARBLED_RESP },
	};

	for (size_t i = 0; i < sizeof(faults) / sizeof(faults[0]); i++) {
		if (!strcmp(name, faults[i].name)) {
			*fault = faults[i].f;
			return 0;
		}
	}
	return -1;
}

/* ---- firmware upload ---- */

/* A FW DL request arrived, its data stage not read yet. */
void dev_fw_request(struct ar9170 *ar)
{
	if (ar->fault == FAULT_DISCONNECT_UPLOAD && ar->fw_bytes > 0 && !ar->booted)
		emu_unplug(ar, "fault disconnect-upload: in the middle of the firmware upload");
}

static bool in_window(uint32_t addr, size_t len, uint32_t base, uint32_t size)
{
	return addr >= base && addr - base <= size && len <= size - (addr - base);
}

static void upload_path(struct ar9170 *ar, char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", ar->statedir, name);
}

/* vendor 0x30: one chunk at wValue << 8; chunks are contiguous, inside SRAM or PRAM. */
int dev_fw_chunk(struct ar9170 *ar, uint16_t wvalue, const uint8_t *data, size_t len)
{
	uint32_t addr = (uint32_t)wvalue << 8;
	char path[256];

	if (!in_window(addr, len, AR9170_SRAM_BASE, AR9170_SRAM_SIZE) &&
	    !in_window(addr, len, AR9170_PRAM_BASE, AR9170_PRAM_SIZE)) {
		emu_log("FW DL: chunk 0x%06x+%zu outside SRAM/PRAM: dropped", addr, len);
		return -1;
	}
	if (ar->booted || ar->fw_bytes == 0) {
		/* a new upload: the last one's image is no longer what we hold */
		upload_path(ar, path, sizeof(path), "upload.bin");
		unlink(path);
		ar->booted = false;
		ar->fw_bytes = 0;
		ar->fw_next_addr = addr;
		emu_log("FW DL: upload starts at 0x%06x", addr);
	}
	if (addr != ar->fw_next_addr) {
		emu_log("FW DL: chunk at 0x%06x, expected 0x%06x: dropped", addr, ar->fw_next_addr);
		return -1;
	}
	if (len > sizeof(ar->fw_image) - ar->fw_bytes) {
		emu_log("FW DL: image larger than %zu bytes: chunk dropped", sizeof(ar->fw_image));
		return -1;
	}
	memcpy(ar->fw_image + ar->fw_bytes, data, len);
	ar->fw_bytes += len;
	ar->fw_next_addr += (uint32_t)len;
	emu_log("FW DL wValue=0x%04x (addr 0x%06x) len=%zu, %zu bytes so far", wvalue, addr, len,
		ar->fw_bytes);
	return 0;
}

/* The OTAR descriptor of the uploaded image (fwdesc.h carl9170fw_otus_desc). */
static const uint8_t *find_otar(const struct ar9170 *ar)
{
	for (size_t i = 0; i + 32 <= ar->fw_bytes; i++)
		if (!memcmp(ar->fw_image + i, "OTAR", 4))
			return ar->fw_image + i;
	return NULL;
}

static void save_upload(struct ar9170 *ar)
{
	char path[256], tmp[264];
	FILE *f;

	upload_path(ar, path, sizeof(path), "upload.bin");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (!f || fwrite(ar->fw_image, 1, ar->fw_bytes, f) != ar->fw_bytes || fclose(f)) {
		emu_log("Error: %s: %s", tmp, strerror(errno));
		return;
	}
	if (rename(tmp, path))
		emu_log("Error: %s: %s", path, strerror(errno));
}

/*
 * vendor 0x31: boot what was uploaded. Like the real chip, the model then
 * runs "that firmware": it follows the features its OTAR descriptor declares
 * (response endpoint, RX stream framing, number of command buffers).
 */
void dev_fw_complete(struct ar9170 *ar)
{
	const uint8_t *otar;

	if (ar->fw_bytes == 0 || ar->booted) {
		emu_log("FW DL COMPLETE without a new image: no boot");
		return;
	}
	otar = find_otar(ar);
	if (!otar) {
		emu_log("FW DL COMPLETE: no OTAR descriptor in the %zu bytes: no boot", ar->fw_bytes);
		return;
	}
	pthread_mutex_lock(&ar->rx_lock);
	ar->fw_features = get_le32(otar + 8);
	ar->cmd_bufs = otar[29] ? otar[29] : 1;
	ar->seq = 0;
	ar->freq_mhz = 0;
	ar->booted = true;
	pthread_mutex_unlock(&ar->rx_lock);
	save_upload(ar);
	emu_log("FW DL COMPLETE (%zu bytes): features 0x%08x, cmd_bufs %u, responses on %s, %s RX -> send BOOT",
		ar->fw_bytes, ar->fw_features, ar->cmd_bufs,
		ar->fw_features & FW_FEAT_USB_RESP_EP2 ? "EP2" : "EP3",
		ar->fw_features & FW_FEAT_USB_UP_STREAM ? "stream" : "plain");
	dev_send_record(ar, RSP_BOOT, 0, NULL, 0);
}

/* ---- device -> host ---- */

/* One EP2 transfer, wrapped in a stream header if the firmware streams up. */
static int ep2_send(struct ar9170 *ar, const uint8_t *data, size_t len)
{
	static uint8_t buf[AR9170_RX_MAX];
	size_t off = 0;

	if (ar->fw_features & FW_FEAT_USB_UP_STREAM) {
		if (len > sizeof(buf) - 8)
			return -1;
		put_le16(buf, (uint16_t)len);
		put_le16(buf + 2, AR9170_RX_STREAM_TAG);
		off = 4;
	} else if (len > sizeof(buf)) {
		return -1;
	}
	memcpy(buf + off, data, len);
	off += len;
	while (off % 4)		/* the driver steps over ALIGN(length, 4) */
		buf[off++] = 0;
	return rg_ep_write(ar->fd, ar->ep_rx, buf, off) < 0 ? -1 : 0;
}

/*
 * A response or trap {len, cmd, seq, ext, payload}: on EP2 after the 12-byte
 * 0xff marker with one sequence counter modulo cmd_bufs, or alone on EP3.
 */
int dev_send_record(struct ar9170 *ar, uint8_t cmd, uint8_t ext, const void *payload, size_t len)
{
	uint8_t rec[12 + AR9170_MAX_CMD_LEN];
	uint8_t *r = rec + 12;
	int rv;

	if (len > AR9170_MAX_CMD_LEN - 4)
		return -1;
	pthread_mutex_lock(&ar->rx_lock);
	r[0] = (uint8_t)len;
	r[1] = cmd;
	r[2] = (uint8_t)ar->seq;
	r[3] = ext;
	if (len)
		memcpy(r + 4, payload, len);
	if (ar->fw_features & FW_FEAT_USB_RESP_EP2 || !ar->booted) {
		ar->seq = (ar->seq + 1) % ar->cmd_bufs;
		memset(rec, 0xff, 12);
		rv = ep2_send(ar, rec, 12 + 4 + len);
	} else {
		rv = rg_ep_write(ar->fd, ar->ep_irq, r, 4 + len) < 0 ? -1 : 0;
	}
	pthread_mutex_unlock(&ar->rx_lock);
	return rv;
}

/* An RX frame (PLCP + MPDU + FCS + phy status + mac status) on EP2. */
int dev_send_rx(struct ar9170 *ar, const void *frame, size_t len)
{
	int rv;

	pthread_mutex_lock(&ar->rx_lock);
	rv = ep2_send(ar, frame, len);
	pthread_mutex_unlock(&ar->rx_lock);
	return rv;
}

/* ---- registers ---- */

static uint32_t reg_read(struct ar9170 *ar, uint32_t addr)
{
	if (addr >= AR9170_EEPROM_START && addr - AR9170_EEPROM_START <= AR9170_EEPROM_SIZE - 4)
		return get_le32(ar->eeprom + (addr - AR9170_EEPROM_START));
	for (size_t i = 0; i < ar->nregs; i++)
		if (ar->regs[i].addr == addr)
			return ar->regs[i].val;
	return 0;
}

static void reg_write(struct ar9170 *ar, uint32_t addr, uint32_t val)
{
	for (size_t i = 0; i < ar->nregs; i++) {
		if (ar->regs[i].addr == addr) {
			ar->regs[i].val = val;
			return;
		}
	}
	if (ar->nregs == REGFILE_MAX) {
		emu_log("WREG 0x%08x: register file full (%d), write dropped", addr, REGFILE_MAX);
		return;
	}
	ar->regs[ar->nregs].addr = addr;
	ar->regs[ar->nregs].val = val;
	ar->nregs++;
}

/* ---- commands (fwcmd.h) ---- */

/*
 * A command's response, or with garbled-resp armed in turn: a record whose
 * length runs past the end of its transfer, a payload 4 bytes short (only a
 * response that has 4 bytes to lose) and one 8 bytes too long.
 */
static void send_response(struct ar9170 *ar, uint8_t cmd, const void *p, size_t len)
{
	uint8_t big[AR9170_MAX_CMD_LEN - 4];
	uint8_t raw[12 + 4 + 8];

	if (ar->fault != FAULT_GARBLED_RESP || !ar->armed || ar->garbled >= GARBLED_RESPONSES ||
	    (ar->garbled == 1 && len < 4)) {
		dev_send_record(ar, cmd, 0, p, len);
		return;
	}
	switch (ar->garbled++) {
	case 0:
		/*
		 * a record that claims 60 payload bytes in a transfer that has
		 * 8: the driver drops the transfer unread, so the sequence
		 * counter stays where it was
		 */
		memset(raw, 0xff, 12);
		raw[12] = 60;
		raw[13] = cmd;
		pthread_mutex_lock(&ar->rx_lock);
		raw[14] = (uint8_t)ar->seq;
		raw[15] = 0;
		for (int i = 0; i < 8; i++)
			raw[16 + i] = (uint8_t)(0xa5 ^ i);
		emu_log("fault garbled-resp: command 0x%02x answered with a record of length 60 in %zu bytes",
			cmd, sizeof(raw) - 12);
		ep2_send(ar, raw, sizeof(raw));
		pthread_mutex_unlock(&ar->rx_lock);
		break;
	case 1:
		emu_log("fault garbled-resp: command 0x%02x answered with %zu of %zu payload bytes", cmd,
			len - 4, len);
		dev_send_record(ar, cmd, 0, p, len - 4);
		break;
	default:
		if (len > sizeof(big) - 8)
			len = sizeof(big) - 8;
		if (len)
			memcpy(big, p, len);
		memset(big + len, 0xee, 8);
		emu_log("fault garbled-resp: command 0x%02x answered with %zu payload bytes, 8 too many", cmd,
			len + 8);
		dev_send_record(ar, cmd, 0, big, len + 8);
		break;
	}
}

void dev_handle_cmd(struct ar9170 *ar, const uint8_t *buf, size_t n)
{
	uint8_t out[AR9170_MAX_CMD_LEN - 4];
	const uint8_t *p = buf + 4;
	uint8_t len, cmd;
	struct timespec ts;
	uint64_t us;

	if (n < 4) {
		emu_log("command: %zu bytes, shorter than its header: ignored", n);
		return;
	}
	len = buf[0];
	cmd = buf[1];
	if (ar->fault == FAULT_DISCONNECT_CMD && ar->armed)
		emu_unplug(ar, "fault disconnect-cmd: a command arrived, it gets no response");
	if ((size_t)len + 4 > n) {
		emu_log("command 0x%02x: header says %u payload bytes, %zu arrived: ignored", cmd, len, n - 4);
		return;
	}
	if (cmd & CMD_ASYNC_FLAG) {
		/* asynchronous: acted on, never answered */
		if ((cmd & ~CMD_ASYNC_FLAG) == CMD_WREG && len % 8 == 0)
			for (unsigned int i = 0; i < len; i += 8)
				reg_write(ar, get_le32(p + i), get_le32(p + i + 4));
		return;
	}

	switch (cmd) {
	case CMD_RREG:
		if (len % 4) {
			emu_log("RREG: payload %u bytes is not a list of addresses: not answered", len);
			return;
		}
		for (unsigned int i = 0; i < len; i += 4)
			put_le32(out + i, reg_read(ar, get_le32(p + i)));
		send_response(ar, cmd, out, len);
		break;
	case CMD_WREG:
		if (len % 8) {
			emu_log("WREG: payload %u bytes is not a list of address/value pairs: not answered", len);
			return;
		}
		for (unsigned int i = 0; i < len; i += 8)
			reg_write(ar, get_le32(p + i), get_le32(p + i + 4));
		send_response(ar, cmd, NULL, 0);
		break;
	case CMD_ECHO:
		emu_log("ECHO %u bytes", len);
		send_response(ar, cmd, p, len);
		break;
	case CMD_READ_TSF:
		clock_gettime(CLOCK_MONOTONIC, &ts);
		us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
		put_le32(out, (uint32_t)us);
		put_le32(out + 4, (uint32_t)(us >> 32));
		send_response(ar, cmd, out, 8);
		break;
	case CMD_TALLY:
		/* carl9170_tally_rsp: no activity; tick 0 tells the driver to skip it */
		memset(out, 0, 24);
		send_response(ar, cmd, out, 24);
		break;
	case CMD_FREQUENCY:
	case CMD_RF_INIT:
		if (len < 4) {
			emu_log("RF 0x%02x: payload %u bytes has no frequency: not answered", cmd, len);
			return;
		}
		pthread_mutex_lock(&ar->lock);
		ar->freq_mhz = get_le32(p) / 1000;
		pthread_mutex_unlock(&ar->lock);
		emu_log("%s: %u MHz", cmd == CMD_RF_INIT ? "RF_INIT" : "FREQUENCY", get_le32(p) / 1000);
		memset(out, 0, 4);	/* carl9170_rf_init_result.ret: 0 = locked */
		send_response(ar, cmd, out, 4);
		break;
	case CMD_SWRST:
	case CMD_BCN_CTRL:
	case CMD_RX_FILTER:
	case CMD_WOL:
	case CMD_EKEY:
	case CMD_DKEY:
	case CMD_FREQ_START:
	case CMD_PSM:
		send_response(ar, cmd, NULL, 0);
		break;
	default:
		/* not answered: the driver's command times out (-ETIMEDOUT) */
		emu_log("unknown command 0x%02x (%u payload bytes): not answered", cmd, len);
		break;
	}
}

bool dev_wait_configured(struct ar9170 *ar, unsigned int gen)
{
	pthread_mutex_lock(&ar->lock);
	while (ar->config_gen == gen)
		pthread_cond_wait(&ar->config_cond, &ar->lock);
	pthread_mutex_unlock(&ar->lock);
	return true;
}

/* EP4: one command per transfer of at most 64 bytes (notes 3.6). */
void *dev_cmd_thread(void *arg)
{
	struct ar9170 *ar = arg;
	uint8_t buf[AR9170_MAX_CMD_LEN];
	unsigned int gen;

	pthread_mutex_lock(&ar->lock);
	gen = ar->config_gen;
	pthread_mutex_unlock(&ar->lock);
	for (;;) {
		int n = rg_ep_read(ar->fd, ar->ep_cmd, buf, sizeof(buf));

		if (n < 0 && errno == ESHUTDOWN) {
			/* port reset: queue nothing until configured again */
			dev_wait_configured(ar, gen);
			gen = ar->config_gen;
			continue;
		}
		if (n < 0) {
			emu_log("command endpoint failed: no more commands");
			return NULL;
		}
		dev_handle_cmd(ar, buf, (size_t)n);
	}
}
