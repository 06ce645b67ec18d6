// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * Host unit test of the AR9170 model (rootfs/tools/carl9170-emu): reset values,
 * the config file, firmware upload checks and boot, and command edge cases.
 * raw_gadget is replaced by fakes that record what the model sends.
 *
 * usage: carl9170-emu-test CONFIG   (exit 0: all passed, 1: a failure, named)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "carl9170-emu.h"
#include "expect.h"

static uint8_t sent[AR9170_RX_MAX];
static size_t sent_len;
static int sends;

void emu_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "  model: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int rg_ep_write(int fd, int ep, const void *data, size_t len)
{
	(void)fd;
	(void)ep;
	memcpy(sent, data, len);
	sent_len = len;
	sends++;
	return (int)len;
}

int rg_ep_read(int fd, int ep, void *data, size_t len)
{
	(void)fd;
	(void)ep;
	(void)data;
	(void)len;
	return -1;
}

static int unplugs;

/* The real one ends the process; here it only counts. */
void emu_unplug(struct ar9170 *ar, const char *why)
{
	(void)ar;
	fprintf(stderr, "  model: %s: unplugged\n", why);
	unplugs++;
}


/* The record of the last EP2 transfer (after stream header and marker). */
static const uint8_t *last_record(void)
{
	return sent + 4 + 12;
}

