// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv spi list|transfer: SPI devices through spidev; one full-duplex
 * transfer of the bytes given, the bytes received printed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

#define SPI_CLI_BYTES_MAX	4096	/* spidev's default buffer */

static const char spi_help[] =
"Usage: udrv spi COMMAND [OPTIONS] DEVICE ...\n"
"\n"
"SPI devices through spidev (/dev/spidevB.C). DEVICE is bus and chip select\n"
"(0.1), the node (spidev0.1, /dev/spidev0.1) or the device's name as its\n"
"modalias says it (mcp3008).\n"
"\n"
"Commands:\n"
"  list       the spidev devices and their settings\n"
"  transfer   send bytes, print the bytes received meanwhile\n"
"\n"
"Examples:\n"
"  udrv spi list\n"
"  udrv spi transfer 0.0 0x01 0x80 0x00\n"
"  udrv spi transfer --mode 3 --speed 1000000 0.1 0x9f 0 0 0\n";

struct spi_opts {
	bool json;
	long mode, bits, speed;		/* -1: as the device has it */
};

static const struct option spi_long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "mode", required_argument, NULL, 'm' },
	{ "bits", required_argument, NULL, 'b' },
	{ "speed", required_argument, NULL, 's' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int spi_opt(struct spi_opts *o, int opt, const char *arg, const char *cmd)
{
	const char *name = "speed";
	long *v = &o->speed, min = 1, max = 1000000000;

	switch (opt) {
	case 'j':
		o->json = true;
		return EXIT_OK;
	case 'm':
		name = "mode";
		v = &o->mode;
		min = 0;
		max = 3;
		break;
	case 'b':
		name = "bits";
		v = &o->bits;
		max = 32;
		break;
	}
	if (cli_parse_int(arg, min, max, v))
		return cli_usage(cmd, "bad --%s '%s': %ld..%ld", name, arg, min, max);
	return EXIT_OK;
}

static int parse_spi(int argc, char **argv, struct spi_opts *o, const char *allowed,
		     const char *cmd, const char *help)
{
	int opt;

	*o = (struct spi_opts){ .mode = -1, .bits = -1, .speed = -1 };
	while ((opt = getopt_long(argc, argv, "jm:b:s:h", spi_long_opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(help);
			return -1;
		}
		if (opt == '?')
			return EXIT_USAGE;
		if (!strchr(allowed, opt))
			return cli_usage(cmd, "option -%c does not apply to %s", opt, cmd);
		if (spi_opt(o, opt, optarg, cmd))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int open_spi(const char *spec, struct udrv_spi **out)
{
	struct udrv_spi *spi = udrv_spi_new();
	int err;

	if (!spi)
		return cli_error(EXIT_FAIL, "out of memory");
	err = udrv_spi_open(spi, spec);
	if (err) {
		err = cli_error(err == -EINVAL || err == -ERANGE ? EXIT_USAGE : EXIT_FAIL, "%s",
				udrv_spi_errmsg(spi));
		udrv_spi_free(spi);
		return err;
	}
	*out = spi;
	return EXIT_OK;
}

/* ---- list ---- */

static const char list_help[] =
"Usage: udrv spi list [--json]\n"
"\n"
"List the spidev devices with their mode, bits per word and maximum clock\n"
"(what spidev keeps: the rate asked for, not the one the controller makes).\n"
"\n"
"Options:\n"
"  -j, --json         a JSON array of devices\n";

static void show_device(struct udrv_spi *spi, const char *name, struct udrv_json *j)
{
	if (!j) {
		printf("%-12s mode %u  %2u bits  %u Hz\n", name, udrv_spi_mode(spi) & 3,
		       udrv_spi_bits_per_word(spi), udrv_spi_max_speed_hz(spi));
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "device", name);
	udrv_json_kuint(j, "mode", udrv_spi_mode(spi));
	udrv_json_kuint(j, "bits_per_word", udrv_spi_bits_per_word(spi));
	udrv_json_kuint(j, "max_speed_hz", udrv_spi_max_speed_hz(spi));
	udrv_json_obj_end(j);
}

static int spi_list(int argc, char **argv)
{
	struct udrv_json *j;
	struct spi_opts o;
	char **names = NULL;
	int n, ret = parse_spi(argc, argv, &o, "j", "spi list", list_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return cli_usage("spi list", "unexpected argument '%s'", argv[optind]);
	n = udrv_spi_list(&names);
	if (n < 0)
		return cli_error(EXIT_FAIL, "cannot list the SPI devices: %s", strerror(-n));
	j = cli_json_begin(o.json);
	if (j)
		udrv_json_arr_begin(j);
	if (!n && !j)
		printf("no spidev device (a device bound to spidev? on a Raspberry Pi: dtparam=spi=on)\n");
	for (int i = 0; i < n; i++) {
		struct udrv_spi *spi = NULL;

		if (open_spi(names[i], &spi) == EXIT_OK) {
			show_device(spi, names[i], j);
			udrv_spi_free(spi);
		} else {
			ret = EXIT_FAIL;
		}
	}
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	udrv_strv_free(names);
	return ret;
}

/* ---- transfer ---- */

static const char transfer_help[] =
"Usage: udrv spi transfer [OPTIONS] DEVICE BYTE...\n"
"\n"
"One full-duplex transfer: send the BYTEs (each 0x00-0xff, decimal or 0x\n"
"hex), chip select held throughout, and print the bytes received meanwhile\n"
"in hex. Mode, bits per word and clock are set first when given, and stay\n"
"so (spidev keeps them for the next program).\n"
"\n"
"Options:\n"
"  -m, --mode N       SPI mode 0-3 (CPOL and CPHA)\n"
"  -b, --bits N       bits per word, 1-32\n"
"  -s, --speed HZ     maximum clock in Hz\n"
"  -j, --json         {\"device\", \"sent\": [...], \"received\": [...]}\n";

static int settings(struct udrv_spi *spi, const struct spi_opts *o)
{
	int err = 0;

	if (o->mode >= 0)
		err = udrv_spi_set_mode(spi, (udrv_spi_mode(spi) & ~3u) | (uint32_t)o->mode);
	if (!err && o->bits > 0)
		err = udrv_spi_set_bits_per_word(spi, (unsigned int)o->bits);
	if (!err && o->speed > 0)
		err = udrv_spi_set_max_speed_hz(spi, (uint32_t)o->speed);
	return err ? cli_error(EXIT_FAIL, "%s", udrv_spi_errmsg(spi)) : EXIT_OK;
}

static int parse_bytes(int n, char **args, uint8_t *out)
{
	long v;

	if (n > SPI_CLI_BYTES_MAX)
		return cli_usage("spi transfer", "%d bytes: at most %d", n, SPI_CLI_BYTES_MAX);
	for (int i = 0; i < n; i++) {
		if (cli_parse_int(args[i], 0, 0xff, &v))
			return cli_usage("spi transfer", "bad byte '%s': 0x00..0xff", args[i]);
		out[i] = (uint8_t)v;
	}
	return EXIT_OK;
}

static void show_bytes(const char *dev, const uint8_t *tx, const uint8_t *rx, int n, bool json)
{
	struct udrv_json *j = cli_json_begin(json);

	if (!j) {
		for (int i = 0; i < n; i++)
			printf(i ? " 0x%02x" : "0x%02x", rx[i]);
		printf("\n");
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "device", dev);
	for (int k = 0; k < 2; k++) {
		udrv_json_key(j, k ? "received" : "sent");
		udrv_json_arr_begin(j);
		for (int i = 0; i < n; i++)
			udrv_json_uint(j, k ? rx[i] : tx[i]);
		udrv_json_arr_end(j);
	}
	udrv_json_obj_end(j);
	cli_json_end(j);
}

static int spi_transfer(int argc, char **argv)
{
	uint8_t tx[SPI_CLI_BYTES_MAX], rx[SPI_CLI_BYTES_MAX];
	struct udrv_spi *spi = NULL;
	struct spi_opts o;
	int n, ret = parse_spi(argc, argv, &o, "jmbs", "spi transfer", transfer_help);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	n = argc - optind - 1;
	if (n < 1)
		return cli_usage("spi transfer", "give DEVICE and the bytes to send");
	ret = parse_bytes(n, argv + optind + 1, tx);
	if (!ret)
		ret = open_spi(argv[optind], &spi);
	if (ret)
		return ret;
	ret = settings(spi, &o);
	if (!ret && udrv_spi_transfer(spi, tx, rx, (size_t)n) < 0)
		ret = cli_error(EXIT_FAIL, "%s", udrv_spi_errmsg(spi));
	if (!ret)
		show_bytes(argv[optind], tx, rx, n, o.json);
	udrv_spi_free(spi);
	return ret;
}

int cmd_spi(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "list", spi_list, "list devices" },
		{ "transfer", spi_transfer, "transfer bytes" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("spi", cmds, argc - 1, argv + 1, spi_help);
}
