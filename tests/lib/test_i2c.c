// SPDX-License-Identifier: GPL-2.0-only
/*
 * libudrv's I2C (lib/i2c/) on a fake i2c-dev (fake_i2c.c): a bus by
 * number, node and adapter name, and why one cannot be opened; addresses
 * (reserved, 10-bit, a kernel driver's); every SMBus transaction and
 * plain transfers against the fake's register file; what the adapter
 * lacks refused before anything is sent.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c.h>
#include <stdlib.h>
#include <udrv/chip.h>
#include <udrv/i2c.h>
#include <unistd.h>

#include "fake_i2c.h"
#include "harness.h"
#include "internal.h"

static struct udrv_i2c *bus1(void)
{
	struct udrv_i2c *i2c;

	fake_i2c_setup(1, "SMBus I801 adapter at f040");
	i2c = udrv_i2c_new();
	CHECK(i2c != NULL);
	CHECK_INT(udrv_i2c_open(i2c, "1"), 0);
	return i2c;
}

static struct udrv_i2c *device(void)
{
	struct udrv_i2c *i2c = bus1();

	CHECK_INT(udrv_i2c_set_address(i2c, 0x50, 0), 0);
	return i2c;
}

static void test_open_by_number_node_and_name(void)
{
	static const char *const specs[] = {
		"1", "i2c-1", "/dev/i2c-1", "SMBus I801 adapter at f040",
	};
	struct udrv_i2c *i2c = bus1();

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		CHECK_INT(udrv_i2c_open(i2c, specs[i]), 0);
		CHECK_INT(udrv_i2c_bus(i2c), 1);
		CHECK_STR(udrv_i2c_name(i2c), "SMBus I801 adapter at f040");
		CHECK(udrv_i2c_fd(i2c) >= 0);
		CHECK_INT(udrv_i2c_funcs(i2c), fake_i2c.funcs);
	}
	udrv_i2c_free(i2c);
}

static void test_open_refusals_say_why(void)
{
	struct udrv_i2c *i2c = bus1();

	fake_i2c_adapter(3, "no node", false);
	fake_i2c_adapter(4, "twin", true);
	fake_i2c_adapter(5, "twin", true);
	CHECK_INT(udrv_i2c_open(i2c, ""), -EINVAL);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "no I2C bus given");
	CHECK_INT(udrv_i2c_open(i2c, NULL), -EINVAL);
	CHECK_INT(udrv_i2c_open(i2c, "7"), -ENOENT);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "no I2C bus 7");
	CHECK_INT(udrv_i2c_open(i2c, "3"), -ENOENT);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "load i2c-dev");
	CHECK_INT(udrv_i2c_open(i2c, "twin"), -EINVAL);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "two I2C adapters are named 'twin'");
	CHECK_INT(udrv_i2c_open(i2c, "SMBus I801"), -ENOENT);	/* a name is whole */
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "no I2C bus 'SMBus I801'");
	CHECK_INT(udrv_i2c_open(i2c, "i2c-99999999999"), -ERANGE);
	CHECK_INT(udrv_i2c_open(i2c, "01"), -ENOENT);		/* not bus 1 */
	CHECK_INT(udrv_i2c_fd(i2c), -1);
	udrv_i2c_free(i2c);
}

static void test_list_is_sorted_by_number(void)
{
	char **names = NULL;

	fake_i2c_setup(10, "ten");
	fake_i2c_adapter(2, "two", true);
	fake_i2c_client(2, 0x48, "lm75");	/* a client is no bus */
	CHECK_INT(udrv_i2c_list(&names), 2);
	CHECK_STR(names[0], "i2c-2");
	CHECK_STR(names[1], "i2c-10");
	udrv_strv_free(names);
}

