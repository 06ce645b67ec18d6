/* SPDX-License-Identifier: GPL-2.0-only */
/* SPDX-FileCopyrightText: The nonstring-bsp authors */
/*
 * The log line of the device emulators, host side (qemu/magellan-emu) and
 * target side (carl9170-emu): "[SECONDS.MICROSECONDS] PROGRAM: message",
 * on the monotonic clock, flushed at once (a log read while it runs, or
 * after a kill, is whole to its last line).
 */
#ifndef NSBSP_LOG_H
#define NSBSP_LOG_H

#include <stdarg.h>
#include <stdio.h>

void log_vline(FILE *f, const char *program, const char *fmt, va_list ap);

#endif
