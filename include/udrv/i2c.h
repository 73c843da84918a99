/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * I2C and SMBus through the kernel's i2c-dev (/dev/i2c-N): a bus by number,
 * node or adapter name; what the adapter can do (its functionality, checked
 * before each call that needs it); plain I2C transfers (several messages in
 * one transaction, repeated start, 10-bit addresses) and every SMBus
 * transaction, with PEC.
 *
 * A device the kernel drives already (a client with a driver bound) is not
 * talked to unless asked for with UDRV_I2C_FORCE: the message names the
 * driver and how to unbind it.
 *
 * Calls return 0 (or a count) or a negative errno and leave a message on
 * the handle (udrv_i2c_errmsg()) that says what failed and what to do.
 */
#ifndef UDRV_I2C_H
#define UDRV_I2C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_i2c;

/* udrv_i2c_set_address()'s flags */
#define UDRV_I2C_TEN		0x1	/* a 10-bit address (0..0x3ff) */
#define UDRV_I2C_FORCE		0x2	/* also an address a kernel driver uses,
					 * and the reserved 7-bit ones (0-2, 0x78-0x7f) */

/* A message of udrv_i2c_transfer(): the kernel's struct i2c_msg flags */
#define UDRV_I2C_M_RD		0x0001	/* read @len bytes into @buf */
#define UDRV_I2C_M_TEN		0x0010	/* @addr is 10-bit */
#define UDRV_I2C_M_NOSTART	0x4000	/* no repeated start before it */
#define UDRV_I2C_M_IGNORE_NAK	0x1000
#define UDRV_I2C_M_STOP		0x8000	/* a stop after it */

/* the kernel's limits of one I2C_RDWR */
#define UDRV_I2C_MSGS_MAX	42
#define UDRV_I2C_MSG_LEN_MAX	8192
/* bytes of an SMBus block */
#define UDRV_I2C_BLOCK_MAX	32

struct udrv_i2c_msg {
	uint16_t addr;
	uint16_t flags;		/* UDRV_I2C_M_* */
	uint16_t len;
	uint8_t *buf;
};

struct udrv_i2c *udrv_i2c_new(void);
/*
 * @spec: the bus number ("1"), its node's name ("i2c-1", "/dev/i2c-1") or
 * the adapter's name as /sys/class/i2c-adapter/i2c-N/name says it
 * ("SMBus I801 adapter at f040"; one adapter only may have it). Reads the
 * adapter's functionality. -ENOENT no such bus (or i2c-dev not loaded: the
 * message says which), -EACCES the node's owner, group and the fix.
 */
int udrv_i2c_open(struct udrv_i2c *i2c, const char *spec);
/*
 * The same for a node someone else opened: a broker such as udrvd
 * (io.udrv1.Devices.OpenI2cBus, a whole bus), or a parent that passed it
 * on. Checks that @fd is the node of the bus @spec names and reads its
 * functionality. On success the handle owns @fd (udrv_i2c_close() closes
 * it); on an error it stays the caller's: -EBADF @fd is not open, -EINVAL
 * it is another file, and udrv_i2c_open()'s errors for @spec. Since 1.8.
 */
int udrv_i2c_open_fd(struct udrv_i2c *i2c, const char *spec, int fd);
void udrv_i2c_close(struct udrv_i2c *i2c);
void udrv_i2c_free(struct udrv_i2c *i2c);
const char *udrv_i2c_errmsg(const struct udrv_i2c *i2c);

unsigned int udrv_i2c_bus(const struct udrv_i2c *i2c);	/* N of i2c-N */
const char *udrv_i2c_name(const struct udrv_i2c *i2c);	/* the adapter's */
int udrv_i2c_fd(const struct udrv_i2c *i2c);
/* The adapter's functionality: the kernel's I2C_FUNC_* bits (<linux/i2c.h>). */
uint64_t udrv_i2c_funcs(const struct udrv_i2c *i2c);

