/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hardware PWM through the kernel's PWM class (/sys/class/pwm): a chip by
 * number, path or parent device; a channel exported, its period, duty
 * cycle, polarity and enable set and read back.
 *
 * A PWM output repeats a period: active for the duty cycle, inactive for
 * the rest. Times are nanoseconds, 64-bit, as the kernel takes them. The
 * kernel refuses a duty cycle above the period and a period of 0; it keeps
 * duty <= period at every write, so when a new period is below the duty
 * cycle the duty cycle has to be written first: udrv_pwm_set_config()
 * writes the two in the order that works.
 *
 * What sysfs reads back is the state last requested, not what the hardware
 * makes of it (Linux 6.1: a controller rounds the period and duty cycle to
 * its clock, and the attributes still say what was asked). Kernels since
 * 6.16 give a chip whose driver knows waveforms a character device,
 * /dev/pwmchipN: there a channel is requested, not exported (no sysfs
 * directory to wait for, freed by the kernel when the process ends), and
 * the hardware's own values can be read and rounded before they are set
 * (udrv_pwm_waveform(), below). udrv_pwm_open() uses it where the chip has
 * one.
 *
 * Calls return 0 or a negative errno and leave a message on the handle
 * (udrv_pwm_errmsg()). Since 1.9. The servo helpers at the end serve
 * this PWM and the software one of udrv/soft_pwm.h.
 */
#ifndef UDRV_PWM_H
#define UDRV_PWM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_pwm;

enum udrv_pwm_polarity {
	UDRV_PWM_POLARITY_NORMAL,	/* active high for the duty cycle */
	UDRV_PWM_POLARITY_INVERSED,	/* active low for the duty cycle */
};

/* udrv_pwm_open()'s flags */
#define UDRV_PWM_NO_EXPORT	0x1	/* never exported: one exported already,
					 * or requested (below), or -ENOENT */
#define UDRV_PWM_KEEP_EXPORTED	0x2	/* left exported at close, also when
					 * this handle exported it */
#define UDRV_PWM_SYSFS		0x4	/* the class's sysfs files even where the
					 * chip has /dev/pwmchipN (since 1.10) */

struct udrv_pwm *udrv_pwm_new(void);
/*
 * The chip alone (no channel): @chip is its number ("0"), name
 * ("pwmchip0"), class path ("/sys/class/pwm/pwmchip0") or its parent
 * device's name, the one its device link names ("fe20c000.pwm",
 * "0000:00:1f.0"; one chip only). -EINVAL: none of these forms; -ERANGE: a
 * number past INT32_MAX; -ENOENT: no such chip.
 */
int udrv_pwm_open_chip(struct udrv_pwm *pwm, const char *chip);
/*
 * Channel @channel of @chip: -ERANGE unless it is below the chip's channel
 * count (npwm). A channel that is not exported is exported (written to the
 * chip's export file), then its pwmN/ directory waited for, as udev may
 * take a moment to give it its permissions (at most 2 s: -ETIMEDOUT). A
 * channel a kernel driver uses (a backlight, a fan) is -EBUSY.
 *
 * udrv_pwm_close() unexports the channel only if this handle exported it,
 * and not with UDRV_PWM_KEEP_EXPORTED: a channel exported before (by
 * another program, a boot script, an earlier handle that kept it) is used
 * as it is and left exported. The kernel may stop the output of a channel
 * it unexports: a program that leaves a PWM running keeps it exported.
 *
 * Where the chip has a character device (/dev/pwmchipN) and UDRV_PWM_SYSFS
 * is not given, the channel is requested through it instead (nothing is
 * exported, so UDRV_PWM_NO_EXPORT does not refuse it): -EBUSY while a
 * kernel driver or another process holds it; one exported in sysfs
 * already is used through sysfs, as it is. The kernel frees a requested channel at close or when the process
 * ends; the output goes on with its last waveform (a driver may stop it
 * when it is freed), and the channel is not left exported:
 * UDRV_PWM_KEEP_EXPORTED changes nothing there. The hardware keeps a
 * waveform, and off is a period of 0: the period, duty cycle and polarity
 * of a channel left disabled do not outlive the handle. A /dev/pwmchipN
 * this process may not open (its permissions) leaves it to sysfs.
 */
int udrv_pwm_open(struct udrv_pwm *pwm, const char *chip, unsigned int channel,
		  unsigned int flags);
void udrv_pwm_close(struct udrv_pwm *pwm);
void udrv_pwm_free(struct udrv_pwm *pwm);
const char *udrv_pwm_errmsg(const struct udrv_pwm *pwm);

/* The chip's number (N of pwmchipN), its channel count, its parent
 * device's name ("" without one); the channel (-1: the chip alone). */
unsigned int udrv_pwm_chip_number(const struct udrv_pwm *pwm);
unsigned int udrv_pwm_npwm(const struct udrv_pwm *pwm);
const char *udrv_pwm_device(const struct udrv_pwm *pwm);
int udrv_pwm_channel(const struct udrv_pwm *pwm);
/* Did this handle export its channel? Then udrv_pwm_close() unexports it,
 * unless it is to keep it exported (UDRV_PWM_KEEP_EXPORTED, or this). */
bool udrv_pwm_owns_export(const struct udrv_pwm *pwm);
/* Keep the channel exported at close, or not, from now on: a program that
 * decides only once its settings took (the output to run on after it). */
void udrv_pwm_set_keep_exported(struct udrv_pwm *pwm, bool keep);

/*
 * The period and duty cycle in ns, in the order the kernel accepts: the
 * duty cycle first when the new period is below the current duty cycle.
 * -EINVAL: a period of 0, or a duty cycle above the period (nothing
 * written).
 */
