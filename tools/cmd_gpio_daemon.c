// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gpio commands through udrvd: 'udrv gpio set --hold daemon' and
 * 'udrv gpio release' (lines udrvd holds; 'udrv pwm run --hold daemon'
 * drives one through udrvd's request), and get, mon and info for a user
 * whom the chip refuses but udrvd's policy grants lines (--via). The lines
 * are found through udrvd's objects, so the user needs no access to the
 * chip, only a rule in udrvd's policy. Through udrvd's client (client/,
 * sd-bus); a udrv built without libsystemd says so.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"

int gpio_via_parse(struct gpio_opts *o, const char *arg, const char *cmd)
{
	static const char *const words[] = { "auto", "chip", "daemon" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, words[i])) {
			o->via = i;
			return 0;
		}
	cli_usage(cmd, "bad --via '%s': auto, chip or daemon", arg);
	return -1;
}

int gpio_via_check(const struct gpio_opts *o, const char *cmd)
{
	if (o->via == GPIO_VIA_DAEMON && o->config.backend != UDRV_BACKEND_CDEV)
		return cli_usage(cmd, "--via daemon: udrvd reaches lines through the character device; leave out --backend");
	return EXIT_OK;
}

static bool refused(int err)
{
	return err == -EACCES || err == -EPERM;
}

/* Does a chip the command needs refuse the user: @spec's, or with none
 * any chip? Which, and why, into @why. */
static bool chip_refused(const char *spec, char *why, size_t len)
{
	struct udrv_chip *chip = udrv_chip_new();
	char **names = NULL;
	bool yes = false;
	int n, err;

	if (!chip)
		return false;
	if (spec) {
		err = udrv_chip_open(chip, spec);
		yes = refused(err);
	}
	/* no chip, or a label among chips not all opened: which refused */
	if (!spec || (yes && !udrv_chip_path(chip)[0])) {
		yes = false;
		n = udrv_chip_list(&names);
		for (int i = 0; i < n && !yes; i++) {
			err = udrv_chip_open(chip, names[i]);
			yes = refused(err);
		}
		udrv_strv_free(names);
	}
	if (yes)
		snprintf(why, len, "%s: %s", udrv_chip_path(chip), strerror(-err));
	udrv_chip_free(chip);
	return yes;
}

#ifdef UDRV_HAVE_UDRVD_CLIENT
#include "udrvd_client.h"

/* Does udrvd answer on the system bus? */
static bool udrvd_runs(void)
{
	struct udrvd_client *c = udrvd_client_new();
	bool yes = c && !udrvd_client_open(c) && udrvd_client_running(c) == 1;

	udrvd_client_free(c);
	return yes;
}

/* The lines @names, through a client connected to udrvd; an exit code. */
static int daemon_lines(const char *chip, int n, char **names, struct udrvd_client **cp,
			struct udrvd_lines *lines)
{
	struct udrvd_client *c = udrvd_client_new();
	int err;

	*cp = c;
	if (!c)
		return cli_error(EXIT_FAIL, "out of memory");
	err = udrvd_client_open(c);
	if (!err)
		err = udrvd_client_find(c, chip, (size_t)n, names, lines);
	if (err == -EINVAL)
		return cli_usage(cli_command, "%s", udrvd_client_errmsg(c));
	if (err)
		return cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	return EXIT_OK;
}

static void print_held(const struct gpio_opts *o, const struct udrvd_lines *lines, int n,
		       char **names, const struct udrv_line_settings *s, const char *path)
{
	struct udrv_json *j = cli_json_begin(o->json);

	if (!j)
		return;
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "chip", lines->chip);
	udrv_json_kstr(j, "backend", "udrvd");
	udrv_json_kstr(j, "request", path);
	udrv_json_key(j, "lines");
	udrv_json_arr_begin(j);
	for (int i = 0; i < n; i++) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "line", names[i]);
		udrv_json_kuint(j, "offset", lines->offsets[i]);
		udrv_json_kint(j, "value", s[i].value);
		udrv_json_obj_end(j);
	}
	udrv_json_arr_end(j);
	udrv_json_obj_end(j);
	cli_json_end(j);
}

