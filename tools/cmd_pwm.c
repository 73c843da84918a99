// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv pwm list|get|set: hardware PWM through the kernel's PWM class
 * (/sys/class/pwm). set's values are pwm_args.c's. (run, the software PWM
 * on a GPIO line: cmd_pwm_run.c.)
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_pwm.h"
#include "commands.h"

#define PWM_LIST_CHANNELS_MAX	1024	/* a chip claiming more: the first */

static const char pwm_help[] =
"Usage: udrv pwm COMMAND [OPTIONS] ...\n"
"\n"
"Hardware PWM through the kernel's PWM class (/sys/class/pwm): list, get\n"
"and set take CHIP CHANNEL, CHIP the chip's number (0), name (pwmchip0),\n"
"path (/sys/class/pwm/pwmchip0) or its parent device's name (fe20c000.pwm),\n"
"CHANNEL a channel of it, from 0. A software PWM on any GPIO output line,\n"
"from a thread of udrv's: run LINE.\n"
"\n"
"Commands:\n"
"  list       the PWM chips and their channels\n"
"  get        a channel's period, duty cycle, polarity and state\n"
"  set        set them (the channel exported when it is not)\n"
"  run        a software PWM on a GPIO line, until Ctrl-C, then its counts\n"
"\n"
"Examples:\n"
"  udrv pwm list\n"
"  udrv pwm set 0 0 --frequency 50 --duty 1.5ms --enable\n"
"  udrv pwm get pwmchip0 0\n"
"  udrv pwm run --frequency 1000 --duty-cycle 25 GPIO17\n"
"  udrv pwm run --servo-us 1500 GPIO18\n";

struct pwm_opts {
	bool json;
	struct pwm_wave_args wave;
	int enable;			/* 1 --enable, 0 --disable, -1 neither */
};

#define OPT_DUTY_CYCLE	0x100
#define OPT_DISABLE	0x101

static const struct option pwm_long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "period", required_argument, NULL, 'p' },
	{ "frequency", required_argument, NULL, 'f' },
	{ "duty", required_argument, NULL, 'd' },
	{ "duty-cycle", required_argument, NULL, OPT_DUTY_CYCLE },
	{ "polarity", required_argument, NULL, 'P' },
	{ "enable", no_argument, NULL, 'e' },
	{ "disable", no_argument, NULL, OPT_DISABLE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char *opt_name(int opt)
{
	for (const struct option *o = pwm_long_opts; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static void pwm_opt(struct pwm_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'j': o->json = true; break;
	case 'p': o->wave.period = arg; break;
	case 'f': o->wave.frequency = arg; break;
	case 'd': o->wave.duty = arg; break;
	case OPT_DUTY_CYCLE: o->wave.duty_cycle = arg; break;
	case 'P': o->wave.polarity = arg; break;
	case 'e': o->enable = 1; break;
	case OPT_DISABLE: o->enable = 0; break;
	}
}

/* The options of @cmd (@nargs arguments after them): 0, an exit code, or
 * -1 after printing @help. @allowed: the option values it takes. */
static int parse_pwm(int argc, char **argv, struct pwm_opts *o, const int *allowed,
		     const char *cmd, const char *help, int nargs)
{
	bool seen_enable = false;
	int opt;

	*o = (struct pwm_opts){ .enable = -1 };
	while ((opt = getopt_long(argc, argv, "jp:f:d:P:eh", pwm_long_opts, NULL)) != -1) {
		bool ok = false;

		if (opt == 'h') {
			cli_print_help(help);
			return -1;
		}
		if (opt == '?')
			return EXIT_USAGE;
		for (const int *a = allowed; *a; a++)
			ok |= *a == opt;
		if (!ok)
			return cli_usage(cmd, "option --%s does not apply to %s", opt_name(opt),
					 cmd);
		if ((opt == 'e' || opt == OPT_DISABLE) && seen_enable &&
		    o->enable != (opt == 'e'))
			return cli_usage(cmd, "--enable or --disable, not both");
		seen_enable |= opt == 'e' || opt == OPT_DISABLE;
		pwm_opt(o, opt, optarg);
	}
	if (argc - optind > nargs)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind + nargs]);
	if (argc - optind < nargs)
		return cli_usage(cmd, "give CHIP and CHANNEL");
	return EXIT_OK;
}

static int parse_channel(const char *cmd, const char *s, unsigned int *ch)
{
	if (udrv_parse_uint(s, UINT32_MAX, ch))
		return cli_usage(cmd, "bad CHANNEL '%s': a channel number, 0 to %u", s, UINT32_MAX);
	return EXIT_OK;
}

