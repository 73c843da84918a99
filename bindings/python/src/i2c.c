// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * I2C: an I2C bus through i2c-dev (struct udrv_i2c): the device's address,
 * retries, timeout, PEC, every SMBus transaction and plain I2C transfers
 * (several messages in one I2C_RDWR, their buffers the callers' objects:
 * no copies). One thread at a time uses the handle; the ioctls run with
 * the GIL released. Arguments are checked here, before anything is sent;
 * the library's refusals and the bus's failures raise udrv.Error with its
 * message. The package's udrv.I2C subclasses it (transfer() of
 * udrv.I2CMessage). The SMBus transactions are in i2c_smbus.c, the plain
 * I2C transfers in i2c_rdwr.c.
 */
#include "i2c.h"

/* spec: an int (the bus number), str, bytes or os.PathLike -> bytes */
static PyObject *spec_bytes(PyObject *spec)
{
	PyObject *res = NULL, *s;

	if (PyLong_Check(spec) && !PyBool_Check(spec)) {
		unsigned long long n;

		if (udrvpy_uint_arg(spec, "bus", INT32_MAX, &n) < 0)
			return NULL;
		s = PyObject_Str(spec);
		if (!s)
			return NULL;
		PyUnicode_FSConverter(s, &res);
		Py_DECREF(s);
		return res;
	}
	return udrvpy_spec_bytes(spec, "bus", "a bus number, a node's path or an adapter's name");
}

static int address_flags(PyObject *addr_o, int ten, int force, unsigned int *addr,
			 unsigned int *flags)
{
	unsigned long long a;

	if (udrvpy_uint_arg(addr_o, "address", ten ? 0x3ff : 0x7f, &a) < 0)
		return -1;
	*addr = (unsigned int)a;
	*flags = (ten ? UDRV_I2C_TEN : 0) | (force ? UDRV_I2C_FORCE : 0);
	return 0;
}

/* set_address() with the handle taken: 0, or -1 with the exception */
static int set_address(struct udrvpy_i2c *self, unsigned int addr, unsigned int flags)
{
	int ret = 0;

	Py_BEGIN_ALLOW_THREADS
	ret = udrv_i2c_set_address(self->i2c, addr, flags);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		udrvpy_raise(ret, udrv_i2c_errmsg(self->i2c));
		return -1;
	}
	self->addr = (long)addr;
	self->addr_flags = flags;
	return 0;
}

static void i2c_free(struct udrvpy_i2c *self)
{
	if (self->i2c) {
		udrv_i2c_close(self->i2c);
		udrv_i2c_free(self->i2c);
		self->i2c = NULL;
	}
}

static PyObject *i2c_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "bus", "address", "ten_bit", "force", NULL };
	PyObject *spec, *addr_o = Py_None, *b;
	unsigned int addr = 0, flags = 0;
	struct udrvpy_i2c *self;
	int ten = 0, force = 0, ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$pp:I2C", kwlist, &spec, &addr_o, &ten,
					 &force))
		return NULL;
	if (addr_o != Py_None && address_flags(addr_o, ten, force, &addr, &flags) < 0)
		return NULL;
	b = spec_bytes(spec);
	if (!b)
		return NULL;
	self = (struct udrvpy_i2c *)cls->tp_alloc(cls, 0);
	if (!self)
		goto fail;
	self->addr = self->retries = self->timeout_ms = -1;
	if (udrvpy_busy_init(&self->busy) < 0)
		goto fail;
	self->i2c = udrv_i2c_new();
	if (!self->i2c) {
		PyErr_NoMemory();
		goto fail;
	}
	ret = udrv_i2c_open(self->i2c, PyBytes_AS_STRING(b));
	if (ret < 0) {
		udrvpy_raise(ret, udrv_i2c_errmsg(self->i2c));
		goto fail;
	}
	if (addr_o != Py_None && set_address(self, addr, flags) < 0)
		goto fail;
	Py_DECREF(b);
	return (PyObject *)self;
fail:
	Py_DECREF(b);
	Py_XDECREF(self);
	return NULL;
}

static void i2c_dealloc(PyObject *o)
{
	i2c_free(I2C(o));
	udrvpy_busy_free(&I2C(o)->busy);
	Py_TYPE(o)->tp_free(o);
}

static PyObject *i2c_close(PyObject *o, PyObject *unused)
{
	udrvpy_hold(&I2C(o)->busy);	/* after another thread's transaction */
	i2c_free(I2C(o));
	udrvpy_give(&I2C(o)->busy);
	Py_RETURN_NONE;
}

