// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Request: lines of one chip held together (struct udrv_request). The
 * package's udrv.Request subclasses it (reconfigure with a config mapping,
 * the event iterator, async for).
 *
 * set_value() is the hot path: METH_FASTCALL, the offset mapped to the
 * request's index by a table built at request time (no allocation, no
 * Python call), one call into libudrv.
 *
 * Blocking calls (waits, reads of events: request_events.c) release the GIL
 * and poll in slices, so that a signal (Ctrl-C) raises its exception and a
 * release() from another thread takes effect within a slice. release()
 * while another thread waits marks the request; the waiter releases it and
 * raises ValueError when its slice ends.
 */
#include "udrv_py.h"
#include "request.h"

#include <errno.h>
#include <string.h>

PyObject *udrvpy_req_released(struct udrvpy_request *self)
{
	PyErr_Format(PyExc_ValueError, "request of %s lines is released",
		     self->chip_name);
	return NULL;
}

PyObject *udrvpy_req_error(struct udrvpy_request *self, int ret)
{
	return udrvpy_raise(ret, self->req ? udrv_request_errmsg(self->req) : NULL);
}

/* ---- request ---- */

static int setting_int(PyObject *t, Py_ssize_t i, long lo, long hi, long *v,
		       const char *what)
{
	long long x;

	if (udrvpy_int_arg(PyTuple_GET_ITEM(t, i), what, lo, hi, &x) < 0)
		return -1;
	*v = (long)x;
	return 0;
}

int udrvpy_settings_parse(PyObject *seq, size_t n, struct udrv_line_settings *out)
{
	long v[8];
	static const char *const what[8] = {
		"direction", "value", "bias", "drive", "active_low", "edge",
		"debounce_us", "event_clock",
	};
	static const long hi[8] = { 1, 1, 3, 2, 1, 3, UINT32_MAX, 2 };

	if (!PyTuple_Check(seq) || (size_t)PyTuple_GET_SIZE(seq) != n) {
		PyErr_SetString(PyExc_TypeError, "settings: a tuple of one entry per line");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		PyObject *t = PyTuple_GET_ITEM(seq, (Py_ssize_t)i);

		if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 8) {
			PyErr_SetString(PyExc_TypeError, "settings: 8-tuples (LineSettings._astuple())");
			return -1;
		}
		for (int k = 0; k < 8; k++) {
			/* the enums' ranges are the library's to check (its message) */
			long lo = (k == 1 || k == 4 || k == 6) ? 0 : LONG_MIN;
			long top = (k == 1 || k == 4 || k == 6) ? hi[k] : LONG_MAX;

			if (setting_int(t, k, lo, top, &v[k], what[k]) < 0)
				return -1;
		}
		out[i] = (struct udrv_line_settings){
			.direction = (enum udrv_direction)v[0],
			.value = (int)v[1],
			.bias = (enum udrv_bias)v[2],
			.drive = (enum udrv_drive)v[3],
			.active_low = v[4] != 0,
			.edge = (enum udrv_edge)v[5],
			.debounce_us = (uint32_t)v[6],
			.event_clock = (enum udrv_clock)v[7],
		};
	}
	return 0;
}

static int parse_offsets(PyObject *offsets, unsigned int *out, size_t *n)
{
	Py_ssize_t len = PyTuple_GET_SIZE(offsets);

	if (len < 1 || len > UDRV_LINES_MAX) {
		PyErr_Format(PyExc_ValueError, "a request holds 1..%d lines, not %zd",
			     UDRV_LINES_MAX, len);
		return -1;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		unsigned long long v;

		if (udrvpy_uint_arg(PyTuple_GET_ITEM(offsets, i), "a line offset", 65535, &v) < 0)
			return -1;
		out[i] = (unsigned int)v;
	}
	*n = (size_t)len;
	return 0;
}

