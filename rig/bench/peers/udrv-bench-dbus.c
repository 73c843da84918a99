// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench-dbus: the io.gpiod1 side of 'udrv-bench toggle' (rows
 * cdev/udrvd-fd, dbus/DAEMON, gpiocli/DAEMON), a program of its own so that
 * udrv-bench stays static and libudrv links no D-Bus library. Not installed;
 * the lab ships it as /usr/libexec/udrv/udrv-bench-dbus. The bench finds it
 * with bench_peer_prog_path() (rig/bench/core/peer.c).
 *
 *   toggle  request the line as a low output through the daemon that owns
 *           io.gpiod1 on the bus --bus (io.gpiod1.Chip.RequestLines), then
 *           "batch N" on stdin toggles it N times --via:
 *             fd       the request's fd from udrvd (io.udrv1.Request.GetFd),
 *                      GPIO_V2_LINE_SET_VALUES_IOCTL on it: cdev/raw's loop
 *             dbus     one io.gpiod1.Request.SetValues call per toggle
 *             gpiocli  one `gpiocli set LINE=active|inactive` per toggle
 *                      (libgpiod's own client, --gpiocli PATH)
 *           and answers "ns T" (the batch's CLOCK_MONOTONIC time); "set V"
 *           sets it (the level check) and answers "ok"; EOF releases it.
 *
 * It first prints "sched POLICY PRIO", "affinity MASK" and "mlocked 0|1":
 * the bench checks that its child runs as it does. Exit 0, 1 failed (the
 * daemon's error on stderr), 2 bad arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/gpio.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>
#include <udrv/parse.h>

#include "peer_parse.h"

#define NAME		"udrv-bench-dbus"
#define IFACE		"io.gpiod1"
#define EXIT_USAGE	2
#define PATH_LEN	256

static const char usage[] =
"Usage: udrv-bench-dbus toggle --bus ADDRESS --chip NAME --line N\n"
"                              --via fd|dbus|gpiocli [--gpiocli PATH] [--mlock]\n"
"\n"
"The io.gpiod1 side of 'udrv-bench toggle': request line N of gpiochip NAME\n"
"as a low output through the daemon that owns io.gpiod1 on the D-Bus bus\n"
"ADDRESS (udrvd or libgpiod's gpio-manager), then toggle it as stdin asks:\n"
"'batch N' toggles it N times and answers 'ns T', 'set 0|1' sets it and\n"
"answers 'ok'; end of input releases it.\n"
"\n"
"  --via fd       through the request's fd, handed over by udrvd\n"
"                 (io.udrv1.Request.GetFd); gpio-manager has none\n"
"  --via dbus     one io.gpiod1.Request.SetValues call per toggle\n"
"  --via gpiocli  one 'gpiocli set LINE=active|inactive' per toggle\n"
"  --gpiocli PATH libgpiod's gpiocli (default: gpiocli in PATH)\n"
"  --mlock        lock memory, as the bench does\n"
"\n"
"Not for use on its own: udrv-bench toggle --udrvd/--gpio-manager runs it.\n";

enum via { VIA_FD, VIA_DBUS, VIA_GPIOCLI };

struct opts {
	const char *bus, *chip, *gpiocli;
	unsigned int line;
	enum via via;
	bool mlock;
};

struct peer {
	const struct opts *o;
	sd_bus *bus;
	char req[PATH_LEN];	/* the request's object path */
	char name[PATH_LEN];	/* the line's name (for gpiocli) */
	int fd;
};

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int failed(const char *what, const sd_bus_error *e, int r)
{
	fprintf(stderr, NAME ": %s: %s: %s\n", what, e && e->name ? e->name : "error",
		e && e->message ? e->message : strerror(-r));
	return 1;
}

static int connect_bus(struct peer *p)
{
	int r = sd_bus_new(&p->bus);

	if (r >= 0)
		r = sd_bus_set_address(p->bus, p->o->bus);
	if (r >= 0)
		r = sd_bus_set_bus_client(p->bus, 1);
	if (r >= 0)
		r = sd_bus_start(p->bus);
	if (r < 0)
		return failed(p->o->bus, NULL, r);
	return 0;
}

static int request(struct peer *p)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	char chip[PATH_LEN];
	const char *path;
	int r;

	snprintf(chip, sizeof(chip), "/io/gpiod1/chips/%s", p->o->chip);
	r = sd_bus_call_method(p->bus, IFACE, chip, IFACE ".Chip", "RequestLines", &e, &m,
			       "(a(aua{sv})ai)a{sv}", 1, 1, p->o->line, 1, "direction", "s",
			       "output", 1, 0, 1, "consumer", "s", NAME);
	if (r >= 0)
		r = sd_bus_message_read(m, "o", &path);
	if (r >= 0)
		snprintf(p->req, sizeof(p->req), "%s", path);
	sd_bus_message_unref(m);
	r = r < 0 ? failed("RequestLines", &e, r) : 0;
	sd_bus_error_free(&e);
	return r;
}

/* what --via needs beside the request: the fd, or the line's name */
static int prepare(struct peer *p)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	char line[PATH_LEN];
	const char *name;
	int r = 0, fd;

	if (p->o->via == VIA_FD) {
		r = sd_bus_call_method(p->bus, IFACE, p->req, "io.udrv1.Request", "GetFd", &e,
				       &m, "");
		if (r >= 0)
			r = sd_bus_message_read(m, "h", &fd);
		if (r >= 0)
			p->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		r = r < 0 ? failed("GetFd", &e, r) : p->fd < 0 ? failed("dup", NULL, -errno) : 0;
	} else if (p->o->via == VIA_GPIOCLI) {
		snprintf(line, sizeof(line), "/io/gpiod1/chips/%s/line%u", p->o->chip, p->o->line);
		r = sd_bus_get_property(p->bus, IFACE, line, IFACE ".Line", "Name", &e, &m, "s");
		if (r >= 0)
			r = sd_bus_message_read(m, "s", &name);
		if (r >= 0)
			snprintf(p->name, sizeof(p->name), "%s", name);
		r = r < 0 ? failed("the line's Name", &e, r) : 0;
		if (!r && !p->name[0])
			r = failed("--via gpiocli", NULL, -EINVAL);
	}
	sd_bus_message_unref(m);
	sd_bus_error_free(&e);
	return r;
}

static void release(struct peer *p)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r;

	if (p->fd >= 0)
		close(p->fd);
	if (!p->req[0])
		return;
	r = sd_bus_call_method(p->bus, IFACE, p->req, IFACE ".Request", "Release", &e, NULL, "");
	if (r < 0)
		failed("Release", &e, r);
	sd_bus_error_free(&e);
}

