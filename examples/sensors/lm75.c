// SPDX-License-Identifier: GPL-2.0-only
/*
 * A temperature sensor on I2C, driven from userspace: an LM75 (or one of
 * its many compatibles: TMP75, DS75, MAX7500...) read every PERIOD ms.
 *
 * The LM75's temperature register (0x00) is 16 bits, most significant byte
 * first on the wire, the temperature in its top 9 bits in steps of 0.5 °C
 * (two's complement). SMBus read word data brings the low byte first, so
 * the two bytes are swapped. A sensor that a kernel driver (lm75, hwmon)
 * already drives is refused with the driver's name: read it through hwmon,
 * or unbind the driver if this program is to own the device.
 *
 * On the lab's x86 boards, Debian's i2c-stub plays the sensor:
 *   modprobe i2c-dev; modprobe i2c-stub chip_addr=0x48
 *   udrv i2c set --word 'SMBus stub driver' 0x48 0 0x8019   # 25.5 °C
 *   udrv-lm75 'SMBus stub driver' 0x48 0 1
 *
 * Usage: udrv-lm75 BUS [ADDRESS [PERIOD_MS [COUNT]]]  (default 0x48, 1000,
 *        COUNT 0: until Ctrl-C)
 * Build: cc lm75.c $(pkg-config --cflags --libs libudrv)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <udrv/udrv.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The temperature register as tenths of a degree Celsius. */
static int lm75_read(struct udrv_i2c *i2c, int *tenths)
{
	uint16_t raw;
	int err = udrv_i2c_smbus_read_word_data(i2c, 0x00, &raw);
	int16_t t;

	if (err)
		return err;
	t = (int16_t)((raw & 0xff) << 8 | raw >> 8);	/* MSB first on the wire */
	*tenths = (t >> 7) * 5;				/* 9 bits, 0.5 °C each */
	return 0;
}

static int number(const char *s, uint64_t min, uint64_t max, const char *what, uint64_t *v)
{
	if (!udrv_parse_u64(s, max, v) && *v >= min)
		return 0;
	fprintf(stderr, "udrv-lm75: bad %s '%s': %llu..%llu\n", what, s,
		(unsigned long long)min, (unsigned long long)max);
	return -1;
}

static int run(struct udrv_i2c *i2c, uint64_t period_ms, uint64_t count)
{
	struct timespec pause = { (time_t)(period_ms / 1000), (long)(period_ms % 1000) * 1000000 };
	int tenths;

	for (uint64_t n = 0; !stop && (!count || n < count); n++) {
		if (n)
			nanosleep(&pause, NULL);
		if (lm75_read(i2c, &tenths)) {
			fprintf(stderr, "udrv-lm75: %s\n", udrv_i2c_errmsg(i2c));
			return 1;
		}
		printf("%s%d.%d °C\n", tenths < 0 && tenths > -10 ? "-" : "", tenths / 10,
		       abs(tenths % 10));
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t addr = 0x48, period = 1000, count = 0;
	struct udrv_i2c *i2c;
	int ret = 1;

	if (argc < 2 || argc > 5) {
		fprintf(stderr, "usage: udrv-lm75 BUS [ADDRESS [PERIOD_MS [COUNT]]]\n");
		return 2;
	}
	if ((argc > 2 && number(argv[2], 0x03, 0x77, "address", &addr)) ||
	    (argc > 3 && number(argv[3], 0, 3600000, "period", &period)) ||
	    (argc > 4 && number(argv[4], 0, UINT32_MAX, "count", &count)))
		return 2;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	i2c = udrv_i2c_new();
	if (!i2c)
		return 1;
	if (udrv_i2c_open(i2c, argv[1]) || udrv_i2c_set_address(i2c, (unsigned int)addr, 0))
		fprintf(stderr, "udrv-lm75: %s\n", udrv_i2c_errmsg(i2c));
	else
		ret = run(i2c, period, count);
	udrv_i2c_free(i2c);
	return ret;
}
