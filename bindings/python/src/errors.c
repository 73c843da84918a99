// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The exceptions: udrv.Error (an OSError: errno and the library's message)
 * and its subclasses by errno.
 */
#include "udrv_py.h"

#include <errno.h>
#include <string.h>

PyObject *udrvpy_Error;
PyObject *udrvpy_NotFoundError;
PyObject *udrvpy_BusyError;
PyObject *udrvpy_PermissionDeniedError;
PyObject *udrvpy_InvalidError;

static PyObject *error_class(int err)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return udrvpy_NotFoundError;
	case EBUSY:
		return udrvpy_BusyError;
	case EACCES:
	case EPERM:
		return udrvpy_PermissionDeniedError;
	case EINVAL:
		return udrvpy_InvalidError;
	default:
		return udrvpy_Error;
	}
}

PyObject *udrvpy_raise(int ret, const char *msg)
{
	int err = ret < 0 ? -ret : ret;
	PyObject *exc, *text;

	if (err == EINTR) {
		/* a signal handler ran: raise what it raised (Ctrl-C) */
		if (PyErr_CheckSignals() < 0)
			return NULL;
		PyErr_SetFromErrno(PyExc_InterruptedError);
		return NULL;
	}
	if (!msg || !*msg)
		msg = strerror(err);
	/* paths in messages need not be UTF-8 */
	text = PyUnicode_DecodeFSDefault(msg);
	if (!text)
		return NULL;
	exc = PyObject_CallFunction(error_class(err), "iN", err, text);
	if (exc) {
		PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
		Py_DECREF(exc);
	}
	return NULL;
}

PyObject *udrvpy_released(const char *what)
{
	PyErr_Format(PyExc_ValueError, "%s is released", what);
	return NULL;
}

/* udrv.<name>, a subclass of @bases, into the module */
static PyObject *new_error(PyObject *m, const char *name, PyObject *bases,
			   const char *doc)
{
	char qual[64];
	PyObject *cls;

	snprintf(qual, sizeof(qual), "udrv.%s", name);
	cls = PyErr_NewExceptionWithDoc(qual, doc, bases, NULL);
	if (!cls)
		return NULL;
	if (PyModule_AddObject(m, name, cls) < 0) {
		Py_DECREF(cls);
		return NULL;
	}
	Py_INCREF(cls);
	return cls;
}

static PyObject *bases2(PyObject *a, PyObject *b)
{
	return PyTuple_Pack(2, a, b);
}

int udrvpy_errors_init(PyObject *m)
{
	PyObject *b;

	udrvpy_Error = new_error(m, "Error", PyExc_OSError,
		"A failure reported by libudrv: errno, and strerror is the library's "
		"message (what failed, which device or path, and what to do).");
	if (!udrvpy_Error)
		return -1;
	b = bases2(udrvpy_Error, PyExc_FileNotFoundError);
	udrvpy_NotFoundError = b ? new_error(m, "NotFoundError", b,
		"No such chip, line, device or file (ENOENT, ENODEV, ENXIO).") : NULL;
	Py_XDECREF(b);
	udrvpy_BusyError = new_error(m, "BusyError", udrvpy_Error,
		"The line or device is in use (EBUSY); the message names the holder.");
	b = bases2(udrvpy_Error, PyExc_PermissionError);
	udrvpy_PermissionDeniedError = b ? new_error(m, "PermissionDeniedError", b,
		"Permission denied (EACCES, EPERM); the message says what to change.") : NULL;
	Py_XDECREF(b);
	b = bases2(udrvpy_Error, PyExc_ValueError);
	udrvpy_InvalidError = b ? new_error(m, "InvalidError", b,
		"The library refused an argument or a setting (EINVAL).") : NULL;
	Py_XDECREF(b);
	if (!udrvpy_NotFoundError || !udrvpy_BusyError ||
	    !udrvpy_PermissionDeniedError || !udrvpy_InvalidError)
		return -1;
	return 0;
}
