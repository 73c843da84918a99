// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * SPI: a spidev device (struct udrv_spi): its mode, word size and clock,
 * full-duplex transfers and messages of several transfers, the bytes
 * received written into the caller's buffers or a new bytes object (no
 * copies). One thread at a time uses the handle; the ioctls run with the
 * GIL released. Arguments are checked here, before anything is sent or
 * set; the library's refusals (a mode the controller lacks, more bytes
 * than spidev's buffer) raise udrv.Error with its message. The package's
 * udrv.SPI subclasses it (message() of udrv.SPITransfer).
 */
#include "udrv_py.h"

#include <string.h>

struct udrvpy_spi {
	PyObject_HEAD
	struct udrv_spi *spi;		/* NULL once closed */
	struct udrvpy_busy busy;	/* held by the thread using spi */
};

#define SPI(o)	((struct udrvpy_spi *)(o))
#define SPEED_HZ_MAX	1000000000u

static int spi_begin(struct udrvpy_spi *self)
{
	udrvpy_hold(&self->busy);
	return udrvpy_taken(&self->busy, self->spi, "SPI device");
}

static void spi_end(struct udrvpy_spi *self)
{
	udrvpy_give(&self->busy);
}

static int spi_fail(struct udrvpy_spi *self, int ret)
{
	udrvpy_raise(ret, udrv_spi_errmsg(self->spi));
	spi_end(self);
	return -1;
}

/* (spec) or (bus, cs) -> bytes: "B.C", a node's path or a device's name */
static PyObject *spec_bytes(PyObject *spec, PyObject *cs)
{
	unsigned long long b, c;
	char bc[48];

	if (cs != Py_None || (PyLong_Check(spec) && !PyBool_Check(spec))) {
		if (cs == Py_None) {
			PyErr_SetString(PyExc_TypeError,
					"SPI(bus, cs): a bus number needs its chip select (or SPI(\"B.C\"))");
			return NULL;
		}
		if (udrvpy_uint_arg(spec, "bus", INT32_MAX, &b) < 0 ||
		    udrvpy_uint_arg(cs, "cs", INT32_MAX, &c) < 0)
			return NULL;
		snprintf(bc, sizeof(bc), "%llu.%llu", b, c);	/* no %llu in 3.11's */
		return PyBytes_FromString(bc);
	}
	return udrvpy_spec_bytes(spec, "device", "\"B.C\", a node's path or a device's name");
}

static void spi_free(struct udrvpy_spi *self)
{
	if (self->spi) {
		udrv_spi_close(self->spi);
		udrv_spi_free(self->spi);
		self->spi = NULL;
	}
}

static PyObject *spi_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "device", "cs", NULL };
	PyObject *spec, *cs = Py_None, *b;
	struct udrvpy_spi *self;
	int ret;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:SPI", kwlist, &spec, &cs))
		return NULL;
	b = spec_bytes(spec, cs);
	if (!b)
		return NULL;
	self = (struct udrvpy_spi *)cls->tp_alloc(cls, 0);
	if (!self)
		goto fail;
	if (udrvpy_busy_init(&self->busy) < 0)
		goto fail;
	self->spi = udrv_spi_new();
	if (!self->spi) {
		PyErr_NoMemory();
		goto fail;
	}
	ret = udrv_spi_open(self->spi, PyBytes_AS_STRING(b));
	if (ret < 0) {
		udrvpy_raise(ret, udrv_spi_errmsg(self->spi));
		goto fail;
	}
	Py_DECREF(b);
	return (PyObject *)self;
fail:
	Py_DECREF(b);
	Py_XDECREF(self);
	return NULL;
}

static void spi_dealloc(PyObject *o)
{
	spi_free(SPI(o));
	udrvpy_busy_free(&SPI(o)->busy);
	Py_TYPE(o)->tp_free(o);
}

