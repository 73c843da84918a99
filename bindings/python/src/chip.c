// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Chip: a GPIO chip opened by path, name, number or label (struct
 * udrv_chip). The package's udrv.Chip subclasses it (info, line_info,
 * request with a config mapping).
 */
#include "udrv_py.h"

#include <errno.h>
#include <string.h>

#define CHIP(o)	((struct udrvpy_chip *)(o))

static int chip_ok(struct udrvpy_chip *self)
{
	if (self->chip)
		return 1;
	udrvpy_released("chip");
	return 0;
}

/* spec: str, bytes, os.PathLike or int (a chip number) -> bytes */
static PyObject *spec_bytes(PyObject *spec)
{
	PyObject *res = NULL, *s;

	if (PyLong_Check(spec) && !PyBool_Check(spec)) {
		int ovf;
		long long num = PyLong_AsLongLongAndOverflow(spec, &ovf);

		/* a number is a chip number: -1 must not become a label */
		if (ovf < 0 || (!ovf && num < 0)) {
			PyErr_Format(PyExc_ValueError,
				     "a chip number is 0 or more, not %R", spec);
			return NULL;
		}
		s = PyObject_Str(spec);
		if (!s)
			return NULL;
		PyUnicode_FSConverter(s, &res);
		Py_DECREF(s);
		return res;
	}
	if (!PyUnicode_FSConverter(spec, &res))
		return NULL;
	return res;
}

static PyObject *chip_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "spec", NULL };
	struct udrvpy_chip *self;
	PyObject *spec, *b;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Chip", kwlist, &spec))
		return NULL;
	b = spec_bytes(spec);
	if (!b)
		return NULL;
	self = (struct udrvpy_chip *)cls->tp_alloc(cls, 0);
	if (!self)
		goto fail;
	self->chip = udrv_chip_new();
	if (!self->chip) {
		PyErr_NoMemory();
		goto fail;
	}
	ret = udrv_chip_open(self->chip, PyBytes_AS_STRING(b));
	if (ret < 0) {
		udrvpy_raise(ret, udrv_chip_errmsg(self->chip));
		goto fail;
	}
	Py_DECREF(b);
	return (PyObject *)self;
fail:
	Py_DECREF(b);
	Py_XDECREF(self);
	return NULL;
}

static void chip_free(struct udrvpy_chip *self)
{
	if (self->chip) {
		udrv_chip_close(self->chip);
		udrv_chip_free(self->chip);
		self->chip = NULL;
	}
}

void udrvpy_chip_close_pending(struct udrvpy_chip *self)
{
	if (!self->busy && self->close_pending) {
		self->close_pending = false;
		chip_free(self);
	}
}

static void chip_dealloc(PyObject *o)
{
	chip_free(CHIP(o));
	Py_TYPE(o)->tp_free(o);
}

static PyObject *chip_close(PyObject *o, PyObject *unused)
{
	if (CHIP(o)->busy)
		CHIP(o)->close_pending = true;	/* the request closes it */
	else
		chip_free(CHIP(o));
	Py_RETURN_NONE;
}

static PyObject *chip_enter(PyObject *o, PyObject *unused)
{
	if (!chip_ok(CHIP(o)))
		return NULL;
	Py_INCREF(o);
	return o;
}

static PyObject *chip_exit(PyObject *o, PyObject *args)
{
	return chip_close(o, NULL);
}

static PyObject *chip_repr(PyObject *o)
{
	struct udrv_chip *c = CHIP(o)->chip;

	if (!c)
		return PyUnicode_FromFormat("<%s (closed)>", Py_TYPE(o)->tp_name);
	return PyUnicode_FromFormat("<%s %s [%s] %u lines>", Py_TYPE(o)->tp_name,
				    udrv_chip_name(c), udrv_chip_label(c),
				    udrv_chip_num_lines(c));
}

/* a getter's closure: the library function that answers it */
struct chip_str_fn {
	const char *(*fn)(const struct udrv_chip *);
};
static const struct chip_str_fn get_name = { udrv_chip_name };
static const struct chip_str_fn get_label = { udrv_chip_label };
static const struct chip_str_fn get_path = { udrv_chip_path };

