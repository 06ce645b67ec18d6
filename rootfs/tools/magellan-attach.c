// SPDX-License-Identifier: GPL-2.0-only
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * magellan-attach: attach a Magellan / SpaceMouse on a serial line to the
 * kernel's magellan driver, as `inputattach --magellan DEVICE` does
 * (linuxconsole utils/inputattach.c): 9600 baud, CS8|CSTOPB|CRTSCTS, the
 * init string "m3\rpBB\rz\r", the N_MOUSE line discipline (serport) and
 * SPIOCSTYPE SERIO_MAGELLAN. The line stays attached while the process
 * lives: serport's read() holds the serio port, and the input device
 * ("LogiCad3D Magellan / SpaceMouse") exists until it returns.
 *
 * With -b it prints "EVENT_NODE PID" once the input device exists; killing
 * PID detaches.
 *
 * Exit status: 0 detached on SIGTERM/SIGINT/SIGHUP or a hang-up (with -b:
 * attached in the background); 1 usage; 2 DEVICE could not be opened or
 * set up; 3 the input device did not appear (-b, -m) or could not be read.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <linux/input.h>
#include <linux/serio.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef N_MOUSE
#define N_MOUSE 2	/* include/uapi/linux/tty.h */
#endif

static const char init_string[] = "m3\rpBB\rz\r";	/* inputattach's magellan_init */
static volatile sig_atomic_t stop_signal;
static const char *device;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void help(int status)
{
	fprintf(stderr,
		"Usage: magellan-attach [-n] [-b | -m] [-t SECONDS] DEVICE\n"
		"Attach the Magellan / SpaceMouse on serial line DEVICE (e.g. /dev/ttyS0) to\n"
		"the kernel's magellan driver, like `inputattach --magellan DEVICE`, and stay\n"
		"attached until a signal.\n"
		"  -n, --noinit       do not send the init string m3\\rpBB\\rz\\r\n"
		"  -b, --background   attach in the background; once the input device exists\n"
		"                     print its event node and the pid that holds the line\n"
		"                     (\"/dev/input/event0 123\"; kill the pid to detach)\n"
		"  -m, --monitor      print the device's events on stdout until Ctrl-C\n"
		"  -t, --timeout S    how long -b and -m wait for the input device (10)\n"
		"Exit status: 0 detached on a signal (-b: attached), 1 usage, 2 DEVICE could\n"
		"not be set up, 3 no input device appeared or it could not be read.\n");
	exit(status);
}

static int error(int status, const char *what)
{
	fprintf(stderr, "Error: %s: %s: %s\n", device, what, strerror(errno));
	return status;
}

/* inputattach's setline() with CS8|CSTOPB|CRTSCTS at B9600, then the init. */
static int setup_line(int fd, int send_init)
{
	struct termios t;
	int ldisc = N_MOUSE;
	unsigned long devt = SERIO_MAGELLAN;	/* | id << 8 | extra << 16, both 0 */

	if (tcgetattr(fd, &t) < 0)
		return error(2, "not a serial line (tcgetattr)");
	t.c_cflag = CS8 | CSTOPB | CRTSCTS | CREAD | HUPCL | CLOCAL;
	t.c_iflag = IGNBRK | IGNPAR;
	t.c_oflag = 0;
	t.c_lflag = 0;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	cfsetispeed(&t, B9600);
	cfsetospeed(&t, B9600);
	if (tcsetattr(fd, TCSANOW, &t) < 0)
		return error(2, "tcsetattr 9600 8N2 RTS/CTS");
	tcflush(fd, TCIFLUSH);	/* what the device sent before we took it */
	if (send_init && write(fd, init_string, sizeof(init_string) - 1) !=
				 (ssize_t)sizeof(init_string) - 1)
		return error(2, "write of the init string");
	if (ioctl(fd, TIOCSETD, &ldisc) < 0)
		return error(2, "TIOCSETD N_MOUSE (serport; needs CONFIG_SERIO_SERPORT and root)");
	if (ioctl(fd, SPIOCSTYPE, &devt) < 0)
		return error(2, "SPIOCSTYPE SERIO_MAGELLAN");
	return 0;
}

/* Hold the line until a signal or a hang-up, then give it back to N_TTY. */
static void hold_line(int fd)
{
	int ldisc = 0;	/* N_TTY */

	while (!stop_signal) {
		/* serport_ldisc_read() registers the serio port and waits. */
		if (read(fd, NULL, 0) < 0 && errno != EINTR)
			break;
		if (!stop_signal)
			break;	/* the port died (hang-up) */
	}
	ioctl(fd, TIOCSETD, &ldisc);
}

/*
 * The event node of the input device on our line: serport makes the serio
 * port a child of the tty's device, the driver the input device a child
 * of the port (.../tty/ttyS0/serio0/input/input0/event0).
 */
