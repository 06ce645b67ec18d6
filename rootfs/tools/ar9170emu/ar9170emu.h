/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ar9170emu: a userspace AR9170 (carl9170) USB WiFi stick on dummy_hcd +
 * raw_gadget. The driver side is drivers/net/wireless/ath/carl9170/; the
 * facts used here are in shared/notes/device-emulation.md section 3.
 */
#ifndef AR9170EMU_H
#define AR9170EMU_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/usb/ch9.h>
#include <linux/usb/raw_gadget.h>

/* ---- the one place of the model's identity: /etc/ar9170emu.conf ---- */
#define EMU_DEFAULT_CONFIG	"/etc/ar9170emu.conf"
#define EMU_DEFAULT_STATEDIR	"/run/ar9170emu"

struct emu_config {
	uint8_t mac[6];		/* EEPROM mac_address, becomes wlan0's */
	uint16_t regdomain;	/* EEPROM reg_domain[0] */
	char ssid[33];		/* the emulated open BSS */
	size_t ssid_len;
	uint8_t bssid[6];
	unsigned int channel;	/* 2.4 GHz channel 1..13 of the BSS */
};

int config_load(const char *path, struct emu_config *cfg);

void emu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- raw_gadget: one wrapper per ioctl, each names its ioctl on error ---- */
int rg_open(void);
int rg_init(int fd, const char *driver, const char *device, int speed);
int rg_run(int fd);
int rg_event_fetch(int fd, struct usb_raw_event *ev, size_t data_max);
int rg_ep0_write(int fd, const void *data, size_t len);
int rg_ep0_read(int fd, void *data, size_t len);
int rg_ep0_stall(int fd);
int rg_ep_enable(int fd, const struct usb_endpoint_descriptor *desc);
int rg_ep_write(int fd, int ep, const void *data, size_t len);
int rg_ep_read(int fd, int ep, void *data, size_t len);
int rg_configure(int fd);
int rg_vbus_draw(int fd, unsigned int ma);

/* ---- AR9170 facts (driver: hw.h, fwcmd.h, fwdesc.h, eeprom.h) ---- */
#define AR9170_VID		0x0cf3	/* usb.c device table */
#define AR9170_PID		0x9170
#define AR9170_FW_CHUNK_MAX	4096	/* usb.c: carl9170_usb_load_firmware */
#define AR9170_FW_SIZE_MAX	16384	/* fwdesc.h CARL9170FW_MAX_SIZE */
#define AR9170_SRAM_BASE	0x100000	/* hw.h AR9170_SRAM_OFFSET */
#define AR9170_SRAM_SIZE	0x18000
#define AR9170_PRAM_BASE	0x200000	/* hw.h AR9170_PRAM_OFFSET */
#define AR9170_PRAM_SIZE	0x8000
#define AR9170_EEPROM_START	0x1600	/* hw.h AR9170_EEPROM_START */
#define AR9170_EEPROM_SIZE	0x940	/* sizeof(struct ar9170_eeprom) */
#define AR9170_MAX_CMD_LEN	64	/* fwcmd.h CARL9170_MAX_CMD_LEN */
#define AR9170_RX_STREAM_TAG	0x4e00	/* hw.h */
#define AR9170_RX_MAX		8192	/* our largest EP2 transfer */
#define AR9170_TX_MAX		4096	/* one TX frame on EP1 */

/* Firmware features (fwdesc.h enum carl9170fw_feature_list) the model follows. */
#define FW_FEAT_USB_RESP_EP2	(1u << 3)
#define FW_FEAT_USB_DOWN_STREAM	(1u << 4)
#define FW_FEAT_USB_UP_STREAM	(1u << 5)