static PyObject *chip_get_str(PyObject *o, void *closure)
{
	const struct chip_str_fn *f = closure;

	if (!chip_ok(CHIP(o)))
		return NULL;
	return PyUnicode_DecodeFSDefault(f->fn(CHIP(o)->chip));
}

static PyObject *chip_get_num_lines(PyObject *o, void *unused)
{
	if (!chip_ok(CHIP(o)))
		return NULL;
	return PyLong_FromUnsignedLong(udrv_chip_num_lines(CHIP(o)->chip));
}

static PyObject *chip_get_has_cdev(PyObject *o, void *unused)
{
	if (!chip_ok(CHIP(o)))
		return NULL;
	return PyBool_FromLong(udrv_chip_has_cdev(CHIP(o)->chip));
}

static PyObject *chip_get_sysfs_base(PyObject *o, void *unused)
{
	int base;

	if (!chip_ok(CHIP(o)))
		return NULL;
	base = udrv_chip_sysfs_base(CHIP(o)->chip);
	if (base < 0)
		Py_RETURN_NONE;
	return PyLong_FromLong(base);
}

static PyObject *chip_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!CHIP(o)->chip);
}

/* (offset, name, consumer, used, direction, active_low, bias, drive, edge,
 * event_clock, debounce_us) */
static PyObject *info_tuple(const struct udrv_line_info *info)
{
	return Py_BuildValue("(IssNiNiiiik)", info->offset, info->name, info->consumer,
			     PyBool_FromLong(info->used), (int)info->direction,
			     PyBool_FromLong(info->active_low), (int)info->bias,
			     (int)info->drive, (int)info->edge, (int)info->event_clock,
			     (unsigned long)info->debounce_us);
}

typedef int (*info_fn)(struct udrv_chip *, unsigned int, struct udrv_line_info *,
		       size_t);

/* @fn's line info of the offset @arg, as info_tuple() */
static PyObject *line_info_by(PyObject *o, PyObject *arg, info_fn fn)
{
	struct udrv_line_info info;
	unsigned long long off;
	int ret;

	if (!chip_ok(CHIP(o)) || udrvpy_uint_arg(arg, "offset", UINT32_MAX, &off) < 0)
		return NULL;
	memset(&info, 0, sizeof(info));
	ret = fn(CHIP(o)->chip, (unsigned int)off, &info, sizeof(info));
	if (ret < 0)
		return udrvpy_raise(ret, udrv_chip_errmsg(CHIP(o)->chip));
	return info_tuple(&info);
}

/* _line_info(offset) */
static PyObject *chip_line_info(PyObject *o, PyObject *arg)
{
	return line_info_by(o, arg, udrv_chip_line_info_sz);
}

/* _watch_line_info(offset): the line's info now */
static PyObject *chip_watch_line_info(PyObject *o, PyObject *arg)
{
	return line_info_by(o, arg, udrv_chip_watch_line_info_sz);
}

static PyObject *chip_unwatch_line_info(PyObject *o, PyObject *arg)
{
	unsigned long long off;
	int ret;

	if (!chip_ok(CHIP(o)) || udrvpy_uint_arg(arg, "offset", UINT32_MAX, &off) < 0)
		return NULL;
	ret = udrv_chip_unwatch_line_info(CHIP(o)->chip, (unsigned int)off);
	if (ret < 0)
		return udrvpy_raise(ret, udrv_chip_errmsg(CHIP(o)->chip));
	Py_RETURN_NONE;
}

static PyObject *chip_fileno(PyObject *o, PyObject *unused)
{
	int fd;

	if (!chip_ok(CHIP(o)))
		return NULL;
	fd = udrv_chip_fd(CHIP(o)->chip);
	if (fd < 0)
		return udrvpy_raise(fd, "the chip has no GPIO character device (sysfs GPIO only)");
	return PyLong_FromLong(fd);
}

#define SLICE_MS	200

/*
 * Wait up to @ms (-1: forever) for a line-info change, in slices with the
 * GIL released: 1 pending, 0 timeout, -1 with an exception (a signal's, an
 * error, the chip closed from another thread).
 */
