// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Uio: a UIO device (struct udrv_uio): its maps and ports, mappings as
 * Regions, interrupt waits (the GIL released, in slices like Request's,
 * so that Ctrl-C and a close() from another thread take effect), irqcontrol
 * and PCI INTx unmasking. The package's udrv.Uio subclasses it (maps and
 * ports as dataclasses).
 */
#include "udrv_py.h"

#include <string.h>
#include <time.h>

#define SLICE_MS	200

struct udrvpy_uio {
	PyObject_HEAD
	struct udrv_uio *uio;		/* NULL once closed */
	int busy;			/* a thread waits */
	bool close_pending;
};

#define UIO(o)	((struct udrvpy_uio *)(o))

static int uio_ok(struct udrvpy_uio *self)
{
	if (self->uio)
		return 1;
	udrvpy_released("UIO device");
	return 0;
}

static PyObject *uio_error(struct udrvpy_uio *self, int ret)
{
	return udrvpy_raise(ret, udrv_uio_errmsg(self->uio));
}

static PyObject *uio_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "spec", NULL };
	struct udrvpy_uio *self;
	PyObject *spec;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&:Uio", kwlist, PyUnicode_FSConverter,
					 &spec))
		return NULL;
	self = (struct udrvpy_uio *)cls->tp_alloc(cls, 0);
	if (!self)
		goto fail;
	self->uio = udrv_uio_new();
	if (!self->uio) {
		PyErr_NoMemory();
		goto fail;
	}
	ret = udrv_uio_open(self->uio, PyBytes_AS_STRING(spec));
	if (ret < 0) {
		uio_error(self, ret);
		goto fail;
	}
	Py_DECREF(spec);
	return (PyObject *)self;
fail:
	Py_DECREF(spec);
	Py_XDECREF(self);
	return NULL;
}

static void uio_free(struct udrvpy_uio *self)
{
	if (self->uio) {
		udrv_uio_close(self->uio);
		udrv_uio_free(self->uio);
		self->uio = NULL;
	}
}

static PyObject *uio_close(PyObject *o, PyObject *unused)
{
	if (UIO(o)->busy)
		UIO(o)->close_pending = true;	/* the waiter closes it */
	else
		uio_free(UIO(o));
	Py_RETURN_NONE;
}

static void uio_dealloc(PyObject *o)
{
	uio_free(UIO(o));
	Py_TYPE(o)->tp_free(o);
}

static PyObject *uio_enter(PyObject *o, PyObject *unused)
{
	if (!uio_ok(UIO(o)))
		return NULL;
	Py_INCREF(o);
	return o;
}

static PyObject *uio_exit(PyObject *o, PyObject *args)
{
	return uio_close(o, NULL);
}

static PyObject *uio_repr(PyObject *o)
{
	struct udrv_uio *u = UIO(o)->uio;

	if (!u)
		return PyUnicode_FromFormat("<%s (closed)>", Py_TYPE(o)->tp_name);
	return PyUnicode_FromFormat("<%s %s [%s]>", Py_TYPE(o)->tp_name, udrv_uio_devname(u),
				    udrv_uio_name(u));
}

/* a getter's closure: the library function that answers it */
struct uio_str_fn {
	const char *(*fn)(const struct udrv_uio *);
};
static const struct uio_str_fn get_devname = { udrv_uio_devname };
static const struct uio_str_fn get_name = { udrv_uio_name };
static const struct uio_str_fn get_version = { udrv_uio_version };

static PyObject *uio_get_str(PyObject *o, void *closure)
{
	const struct uio_str_fn *f = closure;

	if (!uio_ok(UIO(o)))
		return NULL;
	return PyUnicode_DecodeFSDefault(f->fn(UIO(o)->uio));
}

static PyObject *uio_get_missed(PyObject *o, void *unused)
{
	if (!uio_ok(UIO(o)))
		return NULL;
	return PyLong_FromUnsignedLongLong(udrv_uio_missed(UIO(o)->uio));
}

static PyObject *uio_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!UIO(o)->uio || UIO(o)->close_pending);
}

static PyObject *uio_fileno(PyObject *o, PyObject *unused)
{
	if (!uio_ok(UIO(o)))
		return NULL;
	return PyLong_FromLong(udrv_uio_fd(UIO(o)->uio));
}

