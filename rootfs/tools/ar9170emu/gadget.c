// SPDX-License-Identifier: GPL-2.0
/*
 * raw_gadget wrappers: one per ioctl (include/uapi/linux/usb/raw_gadget.h),
 * each naming its ioctl in the error, in the manner of xairy/raw-gadget's
 * examples. They return the ioctl's result or -1 with errno set.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ar9170emu.h"

/* usb_raw_ep_io with room for one data stage. */
struct rg_io {
	struct usb_raw_ep_io io;
	uint8_t data[AR9170_RX_MAX];
};

static int rg_fail(const char *what)
{
	int e = errno;

	emu_log("Error: ioctl %s: %s", what, strerror(e));
	errno = e;
	return -1;
}

int rg_open(void)
{
	int fd = open("/dev/raw-gadget", O_RDWR);

	if (fd < 0)
		emu_log("Error: /dev/raw-gadget: %s (CONFIG_USB_RAW_GADGET?)", strerror(errno));
	return fd;
}

int rg_init(int fd, const char *driver, const char *device, int speed)
{
	struct usb_raw_init arg;

	memset(&arg, 0, sizeof(arg));
	snprintf((char *)arg.driver_name, UDC_NAME_LENGTH_MAX, "%s", driver);
	snprintf((char *)arg.device_name, UDC_NAME_LENGTH_MAX, "%s", device);
	arg.speed = (uint8_t)speed;
	if (ioctl(fd, USB_RAW_IOCTL_INIT, &arg) < 0)
		return rg_fail("USB_RAW_IOCTL_INIT");
	return 0;
}

int rg_run(int fd)
{
	if (ioctl(fd, USB_RAW_IOCTL_RUN, 0) < 0)
		return rg_fail("USB_RAW_IOCTL_RUN");
	return 0;
}

int rg_event_fetch(int fd, struct usb_raw_event *ev, size_t data_max)
{
	ev->type = 0;
	ev->length = (uint32_t)data_max;
	if (ioctl(fd, USB_RAW_IOCTL_EVENT_FETCH, ev) < 0)
		return rg_fail("USB_RAW_IOCTL_EVENT_FETCH");
	return 0;
}

int rg_ep0_write(int fd, const void *data, size_t len)
{
	static struct rg_io b;
	int rv;

	if (len > sizeof(b.data)) {
		errno = EMSGSIZE;
		return rg_fail("USB_RAW_IOCTL_EP0_WRITE");
	}
	b.io.ep = 0;
	b.io.flags = 0;
	b.io.length = (uint32_t)len;
	memcpy(b.data, data, len);
	rv = ioctl(fd, USB_RAW_IOCTL_EP0_WRITE, &b);
	if (rv < 0)
		return rg_fail("USB_RAW_IOCTL_EP0_WRITE");
	return rv;
}

int rg_ep0_read(int fd, void *data, size_t len)
{
	static struct rg_io b;
	int rv;

	if (len > sizeof(b.data)) {
		errno = EMSGSIZE;
		return rg_fail("USB_RAW_IOCTL_EP0_READ");
	}
	b.io.ep = 0;
	b.io.flags = 0;
	b.io.length = (uint32_t)len;
	rv = ioctl(fd, USB_RAW_IOCTL_EP0_READ, &b);
	if (rv < 0)
		return rg_fail("USB_RAW_IOCTL_EP0_READ");
	if (data && rv > 0)
		memcpy(data, b.data, (size_t)rv > len ? len : (size_t)rv);
	return rv;
}

int rg_ep0_stall(int fd)
{
	if (ioctl(fd, USB_RAW_IOCTL_EP0_STALL, 0) < 0)
		return rg_fail("USB_RAW_IOCTL_EP0_STALL");
	return 0;
}

int rg_ep_enable(int fd, const struct usb_endpoint_descriptor *desc)
{
	int rv = ioctl(fd, USB_RAW_IOCTL_EP_ENABLE, desc);

	if (rv < 0)
		return rg_fail("USB_RAW_IOCTL_EP_ENABLE");
	return rv;
}

/* EP I/O runs in several threads: each call has its own buffer. */
int rg_ep_write(int fd, int ep, const void *data, size_t len)
{
	struct rg_io *b;
	int rv;

	if (len > sizeof(b->data)) {
		errno = EMSGSIZE;
		return rg_fail("USB_RAW_IOCTL_EP_WRITE");
	}
	b = malloc(sizeof(*b));
	if (!b)
		return rg_fail("USB_RAW_IOCTL_EP_WRITE (buffer)");
	b->io.ep = (uint16_t)ep;
	b->io.flags = 0;
	b->io.length = (uint32_t)len;
	memcpy(b->data, data, len);
	rv = ioctl(fd, USB_RAW_IOCTL_EP_WRITE, b);
	free(b);
	if (rv < 0)
		return rg_fail("USB_RAW_IOCTL_EP_WRITE");
	return rv;
}

int rg_ep_read(int fd, int ep, void *data, size_t len)
{
	struct rg_io *b;
	int rv, e;

	if (len > sizeof(b->data)) {
		errno = EMSGSIZE;
		return rg_fail("USB_RAW_IOCTL_EP_READ");
	}
	b = malloc(sizeof(*b));
	if (!b)
		return rg_fail("USB_RAW_IOCTL_EP_READ (buffer)");
	b->io.ep = (uint16_t)ep;
	b->io.flags = 0;
	b->io.length = (uint32_t)len;
	rv = ioctl(fd, USB_RAW_IOCTL_EP_READ, b);
	e = errno;
	if (rv > 0)
		memcpy(data, b->data, (size_t)rv > len ? len : (size_t)rv);
	free(b);
	errno = e;
	/* -ESHUTDOWN is the port reset of the driver's probe, not an error. */
	if (rv < 0 && e != ESHUTDOWN)
		return rg_fail("USB_RAW_IOCTL_EP_READ");
	return rv;
}

int rg_configure(int fd)
{
	if (ioctl(fd, USB_RAW_IOCTL_CONFIGURE, 0) < 0)
		return rg_fail("USB_RAW_IOCTL_CONFIGURE");
	return 0;
}

int rg_vbus_draw(int fd, unsigned int ma)
{
	if (ioctl(fd, USB_RAW_IOCTL_VBUS_DRAW, ma) < 0)
		return rg_fail("USB_RAW_IOCTL_VBUS_DRAW");
	return 0;
}
