// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv pwm run: libudrv's software PWM (udrv/soft_pwm.h) on any GPIO
 * output line, until SIGINT or SIGTERM or for --duration, then the
 * thread's counts. The line is named as gpio set names it (cli_lines.c,
 * the gpio options of cli.c), the waveform as pwm set takes it
 * (pwm_args.c), a servo pulse through udrv_servo_pulse().
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_pwm.h"
#include "commands.h"

#define CMD		"pwm run"
/* the longest wait between two looks at the PWM's thread (an error of its
 * own, the chip gone, ends the run) */
#define CHECK_NS	100000000ULL

/* the help in two (a string literal of C11 is at most 4095 bytes) */
static const char run_help[] =
"Usage: udrv pwm run [OPTIONS] LINE\n"
"\n"
"A software PWM on any GPIO output line: a thread of udrv's drives the line\n"
"on absolute deadlines (libudrv's udrv_soft_pwm), until SIGINT (Ctrl-C) or\n"
"SIGTERM, or for --duration. Then the pulse under way ends, the line is\n"
"left at its inactive level, and udrv prints what the thread counted:\n"
"periods, missed periods (an edge later than --late, or a pulse skipped),\n"
"skipped pulses (never driven late: a servo would move), edges driven, and\n"
"the worst lateness. A duty cycle of 0 or of the whole period is a steady\n"
"level: no edges. For a PWM controller's channel: udrv pwm set.\n"
"\n"
"LINE is a line name or, with -c, an offset, as for udrv gpio set. The\n"
"waveform is given as for udrv pwm set (period 10 us to 60 s), or as a\n"
"servo pulse. Times of the waveform, --tail and --late are nanoseconds\n"
"(1500000) or a number with a unit: ns, us, ms, s (1.5ms, 20us).\n"
"\n"
"Options:\n";

static const char run_help_opts[] =
"  -p, --period T         the period\n"
"  -f, --frequency HZ     the period as a frequency (1000, 0.5); with\n"
"                         --servo-us the frame rate, whole Hz (default 50)\n"
"  -d, --duty T           the duty cycle (the active time), at most the period\n"
"      --duty-cycle PCT   the duty cycle in percent of the period, 0 to 100\n"
"  -P, --polarity P       normal (active high, the default) or inversed\n"
"      --servo-us US      a servo pulse of US microseconds (1500: the middle),\n"
"                         clamped to the servo's range, said on stderr\n"
"      --servo-min US     that range, from 1000 us by default ...\n"
"      --servo-max US     ... to 2000 us: widen it only to what the servo\n"
"                         is made for (past its end stop it strains)\n"
"      --duration D       stop after D (10s, 500ms, 2m; a bare number is\n"
"                         seconds, at most 7 days); default: until SIGINT\n"
"                         or SIGTERM\n"
"      --priority N       the thread at SCHED_FIFO priority N, 1 to 99\n"
"                         (root or CAP_SYS_NICE; see udrv rt check)\n"
"      --cpu N            the thread on CPU N (an isolated one, at best)\n"
"      --lock-memory      mlockall() while it runs: no page fault stalls it\n"
"      --tail T           sleep until T before each edge, then busy-wait to\n"
"                         the deadline (at most 1ms): steadier edges, for\n"
"                         that much CPU time each\n"
"      --late T           an edge later than T makes its period a missed one\n"
"                         (default 50us)\n"
"      --hold daemon      udrvd holds the line (as udrv gpio set --hold\n"
"                         daemon; its policy granting you all on it): the\n"
"                         PWM drives udrvd's request, and the line stays\n"
"                         held at its inactive level after udrv exits\n"
"                         ('udrv gpio release LINE' lets go)\n"
"  -c, --chip CHIP        chip: gpiochip0, 0, /dev/gpiochip0 or a label\n"
"                         (optional when the line is given by name)\n"
"  -b, --backend B        cdev (default), sysfs or mmio (one store an edge)\n"
"      --layout SPEC      mmio on a SoC udrv does not know: udrv gpio set --help\n"
"  -l, --active-low       the line is active-low (inverted once more)\n"
"  -B, --bias B           as-is, disabled, pull-up, pull-down\n"
"      --drive D          push-pull, open-drain, open-source\n"
"  -C, --consumer NAME    consumer label shown to others (default udrv)\n"
"  -s, --strict           refuse a line name that names more than one line\n"
"  -j, --json             the counts as one JSON object: {\"chip\", \"line\",\n"
"                         \"offset\", \"period_ns\", \"duty_ns\", \"polarity\",\n"
"                         \"ended\", \"periods\", \"missed\", \"skipped\", \"edges\",\n"
"                         \"worst_late_ns\"}\n"
"\n"
"Exit status: 0 when stopped (by a signal or --duration); 1 when the PWM\n"
"failed (its thread's error, a priority not allowed, the chip gone); 2 for\n"
"a bad command line.\n"
"\n"
"Examples:\n"
"  udrv pwm run --frequency 1000 --duty-cycle 25 GPIO17     (an LED at 1 kHz, 25%)\n"
"  udrv pwm run --servo-us 1500 GPIO18                      (a servo, centred)\n"
"  udrv pwm run -c gpiochip0 --period 20ms --duty 1.5ms 18  (the same, by offset)\n"
"  udrv pwm run --servo-us 1000 --priority 80 --cpu 3 --lock-memory --duration 5s GPIO18\n"
"  udrv pwm run -b mmio -c pinctrl-bcm2835 -f 500 -d 200us --tail 20us 17\n";