static int build_index(struct udrvpy_request *self, const unsigned int *offs)
{
	unsigned int max = 0;

	for (size_t i = 0; i < self->n; i++)
		if (offs[i] > max)
			max = offs[i];
	self->index_len = (size_t)max + 1;
	self->index_of = PyMem_Calloc(self->index_len, 1);
	if (!self->index_of) {
		PyErr_NoMemory();
		return -1;
	}
	for (size_t i = 0; i < self->n; i++)
		self->index_of[offs[i]] = (unsigned char)(i + 1);
	return 0;
}

/* A Request of the lines @offsets (parsed into @offs, @n) of @chip (None:
 * a request taken over) called @chip_name, unclaimed. */
static struct udrvpy_request *request_alloc(PyObject *chip, const char *chip_name,
					    PyTypeObject *cls, PyObject *offsets,
					    PyObject *names, const unsigned int *offs, size_t n)
{
	struct udrvpy_request *self = (struct udrvpy_request *)cls->tp_alloc(cls, 0);

	if (!self)
		return NULL;
	self->n = n;
	snprintf(self->chip_name, sizeof(self->chip_name), "%s", chip_name);
	Py_INCREF(chip);
	self->chip = chip;
	Py_INCREF(offsets);
	self->offsets = offsets;
	if (names != Py_None) {
		Py_INCREF(names);
		self->names = names;
	}
	if (build_index(self, offs) < 0)
		Py_CLEAR(self);
	return self;
}

PyObject *udrvpy_request_new(struct udrvpy_chip *chip, PyTypeObject *cls,
			     PyObject *offsets, PyObject *settings,
			     PyObject *names, const char *consumer,
			     int backend, PyObject *layout,
			     uint32_t bufsize)
{
	unsigned int offs[UDRV_LINES_MAX];
	struct udrv_line_settings st[UDRV_LINES_MAX];
	struct udrv_request_config cfg;
	struct udrv_request *req = NULL;
	struct udrvpy_request *self;
	size_t n;
	int ret;

	if (parse_offsets(offsets, offs, &n) < 0 || udrvpy_settings_parse(settings, n, st) < 0)
		return NULL;
	memset(&cfg, 0, sizeof(cfg));
	cfg.consumer = consumer;
	cfg.event_buffer_size = bufsize;
	cfg.backend = (enum udrv_backend)backend;
	cfg.layout = layout == Py_None ? NULL : &((struct udrvpy_layout *)layout)->layout;
	cfg.layout_size = layout == Py_None ? 0 : sizeof(struct udrv_gpio_layout);

	self = request_alloc((PyObject *)chip, udrv_chip_name(chip->chip), cls, offsets, names,
			     offs, n);
	if (!self)
		return NULL;
	/* sysfs exports may wait on other threads (and on the kernel); the
	 * chip stays open meanwhile (close() from another thread waits) */
	chip->busy++;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_chip_request(chip->chip, &cfg, n, offs, st, &req);
	Py_END_ALLOW_THREADS
	chip->busy--;
	if (ret < 0)
		udrvpy_raise(ret, udrv_chip_errmsg(chip->chip));
	udrvpy_chip_close_pending(chip);
	if (ret < 0) {
		Py_DECREF(self);
		return NULL;
	}
	self->req = req;
	return (PyObject *)self;
}

/* Request._adopt(chip, fd, offsets, names): udrv_request_adopt() */
static PyObject *req_adopt(PyObject *cls, PyObject *args)
{
	unsigned int offs[UDRV_LINES_MAX];
	struct udrv_request *req = NULL;
	struct udrvpy_request *self;
	PyObject *offsets, *fd_arg, *names;
	char err[512], name[32];
	const char *chip;
	unsigned int num;
	size_t n;
	int fd, ret;

	if (!PyArg_ParseTuple(args, "sOO!O:_adopt", &chip, &fd_arg, &PyTuple_Type, &offsets,
			      &names) ||
	    udrvpy_int_arg_int(fd_arg, "fd", 0, INT_MAX, &fd) < 0 ||
	    parse_offsets(offsets, offs, &n) < 0)
		return NULL;
	if (names != Py_None && !PyDict_Check(names)) {
		PyErr_SetString(PyExc_TypeError, "_adopt: names must be a dict or None");
		return NULL;
	}
	/* the name the library takes (it parses @chip too): gpiochipN */
	snprintf(name, sizeof(name), "%s", chip);
	if (udrv_parse_devnum(chip, "gpiochip", &num) == 0)
		snprintf(name, sizeof(name), "gpiochip%u", num);
	/* before the fd is taken: on an error it stays the caller's */
	self = request_alloc(Py_None, name, (PyTypeObject *)cls, offsets, names, offs, n);
	if (!self)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_request_adopt(chip, fd, n, offs, &req, err, sizeof(err));
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		Py_DECREF(self);
		return udrvpy_raise(ret, err);
	}
	self->req = req;
	return (PyObject *)self;
}