static int info_wait_sliced(struct udrvpy_chip *self, long long ms)
{
	long long end = ms > 0 ? udrvpy_now_ms() + ms : 0;
	struct udrv_chip *chip = self->chip;
	int ret;

	self->busy++;
	for (;;) {
		int slice = ms < 0 || ms > SLICE_MS ? SLICE_MS : (int)ms;

		Py_BEGIN_ALLOW_THREADS
		ret = udrv_chip_wait_info_event(chip, slice);
		Py_END_ALLOW_THREADS
		if (self->close_pending || (ret != 0 && ret != -EINTR))
			break;
		if (PyErr_CheckSignals() < 0) {
			ret = -EINTR;
			break;
		}
		if (ms == 0 || (ms > 0 && (ms = end - udrvpy_now_ms()) <= 0)) {
			ret = 0;
			break;
		}
	}
	self->busy--;
	if (self->close_pending) {
		udrvpy_chip_close_pending(self);
		if (!PyErr_Occurred())
			udrvpy_released("chip");
		return -1;
	}
	if (ret == -EINTR)
		return -1;	/* the signal handler's exception */
	if (ret < 0) {
		udrvpy_raise(ret, udrv_chip_errmsg(chip));
		return -1;
	}
	return ret;
}

static PyObject *chip_wait_info_event(PyObject *o, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "timeout", NULL };
	PyObject *timeout = Py_None;
	long long ms;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:wait_info_event", kwlist, &timeout))
		return NULL;
	if (!chip_ok(CHIP(o)) || udrvpy_timeout_ms(timeout, &ms) < 0)
		return NULL;
	ret = info_wait_sliced(CHIP(o), ms);
	if (ret < 0)
		return NULL;
	return PyBool_FromLong(ret);
}

/* _read_info_event() -> (change, timestamp_ns, info_tuple()); waits for one */
static PyObject *chip_read_info_event(PyObject *o, PyObject *unused)
{
	struct udrv_info_event ev;
	struct udrv_line_info info;
	int ret;

	if (!chip_ok(CHIP(o)))
		return NULL;
	do {
		if (info_wait_sliced(CHIP(o), -1) < 0)
			return NULL;
		ret = udrv_chip_read_info_event(CHIP(o)->chip, &ev, &info);
	} while (ret == -EAGAIN);	/* another reader took it */
	if (ret < 0)
		return udrvpy_raise(ret, udrv_chip_errmsg(CHIP(o)->chip));
	return Py_BuildValue("(iKN)", (int)ev.change, (unsigned long long)ev.timestamp_ns,
			     info_tuple(&info));
}

static PyObject *chip_line_offset(PyObject *o, PyObject *arg)
{
	const char *name;
	int ret;

	if (!chip_ok(CHIP(o)))
		return NULL;
	name = PyUnicode_AsUTF8(arg);
	if (!name)
		return NULL;
	ret = udrv_chip_find_line(CHIP(o)->chip, name);
	if (ret < 0)
		return udrvpy_raise(ret, udrv_chip_errmsg(CHIP(o)->chip));
	return PyLong_FromLong(ret);
}

/* _request(cls, offsets, settings, names, consumer, backend, layout, bufsize) */
static PyObject *chip_request(PyObject *o, PyObject *args)
{
	PyObject *cls, *offsets, *settings, *names, *layout, *backend_arg, *bufsize_arg;
	unsigned long long bufsize;
	const char *consumer;
	int backend;

	if (!PyArg_ParseTuple(args, "O!O!O!OsOOO:_request", &PyType_Type, &cls,
			      &PyTuple_Type, &offsets, &PyTuple_Type, &settings,
			      &names, &consumer, &backend_arg, &layout, &bufsize_arg) ||
	    udrvpy_int_arg_int(backend_arg, "backend", INT_MIN, INT_MAX, &backend) < 0 ||
	    udrvpy_uint_arg(bufsize_arg, "event_buffer_size", UINT32_MAX, &bufsize) < 0)
		return NULL;
	if (!chip_ok(CHIP(o)))
		return NULL;
	if (!PyType_IsSubtype((PyTypeObject *)cls, &udrvpy_RequestType)) {
		PyErr_SetString(PyExc_TypeError, "_request: cls must be a subtype of Request");
		return NULL;
	}
	if (layout != Py_None && !PyObject_TypeCheck(layout, &udrvpy_GpioLayoutType)) {
		PyErr_SetString(PyExc_TypeError, "layout must be a udrv.GpioLayout or None");
		return NULL;
	}
	if (names != Py_None && !PyDict_Check(names)) {
		PyErr_SetString(PyExc_TypeError, "_request: names must be a dict or None");
		return NULL;
	}
	return udrvpy_request_new(CHIP(o), (PyTypeObject *)cls, offsets, settings,
				  names, consumer, backend, layout, (uint32_t)bufsize);
}

