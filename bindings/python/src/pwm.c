// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * PWM: a channel of a chip of the kernel's PWM class (struct udrv_pwm):
 * its period, duty cycle, polarity and enable, read back and set. One
 * thread at a time uses the handle (struct udrvpy_busy), the sysfs reads
 * and writes run with the GIL released (an I2C PWM controller's write is
 * a bus transfer; an export waits for udev). The package's udrv.PWM
 * subclasses it (frequency, duty_cycle, polarity as udrv.Polarity, the
 * servo helpers).
 */
#include "udrv_py.h"

struct udrvpy_pwm {
	PyObject_HEAD
	struct udrv_pwm *pwm;		/* NULL once closed */
	struct udrvpy_busy busy;	/* held by the thread using pwm */
	bool keep;			/* kept exported at close */
};

#define PWM(o)	((struct udrvpy_pwm *)(o))
#define WHAT	"PWM channel"
#define ATTR(a)	((void *)(uintptr_t)(a))

static int pwm_begin(struct udrvpy_pwm *self)
{
	udrvpy_hold(&self->busy);
	return udrvpy_taken(&self->busy, self->pwm, WHAT);
}

/* Give the handle back; @ret < 0: raise the library's error first */
static int pwm_end(struct udrvpy_pwm *self, int ret)
{
	if (ret < 0)
		udrvpy_raise(ret, udrv_pwm_errmsg(self->pwm));
	udrvpy_give(&self->busy);
	return ret < 0 ? -1 : 0;
}

/* chip: a number (int), or a name, path or parent device (str, bytes,
 * os.PathLike) -> bytes */
static PyObject *chip_bytes(PyObject *chip)
{
	unsigned long long n;
	char num[24];

	if (PyLong_Check(chip) && !PyBool_Check(chip)) {
		if (udrvpy_uint_arg(chip, "chip", INT32_MAX, &n) < 0)
			return NULL;
		snprintf(num, sizeof(num), "%llu", n);
		return PyBytes_FromString(num);
	}
	return udrvpy_spec_bytes(chip, "chip", "a chip's number, name (\"pwmchip0\"), path "
				 "or parent device's name (\"fe20c000.pwm\")");
}

static void pwm_free(struct udrvpy_pwm *self)
{
	struct udrv_pwm *pwm = self->pwm;

	if (!pwm)
		return;
	self->pwm = NULL;
	Py_BEGIN_ALLOW_THREADS
	udrv_pwm_close(pwm);
	Py_END_ALLOW_THREADS
	udrv_pwm_free(pwm);
}

static int pwm_open(struct udrvpy_pwm *self, const char *chip, int channel,
		    unsigned int flags)
{
	int ret;

	self->pwm = udrv_pwm_new();
	if (!self->pwm) {
		PyErr_NoMemory();
		return -1;
	}
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_open(self->pwm, chip, (unsigned int)channel, flags);
	Py_END_ALLOW_THREADS
	if (ret < 0) {
		udrvpy_raise(ret, udrv_pwm_errmsg(self->pwm));
		udrv_pwm_free(self->pwm);
		self->pwm = NULL;
		return -1;
	}
	return 0;
}

/* PWM(chip, channel, *, export=True, keep_exported=False) */
static PyObject *pwm_new(PyTypeObject *cls, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "chip", "channel", "export", "keep_exported", NULL };
	PyObject *chip, *ch, *export = Py_True, *keep = Py_False, *b;
	struct udrvpy_pwm *self = NULL;
	unsigned int flags;
	int channel;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$O!O!:PWM", kwlist, &chip, &ch,
					 &PyBool_Type, &export, &PyBool_Type, &keep))
		return NULL;
	if (udrvpy_not_bool(ch, "channel") < 0 ||
	    udrvpy_int_arg_int(ch, "channel", 0, INT32_MAX, &channel) < 0)
		return NULL;
	b = chip_bytes(chip);
	if (!b)
		return NULL;
	flags = (export == Py_False ? UDRV_PWM_NO_EXPORT : 0) |
		(keep == Py_True ? UDRV_PWM_KEEP_EXPORTED : 0);
	self = (struct udrvpy_pwm *)cls->tp_alloc(cls, 0);
	if (!self || udrvpy_busy_init(&self->busy) < 0 ||
	    pwm_open(self, PyBytes_AS_STRING(b), channel, flags) < 0)
		Py_CLEAR(self);
	else
		self->keep = keep == Py_True;
	Py_DECREF(b);
	return (PyObject *)self;
}

static void pwm_dealloc(PyObject *o)
{
	pwm_free(PWM(o));
	udrvpy_busy_free(&PWM(o)->busy);
	Py_TYPE(o)->tp_free(o);
}

