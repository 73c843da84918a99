// SPDX-License-Identifier: GPL-2.0-only
/*
 * The PWM character device of Linux 6.16 (/dev/pwmchipN), on the fake tree
 * UDRV_SYSROOT points at: its ioctls on the tree's dev/pwmchipN (a regular
 * file) answered as drivers/pwm/core.c's pwm_cdev_ioctl() answers them,
 * for a controller whose clock ticks every .step_ns (the chip directory's
 * control file; 1 without it).
 *
 * Built twice, as fake_pwm_sysfs.c is: linked into tests/lib/test_pwm
 * (-Wl,--wrap=ioctl,--wrap=close) and, with -DFAKE_PWM_PRELOAD, into
 * tests/cli's libfake_pwm_sysfs.so. Other ioctls and closes go through.
 *
 * The kernel's answers:
 *   REQUEST N	-EINVAL N >= npwm; -EBUSY exported in sysfs (pwmN/ there),
 *		on the chip's .busy, or requested by another open file;
 *		0 requested by this one already
 *   FREE N	-EINVAL N >= npwm; 0 (also when not requested)
 *   ROUNDWF, GETWF, SETROUNDEDWF, SETEXACTWF
 *		-EINVAL a pad other than 0, a channel this file has not
 *		requested; SET*: -EINVAL a waveform the kernel holds
 *		invalid (a period above S64_MAX, duty > period, an offset
 *		at or past a period); SETEXACTWF -EDOM when rounding would
 *		change it, nothing set
 *   rounding	each value down to a multiple of .step_ns, a period of
 *		0 up to one step (the kernel never rounds a period down
 *		to 0); a duty above the rounded period down to it
 *   close	frees what the file requested (the waveform stays)
 *
 * The hardware's waveform of channel M is the chip directory's .wfM
 * ("period duty offset", 0 0 0 without it: off), so it outlives the
 * process as the hardware's does; what the library asked is logged to the
 * chip's .log beside the sysfs fake's lines: "cdev request 1", "cdev
 * setrounded 1 20000000 1500000 0", a refused one with its errno's name.
 */
#ifdef FAKE_PWM_PRELOAD
#include <dlfcn.h>
#endif
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

struct wf {
	uint32_t hwpwm, pad;
	uint64_t period, duty, offset;
};

#define REQ		_IO(0x75, 1)
#define FREE		_IO(0x75, 2)
#define ROUNDWF		_IOWR(0x75, 3, struct wf)
#define GETWF		_IOWR(0x75, 4, struct wf)
#define SETROUNDEDWF	_IOW(0x75, 5, struct wf)
#define SETEXACTWF	_IOW(0x75, 6, struct wf)

/* What each open file requested: its fd, the chip's directory, a mask. */
static struct held {
	int fd;
	char chip[PATH_MAX];
	uint64_t mask;
} held[16];

/* The chip directory of a dev/pwmchipN @fd is, resolved: false if none. */
static bool node_chip(int fd, char *chip, size_t len)
{
	const char *root = getenv("UDRV_SYSROOT");
	char link[64], path[PATH_MAX], real[PATH_MAX], cls[PATH_MAX + 64];
	struct stat st;
	unsigned int num;
	ssize_t n;
	size_t r;

	if (!root || !*root || !realpath(root, real) || fstat(fd, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	r = strlen(real);
	if (strncmp(path, real, r) || sscanf(path + r, "/dev/pwmchip%u", &num) != 1)
		return false;
	snprintf(cls, sizeof(cls), "%s/sys/class/pwm/pwmchip%u", real, num);
	return realpath(cls, chip) && strlen(chip) < len;
}

static uint64_t control(const char *chip, const char *name, uint64_t dflt)
{
	char path[PATH_MAX + 32];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", chip, name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%llu", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static void log_line(const char *chip, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void log_line(const char *chip, const char *fmt, ...)
{
	char path[PATH_MAX + 8];
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/.log", chip);
	f = fopen(path, "a");
	if (!f)
		_exit(93);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static void load(const char *chip, unsigned int ch, struct wf *w)
{
	char path[PATH_MAX + 32];
	unsigned long long p = 0, d = 0, o = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/.wf%u", chip, ch);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%llu %llu %llu", &p, &d, &o) != 3)
			p = d = o = 0;
		fclose(f);
	}
	w->period = p;
	w->duty = d;
	w->offset = o;
}

static void store(const char *chip, unsigned int ch, const struct wf *w)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/.wf%u", chip, ch);
	f = fopen(path, "w");
	if (!f)
		_exit(92);
	fprintf(f, "%llu %llu %llu\n", (unsigned long long)w->period,
		(unsigned long long)w->duty, (unsigned long long)w->offset);
	fclose(f);
}

static struct held *slot(int fd, const char *chip, bool make)
{
	struct held *free_slot = NULL;

	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++) {
		if (held[i].mask && held[i].fd == fd)
			return &held[i];
		if (!held[i].mask && !free_slot)
			free_slot = &held[i];
	}
	if (!make || !free_slot)
		return NULL;
	free_slot->fd = fd;
	snprintf(free_slot->chip, sizeof(free_slot->chip), "%s", chip);
	return free_slot;
}

/* Requested by an open file other than @fd? */
static bool held_elsewhere(int fd, const char *chip, unsigned int ch)
{
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held[i].fd != fd && (held[i].mask >> ch & 1) && !strcmp(held[i].chip, chip))
			return true;
	return false;
}

/* Requested through the character device: fake_pwm_sysfs.c's export asks. */
bool fake_pwm_cdev_held(const char *chip, unsigned long long ch);