int udrv_pwm_set_config(struct udrv_pwm *pwm, uint64_t period_ns, uint64_t duty_ns);
/* One of them, against the other as it is: -EINVAL for a period below the
 * current duty cycle or a duty cycle above the current period (then
 * udrv_pwm_set_config() sets both). */
int udrv_pwm_set_period_ns(struct udrv_pwm *pwm, uint64_t ns);
int udrv_pwm_set_duty_ns(struct udrv_pwm *pwm, uint64_t ns);
/* -EBUSY while the channel is enabled: the kernel refuses a polarity
 * change on a running output (drivers differ): disable it first. Through
 * /dev/pwmchipN it is one new waveform, also while enabled. */
int udrv_pwm_set_polarity(struct udrv_pwm *pwm, enum udrv_pwm_polarity polarity);
/* Enable: -EINVAL while the period is 0 (set one first). */
int udrv_pwm_enable(struct udrv_pwm *pwm);
int udrv_pwm_disable(struct udrv_pwm *pwm);

/* The state requested (what sysfs reads back; through /dev/pwmchipN what
 * the hardware ran at open, then what this handle asked for). */
int udrv_pwm_period_ns(struct udrv_pwm *pwm, uint64_t *ns);
int udrv_pwm_duty_ns(struct udrv_pwm *pwm, uint64_t *ns);
int udrv_pwm_polarity(struct udrv_pwm *pwm, enum udrv_pwm_polarity *polarity);
/* 1 enabled, 0 disabled, or a negative errno. */
int udrv_pwm_enabled(struct udrv_pwm *pwm);
/* "normal", "inversed" (the kernel's words), "unknown". */
const char *udrv_pwm_polarity_str(enum udrv_pwm_polarity polarity);

/*
 * The waveform interface of /dev/pwmchipN (since 1.10; -EOPNOTSUPP through
 * sysfs: udrv_pwm_has_waveform() says which). A waveform is high for
 * duty_ns from offset_ns after each period's start: normal polarity is
 * offset 0, inversed polarity's duty cycle d is duty_ns = period - d at
 * offset d. A period of 0 is an output switched off (then duty and offset
 * are 0). -EINVAL: a duty above the period, an offset at or past it, a
 * period above INT64_MAX.
 */
struct udrv_pwm_waveform {
	uint64_t period_ns;
	uint64_t duty_ns;
	uint64_t offset_ns;
};
/* udrv_pwm_set_waveform()'s flag: exactly this waveform, or -EDOM (nothing
 * changed) when the hardware cannot make it. */
#define UDRV_PWM_EXACT		0x1

bool udrv_pwm_has_waveform(const struct udrv_pwm *pwm);
/* What the hardware emits now, as its driver reads it back. */
int udrv_pwm_waveform(struct udrv_pwm *pwm, struct udrv_pwm_waveform *wf);
/* What the hardware would make of @want, nothing set: each value rounded
 * down to one it can make, up where there is none below. */
int udrv_pwm_round_waveform(struct udrv_pwm *pwm, const struct udrv_pwm_waveform *want,
			    struct udrv_pwm_waveform *got);
/* Set @wf as the hardware rounds it (udrv_pwm_round_waveform()), or with
 * UDRV_PWM_EXACT as it is. The state requested follows (period 0:
 * disabled, the period and duty cycle kept). */
int udrv_pwm_set_waveform(struct udrv_pwm *pwm, const struct udrv_pwm_waveform *wf,
			  unsigned int flags);

/* The PWM chips there are ("pwmchip0", ...), sorted by number; see
 * udrv_chip_list(). */
int udrv_pwm_list(char ***names);

/*
 * Servos, on a hardware PWM or a software one (udrv/soft_pwm.h). A hobby
 * servo reads the width of a pulse repeated at a frame rate: 50 Hz (a 20
 * ms frame) for analog servos, up to about 300 Hz for digital ones.
 * 1000..2000 us is the range every servo takes, 1500 us the middle; many
 * turn further with about 500..2500 us, and driven past their end stop
 * they strain and hum: widen the range only to what yours is made for.
 */
#define UDRV_SERVO_FRAME_HZ	50
#define UDRV_SERVO_MIN_US	1000
#define UDRV_SERVO_MAX_US	2000
/*
 * The period and duty cycle (ns) of a pulse of @pulse_us at @frame_hz
 * (0: 50), the pulse clamped to @min_us..@max_us (0 and 0: 1000..2000):
 * what udrv_pwm_set_config() and udrv_soft_pwm_set_config() take. 0, 1
 * when the pulse was clamped, or -EINVAL (nothing written) for @min_us
 * above @max_us, or a @max_us that does not fit in the frame (1000000 /
 * @frame_hz us and more).
 */
int udrv_servo_pulse(uint32_t frame_hz, uint32_t pulse_us, uint32_t min_us,
		     uint32_t max_us, uint64_t *period_ns, uint64_t *duty_ns);
/*
 * The pulse (us) for @angle on a line from (@min_angle, @min_us) to
 * (@max_angle, @max_us), rounded to the nearest us: degrees, or
 * gpiozero's Servo value -1..1, any unit. @min_angle may be above
 * @max_angle (a servo turned the other way round). 0, 1 when the angle
 * was outside and clamped, or -EINVAL (nothing written) for an angle that
 * is not finite, @min_angle equal to @max_angle, or @min_us above @max_us
 * (0 and 0: 1000..2000).
 */
int udrv_servo_angle_us(double angle, double min_angle, double max_angle,
			uint32_t min_us, uint32_t max_us, uint32_t *pulse_us);

#ifdef __cplusplus
}
#endif

#endif /* UDRV_PWM_H */