static void do_release(struct udrvpy_request *self)
{
	struct udrv_request *req = self->req;

	if (!req)
		return;
	self->req = NULL;
	udrvpy_soft_pwms_close(self);
	Py_BEGIN_ALLOW_THREADS
	udrv_request_release(req);
	Py_END_ALLOW_THREADS
}

PyObject *udrvpy_req_busy(void)
{
	PyErr_SetString(PyExc_RuntimeError,
			"another thread is in a blocking call on this request (a wait, a read "
			"or a reconfigure): one at a time");
	return NULL;
}

/* after a blocking call: a release() that came meanwhile; 1 (and a
 * ValueError unless an exception is set) when it did */
int udrvpy_req_release_if_pending(struct udrvpy_request *self)
{
	if (!self->release_pending)
		return 0;
	self->release_pending = false;
	do_release(self);
	if (!PyErr_Occurred())
		udrvpy_req_released(self);
	return 1;
}

static PyObject *req_release(PyObject *o, PyObject *unused)
{
	struct udrvpy_request *self = REQ(o);

	if (self->busy)
		self->release_pending = true;	/* the waiter releases it */
	else
		do_release(self);
	Py_RETURN_NONE;
}

static void req_dealloc(PyObject *o)
{
	struct udrvpy_request *self = REQ(o);

	do_release(self);
	PyMem_Free(self->index_of);
	Py_XDECREF(self->chip);
	Py_XDECREF(self->names);
	Py_XDECREF(self->offsets);
	Py_TYPE(o)->tp_free(o);
}

static PyObject *req_enter(PyObject *o, PyObject *unused)
{
	if (!REQ(o)->req)
		return udrvpy_req_released(REQ(o));
	Py_INCREF(o);
	return o;
}

static PyObject *req_exit(PyObject *o, PyObject *args)
{
	return req_release(o, NULL);
}

static PyObject *req_repr(PyObject *o)
{
	struct udrvpy_request *self = REQ(o);

	if (!self->req)
		return PyUnicode_FromFormat("<%s of %s (released)>", Py_TYPE(o)->tp_name,
					    self->chip_name);
	return PyUnicode_FromFormat("<%s of %s offsets=%R backend=%s>", Py_TYPE(o)->tp_name,
				    self->chip_name, self->offsets,
				    udrv_backend_str(udrv_request_backend(self->req)));
}

/* ---- values ---- */

/* the index the names dict gives @name: one of the request's 0..n-1 (a
 * shift of a 64-bit mask by it, an index into the library's lines) */
static Py_ssize_t name_index(struct udrvpy_request *self, PyObject *idx)
{
	long long v;
	char what[64];

	snprintf(what, sizeof(what), "the index of a line name (a request of %zu lines)",
		 self->n);
	if (udrvpy_int_arg(idx, what, 0, (long long)self->n - 1, &v) < 0)
		return -1;
	return (Py_ssize_t)v;
}