static int find_event(int fd, char *node, size_t size, char *name, size_t namesz)
{
	struct stat st;
	char pattern[128];
	glob_t g;
	int found = -1;

	if (fstat(fd, &st) < 0)
		return -1;
	snprintf(pattern, sizeof(pattern), "/sys/dev/char/%u:%u/serio*/input/input*/event*",
		 major(st.st_rdev), minor(st.st_rdev));
	if (glob(pattern, 0, NULL, &g) != 0)
		return -1;
	if (g.gl_pathc > 0) {
		const char *ev = strrchr(g.gl_pathv[0], '/') + 1;
		char path[256];
		FILE *f;

		snprintf(node, size, "/dev/input/%s", ev);
		snprintf(path, sizeof(path), "%s/device/name", g.gl_pathv[0]);
		f = fopen(path, "r");
		name[0] = '\0';
		if (f) {
			if (fgets(name, (int)namesz, f))
				name[strcspn(name, "\n")] = '\0';
			fclose(f);
		}
		found = access(node, R_OK) == 0 ? 0 : -1;	/* devtmpfs made it */
	}
	globfree(&g);
	return found;
}

/* Poll for the input device, with a bound; the child holds the line. */
static int wait_event(int fd, pid_t child, int timeout_s, char *node, size_t size, char *name,
		      size_t namesz)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		if (find_event(fd, node, size, name, namesz) == 0)
			return 0;
		if (waitpid(child, NULL, WNOHANG) == child) {
			fprintf(stderr, "Error: %s: the line was released before an input device appeared\n",
				device);
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= timeout_s || stop_signal) {
			fprintf(stderr,
				"Error: %s: no input device after %d s (is CONFIG_JOYSTICK_MAGELLAN on?)\n",
				device, timeout_s);
			return -1;
		}
		poll(NULL, 0, 20);
	}
}

static const char *code_name(unsigned int type, unsigned int code, char *buf, size_t size)
{
	static const char *const abs[] = { "ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ" };

	if (type == EV_ABS && code < 6)
		return abs[code];
	if (type == EV_KEY && code >= BTN_0 && code <= BTN_9)
		snprintf(buf, size, "BTN_%u", code - BTN_0);
	else if (type == EV_SYN && code == SYN_REPORT)
		return "SYN_REPORT";
	else
		snprintf(buf, size, "%u", code);
	return buf;
}

/* evtest-style lines on stdout until a signal. */
static int monitor(const char *node, const char *name)
{
	static const char *const types[] = { [EV_SYN] = "EV_SYN", [EV_KEY] = "EV_KEY",
					     [EV_REL] = "EV_REL", [EV_ABS] = "EV_ABS" };
	struct input_event ev;
	int fd = open(node, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "Error: %s: %s\n", node, strerror(errno));
		return 3;
	}
	fprintf(stderr, "magellan-attach: %s: \"%s\" on %s; Ctrl-C detaches\n", device, name, node);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (!stop_signal) {
		ssize_t n = read(fd, &ev, sizeof(ev));
		char buf[16];

		if (n < 0 && (errno == EINTR || stop_signal))
			continue;	/* the loop ends on a signal */
		if (n != (ssize_t)sizeof(ev)) {
			fprintf(stderr, "Error: %s: %s\n", node, n < 0 ? strerror(errno) : "short read");
			close(fd);
			return 3;
		}
		printf("Event: time %ld.%06ld, type %u (%s), code %u (%s), value %d\n",
		       (long)ev.input_event_sec, (long)ev.input_event_usec, ev.type,
		       ev.type <= EV_ABS && types[ev.type] ? types[ev.type] : "?", ev.code,
		       code_name(ev.type, ev.code, buf, sizeof(buf)), ev.value);
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "noinit", no_argument, NULL, 'n' },
		{ "background", no_argument, NULL, 'b' },
		{ "monitor", no_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int send_init = 1, background = 0, mon = 0, timeout_s = 10, c, fd, rc;
	struct sigaction sa = { .sa_handler = on_signal };	/* no SA_RESTART */
	char node[64], name[128];
	pid_t child;

	while ((c = getopt_long(argc, argv, "nbmt:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n': send_init = 0; break;
		case 'b': background = 1; break;
		case 'm': mon = 1; break;
		case 't': timeout_s = atoi(optarg); break;
		case 'h': help(0); break;
		default: help(1);
		}
	}
	if (optind != argc - 1 || (background && mon) || timeout_s <= 0)
		help(1);
	device = argv[optind];

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fd = open(device, O_RDWR | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return error(2, "open");
	rc = setup_line(fd, send_init);
	if (rc)
		return rc;
	if (!background && !mon) {
		hold_line(fd);
		return 0;
	}

	child = fork();
	if (child < 0)
		return error(2, "fork");
	if (child == 0) {
		if (background) {
			/* Leave the caller's terminal (setsid) and output: $(...) must end. */
			int null = open("/dev/null", O_RDWR);

			setsid();
			if (null >= 0) {
				dup2(null, 0);
				dup2(null, 1);
				dup2(null, 2);
			}
		}
		hold_line(fd);
		_exit(0);
	}
	if (wait_event(fd, child, timeout_s, node, sizeof(node), name, sizeof(name)) < 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
		return 3;
	}
	if (background) {
		printf("%s %d\n", node, (int)child);
		return 0;
	}
	rc = monitor(node, name);
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
	return rc;
}
