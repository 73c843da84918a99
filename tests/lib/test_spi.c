// SPDX-License-Identifier: GPL-2.0-only
/*
 * libudrv's SPI (lib/spi/) on a fake spidev (fake_spi.c, a loopback
 * device): a device by bus.cs, node and name, and why one cannot be
 * opened; modes, word sizes and clock set and refused; transfers and
 * messages, what spidev refuses said (a message as the kernel checks it:
 * fake_spi_rules.c), and nothing sent then.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <udrv/chip.h>
#include <udrv/spi.h>
#include <unistd.h>

#include "fake_spi.h"
#include "harness.h"
#include "spi/spi_priv.h"

static struct udrv_spi *dev01(void)
{
	struct udrv_spi *spi;

	fake_spi_setup(0, 1, "mcp3008");
	spi = udrv_spi_new();
	CHECK(spi != NULL);
	CHECK_INT(udrv_spi_open(spi, "0.1"), 0);
	return spi;
}

static void test_devspecs_are_strict(void)
{
	static const char *const good[] = { "0.1", "spidev0.1", "/dev/spidev0.1" };
	static const char *const bad[] = {
		"", ".", "0.", ".1", "01.1", "0.01", "0x0.1", "+0.1", "0.1 ", " 0.1", "0.1.2",
		"/dev/0.1", "spidev", "spi0.1", "0,1", "-1.0",
	};
	unsigned int b = 9, c = 9;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK_INT(udrv_spi_parse_devspec(good[i], &b, &c), 0);
		CHECK(b == 0 && c == 1);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (udrv_spi_parse_devspec(bad[i], &b, &c) != -EINVAL)
			harness_fail(__FILE__, __LINE__, "'%s' taken", bad[i]);
	CHECK_INT(udrv_spi_parse_devspec("2147483648.0", &b, &c), -ERANGE);
	CHECK_INT(udrv_spi_parse_devspec("1.99999999999999999", &b, &c), -ERANGE);
	CHECK_INT(udrv_spi_parse_devspec("2147483647.3", &b, &c), 0);
	CHECK(b == 2147483647u && c == 3);
}

static void test_open_by_spec_and_name(void)
{
	static const char *const specs[] = { "0.1", "spidev0.1", "/dev/spidev0.1", "mcp3008" };
	struct udrv_spi *spi = dev01();

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		CHECK_INT(udrv_spi_open(spi, specs[i]), 0);
		CHECK(udrv_spi_bus(spi) == 0 && udrv_spi_cs(spi) == 1);
		CHECK(udrv_spi_fd(spi) >= 0);
		CHECK_INT(udrv_spi_mode(spi), UDRV_SPI_MODE_0);
		CHECK_INT(udrv_spi_bits_per_word(spi), 8);	/* spidev's 0 */
		CHECK_INT(udrv_spi_max_speed_hz(spi), 500000);
	}
	udrv_spi_free(spi);
}

static void test_open_refusals_say_why(void)
{
	struct udrv_spi *spi = dev01();

	fake_spi_device(1, 0, "unbound", false);
	fake_spi_device(2, 0, "twin", true);
	fake_spi_device(2, 1, "twin", true);
	CHECK_INT(udrv_spi_open(spi, ""), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "no SPI device given");
	CHECK_INT(udrv_spi_open(spi, "3.0"), -ENOENT);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "no SPI device 3.0");
	CHECK_INT(udrv_spi_open(spi, "1.0"), -ENOENT);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "bind it to spidev");
	CHECK_INT(udrv_spi_open(spi, "twin"), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "2 SPI devices are named 'twin'");
	CHECK_INT(udrv_spi_open(spi, "mcp"), -ENOENT);
	CHECK_INT(udrv_spi_open(spi, "0.99999999999"), -ERANGE);
	CHECK_INT(udrv_spi_fd(spi), -1);
	udrv_spi_free(spi);
}

static void test_list_sorts_bus_then_cs(void)
{
	char **names = NULL;

	fake_spi_setup(10, 0, "a");
	fake_spi_device(2, 1, "b", true);
	fake_spi_device(2, 0, "c", true);
	CHECK_INT(udrv_spi_list(&names), 3);
	CHECK_STR(names[0], "spidev2.0");
	CHECK_STR(names[1], "spidev2.1");
	CHECK_STR(names[2], "spidev10.0");
	udrv_strv_free(names);
}

