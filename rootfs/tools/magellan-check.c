// SPDX-License-Identifier: GPL-2.0
/*
 * magellan-check: the on-target half of the Magellan checks
 * (rootfs/checks/40-magellan.sh).
 *
 *   magellan-check caps EVDEV
 *       print the input device's name, axes (with their range) and keys
 *   magellan-check status CONTROL
 *       print the host emulator's status line (init strings it received,
 *       bytes it wrote to the line, its flood seed)
 *   magellan-check icount TTY
 *       print the UART's counters (TIOCGICOUNT): bytes received and the
 *       ones lost to overruns, so the checks count what reached the guest
 *   magellan-check play SCENARIO SECTION EVDEV CONTROL
 *       for each packet of SECTION in the scenario file: ask the host
 *       emulator over the control port to send it (with the junk before
 *       it), wait for its evdev report, and compare the device's state
 *       with the scenario's values. The request is the synchronisation:
 *       the host sends a packet only once the input device exists and the
 *       previous packet was seen, so nothing is dropped or overrun.
 *
 * The scenario is parsed here on its own (not with the host's parser):
 * only "axes", "buttons", "section", "flood", "d" and "k" lines matter.
 * Exit status: 0 pass, 1 fail (the reason on stdout), 2 usage or setup.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <linux/serial.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define AXES		6
#define KEYS_MAX	16
#define ITEMS_MAX	1024
#define REPLY_MS	10000	/* the host answers a request */
#define EVENT_MS	10000	/* the packet's report arrives after the answer */
#define FLOOD_BYTES_PER_MS 5	/* slowest flood the answer may take (measured: ~100) */
#define LINE_MAX_LEN	512

static const struct {
	const char *name;
	unsigned int type, code;
} codes[] = {
	{ "ABS_X", EV_ABS, ABS_X }, { "ABS_Y", EV_ABS, ABS_Y }, { "ABS_Z", EV_ABS, ABS_Z },
	{ "ABS_RX", EV_ABS, ABS_RX }, { "ABS_RY", EV_ABS, ABS_RY }, { "ABS_RZ", EV_ABS, ABS_RZ },
	{ "BTN_0", EV_KEY, BTN_0 }, { "BTN_1", EV_KEY, BTN_1 }, { "BTN_2", EV_KEY, BTN_2 },
	{ "BTN_3", EV_KEY, BTN_3 }, { "BTN_4", EV_KEY, BTN_4 }, { "BTN_5", EV_KEY, BTN_5 },
	{ "BTN_6", EV_KEY, BTN_6 }, { "BTN_7", EV_KEY, BTN_7 }, { "BTN_8", EV_KEY, BTN_8 },
	{ "BTN_9", EV_KEY, BTN_9 },
};

struct item {
	char type;
	int axis[AXES];
	unsigned int keys;	/* bit i: the i-th key of the buttons line */
	unsigned long flood;	/* bytes of the flood before it: the answer takes longer */
	unsigned int line;
};

static unsigned int axis_code[AXES], naxes;
static unsigned int key_code[KEYS_MAX], nkeys;
static char key_name[KEYS_MAX][16];
static struct item items[ITEMS_MAX];
static unsigned int nitems;

static void usage(void)
{
	fprintf(stderr, "usage: magellan-check caps EVDEV\n"
			"       magellan-check status CONTROL\n"
			"       magellan-check icount TTY\n"
			"       magellan-check play SCENARIO SECTION EVDEV CONTROL\n");
	exit(2);
}

static const char *name_of(unsigned int type, unsigned int code)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].type == type && codes[i].code == code)
			return codes[i].name;
	return NULL;
}

static int code_of(const char *name, unsigned int type, unsigned int *code)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].type == type && strcmp(codes[i].name, name) == 0) {
			*code = codes[i].code;
			return 0;
		}
	return -1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int test_bit(const unsigned long *bits, unsigned int n)
{
	return (bits[n / (8 * sizeof(long))] >> (n % (8 * sizeof(long)))) & 1;
}