static void test_addresses_are_range_checked(void)
{
	struct udrv_i2c *i2c = bus1();

	CHECK_INT(udrv_i2c_set_address(i2c, 0x78, 0), -ERANGE);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "0x78 is a reserved address");
	CHECK_INT(udrv_i2c_set_address(i2c, 0x02, 0), -ERANGE);
	CHECK_INT(udrv_i2c_set_address(i2c, 0x80, UDRV_I2C_FORCE), -ERANGE);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "not a 7-bit address");
	CHECK_INT(udrv_i2c_set_address(i2c, 0x50, 0x80), -EINVAL);
	CHECK_INT(udrv_i2c_set_address(i2c, 0x123, UDRV_I2C_TEN), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "I2C_FUNC_10BIT_ADDR");
	CHECK_INT(fake_i2c.addr, 0);		/* nothing set */
	CHECK_INT(udrv_i2c_set_address(i2c, 0x78, UDRV_I2C_FORCE), 0);
	CHECK(fake_i2c.forced);
	fake_i2c.funcs |= I2C_FUNC_10BIT_ADDR;	/* read at open */
	CHECK_INT(udrv_i2c_open(i2c, "1"), 0);
	CHECK_INT(udrv_i2c_set_address(i2c, 0x400, UDRV_I2C_TEN), -ERANGE);
	CHECK_INT(udrv_i2c_set_address(i2c, 0x3ff, UDRV_I2C_TEN), 0);
	CHECK(fake_i2c.ten && fake_i2c.addr == 0x3ff);
	udrv_i2c_free(i2c);
}

static void test_a_kernel_drivers_address_needs_force(void)
{
	struct udrv_i2c *i2c = bus1();

	fake_i2c_client(1, 0x48, "lm75");
	CHECK_INT(udrv_i2c_set_address(i2c, 0x48, 0), -EBUSY);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "used by the kernel's driver lm75 (client 1-0048)");
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "/sys/bus/i2c/drivers/lm75/unbind");
	CHECK_INT(udrv_i2c_set_address(i2c, 0x48, UDRV_I2C_FORCE), 0);
	CHECK(fake_i2c.forced && fake_i2c.addr == 0x48);
	/* bound between the look and the ioctl: the kernel's EBUSY */
	fake_i2c.slave_busy = true;
	CHECK_INT(udrv_i2c_set_address(i2c, 0x50, 0), -EBUSY);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "in use by a kernel driver");
	udrv_i2c_free(i2c);
}

static void test_smbus_bytes_and_words(void)
{
	struct udrv_i2c *i2c = device();
	uint16_t w = 0;
	uint8_t b = 0;

	CHECK_INT(udrv_i2c_smbus_quick(i2c, false), 0);
	CHECK_INT(udrv_i2c_smbus_write_byte_data(i2c, 0x10, 0x5a), 0);
	CHECK_INT(fake_i2c.regs[0x10], 0x5a);
	CHECK_INT(udrv_i2c_smbus_read_byte_data(i2c, 0x10, &b), 0);
	CHECK_INT(b, 0x5a);
	CHECK_INT(udrv_i2c_smbus_write_byte(i2c, 0x20), 0);	/* the pointer */
	CHECK_INT(udrv_i2c_smbus_read_byte(i2c, &b), 0);
	CHECK_INT(b, 0x20 ^ 0xa5);
	CHECK_INT(udrv_i2c_smbus_write_word_data(i2c, 0x30, 0xbeef), 0);
	CHECK_INT(fake_i2c.regs[0x30], 0xef);
	CHECK_INT(fake_i2c.regs[0x31], 0xbe);
	CHECK_INT(udrv_i2c_smbus_read_word_data(i2c, 0x30, &w), 0);
	CHECK_INT(w, 0xbeef);
	CHECK_INT(udrv_i2c_smbus_process_call(i2c, 0x00, 0x1234, &w), 0);
	CHECK_INT(w, 0xedcb);
	udrv_i2c_free(i2c);
}

