// SPDX-License-Identifier: GPL-2.0-only
/*
 * The gpio commands' line lookup (gpio_resolve()): names and offsets to
 * one chip and its offsets, with messages that name a missing line, its
 * near spelling, the chips searched, and a name on more than one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int open_chip(const char *spec, struct udrv_chip **chipp)
{
	struct udrv_chip *chip = udrv_chip_new();
	int ret;

	if (!chip)
		return cli_error(EXIT_FAIL, "out of memory");
	ret = udrv_chip_open(chip, spec);
	if (ret) {
		/* -EINVAL: the spec itself is bad (out of range, empty) */
		ret = cli_error(ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s",
				udrv_chip_errmsg(chip));
		udrv_chip_free(chip);
		return ret;
	}
	*chipp = chip;
	return EXIT_OK;
}

/*
 * The line names of the chips a command may use (the one of -c, else every
 * chip), read once: each name given is looked up in all of them, so that a
 * name that is missing, misspelt, on two chips, or on another chip than the
 * rest is named in the message.
 */
struct name_table {
	int n;
	struct udrv_chip *chips[CLI_CHIPS_MAX];
	char (*names[CLI_CHIPS_MAX])[32];	/* NULL: no cdev, no names */
	char unopened[512];	/* why the first chip not searched was not */
};

static void table_free(struct name_table *t, const struct udrv_chip *keep)
{
	for (int i = 0; i < t->n; i++) {
		if (t->chips[i] != keep)
			udrv_chip_free(t->chips[i]);
		free(t->names[i]);
	}
	t->n = 0;
}

/* Why @chip's lines are not searched: the first such reason is told. */
static void table_skip(struct name_table *t, struct udrv_chip *chip)
{
	if (!t->unopened[0])
		snprintf(t->unopened, sizeof(t->unopened), "%s",
			 udrv_chip_errmsg(chip));
	udrv_chip_free(chip);
}

/*
 * Add @chip and its line names (the table owns it from here). A chip whose
 * lines cannot be read is an error with @fatal (-c), else passed over.
 */
static int table_add(struct name_table *t, struct udrv_chip *chip, bool fatal)
{
	unsigned int lines = udrv_chip_num_lines(chip);
	struct udrv_line_info li;
	int k = t->n++;

	t->chips[k] = chip;
	t->names[k] = NULL;
	if (!udrv_chip_has_cdev(chip) || !lines)
		return EXIT_OK;
	t->names[k] = calloc(lines, sizeof(*t->names[k]));
	if (!t->names[k])
		return cli_error(EXIT_FAIL, "out of memory");
	for (unsigned int i = 0; i < lines; i++) {
		if (!udrv_chip_line_info(chip, i, &li)) {
			memcpy(t->names[k][i], li.name, sizeof(li.name));
			continue;
		}
		if (fatal)
			return cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
		free(t->names[k]);
		t->n--;
		table_skip(t, chip);
		break;
	}
	return EXIT_OK;
}

/* Every chip (no -c): those that cannot be opened are passed over. */
static int table_load_all(struct name_table *t)
{
	char **names = NULL, reason[256];
	struct udrv_chip *chip;
	int count, ret = EXIT_OK;

	count = udrv_chip_list(&names);
	for (int i = 0; i < count && !ret && t->n < CLI_CHIPS_MAX; i++) {
		chip = udrv_chip_new();
		if (!chip) {
			ret = cli_error(EXIT_FAIL, "out of memory");
		} else if (udrv_chip_open(chip, names[i])) {
			table_skip(t, chip);
		} else {
			ret = table_add(t, chip, false);
		}
	}
	udrv_strv_free(names);
	if (count <= 0) {
		udrv_gpio_absent_reason(reason, sizeof(reason));
		return cli_error(EXIT_FAIL, "%s", reason);
	}
	if (!ret && !t->n)	/* none opened: why, not "no line named" */
		return cli_error(EXIT_FAIL, "%s", t->unopened);
	return ret;
}