static PyObject *chip_reply(PyObject *o, PyObject *const *args, Py_ssize_t nargs)
{
	return udrvpy_reply(&CHIP(o)->replies, args, nargs);
}

static PyMethodDef chip_methods[] = {
	{ "close", chip_close, METH_NOARGS,
	  "close()\n\nClose the chip (requests made from it stay valid). Idempotent." },
	{ "__enter__", chip_enter, METH_NOARGS, NULL },
	{ "__exit__", chip_exit, METH_VARARGS, NULL },
	{ "_line_info", chip_line_info, METH_O, NULL },
	{ "line_offset", chip_line_offset, METH_O,
	  "line_offset(name: str) -> int\n\n"
	  "The offset of the line called name; NotFoundError when the chip has none." },
	{ "_request", chip_request, METH_VARARGS, NULL },
	{ "_respond", udrvpy_chip_respond, METH_VARARGS, NULL },
	{ "reply", UDRVPY_METH(chip_reply), METH_FASTCALL,
	  "reply(line: int, level: bool) -> None\n\n"
	  "From respond()'s callback: reply line `line` (an offset of its replies=) goes to "
	  "`level` (raw) when the callback returns, written by udrv-irq with its next wait." },
	{ "_watch_line_info", chip_watch_line_info, METH_O, NULL },
	{ "_unwatch_line_info", chip_unwatch_line_info, METH_O, NULL },
	{ "fileno", chip_fileno, METH_NOARGS,
	  "fileno() -> int\n\n"
	  "The chip's descriptor: readable when a watched line's info changed\n"
	  "(selectors, asyncio). OSError without a character device." },
	{ "wait_info_event", (PyCFunction)(void (*)(void))chip_wait_info_event,
	  METH_VARARGS | METH_KEYWORDS,
	  "wait_info_event(timeout: float | None = None) -> bool\n\n"
	  "Wait up to timeout seconds (None: forever, 0: poll) for a change of a\n"
	  "watched line's info; True when one is pending." },
	{ "_read_info_event", chip_read_info_event, METH_NOARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef chip_getset[] = {
	{ "name", chip_get_str, NULL, "the chip's name, \"gpiochip0\"", (void *)&get_name },
	{ "label", chip_get_str, NULL, "the chip's label (its driver's name for it)",
	  (void *)&get_label },
	{ "path", chip_get_str, NULL, "the character device, \"/dev/gpiochip0\"",
	  (void *)&get_path },
	{ "num_lines", chip_get_num_lines, NULL, "the number of lines", NULL },
	{ "has_cdev", chip_get_has_cdev, NULL,
	  "whether the chip has a character device (False: sysfs only)", NULL },
	{ "sysfs_base", chip_get_sysfs_base, NULL,
	  "the sysfs GPIO number of offset 0, or None without sysfs GPIO", NULL },
	{ "closed", chip_get_closed, NULL, "whether close() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_ChipType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.Chip",
	.tp_basicsize = sizeof(struct udrvpy_chip),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.Chip.",
	.tp_new = chip_new,
	.tp_dealloc = chip_dealloc,
	.tp_repr = chip_repr,
	.tp_methods = chip_methods,
	.tp_getset = chip_getset,
};

int udrvpy_chip_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_ChipType) < 0)
		return -1;
	Py_INCREF(&udrvpy_ChipType);
	return PyModule_AddObject(m, "Chip", (PyObject *)&udrvpy_ChipType);
}
