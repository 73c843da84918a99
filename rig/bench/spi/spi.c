// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench spi: the time of one SPI transfer through libudrv against the
 * raw spidev ioctl (SPI_IOC_MESSAGE), on the same device in the same run,
 * in turns (core/pair.h).
 *
 * Rows: a 3-byte transfer (an MCP3008's frame), a 32-byte one, and a
 * message of two transfers (4 bytes, then 32, chip select held). On a
 * loopback device (MISO wired to MOSI: the rig's spi-fixture chip select 1,
 * or a jumper) every transfer's received bytes are checked against the
 * ones sent, which change from transfer to transfer, into a buffer
 * poisoned first: a call that does nothing fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <linux/spi/spidev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench.h"
#include "benches.h"
#include "msg.h"
#include "pair.h"

#define DEFAULT_SAMPLES	2000
#define DEFAULT_BATCH	16
#define MAX_LEN		36	/* the longest row's bytes */

struct spi_row {
	const char *mechanism;
	unsigned int len[2];	/* its transfers' bytes; [1] 0: one transfer */
};

static const struct spi_row spi_rows[] = {
	{ "xfer-3", { 3, 0 } },
	{ "xfer-32", { 32, 0 } },
	{ "message-2", { 4, 32 } },
};

struct spi_bench {
	struct bench_run run;
	const char *device;
	uint64_t batch;
	bool check;
	struct udrv_spi *spi;
	int fd;				/* the raw side's own open of the node */
	const struct spi_row *row;	/* the row measured */
	uint8_t seq;			/* changes the bytes sent */
	uint8_t tx[MAX_LEN], rx[MAX_LEN];
};

static const char help[] =
"Usage: udrv-bench spi [OPTIONS]\n"
"\n"
"Time per SPI transfer through libudrv against the raw spidev ioctl\n"
"(SPI_IOC_MESSAGE), on one device, in turns in the same run. Rows: xfer-3\n"
"(3 bytes, an MCP3008's frame), xfer-32 (32 bytes), message-2 (4 bytes then\n"
"32 in one message, chip select held). A sample is the mean of a batch.\n"
"The device must be a loopback (MISO wired to MOSI): every transfer's\n"
"received bytes are checked against those sent.\n"
"\n"
"Options:\n"
"  -d, --device DEV    the spidev device: B.C, its node or its name\n"
"                      (default: the only spidev device there is)\n"
"      --no-check      measure a device that is no loopback (nothing checked)\n"
"      --batch N       transfers a sample (default 16)\n"
"  -n, --samples N     samples a row (default 2000)\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Example:\n"
"  udrv-bench spi --device 0.1 --samples 5000\n";

enum { OPT_NO_CHECK = 0x80, OPT_BATCH };

static const struct option long_opts[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "no-check", no_argument, NULL, OPT_NO_CHECK },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ NULL, 0, NULL, 0 },
};

static int spi_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct spi_bench *b = ctx;

	switch (opt) {
	case 'd':
		if (!*arg)
			return bench_usage(run->bench, "bad --device '': B.C, a node or a name");
		b->device = arg;
		return 0;
	case OPT_NO_CHECK:
		b->check = false;
		return 0;
	case OPT_BATCH:
		return bench_pair_batch_opt(run, arg, &b->batch);
	default:
		return bench_usage(run->bench, "bad option");
	}
}

static unsigned int row_len(const struct spi_row *r)
{
	return r->len[0] + r->len[1];
}

/* New bytes to send, the receive buffer poisoned. */
static void prepare(struct spi_bench *b)
{
	unsigned int n = row_len(b->row);

	b->seq++;
	for (unsigned int i = 0; i < n; i++) {
		b->tx[i] = (uint8_t)(b->seq + i * 37);
		b->rx[i] = (uint8_t)~b->tx[i];
	}
}

static int checked(struct spi_bench *b, const char *impl, int err)
{
	if (err)
		return bench_error(EXIT_FAIL, "spi %s: %s: %s", impl, b->row->mechanism,
				   strerror(err));
	if (b->check && memcmp(b->tx, b->rx, row_len(b->row)))
		return bench_error(EXIT_FAIL, "spi %s: %s: the bytes received are not those "
				   "sent: is %s a loopback (MISO wired to MOSI)? (or measure "
				   "without the check: --no-check)", impl, b->row->mechanism,
				   b->device);
	return 0;
}

static int raw_batch(void *ctx, uint64_t n)
{
	struct spi_bench *b = ctx;
	struct spi_ioc_transfer tr[2];
	unsigned int k = b->row->len[1] ? 2 : 1;

	memset(tr, 0, sizeof(tr));
	tr[0].tx_buf = (uintptr_t)b->tx;
	tr[0].rx_buf = (uintptr_t)b->rx;
	tr[0].len = b->row->len[0];
	tr[1].tx_buf = (uintptr_t)(b->tx + b->row->len[0]);
	tr[1].rx_buf = (uintptr_t)(b->rx + b->row->len[0]);
	tr[1].len = b->row->len[1];
	for (uint64_t i = 0; i < n; i++) {
		int ret;

		prepare(b);
		ret = ioctl(b->fd, SPI_IOC_MESSAGE(k), tr);
		if (checked(b, "raw", ret < 0 ? errno : 0))
			return EXIT_FAIL;
	}
	return 0;
}