/*
 * Channel @ch of @chip opened with @flags into *@out: 0, or an exit code (2
 * for what the command line got wrong: no such form of chip, a channel
 * the chip lacks). With UDRV_PWM_NO_EXPORT a channel that is not exported
 * leaves the chip alone open (udrv_pwm_channel() -1), and so does one in
 * use through /dev/pwmchipN (then *@held, if given, is true).
 */
static int open_channel(const char *chip, unsigned int ch, unsigned int flags,
			struct udrv_pwm **out, bool *held)
{
	struct udrv_pwm *pwm = udrv_pwm_new();
	int err;

	*out = NULL;
	if (!pwm)
		return cli_error(EXIT_FAIL, "out of memory");
	err = udrv_pwm_open(pwm, chip, ch, flags);
	if (err == -EBUSY && held && flags & UDRV_PWM_NO_EXPORT &&
	    udrv_pwm_open_chip(pwm, chip) == 0) {
		*held = true;	/* requested by someone else: not ours to show */
		err = 0;
	}
	if (err == -ENOENT && flags & UDRV_PWM_NO_EXPORT && udrv_pwm_open_chip(pwm, chip) == 0)
		err = 0;	/* the chip is there, the channel not exported */
	if (!err) {
		*out = pwm;
		return EXIT_OK;
	}
	err = cli_error(err == -EINVAL || err == -ERANGE ? EXIT_USAGE : EXIT_FAIL, "%s",
			udrv_pwm_errmsg(pwm));
	udrv_pwm_free(pwm);
	return err;
}

struct pwm_view {
	char chip[24];			/* "pwmchip0" */
	unsigned int channel;
	bool exported, enabled;
	bool requested;			/* through /dev/pwmchipN: hw known */
	bool held;			/* in use: a driver's or another's */
	uint64_t period, duty;
	enum udrv_pwm_polarity polarity;
	struct udrv_pwm_waveform hw;	/* what the hardware makes */
};

/* What sysfs reads back of channel @ch (not exported: @pwm has the chip
 * alone), or the character device: 0 or an exit code. */
static int read_view(struct udrv_pwm *pwm, unsigned int ch, struct pwm_view *v)
{
	int enabled;

	*v = (struct pwm_view){ .channel = ch };
	snprintf(v->chip, sizeof(v->chip), "pwmchip%u", udrv_pwm_chip_number(pwm));
	if (udrv_pwm_channel(pwm) < 0)
		return EXIT_OK;
	enabled = udrv_pwm_enabled(pwm);
	if (enabled < 0 || udrv_pwm_period_ns(pwm, &v->period) ||
	    udrv_pwm_duty_ns(pwm, &v->duty) || udrv_pwm_polarity(pwm, &v->polarity))
		return cli_error(EXIT_FAIL, "%s", udrv_pwm_errmsg(pwm));
	v->requested = udrv_pwm_has_waveform(pwm);
	if (v->requested && udrv_pwm_waveform(pwm, &v->hw))
		return cli_error(EXIT_FAIL, "%s", udrv_pwm_errmsg(pwm));
	v->exported = !v->requested;
	v->enabled = enabled;
	return EXIT_OK;
}

static void show_human(const struct pwm_view *v, bool head)
{
	if (head)
		printf("%s channel %u: ", v->chip, v->channel);
	else
		printf("  channel %-3u ", v->channel);
	if (v->held) {
		printf("in use (a kernel driver or another process holds it)\n");
		return;
	}
	if (!v->exported && !v->requested) {
		printf("not exported%s\n", head ? " (udrv pwm set exports it)" : "");
		return;
	}
	printf("%s, period %" PRIu64 " ns", v->enabled ? "enabled" : "disabled", v->period);
	if (v->period)
		printf(" (%.6g Hz)", 1e9 / (double)v->period);
	printf(", duty cycle %" PRIu64 " ns", v->duty);
	if (v->period)
		printf(" (%.6g%%)", (double)v->duty * 100.0 / (double)v->period);
	printf(", polarity %s\n", udrv_pwm_polarity_str(v->polarity));
	if (v->requested)
		printf("%shardware (/%s): period %" PRIu64 " ns, high %" PRIu64 " ns from %" PRIu64 " ns\n",
		       head ? "  " : "                ", v->chip, v->hw.period_ns, v->hw.duty_ns,
		       v->hw.offset_ns);
}

