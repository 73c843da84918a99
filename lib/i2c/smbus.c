// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The SMBus transactions (I2C_SMBUS) with the handle's address, each
 * checked against the adapter's functionality first; PEC. Where the
 * adapter is plain I2C, i2c-core emulates them (its functionality says
 * so).
 */
#include <errno.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <string.h>
#include <sys/ioctl.h>

#include "i2c/i2c_priv.h"

/* One SMBus transaction: what it is (for the messages), its direction,
 * size and the functionality it needs. */
struct smbus_op {
	const char *what;
	const char *flag;
	uint64_t func;
	char read_write;
	int size;
};

#define OP(w, f, rw, sz) { w, #f, f, rw, sz }

static const struct smbus_op quick_read = OP("an SMBus quick read", I2C_FUNC_SMBUS_QUICK,
					     I2C_SMBUS_READ, I2C_SMBUS_QUICK);
static const struct smbus_op quick_write = OP("an SMBus quick write", I2C_FUNC_SMBUS_QUICK,
					      I2C_SMBUS_WRITE, I2C_SMBUS_QUICK);
static const struct smbus_op read_byte = OP("SMBus read byte", I2C_FUNC_SMBUS_READ_BYTE,
					    I2C_SMBUS_READ, I2C_SMBUS_BYTE);
static const struct smbus_op write_byte = OP("SMBus write byte", I2C_FUNC_SMBUS_WRITE_BYTE,
					     I2C_SMBUS_WRITE, I2C_SMBUS_BYTE);
static const struct smbus_op read_byte_data = OP("SMBus read byte data",
						 I2C_FUNC_SMBUS_READ_BYTE_DATA,
						 I2C_SMBUS_READ, I2C_SMBUS_BYTE_DATA);
static const struct smbus_op write_byte_data = OP("SMBus write byte data",
						  I2C_FUNC_SMBUS_WRITE_BYTE_DATA,
						  I2C_SMBUS_WRITE, I2C_SMBUS_BYTE_DATA);
static const struct smbus_op read_word_data = OP("SMBus read word data",
						 I2C_FUNC_SMBUS_READ_WORD_DATA,
						 I2C_SMBUS_READ, I2C_SMBUS_WORD_DATA);
static const struct smbus_op write_word_data = OP("SMBus write word data",
						  I2C_FUNC_SMBUS_WRITE_WORD_DATA,
						  I2C_SMBUS_WRITE, I2C_SMBUS_WORD_DATA);
static const struct smbus_op proc_call = OP("an SMBus process call", I2C_FUNC_SMBUS_PROC_CALL,
					    I2C_SMBUS_WRITE, I2C_SMBUS_PROC_CALL);
static const struct smbus_op read_block = OP("SMBus read block data",
					     I2C_FUNC_SMBUS_READ_BLOCK_DATA,
					     I2C_SMBUS_READ, I2C_SMBUS_BLOCK_DATA);
static const struct smbus_op write_block = OP("SMBus write block data",
					      I2C_FUNC_SMBUS_WRITE_BLOCK_DATA,
					      I2C_SMBUS_WRITE, I2C_SMBUS_BLOCK_DATA);
static const struct smbus_op block_proc_call = OP("an SMBus block process call",
						  I2C_FUNC_SMBUS_BLOCK_PROC_CALL,
						  I2C_SMBUS_WRITE, I2C_SMBUS_BLOCK_PROC_CALL);
static const struct smbus_op read_i2c_block = OP("I2C block read",
						 I2C_FUNC_SMBUS_READ_I2C_BLOCK,
						 I2C_SMBUS_READ, I2C_SMBUS_I2C_BLOCK_DATA);
/* A whole block (32 bytes) read as i2c-dev's first I2C block size, which it
 * turns into I2C_SMBUS_I2C_BLOCK_DATA of 32 bytes without copying the
 * caller's block in first (i2c-tools' libi2c reads 32 bytes so): on 6.1
 * with i2c-stub, 1389 instructions a read against 1460 (udrv-bench i2c) */
static const struct smbus_op read_i2c_block_max = OP("I2C block read",
						     I2C_FUNC_SMBUS_READ_I2C_BLOCK,
						     I2C_SMBUS_READ, I2C_SMBUS_I2C_BLOCK_BROKEN);
