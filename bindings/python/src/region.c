// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Region: a memory mapping (struct udrv_region): UIO maps, PCI BARs, any
 * device file. .mem is a writable memoryview of the mapping through the
 * buffer protocol; the region counts the views it exported and refuses to
 * unmap (BufferError) while one is alive, so a view never outlives the
 * mapping. readN/writeN are single, barriered register accesses, bounds
 * and alignment checked (ValueError).
 */
#include "udrv_py.h"

#include <string.h>

struct udrvpy_region {
	PyObject_HEAD
	struct udrv_region *region;	/* NULL once unmapped */
	struct udrv_mmio mmio;
	Py_ssize_t exports;		/* buffers handed out, not yet released */
};

#define REG(o)	((struct udrvpy_region *)(o))

static int region_ok(struct udrvpy_region *self)
{
	if (self->region)
		return 1;
	udrvpy_released("region");
	return 0;
}

PyObject *udrvpy_region_wrap(struct udrv_region *region)
{
	struct udrvpy_region *self = PyObject_New(struct udrvpy_region, &udrvpy_RegionType);

	if (!self) {
		udrv_region_unmap(region);
		return NULL;
	}
	self->region = region;
	self->mmio = udrv_region_mmio(region);
	self->exports = 0;
	return (PyObject *)self;
}

static PyObject *region_map_file(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "path", "offset", "size", NULL };
	struct udrv_region *region = NULL;
	unsigned long long offset;
	long long size;
	PyObject *path, *off_arg, *size_arg;
	char err[384] = "";
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&OO:map_file", kwlist,
					 PyUnicode_FSConverter, &path, &off_arg, &size_arg))
		return NULL;
	if (udrvpy_uint_arg(off_arg, "offset", UINT64_MAX, &offset) < 0 ||
	    udrvpy_int_arg(size_arg, "size", 1, PY_SSIZE_T_MAX, &size) < 0) {
		Py_DECREF(path);
		return NULL;
	}
	ret = udrv_region_map_file(PyBytes_AS_STRING(path), offset, (size_t)size, &region,
				   err, sizeof(err));
	Py_DECREF(path);
	if (ret < 0)
		return udrvpy_raise(ret, err);
	return udrvpy_region_wrap(region);
}

static int region_getbuffer(PyObject *o, Py_buffer *view, int flags)
{
	struct udrvpy_region *self = REG(o);

	if (!self->region) {
		PyErr_SetString(PyExc_BufferError, "the region is unmapped");
		view->obj = NULL;
		return -1;
	}
	if (PyBuffer_FillInfo(view, o, (void *)self->mmio.base, (Py_ssize_t)self->mmio.size,
			      0, flags) < 0)
		return -1;
	self->exports++;
	return 0;
}

static void region_releasebuffer(PyObject *o, Py_buffer *view)
{
	REG(o)->exports--;
}

static PyBufferProcs region_as_buffer = {
	.bf_getbuffer = region_getbuffer,
	.bf_releasebuffer = region_releasebuffer,
};

static PyObject *region_unmap(PyObject *o, PyObject *unused)
{
	struct udrvpy_region *self = REG(o);

	if (self->exports > 0) {
		PyErr_Format(PyExc_BufferError,
			     "cannot unmap the region: %zd memoryview(s) of it are still alive; "
			     "release them first (view.release(), or a with block)", self->exports);
		return NULL;
	}
	if (self->region) {
		udrv_region_unmap(self->region);
		self->region = NULL;
		memset(&self->mmio, 0, sizeof(self->mmio));
	}
	Py_RETURN_NONE;
}

static void region_dealloc(PyObject *o)
{
	/* no view is alive: each holds a reference to us */
	if (REG(o)->region)
		udrv_region_unmap(REG(o)->region);
	PyObject_Free(o);
}

static PyObject *region_enter(PyObject *o, PyObject *unused)
{
	if (!region_ok(REG(o)))
		return NULL;
	Py_INCREF(o);
	return o;
}

static PyObject *region_exit(PyObject *o, PyObject *args)
{
	return region_unmap(o, NULL);
}

static PyObject *region_get_mem(PyObject *o, void *unused)
{
	if (!region_ok(REG(o)))
		return NULL;
	return PyMemoryView_FromObject(o);
}

static PyObject *region_get_size(PyObject *o, void *unused)
{
	if (!region_ok(REG(o)))
		return NULL;
	return PyLong_FromSize_t(REG(o)->mmio.size);
}

static PyObject *region_get_name(PyObject *o, void *unused)
{
	if (!region_ok(REG(o)))
		return NULL;
	return PyUnicode_DecodeFSDefault(udrv_region_name(REG(o)->region));
}

static PyObject *region_get_exports(PyObject *o, void *unused)
{
	return PyLong_FromSsize_t(REG(o)->exports);
}

static PyObject *region_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!REG(o)->region);
}

