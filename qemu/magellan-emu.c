// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * magellan-emu: plays a Magellan / SpaceMouse on the host end of the
 * board's second serial port (a QEMU pty chardev), from a scenario file.
 *
 * It finds QEMU's ptys through QMP (query-chardev), waits for the init
 * string the attach tool sends, and then sends packets:
 *   --control   one packet (with the junk or flood before it) per request
 *               of the on-target checks, which come over a second chardev
 *               (a virtio console port): the guest asks only once its input
 *               device exists, since serport drops bytes before that. A
 *               flood is streamed as fast as the pty takes it, from a
 *               generator seeded with --flood-seed (default: a fresh seed
 *               each run, in the log and in the "status" answer);
 *   --demo RATE the scenario's packets in a loop, RATE per second (make qemu).
 * It leaves with QEMU: when the QMP socket or a pty closes, when its parent
 * dies (PR_SET_PDEATHSIG), or on SIGTERM/SIGINT/SIGHUP. Odd input from the
 * guest is logged and survived. The protocol model is common/magellan/.
 *
 * Its standard output is for whoever started it (qemu/devices/magellan.sh),
 * one line each:
 *   ready pid=PID line=PTY [control=PTY]   it found QEMU's ptys and plays
 *   exit REASON                            it leaves (why, in words)
 * The log (stderr or --log) is for people.
 *
 * Exit status: 0 QEMU went away or a signal; 1 usage; 2 setup failed
 * (scenario, QMP, pty).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "log.h"
#include "magellan.h"
#include "scenario.h"

#define LABEL_LINE	"magellan"	/* chardev of the SpaceMouse port (qemu/run.sh) */
#define LABEL_CONTROL	MAGELLAN_CTL_PORT	/* chardev of the checks' control port */
#define OUTQ_SIZE	16384		/* bytes queued towards the guest's UART */
#define CTL_LINE_MAX	128		/* one request of the checks */
#define CTL_OUT_MAX	512		/* replies queued towards the guest */
#define RX_LOG_MAX	64		/* device-side bytes kept for "status" */
#define QMP_BUF		65536

static FILE *logfp;
static volatile sig_atomic_t stop_signal;

static void logmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline(logfp, "magellan-emu", fmt, ap);
	va_end(ap);
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void help(int status)
{
	fprintf(stderr,
		"Usage: magellan-emu --qmp SOCKET --scenario FILE [--control | --demo RATE]\n"
		"                    [--log FILE] [--wait SECONDS] [--flood-seed N]\n"
		"  --qmp SOCKET     QEMU's QMP socket (-qmp unix:SOCKET,server=on,wait=off);\n"
		"                   chardev '" LABEL_LINE "' is the SpaceMouse port\n"
		"  --scenario FILE  the packets to send (common/magellan/magellan.scenario)\n"
		"  --control        send what the checks ask for on chardev '" LABEL_CONTROL "'\n"
		"  --demo RATE      after each init string, send the scenario's packets in a\n"
		"                   loop, RATE per second\n"
		"  --log FILE       log here instead of stderr\n"
		"  --wait SECONDS   how long to wait for QEMU's QMP socket (default 30)\n"
		"  --flood-seed N   seed of the scenario's floods, 0..4294967295 (default: a\n"
		"                   fresh one each run; the checks print it)\n"
		"Exit status: 0 QEMU went away or a signal, 1 usage, 2 setup failed.\n");
	exit(status);
}

/* ---- byte queue (bounded) ------------------------------------------------ */

struct queue {
	char *buf;
	size_t size, head, len;		/* ring buffer */
	unsigned long long written;	/* bytes ever taken out */
};

static size_t queue_room(const struct queue *q)
{
	return q->size - q->len;
}

static int queue_put(struct queue *q, const char *p, size_t n)
{
	if (n > queue_room(q))
		return -1;
	for (size_t i = 0; i < n; i++)
		q->buf[(q->head + q->len + i) % q->size] = p[i];
	q->len += n;
	return 0;
}

