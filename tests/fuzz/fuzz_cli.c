// SPDX-License-Identifier: GPL-2.0-only
/*
 * The udrv tool's parsing (tools/cli.c, tools/cmd_gpio.c), linked in.
 *
 * Input parts (fuzz.h): 0 a chip spec (-c; absent: none given), 1.. line
 * arguments (offsets or names for gpio_resolve and 'gpio get', LINE=VALUE
 * for 'gpio set'). Every part is also given to the number, duration and
 * timeout parsers.
 *
 * The fake tree: gpiochip0 (fake character device, 54 named lines, sysfs
 * base 512 with lines 512..515 exported), gpiochip1 (character device, 8
 * lines) and gpiochip2 (sysfs only, base 600). An absolute chip spec is
 * taken inside the fake root (and may not contain ".."): the tool opens
 * paths as given, and a fuzzer must not open the host's devices.
 *
 * Properties:
 *  - cli_parse_u64/int/duration_ns/timeout_ms never take a value that
 *    udrv/parse.h's parsers refuse or read differently ("libudrv and the
 *    udrv tool read every number through these functions"), and have no
 *    undefined behaviour (UBSan: a float cast out of range);
 *  - gpio_resolve() opens the chip the spec names (a number or gpiochipN
 *    is read as udrv_parse_devnum() reads it, never wrapped; a label
 *    opens the chip with that label) and resolves each line to the offset
 *    given, or to the line of that name;
 *  - 'gpio set -b sysfs' that succeeds drove each line as asked (the
 *    direction attribute says high or low per VALUE).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "fuzz.h"

static const char chip0[] =
	"pinctrl-bcm2835\n54\n"
	"ID_SDA\nID_SCL\nSDA1\nSCL1\nGPIO_GCLK\tw1-gpio\nGPIO5\nGPIO6\n"
	"SPI_CE1_N\tspi0 CS1\t1\nSPI_CE0_N\tspi0 CS0\t1\nSPI_MISO\nSPI_MOSI\n"
	"SPI_SCLK\nGPIO12\nGPIO13\nTXD1\nRXD1\nGPIO16\nGPIO17\nGPIO18\n"
	"GPIO19\nGPIO20\nGPIO21\nGPIO22\nGPIO23\nGPIO24\nGPIO25\nGPIO26\n"
	"GPIO27\nHDMI_HPD_N\tled1\t0\nSTATUS_LED_G\tACT\t1\n";
static const char chip1[] =
	"raspberrypi-exp-gpio\n8\n"
	"BT_ON\nWL_ON\nPWR_LED_R\tPWR\t1\nLAN_RUN\nNC\nCAM_GPIO0\nCAM_GPIO1\n"
	"NC\n";

static void sysfs_chip(int num, const char *parent, int base, int ngpio,
		       const char *label)
{
	char p[PATH_MAX], t[PATH_MAX], v[64];

	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpiochip%d", parent, num);
	fuzz_mkdir(p);
	snprintf(t, sizeof(t), "../../../devices/platform/%s/gpiochip%d", parent, num);
	snprintf(p, sizeof(p), "sys/bus/gpio/devices/gpiochip%d", num);
	fuzz_symlink(t, p);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/base", parent, base);
	snprintf(v, sizeof(v), "%d\n", base);
	fuzz_write_str(p, v);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/ngpio", parent, base);
	snprintf(v, sizeof(v), "%d\n", ngpio);
	fuzz_write_str(p, v);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/label", parent, base);
	snprintf(v, sizeof(v), "%s\n", label);
	fuzz_write_str(p, v);
	snprintf(p, sizeof(p), "sys/devices/platform/%s/gpio/gpiochip%d/device", parent, base);
	snprintf(t, sizeof(t), "../../../%s", parent);
	fuzz_symlink(t, p);
	snprintf(p, sizeof(p), "sys/class/gpio/gpiochip%d", base);
	snprintf(t, sizeof(t), "../../devices/platform/%s/gpio/gpiochip%d", parent, base);
	fuzz_symlink(t, p);
}

static void make_tree(void)
{
	char p[PATH_MAX];

	fuzz_reset();
	fuzz_mkdir("sys/kernel");
	fuzz_write_str("dev/gpiochip0", chip0);
	fuzz_write_str("dev/gpiochip1", chip1);
	sysfs_chip(0, "3f200000.gpio", 512, 54, "pinctrl-bcm2835");
	sysfs_chip(2, "gpio-sysfs.0", 600, 8, "gpio-sysfs");
	for (int g = 512; g < 516; g++) {
		static const char *const attrs[][2] = {
			{ "direction", "in\n" }, { "value", "1\n" },
			{ "edge", "none\n" }, { "active_low", "0\n" },
		};

		for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
			snprintf(p, sizeof(p), "sys/class/gpio/gpio%d/%s", g, attrs[i][0]);
			fuzz_write_str(p, attrs[i][1]);
		}
	}
}

static void check_numbers(const char *s)
{
	uint64_t u = 0, su = 0, ns = 0, sns = 0;
	int64_t si = 0;
	long l = 0;
	int ms = 0;

	if (!cli_parse_u64(s, &u) && !fuzz_skip("cli-u64"))
		FUZZ_CHECK(udrv_parse_u64(s, UINT64_MAX, &su) == 0 && su == u,
			   "cli_parse_u64(\"%s\") = %" PRIu64 ", but udrv_parse_u64() says %d (%" PRIu64 ")",
			   s, u, udrv_parse_u64(s, UINT64_MAX, &su), su);
	if (!cli_parse_int(s, LONG_MIN, LONG_MAX, &l) && !fuzz_skip("cli-int"))
		FUZZ_CHECK(udrv_parse_s64(s, LONG_MIN, LONG_MAX, &si) == 0 && si == l,
			   "cli_parse_int(\"%s\") = %ld, but udrv_parse_s64() says %d (%" PRId64 ")",
			   s, l, udrv_parse_s64(s, LONG_MIN, LONG_MAX, &si), si);
	if (!cli_parse_duration_ns(s, &ns) && !fuzz_skip("cli-duration"))
		FUZZ_CHECK(udrv_parse_duration_ns(s, UINT64_MAX, &sns) == 0 && sns == ns,
			   "cli_parse_duration_ns(\"%s\") = %" PRIu64 " ns, but udrv_parse_duration_ns() says %d (%" PRIu64 " ns)",
			   s, ns, udrv_parse_duration_ns(s, UINT64_MAX, &sns), sns);
	if (!cli_parse_timeout_ms(s, &ms) && !fuzz_skip("cli-duration")) {
		FUZZ_CHECK(udrv_parse_duration_ns(s, UINT64_MAX, &sns) == 0,
			   "cli_parse_timeout_ms(\"%s\") = %d ms, but udrv_parse_duration_ns() refuses it",
			   s, ms);
		FUZZ_CHECK(ms >= 0 && (uint64_t)ms == (sns + 999999) / 1000000,
			   "cli_parse_timeout_ms(\"%s\") = %d ms, the duration is %" PRIu64 " ns",
			   s, ms, sns);
	}
}

/* The chip @spec names, as the tool should read it; "" for a label. */
static void spec_name(const char *spec, char *name, size_t len, bool *number)
{
	unsigned int num;

	*number = false;
	name[0] = '\0';
	if (spec[0] == '/') {
		snprintf(name, len, "%s", strrchr(spec, '/') + 1);
		return;
	}
	if (strspn(spec, "0123456789") == strlen(spec) ||
	    (!strncmp(spec, "gpiochip", 8) &&
	     strspn(spec + 8, "0123456789") == strlen(spec + 8))) {
		*number = true;
		if (udrv_parse_devnum(spec, "gpiochip", &num) == 0)
			snprintf(name, len, "gpiochip%u", num);
	}
}