static void test_smbus_blocks(void)
{
	static const uint8_t out[5] = { 1, 2, 3, 4, 5 };
	uint8_t in[UDRV_I2C_BLOCK_MAX];
	struct udrv_i2c *i2c = device();

	CHECK_INT(udrv_i2c_smbus_write_i2c_block_data(i2c, 0x40, out, 5), 0);
	CHECK_INT(udrv_i2c_smbus_read_i2c_block_data(i2c, 0x40, in, 5), 5);
	CHECK(!memcmp(in, out, 5));
	CHECK_INT(udrv_i2c_smbus_write_block_data(i2c, 0x60, out, 3), 0);
	CHECK_INT(fake_i2c.regs[0x62], 3);
	CHECK_INT(udrv_i2c_smbus_read_block_data(i2c, 0x40, in), 4);	/* the device's count */
	CHECK(!memcmp(in, out, 4));
	CHECK_INT(udrv_i2c_smbus_block_process_call(i2c, 0, out, 3, in), 3);
	CHECK_INT(in[0], 3);
	CHECK_INT(in[2], 1);
	/* lengths the kernel refuses: nothing sent */
	fake_i2c.transfers = 0;
	CHECK_INT(udrv_i2c_smbus_write_block_data(i2c, 0, out, 0), -EINVAL);
	CHECK_INT(udrv_i2c_smbus_write_i2c_block_data(i2c, 0, out, 33), -EINVAL);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "1..32 bytes");
	CHECK_INT(udrv_i2c_smbus_read_i2c_block_data(i2c, 0, NULL, 4), -EINVAL);
	CHECK_INT(fake_i2c.transfers, 0);
	/* a device that says more than a block holds */
	fake_i2c.block_len = 40;
	CHECK_INT(udrv_i2c_smbus_read_block_data(i2c, 0, in), -EPROTO);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "said 40 bytes follow");
	udrv_i2c_free(i2c);
}

static void test_what_the_adapter_lacks_is_refused_before_sending(void)
{
	struct udrv_i2c *i2c = device();
	uint16_t w;

	fake_i2c.funcs &= ~(unsigned long)I2C_FUNC_SMBUS_PROC_CALL;
	udrv_i2c_close(i2c);
	CHECK_INT(udrv_i2c_open(i2c, "1"), 0);
	CHECK_INT(udrv_i2c_smbus_process_call(i2c, 0, 1, &w), -EDESTADDRREQ);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "udrv_i2c_set_address() first");
	CHECK_INT(udrv_i2c_set_address(i2c, 0x50, 0), 0);
	fake_i2c.transfers = 0;
	CHECK_INT(udrv_i2c_smbus_process_call(i2c, 0, 1, &w), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c),
		       "i2c-1 (SMBus I801 adapter at f040) cannot do an SMBus process call");
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "I2C_FUNC_SMBUS_PROC_CALL");
	CHECK_INT(udrv_i2c_set_pec(i2c, true), -EOPNOTSUPP);
	CHECK_INT(fake_i2c.transfers, 0);
	fake_i2c.funcs |= I2C_FUNC_SMBUS_PEC;
	udrv_i2c_close(i2c);
	CHECK_INT(udrv_i2c_open(i2c, "1"), 0);
	CHECK_INT(udrv_i2c_set_pec(i2c, true), 0);
	CHECK(fake_i2c.pec);
	udrv_i2c_free(i2c);
}