int gpio_set_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s)
{
	char path[UDRVD_CLIENT_PATH_LEN];
	struct udrvd_lines lines;
	struct udrvd_client *c;
	int ret = daemon_lines(o->chip, n, names, &c, &lines);

	if (!ret && udrvd_client_set(c, &lines, s, o->config.consumer ? o->config.consumer : "udrv",
				     path, sizeof(path)))
		ret = cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	if (!ret)
		print_held(o, &lines, n, names, s, path);
	udrvd_client_free(c);
	return ret;
}

static int release_lines(const char *chip, int n, char **names)
{
	struct udrvd_lines lines;
	struct udrvd_client *c;
	int ret = daemon_lines(chip, n, names, &c, &lines);

	/* only the lines named: a request that holds others too stays */
	if (!ret && (udrvd_client_whole(c, &lines) || udrvd_client_release(c, &lines, NULL)))
		ret = cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	udrvd_client_free(c);
	return ret;
}
/*
 * @perms with what udrvd's refusal @msg says no rule grants ("no rule grants
 * drive": an input request of a line that is an output now), in udrvd's
 * order, into @buf.
 */
static const char *merged(const char *perms, const char *msg, char *buf, size_t len)
{
	static const char *const order[] = { "read", "drive", "watch", "configure" };
	const char *said = strstr(msg, "no rule grants ");
	char lacking[64] = ",", *end;
	size_t used = 0;

	if (said)
		snprintf(lacking, sizeof(lacking), ",%s", said + strlen("no rule grants "));
	end = lacking + strcspn(lacking, "; ");
	if (end > lacking + sizeof(lacking) - 2)
		end = lacking + sizeof(lacking) - 2;
	memcpy(end, ",", 2);	/* ",drive,watch," */
	buf[0] = '\0';
	for (size_t i = 0; i < 4; i++) {
		char word[16];

		snprintf(word, sizeof(word), ",%s,", order[i]);
		if ((strstr(perms, order[i]) || strstr(lacking, word)) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "",
						 order[i]);
	}
	return buf;
}

/*
 * udrvd's refusal, and when its policy refused, the rules that would grant
 * the command (@perms) on the lines @names: who the caller is, the chip's
 * label.
 */
static int refusal(struct udrvd_client *c, int err, const struct udrvd_lines *lines, int n,
		   char **names, const char *perms)
{
	const struct passwd *pw = getpwuid(getuid());
	char who[64], rules[512] = "", all[64];
	size_t used = 0;

	cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	if (err != -EACCES || !strstr(udrvd_client_errmsg(c), "the policy refuses"))
		return EXIT_FAIL;
	perms = merged(perms, udrvd_client_errmsg(c), all, sizeof(all));
	if (pw)
		snprintf(who, sizeof(who), "user:%s", pw->pw_name);
	else
		snprintf(who, sizeof(who), "uid:%u", (unsigned int)getuid());
	for (int i = 0; i < n && used < sizeof(rules); i++)
		used += (size_t)snprintf(rules + used, sizeof(rules) - used, "%sallow %s %s gpio %s %s",
					 i ? "; " : "", who, perms, lines->label, names[i]);
	fprintf(stderr, "udrv: the rule%s that would grant it, for root to add to udrvd's policy (udrvd.conf(5); then systemctl reload udrvd): %s\n",
		n > 1 ? "s" : "", rules);
	return EXIT_FAIL;
}

/* What @s needs besides read (and watch, for edges), as udrvd's policy
 * names it: configure for bias, active-low and debounce. */
static const char *perms_for(const struct udrv_line_settings *s, bool edges)
{
	bool configure = s->bias != UDRV_BIAS_AS_IS || s->active_low || s->debounce_us;

	if (edges)
		return configure ? "read,watch,configure" : "read,watch";
	return configure ? "read,configure" : "read";
}

static const char *consumer_of(const struct gpio_opts *o)
{
	return o->config.consumer ? o->config.consumer : "udrv";
}

/* udrvd's request that holds @lines, the line @name (the client's),
 * adopted into @t: its fd is handed only to a user granted all on it. */
static int adopt_held(struct udrvd_client *c, const struct udrvd_lines *lines, char *name,
		      struct gpio_taken *t)
{
	unsigned int offsets[UDRV_LINES_MAX];
	char msg[256];
	size_t n = 0;
	int fd, err = udrvd_client_get_fd(c, lines, &fd, offsets, &n);