bool fake_pwm_cdev_held(const char *chip, unsigned long long ch)
{
	return ch < 64 && held_elsewhere(-1, chip, (unsigned int)ch);
}

/* fake_pwm_sysfs.c: on the chip's .busy, or exported in sysfs */
bool fake_pwm_kernel_holds(const char *chip, unsigned long long hwpwm);

static int request(int fd, const char *chip, unsigned long ch)
{
	struct held *h;

	if (ch >= control(chip, "npwm", 0) || ch >= 64)
		return EINVAL;
	h = slot(fd, chip, false);
	if (h && (h->mask >> ch & 1))
		return 0;
	if (fake_pwm_kernel_holds(chip, ch) || held_elsewhere(fd, chip, (unsigned int)ch))
		return EBUSY;
	h = slot(fd, chip, true);
	if (!h)
		return ENOMEM;
	h->mask |= 1ULL << ch;
	return 0;
}

static int release(int fd, const char *chip, unsigned long ch)
{
	struct held *h = slot(fd, chip, false);

	if (ch >= control(chip, "npwm", 0) || ch >= 64)
		return EINVAL;
	if (h)
		h->mask &= ~(1ULL << ch);
	return 0;
}

static uint64_t down(uint64_t v, uint64_t step)
{
	return v / step * step;
}

static void round_wf(const char *chip, struct wf *w)
{
	uint64_t step = control(chip, ".step_ns", 1);

	w->period = down(w->period, step);
	if (!w->period)
		w->period = step;
	w->duty = down(w->duty, step);
	if (w->duty > w->period)
		w->duty = w->period;
	w->offset = down(w->offset, step);
	if (w->offset >= w->period)
		w->offset = 0;
}

static bool valid(const struct wf *w)
{
	return w->period <= (uint64_t)INT64_MAX && w->duty <= w->period &&
	       !(w->offset && w->offset >= w->period);
}

static int set(const char *chip, struct wf *w, bool exact)
{
	struct wf r = *w;

	if (!valid(w))
		return EINVAL;
	if (w->period)	/* a period of 0 is off: nothing to round */
		round_wf(chip, &r);
	if (exact && (r.period != w->period || r.duty != w->duty || r.offset != w->offset))
		return EDOM;
	store(chip, w->hwpwm, &r);
	return 0;
}

static int waveform(int fd, const char *chip, unsigned long req, struct wf *w)
{
	struct held *h = slot(fd, chip, false);

	if (w->pad || w->hwpwm >= 64 || !h || !(h->mask >> w->hwpwm & 1))
		return EINVAL;
	switch (req) {
	case ROUNDWF:
		round_wf(chip, w);
		return 0;
	case GETWF:
		load(chip, w->hwpwm, w);
		return 0;
	default:
		return set(chip, w, req == SETEXACTWF);
	}
}

static const char *name(unsigned long req)
{
	switch (req) {
	case REQ: return "request";
	case FREE: return "free";
	case ROUNDWF: return "round";
	case GETWF: return "get";
	case SETROUNDEDWF: return "setrounded";
	default: return "setexact";
	}
}

static const char *err_name(int err)
{
	return err == EINVAL ? " EINVAL" : err == EBUSY ? " EBUSY" : err == EDOM ? " EDOM" :
	       err ? " E?" : "";
}

/* -1 when @fd is no node of the fake tree's, else 0 or an errno. */
static int fake_pwm_ioctl(int fd, unsigned long req, void *arg)
{
	char chip[PATH_MAX];
	struct wf *w = arg;
	int err;

	if (req != REQ && req != FREE && req != ROUNDWF && req != GETWF &&
	    req != SETROUNDEDWF && req != SETEXACTWF)
		return -1;
	if (!node_chip(fd, chip, sizeof(chip)))
		return -1;
	if (req == REQ || req == FREE) {
		err = req == REQ ? request(fd, chip, (unsigned long)arg) :
				   release(fd, chip, (unsigned long)arg);
		log_line(chip, "cdev %s %lu%s", name(req), (unsigned long)arg, err_name(err));
		return err;
	}
	if (req == GETWF)
		return waveform(fd, chip, req, w);
	log_line(chip, "cdev %s %u %llu %llu %llu", name(req), w->hwpwm,
		 (unsigned long long)w->period, (unsigned long long)w->duty,
		 (unsigned long long)w->offset);
	err = waveform(fd, chip, req, w);
	if (err)
		log_line(chip, "cdev %s%s", name(req), err_name(err));
	return err;
}

static void forget(int fd)
{
	for (size_t i = 0; i < sizeof(held) / sizeof(held[0]); i++)
		if (held[i].fd == fd)
			held[i].mask = 0;
}

#ifdef FAKE_PWM_PRELOAD
int ioctl(int fd, unsigned long req, ...)
{
	static int (*real)(int, unsigned long, ...);
	va_list ap;
	void *arg;
	int err;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "ioctl");
	err = fake_pwm_ioctl(fd, req, arg);
	if (err < 0)
		return real(fd, req, arg);
	errno = err;
	return err ? -1 : 0;
}

int close(int fd)
{
	static int (*real)(int);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "close");
	forget(fd);
	return real(fd);
}
#else
int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
int __real_close(int fd);
int __wrap_close(int fd);

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int err;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	err = fake_pwm_ioctl(fd, req, arg);
	if (err < 0)
		return __real_ioctl(fd, req, arg);
	errno = err;
	return err ? -1 : 0;
}

int __wrap_close(int fd)
{
	forget(fd);
	return __real_close(fd);
}
#endif