static PyObject *spi_close(PyObject *o, PyObject *unused)
{
	udrvpy_hold(&SPI(o)->busy);	/* after another thread's transfer */
	spi_free(SPI(o));
	udrvpy_give(&SPI(o)->busy);
	Py_RETURN_NONE;
}

static PyObject *spi_enter(PyObject *o, PyObject *unused)
{
	if (!SPI(o)->spi)
		return udrvpy_released("SPI device");
	Py_INCREF(o);
	return o;
}

static PyObject *spi_exit(PyObject *o, PyObject *args)
{
	return spi_close(o, NULL);
}

static PyObject *spi_repr(PyObject *o)
{
	struct udrv_spi *s = SPI(o)->spi;

	if (!s)
		return PyUnicode_FromFormat("<%s (closed)>", Py_TYPE(o)->tp_name);
	return PyUnicode_FromFormat("<%s spidev%u.%u mode %u, %u bits, %u Hz>",
				    Py_TYPE(o)->tp_name, udrv_spi_bus(s), udrv_spi_cs(s),
				    (unsigned int)(udrv_spi_mode(s) & UDRV_SPI_MODE_3),
				    udrv_spi_bits_per_word(s),
				    (unsigned int)udrv_spi_max_speed_hz(s));
}

/* ---- settings ---- */

/* what a getter answers: a library getter, or bits of the mode */
enum spi_attr { BUS, CS, FD, MODE, BITS, SPEED };

static PyObject *spi_get(PyObject *o, void *closure)
{
	struct udrv_spi *s = SPI(o)->spi;

	if (!s)
		return udrvpy_released("SPI device");
	switch ((enum spi_attr)(uintptr_t)closure) {
	case BUS:
		return PyLong_FromUnsignedLong(udrv_spi_bus(s));
	case CS:
		return PyLong_FromUnsignedLong(udrv_spi_cs(s));
	case FD:
		return PyLong_FromLong(udrv_spi_fd(s));
	case MODE:
		return PyLong_FromUnsignedLong(udrv_spi_mode(s) & UDRV_SPI_MODE_3);
	case BITS:
		return PyLong_FromUnsignedLong(udrv_spi_bits_per_word(s));
	case SPEED:
		return PyLong_FromUnsignedLong(udrv_spi_max_speed_hz(s));
	}
	Py_RETURN_NONE;
}

static PyObject *spi_fileno(PyObject *o, PyObject *unused)
{
	return spi_get(o, (void *)(uintptr_t)FD);
}

static PyObject *spi_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!SPI(o)->spi);
}

static PyObject *spi_get_flag(PyObject *o, void *closure)
{
	if (!SPI(o)->spi)
		return udrvpy_released("SPI device");
	return PyBool_FromLong(udrv_spi_mode(SPI(o)->spi) & (uint32_t)(uintptr_t)closure);
}

/* The mode with @clear cleared and @set set, given to the library */
static int change_mode(struct udrvpy_spi *self, uint32_t clear, uint32_t set)
{
	uint32_t mode;
	int ret;

	if (spi_begin(self) < 0)
		return -1;
	mode = (udrv_spi_mode(self->spi) & ~clear) | set;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_spi_set_mode(self->spi, mode);
	Py_END_ALLOW_THREADS
	if (ret < 0)
		return spi_fail(self, ret);
	spi_end(self);
	return 0;
}

static int spi_set_flag(PyObject *o, PyObject *value, void *closure)
{
	uint32_t bit = (uint32_t)(uintptr_t)closure;
	int on;

	if (udrvpy_no_delete(value, "a mode flag") < 0)
		return -1;
	on = udrvpy_bool_arg(value, "a mode flag");
	if (on < 0)
		return -1;
	return change_mode(SPI(o), bit, on ? bit : 0);
}

