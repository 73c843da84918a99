// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench-lgpio: the lgpio side of 'udrv-bench pwm', lgpio 0.2.2.0's
 * software PWM (lgTxPwm(), lgTxServo(): one thread of lgpio's drives every
 * such line, absolute CLOCK_MONOTONIC sleeps in microseconds) on a line of
 * a GPIO chip, for a time, as a program of lgpio's user runs it. A program
 * of its own so that udrv-bench links no lgpio; not installed (the lab
 * ships it as /usr/libexec/udrv/udrv-bench-lgpio), found with
 * bench_peer_prog_path() (rig/bench/core/peer.c).
 *
 *   pwm     lgTxPwm(FREQUENCY, DUTY %) on the line for --duration-ms
 *   servo   lgTxServo(WIDTH us, FREQUENCY) on the line for --duration-ms
 *
 * Before lgpio starts its thread, this process takes the scheduling it is
 * told (--prio 0: SCHED_OTHER, as from a shell; --cpu, --mlock): lgpio has
 * no setting of its own for it, and its thread inherits the creator's.
 * Then the line is claimed as a low output, the PWM started, and after the
 * duration stopped (lgTxPwm() with frequency 0) and the line written low.
 *
 * Output: "sched POLICY PRIO", "affinity MASK", "mlocked 0|1" (as it ran),
 * "duration_ns N" (start to stop, CLOCK_MONOTONIC), "cpu_user_ns N",
 * "cpu_sys_ns N" (the process's, lgpio's thread included, from the start
 * of the PWM to its stop), "end". Exit 0,
 * 1 when lgpio fails (its error text on stderr), 2 bad arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <lgpio.h>
#include <udrv/parse.h>

#include "peer_parse.h"

#define NAME		"udrv-bench-lgpio"
#define EXIT_USAGE	2
#define MAX_DURATION_MS	3600000u

static const char usage[] =
"Usage: udrv-bench-lgpio pwm --gpiochip N --line L --frequency HZ --duty PERCENT\n"
"                            --duration-ms MS [--prio P] [--cpu C] [--mlock]\n"
"       udrv-bench-lgpio servo --gpiochip N --line L --frequency HZ --width-us US\n"
"                              --duration-ms MS [--prio P] [--cpu C] [--mlock]\n"
"\n"
"The lgpio side of 'udrv-bench pwm': lgpio " LGPIO_VERSION_STR "'s software PWM\n"
"(pwm: lgTxPwm(), servo: lgTxServo()) on line L of /dev/gpiochipN for MS\n"
"milliseconds, then stopped and the line left low. It prints how it ran,\n"
"its duration and CPU time.\n"
"\n"
"  --prio P      SCHED_FIFO priority P for lgpio's thread (it inherits this\n"
"                process's); 0 (default): SCHED_OTHER, as started from a shell\n"
"  --cpu C       on CPU C (default: every CPU)\n"
"  --mlock       mlockall() first\n"
"\n"
"Exit status: 0, 1 lgpio failed (its message on stderr), 2 bad arguments.\n";

struct opts {
	bool servo;
	unsigned int chip, line, frequency, duty, width_us, duration_ms, prio;
	int cpu;
	bool mlock;
	unsigned int have;	/* HAVE_* */
};

enum { HAVE_CHIP = 1, HAVE_LINE = 2, HAVE_FREQ = 4, HAVE_DUTY = 8, HAVE_WIDTH = 16,
       HAVE_DURATION = 32 };

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, NAME ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '" NAME " --help'.\n");
	return EXIT_USAGE;
}