Py_ssize_t udrvpy_req_line_index(struct udrvpy_request *self, PyObject *line)
{
	if (PyLong_Check(line)) {
		int ovf;
		long long off = PyLong_AsLongLongAndOverflow(line, &ovf);

		if (!ovf && off >= 0 && (unsigned long long)off < self->index_len &&
		    self->index_of[off])
			return self->index_of[off] - 1;
		if (off == -1 && PyErr_Occurred())
			return -1;
		PyErr_Format(PyExc_ValueError, "line %R is not in this request (offsets %R)",
			     line, self->offsets);
		return -1;
	}
	if (PyUnicode_Check(line)) {
		PyObject *idx = self->names ? PyDict_GetItemWithError(self->names, line) : NULL;

		if (idx)
			return name_index(self, idx);
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_ValueError,
				     "line %R is not in this request (lines requested by name: %R)",
				     line, self->names ? self->names : Py_None);
		return -1;
	}
	PyErr_Format(PyExc_TypeError, "a line is an offset (int) or a name (str), not %.100s",
		     Py_TYPE(line)->tp_name);
	return -1;
}

static int value_arg(PyObject *v)
{
	long x = PyLong_Check(v) ? PyLong_AsLong(v) : -2;

	if (x == 0 || x == 1)
		return (int)x;
	if (x == -1 && PyErr_Occurred()) {
		if (!PyErr_ExceptionMatches(PyExc_OverflowError))
			return -1;
		PyErr_Clear();
	}
	if (!PyLong_Check(v))
		PyErr_Format(PyExc_TypeError, "a value is 0 or 1 (int or bool), not %.100s",
			     Py_TYPE(v)->tp_name);
	else
		PyErr_Format(PyExc_ValueError, "a value is 0 or 1, not %R", v);
	return -1;
}

static PyObject *req_set_value(PyObject *o, PyObject *const *args, Py_ssize_t nargs)
{
	struct udrvpy_request *self = REQ(o);
	Py_ssize_t idx;
	int v, ret;

	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError, "set_value(line, value) takes 2 arguments, not %zd",
			     nargs);
		return NULL;
	}
	if (!self->req)
		return udrvpy_req_released(self);
	idx = udrvpy_req_line_index(self, args[0]);
	if (idx < 0)
		return NULL;
	v = value_arg(args[1]);
	if (v < 0)
		return NULL;
	ret = udrv_request_set_value(self->req, (size_t)idx, v);
	if (ret < 0)
		return udrvpy_req_error(self, ret);
	Py_RETURN_NONE;
}

static PyObject *req_get_value(PyObject *o, PyObject *line)
{
	struct udrvpy_request *self = REQ(o);
	Py_ssize_t idx;
	int ret;

	if (!self->req)
		return udrvpy_req_released(self);
	idx = udrvpy_req_line_index(self, line);
	if (idx < 0)
		return NULL;
	ret = udrv_request_get_value(self->req, (size_t)idx);
	if (ret < 0)
		return udrvpy_req_error(self, ret);
	return PyLong_FromLong(ret);
}

static PyObject *req_get_values(PyObject *o, PyObject *const *args, Py_ssize_t nargs)
{
	struct udrvpy_request *self = REQ(o);
	unsigned char order[UDRV_LINES_MAX];
	uint64_t mask = 0, values = 0;
	size_t count = 0;
	PyObject *res, *it, *item;
	int ret;

	if (nargs > 1) {
		PyErr_SetString(PyExc_TypeError, "get_values(lines=None) takes at most 1 argument");
		return NULL;
	}
	if (!self->req)
		return udrvpy_req_released(self);
	if (nargs == 0 || args[0] == Py_None) {
		mask = self->n == 64 ? ~0ULL : (1ULL << self->n) - 1;
		for (size_t i = 0; i < self->n; i++)
			order[count++] = (unsigned char)i;
	} else {
		it = PyObject_GetIter(args[0]);
		if (!it)
			return NULL;
		while ((item = PyIter_Next(it))) {
			Py_ssize_t idx = udrvpy_req_line_index(self, item);

			Py_DECREF(item);
			if (idx < 0 || count == UDRV_LINES_MAX) {
				if (idx >= 0)
					PyErr_SetString(PyExc_ValueError, "too many lines");
				Py_DECREF(it);
				return NULL;
			}
			order[count++] = (unsigned char)idx;
			mask |= 1ULL << idx;
		}
		Py_DECREF(it);
		if (PyErr_Occurred())
			return NULL;
		if (!count)
			return PyList_New(0);
	}
	ret = udrv_request_get_values(self->req, mask, &values);
	if (ret < 0)
		return udrvpy_req_error(self, ret);
	res = PyList_New((Py_ssize_t)count);
	if (!res)
		return NULL;
	for (size_t i = 0; i < count; i++)
		PyList_SET_ITEM(res, (Py_ssize_t)i, PyLong_FromLong((long)((values >> order[i]) & 1)));
	return res;
}