static int caps(const char *node)
{
	unsigned long absbits[ABS_CNT / (8 * sizeof(long)) + 1] = { 0 };
	unsigned long keybits[KEY_CNT / (8 * sizeof(long)) + 1] = { 0 };
	char name[256] = "";
	int fd = open(node, O_RDONLY);

	if (fd < 0) {
		printf("%s: %s\n", node, strerror(errno));
		return 1;
	}
	if (ioctl(fd, EVIOCGNAME(sizeof(name)), name) < 0 ||
	    ioctl(fd, EVIOCGBIT(EV_ABS, sizeof(absbits)), absbits) < 0 ||
	    ioctl(fd, EVIOCGBIT(EV_KEY, sizeof(keybits)), keybits) < 0) {
		printf("%s: EVIOCG*: %s\n", node, strerror(errno));
		close(fd);
		return 1;
	}
	printf("name %s\naxes", name);
	for (unsigned int c = 0; c < ABS_CNT; c++)
		if (test_bit(absbits, c))
			printf(" %s", name_of(EV_ABS, c) ? name_of(EV_ABS, c) : "ABS_?");
	printf("\nbuttons");
	for (unsigned int c = 0; c < KEY_CNT; c++)
		if (test_bit(keybits, c))
			printf(" %s", name_of(EV_KEY, c) ? name_of(EV_KEY, c) : "KEY_?");
	printf("\n");
	for (unsigned int c = 0; c < ABS_CNT; c++) {
		struct input_absinfo ai;

		if (test_bit(absbits, c) && ioctl(fd, EVIOCGABS(c), &ai) == 0)
			printf("range %s %d %d\n", name_of(EV_ABS, c) ? name_of(EV_ABS, c) : "ABS_?",
			       ai.minimum, ai.maximum);
	}
	close(fd);
	return 0;
}

/* Read one line from the control port within ms; 0 ok, -1 timeout/error. */
static int ctl_line(int fd, char *line, size_t size, int ms)
{
	size_t len = 0;
	long long end = now_ms() + ms;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = end - now_ms();
		char c;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -1;
		ssize_t n = read(fd, &c, 1);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return -1;
		if (c == '\n') {
			line[len] = '\0';
			return 0;
		}
		if (len < size - 1)
			line[len++] = c;
	}
}

static int ctl_send(int fd, const char *req)
{
	size_t n = strlen(req);

	return write(fd, req, n) == (ssize_t)n ? 0 : -1;
}

static int status(const char *ctl_path)
{
	char line[LINE_MAX_LEN];
	int fd = open(ctl_path, O_RDWR | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		printf("%s: %s\n", ctl_path, strerror(errno));
		return 1;
	}
	if (ctl_send(fd, "status\n") < 0 || ctl_line(fd, line, sizeof(line), REPLY_MS) < 0) {
		printf("%s: no answer from the host emulator within %d ms\n", ctl_path, REPLY_MS);
		close(fd);
		return 1;
	}
	printf("%s\n", line);
	close(fd);
	return 0;
}

static int icount(const char *tty)
{
	struct serial_icounter_struct ic;
	/* Another open of the attached line: it leaves the ldisc alone. */
	int fd = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		printf("%s: %s\n", tty, strerror(errno));
		return 1;
	}
	if (ioctl(fd, TIOCGICOUNT, &ic) < 0) {
		printf("%s: TIOCGICOUNT: %s\n", tty, strerror(errno));
		close(fd);
		return 1;
	}
	printf("rx=%d overrun=%d buf_overrun=%d frame=%d parity=%d brk=%d\n", ic.rx, ic.overrun,
	       ic.buf_overrun, ic.frame, ic.parity, ic.brk);
	close(fd);
	return 0;
}