static uint64_t ns_of(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

static int lg_failed(const char *what, int ret)
{
	fprintf(stderr, NAME ": %s: %s (lgpio error %d)\n", what, lguErrorText(ret), ret);
	return 1;
}

static int start(const struct opts *o, int h)
{
	int ret = o->servo ? lgTxServo(h, (int)o->line, (int)o->width_us, (int)o->frequency, 0, 0) :
			     lgTxPwm(h, (int)o->line, (float)o->frequency, (float)o->duty, 0, 0);

	return ret < 0 ? lg_failed(o->servo ? "lgTxServo" : "lgTxPwm", ret) : 0;
}

/* Sleep until @ns after @t0 on CLOCK_MONOTONIC. */
static void sleep_until(const struct timespec *t0, uint64_t ns)
{
	uint64_t end = ns_of(t0) + ns;
	struct timespec t = { .tv_sec = (time_t)(end / 1000000000ULL),
			      .tv_nsec = (long)(end % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR)
		;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000ULL;
}

/* the CPU time between @r0 and @r1: the PWM's, not the process's start */
static int report(const struct timespec *t0, const struct timespec *t1,
		  const struct rusage *r0, const struct rusage *r1)
{
	printf("duration_ns %llu\ncpu_user_ns %llu\ncpu_sys_ns %llu\nend\n",
	       (unsigned long long)(ns_of(t1) - ns_of(t0)),
	       (unsigned long long)(tv_ns(&r1->ru_utime) - tv_ns(&r0->ru_utime)),
	       (unsigned long long)(tv_ns(&r1->ru_stime) - tv_ns(&r0->ru_stime)));
	return fflush(stdout) ? 1 : 0;
}

static int run(const struct opts *o)
{
	struct timespec t0, t1;
	struct rusage r0, r1;
	char why[160];
	int h, ret;

	if (bench_peer_set_sched((int)o->prio, o->cpu, o->mlock, why, sizeof(why)))
		return fprintf(stderr, NAME ": %s\n", why), 1;
	bench_peer_print_sched(o->mlock);
	h = lgGpiochipOpen((int)o->chip);
	if (h < 0)
		return lg_failed("lgGpiochipOpen", h);
	ret = lgGpioClaimOutput(h, 0, (int)o->line, 0);
	if (ret < 0) {
		lgGpiochipClose(h);
		return lg_failed("lgGpioClaimOutput", ret);
	}
	getrusage(RUSAGE_SELF, &r0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = start(o, h);
	if (!ret) {
		sleep_until(&t0, (uint64_t)o->duration_ms * 1000000ULL);
		/* frequency 0 stops it (lgTxPulse(0, 0)); then the line low */
		lgTxPwm(h, (int)o->line, 0, 0, 0, 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		getrusage(RUSAGE_SELF, &r1);
		lgGpioWrite(h, (int)o->line, 0);
	}
	lgGpiochipClose(h);
	return ret ? ret : report(&t0, &t1, &r0, &r1);
}

static int number(const char *arg, unsigned int max, unsigned int *v, const char *what)
{
	if (udrv_parse_uint(arg, max, v))
		return fprintf(stderr, NAME ": bad %s '%s': 0..%u\nTry '" NAME " --help'.\n",
			       what, arg, max), EXIT_USAGE;
	return 0;
}

static int option(struct opts *o, int c, const char *arg)
{
	unsigned int cpu;

	switch (c) {
	case 'g': o->have |= HAVE_CHIP; return number(arg, 65535, &o->chip, "--gpiochip");
	case 'l': o->have |= HAVE_LINE; return number(arg, 65535, &o->line, "--line");
	case 'f': o->have |= HAVE_FREQ; return number(arg, 10000, &o->frequency, "--frequency");
	case 'd': o->have |= HAVE_DUTY; return number(arg, 100, &o->duty, "--duty");
	case 'w': o->have |= HAVE_WIDTH; return number(arg, 2500, &o->width_us, "--width-us");
	case 't':
		o->have |= HAVE_DURATION;
		return number(arg, MAX_DURATION_MS, &o->duration_ms, "--duration-ms");
	case 'p': return number(arg, 99, &o->prio, "--prio");
	case 'c':
		if (number(arg, CPU_SETSIZE - 1, &cpu, "--cpu"))
			return EXIT_USAGE;
		o->cpu = (int)cpu;
		return 0;
	case 'm': o->mlock = true; return 0;
	default: return EXIT_USAGE;
	}
}

static int check(const struct opts *o, const char *cmd)
{
	unsigned int need = HAVE_CHIP | HAVE_LINE | HAVE_FREQ | HAVE_DURATION |
			    (o->servo ? HAVE_WIDTH : HAVE_DUTY);

	if ((o->have & need) != need)
		return bad(o->servo ? "%s needs --gpiochip, --line, --frequency, --width-us and "
				      "--duration-ms" :
				      "%s needs --gpiochip, --line, --frequency, --duty and --duration-ms",
			   cmd);
	if (o->have & (o->servo ? HAVE_DUTY : HAVE_WIDTH))
		return bad(o->servo ? "%s takes no --duty" : "%s takes no --width-us", cmd);
	if (!o->frequency || !o->duration_ms)
		return bad("%s: --frequency and --duration-ms must not be 0", cmd);
	return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "gpiochip", required_argument, NULL, 'g' },
		{ "line", required_argument, NULL, 'l' },
		{ "frequency", required_argument, NULL, 'f' },
		{ "duty", required_argument, NULL, 'd' },
		{ "width-us", required_argument, NULL, 'w' },
		{ "duration-ms", required_argument, NULL, 't' },
		{ "prio", required_argument, NULL, 'p' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "mlock", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c, ret;

	*o = (struct opts){ .cpu = -1 };
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		if (c == 'h')
			return fputs(usage, stdout), -1;
		if (c == '?')
			return bad("unknown option or missing value: '%s'", argv[optind - 1]);
		ret = option(o, c, optarg);
		if (ret)
			return ret;
	}
	if (optind >= argc)
		return bad("%s", "give a command: pwm or servo");
	if (strcmp(argv[optind], "pwm") && strcmp(argv[optind], "servo"))
		return bad("unknown command '%s': pwm or servo", argv[optind]);
	if (optind + 1 != argc)
		return bad("unexpected argument '%s'", argv[optind + 1]);
	o->servo = !strcmp(argv[optind], "servo");
	return check(o, argv[optind]);
}

int main(int argc, char **argv)
{
	struct opts o;
	int ret = parse(argc, argv, &o);

	if (ret)
		return ret < 0 ? 0 : ret;
	return run(&o);
}
