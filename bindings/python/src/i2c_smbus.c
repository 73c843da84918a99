// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * I2C: the SMBus transactions of the set address (i2c.c's methods), each
 * one ioctl with the GIL released; their arguments checked before the
 * handle is taken.
 */
#include "i2c.h"

#include <errno.h>

/* An SMBus call of the set address: the handle taken, or -1 (none set:
 * ValueError, nothing sent) */
static int smbus_begin(struct udrvpy_i2c *self)
{
	if (i2c_begin(self) < 0)
		return -1;
	if (self->addr >= 0)
		return 0;
	i2c_end(self);
	PyErr_SetString(PyExc_ValueError,
			"no device address: set_address() (or I2C(bus, address)) first");
	return -1;
}

static int u8_arg(PyObject *o, const char *name, uint8_t *v)
{
	unsigned long long x;

	if (udrvpy_uint_arg(o, name, 0xff, &x) < 0)
		return -1;
	*v = (uint8_t)x;
	return 0;
}

static int u16_arg(PyObject *o, const char *name, uint16_t *v)
{
	unsigned long long x;

	if (udrvpy_uint_arg(o, name, 0xffff, &x) < 0)
		return -1;
	*v = (uint16_t)x;
	return 0;
}

/* An SMBus block to send: 1..32 bytes (ValueError otherwise) */
static int block_arg(PyObject *o, struct udrvpy_data *d)
{
	if (udrvpy_data_arg(o, "data", 0, d) < 0)
		return -1;
	if (d->view.len >= 1 && d->view.len <= UDRV_I2C_BLOCK_MAX)
		return 0;
	PyErr_Format(PyExc_ValueError, "data must be 1..%d bytes (an SMBus block), not %zd",
		     UDRV_I2C_BLOCK_MAX, d->view.len);
	udrvpy_data_release(d);
	return -1;
}

enum smbus_kind {
	QUICK_READ, QUICK_WRITE, READ_BYTE, WRITE_BYTE, READ_BYTE_DATA, WRITE_BYTE_DATA,
	READ_WORD_DATA, WRITE_WORD_DATA, PROCESS_CALL, READ_BLOCK, WRITE_BLOCK,
	BLOCK_PROCESS_CALL, READ_I2C_BLOCK, WRITE_I2C_BLOCK,
};

/* One SMBus transaction's operands and results */
struct smbus_call {
	enum smbus_kind kind;
	uint8_t reg, byte;
	uint16_t word;
	const uint8_t *out;		/* a block sent */
	size_t len;			/* its length, or the I2C block's to read */
	uint8_t in[UDRV_I2C_BLOCK_MAX];	/* a block read */
};

static int smbus_run(struct udrv_i2c *i2c, struct smbus_call *c)
{
	switch (c->kind) {
	case QUICK_READ:
		return udrv_i2c_smbus_quick(i2c, true);
	case QUICK_WRITE:
		return udrv_i2c_smbus_quick(i2c, false);
	case READ_BYTE:
		return udrv_i2c_smbus_read_byte(i2c, &c->byte);
	case WRITE_BYTE:
		return udrv_i2c_smbus_write_byte(i2c, c->byte);
	case READ_BYTE_DATA:
		return udrv_i2c_smbus_read_byte_data(i2c, c->reg, &c->byte);
	case WRITE_BYTE_DATA:
		return udrv_i2c_smbus_write_byte_data(i2c, c->reg, c->byte);
	case READ_WORD_DATA:
		return udrv_i2c_smbus_read_word_data(i2c, c->reg, &c->word);
	case WRITE_WORD_DATA:
		return udrv_i2c_smbus_write_word_data(i2c, c->reg, c->word);
	case PROCESS_CALL:
		return udrv_i2c_smbus_process_call(i2c, c->reg, c->word, &c->word);
	case READ_BLOCK:
		return udrv_i2c_smbus_read_block_data(i2c, c->reg, c->in);
	case WRITE_BLOCK:
		return udrv_i2c_smbus_write_block_data(i2c, c->reg, c->out, c->len);
	case BLOCK_PROCESS_CALL:
		return udrv_i2c_smbus_block_process_call(i2c, c->reg, c->out, c->len, c->in);
	case READ_I2C_BLOCK:
		return udrv_i2c_smbus_read_i2c_block_data(i2c, c->reg, c->in, c->len);
	case WRITE_I2C_BLOCK:
		return udrv_i2c_smbus_write_i2c_block_data(i2c, c->reg, c->out, c->len);
	}
	return -EINVAL;
}

/* Run @c on @o's device: the library's count (0 or a block's length), or
 * -1 with the exception */
static int smbus_call(PyObject *o, struct smbus_call *c)
{
	struct udrvpy_i2c *self = I2C(o);
	int ret;

	if (smbus_begin(self) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = smbus_run(self->i2c, c);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		i2c_fail(self, ret);
		return -1;
	}
	i2c_end(self);
	return ret;
}

static PyObject *none_or_null(int ret)
{
	if (ret < 0)
		return NULL;
	Py_RETURN_NONE;
}

PyObject *udrvpy_i2c_write_quick(PyObject *o, PyObject *unused)
{
	struct smbus_call c = { .kind = QUICK_WRITE };

	return none_or_null(smbus_call(o, &c));
}

PyObject *udrvpy_i2c_read_quick(PyObject *o, PyObject *unused)
{
	struct smbus_call c = { .kind = QUICK_READ };

	return none_or_null(smbus_call(o, &c));
}