static int load(const char *path, const char *section)
{
	char buf[LINE_MAX_LEN], current[64] = "";
	unsigned int line = 0;
	unsigned long flood = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("%s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *w[16], *save = NULL, *t;
		int nw = 0;

		line++;
		for (t = strtok_r(buf, " \t\r\n", &save); t && t[0] != '#' && nw < 16;
		     t = strtok_r(NULL, " \t\r\n", &save))
			w[nw++] = t;
		if (nw == 0)
			continue;
		if (strcmp(w[0], "axes") == 0) {
			for (naxes = 0; (int)naxes < nw - 1 && naxes < AXES; naxes++)
				if (code_of(w[naxes + 1], EV_ABS, &axis_code[naxes]) < 0)
					goto bad;
			if (naxes != AXES || nw - 1 != AXES)
				goto bad;
		} else if (strcmp(w[0], "buttons") == 0) {
			for (nkeys = 0; (int)nkeys < nw - 1 && nkeys < KEYS_MAX; nkeys++) {
				if (code_of(w[nkeys + 1], EV_KEY, &key_code[nkeys]) < 0)
					goto bad;
				snprintf(key_name[nkeys], sizeof(key_name[0]), "%s", w[nkeys + 1]);
			}
		} else if (strcmp(w[0], "section") == 0 && nw == 2) {
			snprintf(current, sizeof(current), "%s", w[1]);
		} else if (strcmp(w[0], "flood") == 0 && nw == 2 && strcmp(current, section) == 0) {
			flood = strtoul(w[1], NULL, 10);
		} else if ((strcmp(w[0], "d") == 0 || strcmp(w[0], "k") == 0) &&
			   strcmp(current, section) == 0) {
			struct item *it = &items[nitems];

			if (nitems == ITEMS_MAX)
				goto bad;
			memset(it, 0, sizeof(*it));
			it->type = w[0][0];
			it->line = line;
			it->flood = flood;
			flood = 0;
			if (it->type == 'd') {
				if (nw != 1 + AXES || !naxes)
					goto bad;
				for (int i = 0; i < AXES; i++) {
					char *end;

					it->axis[i] = (int)strtol(w[1 + i], &end, 0);
					if (*end)
						goto bad;
				}
			} else {
				for (int i = 1; i < nw && strcmp(w[i], "-") != 0; i++) {
					unsigned int k;

					for (k = 0; k < nkeys && strcmp(w[i], key_name[k]) != 0; k++)
						;
					if (k == nkeys)
						goto bad;
					it->keys |= 1u << k;
				}
			}
			nitems++;
		}
	}
	fclose(f);
	if (nitems == 0) {
		printf("%s: no packets in section %s\n", path, section);
		return -1;
	}
	return 0;
bad:
	printf("%s:%u: cannot read this line\n", path, line);
	fclose(f);
	return -1;
}

struct state {
	int axis[AXES];
	unsigned int keys;
};

static void describe(const struct state *s, char type, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "%c", type);

	for (unsigned int i = 0; type == 'd' && i < AXES && n < size; i++)
		n += (size_t)snprintf(out + n, size - n, " %d", s->axis[i]);
	for (unsigned int k = 0; type == 'k' && k < nkeys && n < size; k++)
		if (s->keys & (1u << k))
			n += (size_t)snprintf(out + n, size - n, " %s", key_name[k]);
	if (type == 'k' && !s->keys && n < size)
		snprintf(out + n, size - n, " -");
}

static int read_state(int fd, struct state *s)
{
	unsigned long keybits[KEY_CNT / (8 * sizeof(long)) + 1] = { 0 };

	for (unsigned int i = 0; i < AXES; i++) {
		struct input_absinfo ai;

		if (ioctl(fd, EVIOCGABS(axis_code[i]), &ai) < 0)
			return -1;
		s->axis[i] = ai.value;
	}
	if (ioctl(fd, EVIOCGKEY(sizeof(keybits)), keybits) < 0)
		return -1;
	s->keys = 0;
	for (unsigned int k = 0; k < nkeys; k++)
		if (test_bit(keybits, key_code[k]))
			s->keys |= 1u << k;
	return 0;
}

/* Apply events until a SYN_REPORT; 0 on a report, -1 with the reason. */
static int next_report(int fd, struct state *s, int ms, char *why, size_t size)
{
	long long end = now_ms() + ms;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct input_event ev;
		long long left = end - now_ms();

		if (left <= 0 || poll(&p, 1, (int)left) <= 0) {
			snprintf(why, size, "no evdev report within %d ms", ms);
			return -1;
		}
		ssize_t n = read(fd, &ev, sizeof(ev));

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n != (ssize_t)sizeof(ev)) {
			snprintf(why, size, "evdev read: %s", n < 0 ? strerror(errno) : "short");
			return -1;
		}
		if (ev.type == EV_SYN && ev.code == SYN_REPORT)
			return 0;
		if (ev.type == EV_SYN && ev.code == SYN_DROPPED) {
			snprintf(why, size, "SYN_DROPPED: evdev's buffer overran");
			return -1;
		}
		int known = 0;

		for (unsigned int i = 0; ev.type == EV_ABS && i < AXES; i++)
			if (axis_code[i] == ev.code) {
				s->axis[i] = ev.value;
				known = 1;
			}
		for (unsigned int k = 0; ev.type == EV_KEY && k < nkeys; k++)
			if (key_code[k] == ev.code) {
				s->keys = ev.value ? s->keys | (1u << k) : s->keys & ~(1u << k);
				known = 1;
			}
		if (!known) {
			snprintf(why, size, "unexpected event type %u code %u value %d", ev.type,
				 ev.code, ev.value);
			return -1;
		}
	}
}