	if (err)
		return refusal(c, err, lines, 1, &name, "read,drive,watch,configure");
	if (udrv_request_adopt(lines->chip, fd, n, offsets, &t->req, msg, sizeof(msg))) {
		close(fd);
		return cli_error(EXIT_FAIL, "%s", msg);
	}
	while (t->idx < n - 1 && offsets[t->idx] != lines->offsets[0])
		t->idx++;
	snprintf(t->chip, sizeof(t->chip), "%s", lines->chip);
	t->offset = lines->offsets[0];
	return EXIT_OK;
}

int gpio_take_daemon(const struct gpio_opts *o, char *name,
		     const struct udrv_line_settings *s, struct gpio_taken *t)
{
	char path[UDRVD_CLIENT_PATH_LEN];
	struct udrvd_lines lines;
	struct udrvd_client *c;
	int err, ret = daemon_lines(o->chip, 1, &name, &c, &lines);

	if (!ret && (err = udrvd_client_set(c, &lines, s, consumer_of(o), path, sizeof(path))))
		ret = refusal(c, err, &lines, 1, &name, "drive");
	/* again: the request that holds it now */
	if (!ret && udrvd_client_find(c, o->chip, 1, &name, &lines))
		ret = cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
	if (!ret)
		ret = adopt_held(c, &lines, name, t);
	udrvd_client_free(c);
	return ret;
}

int gpio_get_daemon(const struct gpio_opts *o, int n, char **names)
{
	struct udrv_line_settings s[UDRV_LINES_MAX];
	int values[UDRV_LINES_MAX], err;
	struct udrvd_lines lines;
	struct udrvd_client *c;
	uint64_t v = 0;
	int ret = daemon_lines(o->chip, n, names, &c, &lines);

	for (int i = 0; i < n; i++) {
		s[i] = o->settings;
		s[i].direction = UDRV_DIR_INPUT;
	}
	if (!ret && (err = udrvd_client_get(c, &lines, s, consumer_of(o), values)))
		ret = refusal(c, err, &lines, n, names, perms_for(&o->settings, false));
	for (int i = 0; !ret && i < n; i++)
		v |= (uint64_t)(values[i] & 1) << i;
	if (!ret)
		gpio_print_values(lines.chip, o, n, names, lines.offsets, v);
	udrvd_client_free(c);
	return ret;
}

/* The chip head and @n of its lines (@offs; all of them when @offs is NULL). */
static void show_chip_daemon(const struct udrvd_chip_info *ci, const unsigned int *offs,
			     unsigned int n, struct udrv_json *j)
{
	const struct gpio_chip_view v = {
		.name = ci->name, .label = ci->label, .path = ci->dev,
		.num_lines = ci->num_lines, .cdev = true, .sysfs_base = -1,
	};

	gpio_chip_head(&v, j);
	gpio_lines_begin(j);
	for (unsigned int k = 0; k < n; k++)
		gpio_line_show(&ci->lines[offs ? offs[k] : k], j);
	gpio_chip_tail(j);
}

/* Line @spec of @ci: its name, or with -c an offset; -1 when it has none. */
static int line_of(const struct udrvd_chip_info *ci, const char *spec, bool offsets)
{
	uint64_t num;

	if (offsets && !cli_parse_u64(spec, &num))
		return num < ci->num_lines ? (int)num : -1;
	for (unsigned int k = 0; k < ci->num_lines; k++)
		if (!strcmp(ci->lines[k].name, spec))
			return (int)k;
	return -1;
}

/* Where each of @names is among @chips (the first chip that has it), as
 * *@at (chip index) and *@off; EXIT_FAIL after naming those not found. */
static int find_lines(const struct gpio_opts *o, const struct udrvd_chip_info *chips, size_t nc,
		      int n, char **names, size_t *at, unsigned int *off)
{
	int ret = EXIT_OK;

	for (int i = 0; i < n; i++) {
		int k = -1;

		for (at[i] = 0; at[i] < nc && k < 0; at[i]++)
			k = line_of(&chips[at[i]], names[i], o->chip != NULL);
		at[i]--;
		if (k >= 0) {
			off[i] = (unsigned int)k;
			continue;
		}
		if (o->chip)
			ret = cli_error(EXIT_FAIL, "gpio info %s: udrvd's chip %s has no line %s (udrv gpio info -c %s lists its lines)",
					names[i], o->chip, names[i], o->chip);
		else
			ret = cli_error(EXIT_FAIL, "gpio info %s: no chip udrvd exports has a line named %s (udrv gpio info lists them%s)",
					names[i], names[i], cli_parse_u64(names[i], &(uint64_t){ 0 }) ? "" :
					"; an offset needs its chip: -c CHIP");
	}
	return ret;
}