static void test_settings_and_refusals(void)
{
	struct udrv_spi *spi = dev01();

	CHECK_INT(udrv_spi_set_mode(spi, UDRV_SPI_MODE_3 | UDRV_SPI_LSB_FIRST), 0);
	CHECK_INT(fake_spi.mode, UDRV_SPI_MODE_3 | UDRV_SPI_LSB_FIRST);
	CHECK_INT(udrv_spi_mode(spi), UDRV_SPI_MODE_3 | UDRV_SPI_LSB_FIRST);
	fake_spi.refuse_mode = UDRV_SPI_3WIRE;
	CHECK_INT(udrv_spi_set_mode(spi, UDRV_SPI_MODE_0 | UDRV_SPI_3WIRE), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "the controller refused mode 0, 3-wire");
	CHECK_INT(udrv_spi_mode(spi), UDRV_SPI_MODE_3 | UDRV_SPI_LSB_FIRST);	/* unchanged */
	CHECK_INT(udrv_spi_set_mode(spi, 0x80), -EINVAL);
	fake_spi.bits_mask = 1u << 7;	/* 8 bits only */
	CHECK_INT(udrv_spi_set_bits_per_word(spi, 12), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "cannot do 12-bit words");
	CHECK_INT(udrv_spi_set_bits_per_word(spi, 0), -ERANGE);
	CHECK_INT(udrv_spi_set_bits_per_word(spi, 33), -ERANGE);
	CHECK_INT(udrv_spi_set_bits_per_word(spi, 8), 0);
	CHECK_INT(udrv_spi_set_max_speed_hz(spi, 1000000), 0);
	CHECK_INT(fake_spi.speed_hz, 1000000);
	CHECK_INT(udrv_spi_set_max_speed_hz(spi, 0), -ERANGE);
	CHECK_INT(udrv_spi_set_max_speed_hz(spi, 1000000001), -ERANGE);
	udrv_spi_close(spi);
	CHECK_INT(udrv_spi_set_mode(spi, 0), -EBADF);
	udrv_spi_free(spi);
}

static void test_transfer_and_message(void)
{
	uint8_t tx[3] = { 0x01, 0x80, 0x00 }, rx[3] = { 0 }, cmd = 0x9f, id[4] = { 1, 1, 1, 1 };
	struct udrv_spi_xfer x[2] = {
		{ .tx_buf = (uintptr_t)&cmd, .len = 1 },
		{ .rx_buf = (uintptr_t)id, .len = 4, .cs_change = 1, .delay_usecs = 10 },
	};
	struct udrv_spi *spi = dev01();

	CHECK_INT(udrv_spi_transfer(spi, tx, rx, 3), 3);
	CHECK(!memcmp(tx, rx, 3));		/* the loopback */
	CHECK_INT(udrv_spi_transfer(spi, NULL, rx, 3), 3);
	CHECK(rx[1] == 0);
	CHECK_INT(udrv_spi_message(spi, x, 2), 5);
	CHECK_INT(fake_spi.nxfers, 2);
	CHECK_INT(fake_spi.cs_changes, 2);
	CHECK_INT(id[0], 0);			/* no tx: zeros */
	udrv_spi_free(spi);
}

