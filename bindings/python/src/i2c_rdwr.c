// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * I2C: plain I2C transfers (i2c.c's methods): several messages in one
 * I2C_RDWR, their buffers the callers' objects (no copies), and the
 * one-message read(), readinto() and write() of the set address.
 */
#include "i2c.h"

#include <string.h>

/* One message: its buffer held until the transfer is over */
struct msg_arg {
	struct udrv_i2c_msg msg;
	Py_buffer view;
	bool held;
};

static void msgs_release(struct msg_arg *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].held)
			PyBuffer_Release(&m[i].view);
}

/* (addr, flags, buffer): addr None is the set address, @buffer is written
 * into when flags has UDRV_I2C_M_RD */
static int msg_parse(struct udrvpy_i2c *self, PyObject *t, size_t i, struct msg_arg *m)
{
	PyObject *addr_o, *flags_o, *buf;
	unsigned long long flags, addr;
	unsigned int valid = UDRV_I2C_M_RD | UDRV_I2C_M_TEN | UDRV_I2C_M_NOSTART |
			     UDRV_I2C_M_IGNORE_NAK | UDRV_I2C_M_STOP;
	char name[32];

	if (!PyTuple_Check(t) || !PyArg_ParseTuple(t, "OOO", &addr_o, &flags_o, &buf)) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "_transfer: (addr, flags, buffer) tuples");
		return -1;
	}
	if (udrvpy_uint_arg(flags_o, "flags", valid, &flags) < 0)
		return -1;
	if (flags & ~(unsigned long long)valid) {
		PyErr_Format(PyExc_ValueError, "message %zu: unknown flags 0x%llx", i,
			     flags & ~(unsigned long long)valid);
		return -1;
	}
	if (addr_o == Py_None) {
		if (self->addr < 0) {
			PyErr_Format(PyExc_ValueError,
				     "message %zu has no address and the bus has none set: set_address() first",
				     i);
			return -1;
		}
		addr = (unsigned long long)self->addr;
		if (self->addr_flags & UDRV_I2C_TEN)
			flags |= UDRV_I2C_M_TEN;
	} else if (udrvpy_uint_arg(addr_o, "address", flags & UDRV_I2C_M_TEN ? 0x3ff : 0x7f,
				   &addr) < 0) {
		return -1;
	}
	snprintf(name, sizeof(name), "message %zu's data", i);
	if ((flags & UDRV_I2C_M_RD ? udrvpy_into_arg(buf, name, &m->view) :
				     udrvpy_data_arg(buf, name, &m->view)) < 0)
		return -1;
	m->held = true;
	if (m->view.len < 1 || m->view.len > UDRV_I2C_MSG_LEN_MAX) {
		PyErr_Format(PyExc_ValueError, "message %zu: 1..%d bytes, not %zd", i,
			     UDRV_I2C_MSG_LEN_MAX, m->view.len);
		return -1;
	}
	m->msg = (struct udrv_i2c_msg){ .addr = (uint16_t)addr, .flags = (uint16_t)flags,
					.len = (uint16_t)m->view.len, .buf = m->view.buf };
	return 0;
}

/* _transfer(msgs: tuple of (addr | None, flags, buffer)) -> None */
PyObject *udrvpy_i2c_transfer(PyObject *o, PyObject *msgs)
{
	struct udrvpy_i2c *self = I2C(o);
	struct msg_arg m[UDRV_I2C_MSGS_MAX];
	struct udrv_i2c_msg km[UDRV_I2C_MSGS_MAX];
	Py_ssize_t n;
	int ret;

	if (!PyTuple_Check(msgs)) {
		PyErr_SetString(PyExc_TypeError, "_transfer: a tuple of messages");
		return NULL;
	}
	n = PyTuple_GET_SIZE(msgs);
	if (n < 1 || n > UDRV_I2C_MSGS_MAX) {
		PyErr_Format(PyExc_ValueError, "a transfer is 1..%d messages, not %zd",
			     UDRV_I2C_MSGS_MAX, n);
		return NULL;
	}
	/* before the handle is taken: a buffer's exporter may run Python code */
	memset(m, 0, sizeof(m));
	for (Py_ssize_t i = 0; i < n; i++) {
		if (msg_parse(self, PyTuple_GET_ITEM(msgs, i), (size_t)i, &m[i]) < 0) {
			msgs_release(m, (size_t)n);
			return NULL;
		}
		km[i] = m[i].msg;
	}
	if (i2c_begin(self) < 0) {
		msgs_release(m, (size_t)n);
		return NULL;
	}
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_i2c_transfer(self->i2c, km, (size_t)n);
	Py_END_ALLOW_THREADS
	msgs_release(m, (size_t)n);
	if (ret < 0)
		return i2c_fail(self, ret);
	i2c_end(self);
	Py_RETURN_NONE;
}

/* read(length) -> bytes: one message from the set address */
PyObject *udrvpy_i2c_read(PyObject *o, PyObject *arg)
{
	unsigned long long len;
	PyObject *buf, *msgs, *res;

	if (udrvpy_uint_arg(arg, "length", UDRV_I2C_MSG_LEN_MAX, &len) < 0)
		return NULL;
	if (len == 0) {
		PyErr_Format(PyExc_ValueError, "length must be 1..%d, not 0", UDRV_I2C_MSG_LEN_MAX);
		return NULL;
	}
	buf = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)len);
	msgs = buf ? Py_BuildValue("((OiO))", Py_None, UDRV_I2C_M_RD, buf) : NULL;
	res = msgs ? udrvpy_i2c_transfer(o, msgs) : NULL;
	Py_XDECREF(msgs);
	if (res) {
		Py_DECREF(res);
		res = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(buf), (Py_ssize_t)len);
	}
	Py_XDECREF(buf);
	return res;
}

/* readinto(buffer) / write(data): one message of the set address */
static PyObject *one_message(PyObject *o, PyObject *buf, int flags)
{
	PyObject *msgs = Py_BuildValue("((OiO))", Py_None, flags, buf);
	PyObject *res = msgs ? udrvpy_i2c_transfer(o, msgs) : NULL;

	Py_XDECREF(msgs);
	return res;
}

PyObject *udrvpy_i2c_readinto(PyObject *o, PyObject *buf)
{
	PyObject *res = one_message(o, buf, UDRV_I2C_M_RD);
	Py_buffer view;
	Py_ssize_t len;

	if (!res)
		return NULL;
	Py_DECREF(res);
	if (PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE) < 0)
		return NULL;
	len = view.len;
	PyBuffer_Release(&view);
	return PyLong_FromSsize_t(len);
}

PyObject *udrvpy_i2c_write(PyObject *o, PyObject *data)
{
	return one_message(o, data, 0);
}