static void show_json(const struct pwm_view *v, struct udrv_json *j, bool chip)
{
	udrv_json_obj_begin(j);
	if (chip)
		udrv_json_kstr(j, "chip", v->chip);
	udrv_json_kuint(j, "channel", v->channel);
	udrv_json_kbool(j, "exported", v->exported);
	if (v->held)
		udrv_json_kbool(j, "in_use", true);
	if (v->exported || v->requested) {
		udrv_json_kbool(j, "enabled", v->enabled);
		udrv_json_kuint(j, "period_ns", v->period);
		udrv_json_kuint(j, "duty_ns", v->duty);
		udrv_json_kstr(j, "polarity", udrv_pwm_polarity_str(v->polarity));
	}
	if (v->requested) {
		udrv_json_key(j, "hardware");
		udrv_json_obj_begin(j);
		udrv_json_kuint(j, "period_ns", v->hw.period_ns);
		udrv_json_kuint(j, "duty_ns", v->hw.duty_ns);
		udrv_json_kuint(j, "offset_ns", v->hw.offset_ns);
		udrv_json_obj_end(j);
	}
	udrv_json_obj_end(j);
}

/* One channel as get and set print it: JSON with --json, else text */
static int print_channel(const struct pwm_view *v, bool json)
{
	struct udrv_json *j = cli_json_begin(json);

	if (j)
		show_json(v, j, true);
	else
		show_human(v, true);
	cli_json_end(j);
	return EXIT_OK;
}

/* Channel @ch of @chip as get shows it: an exit code. */
static int show_channel(const char *chip, unsigned int ch, bool json)
{
	struct pwm_view v;
	struct udrv_pwm *pwm;
	bool held = false;
	int ret = open_channel(chip, ch, UDRV_PWM_NO_EXPORT, &pwm, &held);

	if (ret)
		return ret;
	ret = read_view(pwm, ch, &v);
	v.held = held;
	udrv_pwm_free(pwm);
	if (ret)
		return ret;
	return print_channel(&v, json);
}

/* ---- list ---- */

static const char list_help[] =
"Usage: udrv pwm list [--json]\n"
"\n"
"List the PWM chips (/sys/class/pwm/pwmchipN): number, parent device,\n"
"channel count, and each channel's state when it is exported (its period,\n"
"duty cycle and polarity as sysfs reads them back: what was requested).\n"
"\n"
"Options:\n"
"  -j, --json         a JSON array of chips, each with its channels\n";

/* The channels of the open chip @chip: an exit code. */
static int list_channels(const struct udrv_pwm *chip, const char *name, struct udrv_json *j)
{
	unsigned int n = udrv_pwm_npwm(chip);
	int ret = EXIT_OK;

	if (n > PWM_LIST_CHANNELS_MAX)
		n = PWM_LIST_CHANNELS_MAX;
	for (unsigned int ch = 0; ch < n; ch++) {
		struct pwm_view v;
		struct udrv_pwm *pwm;
		bool held = false;
		int err = open_channel(name, ch, UDRV_PWM_NO_EXPORT, &pwm, &held);

		if (!err)
			err = read_view(pwm, ch, &v);
		v.held = held;
		udrv_pwm_free(pwm);
		if (err) {
			ret = EXIT_FAIL;
			continue;
		}
		if (j)
			show_json(&v, j, false);
		else
			show_human(&v, false);
	}
	return ret;
}

static int list_chip(const char *name, struct udrv_json *j)
{
	struct udrv_pwm *chip = udrv_pwm_new();
	int ret;

	if (!chip)
		return cli_error(EXIT_FAIL, "out of memory");
	if (udrv_pwm_open_chip(chip, name)) {
		ret = cli_error(EXIT_FAIL, "%s", udrv_pwm_errmsg(chip));
		udrv_pwm_free(chip);
		return ret;
	}
	if (j) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "chip", name);
		udrv_json_kuint(j, "number", udrv_pwm_chip_number(chip));
		udrv_json_kstr(j, "device", udrv_pwm_device(chip));
		udrv_json_kuint(j, "npwm", udrv_pwm_npwm(chip));
		udrv_json_key(j, "channels");
		udrv_json_arr_begin(j);
	} else {
		printf("%s  %s  %u channel%s\n", name,
		       udrv_pwm_device(chip)[0] ? udrv_pwm_device(chip) : "(no device)",
		       udrv_pwm_npwm(chip), udrv_pwm_npwm(chip) == 1 ? "" : "s");
	}
	ret = list_channels(chip, name, j);
	if (j) {
		udrv_json_arr_end(j);
		udrv_json_obj_end(j);
	}
	udrv_pwm_free(chip);
	return ret;
}

