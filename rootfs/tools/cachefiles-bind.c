// SPDX-License-Identifier: GPL-2.0-or-later
// SPDX-FileCopyrightText: The nonstring-bsp authors
/*
 * cachefiles-bind: bring a cachefiles cache into service and hold it, like a
 * minimal cachefilesd without culling.
 *
 * The cache lives while /dev/cachefiles stays open: the kernel withdraws it
 * when the descriptor is closed, committing every object to the cache
 * folder first, so stopping this program (SIGTERM, SIGINT, SIGHUP, or even
 * SIGKILL) loses nothing already cached. The commands are those of
 * Documentation/filesystems/caching/cachefiles.rst: "dir", "tag", "bind".
 *
 * usage: cachefiles-bind [-f] [-p PIDFILE] [-t TAG] DIR
 *   DIR         the cache folder, on a file system with user xattrs (ext4)
 *   -t TAG      the cache's name in /proc/fs/fscache/caches (default: CacheFiles)
 *   -p PIDFILE  write the pid of the process that holds the cache
 *   -f          stay in the foreground (default: detach once the cache is bound)
 * Exit status: 0 the cache is bound (or, with -f, it was released on a
 * signal), 1 bad usage, 2 the cache could not be bound (the reason on stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEVICE "/dev/cachefiles"

static void help(int status)
{
	fprintf(stderr,
		"usage: cachefiles-bind [-f] [-p PIDFILE] [-t TAG] DIR\n"
		"Bind the cachefiles cache in DIR through " DEVICE " and hold it\n"
		"until a signal; the kernel commits every cached object on release.\n"
		"  -t TAG      cache name (default: CacheFiles)\n"
		"  -p PIDFILE  write the pid of the holding process\n"
		"  -f          stay in the foreground\n");
	exit(status);
}

/* A hint for the errors the kernel gives for each step. */
static const char *hint(const char *cmd, int err)
{
	if (!strcmp(cmd, "open") && err == ENOENT)
		return " (no cachefiles in this kernel? CONFIG_CACHEFILES)";
	if (!strcmp(cmd, "open") && err == EBUSY)
		return " (another cache daemon holds it)";
	if (!strcmp(cmd, "bind") && err == EOPNOTSUPP)
		return " (the folder's file system lacks user xattrs or O_TMPFILE: use ext4)";
	if (!strcmp(cmd, "bind") && err == ENOBUFS)
		return " (too little free space or files on the cache file system)";
	if (!strcmp(cmd, "bind") && err == EBUSY)
		return " (this descriptor is already bound)";
	return "";
}

static int command(int fd, const char *cmd, const char *arg)
{
	char buf[PATH_MAX + 16];
	int n = snprintf(buf, sizeof(buf), "%s%s%s", cmd, arg ? " " : "", arg ? arg : "");

	if (n < 0 || (size_t)n >= sizeof(buf)) {
		fprintf(stderr, "Error: %s '%s': too long\n", cmd, arg ? arg : "");
		return -1;
	}
	if (write(fd, buf, (size_t)n) != n) {
		int err = errno;

		fprintf(stderr, "Error: " DEVICE ": '%s' failed: %s%s\n",
			buf, strerror(err), hint(cmd, err));
		return -1;
	}
	return 0;
}

static int write_pidfile(const char *path, pid_t pid)
{
	FILE *f = fopen(path, "w");

	if (!f || fprintf(f, "%ld\n", (long)pid) < 0 || fclose(f)) {
		fprintf(stderr, "Error: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Hold the cache until a signal. The kernel flags state changes (a cull
 * request when space runs low) as readable: report those once, since this
 * minimal daemon does not cull and cachefiles then stops caching new data.
 */
static void hold(int fd, const sigset_t *wait_mask)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int warned = 0;

	for (;;) {
		char state[256];
		ssize_t n;

		if (ppoll(&pfd, 1, NULL, wait_mask) < 0) {
			if (errno == EINTR)
				return;
			fprintf(stderr, "Error: " DEVICE ": poll: %s\n", strerror(errno));
			return;
		}
		n = read(fd, state, sizeof(state) - 1);
		if (n <= 0)
			continue;
		state[n] = '\0';
		/* The state starts "cull=0" or "cull=1" (cachefiles_daemon_read). */
		if (!strncmp(state, "cull=1", 6) && !warned) {
			fprintf(stderr, "cachefiles-bind: the cache asks for culling, which this tool does not do: %s\n",
				state);
			warned = 1;
		}
	}
}

/*
 * Leave the caller's terminal and pipes (a caller reading our output must
 * not wait for the cache to be released); later messages go to the kernel
 * log, the closest thing to syslog on a small board.
 */
static void detach(void)
{
	int null = open("/dev/null", O_RDWR);
	int log = open("/dev/kmsg", O_WRONLY);

	setsid();
	if (chdir("/"))
		log = -1;
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(log >= 0 ? log : null, STDERR_FILENO);
	}
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

int main(int argc, char **argv)
{
	const char *tag = NULL, *pidfile = NULL;
	char dir[PATH_MAX];
	int foreground = 0, opt, fd;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, wait_mask;
	struct stat st;

	while ((opt = getopt(argc, argv, "fp:t:h")) != -1) {
		switch (opt) {
		case 'f': foreground = 1; break;
		case 'p': pidfile = optarg; break;
		case 't': tag = optarg; break;
		case 'h': help(0); break;
		default: help(1);
		}
	}
	if (optind != argc - 1)
		help(1);
	if (!realpath(argv[optind], dir)) {
		fprintf(stderr, "Error: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "Error: %s: not a folder\n", dir);
		return 2;
	}

	/* Signals stay blocked except while waiting, so none is lost. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	fd = open(DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "Error: " DEVICE ": %s%s\n", strerror(errno), hint("open", errno));
		return 2;
	}
	if (command(fd, "dir", dir) || (tag && command(fd, "tag", tag)) ||
	    command(fd, "bind", NULL)) {
		close(fd);
		return 2;
	}

	if (!foreground) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "Error: fork: %s\n", strerror(errno));
			return 2;
		}
		if (pid > 0) {
			/* The child holds the cache; the pid file is there on return. */
			if (pidfile && write_pidfile(pidfile, pid)) {
				kill(pid, SIGTERM);
				return 2;
			}
			return 0;
		}
		detach();
	} else if (pidfile && write_pidfile(pidfile, getpid())) {
		return 2;
	}

	hold(fd, &wait_mask);
	/* Closing the descriptor withdraws the cache; the kernel commits it. */
	close(fd);
	if (pidfile)
		unlink(pidfile);
	fprintf(stderr, "cachefiles-bind: %s released on signal %d\n", dir, (int)stop_signal);
	return 0;
}