/* Write as much as the fd takes now; -1 on a closed or broken fd. */
static int queue_flush(struct queue *q, int fd)
{
	while (q->len) {
		size_t chunk = q->size - q->head < q->len ? q->size - q->head : q->len;
		ssize_t n = write(fd, q->buf + q->head, chunk);

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		q->head = (q->head + (size_t)n) % q->size;
		q->len -= (size_t)n;
		q->written += (unsigned long long)n;
	}
	return 0;
}

/* ---- QMP: find the ptys of our chardevs ----------------------------------- */

static int qmp_connect(const char *path, int wait_s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timespec start, now;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "Error: %s: QMP socket path longer than %zu bytes\n", path,
			sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0) {
			fprintf(stderr, "Error: socket: %s\n", strerror(errno));
			return -1;
		}
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		close(fd);
		if (errno != ENOENT && errno != ECONNREFUSED) {
			fprintf(stderr, "Error: %s: %s\n", path, strerror(errno));
			return -1;
		}
		/* QEMU has not created it yet: poll for it, with a bound. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= wait_s || stop_signal) {
			fprintf(stderr, "Error: %s: no QEMU QMP socket after %d s: %s\n", path,
				wait_s, strerror(errno));
			return -1;
		}
		poll(NULL, 0, 50);
	}
}

/* Read QMP lines until one contains "return" or "error"; it is left in buf. */
static int qmp_reply(int fd, char *buf, size_t size)
{
	size_t len = 0;

	for (;;) {
		char *nl;
		struct pollfd p = { .fd = fd, .events = POLLIN };

		while ((nl = memchr(buf, '\n', len))) {
			size_t line = (size_t)(nl - buf) + 1;

			*nl = '\0';
			if (strstr(buf, "\"return\"") || strstr(buf, "\"error\""))
				return strstr(buf, "\"return\"") ? 0 : -1;
			memmove(buf, nl + 1, len - line);	/* greeting or event */
			len -= line;
		}
		if (len >= size - 1)
			return -1;			/* a line longer than the buffer */
		if (poll(&p, 1, 10000) <= 0)
			return -1;
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n <= 0)
			return -1;
		len += (size_t)n;
		buf[len] = '\0';
	}
}

static int qmp_command(int fd, const char *cmd, char *buf, size_t size)
{
	size_t n = strlen(cmd);

	if (write(fd, cmd, n) != (ssize_t)n)
		return -1;
	return qmp_reply(fd, buf, size);
}

/*
 * In the query-chardev reply, find {..."label": "LABEL"...} and copy the
 * path of its "filename": "pty:PATH" to out. The objects hold no braces.
 */
static int qmp_pty_of(const char *reply, const char *label, char *out, size_t size)
{
	char want[64];
	const char *p = reply;

	snprintf(want, sizeof(want), "\"label\": \"%s\"", label);
	while ((p = strchr(p, '{'))) {
		const char *end = strchr(p, '}');
		const char *f;

		if (!end)
			break;
		f = strstr(p, "\"filename\": \"pty:");
		const char *l = strstr(p, want);

		if (l && l < end && f && f < end) {
			const char *path = f + strlen("\"filename\": \"pty:");
			const char *q = strchr(path, '"');

			if (!q || q > end || (size_t)(q - path) >= size)
				return -1;
			memcpy(out, path, (size_t)(q - path));
			out[q - path] = '\0';
			return 0;
		}
		p = end;
	}
	return -1;
}