static int play(const char *scn, const char *section, const char *node, const char *ctl_path)
{
	struct state cur, want;
	char req[96], line[LINE_MAX_LEN], desc[LINE_MAX_LEN], got[LINE_MAX_LEN], why[128];
	unsigned long long junk_total = 0;
	unsigned int nd = 0, nk = 0;
	int ev, ctl;

	if (load(scn, section) < 0)
		return 1;
	ev = open(node, O_RDONLY | O_NONBLOCK);
	if (ev < 0 || read_state(ev, &cur) < 0) {
		printf("%s: %s\n", node, strerror(errno));
		return 1;
	}
	ctl = open(ctl_path, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (ctl < 0) {
		printf("%s: %s\n", ctl_path, strerror(errno));
		return 1;
	}
	for (unsigned int i = 0; i < nitems; i++) {
		const struct item *it = &items[i];
		char prefix[96];
		unsigned long long junk;

		want = cur;
		if (it->type == 'd')
			memcpy(want.axis, it->axis, sizeof(want.axis));
		else
			want.keys = it->keys;
		describe(&want, it->type, desc, sizeof(desc));
		if (memcmp(&want, &cur, sizeof(want)) == 0) {
			printf("packet %u (%s line %u, %s) would not change the device state, so its\n"
			       "arrival cannot be seen: the scenario must change something each time\n",
			       i, scn, it->line, desc);
			return 1;
		}
		snprintf(req, sizeof(req), "send %s %u\n", section, i);
		int reply_ms = REPLY_MS + (int)(it->flood / FLOOD_BYTES_PER_MS);

		if (ctl_send(ctl, req) < 0 || ctl_line(ctl, line, sizeof(line), reply_ms) < 0) {
			printf("packet %u (line %u): no answer from the host emulator within %d ms\n", i,
			       it->line, reply_ms);
			return 1;
		}
		/* "sent SECTION I junk=N DESC": the host read the same packet. */
		snprintf(prefix, sizeof(prefix), "sent %s %u junk=", section, i);
		char *rest = strncmp(line, prefix, strlen(prefix)) == 0 ? line + strlen(prefix) : NULL;

		if (!rest || sscanf(rest, "%llu", &junk) != 1 || !strchr(rest, ' ') ||
		    strcmp(strchr(rest, ' ') + 1, desc) != 0) {
			printf("packet %u (line %u): the host answered '%s', expected '%s...%s'\n", i,
			       it->line, line, prefix, desc);
			return 1;
		}
		junk_total += junk;
		if (next_report(ev, &cur, EVENT_MS, why, sizeof(why)) < 0) {
			printf("packet %u (%s line %u, %s, after %llu junk bytes): %s\n", i, scn,
			       it->line, desc, junk, why);
			return 1;
		}
		describe(&cur, it->type, got, sizeof(got));
		if (memcmp(&want, &cur, sizeof(want)) != 0) {
			char all[LINE_MAX_LEN];

			describe(&cur, it->type == 'd' ? 'k' : 'd', all, sizeof(all));
			printf("packet %u (%s line %u, after %llu junk bytes): evdev reports '%s' (%s),\n"
			       "the scenario says '%s'\n",
			       i, scn, it->line, junk, got, all, desc);
			return 1;
		}
		nd += it->type == 'd';
		nk += it->type == 'k';
	}
	printf("section %s: %u packets (%u d, %u k) reported as the scenario says, in order; "
	       "junk %llu bytes\n", section, nitems, nd, nk, junk_total);
	close(ctl);
	close(ev);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && strcmp(argv[1], "caps") == 0)
		return caps(argv[2]);
	if (argc == 3 && strcmp(argv[1], "status") == 0)
		return status(argv[2]);
	if (argc == 3 && strcmp(argv[1], "icount") == 0)
		return icount(argv[2]);
	if (argc == 6 && strcmp(argv[1], "play") == 0)
		return play(argv[2], argv[3], argv[4], argv[5]);
	usage();
	return 2;
}
