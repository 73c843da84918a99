// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * GpioLayout: a GPIO register block for the mmio backend (struct
 * udrv_gpio_layout), made by GpioLayout.parse("base=...,data=...,...").
 */
#include "udrv_py.h"

#include <stddef.h>
#include <structmember.h>

static PyObject *layout_parse(PyTypeObject *cls, PyObject *arg)
{
	struct udrvpy_layout *self;
	char err[384] = "";
	const char *spec;
	int ret;

	spec = PyUnicode_AsUTF8(arg);
	if (!spec)
		return NULL;
	self = (struct udrvpy_layout *)cls->tp_alloc(cls, 0);
	if (!self)
		return NULL;
	self->layout = (struct udrv_gpio_layout)UDRV_GPIO_LAYOUT_INIT;
	ret = udrv_gpio_layout_parse(spec, &self->layout, err, sizeof(err));
	if (ret < 0) {
		Py_DECREF(self);
		return udrvpy_raise(ret, err);
	}
	return (PyObject *)self;
}

static PyObject *layout_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "spec", NULL };
	PyObject *spec;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "U:GpioLayout", kwlist, &spec))
		return NULL;
	return layout_parse(cls, spec);
}

static PyObject *layout_repr(PyObject *o)
{
	const struct udrv_gpio_layout *l = &((struct udrvpy_layout *)o)->layout;
	char buf[512];

	snprintf(buf, sizeof(buf),
		 "<udrv.GpioLayout base=0x%llx size=%zu width=%u data_in=%d data_out=%d set=%d clear=%d dir=%d%s%s>",
		 (unsigned long long)l->base, l->size, l->width, (int)l->data_in,
		 (int)l->data_out, (int)l->set, (int)l->clear, (int)l->dir,
		 l->map_path[0] ? " map=" : "", l->map_path);
	return PyUnicode_DecodeFSDefault(buf);	/* the map path need not be UTF-8 */
}

#define LMEMBER(name, type, field, doc)	\
	{ name, type, offsetof(struct udrvpy_layout, layout.field), READONLY, doc }

static PyMemberDef layout_members[] = {
	LMEMBER("base", T_ULONGLONG, base, "physical address of the block"),
	LMEMBER("size", T_ULONG, size, "bytes to map (0: what the offsets need)"),
	LMEMBER("width", T_UINT, width, "register width in bits (0: 32)"),
	LMEMBER("data_in", T_INT, data_in, "input level register offset (-1: data_out)"),
	LMEMBER("data_out", T_INT, data_out, "output data register offset"),
	LMEMBER("set", T_INT, set, "write-1-to-set register offset (-1: none)"),
	LMEMBER("clear", T_INT, clear, "write-1-to-clear register offset (-1: none)"),
	LMEMBER("dir", T_INT, dir, "direction register offset (-1: none)"),
	LMEMBER("dir_input_high", T_BOOL, dir_input_high, "in dir, a 1 bit means input"),
	LMEMBER("bank_stride", T_UINT, bank_stride, "bytes between banks (0: one bank)"),
	LMEMBER("map_path", T_STRING_INPLACE, map_path, "file to map instead of searching"),
	LMEMBER("map_offset", T_ULONGLONG, map_offset, "byte offset of the block in map_path"),
	{ NULL, 0, 0, 0, NULL }
};

static PyMethodDef layout_methods[] = {
	{ "parse", (PyCFunction)layout_parse, METH_O | METH_CLASS,
	  "parse(spec: str) -> GpioLayout\n\n"
	  "Parse \"base=0x41200000,data=0x0,dir=0x4,dir-input=1\". Keys: base, size, "
	  "width, data, data-in, data-out, set, clear, dir, dir-input, stride, map, "
	  "map-offset. InvalidError (a ValueError) with the library's message." },
	{ NULL, NULL, 0, NULL }
};

PyTypeObject udrvpy_GpioLayoutType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv.GpioLayout",
	.tp_basicsize = sizeof(struct udrvpy_layout),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "GpioLayout(spec)\n\nThe registers of a GPIO block for Backend.MMIO "
		  "(SoCs udrv does not know, FPGA GPIO cores). Immutable.",
	.tp_new = layout_new,
	.tp_repr = layout_repr,
	.tp_members = layout_members,
	.tp_methods = layout_methods,
};

int udrvpy_layout_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_GpioLayoutType) < 0)
		return -1;
	Py_INCREF(&udrvpy_GpioLayoutType);
	return PyModule_AddObject(m, "GpioLayout", (PyObject *)&udrvpy_GpioLayoutType);
}