static PyObject *pwm_close(PyObject *o, PyObject *unused)
{
	udrvpy_hold(&PWM(o)->busy);	/* after another thread's call */
	pwm_free(PWM(o));
	udrvpy_give(&PWM(o)->busy);
	Py_RETURN_NONE;
}

static PyObject *pwm_enter(PyObject *o, PyObject *unused)
{
	if (!PWM(o)->pwm)
		return udrvpy_released(WHAT);
	Py_INCREF(o);
	return o;
}

static PyObject *pwm_exit(PyObject *o, PyObject *args)
{
	return pwm_close(o, NULL);
}

static PyObject *pwm_repr(PyObject *o)
{
	struct udrv_pwm *p = PWM(o)->pwm;

	if (!p)
		return PyUnicode_FromFormat("<%s (closed)>", Py_TYPE(o)->tp_name);
	return PyUnicode_FromFormat("<%s pwmchip%u channel %d>", Py_TYPE(o)->tp_name,
				    udrv_pwm_chip_number(p), udrv_pwm_channel(p));
}

/* ---- what the handle knows ---- */

enum pwm_attr { CHIP_NUMBER, NPWM, DEVICE, CHANNEL, OWNS_EXPORT, PERIOD, DUTY };

static PyObject *pwm_get_info(PyObject *o, void *closure)
{
	struct udrv_pwm *p = PWM(o)->pwm;

	if (!p)
		return udrvpy_released(WHAT);
	switch ((enum pwm_attr)(uintptr_t)closure) {
	case CHIP_NUMBER:
		return PyLong_FromUnsignedLong(udrv_pwm_chip_number(p));
	case NPWM:
		return PyLong_FromUnsignedLong(udrv_pwm_npwm(p));
	case DEVICE:
		return PyUnicode_DecodeFSDefault(udrv_pwm_device(p));
	case CHANNEL:
		return PyLong_FromLong(udrv_pwm_channel(p));
	case OWNS_EXPORT:
		return PyBool_FromLong(udrv_pwm_owns_export(p));
	default:
		break;
	}
	Py_RETURN_NONE;
}

static PyObject *pwm_get_closed(PyObject *o, void *unused)
{
	return PyBool_FromLong(!PWM(o)->pwm);
}

static PyObject *pwm_get_keep(PyObject *o, void *unused)
{
	if (!PWM(o)->pwm)
		return udrvpy_released(WHAT);
	return PyBool_FromLong(PWM(o)->keep);
}

static int pwm_set_keep(PyObject *o, PyObject *value, void *unused)
{
	int keep;

	if (udrvpy_no_delete(value, "keep_exported") < 0)
		return -1;
	keep = udrvpy_bool_arg(value, "keep_exported");
	if (keep < 0 || pwm_begin(PWM(o)) < 0)
		return -1;
	PWM(o)->keep = keep;
	udrv_pwm_set_keep_exported(PWM(o)->pwm, PWM(o)->keep);
	return pwm_end(PWM(o), 0);
}

/* ---- the waveform: sysfs, the GIL released ---- */

typedef int (*get_u64_fn)(struct udrv_pwm *pwm, uint64_t *ns);
typedef int (*set_u64_fn)(struct udrv_pwm *pwm, uint64_t ns);