static PyObject *req_set_values(PyObject *o, PyObject *mapping)
{
	struct udrvpy_request *self = REQ(o);
	uint64_t mask = 0, values = 0;
	PyObject *items, *it, *pair;
	int ret = 0;

	if (!self->req)
		return udrvpy_req_released(self);
	items = PyMapping_Items(mapping);
	if (!items)
		return NULL;
	it = PyObject_GetIter(items);
	Py_DECREF(items);
	if (!it)
		return NULL;
	while ((pair = PyIter_Next(it))) {
		Py_ssize_t idx;
		int v;

		if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
			Py_DECREF(pair);
			Py_DECREF(it);
			PyErr_SetString(PyExc_TypeError, "set_values() takes a mapping {line: value}");
			return NULL;
		}
		idx = udrvpy_req_line_index(self, PyTuple_GET_ITEM(pair, 0));
		v = idx < 0 ? -1 : value_arg(PyTuple_GET_ITEM(pair, 1));

		Py_DECREF(pair);
		if (v < 0) {
			Py_DECREF(it);
			return NULL;
		}
		mask |= 1ULL << idx;
		values |= (uint64_t)v << idx;
	}
	Py_DECREF(it);
	if (PyErr_Occurred())
		return NULL;
	if (mask)
		ret = udrv_request_set_values(self->req, mask, values);
	if (ret < 0)
		return udrvpy_req_error(self, ret);
	Py_RETURN_NONE;
}