/* Where @name is: up to @max places (chip index, offset); their number. */
static int table_find(const struct name_table *t, const char *name,
		      int *chip, unsigned int *offset, int max)
{
	int found = 0;

	for (int c = 0; c < t->n; c++) {
		unsigned int lines = udrv_chip_num_lines(t->chips[c]);

		for (unsigned int i = 0; t->names[c] && i < lines; i++) {
			if (strcmp(t->names[c][i], name))
				continue;
			if (found < max) {
				chip[found] = c;
				offset[found] = i;
			}
			found++;
		}
	}
	return found;
}

/* The name of @t nearest to @name: same but for case first, then a typo. */
static const char *table_suggest(const struct name_table *t, const char *name,
				 bool *case_only)
{
	const char *best = NULL;
	int best_d = 1 << 20;

	for (int c = 0; c < t->n; c++) {
		unsigned int lines = udrv_chip_num_lines(t->chips[c]);

		for (unsigned int i = 0; t->names[c] && i < lines; i++) {
			const char *known = t->names[c][i];
			int d;

			if (!known[0])
				continue;
			if (!strcasecmp(known, name)) {
				*case_only = true;
				return known;
			}
			d = cli_edit_distance(name, known, true);
			if (d < best_d && cli_near(name, known)) {
				best = known;
				best_d = d;
			}
		}
	}
	*case_only = false;
	return best;
}

static void chip_words(char *buf, size_t len, const struct udrv_chip *chip)
{
	snprintf(buf, len, "%s [%s]", udrv_chip_name(chip), udrv_chip_label(chip));
}

/* "gpiochip0 [pinctrl-bcm2835], gpiochip1 [...]", or why none has names. */
static void table_where(const struct name_table *t, char *buf, size_t len)
{
	size_t used = 0;
	char chip[80];

	buf[0] = '\0';
	for (int c = 0; c < t->n && used < len; c++) {
		chip_words(chip, sizeof(chip), t->chips[c]);
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s",
					 c ? ", " : "", chip,
					 t->names[c] ? "" : " (no character device: sysfs GPIO has no line names; give an offset with -c)");
	}
}

static int name_missing(const struct name_table *t, const char *name)
{
	const char *near;
	char where[1024];
	bool case_only;

	near = table_suggest(t, name, &case_only);
	table_where(t, where, sizeof(where));
	cli_error(EXIT_FAIL, "no line named '%s' on %s%s", name,
		  t->n == 1 ? "" : "any of ", where);
	if (t->unopened[0])
		fprintf(stderr, "udrv: not searched: %s\n", t->unopened);
	if (near) {
		fprintf(stderr, "udrv: did you mean '%s'?%s\n", near,
			case_only ? " (line names are case-sensitive)" : "");
		return EXIT_FAIL;
	}
	for (int c = 0; c < t->n; c++)
		if (t->names[c]) {
			fputs("udrv: every chip's line names: udrv gpio info\n", stderr);
			break;
		}
	return EXIT_FAIL;
}

/* A name on more than one line: refused with --strict, else a note. */
static int name_not_unique(const struct name_table *t, const char *name,
			   const int *chip, const unsigned int *offset,
			   int found, bool strict, int taken)
{
	char where[80];

	if (strict)
		cli_error(EXIT_FAIL, "line name '%s' is not unique (--strict): it names %d lines:",
			  name, found);
	for (int k = 0; k < found && k < CLI_PLACES_MAX; k++) {
		if (!strict && k == taken)
			continue;
		chip_words(where, sizeof(where), t->chips[chip[k]]);
		if (strict)
			fprintf(stderr, "udrv:   %s line %u\n", where, offset[k]);
		else
			fprintf(stderr, "udrv: note: '%s' also names line %u of %s; using line %u of %s (the first; --strict refuses such names)\n",
				name, offset[k], where, offset[taken],
				udrv_chip_name(t->chips[chip[taken]]));
	}
	return strict ? EXIT_FAIL : EXIT_OK;
}

/* The same line twice in one request: a usage error, not a busy line. */
static int check_duplicates(const struct udrv_chip *chip, int n,
			    char *const *lines, const unsigned int *offsets)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (offsets[i] == offsets[j])
				return cli_usage(cli_command,
						 "line %u of %s is given twice ('%s' and '%s')",
						 offsets[i], udrv_chip_name(chip),
						 lines[j], lines[i]);
	return EXIT_OK;
}