enum ar9170_cmd {
	CMD_RREG = 0x00, CMD_WREG = 0x01, CMD_ECHO = 0x02, CMD_SWRST = 0x03,
	CMD_REBOOT = 0x04, CMD_BCN_CTRL = 0x05, CMD_READ_TSF = 0x06,
	CMD_RX_FILTER = 0x07, CMD_WOL = 0x08, CMD_TALLY = 0x09, CMD_WREGB = 0x0a,
	CMD_EKEY = 0x10, CMD_DKEY = 0x11,
	CMD_FREQUENCY = 0x20, CMD_RF_INIT = 0x21, CMD_SYNTH = 0x22,
	CMD_FREQ_START = 0x23, CMD_PSM = 0x24,
	CMD_ASYNC_FLAG = 0x40,
	RSP_TXCOMP = 0xc1, RSP_BOOT = 0xcf,
};

#define REGFILE_MAX	1024

struct ar9170;

/*
 * Fault injection (-f FAULT). disconnect-upload acts from the start; the
 * command faults wait until SIGUSR1 arms them (carl9170-stub arm), so that
 * they hit an interface that is up.
 */
enum emu_fault {
	FAULT_NONE,
	FAULT_DISCONNECT_UPLOAD,	/* unplug at the 2nd firmware chunk, unanswered */
	FAULT_DISCONNECT_CMD,		/* armed: unplug at the next command, unanswered */
	FAULT_GARBLED_RESP,		/* armed: the next 3 responses short, oversized, garbled */
};
#define GARBLED_RESPONSES	3

int fault_parse(const char *name, enum emu_fault *fault);
/* main.c: the stick is pulled out (the process ends, raw_gadget goes away) */
void emu_unplug(struct ar9170 *ar, const char *why);

/* The whole device state; the threads share it under 'lock'. */
struct ar9170 {
	int fd;
	struct emu_config cfg;
	const char *statedir;

	pthread_mutex_t lock;
	pthread_cond_t config_cond;
	unsigned int config_gen;	/* SET_CONFIGURATIONs seen */
	bool eps_enabled;
	bool io_started;
	int ep_tx, ep_rx, ep_irq, ep_cmd;	/* raw_gadget handles */

	/* firmware upload (vendor requests 0x30/0x31) */
	uint32_t fw_next_addr;
	size_t fw_bytes;
	uint8_t fw_image[AR9170_FW_SIZE_MAX];
	bool booted;
	uint32_t fw_features;	/* from the uploaded OTAR descriptor */
	unsigned int cmd_bufs;

	/* EP2/EP3 writes and the response/trap sequence counter */
	pthread_mutex_t rx_lock;
	unsigned int seq;

	/* register file and EEPROM */
	size_t nregs;
	struct { uint32_t addr, val; } regs[REGFILE_MAX];
	uint8_t eeprom[AR9170_EEPROM_SIZE];

	/* fault injection */
	enum emu_fault fault;
	volatile sig_atomic_t armed;	/* set by SIGUSR1 */
	unsigned int garbled;		/* responses garbled so far */

	/* radio */
	unsigned int freq_mhz;	/* from the last RF_INIT/FREQUENCY, 0 = off */
	uint16_t bss_seq;
};

/* device.c */
void dev_reset(struct ar9170 *ar);
void dev_fw_request(struct ar9170 *ar);
int dev_fw_chunk(struct ar9170 *ar, uint16_t wvalue, const uint8_t *data, size_t len);
void dev_fw_complete(struct ar9170 *ar);
void dev_handle_cmd(struct ar9170 *ar, const uint8_t *buf, size_t n);
void *dev_cmd_thread(void *arg);
int dev_send_record(struct ar9170 *ar, uint8_t cmd, uint8_t ext, const void *payload, size_t len);
int dev_send_rx(struct ar9170 *ar, const void *frame, size_t len);
bool dev_wait_configured(struct ar9170 *ar, unsigned int gen);

/* net.c */
void *net_tx_thread(void *arg);
void *net_beacon_thread(void *arg);
unsigned int net_channel_freq(unsigned int channel);

#endif