static const struct smbus_op write_i2c_block = OP("I2C block write",
						  I2C_FUNC_SMBUS_WRITE_I2C_BLOCK,
						  I2C_SMBUS_WRITE, I2C_SMBUS_I2C_BLOCK_DATA);

/* Why @op cannot go: no bus, no address, or the adapter lacks it. Out of
 * line, so that the path of a transaction that goes is the checks and the
 * ioctl (udrv-bench i2c measures it against the bare ioctl). */
__attribute__((noinline, cold))
static int smbus_refused(struct udrv_i2c *i2c, const struct smbus_op *op)
{
	if (i2c->fd < 0)
		return udrv_err(i2c->errmsg, EBADF, "no I2C bus open: udrv_i2c_open() first");
	if (!i2c->has_addr)
		return udrv_err(i2c->errmsg, EDESTADDRREQ,
				"%s: no device address: udrv_i2c_set_address() first", i2c->dev);
	return udrv_i2c_need(i2c, op->func, op->what, op->flag);
}

__attribute__((noinline, cold))
static int smbus_failed(struct udrv_i2c *i2c, const struct smbus_op *op, int err)
{
	return udrv_i2c_io_err(i2c, err, i2c->addr, op->what);
}

static inline int smbus(struct udrv_i2c *i2c, const struct smbus_op *op, uint8_t command,
			union i2c_smbus_data *data)
{
	struct i2c_smbus_ioctl_data args = {
		.read_write = op->read_write, .command = command, .size = (__u32)op->size,
		.data = data,
	};

	if ((i2c->ready & op->func) != op->func)	/* open, addressed, the adapter has it */
		return smbus_refused(i2c, op);
	if (ioctl(i2c->fd, I2C_SMBUS, &args) < 0)
		return smbus_failed(i2c, op, errno);
	return 0;
}

/* A block's length: 1..UDRV_I2C_BLOCK_MAX bytes, with a buffer. */
static int block_len(struct udrv_i2c *i2c, const struct smbus_op *op, const uint8_t *buf,
		     size_t len)
{
	if (len >= 1 && len <= UDRV_I2C_BLOCK_MAX && buf)
		return 0;
	return udrv_err(i2c->errmsg, EINVAL, "%s: %s of %zu bytes%s: 1..%d bytes", i2c->dev,
			op->what, len, buf ? "" : " without a buffer", UDRV_I2C_BLOCK_MAX);
}

/* The block the device sent back: its length byte, checked. */
static int block_reply(struct udrv_i2c *i2c, const struct smbus_op *op,
		       const union i2c_smbus_data *data, uint8_t *out)
{
	unsigned int n = data->block[0];

	if (n > UDRV_I2C_BLOCK_MAX)
		return udrv_err(i2c->errmsg, EPROTO,
				"%s: %s: the device at 0x%02x said %u bytes follow, more than a block's %d",
				i2c->dev, op->what, i2c->addr, n, UDRV_I2C_BLOCK_MAX);
	memcpy(out, &data->block[1], n);
	return (int)n;
}

/*
 * A read of a byte or a word lands in the caller's variable: i2c-dev
 * copies into the union only the transaction's size (1 byte for BYTE and
 * BYTE_DATA, 2 for WORD_DATA, native order), and nothing when it fails.
 */
static inline union i2c_smbus_data *into(void *value)
{
	return value;
}

int udrv_i2c_smbus_quick(struct udrv_i2c *i2c, bool read)
{
	return smbus(i2c, read ? &quick_read : &quick_write, 0, NULL);
}

int udrv_i2c_smbus_read_byte(struct udrv_i2c *i2c, uint8_t *value)
{
	return smbus(i2c, &read_byte, 0, into(value));
}

int udrv_i2c_smbus_write_byte(struct udrv_i2c *i2c, uint8_t value)
{
	return smbus(i2c, &write_byte, value, NULL);
}

int udrv_i2c_smbus_read_byte_data(struct udrv_i2c *i2c, uint8_t reg, uint8_t *value)
{
	return smbus(i2c, &read_byte_data, reg, into(value));
}

int udrv_i2c_smbus_write_byte_data(struct udrv_i2c *i2c, uint8_t reg, uint8_t value)
{
	union i2c_smbus_data data = { .byte = value };

	return smbus(i2c, &write_byte_data, reg, &data);
}

