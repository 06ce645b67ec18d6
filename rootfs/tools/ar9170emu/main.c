// SPDX-License-Identifier: GPL-2.0
/*
 * ar9170emu: the AR9170 USB stick model. This file: options, the USB
 * identity (descriptors) and the ep0 event loop.
 *
 * usage: ar9170emu [-c CONFIG] [-s STATEDIR] [-f FAULT]
 *   -c CONFIG    identity and network (default /etc/ar9170emu.conf)
 *   -s STATEDIR  where the received firmware image goes (default /run/ar9170emu)
 *   -f FAULT     inject a fault (see help()); SIGUSR1 arms the command faults
 * Exit codes: 0 never (it runs until killed), 1 setup error, 2 usage.
 * Log lines go to stderr; a guest error is logged and survived.
 */
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ar9170emu.h"

void emu_log(const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(stderr, "[%5ld.%06ld] ar9170emu: ", (long)ts.tv_sec, ts.tv_nsec / 1000);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void help(int status)
{
	fprintf(stderr,
		"usage: ar9170emu [-c CONFIG] [-s STATEDIR] [-f FAULT]\n"
		"  -c CONFIG    identity and network (default " EMU_DEFAULT_CONFIG ")\n"
		"  -s STATEDIR  the received firmware image goes to STATEDIR/upload.bin\n"
		"               (default " EMU_DEFAULT_STATEDIR ")\n"
		"  -f FAULT     disconnect-upload  unplug at the 2nd firmware chunk\n"
		"               disconnect-cmd     once armed, unplug at the next command\n"
		"               garbled-resp       once armed, answer 3 commands with a short,\n"
		"                                  an oversized and a garbled response\n"
		"               (SIGUSR1 arms; the stub's 'carl9170-stub arm' sends it)\n"
		"Emulates an AR9170 (0cf3:9170) on dummy_hcd through /dev/raw-gadget.\n");
	exit(status);
}

/*
 * Pulling the stick out: the process ends, closing /dev/raw-gadget
 * unregisters the gadget, and the host sees the disconnect. Whatever was in
 * flight stays unanswered, as with a real unplug.
 */
void emu_unplug(struct ar9170 *ar, const char *why)
{
	(void)ar;
	emu_log("%s: unplugged", why);
	_exit(0);
}

static struct ar9170 *armed_ar;

static void arm(int sig)
{
	(void)sig;
	armed_ar->armed = 1;
}

/* ---- USB identity: the values of carl9170fw's carlfw/usb/usb.c (notes 3.2) ---- */
static const struct usb_device_descriptor dev_desc = {
	.bLength = USB_DT_DEVICE_SIZE,
	.bDescriptorType = USB_DT_DEVICE,
	.bcdUSB = 0x0200,	/* < 0x0201: the host does not ask for a BOS */
	.bDeviceClass = 0xff,
	.bDeviceSubClass = 0xff,
	.bDeviceProtocol = 0xff,
	.bMaxPacketSize0 = 64,
	.idVendor = AR9170_VID,
	.idProduct = AR9170_PID,
	.bcdDevice = 0x0106,
	.bNumConfigurations = 1,
};

/* EP numbers: hw.h enum (TX=1, RX=2, IRQ=3, CMD=4); high-speed sizes. */
static const struct usb_endpoint_descriptor ep_descs[4] = {
	{ USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, USB_DIR_OUT | 1, USB_ENDPOINT_XFER_BULK, 512, 0, 0, 0 },
	{ USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, USB_DIR_IN | 2, USB_ENDPOINT_XFER_BULK, 512, 0, 0, 0 },
	{ USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, USB_DIR_IN | 3, USB_ENDPOINT_XFER_INT, 64, 1, 0, 0 },
	{ USB_DT_ENDPOINT_SIZE, USB_DT_ENDPOINT, USB_DIR_OUT | 4, USB_ENDPOINT_XFER_INT, 64, 1, 0, 0 },
};

#define CONFIG_TOTAL (USB_DT_CONFIG_SIZE + USB_DT_INTERFACE_SIZE + 4 * USB_DT_ENDPOINT_SIZE)

static size_t config_desc(uint8_t *buf)
{
	struct usb_config_descriptor c = {
		.bLength = USB_DT_CONFIG_SIZE,
		.bDescriptorType = USB_DT_CONFIG,
		.wTotalLength = CONFIG_TOTAL,
		.bNumInterfaces = 1,
		.bConfigurationValue = 1,
		.bmAttributes = USB_CONFIG_ATT_ONE,
		.bMaxPower = 0xfa,
	};
	struct usb_interface_descriptor i = {
		.bLength = USB_DT_INTERFACE_SIZE,
		.bDescriptorType = USB_DT_INTERFACE,
		.bNumEndpoints = 4,
		.bInterfaceClass = 0xff,
		.bInterfaceSubClass = 0xff,
	};
	size_t off = 0;

	memcpy(buf + off, &c, USB_DT_CONFIG_SIZE);
	off += USB_DT_CONFIG_SIZE;
	memcpy(buf + off, &i, USB_DT_INTERFACE_SIZE);
	off += USB_DT_INTERFACE_SIZE;
	for (int n = 0; n < 4; n++) {
		memcpy(buf + off, &ep_descs[n], USB_DT_ENDPOINT_SIZE);
		off += USB_DT_ENDPOINT_SIZE;
	}
	return off;
}

/* ---- ep0 ---- */

/* An IN reply, clamped to wLength. */
static void ep0_reply(struct ar9170 *ar, const struct usb_ctrlrequest *r, const void *data, size_t len)
{
	if (len > r->wLength)
		len = r->wLength;
	rg_ep0_write(ar->fd, data, len);
}

static void ep0_stall(struct ar9170 *ar, const struct usb_ctrlrequest *r, const char *why)
{
	emu_log("ep0: stall %02x/%02x wValue=%04x wIndex=%04x wLength=%u (%s)", r->bRequestType,
		r->bRequest, r->wValue, r->wIndex, r->wLength, why);
	rg_ep0_stall(ar->fd);
}

/*
 * SET_CONFIGURATION comes twice: at enumeration and after the driver's
 * usb_reset_device(). The endpoints are enabled once; enabling them again
 * would pick a second generic UDC endpoint for the same address (notes 3.3).
 */
static void set_configuration(struct ar9170 *ar, const struct usb_ctrlrequest *r)
{
	int *handles[4] = { &ar->ep_tx, &ar->ep_rx, &ar->ep_irq, &ar->ep_cmd };

	if (r->wValue != 1) {
		ep0_stall(ar, r, "unknown configuration");
		return;
	}
	if (!ar->eps_enabled) {
		for (int n = 0; n < 4; n++) {
			int h = rg_ep_enable(ar->fd, &ep_descs[n]);

			if (h < 0)
				return;
			*handles[n] = h;
			emu_log("EP_ENABLE 0x%02x -> handle %d", ep_descs[n].bEndpointAddress, h);
		}
		ar->eps_enabled = true;
		rg_vbus_draw(ar->fd, 2 * 0xfa);
		rg_configure(ar->fd);
	}
	rg_ep0_read(ar->fd, NULL, 0);
	pthread_mutex_lock(&ar->lock);
	ar->config_gen++;
	pthread_cond_broadcast(&ar->config_cond);
	pthread_mutex_unlock(&ar->lock);
	emu_log("SET_CONFIGURATION 1 (#%u)", ar->config_gen);
}

/*
 * The EP readers start at the first vendor request: by then the probe's
 * port reset is over; queueing during it kills the gadget (notes 3.3).
 */
static void start_io(struct ar9170 *ar)
{
	pthread_t t;

	if (ar->io_started)
		return;
	ar->io_started = true;
	if (pthread_create(&t, NULL, dev_cmd_thread, ar) ||
	    pthread_create(&t, NULL, net_tx_thread, ar) ||
	    pthread_create(&t, NULL, net_beacon_thread, ar))
		emu_log("Error: cannot start the endpoint threads");
}

static void ep0_standard(struct ar9170 *ar, const struct usb_ctrlrequest *r)
{
	uint8_t buf[CONFIG_TOTAL];
	uint8_t zero = 0;

	switch (r->bRequest) {
	case USB_REQ_GET_DESCRIPTOR:
		switch (r->wValue >> 8) {
		case USB_DT_DEVICE:
			ep0_reply(ar, r, &dev_desc, sizeof(dev_desc));
			break;
		case USB_DT_CONFIG:
			ep0_reply(ar, r, buf, config_desc(buf));
			break;
		default:
			/* strings (all indices 0), qualifier, BOS: not present */
			ep0_stall(ar, r, "no such descriptor");
			break;
		}
		break;
	case USB_REQ_SET_CONFIGURATION:
		set_configuration(ar, r);
		break;
	case USB_REQ_GET_CONFIGURATION:
		buf[0] = ar->eps_enabled ? 1 : 0;
		ep0_reply(ar, r, buf, 1);
		break;
	case USB_REQ_GET_INTERFACE:
		ep0_reply(ar, r, &zero, 1);
		break;
	case USB_REQ_SET_INTERFACE:
		if (r->wValue == 0 && r->wIndex == 0)
			rg_ep0_read(ar->fd, NULL, 0);
		else
			ep0_stall(ar, r, "no such alternate setting");
		break;
	default:
		ep0_stall(ar, r, "unknown standard request");
		break;
	}
}

static void ep0_vendor(struct ar9170 *ar, const struct usb_ctrlrequest *r)
{
	static uint8_t chunk[AR9170_FW_CHUNK_MAX];
	int n;

	switch (r->bRequest) {
	case 0x30:	/* FW DL: wValue = address >> 8, data stage = chunk */
		if (r->bRequestType != (USB_DIR_OUT | USB_TYPE_VENDOR | USB_RECIP_DEVICE) ||
		    r->wLength == 0 || r->wLength > sizeof(chunk)) {
			ep0_stall(ar, r, "bad firmware chunk request");
			break;
		}
		start_io(ar);
		dev_fw_request(ar);
		n = rg_ep0_read(ar->fd, chunk, r->wLength);
		if (n < 0)
			break;
		dev_fw_chunk(ar, r->wValue, chunk, (size_t)n);
		break;
	case 0x31:	/* FW DL COMPLETE */
		if (r->bRequestType != (USB_DIR_OUT | USB_TYPE_VENDOR | USB_RECIP_DEVICE) ||
		    r->wLength != 0) {
			ep0_stall(ar, r, "bad firmware complete request");
			break;
		}
		rg_ep0_read(ar->fd, NULL, 0);
		dev_fw_complete(ar);
		break;
	default:
		ep0_stall(ar, r, "unknown vendor request");
		break;
	}
}

static void ep0_loop(struct ar9170 *ar)
{
	struct {
		struct usb_raw_event ev;
		uint8_t data[sizeof(struct usb_ctrlrequest)];
	} e;
	struct usb_ctrlrequest r;

	for (;;) {
		if (rg_event_fetch(ar->fd, &e.ev, sizeof(e.data)) < 0) {
			if (errno == EINTR)
				continue;
			/* the gadget is gone (FAILED state): nothing more to serve */
			return;
		}
		switch (e.ev.type) {
		case USB_RAW_EVENT_CONNECT:
			emu_log("connected");
			break;
		case USB_RAW_EVENT_CONTROL:
			if (e.ev.length < sizeof(r)) {
				emu_log("ep0: short control event (%u bytes), ignored", e.ev.length);
				break;
			}
			memcpy(&r, e.data, sizeof(r));
			switch (r.bRequestType & USB_TYPE_MASK) {
			case USB_TYPE_STANDARD:
				ep0_standard(ar, &r);
				break;
			case USB_TYPE_VENDOR:
				ep0_vendor(ar, &r);
				break;
			default:
				ep0_stall(ar, &r, "class request");
				break;
			}
			break;
		default:
			emu_log("event %u ignored", e.ev.type);
			break;
		}
	}
}

/*
 * The model plays a USB device, which answers in microseconds, and the
 * driver gives some control transfers only 100 ms (carl9170 usb.c, FW DL).
 * In the guest the model shares one vCPU with the checks, and the sanitizer
 * kernel runs several times slower: at normal priority it missed that bound
 * ("firmware upload failed (-110)"). Real-time priority lets it answer as
 * the hardware would; the threads it starts later inherit the policy.
 */
static void realtime(void)
{
	struct sched_param sp = { .sched_priority = 50 };

	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		emu_log("warning: no real-time priority (%s): slow answers may time out",
			strerror(errno));
}

int main(int argc, char **argv)
{
	static struct ar9170 ar;
	const char *config = EMU_DEFAULT_CONFIG, *fault_name = "none";
	int opt;

	ar.statedir = EMU_DEFAULT_STATEDIR;
	while ((opt = getopt(argc, argv, "c:s:f:h")) != -1) {
		switch (opt) {
		case 'c':
			config = optarg;
			break;
		case 's':
			ar.statedir = optarg;
			break;
		case 'f':
			if (fault_parse(optarg, &ar.fault)) {
				fprintf(stderr, "Error: unknown fault '%s'\n", optarg);
				help(2);
			}
			fault_name = optarg;
			break;
		case 'h':
			help(0);
			break;
		default:
			help(2);
		}
	}
	if (optind != argc)
		help(2);

	setvbuf(stderr, NULL, _IOLBF, 0);
	if (config_load(config, &ar.cfg))
		return 1;
	if (mkdir(ar.statedir, 0755) && errno != EEXIST) {
		emu_log("Error: %s: %s", ar.statedir, strerror(errno));
		return 1;
	}
	realtime();
	pthread_mutex_init(&ar.lock, NULL);
	pthread_mutex_init(&ar.rx_lock, NULL);
	pthread_cond_init(&ar.config_cond, NULL);
	dev_reset(&ar);
	armed_ar = &ar;
	{
		/* SA_RESTART: the threads' raw_gadget ioctls go on */
		struct sigaction sa = { .sa_handler = arm, .sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		if (sigaction(SIGUSR1, &sa, NULL)) {
			emu_log("Error: sigaction SIGUSR1: %s", strerror(errno));
			return 1;
		}
	}

	ar.fd = rg_open();
	if (ar.fd < 0)
		return 1;
	if (rg_init(ar.fd, "dummy_udc", "dummy_udc.0", USB_SPEED_HIGH) || rg_run(ar.fd))
		return 1;
	if (ar.fault != FAULT_NONE)
		emu_log("fault injection: %s%s", fault_name,
			ar.fault == FAULT_DISCONNECT_UPLOAD ? "" : " (armed by SIGUSR1)");
	emu_log("AR9170 %04x:%04x on dummy_udc.0, MAC %02x:%02x:%02x:%02x:%02x:%02x, BSS '%s' on channel %u",
		AR9170_VID, AR9170_PID, ar.cfg.mac[0], ar.cfg.mac[1], ar.cfg.mac[2], ar.cfg.mac[3],
		ar.cfg.mac[4], ar.cfg.mac[5], ar.cfg.ssid, ar.cfg.channel);
	ep0_loop(&ar);
	emu_log("the gadget stopped; exiting");
	return 1;
}