int main(int argc, char **argv)
{
	static struct ar9170 ar;
	uint8_t chunk[AR9170_FW_CHUNK_MAX] = { 0 };
	uint8_t cmd[AR9170_MAX_CMD_LEN];
	unsigned int seq;
	int before;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CONFIG\n", argv[0]);
		return 2;
	}
	EXPECT(config_load("/nonexistent/carl9170-emu.conf", &ar.cfg) == -1, "a missing config is an error");
	EXPECT(config_load(argv[1], &ar.cfg) == 0, "the shipped config loads");
	char statedir[] = "/tmp/carl9170-emu-test.XXXXXX";
	char upload[64];

	if (!mkdtemp(statedir)) {
		perror("mkdtemp");
		return 1;
	}
	ar.statedir = statedir;
	pthread_mutex_init(&ar.lock, NULL);
	pthread_mutex_init(&ar.rx_lock, NULL);
	dev_reset(&ar);

	/* reset values: the EEPROM fields the driver checks */
	EXPECT(ar.eeprom[0] == 0x40 && ar.eeprom[1] == 0x09, "EEPROM length 0x940");
	EXPECT(ar.eeprom[6] == 2, "EEPROM operating_flags: 2 GHz only");
	EXPECT(!memcmp(ar.eeprom + 12, ar.cfg.mac, 6), "EEPROM MAC from the config");
	EXPECT((ar.eeprom[8] | ar.eeprom[9] << 8) == ar.cfg.regdomain, "EEPROM regdomain from the config");

	/* upload: window and contiguity checks, 16 KiB bound */
	EXPECT(dev_fw_chunk(&ar, 0x0100, chunk, 16) == -1, "a chunk at 0x10000 (outside SRAM/PRAM) is refused");
	EXPECT(dev_fw_chunk(&ar, 0x2000 + 0x0080, chunk, 4096) == -1, "a chunk past the end of PRAM is refused");
	memcpy(chunk + 64, "OTAR", 4);
	chunk[64 + 8] = FW_FEAT_USB_RESP_EP2 | FW_FEAT_USB_UP_STREAM;
	chunk[64 + 29] = 4;	/* cmd_bufs */
	EXPECT(dev_fw_chunk(&ar, 0x2000, chunk, 4096) == 0, "the first chunk at 0x200000 is taken");
	EXPECT(dev_fw_chunk(&ar, 0x2000, chunk, 100) == -1, "a chunk at the wrong address is refused");
	EXPECT(dev_fw_chunk(&ar, 0x2010, chunk, 100) == 0, "the next chunk is taken");
	EXPECT(ar.fw_bytes == 4196, "4196 bytes held, not %zu", ar.fw_bytes);

	/* boot: follows the uploaded OTAR; BOOT trap in a stream on EP2 */
	dev_fw_complete(&ar);
	EXPECT(ar.booted && ar.cmd_bufs == 4, "booted with cmd_bufs 4 from the image");
	EXPECT(sent_len == 4 + 12 + 4, "BOOT: one stream of 20 bytes, not %zu", sent_len);
	EXPECT(sent[0] == 16 && sent[1] == 0 && sent[2] == 0x00 && sent[3] == 0x4e, "stream header length 16, tag 0x4e00");
	EXPECT(sent[4] == 0xff && sent[15] == 0xff, "12-byte 0xff marker");
	EXPECT(last_record()[1] == RSP_BOOT && last_record()[2] == 0, "BOOT trap with seq 0");
	snprintf(upload, sizeof(upload), "%s/upload.bin", statedir);
	{
		FILE *f = fopen(upload, "rb");
		long size = -1;

		if (f && !fseek(f, 0, SEEK_END))
			size = ftell(f);
		if (f)
			fclose(f);
		EXPECT(size == 4196, "upload.bin holds the 4196 bytes, not %ld", size);
	}
	unlink(upload);
	rmdir(statedir);

	/* RREG of the MAC (EEPROM 0x1600 + 12) */
	memset(cmd, 0, sizeof(cmd));
	cmd[0] = 8;
	cmd[1] = CMD_RREG;
	cmd[4] = 0x0c;
	cmd[5] = 0x16;
	cmd[8] = 0x10;
	cmd[9] = 0x16;
	dev_handle_cmd(&ar, cmd, 12);
	EXPECT(last_record()[0] == 8 && last_record()[1] == CMD_RREG, "RREG answered with 8 bytes");
	EXPECT(!memcmp(last_record() + 4, ar.cfg.mac, 6), "RREG returns the MAC");
	EXPECT(last_record()[2] == 1, "seq 1 after BOOT");

	/* WREG then RREG of the same register */
	memset(cmd, 0, sizeof(cmd));
	cmd[0] = 8;
	cmd[1] = CMD_WREG;
	cmd[4] = 0x04;
	cmd[5] = 0x01;
	cmd[6] = 0x1d;
	cmd[8] = 0x5a;
	dev_handle_cmd(&ar, cmd, 12);
	EXPECT(last_record()[0] == 0 && last_record()[2] == 2, "WREG answered empty with seq 2");
	cmd[0] = 4;
	cmd[1] = CMD_RREG;
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[4] == 0x5a, "the written value reads back");
	EXPECT(last_record()[2] == 3, "seq 3");

	/* edge cases: nothing is answered, nothing crashes */
	before = sends;
	dev_handle_cmd(&ar, cmd, 3);			/* shorter than a header */
	cmd[0] = 60;
	cmd[1] = CMD_ECHO;
	dev_handle_cmd(&ar, cmd, 8);			/* says 60, brings 4 */
	cmd[0] = 6;
	cmd[1] = CMD_RREG;
	dev_handle_cmd(&ar, cmd, 10);			/* not a list of addresses */
	cmd[0] = 0;
	cmd[1] = 0x3f;
	dev_handle_cmd(&ar, cmd, 4);			/* unknown command */
	cmd[1] = CMD_WREG | CMD_ASYNC_FLAG;
	dev_handle_cmd(&ar, cmd, 4);			/* asynchronous: never answered */
	EXPECT(sends == before, "bad, unknown and async commands are not answered (%d sends)", sends - before);

	/* ECHO wraps the sequence modulo cmd_bufs */
	cmd[0] = 4;
	cmd[1] = CMD_ECHO;
	memcpy(cmd + 4, "\x23\x01\x11\x4a", 4);
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[2] == 0 && !memcmp(last_record() + 4, "\x23\x01\x11\x4a", 4), "ECHO echoed, seq wrapped to 0");

	/* RF_INIT tunes the radio and reports success */
	memset(cmd, 0, sizeof(cmd));
	cmd[0] = 28;
	cmd[1] = CMD_RF_INIT;
	cmd[4] = 0x88;	/* 2437000 kHz = 0x252f88 */
	cmd[5] = 0x2f;
	cmd[6] = 0x25;
	dev_handle_cmd(&ar, cmd, 32);
	EXPECT(ar.freq_mhz == 2437 && last_record()[0] == 4 && last_record()[4] == 0, "RF_INIT: 2437 MHz, ret 0");

	/* fault names */
	{
		enum emu_fault f;

		EXPECT(!fault_parse("garbled-resp", &f) && f == FAULT_GARBLED_RESP, "fault garbled-resp parsed");
		EXPECT(fault_parse("garbled", &f), "an unknown fault is refused");
	}

	/* garbled-resp: nothing until armed; then a record running past its
	 * transfer (seq kept), a short one (skipping an empty response), an
	 * oversized one; then normal again */
	ar.fault = FAULT_GARBLED_RESP;
	memset(cmd, 0, sizeof(cmd));
	cmd[0] = 4;
	cmd[1] = CMD_ECHO;
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[0] == 4, "not armed: normal response");
	ar.armed = 1;
	seq = ar.seq;
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[0] == 60 && sent_len - 4 - 12 < 64 && ar.seq == seq, "garbled: length 60 in a short transfer, seq kept");
	cmd[0] = 0;
	cmd[1] = CMD_SWRST;
	dev_handle_cmd(&ar, cmd, 4);
	EXPECT(last_record()[0] == 0 && ar.garbled == 1, "an empty response is not shortened");
	cmd[0] = 4;
	cmd[1] = CMD_ECHO;
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[0] == 0, "short: 4 payload bytes missing");
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[0] == 12, "oversized: 8 payload bytes too many");
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(last_record()[0] == 4, "after 3: normal again");

	/* disconnect-cmd: unplugs at the next command once armed, unanswered */
	ar.fault = FAULT_DISCONNECT_CMD;
	ar.armed = 0;
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(unplugs == 0, "disconnect-cmd: not before it is armed");
	ar.armed = 1;
	dev_handle_cmd(&ar, cmd, 8);
	EXPECT(unplugs == 1, "disconnect-cmd: unplugged at the armed command");

	/* disconnect-upload: at the second chunk's request, not the first */
	ar.fault = FAULT_DISCONNECT_UPLOAD;
	dev_reset(&ar);
	unplugs = 0;
	dev_fw_request(&ar);
	EXPECT(unplugs == 0, "disconnect-upload: the first chunk goes through");
	dev_fw_chunk(&ar, AR9170_PRAM_BASE >> 8, chunk, 256);
	dev_fw_request(&ar);
	EXPECT(unplugs == 1, "disconnect-upload: unplugged at the second chunk");

	printf("%s\n", failures ? "carl9170-emu unit test: FAILED" : "carl9170-emu unit test: all passed");
	return failures ? 1 : 0;
}