/* the offset argument of readN/writeN, checked against size and alignment */
static int access_offset(struct udrvpy_region *self, PyObject *arg, size_t width,
			 size_t *off)
{
	char msg[128];	/* formatted here: PyErr_Format has no %zx before 3.12 */

	if (!region_ok(self))
		return -1;
	*off = PyLong_AsSize_t(arg);
	if (*off == (size_t)-1 && PyErr_Occurred()) {
		if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
			PyErr_Clear();
			PyErr_Format(PyExc_ValueError, "offset %R is outside the region", arg);
		}
		return -1;
	}
	if (*off > self->mmio.size || self->mmio.size - *off < width) {
		snprintf(msg, sizeof(msg),
			 "a %zu-byte access at offset 0x%zx is outside the region (%zu bytes)",
			 width, *off, self->mmio.size);
		PyErr_SetString(PyExc_ValueError, msg);
		return -1;
	}
	if (*off & (width - 1)) {
		snprintf(msg, sizeof(msg), "offset 0x%zx is not aligned to the %zu-byte access",
			 *off, width);
		PyErr_SetString(PyExc_ValueError, msg);
		return -1;
	}
	return 0;
}

#define REGION_ACCESSORS(bits)							\
static PyObject *region_read##bits(PyObject *o, PyObject *arg)			\
{										\
	size_t off;								\
										\
	if (access_offset(REG(o), arg, bits / 8, &off) < 0)			\
		return NULL;							\
	return PyLong_FromUnsignedLongLong(udrv_read##bits(&REG(o)->mmio, off));	\
}										\
static PyObject *region_write##bits(PyObject *o, PyObject *const *args,	\
				    Py_ssize_t nargs)				\
{										\
	unsigned long long v;							\
	size_t off;								\
										\
	if (nargs != 2) {							\
		PyErr_SetString(PyExc_TypeError,				\
				"write" #bits "(offset, value) takes 2 arguments");	\
		return NULL;							\
	}									\
	if (access_offset(REG(o), args[0], bits / 8, &off) < 0)		\
		return NULL;							\
	if (udrvpy_uint_arg(args[1], "value", UINT##bits##_MAX, &v) < 0)	\
		return NULL;							\
	udrv_write##bits(&REG(o)->mmio, off, (uint##bits##_t)v);		\
	Py_RETURN_NONE;								\
}

REGION_ACCESSORS(8)
REGION_ACCESSORS(16)
REGION_ACCESSORS(32)
REGION_ACCESSORS(64)

#define ACCESSOR_DEFS(bits)							\
	{ "read" #bits, region_read##bits, METH_O,				\
	  "read" #bits "(offset: int) -> int\n\nOne " #bits "-bit load (ordered "	\
	  "before later accesses). ValueError outside the region or misaligned." },	\
	{ "write" #bits, UDRVPY_METH(region_write##bits), METH_FASTCALL,	\
	  "write" #bits "(offset: int, value: int) -> None\n\nOne " #bits "-bit store "	\
	  "(ordered after earlier accesses). ValueError outside the region, "	\
	  "misaligned, or a value that does not fit." }

static PyMethodDef region_methods[] = {
	ACCESSOR_DEFS(8),
	ACCESSOR_DEFS(16),
	ACCESSOR_DEFS(32),
	ACCESSOR_DEFS(64),
	{ "unmap", region_unmap, METH_NOARGS,
	  "unmap() -> None\n\nUnmap the region. BufferError while a memoryview of it is alive. "
	  "Idempotent." },
	{ "close", region_unmap, METH_NOARGS, "close() -> None\n\nThe same as unmap()." },
	{ "map_file", UDRVPY_METH(region_map_file), METH_VARARGS | METH_KEYWORDS | METH_CLASS,
	  "map_file(path, offset: int, size: int) -> Region\n\n"
	  "Map size bytes of a device file (/dev/mem, /dev/uioN, a regular file) at byte "
	  "offset (need not be page aligned)." },
	{ "__enter__", region_enter, METH_NOARGS, NULL },
	{ "__exit__", region_exit, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef region_getset[] = {
	{ "mem", region_get_mem, NULL,
	  "a new writable memoryview of the mapping (plain, not volatile, accesses: use "
	  "readN/writeN for registers); unmap() refuses while one is alive", NULL },
	{ "size", region_get_size, NULL, "bytes", NULL },
	{ "name", region_get_name, NULL, "what was mapped (path, map)", NULL },
	{ "exports", region_get_exports, NULL, "memoryviews alive", NULL },
	{ "closed", region_get_closed, NULL, "whether unmap() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_RegionType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv.Region",
	.tp_basicsize = sizeof(struct udrvpy_region),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A memory mapping of a device (Uio.map(), Uio.pci_map_bar(), "
		  "Region.map_file()). A context manager: unmapped on exit.",
	.tp_dealloc = region_dealloc,
	.tp_as_buffer = &region_as_buffer,
	.tp_methods = region_methods,
	.tp_getset = region_getset,
};

int udrvpy_region_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_RegionType) < 0)
		return -1;
	Py_INCREF(&udrvpy_RegionType);
	return PyModule_AddObject(m, "Region", (PyObject *)&udrvpy_RegionType);
}
