// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * udrv._udrv.udrvd_hold(), udrvd_release() and udrvd_fd(): lines that udrvd
 * (udrvd(8)) holds for the caller, through udrvd's client (client/, on sd-bus), as
 * `udrv gpio set --hold daemon` and `udrv gpio release` do. Built in where
 * libsystemd is; elsewhere they raise udrv.Error (ENOTSUP) that says so.
 */
#include "udrv_py.h"

#ifdef UDRV_HAVE_UDRVD_CLIENT
#include "udrvd_client.h"

/* @names, a tuple of 1..UDRV_LINES_MAX str, as C strings (kept by the
 * tuple's objects: the caller holds the tuple). */
static int names_arg(PyObject *names, char **out, size_t *n)
{
	Py_ssize_t len = PyTuple_GET_SIZE(names);

	if (len < 1 || len > UDRV_LINES_MAX) {
		PyErr_Format(PyExc_ValueError, "udrvd holds 1..%d lines at a time, not %zd",
			     UDRV_LINES_MAX, len);
		return -1;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		PyObject *o = PyTuple_GET_ITEM(names, i);
		Py_ssize_t len8 = 0;
		const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len8) : NULL;

		if (!s) {
			if (!PyErr_Occurred())
				PyErr_SetString(PyExc_TypeError, "lines: a tuple of str");
			return -1;
		}
		if (!len8 || strlen(s) != (size_t)len8) {
			PyErr_Format(PyExc_ValueError, "a line's name is empty or holds a NUL: %R", o);
			return -1;
		}
		out[i] = (char *)s;
	}
	*n = (size_t)len;
	return 0;
}

/* (value, ...) of @n ints */
static PyObject *values_tuple(const int *v, size_t n)
{
	PyObject *t = PyTuple_New((Py_ssize_t)n);

	for (size_t i = 0; t && i < n; i++) {
		PyObject *o = PyLong_FromLong(v[i]);

		if (!o) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, o);
	}
	return t;
}

/* (offset, ...) of @n offsets */
static PyObject *offsets_tuple(const unsigned int *offs, size_t n)
{
	PyObject *t = PyTuple_New((Py_ssize_t)n);

	for (size_t i = 0; t && i < n; i++) {
		PyObject *o = PyLong_FromUnsignedLong(offs[i]);

		if (!o) {
			Py_CLEAR(t);
			break;
		}
		PyTuple_SET_ITEM(t, (Py_ssize_t)i, o);
	}
	return t;
}

/* (chip, fd, (offset, ...), (offset, ...)): the request's descriptor, its
 * lines' offsets, the offsets of the lines the caller named */
static PyObject *fd_tuple(const struct udrvd_lines *lines, int fd, const unsigned int *offs,
			  size_t n)
{
	PyObject *all = offsets_tuple(offs, n);
	PyObject *named = offsets_tuple(lines->offsets, lines->n);
	PyObject *ret = all && named ? Py_BuildValue("siOO", lines->chip, fd, all, named) : NULL;

	Py_XDECREF(all);
	Py_XDECREF(named);
	if (!ret)
		close(fd);
	return ret;
}

enum client_op { HOLD, RELEASE, GET_FD };

/* What udrvd answered @op, as Python objects. */
struct answer {
	char path[UDRVD_CLIENT_PATH_LEN];
	int values[UDRV_LINES_MAX];
	unsigned int offsets[UDRV_LINES_MAX];
	size_t n;
	int fd;
	struct udrvd_lines lines;
};

static int client_call(struct udrvd_client *c, enum client_op op, const char *chip,
		       char **argv, size_t n, const struct udrv_line_settings *s,
		       const char *consumer, struct answer *a)
{
	int err = udrvd_client_open(c);

	if (!err)
		err = udrvd_client_find(c, chip, n, argv, &a->lines);
	if (err)
		return err;
	switch (op) {
	case HOLD:
		return udrvd_client_set(c, &a->lines, s, consumer, a->path, sizeof(a->path));
	case RELEASE:
		return udrvd_client_release(c, &a->lines, a->values);
	default:
		return udrvd_client_get_fd(c, &a->lines, &a->fd, a->offsets, &a->n);
	}
}

/* Connect, find the @n lines @argv on @chip (NULL: the chip that has them
 * all), then hold them with settings @s (their request's path), release
 * them (their values before), or take their request's descriptor; udrv.Error
 * with the client's message on failure. */