static int open_pty(const char *path)
{
	struct termios t;
	int fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "Error: %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* QEMU sets its pty raw already; a '\n' added by ONLCR would lose packets. */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/* ---- the emulated device -------------------------------------------------- */

struct emu {
	struct scenario *scn;
	struct magellan_rx rx;
	struct magellan_rng rng;
	struct queue out;		/* towards the UART */
	char rx_log[RX_LOG_MAX + 1];	/* device-side bytes since the last status */
	size_t rx_log_len;
	unsigned int bad_cmds;
	/* control channel */
	char ctl_raw[CTL_LINE_MAX];	/* bytes read, not yet parsed */
	size_t ctl_raw_len;
	char ctl_in[CTL_LINE_MAX];	/* the request being parsed */
	size_t ctl_in_len;
	int ctl_overflow;
	char ctl_out[CTL_OUT_MAX];
	size_t ctl_out_len;
	char pending_reply[CTL_LINE_MAX * 2];	/* sent once the packet left */
	unsigned long long pending_at;
	int request_waiting;		/* a complete request waits for queue room */
	char request[CTL_LINE_MAX];
	unsigned long long junk_total;
	/* flood: streamed into the queue as the pty takes it, then its packet */
	uint32_t flood_seed;
	struct magellan_flood flood;
	const struct scn_item *flood_item;	/* the packet after the flood under way */
	long long flood_start_ms;
	/* demo */
	unsigned int demo_next;
};

/* Data bytes in one USB packet of QEMU's usb-serial (64, less 2 of modem status). */
#define CTL_USB_SERIAL_DATA 62

static void ctl_reply(struct emu *e, const char *fmt, ...)
{
	char line[CTL_LINE_MAX * 2];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 3)
		n = (int)sizeof(line) - 3;
	/*
	 * On the Pi 3 the control port is QEMU's FTDI adapter (usb-serial):
	 * 62 bytes of data per 64-byte USB packet, and unlike a real FTDI it
	 * sends no status packet while idle. A reply that fills its last
	 * packet leaves the guest's read URB waiting for a short one that
	 * never comes, so such a reply gets a CR before its LF (the guest
	 * drops it: magellan-check's ctl_line).
	 */
	if ((n + 1) % CTL_USB_SERIAL_DATA == 0)
		line[n++] = '\r';
	line[n++] = '\n';
	if ((size_t)n > sizeof(e->ctl_out) - e->ctl_out_len) {
		logmsg("control: reply dropped, the guest is not reading");
		return;
	}
	memcpy(e->ctl_out + e->ctl_out_len, line, (size_t)n);
	e->ctl_out_len += (size_t)n;
}

static void rx_log_add(struct emu *e, unsigned char c)
{
	char esc[5];
	size_t n;

	if (c == '\r')
		n = (size_t)snprintf(esc, sizeof(esc), "\\r");
	else if (c < 0x20 || c >= 0x7f || c == '\\' || c == ' ')
		n = (size_t)snprintf(esc, sizeof(esc), "\\x%02x", c);
	else
		n = (size_t)snprintf(esc, sizeof(esc), "%c", c);
	if (e->rx_log_len + n > RX_LOG_MAX)
		return;		/* keep the first bytes; status says how many came */
	memcpy(e->rx_log + e->rx_log_len, esc, n);
	e->rx_log_len += n;
	e->rx_log[e->rx_log_len] = '\0';
}

/* Bytes the guest's UART transmitted: the attach tool's commands. */
static void device_rx(struct emu *e, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rx_log_add(e, p[i]);
		switch (magellan_rx_byte(&e->rx, p[i])) {
		case MAGELLAN_RX_MORE:
			break;
		case MAGELLAN_RX_CMD:
			logmsg("command '%s'", e->rx.cmd);
			break;
		case MAGELLAN_RX_INIT:
			logmsg("command '%s': init string complete (%u so far)", e->rx.cmd, e->rx.inits);
			e->demo_next = 0;
			break;
		case MAGELLAN_RX_BAD:
			e->bad_cmds++;
			logmsg("ignored a bad or unknown command (%zu bytes shown: '%.*s')",
			       strlen(e->rx.cmd), (int)strlen(e->rx.cmd), e->rx.cmd);
			break;
		}
	}
}

static size_t item_bytes(const struct scn_item *it, char *out)
{
	return it->type == 'd' ? magellan_encode_axes(it->axis, out)
			       : magellan_encode_buttons(it->buttons, out);
}