static PyObject *req_reconfigure(PyObject *o, PyObject *settings)
{
	struct udrvpy_request *self = REQ(o);
	struct udrv_line_settings st[UDRV_LINES_MAX];
	int ret;

	if (!self->req)
		return udrvpy_req_released(self);
	if (udrvpy_settings_parse(settings, self->n, st) < 0)
		return NULL;
	if (self->busy)
		return udrvpy_req_busy();
	if (udrvpy_soft_pwms_running(self)) {
		PyErr_SetString(PyExc_RuntimeError,
				"a SoftPWM runs on this request: stop() it before a reconfigure");
		return NULL;
	}
	self->busy = 1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_request_reconfigure(self->req, st);
	Py_END_ALLOW_THREADS
	self->busy = 0;
	if (ret < 0)
		udrvpy_req_error(self, ret);
	if (udrvpy_req_release_if_pending(self) || ret < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *req_get_offsets(PyObject *o, void *unused)
{
	Py_INCREF(REQ(o)->offsets);
	return REQ(o)->offsets;
}

static PyObject *req_get_backend(PyObject *o, void *unused)
{
	if (!REQ(o)->req)
		return udrvpy_req_released(REQ(o));
	return PyLong_FromLong((long)udrv_request_backend(REQ(o)->req));
}

static PyObject *req_get_chip_name(PyObject *o, void *unused)
{
	return PyUnicode_FromString(REQ(o)->chip_name);
}

static PyObject *req_get_chip(PyObject *o, void *unused)
{
	Py_INCREF(REQ(o)->chip);
	return REQ(o)->chip;
}

static PyObject *req_get_released(PyObject *o, void *unused)
{
	return PyBool_FromLong(!REQ(o)->req || REQ(o)->release_pending);
}

static PyObject *req_reply(PyObject *o, PyObject *const *args, Py_ssize_t nargs)
{
	return udrvpy_reply(&REQ(o)->replies, args, nargs);
}

static PyMethodDef req_methods[] = {
	{ "set_value", UDRVPY_METH(req_set_value), METH_FASTCALL,
	  "set_value(line: int | str, value: int) -> None\n\n"
	  "Drive a line (offset, or name as requested) to the logical value 0 or 1 "
	  "(active-low applied). ValueError for another value or a line not in the request." },
	{ "get_value", req_get_value, METH_O,
	  "get_value(line: int | str) -> int\n\nThe logical value (0 or 1) of a line." },
	{ "get_values", UDRVPY_METH(req_get_values), METH_FASTCALL,
	  "get_values(lines: Iterable[int | str] | None = None) -> list[int]\n\n"
	  "The logical values of lines (None: all, in request order), read at once." },
	{ "set_values", req_set_values, METH_O,
	  "set_values(values: Mapping[int | str, int]) -> None\n\n"
	  "Drive several lines at once (one operation)." },
	{ "_reconfigure", req_reconfigure, METH_O, NULL },
	{ "fileno", udrvpy_req_fileno, METH_NOARGS,
	  "fileno() -> int\n\nThe file descriptor that becomes readable when edge events are "
	  "pending (for selectors, poll, asyncio)." },
	{ "wait_edge_events", UDRVPY_METH(udrvpy_req_wait_edge_events), METH_VARARGS | METH_KEYWORDS,
	  "wait_edge_events(timeout: float | None = None) -> bool\n\n"
	  "Wait up to timeout seconds (None: forever) for edge events: True when some are "
	  "pending. Releases the GIL; Ctrl-C raises KeyboardInterrupt." },
	{ "read_edge_events", UDRVPY_METH(udrvpy_req_read_edge_events), METH_VARARGS | METH_KEYWORDS,
	  "read_edge_events(max_events: int = 64) -> list[EdgeEvent]\n\n"
	  "Read up to max_events pending events; blocks (GIL released) only when none are "
	  "pending." },
	{ "release", req_release, METH_NOARGS,
	  "release() -> None\n\nGive the lines back, the SoftPWMs on them stopped and closed "
	  "first. Idempotent; using the request afterwards raises ValueError." },
	{ "__enter__", req_enter, METH_NOARGS, NULL },
	{ "__exit__", req_exit, METH_VARARGS, NULL },
	{ "_adopt", req_adopt, METH_VARARGS | METH_CLASS, NULL },
	{ "_respond", udrvpy_req_respond, METH_VARARGS, NULL },
	{ "reply", UDRVPY_METH(req_reply), METH_FASTCALL,
	  "reply(line: int, level: bool) -> None\n\n"
	  "From respond()'s callback: reply line `line` (an offset of its replies=) goes to "
	  "`level` (raw) when the callback returns, written by udrv-irq with its next wait." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef req_getset[] = {
	{ "offsets", req_get_offsets, NULL, "the requested offsets, in request order", NULL },
	{ "_backend", req_get_backend, NULL, NULL, NULL },
	{ "chip_name", req_get_chip_name, NULL, "the chip's name, \"gpiochip0\"", NULL },
	{ "chip", req_get_chip, NULL, "the Chip the lines were requested from", NULL },
	{ "lost_events", udrvpy_req_get_lost, NULL, "events lost so far (gaps in sequence numbers)",
	  NULL },
	{ "released", req_get_released, NULL, "whether release() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_RequestType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.Request",
	.tp_basicsize = sizeof(struct udrvpy_request),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.Request (made by Chip.request()).",
	.tp_dealloc = req_dealloc,
	.tp_repr = req_repr,
	.tp_methods = req_methods,
	.tp_getset = req_getset,
};

int udrvpy_request_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_RequestType) < 0)
		return -1;
	Py_INCREF(&udrvpy_RequestType);
	return PyModule_AddObject(m, "Request", (PyObject *)&udrvpy_RequestType);
}