static PyObject *with_client(enum client_op op, const char *chip, char **argv, size_t n,
			     const struct udrv_line_settings *s, const char *consumer)
{
	struct udrvd_client *c;
	struct answer *a;
	PyObject *ret = NULL;
	int err;

	c = udrvd_client_new();
	a = PyMem_RawCalloc(1, sizeof(*a));
	if (!c || !a) {
		udrvd_client_free(c);
		PyMem_RawFree(a);
		return PyErr_NoMemory();
	}
	Py_BEGIN_ALLOW_THREADS
	err = client_call(c, op, chip, argv, n, s, consumer, a);
	Py_END_ALLOW_THREADS
	if (err)
		udrvpy_raise(err, udrvd_client_errmsg(c));
	else if (op == HOLD)
		ret = PyUnicode_FromString(a->path);
	else if (op == RELEASE)
		ret = values_tuple(a->values, n);
	else
		ret = fd_tuple(&a->lines, a->fd, a->offsets, a->n);
	udrvd_client_free(c);
	PyMem_RawFree(a);
	return ret;
}

static PyObject *udrvd_hold(PyObject *m, PyObject *args)
{
	struct udrv_line_settings s[UDRV_LINES_MAX];
	char *argv[UDRV_LINES_MAX];
	const char *chip, *consumer;
	PyObject *names, *settings;
	size_t n;

	if (!PyArg_ParseTuple(args, "zO!O!s:udrvd_hold", &chip, &PyTuple_Type, &names,
			      &PyTuple_Type, &settings, &consumer))
		return NULL;
	if (names_arg(names, argv, &n) < 0 || udrvpy_settings_parse(settings, n, s) < 0)
		return NULL;
	return with_client(HOLD, chip, argv, n, s, consumer);
}

/* (chip, lines): what udrvd_release() and udrvd_fd() take */
static PyObject *lines_call(PyObject *args, const char *format, enum client_op op)
{
	char *argv[UDRV_LINES_MAX];
	const char *chip;
	PyObject *names;
	size_t n;

	if (!PyArg_ParseTuple(args, format, &chip, &PyTuple_Type, &names) ||
	    names_arg(names, argv, &n) < 0)
		return NULL;
	return with_client(op, chip, argv, n, NULL, NULL);
}

static PyObject *udrvd_release(PyObject *m, PyObject *args)
{
	return lines_call(args, "zO!:udrvd_release", RELEASE);
}

static PyObject *udrvd_fd(PyObject *m, PyObject *args)
{
	return lines_call(args, "zO!:udrvd_fd", GET_FD);
}

#else /* !UDRV_HAVE_UDRVD_CLIENT */

static PyObject *no_client(void)
{
	return udrvpy_raise(-ENOTSUP,
			    "this udrv was built without udrvd's client (libsystemd): "
			    "install libsystemd-dev and build the package again");
}

static PyObject *udrvd_hold(PyObject *m, PyObject *args)
{
	return no_client();
}

static PyObject *udrvd_release(PyObject *m, PyObject *args)
{
	return no_client();
}

static PyObject *udrvd_fd(PyObject *m, PyObject *args)
{
	return no_client();
}

#endif

static PyMethodDef udrvd_methods[] = {
	{ "udrvd_hold", udrvd_hold, METH_VARARGS,
	  "udrvd_hold(chip, lines, settings, consumer) -> str\n\n"
	  "Have udrvd hold lines (names, or offsets as str with chip) as outputs\n"
	  "with settings (one LineSettings._astuple() each, its value the one to\n"
	  "hold); the path of udrvd's request. Use udrv.hold()." },
	{ "udrvd_release", udrvd_release, METH_VARARGS,
	  "udrvd_release(chip, lines) -> tuple[int, ...]\n\n"
	  "Release udrvd's requests that hold lines; their logical values before.\n"
	  "Use udrv.release_held()." },
	{ "udrvd_fd", udrvd_fd, METH_VARARGS,
	  "udrvd_fd(chip, lines) -> tuple[str, int, tuple[int, ...], tuple[int, ...]]\n\n"
	  "The descriptor of udrvd's request that holds lines (yours to close),\n"
	  "its chip's name, all its lines' offsets and those of lines. Use\n"
	  "udrv.take_held()." },
	{ NULL, NULL, 0, NULL }
};

int udrvpy_udrvd_init(PyObject *m)
{
	PyObject *has = PyBool_FromLong(
#ifdef UDRV_HAVE_UDRVD_CLIENT
		1
#else
		0
#endif
	);

	if (PyModule_AddObject(m, "HAS_UDRVD_CLIENT", has) < 0) {
		Py_DECREF(has);
		return -1;
	}
	return PyModule_AddFunctions(m, udrvd_methods);
}
