// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrvd: holds GPIO lines for clients on the system bus, under a per-line
 * policy (udrvd(8), udrvd.conf(5)).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broker.h"
#include "daemon.h"

/* SYSCONFDIR/udrv/udrvd.conf, where install puts it (daemon/meson.build) */
#ifndef UDRVD_POLICY_FILE
#error "UDRVD_POLICY_FILE: the policy's installed path (daemon/meson.build)"
#endif
#define DEFAULT_POLICY	UDRVD_POLICY_FILE
#define DEFAULT_STATE	"/var/lib/udrvd/state"

static const char usage[] =
	"Usage: udrvd [--policy FILE] [--state FILE]\n"
	"       udrvd --check [--policy FILE]\n"
	"\n"
	"Hold GPIO lines for clients of the system bus, as libgpiod's gpio-manager\n"
	"does (D-Bus interface io.gpiod1: gpiocli works with it), and allow each\n"
	"call only as the policy file says: which users and groups may read, drive,\n"
	"watch or configure which lines. A line a client set keeps its value after\n"
	"the client exits, until its owner releases it or udrvd stops. It also opens\n"
	"the one UIO or VFIO device a rule grants a client and hands over its file\n"
	"descriptors (io.udrv1.Devices on /io/udrv1).\n"
	"\n"
	"  -p, --policy FILE  the policy (default " DEFAULT_POLICY ", udrvd.conf(5));\n"
	"                     without rules nobody has access, root included\n"
	"  -s, --state FILE   where the held lines the policy's restore rules cover\n"
	"                     are written when that changes (at most once a second)\n"
	"                     and read at start: they come back for owners the\n"
	"                     policy still grants them (default " DEFAULT_STATE ")\n"
	"  -t, --check        only read the policy: print its rules, one a line with\n"
	"                     the file and line they come from, or its first mistake\n"
	"                     (exit 2); no bus, no devices\n"
	"  -h, --help         this text\n"
	"  -V, --version      udrvd's version\n"
	"\n"
	"The bus is the system bus, or the one DBUS_SYSTEM_BUS_ADDRESS names (tests).\n"
	"udrvd reads the policy again on SIGHUP (a file with a mistake leaves the\n"
	"old rules in force) and releases the requests the new rules no longer grant\n"
	"their owner, checks every call against the rules in force, and stops on\n"
	"SIGTERM or SIGINT, releasing the lines it holds.\n"
	"\n"
	"Exit status: 0 stopped by a signal, 1 a runtime failure (no bus, the name\n"
	"io.gpiod1 taken), 2 bad arguments or a bad policy file; --check: 0 the policy\n"
	"is good, 2 it is not.\n";

/* SIGHUP: read the policy again; a file with a mistake leaves the old rules. */
static void on_hangup(void *data)
{
	struct udrvd *d = data;
	struct udrvd_policy *p = NULL;
	char msg[UDRVD_MSG_LEN];

	if (udrvd_policy_load(d->policy_path, NULL, &p, msg) < 0) {
		fprintf(stderr, "udrvd: the policy stays as it was: %s\n", msg);
		return;
	}
	fprintf(stderr, "udrvd: policy reloaded: %zu rules from %s\n", udrvd_policy_rules(p),
		d->policy_path);
	udrvd_policy_set(&d->held, p);
}

/* --check: the policy's rules, or its first mistake (exit 2). */
static int check_policy(const char *path)
{
	struct udrvd_policy *p = NULL;
	char msg[UDRVD_MSG_LEN];
	char rule[UDRVD_MSG_LEN];
	size_t n;

	if (udrvd_policy_load(path, NULL, &p, msg) < 0) {
		fprintf(stderr, "udrvd: %s\n", msg);
		return 2;
	}
	n = udrvd_policy_rules(p);
	for (size_t i = 0; i < n; i++)
		printf("%s\n", udrvd_policy_rule_str(p, i, rule, sizeof(rule)));
	printf("udrvd: %s is good: %zu rule%s%s\n", path, n, n == 1 ? "" : "s",
	       n ? "" : " (nobody has access, root included)");
	udrvd_policy_free(p);
	return 0;
}

static int parse_args(int argc, char **argv, const char **policy, const char **state,
		      bool *check)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "state", required_argument, NULL, 's' },
		{ "check", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*policy = DEFAULT_POLICY;
	*state = DEFAULT_STATE;
	*check = false;
	while ((c = getopt_long(argc, argv, "p:s:thV", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
		case 's':
			if (!*optarg) {
				fprintf(stderr, "udrvd: --%s needs a file name\n",
					c == 'p' ? "policy" : "state");
				return 2;
			}
			*(c == 'p' ? policy : state) = optarg;
			break;
		case 't':
			*check = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case 'V':
			printf("udrvd %s\n", UDRV_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'udrvd --help'.\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "udrvd: unexpected argument '%s'\nTry 'udrvd --help'.\n",
			argv[optind]);
		return 2;
	}
	return -1;
}

static int setup_bus(struct udrvd *d)
{
	int r = sd_bus_open_system(&d->bus);

	if (r < 0) {
		fprintf(stderr, "udrvd: cannot connect to the system bus: %s (is dbus running?)\n",
			strerror(-r));
		return r;
	}
	return udrvd_serve(d);
}

int main(int argc, char **argv)
{
	struct udrvd d = { 0 };
	char msg[UDRVD_MSG_LEN];
	bool check;
	int r = parse_args(argc, argv, &d.policy_path, &d.held.state_path, &check);

	if (r >= 0)
		return r;
	if (check)
		return check_policy(d.policy_path);
	r = udrvd_policy_load(d.policy_path, NULL, &d.held.policy, msg);
	if (r < 0) {
		fprintf(stderr, "udrvd: %s\n", msg);
		return 2;
	}
	fprintf(stderr, "udrvd: %zu rules from %s\n", udrvd_policy_rules(d.held.policy),
		d.policy_path);
	r = sd_event_default(&d.event);
	if (r >= 0)
		r = udrvd_loop_signals(d.event, on_hangup, &d);
	if (r >= 0)
		r = setup_bus(&d);
	if (r >= 0) {
		fprintf(stderr, "udrvd: serving %zu GPIO chips as " UDRVD_BUS_NAME "\n",
			d.held.nchips);
		r = sd_event_loop(d.event);
	}
	udrvd_teardown(&d);
	return r < 0 ? 1 : 0;
}