/* _maps() -> [(index, name, addr, size, offset)] */
static PyObject *uio_maps(PyObject *o, PyObject *unused)
{
	struct udrv_uio_map_info mi;
	PyObject *res;
	int n;

	if (!uio_ok(UIO(o)))
		return NULL;
	n = udrv_uio_num_maps(UIO(o)->uio);
	if (n < 0)
		return uio_error(UIO(o), n);
	res = PyList_New(0);
	for (int i = 0; res && i < n; i++) {
		PyObject *t;
		int ret = udrv_uio_map_info(UIO(o)->uio, (unsigned int)i, &mi);

		if (ret < 0) {
			Py_DECREF(res);
			return uio_error(UIO(o), ret);
		}
		t = Py_BuildValue("(IsKKK)", mi.index, mi.name, (unsigned long long)mi.addr,
				  (unsigned long long)mi.size, (unsigned long long)mi.offset);
		if (!t || PyList_Append(res, t) < 0)
			Py_CLEAR(res);
		Py_XDECREF(t);
	}
	return res;
}

/* _ports() -> [(index, name, start, size, porttype)] */
static PyObject *uio_ports(PyObject *o, PyObject *unused)
{
	struct udrv_uio_port_info pi;
	PyObject *res;
	int n;

	if (!uio_ok(UIO(o)))
		return NULL;
	n = udrv_uio_num_ports(UIO(o)->uio);
	if (n < 0)
		return uio_error(UIO(o), n);
	res = PyList_New(0);
	for (int i = 0; res && i < n; i++) {
		PyObject *t;
		int ret = udrv_uio_port_info(UIO(o)->uio, (unsigned int)i, &pi);

		if (ret < 0) {
			Py_DECREF(res);
			return uio_error(UIO(o), ret);
		}
		t = Py_BuildValue("(IsKKs)", pi.index, pi.name, (unsigned long long)pi.start,
				  (unsigned long long)pi.size, pi.porttype);
		if (!t || PyList_Append(res, t) < 0)
			Py_CLEAR(res);
		Py_XDECREF(t);
	}
	return res;
}

static int index_arg(PyObject *arg, const char *name, unsigned int *idx)
{
	unsigned long long v;

	if (udrvpy_uint_arg(arg, name, UINT32_MAX, &v) < 0)
		return -1;
	*idx = (unsigned int)v;
	return 0;
}

static PyObject *uio_map(PyObject *o, PyObject *arg)
{
	struct udrv_region *region = NULL;
	unsigned int idx;
	int ret;

	if (!uio_ok(UIO(o)) || index_arg(arg, "index", &idx) < 0)
		return NULL;
	ret = udrv_uio_map(UIO(o)->uio, idx, &region);
	if (ret < 0)
		return uio_error(UIO(o), ret);
	return udrvpy_region_wrap(region);
}

static PyObject *uio_pci_map_bar(PyObject *o, PyObject *arg)
{
	struct udrv_region *region = NULL;
	unsigned int bar;
	int ret;

	if (!uio_ok(UIO(o)) || index_arg(arg, "bar", &bar) < 0)
		return NULL;
	ret = udrv_uio_pci_map_bar(UIO(o)->uio, bar, &region);
	if (ret < 0)
		return uio_error(UIO(o), ret);
	return udrvpy_region_wrap(region);
}

static PyObject *uio_wait(PyObject *o, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "timeout", NULL };
	struct udrvpy_uio *self = UIO(o);
	PyObject *timeout = Py_None;
	struct udrv_uio_irq irq;
	long long ms, end;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:wait", kwlist, &timeout))
		return NULL;
	if (!uio_ok(self) || udrvpy_timeout_ms(timeout, &ms) < 0)
		return NULL;
	if (self->busy) {
		PyErr_SetString(PyExc_RuntimeError,
				"another thread is waiting on this UIO device: one waiter at a time");
		return NULL;
	}
	end = ms > 0 ? udrvpy_now_ms() + ms : 0;
	self->busy = 1;
	for (;;) {
		int slice = ms < 0 || ms > SLICE_MS ? SLICE_MS : (int)ms;

		Py_BEGIN_ALLOW_THREADS
		ret = udrv_uio_wait(self->uio, slice, &irq);
		Py_END_ALLOW_THREADS
		if (ret != 0 || self->close_pending)
			break;
		if (PyErr_CheckSignals() < 0) {
			self->busy = 0;
			return NULL;
		}
		if (ms == 0 || (ms > 0 && (ms = end - udrvpy_now_ms()) <= 0))
			break;
	}
	self->busy = 0;
	if (self->close_pending) {
		self->close_pending = false;
		uio_free(self);
		return udrvpy_released("UIO device");
	}
	if (ret < 0)
		return uio_error(self, ret);
	if (ret == 0)
		Py_RETURN_NONE;
	return udrvpy_uio_irq(&irq);
}