static int pwm_list(int argc, char **argv)
{
	static const int allowed[] = { 'j', 0 };
	struct udrv_json *j;
	struct pwm_opts o;
	char **names = NULL;
	int n, ret = parse_pwm(argc, argv, &o, allowed, "pwm list", list_help, 0);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	n = udrv_pwm_list(&names);
	if (n < 0)
		return cli_error(EXIT_FAIL, "cannot list the PWM chips: %s", strerror(-n));
	j = cli_json_begin(o.json);
	if (j)
		udrv_json_arr_begin(j);
	if (!n)
		fprintf(j ? stderr : stdout,
			"no PWM chip (/sys/class/pwm is empty or missing: no PWM controller enabled, on a Raspberry Pi dtoverlay=pwm or pwm-2chan; or a kernel without CONFIG_PWM)\n");
	for (int i = 0; i < n; i++)
		if (list_chip(names[i], j))
			ret = EXIT_FAIL;
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_strv_free(names);
	return ret;
}

/* ---- get ---- */

static const char get_help[] =
"Usage: udrv pwm get [--json] CHIP CHANNEL\n"
"\n"
"Show a channel: enabled or not, its period and duty cycle in ns (with the\n"
"frequency and the percentage they make) and its polarity. Through sysfs\n"
"they are what sysfs reads back: what was requested, not what the\n"
"controller rounded them to; a channel that is not exported is shown so,\n"
"and left alone. Where the chip has /dev/pwmchipN (Linux 6.16 and later)\n"
"the channel is requested for the moment (not exported), and the\n"
"hardware's own waveform follows: its period, and how long the output is\n"
"high from which offset in each period (inversed polarity is an offset).\n"
"\n"
"Options:\n"
"  -j, --json         {\"chip\", \"channel\", \"exported\", \"enabled\", \"period_ns\",\n"
"                     \"duty_ns\", \"polarity\"}, and through /dev/pwmchipN\n"
"                     \"hardware\": {\"period_ns\", \"duty_ns\", \"offset_ns\"}\n";

static int pwm_get(int argc, char **argv)
{
	static const int allowed[] = { 'j', 0 };
	struct pwm_opts o;
	unsigned int ch;
	int ret = parse_pwm(argc, argv, &o, allowed, "pwm get", get_help, 2);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = parse_channel("pwm get", argv[optind + 1], &ch);
	return ret ? ret : show_channel(argv[optind], ch, o.json);
}

/* ---- set ---- */

static const char set_help[] =
"Usage: udrv pwm set [OPTIONS] CHIP CHANNEL\n"
"\n"
"A PWM output repeats a period: it is active for the duty cycle, then\n"
"inactive for the rest of the period. The frequency is 1 / period; the\n"
"duty cycle is also given as a percentage of the period. A servo reads\n"
"the pulse's width: at 50 Hz (a period of 20 ms), 1 ms to 2 ms, 1.5 ms\n"
"the middle. An LED's brightness follows the percentage.\n"
"\n"
"The channel is exported when it is not, and stays exported when udrv\n"
"exits (the output runs on; unless the command failed). The period and\n"
"duty cycle are written in the order the kernel takes them; each value is\n"
"checked before anything is written. The new state is shown as sysfs\n"
"reads it back. Where the chip has /dev/pwmchipN (Linux 6.16 and later)\n"
"the channel is requested instead, set in one waveform and freed when\n"
"udrv exits, the output running on; the new state is shown with what the\n"
"hardware rounded it to.\n"
"\n"
"Times are nanoseconds (20000000), or a number with a unit: ns, us, ms, s\n"
"(20ms, 1.5ms, 500us).\n"
"\n"
"Options:\n"
"  -p, --period T         the period\n"
"  -f, --frequency HZ     the period as a frequency (50, 0.5, 1000), above 0\n"
"                         and at most 1 GHz, rounded to the nearest ns\n"
"  -d, --duty T           the duty cycle, at most the period\n"
"      --duty-cycle PCT   the duty cycle in percent of the period, 0 to 100,\n"
"                         with decimals (7.5, 50%)\n"
"  -P, --polarity P       normal (active high) or inversed (active low); not\n"
"                         while the channel is enabled: --disable first\n"
"  -e, --enable           start the output (it needs a period)\n"
"      --disable          stop it (first, before the other settings)\n"
"  -j, --json             the new state, as udrv pwm get --json shows it\n"
"\n"
"Examples:\n"
"  udrv pwm set 0 0 --frequency 50 --duty 1.5ms --enable      (a servo, centred)\n"
"  udrv pwm set 0 0 --period 20000000 --duty 1500000 --enable (the same in ns)\n"
"  udrv pwm set fe20c000.pwm 1 --frequency 1000 --duty-cycle 25 --enable\n"
"  udrv pwm set 0 0 --disable --polarity inversed\n";