static PyObject *i2c_enter(PyObject *o, PyObject *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	Py_INCREF(o);
	return o;
}

static PyObject *i2c_exit(PyObject *o, PyObject *args)
{
	return i2c_close(o, NULL);
}

static PyObject *i2c_repr(PyObject *o)
{
	struct udrvpy_i2c *self = I2C(o);
	char addr[32] = "";

	if (!self->i2c)
		return PyUnicode_FromFormat("<%s (closed)>", Py_TYPE(o)->tp_name);
	if (self->addr >= 0)	/* PyUnicode_FromFormat() of 3.11 has no %02x */
		snprintf(addr, sizeof(addr), " address 0x%02lx", self->addr);
	return PyUnicode_FromFormat("<%s i2c-%u [%s]%s>", Py_TYPE(o)->tp_name,
				    udrv_i2c_bus(self->i2c), udrv_i2c_name(self->i2c), addr);
}

/* ---- the bus and its settings ---- */

/* set_address(address, ten_bit=False, force=False): the call with the
 * address alone parsed here, the others by PyArg_ParseTupleAndKeywords() */
static PyObject *i2c_set_address(PyObject *o, PyObject *const *args, Py_ssize_t nargs,
				 PyObject *kwnames)
{
	static char *kwlist[] = { "address", "ten_bit", "force", NULL };
	struct udrvpy_i2c *self = I2C(o);
	unsigned int addr, flags;
	int ten = 0, force = 0;
	PyObject *addr_o;

	if (!kwnames && nargs == 1)
		addr_o = args[0];
	else if (udrvpy_parse_kw(args, nargs, kwnames, "O|pp:set_address", kwlist, &addr_o, &ten,
				 &force) < 0)
		return NULL;
	if (address_flags(addr_o, ten, force, &addr, &flags) < 0 || i2c_begin(self) < 0)
		return NULL;
	if (set_address(self, addr, flags) < 0) {
		i2c_end(self);
		return NULL;
	}
	i2c_end(self);
	Py_RETURN_NONE;
}

static PyObject *i2c_get_address(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	if (I2C(o)->addr < 0)
		Py_RETURN_NONE;
	return PyLong_FromLong(I2C(o)->addr);
}

static int i2c_set_address_attr(PyObject *o, PyObject *value, void *unused)
{
	unsigned int addr, flags;
	int ret;

	if (!value) {
		PyErr_SetString(PyExc_AttributeError, "the address cannot be deleted");
		return -1;
	}
	if (address_flags(value, 0, 0, &addr, &flags) < 0 || i2c_begin(I2C(o)) < 0)
		return -1;
	ret = set_address(I2C(o), addr, flags);
	i2c_end(I2C(o));
	return ret;
}

static PyObject *i2c_get_flag(PyObject *o, void *closure)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	return PyBool_FromLong(I2C(o)->addr >= 0 &&
			       (I2C(o)->addr_flags & (unsigned int)(uintptr_t)closure));
}

static PyObject *i2c_get_bus(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	return PyLong_FromUnsignedLong(udrv_i2c_bus(I2C(o)->i2c));
}

static PyObject *i2c_get_name(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	return PyUnicode_DecodeFSDefault(udrv_i2c_name(I2C(o)->i2c));
}

static PyObject *i2c_get_funcs(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	return PyLong_FromUnsignedLongLong(udrv_i2c_funcs(I2C(o)->i2c));
}

static PyObject *i2c_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!I2C(o)->i2c);
}

static PyObject *i2c_fileno(PyObject *o, PyObject *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	return PyLong_FromLong(udrv_i2c_fd(I2C(o)->i2c));
}

static PyObject *i2c_get_retries(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	if (I2C(o)->retries < 0)
		Py_RETURN_NONE;
	return PyLong_FromLong(I2C(o)->retries);
}