static int spi_set_mode(PyObject *o, PyObject *value, void *unused)
{
	unsigned long long mode;

	if (udrvpy_no_delete(value, "mode") < 0 || udrvpy_uint_arg(value, "mode", 3, &mode) < 0)
		return -1;
	return change_mode(SPI(o), UDRV_SPI_MODE_3, (uint32_t)mode);
}

static int spi_set_bits(PyObject *o, PyObject *value, void *unused)
{
	unsigned long long bits;
	int ret;

	if (udrvpy_no_delete(value, "bits_per_word") < 0 ||
	    udrvpy_uint_arg(value, "bits_per_word", 32, &bits) < 0)
		return -1;
	if (bits == 0) {
		PyErr_SetString(PyExc_ValueError, "bits_per_word must be 1..32, not 0");
		return -1;
	}
	if (spi_begin(SPI(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_spi_set_bits_per_word(SPI(o)->spi, (unsigned int)bits);
	Py_END_ALLOW_THREADS
	if (ret < 0)
		return spi_fail(SPI(o), ret);
	spi_end(SPI(o));
	return 0;
}

static int spi_set_speed(PyObject *o, PyObject *value, void *unused)
{
	unsigned long long hz;
	int ret;

	if (udrvpy_no_delete(value, "max_speed_hz") < 0 ||
	    udrvpy_uint_arg(value, "max_speed_hz", SPEED_HZ_MAX, &hz) < 0)
		return -1;
	if (hz == 0) {
		PyErr_SetString(PyExc_ValueError, "max_speed_hz must be 1..1000000000, not 0");
		return -1;
	}
	if (spi_begin(SPI(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_spi_set_max_speed_hz(SPI(o)->spi, (uint32_t)hz);
	Py_END_ALLOW_THREADS
	if (ret < 0)
		return spi_fail(SPI(o), ret);
	spi_end(SPI(o));
	return 0;
}

/* ---- transfers ---- */

/* One transfer's bytes, held until the message is over */
struct xfer_arg {
	struct udrvpy_data tx;
	Py_buffer rx;
	bool has_tx, has_rx;
};

static void xfers_release(struct xfer_arg *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i].has_tx)
			udrvpy_data_release(&a[i].tx);
		if (a[i].has_rx)
			PyBuffer_Release(&a[i].rx);
	}
}

/* The message @x[@n] on @self's device: its byte count, or -1 with the
 * exception */
static int run_message(struct udrvpy_spi *self, const struct udrv_spi_xfer *x, size_t n)
{
	int ret;

	if (spi_begin(self) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_spi_message(self->spi, x, n);
	Py_END_ALLOW_THREADS
	if (ret < 0)
		return spi_fail(self, ret);
	spi_end(self);
	return ret;
}

/* One transfer (udrv_spi_transfer(): the library's shorter way for one) of
 * @len bytes, @tx sent and @rx filled (NULL: zeros, dropped): 0, or -1
 * with the exception */
static int run_transfer(struct udrvpy_spi *self, const void *tx, void *rx, size_t len)
{
	int ret;

	if (spi_begin(self) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_spi_transfer(self->spi, tx, rx, len);
	Py_END_ALLOW_THREADS
	if (ret < 0)
		return spi_fail(self, ret);
	spi_end(self);
	return 0;
}

static int length_ok(Py_ssize_t len, const char *what)
{
	if (len >= 1 && (unsigned long long)len <= UINT32_MAX)
		return 0;
	PyErr_Format(PyExc_ValueError, "%s: 1 byte or more (an SPI transfer sends some), not %zd",
		     what, len);
	return -1;
}

/* One transfer of @tx_o (None: zeros, @len bytes) into @rx_o (None: a new
 * bytes object returned; False: dropped) */
static PyObject *one_transfer(PyObject *o, PyObject *tx_o, PyObject *rx_o, Py_ssize_t len)
{
	struct xfer_arg a;
	PyObject *res = NULL;
	void *rx;

	a.has_tx = a.has_rx = false;
	if (tx_o != Py_None) {
		if (udrvpy_data_arg(tx_o, "tx", 0, &a.tx) < 0)
			return NULL;
		a.has_tx = true;
		len = a.tx.view.len;
	}
	if (rx_o != Py_None && rx_o != Py_False) {
		if (udrvpy_into_arg(rx_o, "rx", 0, &a.rx) < 0)
			goto out;
		a.has_rx = true;
		if (a.has_tx && a.rx.len != len) {
			PyErr_Format(PyExc_ValueError,
				     "rx must be as long as tx (%zd bytes), not %zd bytes", len,
				     a.rx.len);
			goto out;
		}
		len = a.rx.len;
	}
	if (length_ok(len, a.has_tx ? "tx" : "rx") < 0)
		goto out;
	if (rx_o == Py_None) {
		res = PyBytes_FromStringAndSize(NULL, len);
		if (!res)
			goto out;
	}
	rx = res ? PyBytes_AS_STRING(res) : a.has_rx ? a.rx.buf : NULL;
	if (run_transfer(SPI(o), a.has_tx ? a.tx.view.buf : NULL, rx, (size_t)len) < 0) {
		Py_CLEAR(res);
	} else if (!res) {
		res = Py_None;
		Py_INCREF(res);
	}
out:
	xfers_release(&a, 1);
	return res;
}

/* transfer(tx, rx=None): the positional calls parsed here, the others
 * (keywords) as PyArg_ParseTupleAndKeywords() parses them */
static PyObject *spi_transfer(PyObject *o, PyObject *const *args, Py_ssize_t nargs,
			      PyObject *kwnames)
{
	static char *kwlist[] = { "tx", "rx", NULL };
	PyObject *tx, *rx = Py_None;

	if (!kwnames && (nargs == 1 || nargs == 2)) {
		tx = args[0];
		if (nargs == 2)
			rx = args[1];
	} else if (udrvpy_parse_kw(args, nargs, kwnames, "O|O:transfer", kwlist, &tx, &rx) < 0) {
		return NULL;
	}
	if (tx == Py_None) {
		PyErr_SetString(PyExc_TypeError,
				"tx must be a bytes-like object or a list of ints 0..255, not None "
				"(read() or readinto() receive only)");
		return NULL;
	}
	if (rx == Py_False) {
		PyErr_SetString(PyExc_TypeError, "rx must be a writable buffer or None (write() "
				"drops what comes back)");
		return NULL;
	}
	return one_transfer(o, tx, rx, 0);
}

static PyObject *spi_read(PyObject *o, PyObject *arg)
{
	unsigned long long len;

	if (udrvpy_uint_arg(arg, "length", UINT32_MAX, &len) < 0)
		return NULL;
	if (len == 0) {
		PyErr_SetString(PyExc_ValueError, "length must be 1..4294967295, not 0");
		return NULL;
	}
	return one_transfer(o, Py_None, Py_None, (Py_ssize_t)len);
}

static PyObject *spi_readinto(PyObject *o, PyObject *buf)
{
	PyObject *res = one_transfer(o, Py_None, buf, 0);
	Py_buffer view;

	if (!res)
		return NULL;
	Py_DECREF(res);
	if (PyObject_GetBuffer(buf, &view, PyBUF_SIMPLE) < 0)
		return NULL;
	res = PyLong_FromSsize_t(view.len);
	PyBuffer_Release(&view);
	return res;
}

static PyObject *spi_write(PyObject *o, PyObject *data)
{
	return one_transfer(o, data, Py_False, 0);
}

/* An integer field of a transfer tuple, within @max */
static int field(PyObject *v, const char *name, unsigned long long max, unsigned long long *x)
{
	return udrvpy_uint_arg(v, name, max, x);
}

/*
 * Transfer @i: (tx | None, rx | None, length, speed_hz, delay_usecs,
 * bits_per_word, cs_change, word_delay_usecs); tx and rx, when given, are
 * @length bytes (the Python side checked; checked again here).
 */
static int xfer_parse(PyObject *t, size_t i, struct xfer_arg *a, struct udrv_spi_xfer *x)
{
	PyObject *tx, *rx, *f[6];
	unsigned long long v[6];
	static const char *const names[6] = { "length", "speed_hz", "delay_usecs",
					       "bits_per_word", "cs_change", "word_delay_usecs" };
	static const unsigned long long max[6] = { UINT32_MAX, UINT32_MAX, 0xffff, 32, 1, 0xff };

	if (!PyTuple_Check(t) || !PyArg_ParseTuple(t, "OOOOOOOO", &tx, &rx, &f[0], &f[1], &f[2],
						  &f[3], &f[4], &f[5])) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "_message: 8-tuples");
		return -1;
	}
	for (int k = 0; k < 6; k++)
		if (field(f[k], names[k], max[k], &v[k]) < 0)
			return -1;
	if (tx != Py_None) {
		if (udrvpy_data_arg(tx, "transfer %zu's tx", i, &a->tx) < 0)
			return -1;
		a->has_tx = true;
	}
	if (rx != Py_None) {
		if (udrvpy_into_arg(rx, "transfer %zu's rx", i, &a->rx) < 0)
			return -1;
		a->has_rx = true;
	}
	if (v[0] == 0 || (a->has_tx && (unsigned long long)a->tx.view.len != v[0]) ||
	    (a->has_rx && (unsigned long long)a->rx.len != v[0])) {
		PyErr_Format(PyExc_ValueError,
			     "transfer %zu: %llu bytes, its tx %zd and rx %zd: 1 byte or more, "
			     "the buffers as long", i, v[0],
			     a->has_tx ? a->tx.view.len : (Py_ssize_t)0,
			     a->has_rx ? a->rx.len : (Py_ssize_t)0);
		return -1;
	}
	*x = (struct udrv_spi_xfer){
		.tx_buf = a->has_tx ? (uint64_t)(uintptr_t)a->tx.view.buf : 0,
		.rx_buf = a->has_rx ? (uint64_t)(uintptr_t)a->rx.buf : 0,
		.len = (uint32_t)v[0], .speed_hz = (uint32_t)v[1],
		.delay_usecs = (uint16_t)v[2], .bits_per_word = (uint8_t)v[3],
		.cs_change = (uint8_t)v[4], .word_delay_usecs = (uint8_t)v[5],
	};
	return 0;
}

/* _message(transfers: tuple of xfer_parse()'s tuples) -> int */
static PyObject *spi_message(PyObject *o, PyObject *xfers)
{
	struct udrv_spi_xfer *x = NULL;
	struct xfer_arg *a = NULL;
	PyObject *res = NULL;
	Py_ssize_t n;
	int ret;

	if (!PyTuple_Check(xfers)) {
		PyErr_SetString(PyExc_TypeError, "_message: a tuple of transfers");
		return NULL;
	}
	n = PyTuple_GET_SIZE(xfers);
	if (n < 1 || n > UDRV_SPI_XFERS_MAX) {
		PyErr_Format(PyExc_ValueError, "a message is 1..%d transfers, not %zd",
			     UDRV_SPI_XFERS_MAX, n);
		return NULL;
	}
	x = PyMem_Calloc((size_t)n, sizeof(*x));
	a = PyMem_Calloc((size_t)n, sizeof(*a));
	if (!x || !a) {
		PyErr_NoMemory();
		goto out;
	}
	for (Py_ssize_t i = 0; i < n; i++)
		if (xfer_parse(PyTuple_GET_ITEM(xfers, i), (size_t)i, &a[i], &x[i]) < 0)
			goto out;
	ret = run_message(SPI(o), x, (size_t)n);
	if (ret >= 0)
		res = PyLong_FromLong(ret);
out:
	if (a)
		xfers_release(a, (size_t)n);
	PyMem_Free(a);
	PyMem_Free(x);
	return res;
}

static PyMethodDef spi_methods[] = {
	{ "close", spi_close, METH_NOARGS,
	  "close() -> None\n\nClose the device (after a transfer another thread has under way). "
	  "Idempotent." },
	{ "__enter__", spi_enter, METH_NOARGS, NULL },
	{ "__exit__", spi_exit, METH_VARARGS, NULL },
	{ "fileno", spi_fileno, METH_NOARGS, "fileno() -> int\n\nThe spidev node's descriptor." },
	{ "transfer", UDRVPY_METH(spi_transfer), METH_FASTCALL | METH_KEYWORDS,
	  "transfer(tx: Buffer | list[int], rx: WritableBuffer | None = None) -> bytes | None\n\n"
	  "One full-duplex transfer, the chip select held throughout: tx sent, as many bytes\n"
	  "received: into rx (as long as tx; returns None) or returned as bytes." },
	{ "read", spi_read, METH_O,
	  "read(length: int) -> bytes\n\nOne transfer of length bytes, zeros sent." },
	{ "readinto", spi_readinto, METH_O,
	  "readinto(buffer: WritableBuffer) -> int\n\nOne transfer filling buffer, zeros sent; "
	  "returns its length." },
	{ "write", spi_write, METH_O,
	  "write(data: Buffer | list[int]) -> None\n\nOne transfer of data, what comes back "
	  "dropped." },
	{ "_message", spi_message, METH_O, NULL },
	{ NULL, NULL, 0, NULL }
};

#define ATTR(a)	((void *)(uintptr_t)(a))

static PyGetSetDef spi_getset[] = {
	{ "bus", spi_get, NULL, "the bus number (B of spidevB.C)", ATTR(BUS) },
	{ "cs", spi_get, NULL, "the chip select (C of spidevB.C)", ATTR(CS) },
	{ "mode", spi_get, spi_set_mode, "the clock mode, 0..3 (CPOL << 1 | CPHA)", ATTR(MODE) },
	{ "bits_per_word", spi_get, spi_set_bits, "the word size, 1..32 bits", ATTR(BITS) },
	{ "max_speed_hz", spi_get, spi_set_speed,
	  "the clock's maximum, 1..1000000000 Hz (what spidev keeps: the controller may "
	  "round it down)", ATTR(SPEED) },
	{ "lsb_first", spi_get_flag, spi_set_flag, "words sent least significant bit first",
	  ATTR(UDRV_SPI_LSB_FIRST) },
	{ "cs_high", spi_get_flag, spi_set_flag, "the chip select active high",
	  ATTR(UDRV_SPI_CS_HIGH) },
	{ "three_wire", spi_get_flag, spi_set_flag, "MOSI and MISO on one wire (SPI_3WIRE)",
	  ATTR(UDRV_SPI_3WIRE) },
	{ "loop", spi_get_flag, spi_set_flag, "the controller's loopback (SPI_LOOP)",
	  ATTR(UDRV_SPI_LOOP) },
	{ "no_cs", spi_get_flag, spi_set_flag, "no chip select (SPI_NO_CS)",
	  ATTR(UDRV_SPI_NO_CS) },
	{ "closed", spi_get_closed, NULL, "whether close() was called", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_SPIType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.SPI",
	.tp_basicsize = sizeof(struct udrvpy_spi),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.SPI.",
	.tp_new = spi_new,
	.tp_dealloc = spi_dealloc,
	.tp_repr = spi_repr,
	.tp_methods = spi_methods,
	.tp_getset = spi_getset,
};

int udrvpy_spi_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_SPIType) < 0)
		return -1;
	Py_INCREF(&udrvpy_SPIType);
	return PyModule_AddObject(m, "SPI", (PyObject *)&udrvpy_SPIType);
}