/* What pwm set is told: the waveform (pwm_parse_target()), or --enable
 * or --disable alone. */
static int parse_target(const struct pwm_opts *o, struct pwm_target *t)
{
	int ret = pwm_parse_target("pwm set", &o->wave, t);

	if (ret)
		return ret;
	if (!t->period_given && !t->duty_given && !t->pct_given && t->polarity < 0 &&
	    o->enable < 0)
		return cli_usage("pwm set", "nothing to set: give --period or --frequency, --duty or --duty-cycle, --polarity, --enable or --disable");
	return EXIT_OK;
}

/* The target against the channel's state now (@now): 0 or EXIT_USAGE. */
static int resolve_target(struct pwm_target *t, const struct pwm_view *now)
{
	uint64_t period = t->period_given ? t->period : now->period;

	if ((t->duty_given || t->pct_given) && !period)
		return cli_usage("pwm set", "the channel's period is 0: give --period or --frequency with the duty cycle");
	if (t->pct_given)
		t->duty = pwm_duty_of(period, t->pct);
	else if (!t->duty_given)
		t->duty = now->duty;
	if (t->duty > period)
		return cli_usage("pwm set", t->duty_given ?
				 "--duty %" PRIu64 " ns is longer than the channel's period, %" PRIu64 " ns: give --period too" :
				 "the channel's duty cycle, %" PRIu64 " ns, is longer than the new period, %" PRIu64 " ns: give --duty or --duty-cycle too",
				 t->duty, period);
	t->period = period;
	return EXIT_OK;
}

static int apply(struct udrv_pwm *pwm, const struct pwm_opts *o, const struct pwm_target *t)
{
	int err = 0;

	if (o->enable == 0)
		err = udrv_pwm_disable(pwm);
	if (!err && t->polarity >= 0) {
		err = udrv_pwm_set_polarity(pwm, (enum udrv_pwm_polarity)t->polarity);
		if (err == -EBUSY)
			return cli_error(EXIT_FAIL, "%s (with --disable, then --enable in a second run)",
					 udrv_pwm_errmsg(pwm));
	}
	if (!err && (t->period_given || t->duty_given || t->pct_given))
		err = udrv_pwm_set_config(pwm, t->period, t->duty);
	if (!err && o->enable == 1)
		err = udrv_pwm_enable(pwm);
	return err ? cli_error(EXIT_FAIL, "%s", udrv_pwm_errmsg(pwm)) : EXIT_OK;
}

static int set_channel(struct udrv_pwm *pwm, unsigned int ch, const struct pwm_opts *o,
		       struct pwm_target *t, struct pwm_view *v)
{
	int ret = read_view(pwm, ch, v);

	if (!ret)
		ret = resolve_target(t, v);
	if (!ret)
		ret = apply(pwm, o, t);
	if (!ret)
		ret = read_view(pwm, ch, v);
	if (ret || !udrv_pwm_owns_export(pwm))
		return ret;	/* an export of ours undone at close */
	udrv_pwm_set_keep_exported(pwm, true);
	fprintf(stderr,
		"udrv: exported %s channel %u; it stays exported after udrv exits (echo %u > /sys/class/pwm/%s/unexport gives it back)\n",
		v->chip, ch, ch, v->chip);
	return EXIT_OK;
}

static int pwm_set(int argc, char **argv)
{
	static const int allowed[] = { 'j', 'p', 'f', 'd', OPT_DUTY_CYCLE, 'P', 'e', OPT_DISABLE, 0 };
	struct pwm_target t;
	struct udrv_pwm *pwm = NULL;
	struct pwm_view v;
	struct pwm_opts o;
	unsigned int ch = 0;
	int ret = parse_pwm(argc, argv, &o, allowed, "pwm set", set_help, 2);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = parse_channel("pwm set", argv[optind + 1], &ch);
	if (!ret)
		ret = parse_target(&o, &t);
	if (!ret)
		ret = open_channel(argv[optind], ch, 0, &pwm, NULL);
	if (ret)
		return ret;
	ret = set_channel(pwm, ch, &o, &t, &v);
	udrv_pwm_free(pwm);
	if (ret)
		return ret;
	return print_channel(&v, o.json);
}

int cmd_pwm(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "list", pwm_list, "list chips" },
		{ "get", pwm_get, "show a channel" },
		{ "set", pwm_set, "set a channel" },
		{ "run", cmd_pwm_run, "a software PWM on a GPIO line" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("pwm", cmds, argc - 1, argv + 1, pwm_help);
}