/* info LINE... through udrvd: each line's chip with those of its lines. */
static int info_lines_daemon(const struct gpio_opts *o, const struct udrvd_chip_info *chips,
			     size_t nc, int n, char **names, struct udrv_json *j)
{
	size_t at[UDRV_LINES_MAX];
	unsigned int off[UDRV_LINES_MAX], mine[UDRV_LINES_MAX];
	int ret = find_lines(o, chips, nc, n, names, at, off);

	if (ret)
		return ret;
	for (size_t c = 0; c < nc; c++) {
		unsigned int m = 0;

		for (int i = 0; i < n; i++)
			if (at[i] == c)
				mine[m++] = off[i];
		if (m)
			show_chip_daemon(&chips[c], mine, m, j);
	}
	return EXIT_OK;
}

int gpio_info_daemon(const struct gpio_opts *o, int n, char **names)
{
	struct udrvd_client *c;
	struct udrvd_chip_info *chips = NULL;
	struct udrv_json *j;
	size_t nc = 0;
	int err, ret = EXIT_OK;

	if (n > UDRV_LINES_MAX)
		return cli_usage("gpio info", "at most %d lines at a time", UDRV_LINES_MAX);
	c = udrvd_client_new();
	if (!c)
		return cli_error(EXIT_FAIL, "out of memory");
	err = udrvd_client_open(c);
	if (!err)
		err = udrvd_client_chips(c, o->chip, &chips, &nc);
	if (err) {
		cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(c));
		udrvd_client_free(c);
		return EXIT_FAIL;
	}
	j = cli_json_begin(o->json);
	if (j)
		udrv_json_arr_begin(j);
	if (n)
		ret = info_lines_daemon(o, chips, nc, n, names, j);
	for (size_t i = 0; !n && i < nc; i++)
		show_chip_daemon(&chips[i], NULL, chips[i].num_lines, j);
	if (!nc)
		fprintf(j ? stderr : stdout, "udrvd exports no GPIO chip\n");
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrvd_client_chips_free(chips, nc);
	udrvd_client_free(c);
	return ret;
}

/*
 * mon through udrvd: the client, and the signal mask from before SIGINT and
 * SIGTERM were blocked. They are let in only while the wait sleeps (ppoll),
 * so one that comes while udrv talks to udrvd ends the wait at once instead
 * of after the next edge: mon then releases its request, which udrvd would
 * otherwise keep.
 */
struct mon_daemon {
	struct udrvd_client *c;
	sigset_t unblocked;
};

static int events_wait(void *src, int timeout_ms)
{
	struct mon_daemon *m = src;

	return udrvd_client_wait_events(m->c, timeout_ms, &m->unblocked);
}

static int events_read(void *src, struct udrv_edge_event *ev, size_t max)
{
	return udrvd_client_read_events(((struct mon_daemon *)src)->c, ev, max);
}

static const char *events_errmsg(void *src)
{
	return udrvd_client_errmsg(((struct mon_daemon *)src)->c);
}

static uint64_t events_lost(void *src)
{
	return udrvd_client_lost_events(((struct mon_daemon *)src)->c);
}

int gpio_mon_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s, unsigned int buffer_size,
		    struct gpio_events *ev)
{
	struct mon_daemon *m = calloc(1, sizeof(*m));
	struct udrvd_lines lines;
	int err, ret;

	if (!m)
		return cli_error(EXIT_FAIL, "out of memory");
	cli_block_stop_signals(&m->unblocked);
	ret = daemon_lines(o->chip, n, names, &m->c, &lines);
	if (!ret && (err = udrvd_client_watch(m->c, &lines, s, consumer_of(o), buffer_size)))
		ret = refusal(m->c, err, &lines, n, names, perms_for(&o->settings, true));
	if (ret) {
		*ev = (struct gpio_events){ .src = m };
		gpio_mon_daemon_end(ev);
		return ret;
	}
	*ev = (struct gpio_events){
		.wait = events_wait, .read = events_read, .errmsg = events_errmsg,
		.lost = events_lost, .src = m,
	};
	return EXIT_OK;
}