/* pwm run's own options (pwm set's keep their letters, gpio's their names) */
enum {
	OPT_DUTY_CYCLE = 0x200, OPT_DRIVE, OPT_SERVO_US, OPT_SERVO_MIN, OPT_SERVO_MAX,
	OPT_DURATION, OPT_PRIORITY, OPT_CPU, OPT_LOCK_MEMORY, OPT_TAIL, OPT_LATE, OPT_HOLD,
};

static const struct option run_long_opts[] = {
	{ "period", required_argument, NULL, 'p' },
	{ "frequency", required_argument, NULL, 'f' },
	{ "duty", required_argument, NULL, 'd' },
	{ "duty-cycle", required_argument, NULL, OPT_DUTY_CYCLE },
	{ "polarity", required_argument, NULL, 'P' },
	{ "servo-us", required_argument, NULL, OPT_SERVO_US },
	{ "servo-min", required_argument, NULL, OPT_SERVO_MIN },
	{ "servo-max", required_argument, NULL, OPT_SERVO_MAX },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "priority", required_argument, NULL, OPT_PRIORITY },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "lock-memory", no_argument, NULL, OPT_LOCK_MEMORY },
	{ "tail", required_argument, NULL, OPT_TAIL },
	{ "late", required_argument, NULL, OPT_LATE },
	{ "hold", required_argument, NULL, OPT_HOLD },
	{ "layout", required_argument, NULL, OPT_LAYOUT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct run_opts {
	struct gpio_opts g;
	struct pwm_wave_args wave;
	bool servo, daemon;
	uint32_t servo_us, servo_min, servo_max;	/* 0: the default range's end */
	uint64_t duration_ns;				/* UINT64_MAX: until a signal */
	struct udrv_soft_pwm_config cfg;
};

/* The waveform to run. */
struct run_wave {
	uint64_t period, duty;
	enum udrv_pwm_polarity polarity;
};

/* gpio's options, --drive given a value of its own: -d is pwm set's --duty. */
static void long_opts(struct option *out)
{
	int k = 0;

	for (const struct option *p = run_long_opts; p->name; p++)
		out[k++] = *p;
	for (const struct option *p = gpio_long_opts; p->name; p++) {
		out[k] = *p;
		if (p->val == 'd')
			out[k].val = OPT_DRIVE;
		k++;
	}
	memset(&out[k], 0, sizeof(out[k]));
}

/* A servo's --servo-us, --servo-min or --servo-max: microseconds. */
static int parse_us(const char *opt, const char *arg, uint32_t *us)
{
	unsigned int v;

	if (udrv_parse_uint(arg, UINT32_MAX, &v))
		return cli_usage(CMD, "bad --%s '%s': whole microseconds (1500)", opt, arg);
	*us = v;
	return EXIT_OK;
}

/* --tail or --late: a time of the waveform's kind, 1 ns to @max. */
static int parse_rt_time(const char *opt, const char *arg, uint64_t max, uint32_t *ns)
{
	uint64_t v;

	if (pwm_parse_ns(arg, &v) || !v || v > max)
		return cli_usage(CMD, "bad --%s '%s': a time above 0 and at most %" PRIu64 " ns, with a unit (20us) or in ns",
				 opt, arg, max);
	*ns = (uint32_t)v;
	return EXIT_OK;
}

static int parse_duration(struct run_opts *o, const char *arg)
{
	if (cli_parse_duration_ns(arg, &o->duration_ns) || !o->duration_ns)
		return cli_usage(CMD, "bad --duration '%s': a time above 0 (10s, 500ms, 2m; a bare number is seconds), at most 7 days; leave it out to run until Ctrl-C",
				 arg);
	return EXIT_OK;
}

/* --priority N or --cpu N into the thread's configuration. */
static int parse_sched(struct run_opts *o, int opt, const char *arg)
{
	long v;

	if (opt == OPT_PRIORITY) {
		if (cli_parse_int(arg, 1, 99, &v))
			return cli_usage(CMD, "bad --priority '%s': a SCHED_FIFO priority, 1 to 99", arg);
		o->cfg.priority = (int)v;
		return EXIT_OK;
	}
	if (cli_parse_int(arg, 0, CPU_SETSIZE - 1, &v))
		return cli_usage(CMD, "bad --cpu '%s': a CPU number, 0 to %d (see nproc)", arg,
				 CPU_SETSIZE - 1);
	o->cfg.cpu = (int)v;
	o->cfg.flags |= UDRV_SOFT_PWM_PIN_CPU;
	return EXIT_OK;
}

/* One of pwm run's own options, after the waveform's and gpio's. */
static int run_opt(struct run_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_SERVO_US:
		o->servo = true;
		return parse_us("servo-us", arg, &o->servo_us);
	case OPT_SERVO_MIN:
		return parse_us("servo-min", arg, &o->servo_min);
	case OPT_SERVO_MAX:
		return parse_us("servo-max", arg, &o->servo_max);
	case OPT_DURATION:
		return parse_duration(o, arg);
	case OPT_PRIORITY:
	case OPT_CPU:
		return parse_sched(o, opt, arg);
	case OPT_LOCK_MEMORY:
		o->cfg.flags |= UDRV_SOFT_PWM_LOCK_MEMORY;
		return EXIT_OK;
	case OPT_TAIL:
		return parse_rt_time("tail", arg, UDRV_SOFT_PWM_TAIL_MAX_NS, &o->cfg.tail_ns);
	case OPT_LATE:
		return parse_rt_time("late", arg, UINT32_MAX, &o->cfg.late_ns);
	case OPT_HOLD:
		if (strcmp(arg, "daemon"))
			return cli_usage(CMD, "bad --hold '%s': daemon (udrvd holds the line; without --hold udrv releases it at the end, inactive)",
					 arg);
		o->daemon = true;
		return EXIT_OK;
	default:
		return cli_usage(CMD, "bad option");
	}
}

