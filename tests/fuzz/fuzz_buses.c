// SPDX-License-Identifier: GPL-2.0-only
/*
 * The I2C and SPI device specs (lib/i2c/i2c.c, lib/spi/spi.c): the text a
 * user gives to udrv_i2c_open() and udrv_spi_open().
 *
 * Input parts (fuzz.h):
 *   0 an SPI spec, 1 the modalias of spi0.1 (its node /dev/spidev0.1 is there)
 *   2 an I2C spec, 3 the name of adapter i2c-0 (its node /dev/i2c-0 is there)
 *
 * Properties:
 *  - udrv_spi_parse_devspec() = an independent model of "B.C", "spidevB.C"
 *    and "/dev/spidevB.C" (decimal, no leading zero, at most INT32_MAX:
 *    -ERANGE above, -EINVAL for any other text), output untouched on error,
 *    and an accepted spec prints back to its numbers;
 *  - an open reaches the node (and fails there with -ENOTTY: the fake nodes
 *    are plain files, their ioctls refused) exactly when the spec names the device:
 *    by its numbers as parsed, or by the whole name the tree gives it; any
 *    other spec fails with -EINVAL, -ENOENT or -ERANGE; every failure has
 *    a message.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/udrv.h>

#include "fuzz.h"
#include "spi/spi_priv.h"

/* One number of a spec: 0, or [1-9][0-9]*; -1 not one, -2 too big. */
static long long model_number(const char **p)
{
	const char *s = *p;
	long long v = 0;
	bool big = false;

	if (*s < '0' || *s > '9')
		return -1;
	if (*s == '0' && s[1] >= '0' && s[1] <= '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > 0x7fffffffLL)
			big = true;
		else
			v = v * 10 + (*s - '0');
	}
	*p = s;
	return big || v > 0x7fffffffLL ? -2 : v;
}

static int model(const char *s, unsigned int *bus, unsigned int *cs)
{
	long long b, c;

	if (!strncmp(s, "/dev/spidev", 11))
		s += 11;
	else if (!strncmp(s, "spidev", 6))
		s += 6;
	b = model_number(&s);
	if (b == -1 || *s != '.')
		return -EINVAL;
	s++;
	c = model_number(&s);
	if (c == -1 || *s)
		return -EINVAL;
	if (b == -2 || c == -2)
		return -ERANGE;
	*bus = (unsigned int)b;
	*cs = (unsigned int)c;
	return 0;
}

static void check_devspec(const char *spec)
{
	unsigned int b = 77, c = 77, mb = 0, mc = 0;
	int got = udrv_spi_parse_devspec(spec, &b, &c), want = model(spec, &mb, &mc);
	char back[32];

	if (got != want) {
		fprintf(stderr, "devspec '%s': %d, the model %d\n", spec, got, want);
		abort();
	}
	if (got) {
		if (b != 77 || c != 77)
			abort();	/* output touched on error */
		return;
	}
	snprintf(back, sizeof(back), "%u.%u", b, c);
	if (b != mb || c != mc || udrv_spi_parse_devspec(back, &mb, &mc) || mb != b || mc != c)
		abort();
}

/* The open of a spec that names the fake device reaches its node, whose
 * ioctls are refused (-ENOTTY: a plain file); another spec fails before. */
static void check_failure(const char *what, const char *spec, int err, const char *msg,
			  bool names_it)
{
	if (!msg[0] || names_it != (err == -ENOTTY) ||
	    (!names_it && err != -EINVAL && err != -ENOENT && err != -ERANGE)) {
		fprintf(stderr, "%s '%s': names it %d, but %d: %s\n", what, spec, names_it, err,
			msg);
		abort();
	}
}

static void check_spi(const struct fuzz_parts *parts)
{
	char *spec = fuzz_str(parts, 0);
	struct udrv_spi *spi = udrv_spi_new();
	unsigned int b, c;
	const char *name;
	bool names_it;
	int parsed;

	check_devspec(spec);
	fuzz_write_str("dev/spidev0.1", "");
	if (fuzz_has(parts, 1))
		fuzz_write_part(parts, 1, "sys/bus/spi/devices/spi0.1/modalias");
	else
		fuzz_mkdir("sys/bus/spi/devices/spi0.1");
	name = fuzz_text("sys/bus/spi/devices/spi0.1/modalias", 128);
	parsed = udrv_spi_parse_devspec(spec, &b, &c);
	names_it = !parsed ? b == 0 && c == 1 :
		   parsed == -EINVAL && *spec && name && !strncmp(name, "spi:", 4) &&
		   !strcmp(name + 4, spec);
	if (spi)
		check_failure("spi", spec, udrv_spi_open(spi, spec), udrv_spi_errmsg(spi),
			      names_it);
	udrv_spi_free(spi);
	free(spec);
}

static void check_i2c(const struct fuzz_parts *parts)
{
	char *spec = fuzz_str(parts, 2);
	struct udrv_i2c *i2c = udrv_i2c_new();
	const char *name;
	unsigned int n;
	bool names_it;
	int parsed;

	fuzz_write_str("dev/i2c-0", "");
	if (fuzz_has(parts, 3))
		fuzz_write_part(parts, 3, "sys/bus/i2c/devices/i2c-0/name");
	else
		fuzz_mkdir("sys/bus/i2c/devices/i2c-0");
	name = fuzz_text("sys/bus/i2c/devices/i2c-0/name", 64);
	parsed = udrv_parse_devnum(spec, "i2c-", &n);
	names_it = !parsed ? n == 0 : parsed == -EINVAL && *spec && name && !strcmp(name, spec);
	if (i2c)
		check_failure("i2c", spec, udrv_i2c_open(i2c, spec), udrv_i2c_errmsg(i2c),
			      names_it);
	udrv_i2c_free(i2c);
	free(spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parts parts;

	fuzz_split(data, size, &parts);
	fuzz_reset();
	check_spi(&parts);
	check_i2c(&parts);
	return 0;
}