void gpio_mon_daemon_end(struct gpio_events *ev)
{
	struct mon_daemon *m = ev->src;

	if (m->c && udrvd_client_unwatch(m->c))
		cli_error(EXIT_FAIL, "%s", udrvd_client_errmsg(m->c));
	udrvd_client_free(m->c);
	sigprocmask(SIG_SETMASK, &m->unblocked, NULL);
	free(m);
}
#else
static bool udrvd_runs(void)
{
	return false;
}

static int no_client(void)
{
	return cli_error(EXIT_FAIL,
			 "this udrv is built without udrvd's client (no libsystemd at build time): use gpiocli, or a udrv built with libsystemd-dev");
}

int gpio_set_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s)
{
	return no_client();
}

static int release_lines(const char *chip, int n, char **names)
{
	return no_client();
}

int gpio_get_daemon(const struct gpio_opts *o, int n, char **names)
{
	return no_client();
}

int gpio_take_daemon(const struct gpio_opts *o, char *name,
		     const struct udrv_line_settings *s, struct gpio_taken *t)
{
	return no_client();
}

int gpio_info_daemon(const struct gpio_opts *o, int n, char **names)
{
	return no_client();
}

int gpio_mon_daemon(const struct gpio_opts *o, int n, char **names,
		    const struct udrv_line_settings *s, unsigned int buffer_size,
		    struct gpio_events *ev)
{
	return no_client();
}

void gpio_mon_daemon_end(struct gpio_events *ev)
{
}
#endif

void gpio_set_daemon_hint(const struct gpio_opts *o)
{
	char why[384];

	if (o->config.backend == UDRV_BACKEND_CDEV && chip_refused(o->chip, why, sizeof(why)) &&
	    udrvd_runs())
		fprintf(stderr, "udrv: udrvd runs: 'udrv gpio set --hold daemon' sets the lines through its policy instead (udrvd.conf(5)), and udrvd holds them\n");
}

bool gpio_through_daemon(const struct gpio_opts *o, const char *cmd)
{
	char why[384];

	if (o->via == GPIO_VIA_DAEMON)
		return true;
	if (o->via == GPIO_VIA_CHIP || o->config.backend != UDRV_BACKEND_CDEV ||
	    !chip_refused(o->chip, why, sizeof(why)) || !udrvd_runs())
		return false;
	fprintf(stderr, "udrv: through udrvd: %s, so udrvd's policy decides (udrvd.conf(5))%s; --via chip opens the chip instead\n",
		why, strcmp(cmd, "gpio info") ? "" :
		", and shows the state only of the lines a rule names for you (the others read as free inputs)");
	return true;
}

static const char release_help[] =
"Usage: udrv gpio release [-c CHIP] LINE...\n"
"\n"
"Have udrvd release the lines it holds for you ('udrv gpio set --hold\n"
"daemon', gpiocli request). udrvd releases a request whole, as the kernel\n"
"does: when a request holds other lines too, nothing is released and the\n"
"message names them (give them all). The kernel then keeps or resets the\n"
"lines' values, as for any released line. Root, or a user the policy grants\n"
"admin on the lines, releases another user's request.\n"
"\n"
"Options:\n"
"  -c, --chip CHIP       chip: gpiochip0, 0, /dev/gpiochip0 or a label\n"
"                        (optional when lines are given by name)\n"
"\n"
"Examples:\n"
"  udrv gpio release -c gpiochip0 17\n"
"  udrv gpio release GPIO17\n";

int cmd_gpio_release(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *chip = NULL;
	int opt;

	while ((opt = getopt_long(argc, argv, "c:h", opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(release_help);
			return EXIT_OK;
		}
		if (opt != 'c')
			return cli_usage("gpio release", "bad option");
		if (!*optarg)
			return cli_usage("gpio release", "empty chip name: give a chip (see 'udrv gpio info')");
		chip = optarg;
	}
	if (argc - optind < 1 || argc - optind > UDRV_LINES_MAX)
		return cli_usage("gpio release", "give 1 to %d lines", UDRV_LINES_MAX);
	for (int i = optind; i < argc; i++)
		if (!argv[i][0])
			return cli_usage("gpio release", "empty line name (an unset shell variable?)");
	return release_lines(chip, argc - optind, argv + optind);
}