static PyObject *pwm_get_ns(PyObject *o, void *closure)
{
	get_u64_fn get = closure == ATTR(PERIOD) ? udrv_pwm_period_ns : udrv_pwm_duty_ns;
	uint64_t ns = 0;
	int ret;

	if (pwm_begin(PWM(o)) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = get(PWM(o)->pwm, &ns);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	return PyLong_FromUnsignedLongLong(ns);
}

static int pwm_set_ns(PyObject *o, PyObject *value, void *closure)
{
	bool period = closure == ATTR(PERIOD);
	set_u64_fn set = period ? udrv_pwm_set_period_ns : udrv_pwm_set_duty_ns;
	const char *name = period ? "period_ns" : "duty_ns";
	uint64_t ns;
	int ret;

	if (udrvpy_no_delete(value, name) < 0 || udrvpy_ns_arg(value, name, &ns) < 0 ||
	    pwm_begin(PWM(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = set(PWM(o)->pwm, ns);
	Py_END_ALLOW_THREADS
	return pwm_end(PWM(o), ret);
}

static PyObject *pwm_set_config(PyObject *o, PyObject *const *args, Py_ssize_t nargs)
{
	uint64_t period, duty;
	int ret;

	if (nargs != 2) {
		PyErr_Format(PyExc_TypeError,
			     "set_config(period_ns, duty_ns) takes 2 arguments, not %zd", nargs);
		return NULL;
	}
	if (udrvpy_ns_arg(args[0], "period_ns", &period) < 0 ||
	    udrvpy_ns_arg(args[1], "duty_ns", &duty) < 0 || pwm_begin(PWM(o)) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_set_config(PWM(o)->pwm, period, duty);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *pwm_get_polarity(PyObject *o, void *unused)
{
	enum udrv_pwm_polarity pol = UDRV_PWM_POLARITY_NORMAL;
	int ret;

	if (pwm_begin(PWM(o)) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_polarity(PWM(o)->pwm, &pol);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	return PyLong_FromLong((long)pol);
}

static int pwm_set_polarity(PyObject *o, PyObject *value, void *unused)
{
	int pol, ret;

	if (udrvpy_no_delete(value, "polarity") < 0 || udrvpy_not_bool(value, "polarity") < 0 ||
	    udrvpy_int_arg_int(value, "polarity", 0, 1, &pol) < 0 || pwm_begin(PWM(o)) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_set_polarity(PWM(o)->pwm, (enum udrv_pwm_polarity)pol);
	Py_END_ALLOW_THREADS
	return pwm_end(PWM(o), ret);
}

static PyObject *pwm_get_enabled(PyObject *o, void *unused)
{
	int ret;

	if (pwm_begin(PWM(o)) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_enabled(PWM(o)->pwm);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	return PyBool_FromLong(ret);
}

static int pwm_switch(struct udrvpy_pwm *self, bool on)
{
	int ret;

	if (pwm_begin(self) < 0)
		return -1;
	Py_BEGIN_ALLOW_THREADS
	ret = on ? udrv_pwm_enable(self->pwm) : udrv_pwm_disable(self->pwm);
	Py_END_ALLOW_THREADS
	return pwm_end(self, ret);
}

static int pwm_set_enabled(PyObject *o, PyObject *value, void *unused)
{
	int on;

	if (udrvpy_no_delete(value, "enabled") < 0)
		return -1;
	on = udrvpy_bool_arg(value, "enabled");
	if (on < 0)
		return -1;
	return pwm_switch(PWM(o), on);
}

static PyObject *pwm_enable(PyObject *o, PyObject *unused)
{
	if (pwm_switch(PWM(o), true) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyObject *pwm_disable(PyObject *o, PyObject *unused)
{
	if (pwm_switch(PWM(o), false) < 0)
		return NULL;
	Py_RETURN_NONE;
}

/* (period_ns, duty_ns, offset_ns=0[, exact=False]) -> @wf, @exact */
static int wave_args(PyObject *args, PyObject *kw, bool with_exact,
		     struct udrv_pwm_waveform *wf, int *exact)
{
	/* a keyword list as long as its format: CPython checks them together */
	static char *kw_set[] = { "period_ns", "duty_ns", "offset_ns", "exact", NULL };
	static char *kw_round[] = { "period_ns", "duty_ns", "offset_ns", NULL };
	PyObject *p, *d, *off = NULL;

	*exact = 0;
	if (!(with_exact ?
	      PyArg_ParseTupleAndKeywords(args, kw, "OO|O$p", kw_set, &p, &d, &off, exact) :
	      PyArg_ParseTupleAndKeywords(args, kw, "OO|O", kw_round, &p, &d, &off)))
		return -1;
	wf->offset_ns = 0;
	if (udrvpy_ns_arg(p, "period_ns", &wf->period_ns) < 0 ||
	    udrvpy_ns_arg(d, "duty_ns", &wf->duty_ns) < 0 ||
	    (off && udrvpy_ns_arg(off, "offset_ns", &wf->offset_ns) < 0))
		return -1;
	return 0;
}

static PyObject *wave_tuple(const struct udrv_pwm_waveform *wf)
{
	return Py_BuildValue("(KKK)", (unsigned long long)wf->period_ns,
			     (unsigned long long)wf->duty_ns, (unsigned long long)wf->offset_ns);
}

static PyObject *pwm_get_waveform(PyObject *o, void *unused)
{
	struct udrv_pwm_waveform wf;
	int ret;

	if (pwm_begin(PWM(o)) < 0)
		return NULL;
	if (!udrv_pwm_has_waveform(PWM(o)->pwm)) {
		pwm_end(PWM(o), 0);
		Py_RETURN_NONE;
	}
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_waveform(PWM(o)->pwm, &wf);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	return wave_tuple(&wf);
}

static PyObject *pwm_round_waveform(PyObject *o, PyObject *args, PyObject *kw)
{
	struct udrv_pwm_waveform want, got;
	int exact, ret;

	if (wave_args(args, kw, false, &want, &exact) < 0 || pwm_begin(PWM(o)) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_round_waveform(PWM(o)->pwm, &want, &got);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	return wave_tuple(&got);
}

static PyObject *pwm_set_waveform(PyObject *o, PyObject *args, PyObject *kw)
{
	struct udrv_pwm_waveform wf;
	int exact, ret;

	if (wave_args(args, kw, true, &wf, &exact) < 0 || pwm_begin(PWM(o)) < 0)
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	ret = udrv_pwm_set_waveform(PWM(o)->pwm, &wf, exact ? UDRV_PWM_EXACT : 0);
	Py_END_ALLOW_THREADS
	if (pwm_end(PWM(o), ret) < 0)
		return NULL;
	Py_RETURN_NONE;
}

static PyMethodDef pwm_methods[] = {
	{ "close", pwm_close, METH_NOARGS,
	  "close() -> None\n\nClose the channel, unexported if this handle exported it and "
	  "keep_exported is False. Idempotent." },
	{ "__enter__", pwm_enter, METH_NOARGS, NULL },
	{ "__exit__", pwm_exit, METH_VARARGS, NULL },
	{ "set_config", UDRVPY_METH(pwm_set_config), METH_FASTCALL,
	  "set_config(period_ns: int, duty_ns: int) -> None\n\nThe period and duty cycle "
	  "together, written in the order the kernel accepts." },
	{ "enable", pwm_enable, METH_NOARGS, "enable() -> None\n\nStart the output." },
	{ "disable", pwm_disable, METH_NOARGS, "disable() -> None\n\nStop the output." },
	{ "round_waveform", UDRVPY_METH(pwm_round_waveform),
	  METH_VARARGS | METH_KEYWORDS,
	  "round_waveform(period_ns, duty_ns, offset_ns=0) -> tuple[int, int, int]\n\n"
	  "What the hardware would make of this waveform (/dev/pwmchipN), nothing set." },
	{ "set_waveform", UDRVPY_METH(pwm_set_waveform),
	  METH_VARARGS | METH_KEYWORDS,
	  "set_waveform(period_ns, duty_ns, offset_ns=0, *, exact=False) -> None\n\n"
	  "High for duty_ns from offset_ns in each period (/dev/pwmchipN), rounded by the "
	  "hardware, or exactly (OSError EDOM when it cannot); a period of 0 is off." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef pwm_getset[] = {
	{ "chip_number", pwm_get_info, NULL, "N of pwmchipN", ATTR(CHIP_NUMBER) },
	{ "npwm", pwm_get_info, NULL, "the chip's channel count", ATTR(NPWM) },
	{ "device", pwm_get_info, NULL, "the chip's parent device (\"fe20c000.pwm\"; \"\": none)",
	  ATTR(DEVICE) },
	{ "channel", pwm_get_info, NULL, "the channel, 0..npwm-1", ATTR(CHANNEL) },
	{ "owns_export", pwm_get_info, NULL, "whether this handle exported the channel",
	  ATTR(OWNS_EXPORT) },
	{ "keep_exported", pwm_get_keep, pwm_set_keep,
	  "keep the channel exported at close (its output may run on)", NULL },
	{ "period_ns", pwm_get_ns, pwm_set_ns, "the period in ns (sysfs's period)", ATTR(PERIOD) },
	{ "duty_ns", pwm_get_ns, pwm_set_ns, "the duty cycle in ns (sysfs's duty_cycle)",
	  ATTR(DUTY) },
	{ "_polarity", pwm_get_polarity, pwm_set_polarity, NULL, NULL },
	{ "enabled", pwm_get_enabled, pwm_set_enabled, "whether the output runs", NULL },
	{ "closed", pwm_get_closed, NULL, "whether close() was called", NULL },
	{ "waveform", pwm_get_waveform, NULL,
	  "(period_ns, duty_ns, offset_ns) the hardware makes, through /dev/pwmchipN; None "
	  "through sysfs", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

PyTypeObject udrvpy_PWMType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "udrv._udrv.PWM",
	.tp_basicsize = sizeof(struct udrvpy_pwm),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "The C side of udrv.PWM.",
	.tp_new = pwm_new,
	.tp_dealloc = pwm_dealloc,
	.tp_repr = pwm_repr,
	.tp_methods = pwm_methods,
	.tp_getset = pwm_getset,
};

int udrvpy_pwm_init(PyObject *m)
{
	if (PyType_Ready(&udrvpy_PWMType) < 0)
		return -1;
	Py_INCREF(&udrvpy_PWMType);
	return PyModule_AddObject(m, "PWM", (PyObject *)&udrvpy_PWMType);
}