static int gpiocli_set(struct peer *p, int value)
{
	char arg[PATH_LEN + 16];
	int status;
	pid_t pid;

	snprintf(arg, sizeof(arg), "%s=%s", p->name, value ? "active" : "inactive");
	pid = fork();
	if (pid == 0) {
		setenv("DBUS_SYSTEM_BUS_ADDRESS", p->o->bus, 1);
		execlp(p->o->gpiocli, p->o->gpiocli, "set", arg, (char *)NULL);
		fprintf(stderr, NAME ": %s: %s\n", p->o->gpiocli, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return failed("running gpiocli", NULL, -errno);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return failed("gpiocli set", NULL, -EIO);
	return 0;
}

static int set(struct peer *p, int value)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	struct gpio_v2_line_values lv = { .bits = (uint64_t)value, .mask = 1 };
	int r;

	switch (p->o->via) {
	case VIA_FD:
		if (ioctl(p->fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv) < 0)
			return failed("GPIO_V2_LINE_SET_VALUES_IOCTL", NULL, -errno);
		return 0;
	case VIA_GPIOCLI:
		return gpiocli_set(p, value);
	default:
		r = sd_bus_call_method(p->bus, IFACE, p->req, IFACE ".Request", "SetValues", &e,
				       NULL, "a{ui}", 1, p->o->line, value);
		r = r < 0 ? failed("SetValues", &e, r) : 0;
		sd_bus_error_free(&e);
		return r;
	}
}

static int batch(struct peer *p, uint64_t n)
{
	struct gpio_v2_line_values hi = { .bits = 1, .mask = 1 }, lo = { .bits = 0, .mask = 1 };
	uint64_t t0 = now_ns();

	if (p->o->via == VIA_FD) {	/* cdev/raw's loop, on the handed-over fd */
		for (uint64_t i = 0; i < n; i += 2)
			if (ioctl(p->fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &hi) < 0 ||
			    ioctl(p->fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lo) < 0)
				return failed("GPIO_V2_LINE_SET_VALUES_IOCTL", NULL, -errno);
	} else {
		for (uint64_t i = 0; i < n; i += 2)
			if (set(p, 1) || set(p, 0))
				return 1;
	}
	printf("ns %llu\n", (unsigned long long)(now_ns() - t0));
	return 0;
}

/* One command from the bench: "batch N" (N even, >= 2) or "set 0|1". */
static int command(struct peer *p, const char *line, size_t len)
{
	char key[BENCH_PEER_KEY_LEN];
	uint64_t v[BENCH_PEER_MAX_VALS];
	unsigned int n;
	int r;

	if (!bench_peer_line(line, len, key, sizeof(key), v, 1, &n) && n == 1) {
		if (!strcmp(key, "batch") && v[0] >= 2 && !(v[0] & 1))
			return batch(p, v[0]);
		if (!strcmp(key, "set") && v[0] <= 1) {
			r = set(p, (int)v[0]);
			if (!r)
				printf("ok\n");
			return r;
		}
	}
	fprintf(stderr, NAME ": bad command '%.*s': 'batch N' (N even) or 'set 0|1'\n",
		(int)len, line);
	return EXIT_USAGE;
}

static int serve(struct peer *p)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret = 0;

	printf("ready\n");
	fflush(stdout);
	while (!ret && !stop && (len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			len--;
		ret = command(p, line, (size_t)len);
		fflush(stdout);
	}
	free(line);
	return ret;
}

static int toggle(const struct opts *o)
{
	struct peer p = { .o = o, .fd = -1 };
	struct sigaction sa = { .sa_handler = on_stop };
	int locked = 0, ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (o->mlock) {
		if (mlockall(MCL_CURRENT | MCL_FUTURE))
			return failed("mlockall", NULL, -errno);
		locked = 1;
	}
	ret = connect_bus(&p);
	if (!ret)
		ret = request(&p);
	if (!ret)
		ret = prepare(&p);
	if (!ret) {
		bench_peer_print_sched(locked);
		ret = serve(&p);
	}
	release(&p);
	sd_bus_flush_close_unref(p.bus);
	return ret;
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, NAME ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'udrv-bench-dbus --help'.\n");
	return EXIT_USAGE;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "chip", required_argument, NULL, 'c' },
		{ "line", required_argument, NULL, 'l' },
		{ "via", required_argument, NULL, 'v' },
		{ "gpiocli", required_argument, NULL, 'g' },
		{ "mlock", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	bool have_line = false;
	int c;

	*o = (struct opts){ .gpiocli = "gpiocli", .via = VIA_DBUS };
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'b': o->bus = optarg; break;
		case 'c': o->chip = optarg; break;
		case 'g': o->gpiocli = optarg; break;
		case 'm': o->mlock = true; break;
		case 'h': fputs(usage, stdout); return -1;
		case 'l':
			if (udrv_parse_uint(optarg, 65535, &o->line))
				return bad("--line '%s': a line offset, 0..65535", optarg);
			have_line = true;
			break;
		case 'v':
			if (!strcmp(optarg, "fd"))
				o->via = VIA_FD;
			else if (!strcmp(optarg, "dbus"))
				o->via = VIA_DBUS;
			else if (!strcmp(optarg, "gpiocli"))
				o->via = VIA_GPIOCLI;
			else
				return bad("--via '%s': fd, dbus or gpiocli", optarg);
			break;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind >= argc || strcmp(argv[optind], "toggle") || optind + 1 != argc)
		return bad("%s", "one command: toggle");
	if (!o->bus || !*o->bus || !o->chip || !*o->chip || !have_line)
		return bad("%s", "toggle needs --bus, --chip and --line");
	if (strchr(o->chip, '/'))
		return bad("--chip '%s': the chip's name (gpiochipN), not a path", o->chip);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	int ret = parse(argc, argv, &o);

	if (ret)
		return ret < 0 ? 0 : ret;
	return toggle(&o);
}