/*
 * The device the next transactions talk to. A 7-bit address is 0x03..0x77
 * (0..0x7f with UDRV_I2C_FORCE); a 10-bit one (UDRV_I2C_TEN) 0..0x3ff,
 * where the adapter can. -EBUSY: a kernel driver uses it (named, with the
 * fix), unless UDRV_I2C_FORCE; -ERANGE, -EINVAL (unknown flags),
 * -EOPNOTSUPP (10-bit on an adapter without it).
 */
int udrv_i2c_set_address(struct udrv_i2c *i2c, unsigned int addr, unsigned int flags);
/* How often the adapter tries a device that does not answer, and how long
 * it waits for the bus (in steps of 10 ms, 10..600000 ms). */
int udrv_i2c_set_retries(struct udrv_i2c *i2c, unsigned int retries);
int udrv_i2c_set_timeout_ms(struct udrv_i2c *i2c, unsigned int ms);

/*
 * @n messages (1..UDRV_I2C_MSGS_MAX, each at most UDRV_I2C_MSG_LEN_MAX bytes)
 * in one transaction: a repeated start between them, one stop at the end.
 * Each names its own address; one a kernel driver uses is refused
 * (-EBUSY), checked at each call, but the address set with
 * udrv_i2c_set_address(), which was checked (or forced) there. Needs
 * I2C_FUNC_I2C. Returns @n, or a negative errno: -ENXIO when a device did
 * not answer (no ACK), -ETIMEDOUT, -EOPNOTSUPP (a flag the adapter lacks).
 */
int udrv_i2c_transfer(struct udrv_i2c *i2c, struct udrv_i2c_msg *msgs, size_t n);

/* SMBus transactions with the set address, each checked against the
 * adapter's functionality first (-EOPNOTSUPP names what it lacks). */
int udrv_i2c_smbus_quick(struct udrv_i2c *i2c, bool read);
int udrv_i2c_smbus_read_byte(struct udrv_i2c *i2c, uint8_t *value);
int udrv_i2c_smbus_write_byte(struct udrv_i2c *i2c, uint8_t value);
int udrv_i2c_smbus_read_byte_data(struct udrv_i2c *i2c, uint8_t reg, uint8_t *value);
int udrv_i2c_smbus_write_byte_data(struct udrv_i2c *i2c, uint8_t reg, uint8_t value);
int udrv_i2c_smbus_read_word_data(struct udrv_i2c *i2c, uint8_t reg, uint16_t *value);
int udrv_i2c_smbus_write_word_data(struct udrv_i2c *i2c, uint8_t reg, uint16_t value);
int udrv_i2c_smbus_process_call(struct udrv_i2c *i2c, uint8_t reg, uint16_t value,
				uint16_t *reply);
/* An SMBus block (its length byte first on the wire): the number of bytes
 * read into @buf (UDRV_I2C_BLOCK_MAX of room), or a negative errno. */
int udrv_i2c_smbus_read_block_data(struct udrv_i2c *i2c, uint8_t reg,
				   uint8_t buf[UDRV_I2C_BLOCK_MAX]);
int udrv_i2c_smbus_write_block_data(struct udrv_i2c *i2c, uint8_t reg,
				    const uint8_t *buf, size_t len);
int udrv_i2c_smbus_block_process_call(struct udrv_i2c *i2c, uint8_t reg,
				      const uint8_t *buf, size_t len,
				      uint8_t reply[UDRV_I2C_BLOCK_MAX]);
/* An I2C block (no length byte: @len, 1..UDRV_I2C_BLOCK_MAX, bytes from
 * register @reg on). */
int udrv_i2c_smbus_read_i2c_block_data(struct udrv_i2c *i2c, uint8_t reg,
				       uint8_t *buf, size_t len);
int udrv_i2c_smbus_write_i2c_block_data(struct udrv_i2c *i2c, uint8_t reg,
					const uint8_t *buf, size_t len);
/* SMBus Packet Error Checking on the next transactions (where the adapter
 * has I2C_FUNC_SMBUS_PEC). */
int udrv_i2c_set_pec(struct udrv_i2c *i2c, bool on);

/* The I2C buses there are ("i2c-0", ...), sorted by number; see
 * udrv_chip_list(). */
int udrv_i2c_list(char ***names);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_I2C_H */
