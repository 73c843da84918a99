// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv gpio info: chips and their lines (all, or the lines named), with -b
 * mmio the registers the mmio backend would use; the chip and line printers
 * that 'udrv info', 'gpio watch' and info through udrvd share.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

/* Shared with 'udrv gpio watch'. */
void gpio_json_line_fields(struct udrv_json *j, const struct udrv_line_info *li)
{
	udrv_json_kuint(j, "offset", li->offset);
	udrv_json_kstr(j, "name", li->name);
	udrv_json_kbool(j, "used", li->used);
	udrv_json_kstr(j, "consumer", li->consumer);
	udrv_json_kstr(j, "direction", udrv_direction_str(li->direction));
	udrv_json_kbool(j, "active_low", li->active_low);
	udrv_json_kstr(j, "bias", udrv_bias_str(li->bias));
	udrv_json_kstr(j, "drive", udrv_drive_str(li->drive));
	udrv_json_kstr(j, "edge", udrv_edge_str(li->edge));
	udrv_json_kstr(j, "event_clock", udrv_clock_str(li->event_clock));
	udrv_json_kuint(j, "debounce_us", li->debounce_us);
}

static void json_line_info(struct udrv_json *j, const struct udrv_line_info *li)
{
	udrv_json_obj_begin(j);
	gpio_json_line_fields(j, li);
	udrv_json_obj_end(j);
}

static void print_line_info(const struct udrv_line_info *li)
{
	char flags[96] = "";

	if (li->active_low)
		strcat(flags, " active-low");
	if (li->bias != UDRV_BIAS_AS_IS)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " bias=%s", udrv_bias_str(li->bias));
	if (li->drive != UDRV_DRIVE_PUSH_PULL)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " %s", udrv_drive_str(li->drive));
	if (li->edge != UDRV_EDGE_NONE)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " edge=%s", udrv_edge_str(li->edge));
	if (li->debounce_us)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 " debounce=%uus", li->debounce_us);
	printf("  %4u  %-20s %-7s %-20s%s\n", li->offset,
	       li->name[0] ? li->name : "-",
	       li->direction == UDRV_DIR_OUTPUT ? "output" : "input",
	       li->used ? li->consumer[0] ? li->consumer : "(used)" : "-",
	       flags);
}

/* udrv_chip_mmio_line_info()'s answer @ret, @m for line @offset */
static void print_registers(struct udrv_chip *chip, int ret,
			    const struct udrv_mmio_line_info *m,
			    unsigned int offset, bool line_regs,
			    struct udrv_json *j)
{
	if (!j) {
		if (ret)
			printf("  registers: none: %s\n", udrv_chip_errmsg(chip));
		else
			printf("  registers: %s GPIO block at 0x%llx (%zu bytes, %u-bit), through %s at 0x%llx; line %u: %s/%s, level %s, mask 0x%x\n",
			       m->soc, (unsigned long long)m->phys, m->size, m->width,
			       m->map_path, (unsigned long long)m->map_offset,
			       offset, m->set_name, m->clear_name, m->level_name,
			       m->mask);
		return;
	}
	udrv_json_key(j, "mmio");
	udrv_json_obj_begin(j);
	if (ret) {
		udrv_json_kstr(j, "error", udrv_chip_errmsg(chip));
	} else {
		udrv_json_kstr(j, "soc", m->soc);
		udrv_json_kstr(j, "device", m->device);
		udrv_json_kuint(j, "phys", m->phys);
		udrv_json_kuint(j, "size", m->size);
		udrv_json_kuint(j, "width", m->width);
		udrv_json_kstr(j, "map_path", m->map_path);
		udrv_json_kuint(j, "map_offset", m->map_offset);
	}
	if (!ret && line_regs) {
		udrv_json_kuint(j, "line", offset);
		udrv_json_kstr(j, "set", m->set_name);
		udrv_json_kstr(j, "clear", m->clear_name);
		udrv_json_kstr(j, "level", m->level_name);
		udrv_json_kuint(j, "mask", m->mask);
	}
	udrv_json_obj_end(j);
}

/* Where the mmio backend finds line @offset's registers, and how it maps
 * them (info -b mmio: line 0; toggle -b mmio: its line, and in JSON its
 * registers too, @line_regs). */