PyObject *udrvpy_i2c_read_byte(PyObject *o, PyObject *unused)
{
	struct smbus_call c = { .kind = READ_BYTE };

	if (smbus_call(o, &c) < 0)
		return NULL;
	return PyLong_FromLong(c.byte);
}

PyObject *udrvpy_i2c_write_byte(PyObject *o, PyObject *value)
{
	struct smbus_call c = { .kind = WRITE_BYTE };

	if (u8_arg(value, "value", &c.byte) < 0)
		return NULL;
	return none_or_null(smbus_call(o, &c));
}

/* (register) or (register, value) of the METH_FASTCALL calls */
static int reg_args(const char *fn, PyObject *const *args, Py_ssize_t n, Py_ssize_t want,
		    uint8_t *reg)
{
	if (n != want) {
		PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", fn, want, n);
		return -1;
	}
	return u8_arg(args[0], "register", reg);
}

PyObject *udrvpy_i2c_read_byte_data(PyObject *o, PyObject *reg)
{
	struct smbus_call c = { .kind = READ_BYTE_DATA };

	if (u8_arg(reg, "register", &c.reg) < 0 || smbus_call(o, &c) < 0)
		return NULL;
	return PyLong_FromLong(c.byte);
}

PyObject *udrvpy_i2c_write_byte_data(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	struct smbus_call c = { .kind = WRITE_BYTE_DATA };

	if (reg_args("write_byte_data", args, n, 2, &c.reg) < 0 ||
	    u8_arg(args[1], "value", &c.byte) < 0)
		return NULL;
	return none_or_null(smbus_call(o, &c));
}

PyObject *udrvpy_i2c_read_word_data(PyObject *o, PyObject *reg)
{
	struct smbus_call c = { .kind = READ_WORD_DATA };

	if (u8_arg(reg, "register", &c.reg) < 0 || smbus_call(o, &c) < 0)
		return NULL;
	return PyLong_FromLong(c.word);
}

static PyObject *word_call(PyObject *o, const char *fn, enum smbus_kind kind,
			   PyObject *const *args, Py_ssize_t n)
{
	struct smbus_call c = { .kind = kind };

	if (reg_args(fn, args, n, 2, &c.reg) < 0 || u16_arg(args[1], "value", &c.word) < 0 ||
	    smbus_call(o, &c) < 0)
		return NULL;
	if (kind == WRITE_WORD_DATA)
		Py_RETURN_NONE;
	return PyLong_FromLong(c.word);
}

PyObject *udrvpy_i2c_write_word_data(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	return word_call(o, "write_word_data", WRITE_WORD_DATA, args, n);
}

PyObject *udrvpy_i2c_process_call(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	return word_call(o, "process_call", PROCESS_CALL, args, n);
}

PyObject *udrvpy_i2c_read_block_data(PyObject *o, PyObject *reg)
{
	struct smbus_call c = { .kind = READ_BLOCK };
	int ret;

	if (u8_arg(reg, "register", &c.reg) < 0)
		return NULL;
	ret = smbus_call(o, &c);
	if (ret < 0)
		return NULL;
	return PyBytes_FromStringAndSize((const char *)c.in, ret);
}

/* (register, data): a block sent; what came back for a block process call */
static PyObject *block_call(PyObject *o, const char *fn, enum smbus_kind kind,
			    PyObject *const *args, Py_ssize_t n)
{
	struct smbus_call c = { .kind = kind };
	struct udrvpy_data data;
	int ret;

	if (reg_args(fn, args, n, 2, &c.reg) < 0 || block_arg(args[1], &data) < 0)
		return NULL;
	c.out = data.view.buf;
	c.len = (size_t)data.view.len;
	ret = smbus_call(o, &c);
	udrvpy_data_release(&data);
	if (ret < 0)
		return NULL;
	if (kind != BLOCK_PROCESS_CALL)
		Py_RETURN_NONE;
	return PyBytes_FromStringAndSize((const char *)c.in, ret);
}

PyObject *udrvpy_i2c_write_block_data(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	return block_call(o, "write_block_data", WRITE_BLOCK, args, n);
}

PyObject *udrvpy_i2c_block_process_call(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	return block_call(o, "block_process_call", BLOCK_PROCESS_CALL, args, n);
}

PyObject *udrvpy_i2c_write_i2c_block_data(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	return block_call(o, "write_i2c_block_data", WRITE_I2C_BLOCK, args, n);
}

PyObject *udrvpy_i2c_read_i2c_block_data(PyObject *o, PyObject *const *args, Py_ssize_t n)
{
	struct smbus_call c = { .kind = READ_I2C_BLOCK };
	unsigned long long len;
	int ret;

	if (reg_args("read_i2c_block_data", args, n, 2, &c.reg) < 0)
		return NULL;
	if (udrvpy_uint_arg(args[1], "length", UDRV_I2C_BLOCK_MAX, &len) < 0)
		return NULL;
	if (len == 0) {
		PyErr_Format(PyExc_ValueError, "length must be 1..%d, not 0", UDRV_I2C_BLOCK_MAX);
		return NULL;
	}
	c.len = (size_t)len;
	ret = smbus_call(o, &c);
	if (ret < 0)
		return NULL;
	return PyBytes_FromStringAndSize((const char *)c.in, ret);
}
