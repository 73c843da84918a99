// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The bytes of a call (I2C, SPI): the data to send, from a buffer (no copy)
 * or a list or tuple of ints (a short one copied onto the caller's stack,
 * no object made), and the caller's buffers to fill.
 */
#include "udrv_py.h"

/* The name of an argument: @name, a printf format of the index @i when
 * the argument is a transfer's or a message's ("message %zu's data").
 * Formatted only for an error's message. */
static const char *arg_name(char *buf, size_t len, const char *name, size_t i)
{
	snprintf(buf, len, name, i);
	return buf;
}

/*
 * The exact int @x as a byte: 0..255, or -1 for another value. Read in
 * place where CPython's API allows it (no call per item): 3.12's compact
 * ints (the unstable API), 3.11's digits (ob_size 0 for zero, 1 for one
 * digit of at least 15 bits); elsewhere PyLong_AsLongAndOverflow().
 */
static inline int int_byte(PyObject *x)
{
#if !defined(PYPY_VERSION) && PY_VERSION_HEX >= 0x030C0000
	Py_ssize_t v;

	if (!PyUnstable_Long_IsCompact((PyLongObject *)x))
		return -1;
	v = PyUnstable_Long_CompactValue((PyLongObject *)x);
	return v >= 0 && v <= 255 ? (int)v : -1;
#elif !defined(PYPY_VERSION) && PY_VERSION_HEX >= 0x030B0000
	digit d = ((PyLongObject *)x)->ob_digit[0];

	if (Py_SIZE(x) == 0)
		return 0;
	return Py_SIZE(x) == 1 && d <= 255 ? (int)d : -1;
#else
	int ovf;
	long v = PyLong_AsLongAndOverflow(x, &ovf);

	return !ovf && v >= 0 && v <= 255 ? (int)v : -1;
#endif
}

/*
 * The ints of the exact list or tuple @o into @out (room for @max bytes):
 * their count, or -1 when there are more or one is not an int 0..255 (the
 * slow path then says which, as it always did). Nothing here runs Python
 * code (an exact int has no __index__ to call): @o cannot change meanwhile.
 */
static Py_ssize_t small_ints(PyObject *o, uint8_t *out, Py_ssize_t max)
{
	PyObject **items = PySequence_Fast_ITEMS(o);
	Py_ssize_t n = PySequence_Fast_GET_SIZE(o);

	if (n > max)
		return -1;
	for (Py_ssize_t k = 0; k < n; k++) {
		int b = PyLong_CheckExact(items[k]) ? int_byte(items[k]) : -1;

		if (b < 0)
			return -1;
		out[k] = (uint8_t)b;
	}
	return n;
}

/* Any other data (a buffer, a long list, an item of another type or out
 * of range): @view of the buffer or of a bytes object made of the list.
 * Apart, so that the common case's call saves no registers for it. */
static __attribute__((noinline)) int data_object(PyObject *o, const char *name, size_t i,
						 Py_buffer *view)
{
	char what[48];
	PyObject *b;
	int ret;

	if (PyObject_CheckBuffer(o))
		return PyObject_GetBuffer(o, view, PyBUF_SIMPLE);
	if (!PyList_Check(o) && !PyTuple_Check(o)) {
		PyErr_Format(PyExc_TypeError,
			     "%s must be a bytes-like object or a list of ints 0..255, not %.100s",
			     arg_name(what, sizeof(what), name, i), Py_TYPE(o)->tp_name);
		return -1;
	}
	b = PyBytes_FromObject(o);	/* each item an int 0..255 */
	if (!b) {
		PyObject *exc = PyErr_Occurred();

		if (exc && (PyErr_GivenExceptionMatches(exc, PyExc_ValueError) ||
			    PyErr_GivenExceptionMatches(exc, PyExc_TypeError))) {
			PyErr_Clear();
			PyErr_Format(exc == PyExc_ValueError ? PyExc_ValueError : PyExc_TypeError,
				     "%s must be a bytes-like object or a list of ints 0..255: %R is not",
				     arg_name(what, sizeof(what), name, i), o);
		}
		return -1;
	}
	ret = PyObject_GetBuffer(b, view, PyBUF_SIMPLE);
	Py_DECREF(b);
	return ret;
}

int udrvpy_data_arg(PyObject *o, const char *name, size_t i, struct udrvpy_data *d)
{
	Py_ssize_t n;

	if (PyBytes_CheckExact(o)) {
		/* what its buffer would be: the caller's reference keeps it */
		d->view.obj = NULL;
		d->view.buf = PyBytes_AS_STRING(o);
		d->view.len = PyBytes_GET_SIZE(o);
		return 0;
	}
	if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
		n = small_ints(o, d->small, UDRVPY_DATA_SMALL);
		if (n >= 0) {
			d->view.obj = NULL;
			d->view.buf = d->small;
			d->view.len = n;
			return 0;
		}
	}
	return data_object(o, name, i, &d->view);
}

int udrvpy_into_arg(PyObject *o, const char *name, size_t i, Py_buffer *view)
{
	char what[48];

	if (PyObject_CheckBuffer(o) && PyObject_GetBuffer(o, view, PyBUF_WRITABLE) == 0)
		return 0;
	PyErr_Clear();
	PyErr_Format(PyExc_TypeError, "%s must be a writable bytes-like object (a bytearray, a "
		     "memoryview of one...), not %.100s", arg_name(what, sizeof(what), name, i),
		     Py_TYPE(o)->tp_name);
	return -1;
}