void gpio_show_registers(struct udrv_chip *chip,
			 const struct udrv_gpio_layout *layout,
			 unsigned int offset, bool line_regs,
			 struct udrv_json *j)
{
	struct udrv_mmio_line_info m;
	int ret = udrv_chip_mmio_line_info(chip, layout, offset, &m);

	print_registers(chip, ret, &m, offset, line_regs, j);
}

/* 'udrv info': the registers of a chip the mmio backend knows (a mapping
 * refused included); nothing for other chips or an unknown SoC. */
static const struct gpio_opts known_regs;

static void show_known_registers(struct udrv_chip *chip, struct udrv_json *j)
{
	struct udrv_mmio_line_info m;
	int ret = udrv_chip_mmio_line_info(chip, NULL, 0, &m);

	if (ret != -EOPNOTSUPP && ret != -ENODEV)
		print_registers(chip, ret, &m, 0, false, j);
}

void gpio_chip_head(const struct gpio_chip_view *v, struct udrv_json *j)
{
	if (j) {
		udrv_json_obj_begin(j);
		udrv_json_kstr(j, "name", v->name);
		udrv_json_kstr(j, "label", v->label);
		udrv_json_kstr(j, "path", v->path);
		udrv_json_kuint(j, "num_lines", v->num_lines);
		udrv_json_kbool(j, "cdev", v->cdev);
		udrv_json_key(j, "sysfs_base");
		if (v->sysfs_base >= 0)
			udrv_json_int(j, v->sysfs_base);
		else
			udrv_json_null(j);
		return;
	}
	printf("%s [%s] %u lines%s", v->name, v->label, v->num_lines,
	       v->cdev ? "" : " (sysfs only)");
	if (v->sysfs_base >= 0)
		printf(", sysfs base %d", v->sysfs_base);
	printf("\n");
}

void gpio_lines_begin(struct udrv_json *j)
{
	if (j) {
		udrv_json_key(j, "lines");
		udrv_json_arr_begin(j);
	}
}

void gpio_line_show(const struct udrv_line_info *li, struct udrv_json *j)
{
	if (j)
		json_line_info(j, li);
	else
		print_line_info(li);
}

void gpio_chip_tail(struct udrv_json *j)
{
	if (j) {
		udrv_json_arr_end(j);
		udrv_json_obj_end(j);
	}
}

/*
 * One chip and its lines (@only: the @n_only lines of those offsets, else
 * all); with @regs (gpio info -b mmio) its registers.
 */
static int show_lines(struct udrv_chip *chip, struct udrv_json *j,
		      const struct gpio_opts *regs, const unsigned int *only,
		      unsigned int n_only)
{
	const struct gpio_chip_view v = {
		.name = udrv_chip_name(chip), .label = udrv_chip_label(chip),
		.path = udrv_chip_path(chip), .num_lines = udrv_chip_num_lines(chip),
		.cdev = udrv_chip_has_cdev(chip), .sysfs_base = udrv_chip_sysfs_base(chip),
	};
	struct udrv_line_info li;
	int ret = 0;

	gpio_chip_head(&v, j);
	if (regs == &known_regs)
		show_known_registers(chip, j);
	else if (regs)
		gpio_show_registers(chip, regs->config.layout, 0, false, j);
	gpio_lines_begin(j);
	for (unsigned int i = 0; i < (only ? n_only : v.num_lines) && !ret; i++) {
		ret = udrv_chip_line_info(chip, only ? only[i] : i, &li);
		if (ret)
			cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
		else
			gpio_line_show(&li, j);
	}
	gpio_chip_tail(j);
	return ret ? EXIT_FAIL : EXIT_OK;
}

static int show_chip(struct udrv_chip *chip, struct udrv_json *j,
		     const struct gpio_opts *regs)
{
	return show_lines(chip, j, regs, NULL, 0);
}

/* Shared with 'udrv info'. */
int gpio_show_chip(struct udrv_chip *chip, struct udrv_json *j)
{
	return show_chip(chip, j, NULL);
}