int udrv_i2c_smbus_read_word_data(struct udrv_i2c *i2c, uint8_t reg, uint16_t *value)
{
	return smbus(i2c, &read_word_data, reg, into(value));
}

int udrv_i2c_smbus_write_word_data(struct udrv_i2c *i2c, uint8_t reg, uint16_t value)
{
	union i2c_smbus_data data = { .word = value };

	return smbus(i2c, &write_word_data, reg, &data);
}

int udrv_i2c_smbus_process_call(struct udrv_i2c *i2c, uint8_t reg, uint16_t value,
				uint16_t *reply)
{
	union i2c_smbus_data data = { .word = value };
	int err = smbus(i2c, &proc_call, reg, &data);

	if (!err)
		*reply = data.word;
	return err;
}

int udrv_i2c_smbus_read_block_data(struct udrv_i2c *i2c, uint8_t reg,
				   uint8_t buf[UDRV_I2C_BLOCK_MAX])
{
	union i2c_smbus_data data = { 0 };
	int err = smbus(i2c, &read_block, reg, &data);

	return err ? err : block_reply(i2c, &read_block, &data, buf);
}

int udrv_i2c_smbus_write_block_data(struct udrv_i2c *i2c, uint8_t reg,
				    const uint8_t *buf, size_t len)
{
	union i2c_smbus_data data;
	int err = block_len(i2c, &write_block, buf, len);

	if (err)
		return err;
	data.block[0] = (uint8_t)len;
	memcpy(&data.block[1], buf, len);
	return smbus(i2c, &write_block, reg, &data);
}

int udrv_i2c_smbus_block_process_call(struct udrv_i2c *i2c, uint8_t reg,
				      const uint8_t *buf, size_t len,
				      uint8_t reply[UDRV_I2C_BLOCK_MAX])
{
	union i2c_smbus_data data;
	int err = block_len(i2c, &block_proc_call, buf, len);

	if (err)
		return err;
	data.block[0] = (uint8_t)len;
	memcpy(&data.block[1], buf, len);
	err = smbus(i2c, &block_proc_call, reg, &data);
	return err ? err : block_reply(i2c, &block_proc_call, &data, reply);
}

int udrv_i2c_smbus_read_i2c_block_data(struct udrv_i2c *i2c, uint8_t reg,
				       uint8_t *buf, size_t len)
{
	union i2c_smbus_data data;
	int err = block_len(i2c, &read_i2c_block, buf, len);

	if (err)
		return err;
	data.block[0] = (uint8_t)len;	/* how many the kernel reads */
	err = smbus(i2c, len == I2C_SMBUS_BLOCK_MAX ? &read_i2c_block_max : &read_i2c_block, reg,
		    &data);
	if (err)
		return err;
	if (data.block[0] != len)
		return udrv_err(i2c->errmsg, EPROTO, "%s: %s: %u bytes of %zu read",
				i2c->dev, read_i2c_block.what, data.block[0], len);
	memcpy(buf, &data.block[1], len);
	return (int)len;
}

int udrv_i2c_smbus_write_i2c_block_data(struct udrv_i2c *i2c, uint8_t reg,
					const uint8_t *buf, size_t len)
{
	union i2c_smbus_data data;
	int err = block_len(i2c, &write_i2c_block, buf, len);

	if (err)
		return err;
	data.block[0] = (uint8_t)len;
	memcpy(&data.block[1], buf, len);
	return smbus(i2c, &write_i2c_block, reg, &data);
}

int udrv_i2c_set_pec(struct udrv_i2c *i2c, bool on)
{
	int err;

	if (i2c->fd < 0)
		return udrv_err(i2c->errmsg, EBADF, "no I2C bus open: udrv_i2c_open() first");
	err = on ? udrv_i2c_need(i2c, I2C_FUNC_SMBUS_PEC, "SMBus PEC", "I2C_FUNC_SMBUS_PEC") : 0;
	if (err)
		return err;
	if (ioctl(i2c->fd, I2C_PEC, (unsigned long)on) < 0)
		return udrv_err(i2c->errmsg, errno, "%s: turning PEC %s (I2C_PEC): %s", i2c->dev,
				on ? "on" : "off", strerror(errno));
	return 0;
}