/* An option of the waveform, or of the line (gpio's): 1 taken, 0 not
 * one of them, or -1 after a usage message. */
static int shared_opt(struct run_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'p': o->wave.period = arg; return 1;
	case 'f': o->wave.frequency = arg; return 1;
	case 'd': o->wave.duty = arg; return 1;
	case OPT_DUTY_CYCLE: o->wave.duty_cycle = arg; return 1;
	case 'P': o->wave.polarity = arg; return 1;
	case OPT_DRIVE: return gpio_opt_parse(&o->g, 'd', arg, CMD);
	case OPT_LAYOUT: return gpio_layout_opt(&o->g, arg, CMD) ? -1 : 1;
	default: return gpio_opt_parse(&o->g, opt, arg, CMD);
	}
}

/* The options: 0, an exit code, or -1 after printing the help. */
static int parse_run(int argc, char **argv, struct run_opts *o)
{
	struct option longopts[32];
	int opt, ret;

	*o = (struct run_opts){ .duration_ns = UINT64_MAX };
	long_opts(longopts);
	while ((opt = getopt_long(argc, argv, "c:b:lB:C:jsp:f:d:P:h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(run_help);
			cli_print_help(run_help_opts);
			return -1;
		}
		if (opt == '?')
			return cli_usage(CMD, "bad option");
		ret = shared_opt(o, opt, optarg);
		if (ret < 0)
			return EXIT_USAGE;
		if (!ret && (ret = run_opt(o, opt, optarg)))
			return ret;
	}
	if (argc - optind < 1)
		return cli_usage(CMD, "which line? give LINE (a name, or an offset with -c)");
	if (argc - optind > 1)
		return cli_usage(CMD, "unexpected argument '%s': one LINE a run", argv[optind + 1]);
	return EXIT_OK;
}

/* The frame rate of a servo: --frequency in whole Hz, or 50. */
static int servo_frame(const struct run_opts *o, const struct pwm_target *t, uint32_t *hz)
{
	const uint64_t ns_per_s = 1000000000ULL;
	uint64_t f;

	*hz = UDRV_SERVO_FRAME_HZ;
	if (!t->period_given)
		return EXIT_OK;
	f = (ns_per_s + t->period / 2) / t->period;
	if (!f || f > UINT32_MAX || (ns_per_s + f / 2) / f != t->period)
		return cli_usage(CMD, "--frequency %s with --servo-us: a servo's frame rate in whole Hz (50, 333)",
				 o->wave.frequency);
	*hz = (uint32_t)f;
	return EXIT_OK;
}

/* --servo-us: its period and duty cycle, clamped to the servo's range. */
static int servo_wave(const struct run_opts *o, const struct pwm_target *t, struct run_wave *w)
{
	uint32_t lo = o->servo_min ? o->servo_min : UDRV_SERVO_MIN_US;
	uint32_t hi = o->servo_max ? o->servo_max : UDRV_SERVO_MAX_US, hz;
	int ret;

	if (o->wave.period || t->duty_given || t->pct_given)
		return cli_usage(CMD, "--servo-us gives the pulse: with it --frequency (the frame rate) alone, no --period, --duty or --duty-cycle");
	if (lo > hi)
		return cli_usage(CMD, "the servo's range, %" PRIu32 " to %" PRIu32 " us, is empty: --servo-min at most --servo-max",
				 lo, hi);
	ret = servo_frame(o, t, &hz);
	if (ret)
		return ret;
	ret = udrv_servo_pulse(hz, o->servo_us, lo, hi, &w->period, &w->duty);
	if (ret < 0)
		return cli_usage(CMD, "a pulse of up to %" PRIu32 " us (--servo-max) leaves no gap in a frame of %" PRIu32 " Hz: a lower --frequency or --servo-max",
				 hi, hz);
	if (ret)
		fprintf(stderr, "udrv: note: --servo-us %" PRIu32 " is outside the servo's range, %" PRIu32 " to %" PRIu32 " us: clamped to %" PRIu64 " us (--servo-min and --servo-max widen it, only to what the servo is made for)\n",
			o->servo_us, lo, hi, w->duty / 1000);
	return EXIT_OK;
}

/* The waveform of --period/--frequency and --duty/--duty-cycle. */
static int plain_wave(const struct run_opts *o, const struct pwm_target *t, struct run_wave *w)
{
	if (o->servo_min || o->servo_max)
		return cli_usage(CMD, "--servo-min and --servo-max go with --servo-us");
	if (!t->period_given)
		return cli_usage(CMD, "give the period: --frequency HZ or --period T (or --servo-us US for a servo)");
	if (!t->duty_given && !t->pct_given)
		return cli_usage(CMD, "give the duty cycle: --duty T or --duty-cycle PCT");
	w->period = t->period;
	w->duty = t->pct_given ? pwm_duty_of(t->period, t->pct) : t->duty;
	return EXIT_OK;
}

static int resolve_wave(const struct run_opts *o, struct run_wave *w)
{
	struct pwm_target t;
	int ret = pwm_parse_target(CMD, &o->wave, &t);

	if (ret)
		return ret;
	w->polarity = t.polarity < 0 ? UDRV_PWM_POLARITY_NORMAL : (enum udrv_pwm_polarity)t.polarity;
	ret = o->servo ? servo_wave(o, &t, w) : plain_wave(o, &t, w);
	if (ret)
		return ret;
	if (w->period < UDRV_SOFT_PWM_PERIOD_MIN_NS || w->period > UDRV_SOFT_PWM_PERIOD_MAX_NS)
		return cli_usage(CMD, "a period of %" PRIu64 " ns: the software PWM takes %llu ns (100 kHz) to %llu ns (60 s); a PWM controller goes faster (udrv pwm set)",
				 w->period, UDRV_SOFT_PWM_PERIOD_MIN_NS, UDRV_SOFT_PWM_PERIOD_MAX_NS);
	return EXIT_OK;
}

/* The line as an output at its inactive level (the logical level: 1 for
 * an inversed PWM), from the chip or through udrvd, into @t. */
static int open_line(const struct run_opts *o, const struct run_wave *w, char *line,
		     struct udrv_chip **chip, struct gpio_taken *t)
{
	struct udrv_line_settings s = o->g.settings;
	int ret;

	s.direction = UDRV_DIR_OUTPUT;
	s.value = w->polarity == UDRV_PWM_POLARITY_INVERSED;
	*t = (struct gpio_taken){ 0 };
	if (o->daemon)
		return gpio_take_daemon(&o->g, line, &s, t);
	ret = gpio_resolve(&o->g, 1, &line, chip, &t->offset);
	if (ret)
		return ret;
	snprintf(t->chip, sizeof(t->chip), "%s", udrv_chip_name(*chip));
	ret = udrv_chip_request(*chip, &o->g.config, 1, &t->offset, &s, &t->req);
	return ret ? cli_request_error(*chip, &o->g.config, ret) : EXIT_OK;
}

/*
 * Until SIGINT or SIGTERM (blocked since before the line was requested,
 * taken here by sigtimedwait(): none is lost, no handler runs) or the end
 * of @ns: the signal, 0 for the time, or the thread's negative errno.
 */
static int wait_end(struct udrv_soft_pwm *pwm, uint64_t ns, const sigset_t *stop)
{
	uint64_t end = ns == UINT64_MAX ? UINT64_MAX : cli_now_ns() + ns;

	for (;;) {
		uint64_t now = cli_now_ns(), left = end - now;
		struct timespec ts;
		int sig, running = udrv_soft_pwm_running(pwm);

		if (running < 0)
			return running;
		if (now >= end)
			return 0;
		if (left > CHECK_NS)
			left = CHECK_NS;
		ts = (struct timespec){ .tv_nsec = (long)left };
		sig = sigtimedwait(stop, NULL, &ts);
		if (sig > 0)
			return sig;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

/* What ended a run, as wait_end() says. */
static const char *ended_by(int why)
{
	return why == SIGINT ? "SIGINT" : why == SIGTERM ? "SIGTERM" : "duration";
}

/* The run and its counts (into @st); *@why what ended it: an exit code. */
static int run_pwm(const struct gpio_taken *t, const struct run_opts *o,
		   const struct run_wave *w, const sigset_t *stop,
		   struct udrv_soft_pwm_stats *st, int *why)
{
	struct udrv_soft_pwm *pwm;
	int ret = EXIT_OK;

	if (udrv_soft_pwm_new(t->req, t->idx, &o->cfg, &pwm))
		return cli_error(EXIT_FAIL, "%s", udrv_request_errmsg(t->req));
	if (udrv_soft_pwm_set_polarity(pwm, w->polarity) ||
	    udrv_soft_pwm_set_config(pwm, w->period, w->duty) || udrv_soft_pwm_start(pwm))
		ret = cli_error(EXIT_FAIL, "%s", udrv_soft_pwm_errmsg(pwm));
	else
		*why = wait_end(pwm, o->duration_ns, stop);
	/* the line left inactive; the thread's own error, if it ended on one */
	if (udrv_soft_pwm_stop(pwm) && !ret)
		ret = cli_error(EXIT_FAIL, "%s", udrv_soft_pwm_errmsg(pwm));
	else if (*why < 0 && !ret)
		ret = cli_error(EXIT_FAIL, "waiting for SIGINT or SIGTERM: %s", strerror(-*why));
	udrv_soft_pwm_stats(pwm, st);
	udrv_soft_pwm_free(pwm);
	return ret;
}

/* What the line is called, where: for the output. */
struct run_view {
	const char *chip, *line;
	unsigned int offset;
	const struct run_wave *w;
	const char *ended;
	struct udrv_soft_pwm_stats st;
};

static void show_json(const struct run_view *v)
{
	struct udrv_json *j = cli_json_begin(true);

	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "chip", v->chip);
	udrv_json_kstr(j, "line", v->line);
	udrv_json_kuint(j, "offset", v->offset);
	udrv_json_kuint(j, "period_ns", v->w->period);
	udrv_json_kuint(j, "duty_ns", v->w->duty);
	udrv_json_kstr(j, "polarity", udrv_pwm_polarity_str(v->w->polarity));
	udrv_json_kstr(j, "ended", v->ended);
	udrv_json_kuint(j, "periods", v->st.periods);
	udrv_json_kuint(j, "missed", v->st.missed);
	udrv_json_kuint(j, "skipped", v->st.skipped);
	udrv_json_kuint(j, "edges", v->st.edges);
	udrv_json_kuint(j, "worst_late_ns", v->st.worst_late_ns);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static void show_text(const struct run_view *v)
{
	const struct run_wave *w = v->w;

	printf("%s line %u (%s): period %" PRIu64 " ns (%.6g Hz), duty cycle %" PRIu64 " ns (%.6g%%), polarity %s; ended by %s, the line left inactive\n",
	       v->chip, v->offset, v->line, w->period, 1e9 / (double)w->period, w->duty,
	       (double)w->duty * 100.0 / (double)w->period, udrv_pwm_polarity_str(w->polarity),
	       v->ended);
	printf("periods %" PRIu64 ", missed %" PRIu64 ", skipped %" PRIu64 ", edges %" PRIu64 ", worst lateness %" PRIu64 " ns\n",
	       v->st.periods, v->st.missed, v->st.skipped, v->st.edges, v->st.worst_late_ns);
}

/* The counts: JSON with --json, else text. */
static void print_counts(const struct run_view *v, bool json)
{
	if (json)
		show_json(v);
	else
		show_text(v);
}

/* The run on the open line, the signals blocked: an exit code. */
static int run_line(const struct gpio_taken *t, const struct run_opts *o,
		    const struct run_wave *w, const sigset_t *stop, const char *line)
{
	struct run_view v = { .chip = t->chip, .line = line, .offset = t->offset, .w = w };
	int why = 0, ret = run_pwm(t, o, w, stop, &v.st, &why);

	if (ret)
		return ret;
	v.ended = ended_by(why);
	print_counts(&v, o->g.json);
	return EXIT_OK;
}

int cmd_pwm_run(int argc, char **argv)
{
	struct udrv_chip *chip = NULL;
	struct gpio_taken t;
	struct run_opts o;
	struct run_wave w;
	sigset_t stop;
	int ret = parse_run(argc, argv, &o);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = resolve_wave(&o, &w);
	if (!ret && o.daemon && o.g.config.backend != UDRV_BACKEND_CDEV)
		ret = cli_usage(CMD, "--hold daemon: udrvd holds lines through the character device; leave out --backend");
	if (ret)
		return ret;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	/* left blocked to the end: a second signal while udrv prints is
	 * taken as the first was, and kills nothing */
	sigprocmask(SIG_BLOCK, &stop, NULL);
	ret = open_line(&o, &w, argv[optind], &chip, &t);
	if (!ret)
		ret = run_line(&t, &o, &w, &stop, argv[optind]);
	udrv_request_release(t.req);
	udrv_chip_free(chip);
	return ret;
}