static const char info_help[] =
"Usage: udrv gpio info [-c CHIP] [--json] [--strict] [--via V]\n"
"                      [-b mmio [--layout SPEC]] [LINE...]\n"
"\n"
"List GPIO chips and, for each line: offset, name, direction, consumer (who\n"
"holds it) and flags. Without -c, every chip. With LINEs (names, or with -c\n"
"offsets too), only those lines and their chip: 'udrv gpio info GPIO17'.\n"
"A name found on more than one line is taken where 'udrv gpio get' takes it\n"
"(the first), with a note; --strict refuses it. With -b mmio, also where the\n"
"mmio backend finds each chip's registers (SoC, physical address, the file\n"
"they are mapped from), or why it cannot; nothing is claimed or written.\n"
"\n"
"Options:\n"
GPIO_VIA_HELP
"\n"
"Through udrvd every chip and line is listed; a line's state only when a\n"
"rule in udrvd.conf names the line for you (the others read as free inputs).\n";

/* 'udrv gpio info LINE...': the lines' chip with those lines only. */
static int info_lines(const struct gpio_opts *o, int n, char **lines)
{
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_chip *chip;
	struct udrv_json *j;
	int ret;

	ret = gpio_resolve(o, n, lines, &chip, offsets);
	if (ret)
		return ret;
	j = cli_json_begin(o->json);
	if (j)
		udrv_json_arr_begin(j);
	ret = show_lines(chip, j, o->config.backend == UDRV_BACKEND_MMIO ? o : NULL,
			 offsets, (unsigned int)n);
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_chip_free(chip);
	return ret;
}

static int show_chips(char **names, int n, struct udrv_json *j,
		      const struct gpio_opts *regs)
{
	struct udrv_chip *chip = udrv_chip_new();
	int ret = EXIT_OK;

	if (!chip)
		return cli_error(EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		int err = udrv_chip_open(chip, names[i]);

		if (err) {
			/* a bad spec is a usage error even among good ones */
			cli_error(EXIT_FAIL, "%s", udrv_chip_errmsg(chip));
			if (ret != EXIT_USAGE)
				ret = err == -EINVAL ? EXIT_USAGE : EXIT_FAIL;
			continue;
		}
		if (show_chip(chip, j, regs))
			ret = EXIT_FAIL;
	}
	udrv_chip_free(chip);
	return ret;
}

/* Open each chip of @names in turn and show it. */
int gpio_show_chips(char **names, int n, struct udrv_json *j)
{
	return show_chips(names, n, j, &known_regs);
}

int cmd_gpio_info(int argc, char **argv)
{
	struct gpio_opts o = { 0 };
	char **names = NULL, reason[256], *one[1];
	struct udrv_json *j;
	int opt, n, ret;

	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "backend", required_argument, NULL, 'b' },
		{ "layout", required_argument, NULL, OPT_LAYOUT },
		{ "strict", no_argument, NULL, 's' },
		{ "via", required_argument, NULL, OPT_VIA },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	while ((opt = getopt_long(argc, argv, "c:jb:sh", opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(info_help);
			return EXIT_OK;
		}
		if (opt == '?')
			return cli_usage("gpio info", "bad option");
		if (opt == OPT_VIA ? gpio_via_parse(&o, optarg, "gpio info") :
		    opt == OPT_LAYOUT ? gpio_layout_opt(&o, optarg, "gpio info") :
		    gpio_opt_parse(&o, opt, optarg, "gpio info") < 0)
			return EXIT_USAGE;
	}
	if (o.config.layout && o.config.backend != UDRV_BACKEND_MMIO)
		return cli_usage("gpio info", "--layout goes with --backend mmio");
	ret = gpio_via_check(&o, "gpio info");
	if (ret)
		return ret;
	if (gpio_through_daemon(&o, "gpio info"))
		return gpio_info_daemon(&o, argc - optind, argv + optind);
	if (optind < argc)
		return info_lines(&o, argc - optind, argv + optind);
	if (o.chip) {
		one[0] = (char *)o.chip;
		n = 1;
	} else {
		n = udrv_chip_list(&names);
	}
	j = cli_json_begin(o.json);
	if (j)
		udrv_json_arr_begin(j);
	if (n <= 0) {
		udrv_gpio_absent_reason(reason, sizeof(reason));
		fprintf(j ? stderr : stdout, "%s\n", reason);
	}
	ret = show_chips(o.chip ? one : names, n, j,
			 o.config.backend == UDRV_BACKEND_MMIO ? &o : NULL);
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_strv_free(names);
	return ret;
}