static int i2c_set_retries(PyObject *o, PyObject *value, void *unused)
{
	unsigned long long n;
	int ret;

	if (!value) {
		PyErr_SetString(PyExc_AttributeError, "retries cannot be deleted");
		return -1;
	}
	if (udrvpy_uint_arg(value, "retries", 1000, &n) < 0 || i2c_begin(I2C(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_i2c_set_retries(I2C(o)->i2c, (unsigned int)n);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		i2c_fail(I2C(o), ret);
		return -1;
	}
	I2C(o)->retries = (long)n;
	i2c_end(I2C(o));
	return 0;
}

static PyObject *i2c_get_timeout(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	if (I2C(o)->timeout_ms < 0)
		Py_RETURN_NONE;
	return PyFloat_FromDouble((double)I2C(o)->timeout_ms / 1000.0);
}

static int i2c_set_timeout(PyObject *o, PyObject *value, void *unused)
{
	long long ms;
	int ret;

	if (!value || value == Py_None) {
		PyErr_SetString(PyExc_TypeError,
				"timeout must be a number of seconds, 0.01..600 (the adapter has no wait forever)");
		return -1;
	}
	if (udrvpy_timeout_ms(value, &ms) < 0)
		return -1;
	if (ms < 10 || ms > 600000) {
		PyErr_Format(PyExc_ValueError, "timeout must be 0.01..600 seconds, not %R", value);
		return -1;
	}
	if (i2c_begin(I2C(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_i2c_set_timeout_ms(I2C(o)->i2c, (unsigned int)ms);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		i2c_fail(I2C(o), ret);
		return -1;
	}
	I2C(o)->timeout_ms = (long)((ms + 9) / 10 * 10);	/* the kernel's 10 ms steps */
	i2c_end(I2C(o));
	return 0;
}

static PyObject *i2c_get_pec(PyObject *o, void *unused)
{
	if (!I2C(o)->i2c)
		return udrvpy_released("I2C bus");
	return PyBool_FromLong(I2C(o)->pec);
}

static int i2c_set_pec(PyObject *o, PyObject *value, void *unused)
{
	int on, ret;

	if (!value || !PyBool_Check(value)) {
		PyErr_Format(PyExc_TypeError, "pec must be True or False, not %.100s",
			     value ? Py_TYPE(value)->tp_name : "nothing");
		return -1;
	}
	on = value == Py_True;
	if (i2c_begin(I2C(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_i2c_set_pec(I2C(o)->i2c, on);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		i2c_fail(I2C(o), ret);
		return -1;
	}
	I2C(o)->pec = on;
	i2c_end(I2C(o));
	return 0;
}

static PyMethodDef i2c_methods[] = {
	{ "close", i2c_close, METH_NOARGS,
	  "close() -> None\n\nClose the bus (after a transaction another thread has under way). "
	  "Idempotent." },
	{ "__enter__", i2c_enter, METH_NOARGS, NULL },
	{ "__exit__", i2c_exit, METH_VARARGS, NULL },
	{ "fileno", i2c_fileno, METH_NOARGS, "fileno() -> int\n\nThe i2c-dev node's descriptor." },
	{ "set_address", UDRVPY_METH(i2c_set_address), METH_FASTCALL | METH_KEYWORDS,
	  "set_address(address: int, ten_bit: bool = False, force: bool = False) -> None\n\n"
	  "The device the SMBus calls, read(), write() and messages without an address talk\n"
	  "to: 0x03..0x77 (0..0x7f with force), 0..0x3ff with ten_bit. A device a kernel\n"
	  "driver uses raises BusyError naming it, unless force." },
	{ "write_quick", udrvpy_i2c_write_quick, METH_NOARGS,
	  "write_quick() -> None\n\nSMBus quick command, write bit (what i2cdetect -q sends)." },
	{ "read_quick", udrvpy_i2c_read_quick, METH_NOARGS,
	  "read_quick() -> None\n\nSMBus quick command, read bit." },
	{ "read_byte", udrvpy_i2c_read_byte, METH_NOARGS,
	  "read_byte() -> int\n\nSMBus receive byte." },
	{ "write_byte", udrvpy_i2c_write_byte, METH_O,
	  "write_byte(value: int) -> None\n\nSMBus send byte (0..255)." },
	{ "read_byte_data", udrvpy_i2c_read_byte_data, METH_O,
	  "read_byte_data(register: int) -> int\n\nSMBus read byte data." },
	{ "write_byte_data", UDRVPY_METH(udrvpy_i2c_write_byte_data), METH_FASTCALL,
	  "write_byte_data(register: int, value: int) -> None\n\nSMBus write byte data." },
	{ "read_word_data", udrvpy_i2c_read_word_data, METH_O,
	  "read_word_data(register: int) -> int\n\nSMBus read word data (low byte first on the "
	  "wire)." },
	{ "write_word_data", UDRVPY_METH(udrvpy_i2c_write_word_data), METH_FASTCALL,
	  "write_word_data(register: int, value: int) -> None\n\nSMBus write word data "
	  "(0..65535)." },
	{ "process_call", UDRVPY_METH(udrvpy_i2c_process_call), METH_FASTCALL,
	  "process_call(register: int, value: int) -> int\n\nSMBus process call: a word sent, "
	  "the device's word back." },
	{ "read_block_data", udrvpy_i2c_read_block_data, METH_O,
	  "read_block_data(register: int) -> bytes\n\nSMBus block read: as many bytes as the "
	  "device says (up to 32)." },
	{ "write_block_data", UDRVPY_METH(udrvpy_i2c_write_block_data), METH_FASTCALL,
	  "write_block_data(register: int, data: Buffer | list[int]) -> None\n\nSMBus block "
	  "write of 1..32 bytes (their count sent first)." },
	{ "block_process_call", UDRVPY_METH(udrvpy_i2c_block_process_call), METH_FASTCALL,
	  "block_process_call(register: int, data: Buffer | list[int]) -> bytes\n\nSMBus block "
	  "process call: a block sent, the device's block back." },
	{ "read_i2c_block_data", UDRVPY_METH(udrvpy_i2c_read_i2c_block_data), METH_FASTCALL,
	  "read_i2c_block_data(register: int, length: int) -> bytes\n\nI2C block read: length "
	  "(1..32) bytes from register on (no count byte)." },
	{ "write_i2c_block_data", UDRVPY_METH(udrvpy_i2c_write_i2c_block_data), METH_FASTCALL,
	  "write_i2c_block_data(register: int, data: Buffer | list[int]) -> None\n\nI2C block "
	  "write: 1..32 bytes from register on." },
	{ "read", udrvpy_i2c_read, METH_O,
	  "read(length: int) -> bytes\n\nOne plain I2C read of length (1..8192) bytes from the "
	  "set address." },
	{ "readinto", udrvpy_i2c_readinto, METH_O,
	  "readinto(buffer: WritableBuffer) -> int\n\nOne plain I2C read from the set address "
	  "into buffer (its length, 1..8192 bytes); returns that length." },
	{ "write", udrvpy_i2c_write, METH_O,
	  "write(data: Buffer | list[int]) -> None\n\nOne plain I2C write of data (1..8192 "
	  "bytes) to the set address." },
	{ "_transfer", udrvpy_i2c_transfer, METH_O, NULL },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef i2c_getset[] = {
	{ "address", i2c_get_address, i2c_set_address_attr,
	  "the device's address (None: none set); setting it is set_address(value)", NULL },
	{ "ten_bit", i2c_get_flag, NULL, "whether the address is a 10-bit one",
	  (void *)(uintptr_t)UDRV_I2C_TEN },
	{ "forced", i2c_get_flag, NULL, "whether the address was set with force",
	  (void *)(uintptr_t)UDRV_I2C_FORCE },
	{ "bus", i2c_get_bus, NULL, "the bus number (N of /dev/i2c-N)", NULL },
	{ "name", i2c_get_name, NULL, "the adapter's name (\"\" when sysfs has none)", NULL },
	{ "funcs", i2c_get_funcs, NULL,
	  "the adapter's functionality: the kernel's I2C_FUNC_* bits", NULL },
	{ "retries", i2c_get_retries, i2c_set_retries,
	  "how often the adapter retries a device that does not answer (0..1000; None: "
	  "never set here)", NULL },
	{ "timeout", i2c_get_timeout, i2c_set_timeout,
	  "how long the adapter waits for the bus, in seconds (0.01..600, in 10 ms steps; "
	  "None: never set here)", NULL },
	{ "pec", i2c_get_pec, i2c_set_pec,
	  "SMBus Packet Error Checking on the next transactions", NULL },
	{ "closed", i2c_get_closed, NULL, "whether close() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_I2CType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.I2C",
	.tp_basicsize = sizeof(struct udrvpy_i2c),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.I2C.",
	.tp_new = i2c_new,
	.tp_dealloc = i2c_dealloc,
	.tp_repr = i2c_repr,
	.tp_methods = i2c_methods,
	.tp_getset = i2c_getset,
};

int udrvpy_i2c_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_I2CType) < 0)
		return -1;
	Py_INCREF(&udrvpy_I2CType);
	return PyModule_AddObject(m, "I2C", (PyObject *)&udrvpy_I2CType);
}
