// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/* Parser of the Magellan scenario file (format: see its header). */
#include "scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN	512
#define WORDS_MAX	16

static int fail(char *err, size_t errsz, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errsz, "line %u: ", line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errsz)
		vsnprintf(err + n, errsz - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int number(const char *s, long min, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 0);
	return errno == 0 && end != s && *end == '\0' && *out >= min && *out <= max ? 0 : -1;
}

int scenario_load(struct scenario *scn, FILE *f, char *err, size_t errsz)
{
	char buf[LINE_MAX_LEN + 2];
	char section[SCN_NAME_MAX] = "";
	struct scn_junk pending[SCN_JUNK_MAX];
	unsigned int npending = 0, line = 0, in_section = 0;
	unsigned long flood = 0;
	int have_buttons = 0;

	memset(scn, 0, sizeof(*scn));
	while (fgets(buf, sizeof(buf), f)) {
		char *word[WORDS_MAX], *save = NULL, *w;
		int nw = 0;
		long v;

		line++;
		if (!strchr(buf, '\n') && !feof(f))
			return fail(err, errsz, line, "longer than %d bytes", LINE_MAX_LEN);
		for (w = strtok_r(buf, " \t\r\n", &save); w && nw < WORDS_MAX;
		     w = strtok_r(NULL, " \t\r\n", &save)) {
			if (w[0] == '#')
				break;
			word[nw++] = w;
		}
		if (nw == 0)
			continue;
		if (w && w[0] != '#')
			return fail(err, errsz, line, "more than %d words", WORDS_MAX);

		if (strcmp(word[0], "name") == 0) {
			/* The rest of the line, as written. */
			size_t n = 0;

			if (nw < 2)
				return fail(err, errsz, line, "name takes the device's name");
			for (int i = 1; i < nw; i++)
				n += (size_t)snprintf(scn->device_name + n, sizeof(scn->device_name) - n,
						      "%s%s", i > 1 ? " " : "", word[i]);
			if (n >= sizeof(scn->device_name))
				return fail(err, errsz, line, "name longer than %zu bytes",
					    sizeof(scn->device_name) - 1);
		} else if (strcmp(word[0], "axes") == 0) {
			if (nw - 1 != MAGELLAN_AXES)
				return fail(err, errsz, line, "axes takes %d names", MAGELLAN_AXES);
			for (int i = 1; i < nw; i++)
				snprintf(scn->axis_names[i - 1], SCN_NAME_MAX, "%s", word[i]);
			scn->naxes = MAGELLAN_AXES;
		} else if (strcmp(word[0], "range") == 0) {
			long lo, hi;

			if (nw != 3 || number(word[1], INT_MIN, INT_MAX, &lo) ||
			    number(word[2], INT_MIN, INT_MAX, &hi) || lo > hi)
				return fail(err, errsz, line, "range takes MIN MAX");
			scn->range_min = (int)lo;
			scn->range_max = (int)hi;
		} else if (strcmp(word[0], "seed") == 0) {
			if (nw != 2 || number(word[1], 0, UINT32_MAX, &v))
				return fail(err, errsz, line, "seed takes one number");
			scn->seed = (uint32_t)v;
		} else if (strcmp(word[0], "buttons") == 0) {
			if (nw - 1 > MAGELLAN_BUTTONS || nw < 2)
				return fail(err, errsz, line, "1 to %d buttons", MAGELLAN_BUTTONS);
			for (int i = 1; i < nw; i++)
				snprintf(scn->button_names[i - 1], SCN_NAME_MAX, "%s", word[i]);
			scn->nbuttons = (unsigned int)nw - 1;
			have_buttons = 1;
		} else if (strcmp(word[0], "section") == 0) {
			if (nw != 2 || strlen(word[1]) >= SCN_NAME_MAX)
				return fail(err, errsz, line, "section takes one short name");
			if (npending || flood)
				return fail(err, errsz, line, "junk with no packet after it");
			snprintf(section, sizeof(section), "%s", word[1]);
			in_section = 0;
			for (unsigned int i = 0; i < scn->nitems; i++)
				if (strcmp(scn->item[i].section, section) == 0)
					return fail(err, errsz, line, "section %s again", section);
		} else if (strcmp(word[0], "junk") == 0) {
			int kind = nw == 3 ? magellan_junk_kind(word[1]) : -1;
			long max = kind == MAGELLAN_JUNK_RANDOM ? SCN_JUNK_BYTES : SCN_JUNK_PACKETS;

			if (kind < 0)
				return fail(err, errsz, line, "junk random|overlong|badnibble|truncated N");
			if (number(word[2], 1, max, &v))
				return fail(err, errsz, line, "junk count must be 1..%ld", max);
			if (flood)
				return fail(err, errsz, line, "junk and a flood before the same packet");
			if (npending == SCN_JUNK_MAX)
				return fail(err, errsz, line, "more than %d junk lines in a row", SCN_JUNK_MAX);
			pending[npending].kind = kind;
			pending[npending++].count = (unsigned int)v;
		} else if (strcmp(word[0], "flood") == 0) {
			/* Streamed by the emulator, not queued: it can be large. */
			if (nw != 2 || number(word[1], 1, SCN_FLOOD_MAX, &v))
				return fail(err, errsz, line, "flood takes one count, 1..%d",
					    SCN_FLOOD_MAX);
			if (npending || flood)
				return fail(err, errsz, line, "junk and a flood before the same packet");
			flood = (unsigned long)v;
		} else if (strcmp(word[0], "d") == 0 || strcmp(word[0], "k") == 0) {
			struct scn_item *it;

			if (!section[0])
				return fail(err, errsz, line, "packet before the first section");
			if (scn->nitems == SCN_ITEMS_MAX)
				return fail(err, errsz, line, "more than %d packets", SCN_ITEMS_MAX);
			it = &scn->item[scn->nitems];
			memset(it, 0, sizeof(*it));
			snprintf(it->section, sizeof(it->section), "%s", section);
			it->index = in_section;
			it->type = word[0][0];
			it->line = line;
			if (it->type == 'd') {
				if (nw != 1 + MAGELLAN_AXES)
					return fail(err, errsz, line, "d takes %d values", MAGELLAN_AXES);
				for (int i = 0; i < MAGELLAN_AXES; i++) {
					if (number(word[1 + i], MAGELLAN_AXIS_MIN, MAGELLAN_AXIS_MAX, &v))
						return fail(err, errsz, line, "axis value '%s' not in %d..%d",
							    word[1 + i], MAGELLAN_AXIS_MIN, MAGELLAN_AXIS_MAX);
					it->axis[i] = (int)v;
				}
			} else {
				if (!have_buttons)
					return fail(err, errsz, line, "k before the buttons line");
				if (nw == 2 && strcmp(word[1], "-") == 0)
					nw = 1;	/* no button held */
				for (int i = 1; i < nw; i++) {
					unsigned int b;

					for (b = 0; b < scn->nbuttons; b++)
						if (strcmp(word[i], scn->button_names[b]) == 0)
							break;
					if (b == scn->nbuttons)
						return fail(err, errsz, line, "unknown button '%s'", word[i]);
					it->buttons |= 1u << b;
				}
			}
			memcpy(it->junk, pending, sizeof(pending));
			it->njunk = npending;
			it->flood = flood;
			npending = 0;
			flood = 0;
			in_section++;
			scn->nitems++;
		} else {
			return fail(err, errsz, line, "unknown keyword '%s'", word[0]);
		}
	}
	if (ferror(f))
		return fail(err, errsz, line, "read error: %s", strerror(errno));
	if (npending || flood)
		return fail(err, errsz, line, "junk at the end with no packet after it");
	if (scn->nitems == 0)
		return fail(err, errsz, line, "no packets");
	return 0;
}

const struct scn_item *scenario_find(const struct scenario *scn, const char *section,
				     unsigned int index)
{
	for (unsigned int i = 0; i < scn->nitems; i++)
		if (scn->item[i].index == index && strcmp(scn->item[i].section, section) == 0)
			return &scn->item[i];
	return NULL;
}

void scenario_describe(const struct scenario *scn, char type, const int axis[MAGELLAN_AXES],
		       unsigned int buttons, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "%c", type);

	for (unsigned int i = 0; type == 'd' && i < MAGELLAN_AXES && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, " %d", axis[i]);
	for (unsigned int b = 0; type == 'k' && b < scn->nbuttons && n < size; b++)
		if (buttons & (1u << b))
			n += (size_t)snprintf(out + n, size - n, " %s", scn->button_names[b]);
	if (type == 'k' && !buttons && n < size)
		snprintf(out + n, size - n, " -");
}
