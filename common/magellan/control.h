/* SPDX-License-Identifier: GPL-2.0-only */
/* SPDX-FileCopyrightText: The nonstring-bsp authors */
/*
 * The Magellan checks' control port: a virtio console port named
 * "magellan-ctl" between the on-target check (magellan-check) and the host
 * emulator (qemu/magellan-emu). The check asks, a line each; the emulator
 * answers a line each:
 *   status              -> status inits=N bad=N written=N flood_seed=N flood_fnv=X rx=BYTES
 *   send SECTION INDEX  -> sent SECTION INDEX junk=N DESC
 * "sent" comes once the packet (and the junk or flood before it) left for
 * the UART; DESC is the packet as scenario_describe() writes it, so the
 * check sees that both read the same packet. An unknown request gets
 * "error REASON".
 */
#ifndef NSBSP_MAGELLAN_CONTROL_H
#define NSBSP_MAGELLAN_CONTROL_H

#define MAGELLAN_CTL_PORT	"magellan-ctl"	/* its name, and the chardev's id */
#define MAGELLAN_CTL_STATUS	"status"
#define MAGELLAN_CTL_SEND	"send"
#define MAGELLAN_CTL_SENT	"sent"
#define MAGELLAN_CTL_ERROR	"error"
#define MAGELLAN_CTL_LINE_MAX	512	/* the longest line either side writes */

#endif