static void test_what_spidev_refuses_is_not_sent(void)
{
	static uint8_t buf[4097], in[4097];
	struct udrv_spi_xfer x[2] = { { .tx_buf = (uintptr_t)buf, .len = 4000 },
				      { .tx_buf = (uintptr_t)buf, .len = 97 } };
	struct udrv_spi *spi = dev01();

	/* one transfer: checked before the call */
	CHECK_INT(udrv_spi_transfer(spi, buf, NULL, sizeof(buf)), -EMSGSIZE);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "4097 bytes in one message, spidev takes 4096");
	CHECK_INT(udrv_spi_transfer(spi, buf, NULL, 0), -EINVAL);
	/* a message: the count before the call (it is in the ioctl's number) */
	CHECK_INT(udrv_spi_message(spi, x, 0), -EINVAL);
	CHECK_INT(udrv_spi_message(spi, x, UDRV_SPI_XFERS_MAX + 1), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "512 transfers: 1..511 in one message");
	/* the rest as the kernel checks it, and the reason said: 4000 and 97
	 * bytes out are 4104 as spidev counts them (8-byte aligned) */
	CHECK_INT(udrv_spi_message(spi, x, 2), -EMSGSIZE);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "4097 bytes out and 0 in, spidev takes 4096 each way");
	x[1].len = 1;
	x[1].bits_per_word = 33;
	CHECK_INT(udrv_spi_message(spi, x, 2), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "transfer 1: 33 bits per word");
	x[1].bits_per_word = 0;
	x[1].tx_nbits = 2;			/* dual, where the mode has none */
	CHECK_INT(udrv_spi_message(spi, x, 2), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "transfer 1: 0 bits per word, 2/0 wires");
	x[1].tx_nbits = 0;
	x[1].len = 3;
	x[1].bits_per_word = 16;		/* not whole words */
	CHECK_INT(udrv_spi_message(spi, x, 2), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "a message of 2 transfers: Invalid argument");
	CHECK_INT(fake_spi.messages, 0);
	/* what spidev takes: its buffer each way, and a transfer of 0 bytes
	 * that only waits */
	x[0] = (struct udrv_spi_xfer){ .tx_buf = (uintptr_t)buf, .len = 4096 };
	x[1] = (struct udrv_spi_xfer){ .rx_buf = (uintptr_t)in, .len = 4096 };
	CHECK_INT(udrv_spi_message(spi, x, 2), 8192);
	x[1] = (struct udrv_spi_xfer){ .delay_usecs = 10 };
	CHECK_INT(udrv_spi_message(spi, x, 2), 4096);
	CHECK_INT(fake_spi.messages, 2);
	/* a bigger buffer (spidev.bufsiz=8192) is read at open */
	fake_file("sys/module/spidev/parameters/bufsiz", "8192\n");
	CHECK_INT(udrv_spi_open(spi, "0.1"), 0);
	CHECK_INT(udrv_spi_transfer(spi, buf, NULL, sizeof(buf)), (int)sizeof(buf));
	/* a word size the controller lacks, per transfer: the kernel's EINVAL */
	fake_spi.bits_mask = 1u << 7;
	x[1] = (struct udrv_spi_xfer){ .tx_buf = (uintptr_t)buf, .len = 2, .bits_per_word = 16 };
	CHECK_INT(udrv_spi_message(spi, x, 2), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "the controller lacks");
	/* one transfer the kernel refuses: 3 bytes in 16-bit words */
	fake_spi.bits_mask = 0xffffffff;
	CHECK_INT(udrv_spi_set_bits_per_word(spi, 16), 0);
	CHECK_INT(udrv_spi_transfer(spi, buf, NULL, 3), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "a transfer of 3 bytes: Invalid argument");
	CHECK_INT(fake_spi.messages, 3);
	udrv_spi_free(spi);
}

/* A node a broker opened: taken when it is the device the spec names, and
 * then the handle's; another file is refused and stays the caller's. */
static void test_open_fd_takes_the_node_the_spec_names(void)
{
	struct udrv_spi *spi = dev01();
	char path[UDRV_PATH_LEN];
	int fd, other;

	CHECK_INT(udrv_path(path, sizeof(path), "/dev/spidev0.1"), 0);
	fd = open(path, O_RDWR | O_CLOEXEC);
	other = open("/dev/null", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0 && other >= 0);
	CHECK_INT(udrv_spi_open_fd(spi, "0.1", -1), -EBADF);
	CHECK_INT(udrv_spi_open_fd(spi, "0.1", other), -EINVAL);
	CHECK_CONTAINS(udrv_spi_errmsg(spi), "is not");
	CHECK(udrv_spi_fd(spi) < 0);
	CHECK(fcntl(other, F_GETFD) >= 0);	/* still the caller's */
	CHECK_INT(udrv_spi_open_fd(spi, "mcp3008", fd), 0);
	CHECK(udrv_spi_fd(spi) == fd && udrv_spi_bus(spi) == 0 && udrv_spi_cs(spi) == 1);
	CHECK_INT(udrv_spi_max_speed_hz(spi), 500000);
	udrv_spi_free(spi);		/* closes it */
	CHECK(fcntl(fd, F_GETFD) < 0);
	close(other);
}

UDRV_TESTS(UDRV_T(test_devspecs_are_strict),
	   UDRV_T(test_open_by_spec_and_name),
	   UDRV_T(test_open_refusals_say_why),
	   UDRV_T(test_list_sorts_bus_then_cs),
	   UDRV_T(test_settings_and_refusals),
	   UDRV_T(test_transfer_and_message),
	   UDRV_T(test_what_spidev_refuses_is_not_sent),
	   UDRV_T(test_open_fd_takes_the_node_the_spec_names))