/* Junk the item asks for, then the item; -1 if the queue has no room. */
static int queue_item(struct emu *e, const struct scn_item *it, int with_junk,
		      unsigned long long *junk_bytes)
{
	/* Worst case: every junk line at its maximum. */
	size_t worst = MAGELLAN_D_BYTES;
	char chunk[SCN_JUNK_BYTES + MAGELLAN_JUNK_PACKET_MAX + 1];

	*junk_bytes = 0;
	if (with_junk)
		for (unsigned int j = 0; j < it->njunk; j++)
			worst += it->junk[j].kind == MAGELLAN_JUNK_RANDOM
					 ? it->junk[j].count + 1
					 : it->junk[j].count * (MAGELLAN_JUNK_PACKET_MAX + 1);
	if (worst > queue_room(&e->out))
		return -1;
	for (unsigned int j = 0; with_junk && j < it->njunk; j++) {
		const struct scn_junk *jk = &it->junk[j];
		unsigned int reps = jk->kind == MAGELLAN_JUNK_RANDOM ? 1 : jk->count;

		for (unsigned int r = 0; r < reps; r++) {
			size_t n = magellan_junk(&e->rng, jk->kind, jk->count, chunk, sizeof(chunk));

			queue_put(&e->out, chunk, n);
			*junk_bytes += n;
		}
	}
	size_t n = item_bytes(it, chunk);

	queue_put(&e->out, chunk, n);
	return 0;
}