static int udrv_batch(void *ctx, uint64_t n)
{
	struct spi_bench *b = ctx;
	struct udrv_spi_xfer x[2] = {
		{ .tx_buf = (uintptr_t)b->tx, .rx_buf = (uintptr_t)b->rx, .len = b->row->len[0] },
		{ .tx_buf = (uintptr_t)(b->tx + b->row->len[0]),
		  .rx_buf = (uintptr_t)(b->rx + b->row->len[0]), .len = b->row->len[1] },
	};

	for (uint64_t i = 0; i < n; i++) {
		int ret;

		prepare(b);
		ret = b->row->len[1] ? udrv_spi_message(b->spi, x, 2) :
				       udrv_spi_transfer(b->spi, b->tx, b->rx, b->row->len[0]);
		if (checked(b, "udrv", ret < 0 ? -ret : 0))
			return EXIT_FAIL;
	}
	return 0;
}

/* The only spidev device, when none is named. */
static int only_device(struct spi_bench *b, char *name, size_t len)
{
	char **names = NULL;
	int n = udrv_spi_list(&names);

	if (n == 1)
		snprintf(name, len, "%s", names[0]);
	udrv_strv_free(names);
	if (n < 0)
		return bench_error(EXIT_FAIL, "cannot list the spidev devices: %s", strerror(-n));
	if (n != 1)
		return bench_error(EXIT_FAIL, "%s spidev devices: name the one to measure "
				   "(udrv spi list; --device)", n ? "several" : "no");
	b->device = name;
	return 0;
}

static int open_device(struct spi_bench *b, char *name, size_t len)
{
	char node[PATH_MAX];

	if (!b->device && only_device(b, name, len))
		return EXIT_FAIL;
	b->spi = udrv_spi_new();
	if (!b->spi)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_spi_open(b->spi, b->device))
		return bench_error(EXIT_FAIL, "%s", udrv_spi_errmsg(b->spi));
	snprintf(node, sizeof(node), "%s/dev/spidev%u.%u", bench_sysroot(),
		 udrv_spi_bus(b->spi), udrv_spi_cs(b->spi));
	b->fd = open(node, O_RDWR | O_CLOEXEC);
	if (b->fd < 0)
		return bench_error(EXIT_FAIL, "%s: %s", node, strerror(errno));
	return 0;
}

static int run_all(struct spi_bench *b)
{
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(spi_rows) / sizeof(spi_rows[0]); i++) {
		struct bench_pair p = {
			.mechanism = spi_rows[i].mechanism, .what = "transfer", .n = 2,
			.impl = { { "raw", raw_batch }, { "udrv", udrv_batch } },
			.batch = b->batch, .samples = bench_samples(&b->run, DEFAULT_SAMPLES),
		};

		b->row = &spi_rows[i];
		err = bench_pair_run(&b->run, &p, b);
	}
	return err;
}

static void json_extra(const struct bench_run *run, struct udrv_json *j)
{
	const struct spi_bench *b = (const struct spi_bench *)run;

	udrv_json_key(j, "spi");
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "bus", udrv_spi_bus(b->spi));
	udrv_json_kuint(j, "chip_select", udrv_spi_cs(b->spi));
	udrv_json_kuint(j, "mode", udrv_spi_mode(b->spi));
	udrv_json_kuint(j, "bits_per_word", udrv_spi_bits_per_word(b->spi));
	udrv_json_kuint(j, "max_speed_hz", udrv_spi_max_speed_hz(b->spi));
	udrv_json_kbool(j, "checked", b->check);
	udrv_json_kuint(j, "batch", b->batch);
	udrv_json_obj_end(j);
}

BENCH_COMMAND(spi, "time per SPI transfer: libudrv against the raw spidev ioctl");

int cmd_bench_spi(int argc, char **argv)
{
	struct spi_bench *b = calloc(1, sizeof(*b));
	char name[64];
	int ret;

	if (!b)
		return bench_error(EXIT_FAIL, "out of memory");
	*b = (struct spi_bench){ .batch = DEFAULT_BATCH, .check = true, .fd = -1 };
	ret = bench_parse(&b->run, "spi", argc, argv, help, "d:", long_opts, spi_opt, b);
	if (!ret && optind < argc)
		ret = bench_usage("spi", "unexpected argument '%s'", argv[optind]);
	if (!ret)
		ret = open_device(b, name, sizeof(name));
	if (!ret) {
		b->run.json_extra = json_extra;
		ret = bench_begin(&b->run);
		if (!ret)
			ret = run_all(b);
		ret = bench_end(&b->run, ret);
	}
	if (b->fd >= 0)
		close(b->fd);
	udrv_spi_free(b->spi);
	free(b);
	return ret < 0 ? EXIT_OK : ret;
}