static void test_bus_errors_name_the_cause(void)
{
	struct udrv_i2c *i2c = bus1();
	uint8_t b;

	CHECK_INT(udrv_i2c_set_address(i2c, 0x51, 0), 0);
	CHECK_INT(udrv_i2c_smbus_read_byte_data(i2c, 0, &b), -ENXIO);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "no device answered at 0x51 (no ACK)");
	fake_i2c.dev_addr = 0x51;
	fake_i2c.fail_errno = ETIMEDOUT;
	CHECK_INT(udrv_i2c_smbus_read_byte_data(i2c, 0, &b), -ETIMEDOUT);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "the bus timed out");
	fake_i2c.fail_errno = EREMOTEIO;	/* i2c-core's no-ACK of some drivers */
	CHECK_INT(udrv_i2c_smbus_quick(i2c, true), -ENXIO);
	fake_i2c.fail_errno = ENODEV;	/* i2c-stub's where no chip is */
	CHECK_INT(udrv_i2c_smbus_quick(i2c, true), -ENODEV);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "an SMBus quick read at 0x51: no such device (what an adapter such as i2c-stub says");
	udrv_i2c_free(i2c);
}

static void test_transfer_with_a_repeated_start(void)
{
	uint8_t wr[3] = { 0x70, 0x11, 0x22 }, reg = 0x70, rd[2] = { 0 };
	struct udrv_i2c_msg write = { 0x50, 0, 3, wr };
	struct udrv_i2c_msg msgs[2] = { { 0x50, 0, 1, &reg }, { 0x50, UDRV_I2C_M_RD, 2, rd } };
	struct udrv_i2c *i2c = bus1();

	CHECK_INT(udrv_i2c_transfer(i2c, &write, 1), 1);
	CHECK_INT(fake_i2c.regs[0x71], 0x22);
	fake_i2c.transfers = 0;
	CHECK_INT(udrv_i2c_transfer(i2c, msgs, 2), 2);
	CHECK_INT(fake_i2c.transfers, 1);	/* one transaction */
	CHECK_INT(fake_i2c.nmsgs, 2);
	CHECK(rd[0] == 0x11 && rd[1] == 0x22);
	udrv_i2c_free(i2c);
}

static void test_transfer_refusals_send_nothing(void)
{
	static uint8_t big[UDRV_I2C_MSG_LEN_MAX + 1];
	struct udrv_i2c_msg many[UDRV_I2C_MSGS_MAX + 1];
	struct udrv_i2c_msg m = { 0x50, 0, sizeof(big), big };
	struct udrv_i2c *i2c = bus1();

	for (size_t i = 0; i < UDRV_I2C_MSGS_MAX + 1; i++)
		many[i] = (struct udrv_i2c_msg){ 0x50, UDRV_I2C_M_RD, 1, big };
	fake_i2c.transfers = 0;
	CHECK_INT(udrv_i2c_transfer(i2c, many, UDRV_I2C_MSGS_MAX + 1), -EINVAL);
	CHECK_INT(udrv_i2c_transfer(i2c, many, 0), -EINVAL);
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -EINVAL);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "8193 bytes");
	m = (struct udrv_i2c_msg){ 0x50, UDRV_I2C_M_NOSTART, 1, big };
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "I2C_FUNC_NOSTART");
	m = (struct udrv_i2c_msg){ 0x50, 0x0002, 1, big };	/* I2C_M_TEN's neighbour */
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -EINVAL);
	m = (struct udrv_i2c_msg){ 0x80, 0, 1, big };
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -ERANGE);
	m = (struct udrv_i2c_msg){ 0x50, 0, 1, NULL };
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -EINVAL);
	fake_i2c_client(1, 0x48, "lm75");
	m = (struct udrv_i2c_msg){ 0x48, 0, 1, big };
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -EBUSY);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "driver lm75");
	fake_i2c.funcs &= ~(unsigned long)I2C_FUNC_I2C;	/* an SMBus-only adapter */
	udrv_i2c_close(i2c);
	CHECK_INT(udrv_i2c_open(i2c, "1"), 0);
	m = (struct udrv_i2c_msg){ 0x50, 0, 1, big };
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), -EOPNOTSUPP);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "I2C_FUNC_I2C");
	CHECK_INT(fake_i2c.transfers, 0);
	/* the forced address of the handle is the exception */
	fake_i2c.funcs |= I2C_FUNC_I2C;
	udrv_i2c_close(i2c);
	CHECK_INT(udrv_i2c_open(i2c, "1"), 0);
	fake_i2c.dev_addr = 0x48;
	CHECK_INT(udrv_i2c_set_address(i2c, 0x48, UDRV_I2C_FORCE), 0);
	m = (struct udrv_i2c_msg){ 0x48, 0, 1, big };
	CHECK_INT(udrv_i2c_transfer(i2c, &m, 1), 1);
	udrv_i2c_free(i2c);
}