static void describe_item(const struct scenario *scn, const struct scn_item *it, char *out,
			  size_t size)
{
	scenario_describe(scn, it->type, it->axis, it->buttons, out, size);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Keep the queue full while a flood is under way; once its last byte is
 * queued, queue its packet and arm the reply. No pacing: the pty's own
 * back-pressure (QEMU reads it as the guest's UART FIFO drains) is the
 * only limit.
 */
static void flood_pump(struct emu *e)
{
	const struct scn_item *it = e->flood_item;
	char chunk[4096], pkt[MAGELLAN_D_BYTES];

	if (!it)
		return;
	while (e->flood.left && queue_room(&e->out)) {
		size_t room = queue_room(&e->out);
		size_t n = magellan_flood_fill(&e->flood, chunk,
					       room < sizeof(chunk) ? room : sizeof(chunk));

		queue_put(&e->out, chunk, n);
	}
	if (e->flood.left || queue_room(&e->out) < MAGELLAN_D_BYTES)
		return;
	size_t n = item_bytes(it, pkt);

	queue_put(&e->out, pkt, n);
	e->pending_at = e->out.written + e->out.len;
	e->junk_total += it->flood;
	e->flood_item = NULL;
	logmsg("flood of %lu bytes (FNV-1a %08lx) queued in %lld ms (%llu scrubbed so no packet "
	       "is valid), then %c", it->flood, (unsigned long)e->flood.hash,
	       now_ms() - e->flood_start_ms, e->flood.scrubbed, it->type);
}

/*
 * One request of the checks (common/magellan/control.h). Returns 0 when
 * handled, -1 when it must wait for room in the output queue. In "status",
 * written is the bytes the pty took since the start and flood_fnv the
 * FNV-1a of the last flood's bytes; in "sent", junk counts a flood's bytes.
 */
static int ctl_request(struct emu *e, const char *req)
{
	char section[SCN_NAME_MAX + 1], desc[160];
	unsigned int index;
	const struct scn_item *it;
	unsigned long long junk;

	if (strcmp(req, MAGELLAN_CTL_STATUS) == 0) {
		ctl_reply(e, MAGELLAN_CTL_STATUS " inits=%u bad=%u written=%llu flood_seed=%lu flood_fnv=%08lx rx=%s",
			  e->rx.inits, e->bad_cmds, e->out.written, (unsigned long)e->flood_seed,
			  (unsigned long)e->flood.hash, e->rx_log_len ? e->rx_log : "-");
		e->rx_log_len = 0;
		e->rx_log[0] = '\0';
		return 0;
	}
	if (sscanf(req, MAGELLAN_CTL_SEND " %32s %u", section, &index) != 2) {
		logmsg("control: unknown request '%s'", req);
		ctl_reply(e, MAGELLAN_CTL_ERROR " unknown request");
		return 0;
	}
	it = scenario_find(e->scn, section, index);
	if (!it) {
		logmsg("control: no packet %u in section '%s'", index, section);
		ctl_reply(e, MAGELLAN_CTL_ERROR " no packet %u in section %s", index, section);
		return 0;
	}
	if (e->rx.inits == 0) {
		logmsg("control: asked for a packet before any init string");
		ctl_reply(e, MAGELLAN_CTL_ERROR " no init string received yet");
		return 0;
	}
	if (e->pending_reply[0] || e->flood_item)
		return -1;
	if (it->flood) {
		/* Streamed by flood_pump; the reply waits for its packet. */
		magellan_flood_start(&e->flood, e->flood_seed, it->flood);
		e->flood_item = it;
		e->flood_start_ms = now_ms();
		e->pending_at = ~0ULL;
		describe_item(e->scn, it, desc, sizeof(desc));
		snprintf(e->pending_reply, sizeof(e->pending_reply), MAGELLAN_CTL_SENT " %s %u junk=%lu %s",
			 section, index, it->flood, desc);
		logmsg("send %s %u (line %u): a flood of %lu random bytes (seed %lu), then %s",
		       section, index, it->line, it->flood, (unsigned long)e->flood_seed, desc);
		flood_pump(e);
		return 0;
	}
	if (queue_item(e, it, 1, &junk) < 0)
		return -1;
	e->junk_total += junk;
	describe_item(e->scn, it, desc, sizeof(desc));
	snprintf(e->pending_reply, sizeof(e->pending_reply), MAGELLAN_CTL_SENT " %s %u junk=%llu %s", section,
		 index, junk, desc);
	e->pending_at = e->out.written + e->out.len;
	logmsg("send %s %u (line %u): %llu junk bytes, then %s", section, index, it->line, junk,
	       desc);
	return 0;
}

/* Requests of the checks, one at a time: the rest waits in ctl_raw. */
static void ctl_rx(struct emu *e)
{
	size_t i = 0;

	while (i < e->ctl_raw_len && !e->request_waiting) {
		char c = e->ctl_raw[i++];

		if (c == '\r')
			continue;
		if (c != '\n') {
			if (e->ctl_in_len < sizeof(e->ctl_in) - 1)
				e->ctl_in[e->ctl_in_len++] = c;
			else
				e->ctl_overflow = 1;
			continue;
		}
		e->ctl_in[e->ctl_in_len] = '\0';
		if (e->ctl_overflow) {
			logmsg("control: request longer than %d bytes ignored", CTL_LINE_MAX - 1);
			ctl_reply(e, MAGELLAN_CTL_ERROR " request too long");
		} else if (e->ctl_in_len) {
			snprintf(e->request, sizeof(e->request), "%s", e->ctl_in);
			e->request_waiting = ctl_request(e, e->request) < 0;
		}
		e->ctl_in_len = 0;
		e->ctl_overflow = 0;
	}
	memmove(e->ctl_raw, e->ctl_raw + i, e->ctl_raw_len - i);
	e->ctl_raw_len -= i;
}

/* Write to the line as long as the pty takes it, refilling a flood. */
static int line_flush(struct emu *e, int fd)
{
	for (;;) {
		unsigned long long before = e->out.written;

		flood_pump(e);
		if (queue_flush(&e->out, fd) < 0)
			return -1;
		if (!e->flood_item || e->out.written == before)
			return 0;
	}
}

/* A fresh seed for each run unless --flood-seed names one. */
static uint32_t fresh_seed(void)
{
	uint32_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == (ssize_t)sizeof(seed))
		return seed;
	return (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "scenario", required_argument, NULL, 's' },
		{ "control", no_argument, NULL, 'c' },
		{ "demo", required_argument, NULL, 'd' },
		{ "log", required_argument, NULL, 'l' },
		{ "wait", required_argument, NULL, 'w' },
		{ "flood-seed", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *qmp_path = NULL, *scn_path = NULL, *log_path = NULL;
	int control = 0, demo_rate = 0, wait_s = 30, c, seed_given = 0;
	unsigned long long seed = 0;
	char *end;
	static struct scenario scn;
	static char qmpbuf[QMP_BUF];
	static char outbuf[OUTQ_SIZE];
	char err[256], line_path[256], ctl_path[256];
	struct emu e = { .scn = &scn, .out = { .buf = outbuf, .size = sizeof(outbuf) } };
	pid_t parent = getppid();
	FILE *f;

	logfp = stderr;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'q': qmp_path = optarg; break;
		case 's': scn_path = optarg; break;
		case 'c': control = 1; break;
		case 'd': demo_rate = atoi(optarg); break;
		case 'l': log_path = optarg; break;
		case 'w': wait_s = atoi(optarg); break;
		case 'f':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[0] == '-' || seed > UINT32_MAX) {
				/* No usage text after it: the harness shows the log's last line. */
				fprintf(stderr, "Error: --flood-seed %s: not a number 0..4294967295\n",
					optarg);
				return 1;
			}
			seed_given = 1;
			break;
		case 'h': help(0); break;
		default: help(1);
		}
	}
	if (optind != argc || !qmp_path || !scn_path || control == (demo_rate > 0) ||
	    demo_rate < 0 || demo_rate > 1000 || wait_s <= 0)
		help(1);

	/* Never outlive the process that started us (QEMU itself after exec). */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		return 0;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, orig;

	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);	/* delivered only inside ppoll */
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	f = fopen(scn_path, "r");
	if (!f) {
		fprintf(stderr, "Error: %s: %s\n", scn_path, strerror(errno));
		return 2;
	}
	if (scenario_load(&scn, f, err, sizeof(err)) < 0) {
		fprintf(stderr, "Error: %s: %s\n", scn_path, err);
		fclose(f);
		return 2;
	}
	fclose(f);
	magellan_rng_seed(&e.rng, scn.seed);
	e.flood_seed = seed_given ? (uint32_t)seed : fresh_seed();
	magellan_rx_reset(&e.rx);
	if (log_path) {
		logfp = fopen(log_path, "a");
		if (!logfp) {
			logfp = stderr;
			fprintf(stderr, "Error: %s: %s\n", log_path, strerror(errno));
			return 2;
		}
	}

	sigprocmask(SIG_SETMASK, &orig, NULL);	/* let a signal end the QMP wait */
	int qmp = qmp_connect(qmp_path, wait_s);

	sigprocmask(SIG_BLOCK, &block, NULL);
	if (qmp < 0)
		return stop_signal ? 0 : 2;
	/* qmp_reply skips the greeting and events up to the answer. */
	if (qmp_command(qmp, "{\"execute\": \"qmp_capabilities\"}\n", qmpbuf, sizeof(qmpbuf)) < 0 ||
	    qmp_command(qmp, "{\"execute\": \"query-chardev\"}\n", qmpbuf, sizeof(qmpbuf)) < 0 ||
	    qmp_pty_of(qmpbuf, LABEL_LINE, line_path, sizeof(line_path)) < 0) {
		fprintf(stderr, "Error: %s: QEMU has no pty chardev '%s'\n", qmp_path, LABEL_LINE);
		return 2;
	}
	if (control && qmp_pty_of(qmpbuf, LABEL_CONTROL, ctl_path, sizeof(ctl_path)) < 0) {
		fprintf(stderr, "Error: %s: QEMU has no pty chardev '%s'\n", qmp_path, LABEL_CONTROL);
		return 2;
	}
	int tty = open_pty(line_path);
	int ctl = control ? open_pty(ctl_path) : -1;

	if (tty < 0 || (control && ctl < 0))
		return 2;
	logmsg("pid %d: SpaceMouse on %s%s%s, %u packets from %s", (int)getpid(), line_path,
	       control ? ", control on " : "", control ? ctl_path : "", scn.nitems, scn_path);
	printf("ready pid=%d line=%s%s%s\n", (int)getpid(), line_path, control ? " control=" : "",
	       control ? ctl_path : "");
	fflush(stdout);
	logmsg("flood seed %lu (%s)", (unsigned long)e.flood_seed,
	       seed_given ? "--flood-seed" : "fresh; --flood-seed repeats it");

	long long next_demo = 0;
	int status = 0;
	const char *why = "a signal";

	while (!stop_signal) {
		struct pollfd p[3] = {
			{ .fd = qmp, .events = POLLIN },
			{ .fd = tty, .events = POLLIN | (e.out.len ? POLLOUT : 0) },
			{ .fd = ctl, .events = (e.ctl_raw_len < sizeof(e.ctl_raw) ? POLLIN : 0) |
					       (e.ctl_out_len ? POLLOUT : 0) },
		};
		struct timespec to = { 1, 0 }, *top = NULL;
		char buf[512];
		ssize_t n;

		if (demo_rate && e.rx.inits) {
			long long wait = next_demo - now_ms();

			if (wait < 0)
				wait = 0;
			to.tv_sec = wait / 1000;
			to.tv_nsec = (wait % 1000) * 1000000;
			top = &to;
		}
		if (ppoll(p, control ? 3 : 2, top, &orig) < 0) {
			if (errno == EINTR)
				continue;
			logmsg("poll: %s", strerror(errno));
			why = "poll failed";
			status = 2;
			break;
		}
		if (p[0].revents) {
			n = read(qmp, qmpbuf, sizeof(qmpbuf));
			if (n <= 0) {
				why = "QEMU closed its QMP socket";
				break;
			}
		}
		if (p[1].revents & POLLIN) {
			n = read(tty, buf, sizeof(buf));
			if (n > 0)
				device_rx(&e, (unsigned char *)buf, (size_t)n);
			else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
				why = "the SpaceMouse line closed (QEMU went away)";
				break;
			}
		} else if (p[1].revents & (POLLHUP | POLLERR)) {
			why = "the SpaceMouse line hung up (QEMU went away)";
			break;
		}
		if (line_flush(&e, tty) < 0) {
			why = "the SpaceMouse line broke (QEMU went away)";
			logmsg("write to the SpaceMouse line: %s", strerror(errno));
			break;
		}
		if (e.pending_reply[0] && e.out.written >= e.pending_at) {
			ctl_reply(&e, "%s", e.pending_reply);
			e.pending_reply[0] = '\0';
		}
		if (control) {
			if (e.request_waiting && ctl_request(&e, e.request) == 0)
				e.request_waiting = 0;
			if (p[2].revents & POLLIN) {
				n = read(ctl, e.ctl_raw + e.ctl_raw_len, sizeof(e.ctl_raw) - e.ctl_raw_len);
				if (n > 0)
					e.ctl_raw_len += (size_t)n;
				else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
					why = "the control line closed (QEMU went away)";
					break;
				}
			} else if (p[2].revents & (POLLHUP | POLLERR)) {
				why = "the control line hung up (QEMU went away)";
				break;
			}
			ctl_rx(&e);
			if (e.ctl_out_len) {
				n = write(ctl, e.ctl_out, e.ctl_out_len);
				if (n > 0) {
					memmove(e.ctl_out, e.ctl_out + n, e.ctl_out_len - (size_t)n);
					e.ctl_out_len -= (size_t)n;
				}
			}
		}
		if (demo_rate && e.rx.inits && now_ms() >= next_demo) {
			unsigned long long junk;
			const struct scn_item *it = &scn.item[e.demo_next % scn.nitems];

			if (queue_item(&e, it, 0, &junk) == 0)
				e.demo_next++;
			next_demo = now_ms() + 1000 / demo_rate;
		}
	}
	if (stop_signal)
		logmsg("signal %d: leaving", (int)stop_signal);
	else
		logmsg("%s: leaving", why);
	logmsg("%u init strings, %u bad commands, %llu bytes sent (%llu junk)", e.rx.inits,
	       e.bad_cmds, e.out.written, e.junk_total);
	printf("exit %s\n", stop_signal ? "a signal" : why);
	return status;
}
