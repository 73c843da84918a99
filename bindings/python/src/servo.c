// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The servo helpers of udrv/pwm.h as the module's private functions, for
 * the set_servo_pulse() and set_servo_angle() of udrv.PWM and
 * udrv.SoftPWM (udrv/_pwm.py checks the floats first: finite numbers).
 * The library's refusals (a range the wrong way round, a pulse that does
 * not fit the frame) raise udrv.InvalidError, a ValueError, saying which.
 */
#include "udrv_py.h"

#include <errno.h>

/* @n microsecond or Hz arguments of @args, named @names: ints (not bool)
 * 0..UINT32_MAX */
static int u32_args(PyObject *const *args, const char *const *names, int n, uint32_t *v)
{
	unsigned long long x;

	for (int i = 0; i < n; i++) {
		if (udrvpy_not_bool(args[i], names[i]) < 0 ||
		    udrvpy_uint_arg(args[i], names[i], UINT32_MAX, &x) < 0)
			return -1;
		v[i] = (uint32_t)x;
	}
	return 0;
}

static PyObject *bad_range(uint32_t min_us, uint32_t max_us)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "servo: min_us %u is above max_us %u (0 and 0: 1000..2000)",
		 (unsigned int)min_us, (unsigned int)max_us);
	return udrvpy_raise(-EINVAL, msg);
}

/* _servo_pulse(frame_hz, pulse_us, min_us, max_us) -> (period_ns, duty_ns, clamped) */
static PyObject *servo_pulse(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
	static const char *const names[] = { "frame_hz", "pulse_us", "min_us", "max_us" };
	uint64_t period, duty;
	uint32_t v[4];
	char msg[200];
	int ret;

	if (nargs != 4) {
		PyErr_SetString(PyExc_TypeError, "_servo_pulse(frame_hz, pulse_us, min_us, max_us)");
		return NULL;
	}
	if (u32_args(args, names, 4, v) < 0)
		return NULL;
	ret = udrv_servo_pulse(v[0], v[1], v[2], v[3], &period, &duty);
	if (ret >= 0)
		return Py_BuildValue("KKO", (unsigned long long)period,
				     (unsigned long long)duty, ret ? Py_True : Py_False);
	if ((v[2] || v[3]) && v[2] > v[3])
		return bad_range(v[2], v[3]);
	snprintf(msg, sizeof(msg),
		 "servo: a pulse of up to %u us does not fit in a frame at %u Hz (%u us): "
		 "a lower frame_hz, or a lower max_us", (unsigned int)(v[3] ? v[3] : 2000),
		 (unsigned int)(v[0] ? v[0] : 50), 1000000u / (v[0] ? v[0] : 50));
	return udrvpy_raise(-EINVAL, msg);
}

/* _servo_angle_us(angle, min_angle, max_angle, min_us, max_us) -> (pulse_us, clamped) */
static PyObject *servo_angle_us(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
	static const char *const names[] = { "min_us", "max_us" };
	double a[3];
	uint32_t us[2], pulse;
	int ret;

	if (nargs != 5) {
		PyErr_SetString(PyExc_TypeError,
				"_servo_angle_us(angle, min_angle, max_angle, min_us, max_us)");
		return NULL;
	}
	for (int i = 0; i < 3; i++) {
		a[i] = PyFloat_AsDouble(args[i]);
		if (a[i] == -1.0 && PyErr_Occurred())
			return NULL;
	}
	if (u32_args(args + 3, names, 2, us) < 0)
		return NULL;
	ret = udrv_servo_angle_us(a[0], a[1], a[2], us[0], us[1], &pulse);
	if (ret >= 0)
		return Py_BuildValue("IO", (unsigned int)pulse, ret ? Py_True : Py_False);
	if ((us[0] || us[1]) && us[0] > us[1])
		return bad_range(us[0], us[1]);
	return udrvpy_raise(-EINVAL, "servo: an angle must be a finite number, and min_angle "
			    "and max_angle two different finite numbers");
}

static PyMethodDef servo_functions[] = {
	{ "_servo_pulse", UDRVPY_METH(servo_pulse), METH_FASTCALL, NULL },
	{ "_servo_angle_us", UDRVPY_METH(servo_angle_us), METH_FASTCALL, NULL },
	{ NULL, NULL, 0, NULL }
};

int udrvpy_servo_init(PyObject *m)
{
	return PyModule_AddFunctions(m, servo_functions);
}