static void test_retries_and_timeout(void)
{
	struct udrv_i2c *i2c = bus1();

	CHECK_INT(udrv_i2c_set_retries(i2c, 3), 0);
	CHECK_INT(fake_i2c.retries, 3);
	CHECK_INT(udrv_i2c_set_retries(i2c, 1001), -ERANGE);
	CHECK_INT(udrv_i2c_set_timeout_ms(i2c, 25), 0);
	CHECK_INT(fake_i2c.timeout, 3);		/* 10 ms steps, rounded up */
	CHECK_INT(udrv_i2c_set_timeout_ms(i2c, 9), -ERANGE);
	CHECK_INT(udrv_i2c_set_timeout_ms(i2c, 600001), -ERANGE);
	udrv_i2c_close(i2c);
	CHECK_INT(udrv_i2c_set_retries(i2c, 1), -EBADF);
	CHECK_INT(udrv_i2c_set_address(i2c, 0x50, 0), -EBADF);
	udrv_i2c_free(i2c);
}

/* A bus node a broker opened: taken when it is the bus the spec names, and
 * then the handle's; another file is refused and stays the caller's. */
static void test_open_fd_takes_the_node_the_spec_names(void)
{
	struct udrv_i2c *i2c = bus1();
	char path[UDRV_PATH_LEN];
	int fd, other;

	CHECK_INT(udrv_path(path, sizeof(path), "/dev/i2c-1"), 0);
	fd = open(path, O_RDWR | O_CLOEXEC);
	other = open("/dev/null", O_RDWR | O_CLOEXEC);
	CHECK(fd >= 0 && other >= 0);
	CHECK_INT(udrv_i2c_open_fd(i2c, "1", -1), -EBADF);
	CHECK_INT(udrv_i2c_open_fd(i2c, "1", other), -EINVAL);
	CHECK_CONTAINS(udrv_i2c_errmsg(i2c), "is not");
	CHECK(udrv_i2c_fd(i2c) < 0);
	CHECK(fcntl(other, F_GETFD) >= 0);	/* still the caller's */
	CHECK_INT(udrv_i2c_open_fd(i2c, "SMBus I801 adapter at f040", fd), 0);
	CHECK(udrv_i2c_fd(i2c) == fd && udrv_i2c_bus(i2c) == 1);
	CHECK(udrv_i2c_funcs(i2c) & I2C_FUNC_I2C);
	udrv_i2c_free(i2c);		/* closes it */
	CHECK(fcntl(fd, F_GETFD) < 0);
	close(other);
}

UDRV_TESTS(UDRV_T(test_open_by_number_node_and_name),
	   UDRV_T(test_open_refusals_say_why),
	   UDRV_T(test_list_is_sorted_by_number),
	   UDRV_T(test_addresses_are_range_checked),
	   UDRV_T(test_a_kernel_drivers_address_needs_force),
	   UDRV_T(test_smbus_bytes_and_words),
	   UDRV_T(test_smbus_blocks),
	   UDRV_T(test_what_the_adapter_lacks_is_refused_before_sending),
	   UDRV_T(test_bus_errors_name_the_cause),
	   UDRV_T(test_transfer_with_a_repeated_start),
	   UDRV_T(test_transfer_refusals_send_nothing),
	   UDRV_T(test_retries_and_timeout),
	   UDRV_T(test_open_fd_takes_the_node_the_spec_names))