static void check_resolve(const char *spec, int n, char **lines)
{
	struct gpio_opts o = { 0 };
	unsigned int offsets[UDRV_LINES_MAX];
	struct udrv_line_info info;
	struct udrv_chip *chip = NULL;
	char want[64];
	bool number;
	uint64_t v;

	o.chip = spec;
	if (gpio_resolve(&o, n, lines, &chip, offsets) != EXIT_OK) {
		FUZZ_CHECK(!chip, "gpio_resolve() failed but left a chip open");
		return;
	}
	FUZZ_CHECK(chip, "gpio_resolve() succeeded without a chip");
	if (spec && !fuzz_skip("chip-spec")) {
		spec_name(spec, want, sizeof(want), &number);
		if (number || spec[0] == '/')
			FUZZ_CHECK(want[0] && !strcmp(udrv_chip_name(chip), want),
				   "chip spec \"%s\" opened %s (the spec names %s)", spec,
				   udrv_chip_name(chip), want[0] ? want : "no chip: not a device number");
		else
			FUZZ_CHECK(!strcmp(udrv_chip_label(chip), spec),
				   "chip spec \"%s\" opened %s, labelled \"%s\"", spec,
				   udrv_chip_name(chip), udrv_chip_label(chip));
	}
	for (int i = 0; i < n; i++) {
		if (lines[i][0] && strspn(lines[i], "0123456789") == strlen(lines[i])) {
			if (fuzz_skip("line-offset"))
				continue;
			FUZZ_CHECK(udrv_parse_u64(lines[i], UINT32_MAX, &v) == 0 && v == offsets[i],
				   "line \"%s\" resolved to offset %u", lines[i], offsets[i]);
			continue;
		}
		FUZZ_CHECK(udrv_chip_line_info(chip, offsets[i], &info) == 0 &&
			   !strcmp(info.name, lines[i]),
			   "line \"%s\" resolved to offset %u, named \"%s\"", lines[i],
			   offsets[i], info.name);
	}
	udrv_chip_free(chip);
}