static PyObject *uio_irq_enable(PyObject *o, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "on", NULL };
	int on = 1, ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|p:irq_enable", kwlist, &on))
		return NULL;
	if (!uio_ok(UIO(o)))
		return NULL;
	ret = udrv_uio_irq_enable(UIO(o)->uio, on);
	if (ret < 0)
		return uio_error(UIO(o), ret);
	Py_RETURN_NONE;
}

static PyObject *uio_pci_intx_unmask(PyObject *o, PyObject *unused)
{
	int ret;

	if (!uio_ok(UIO(o)))
		return NULL;
	ret = udrv_uio_pci_intx_unmask(UIO(o)->uio);
	if (ret < 0)
		return uio_error(UIO(o), ret);
	Py_RETURN_NONE;
}

static PyMethodDef uio_methods[] = {
	{ "close", uio_close, METH_NOARGS,
	  "close() -> None\n\nClose the device (Regions mapped from it stay valid). Idempotent." },
	{ "__enter__", uio_enter, METH_NOARGS, NULL },
	{ "__exit__", uio_exit, METH_VARARGS, NULL },
	{ "fileno", uio_fileno, METH_NOARGS,
	  "fileno() -> int\n\nThe device's file descriptor (readable when an interrupt came)." },
	{ "_maps", uio_maps, METH_NOARGS, NULL },
	{ "_ports", uio_ports, METH_NOARGS, NULL },
	{ "map", uio_map, METH_O,
	  "map(index: int) -> Region\n\nMap memory region index (valid until unmapped, also "
	  "after close())." },
	{ "pci_map_bar", uio_pci_map_bar, METH_O,
	  "pci_map_bar(bar: int) -> Region\n\nMap a PCI device's BAR through sysfs "
	  "(device/resourceN)." },
	{ "wait", UDRVPY_METH(uio_wait), METH_VARARGS | METH_KEYWORDS,
	  "wait(timeout: float | None = None) -> UioIrq | None\n\n"
	  "Wait up to timeout seconds (None: forever) for an interrupt: its count, delta and "
	  "missed, or None on timeout. Releases the GIL; Ctrl-C raises KeyboardInterrupt." },
	{ "irq_enable", UDRVPY_METH(uio_irq_enable), METH_VARARGS | METH_KEYWORDS,
	  "irq_enable(on: bool = True) -> None\n\nEnable or disable the interrupt (irqcontrol)." },
	{ "pci_intx_unmask", uio_pci_intx_unmask, METH_NOARGS,
	  "pci_intx_unmask() -> None\n\nClear INTx disable in the PCI command register "
	  "(uio_pci_generic masks it on every interrupt)." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef uio_getset[] = {
	{ "devname", uio_get_str, NULL, "\"uio0\"", (void *)&get_devname },
	{ "name", uio_get_str, NULL, "the driver's name for the device", (void *)&get_name },
	{ "version", uio_get_str, NULL, "the driver's version string", (void *)&get_version },
	{ "missed", uio_get_missed, NULL, "interrupts missed so far (count deltas > 1)", NULL },
	{ "closed", uio_get_closed, NULL, "whether close() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_UioType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.Uio",
	.tp_basicsize = sizeof(struct udrvpy_uio),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.Uio.",
	.tp_new = uio_new,
	.tp_dealloc = uio_dealloc,
	.tp_repr = uio_repr,
	.tp_methods = uio_methods,
	.tp_getset = uio_getset,
};

int udrvpy_uio_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_UioType) < 0)
		return -1;
	Py_INCREF(&udrvpy_UioType);
	return PyModule_AddObject(m, "Uio", (PyObject *)&udrvpy_UioType);
}
