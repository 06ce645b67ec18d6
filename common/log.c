// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/* The device emulators' log line (log.h). */
#include "log.h"

#include <time.h>

void log_vline(FILE *f, const char *program, const char *fmt, va_list ap)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	fprintf(f, "[%5ld.%06ld] %s: ", (long)ts.tv_sec, ts.tv_nsec / 1000, program);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
}
