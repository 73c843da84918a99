// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * I2C: plain I2C transfers (i2c.c's methods): several messages in one
 * I2C_RDWR, their buffers the callers' objects (no copies), and the
 * one-message read(), readinto() and write() of the set address.
 */
#include "i2c.h"

/* One message: its bytes held until the transfer is over */
struct msg_arg {
	struct udrv_i2c_msg msg;
	struct udrvpy_data data;	/* a read's buffer in data.view */
	bool held;
};

static void msgs_release(struct msg_arg *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].held)
			udrvpy_data_release(&m[i].data);
}

/* Message @i's address (@addr_o None: the set one) and its @flags, known
 * ones: into @msg */
static int msg_head(struct udrvpy_i2c *self, PyObject *addr_o, unsigned long long flags,
		    size_t i, struct udrv_i2c_msg *msg)
{
	unsigned long long addr;

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
	msg->addr = (uint16_t)addr;
	msg->flags = (uint16_t)flags;
	return 0;
}

/* Message @i's buffer @buf, written into when its flags have
 * UDRV_I2C_M_RD: held in @m (given back on an error) */
static int msg_data(PyObject *buf, size_t i, struct msg_arg *m)
{
	const char *name = "message %zu's data";

	if ((m->msg.flags & UDRV_I2C_M_RD ? udrvpy_into_arg(buf, name, i, &m->data.view) :
					   udrvpy_data_arg(buf, name, i, &m->data)) < 0)
		return -1;
	m->held = true;
	if (m->data.view.len < 1 || m->data.view.len > UDRV_I2C_MSG_LEN_MAX) {
		PyErr_Format(PyExc_ValueError, "message %zu: 1..%d bytes, not %zd", i,
			     UDRV_I2C_MSG_LEN_MAX, m->data.view.len);
		msgs_release(m, 1);
		m->held = false;
		return -1;
	}
	m->msg.len = (uint16_t)m->data.view.len;
	m->msg.buf = m->data.view.buf;
	return 0;
}

/* (addr, flags, buffer): addr None is the set address, @buffer is written
 * into when flags has UDRV_I2C_M_RD */
static int msg_parse(struct udrvpy_i2c *self, PyObject *t, size_t i, struct msg_arg *m)
{
	PyObject *addr_o, *flags_o, *buf;
	unsigned long long flags;
	unsigned int valid = UDRV_I2C_M_RD | UDRV_I2C_M_TEN | UDRV_I2C_M_NOSTART |
			     UDRV_I2C_M_IGNORE_NAK | UDRV_I2C_M_STOP;

	if (PyTuple_CheckExact(t) && PyTuple_GET_SIZE(t) == 3) {
		addr_o = PyTuple_GET_ITEM(t, 0);
		flags_o = PyTuple_GET_ITEM(t, 1);
		buf = PyTuple_GET_ITEM(t, 2);
	} else if (!PyTuple_Check(t) || !PyArg_ParseTuple(t, "OOO", &addr_o, &flags_o, &buf)) {
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
	if (msg_head(self, addr_o, flags, i, &m->msg) < 0)
		return -1;
	return msg_data(buf, i, m);
}

/* The messages @km[@n] in one I2C_RDWR, the buffers @m[@n] hold (@m NULL:
 * none) given back after it: 0, or -1 with the exception */
static int run_msgs(struct udrvpy_i2c *self, struct udrv_i2c_msg *km, struct msg_arg *m,
		    size_t n)
{
	int ret;

	if (i2c_begin(self) < 0) {
		msgs_release(m, m ? n : 0);
		return -1;
	}
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_i2c_transfer(self->i2c, km, n);
	Py_END_ALLOW_THREADS
	msgs_release(m, m ? n : 0);
	if (ret < 0) {
		i2c_fail(self, ret);
		return -1;
	}
	i2c_end(self);
	return 0;
}

/* _transfer(msgs: tuple of (addr | None, flags, buffer)) -> None */
PyObject *udrvpy_i2c_transfer(PyObject *o, PyObject *msgs)
{
	struct udrvpy_i2c *self = I2C(o);
	struct msg_arg m[UDRV_I2C_MSGS_MAX];
	struct udrv_i2c_msg km[UDRV_I2C_MSGS_MAX];
	Py_ssize_t n;

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
	for (Py_ssize_t i = 0; i < n; i++) {
		m[i].held = false;
		if (msg_parse(self, PyTuple_GET_ITEM(msgs, i), (size_t)i, &m[i]) < 0) {
			msgs_release(m, (size_t)i);
			return NULL;
		}
		km[i] = m[i].msg;
	}
	if (run_msgs(self, km, m, (size_t)n) < 0)
		return NULL;
	Py_RETURN_NONE;
}

/* read(length) -> bytes: one message from the set address, read into the
 * bytes object returned (new: no one else sees it yet) */
PyObject *udrvpy_i2c_read(PyObject *o, PyObject *arg)
{
	struct udrv_i2c_msg msg;
	unsigned long long len;
	PyObject *res;

	if (udrvpy_uint_arg(arg, "length", UDRV_I2C_MSG_LEN_MAX, &len) < 0)
		return NULL;
	if (len == 0) {
		PyErr_Format(PyExc_ValueError, "length must be 1..%d, not 0", UDRV_I2C_MSG_LEN_MAX);
		return NULL;
	}
	res = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
	if (!res)
		return NULL;
	if (msg_head(I2C(o), Py_None, UDRV_I2C_M_RD, 0, &msg) < 0)
		goto fail;
	msg.len = (uint16_t)len;
	msg.buf = (uint8_t *)PyBytes_AS_STRING(res);
	if (run_msgs(I2C(o), &msg, NULL, 1) < 0)
		goto fail;
	return res;
fail:
	Py_DECREF(res);
	return NULL;
}

/* readinto(buffer) / write(data): one message of the set address; its
 * length, or -1 */
static Py_ssize_t one_message(PyObject *o, PyObject *buf, unsigned int flags)
{
	struct msg_arg m;
	Py_ssize_t len;

	m.held = false;
	if (msg_head(I2C(o), Py_None, flags, 0, &m.msg) < 0 || msg_data(buf, 0, &m) < 0)
		return -1;
	len = m.data.view.len;
	if (run_msgs(I2C(o), &m.msg, &m, 1) < 0)
		return -1;
	return len;
}

PyObject *udrvpy_i2c_readinto(PyObject *o, PyObject *buf)
{
	Py_ssize_t len = one_message(o, buf, UDRV_I2C_M_RD);

	return len < 0 ? NULL : PyLong_FromSsize_t(len);
}

PyObject *udrvpy_i2c_write(PyObject *o, PyObject *data)
{
	if (one_message(o, data, 0) < 0)
		return NULL;
	Py_RETURN_NONE;
}
