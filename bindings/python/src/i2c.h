/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The I2C object, shared by i2c.c (the bus, its settings, the type),
 * i2c_smbus.c (the SMBus transactions) and i2c_rdwr.c (plain I2C
 * transfers: I2C_RDWR).
 */
#ifndef UDRVPY_I2C_H
#define UDRVPY_I2C_H

#include "udrv_py.h"

struct udrvpy_i2c {
	PyObject_HEAD
	struct udrv_i2c *i2c;		/* NULL once closed */
	struct udrvpy_busy busy;	/* held by the thread using i2c */
	long addr;			/* -1: none set */
	unsigned int addr_flags;	/* UDRV_I2C_TEN, UDRV_I2C_FORCE */
	long retries;			/* -1: the adapter's, never set */
	long timeout_ms;		/* -1: the adapter's, never set */
	bool pec;
};

#define I2C(o)	((struct udrvpy_i2c *)(o))

/* Take the handle for a call: 0, or -1 (closed: ValueError). */
static inline int i2c_begin(struct udrvpy_i2c *self)
{
	udrvpy_hold(&self->busy);
	return udrvpy_taken(&self->busy, self->i2c, "I2C bus");
}

static inline void i2c_end(struct udrvpy_i2c *self)
{
	udrvpy_give(&self->busy);
}

/* The library's failure @ret as udrv.Error, the handle given back: NULL */
static inline PyObject *i2c_fail(struct udrvpy_i2c *self, int ret)
{
	udrvpy_raise(ret, udrv_i2c_errmsg(self->i2c));
	i2c_end(self);
	return NULL;
}


/* i2c_smbus.c: the SMBus methods */
PyObject *udrvpy_i2c_write_quick(PyObject *o, PyObject *unused);
PyObject *udrvpy_i2c_read_quick(PyObject *o, PyObject *unused);
PyObject *udrvpy_i2c_read_byte(PyObject *o, PyObject *unused);
PyObject *udrvpy_i2c_write_byte(PyObject *o, PyObject *value);
PyObject *udrvpy_i2c_read_byte_data(PyObject *o, PyObject *reg);
PyObject *udrvpy_i2c_write_byte_data(PyObject *o, PyObject *const *args, Py_ssize_t n);
PyObject *udrvpy_i2c_read_word_data(PyObject *o, PyObject *reg);
PyObject *udrvpy_i2c_write_word_data(PyObject *o, PyObject *const *args, Py_ssize_t n);
PyObject *udrvpy_i2c_process_call(PyObject *o, PyObject *const *args, Py_ssize_t n);
PyObject *udrvpy_i2c_read_block_data(PyObject *o, PyObject *reg);
PyObject *udrvpy_i2c_write_block_data(PyObject *o, PyObject *const *args, Py_ssize_t n);
PyObject *udrvpy_i2c_block_process_call(PyObject *o, PyObject *const *args, Py_ssize_t n);
PyObject *udrvpy_i2c_read_i2c_block_data(PyObject *o, PyObject *const *args, Py_ssize_t n);
PyObject *udrvpy_i2c_write_i2c_block_data(PyObject *o, PyObject *const *args, Py_ssize_t n);

/* i2c_rdwr.c: _transfer() and the one-message read(), readinto(), write() */
PyObject *udrvpy_i2c_transfer(PyObject *o, PyObject *msgs);
PyObject *udrvpy_i2c_read(PyObject *o, PyObject *arg);
PyObject *udrvpy_i2c_readinto(PyObject *o, PyObject *buf);
PyObject *udrvpy_i2c_write(PyObject *o, PyObject *data);

#endif /* UDRVPY_I2C_H */