/* Line @i's offset when it is a number; 1 when it is a name. */
static int parse_offset(const char *line, unsigned int *offset)
{
	uint64_t num;

	if (!is_number(line))
		return 1;
	if (cli_parse_u64(line, &num) || num > UINT32_MAX)
		return -cli_usage(cli_command, "line offset %s is out of range",
				  line);
	*offset = (unsigned int)num;
	return 0;
}

/* Which chip has every line: the first (lowest) that does, or -1. */
static int common_chip(const struct name_table *t, int n, char *const *lines)
{
	int chip[CLI_PLACES_MAX];
	unsigned int off[CLI_PLACES_MAX];

	for (int c = 0; c < t->n; c++) {
		int all = 1;

		for (int i = 0; i < n && all; i++) {
			int found;

			if (is_number(lines[i]))
				continue;	/* an offset, on the -c chip */
			found = table_find(t, lines[i], chip, off, CLI_PLACES_MAX);
			all = 0;
			for (int k = 0; k < found && k < CLI_PLACES_MAX; k++)
				all |= chip[k] == c;
		}
		if (all)
			return c;
	}
	return -1;
}

static int split_chips(const struct name_table *t, int n, char *const *lines)
{
	int chip[1];
	unsigned int off[1];
	char where[80];

	cli_error(EXIT_FAIL, "no chip has all of the lines given; one command takes the lines of one chip:");
	for (int i = 0; i < n; i++) {
		if (table_find(t, lines[i], chip, off, 1) < 1)
			continue;	/* an offset: on the chip of -c */
		chip_words(where, sizeof(where), t->chips[chip[0]]);
		fprintf(stderr, "udrv:   '%s' is line %u of %s\n", lines[i], off[0], where);
	}
	return EXIT_FAIL;
}

/* Each line's offset on the chip the names lead to (table index *@c). */
static int resolve_names(const struct name_table *t, const struct gpio_opts *o,
			 int n, char *const *lines, unsigned int *offsets, int *c)
{
	int chip[CLI_PLACES_MAX], found, ret, taken, missing = EXIT_OK;
	unsigned int off[CLI_PLACES_MAX];

	for (int i = 0; i < n; i++) {
		ret = parse_offset(lines[i], &offsets[i]);
		if (ret < 0)
			return -ret;
		if (ret && !table_find(t, lines[i], chip, off, 1))
			missing = name_missing(t, lines[i]);	/* each one */
	}
	if (missing)
		return missing;
	*c = common_chip(t, n, lines);
	if (*c < 0)
		return split_chips(t, n, lines);
	for (int i = 0; i < n; i++) {
		if (is_number(lines[i]))
			continue;
		found = table_find(t, lines[i], chip, off, CLI_PLACES_MAX);
		for (taken = 0; chip[taken] != *c; taken++)
			;
		offsets[i] = off[taken];
		if (found > 1 && name_not_unique(t, lines[i], chip, off, found,
						 o->strict, taken))
			return EXIT_FAIL;
	}
	return EXIT_OK;
}

int gpio_resolve(const struct gpio_opts *o, int n, char *const *lines,
		 struct udrv_chip **chipp, unsigned int *offsets)
{
	struct name_table t = { 0 };
	struct udrv_chip *chip = NULL;
	int ret, c = 0;

	*chipp = NULL;
	if (n > UDRV_LINES_MAX)
		return cli_usage(cli_command, "at most %d lines per command",
				 UDRV_LINES_MAX);
	for (int i = 0; i < n; i++)
		if (!lines[i][0])
			return cli_usage(cli_command,
					 "empty line name (an unset shell variable?): give a line name or an offset");
	if (o->chip) {
		ret = open_chip(o->chip, &chip);
		if (ret)
			return ret;
		ret = table_add(&t, chip, true);
	} else {
		for (int i = 0; i < n; i++)
			if (is_number(lines[i]))
				return cli_usage(cli_command,
						 "line %s is an offset: say which chip with -c CHIP (see 'udrv gpio info')",
						 lines[i]);
		ret = table_load_all(&t);
	}
	if (!ret)
		ret = resolve_names(&t, o, n, lines, offsets, &c);
	if (!ret)
		ret = check_duplicates(t.chips[c], n, lines, offsets);
	if (!ret)
		*chipp = t.chips[c];
	table_free(&t, *chipp);
	return ret;
}