static int run_gpio(const char *cmd, const char *spec, int n, char **lines)
{
	char *argv[UDRV_LINES_MAX + 8];
	int argc = 0;

	argv[argc++] = (char *)"gpio";
	argv[argc++] = (char *)cmd;
	argv[argc++] = (char *)"-b";
	argv[argc++] = (char *)"sysfs";
	if (spec) {
		argv[argc++] = (char *)"-c";
		argv[argc++] = (char *)spec;
	}
	argv[argc++] = (char *)"--";
	for (int i = 0; i < n; i++)
		argv[argc++] = lines[i];
	argv[argc] = NULL;
	optind = 0;
	return cmd_gpio(argc, argv);
}

/* After 'gpio set' succeeded: each LINE=VALUE drove its line. */
static void check_set(const char *spec, int n, char **args)
{
	char rel[64], *copy[UDRV_LINES_MAX];
	const char *dir;
	int ret;

	for (int i = 0; i < n; i++) {
		copy[i] = strdup(args[i]);	/* the command cuts them at '=' */
		if (!copy[i])
			abort();
	}
	ret = run_gpio("set", spec, n, copy);
	for (int i = 0; i < n; i++)
		free(copy[i]);
	if (ret != EXIT_OK || !spec || strcmp(spec, "0"))
		return;
	/* -h or --help anywhere (even after --) prints the help: nothing set */
	for (int i = 0; i < n; i++)
		if (!strcmp(args[i], "-h") || !strcmp(args[i], "--help"))
			return;
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		unsigned int off;
		int v;

		FUZZ_CHECK(eq, "gpio set took \"%s\", which is not LINE=VALUE", args[i]);
		v = fuzz_model_value(eq + 1);
		FUZZ_CHECK(v >= 0, "gpio set took \"%s\": VALUE is not one of the documented", args[i]);
		if (strspn(args[i], "0123456789") != (size_t)(eq - args[i]) ||
		    sscanf(args[i], "%u", &off) != 1 || off > 3)
			continue;
		snprintf(rel, sizeof(rel), "sys/class/gpio/gpio%u/direction", 512 + off);
		dir = fuzz_text(rel, 64);
		/* a later assignment of the same line wins */
		for (int k = i + 1; k < n; k++)
			if (!strncmp(args[k], args[i], (size_t)(eq - args[i]) + 1))
				v = -1;
		if (v >= 0)
			FUZZ_CHECK(dir && !strcmp(dir, v ? "high" : "low"),
				   "gpio set %s: gpio%u's direction is \"%s\"", args[i], 512 + off,
				   dir ? dir : "(unreadable)");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *parts_str[FUZZ_MAX_PARTS], *spec = NULL, path[PATH_MAX];
	struct fuzz_parts parts;
	int n;

	fuzz_split(data, size, &parts);
	for (size_t i = 0; i < parts.n; i++) {
		parts_str[i] = fuzz_str(&parts, i);
		check_numbers(parts_str[i]);
	}
	if (fuzz_has(&parts, 0)) {
		spec = parts_str[0];
		if (spec[0] == '/') {
			if (strstr(spec, ".."))
				goto out;
			fuzz_path(path, sizeof(path), spec + 1);
			spec = path;
		}
	}
	n = (int)parts.n - 1;
	make_tree();
	check_resolve(spec, n, parts_str + 1);
	run_gpio("get", spec, n, parts_str + 1);
	make_tree();
	check_set(spec, n, parts_str + 1);
out:
	for (size_t i = 0; i < parts.n; i++)
		free(parts_str[i]);
	return 0;
}
