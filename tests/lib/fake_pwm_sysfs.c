// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's PWM class as Linux 6.1 serves its sysfs files, on the fake
 * tree UDRV_SYSROOT points at: what libudrv writes to a chip's export and
 * unexport, and to a channel's period, duty_cycle, polarity and enable, is
 * checked and applied as drivers/pwm/sysfs.c and pwm_apply_state() do, the
 * attribute then rewritten whole (a regular file's write would not
 * truncate it: "1000" over "20000000" would read back 10000000).
 *
 * Built twice: linked into tests/lib/test_pwm (-Wl,--wrap=write:
 * __wrap_write) and, with -DFAKE_PWM_PRELOAD, as tests/cli's
 * libfake_pwm_sysfs.so preloaded into udrv (write() before libc's).
 * Other writes go through untouched.
 *
 * The kernel's answers:
 *   export N	-ENODEV N >= npwm; -EBUSY exported already, N is on a
 *		line of the chip's .busy (a kernel driver holds it), or
 *		requested through /dev/pwmchipN (fake_pwm_cdev.c); else
 *		pwmN/ appears: period 0, duty_cycle 0, polarity normal,
 *		enable 0, built aside and renamed into place
 *   unexport N	-ENODEV N >= npwm or not exported; else pwmN/ goes
 *   period, duty_cycle	a u64 (kstrtou64, base 0); enable 0 or 1;
 *		polarity normal or inversed: -EINVAL else; then the state
 *		with it must have a period and duty_cycle <= period: -EINVAL
 *   any of these	-EACCES when the file has no write bit (chmod 0444: what
 *		a process outside the file's group meets; root too, here;
 *		not logged)
 *
 * The chip's directory (beside npwm) says what the test wants:
 *   .delay_ms	pwmN/ appears that many ms after the export (a thread);
 *		"never": not at all
 *   .mode	the mode of a new pwmN/'s attributes (octal, 0644 without)
 *   .log	appended by the fake, a line per write: "export 1",
 *		"unexport 1", "pwm1 period 20000000", a refused one with its
 *		errno's name after it ("pwm1 duty_cycle 5 EINVAL")
 */
#ifdef FAKE_PWM_PRELOAD
#include <dlfcn.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef ssize_t (*write_fn)(int fd, const void *buf, size_t n);

struct state {
	unsigned long long period, duty;
	char polarity[16];
	int enable;
};

static const char *const attrs[] = { "period", "duty_cycle", "polarity", "enable" };

/* The fake tree's real path (UDRV_SYSROOT resolved), "" without one. */
static bool in_tree(const char *path)
{
	const char *root = getenv("UDRV_SYSROOT");
	char real[PATH_MAX];
	size_t n;

	if (!root || !*root || !realpath(root, real))
		return false;
	n = strlen(real);
	return !strncmp(path, real, n) && path[n] == '/';
}

static bool file_path(int fd, char *path, size_t len)
{
	char link[64];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, len - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return in_tree(path);
}

static bool named(const char *dir, const char *prefix)
{
	const char *base = strrchr(dir, '/');

	return base && !strncmp(base + 1, prefix, strlen(prefix));
}

/* A small file of the tree: its text, "" when missing. */
static void slurp(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 32];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
}

static void log_line(const char *chip, write_fn real, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_line(const char *chip, write_fn real, const char *fmt, ...)
{
	char path[PATH_MAX + 8], line[256];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	snprintf(path, sizeof(path), "%s/.log", chip);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (real(fd, line, (size_t)n) != n)
		_exit(97);
	close(fd);
}

/* kstrtou64(buf, 0): a number, an optional newline after it. */
static bool kstrtou64(const char *s, unsigned long long *v)
{
	char *end;

	if (*s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (*end == '\n')
		end++;
	return !errno && !*end;
}

static void put_file(const char *dir, const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		_exit(96);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

struct made {
	char chip[PATH_MAX];
	unsigned long long hwpwm;
	long delay_ms;
	mode_t mode;
};

static void *make_channel(void *arg)
{
	struct made *m = arg;
	char tmp[PATH_MAX + 32], dir[PATH_MAX + 32];
	struct timespec ts = { m->delay_ms / 1000, (m->delay_ms % 1000) * 1000000L };

	if (m->delay_ms)
		nanosleep(&ts, NULL);
	snprintf(tmp, sizeof(tmp), "%s/.new%llu", m->chip, m->hwpwm);
	snprintf(dir, sizeof(dir), "%s/pwm%llu", m->chip, m->hwpwm);
	mkdir(tmp, 0755);
	put_file(tmp, "period", "0\n", m->mode);
	put_file(tmp, "duty_cycle", "0\n", m->mode);
	put_file(tmp, "polarity", "normal\n", m->mode);
	put_file(tmp, "enable", "0\n", m->mode);
	rename(tmp, dir);
	free(m);
	return NULL;
}

static bool listed(const char *text, unsigned long long v)
{
	char *end;

	for (const char *p = text; *p; p = end) {
		unsigned long long x = strtoull(p, &end, 10);

		if (end == p)
			return false;
		if (x == v)
			return true;
		while (*end == '\n' || *end == ' ')
			end++;
	}
	return false;
}

/* On the chip's .busy (a kernel driver holds it) or exported already:
 * what the kernel's export and the character device's request refuse
 * (fake_pwm_cdev.c asks it too). */
bool fake_pwm_kernel_holds(const char *chip, unsigned long long hwpwm);

/* fake_pwm_cdev.c, where it is linked in: requested through the chip's
 * character device (the kernel's export is -EBUSY then). */
bool fake_pwm_cdev_held(const char *chip, unsigned long long hwpwm) __attribute__((weak));

bool fake_pwm_kernel_holds(const char *chip, unsigned long long hwpwm)
{
	char busy[256], dir[PATH_MAX + 32];

	snprintf(dir, sizeof(dir), "%s/pwm%llu", chip, hwpwm);
	slurp(chip, ".busy", busy, sizeof(busy));
	return listed(busy, hwpwm) || access(dir, F_OK) == 0;
}

static int export(const char *chip, unsigned long long hwpwm)
{
	char delay[32], mode[16];
	struct made *m;
	pthread_t t;

	if (fake_pwm_kernel_holds(chip, hwpwm) ||
	    (fake_pwm_cdev_held && fake_pwm_cdev_held(chip, hwpwm)))
		return EBUSY;
	slurp(chip, ".delay_ms", delay, sizeof(delay));
	if (!strncmp(delay, "never", 5))
		return 0;
	slurp(chip, ".mode", mode, sizeof(mode));
	m = calloc(1, sizeof(*m));
	if (!m)
		_exit(95);
	snprintf(m->chip, sizeof(m->chip), "%s", chip);
	m->hwpwm = hwpwm;
	m->delay_ms = atol(delay);
	m->mode = mode[0] ? (mode_t)strtoul(mode, NULL, 8) : 0644;
	if (!m->delay_ms) {
		make_channel(m);
		return 0;
	}
	if (pthread_create(&t, NULL, make_channel, m))
		_exit(94);
	pthread_detach(t);
	return 0;
}

static int unexport(const char *chip, unsigned long long hwpwm)
{
	char dir[PATH_MAX + 32], path[PATH_MAX + 64];

	snprintf(dir, sizeof(dir), "%s/pwm%llu", chip, hwpwm);
	if (access(dir, F_OK))
		return ENODEV;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, attrs[i]);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}

/* export or unexport of the chip @chip: 0 or an errno. */
static int chip_write(const char *chip, const char *file, const char *text, write_fn real)
{
	unsigned long long hwpwm, npwm = 0;
	char num[32];
	int err;

	slurp(chip, "npwm", num, sizeof(num));
	if (!kstrtou64(num, &npwm) || !kstrtou64(text, &hwpwm))
		err = EINVAL;
	else if (hwpwm >= npwm)
		err = ENODEV;
	else
		err = strcmp(file, "export") ? unexport(chip, hwpwm) : export(chip, hwpwm);
	log_line(chip, real, "%s %s%s%s", file, text, err ? " " : "",
		 err == EINVAL ? "EINVAL" : err == ENODEV ? "ENODEV" : err == EBUSY ? "EBUSY" : "");
	return err;
}

static void load(const char *dir, struct state *s)
{
	char text[32];

	slurp(dir, "period", text, sizeof(text));
	s->period = strtoull(text, NULL, 10);
	slurp(dir, "duty_cycle", text, sizeof(text));
	s->duty = strtoull(text, NULL, 10);
	slurp(dir, "polarity", s->polarity, sizeof(s->polarity));
	slurp(dir, "enable", text, sizeof(text));
	s->enable = atoi(text);
}

/* @text into @s as attribute @attr: false if the kernel refuses its form. */
static bool take(struct state *s, const char *attr, const char *text, char *canon, size_t len)
{
	unsigned long long v;

	if (!strcmp(attr, "polarity")) {
		if (strcmp(text, "normal") && strcmp(text, "normal\n") &&
		    strcmp(text, "inversed") && strcmp(text, "inversed\n"))
			return false;
		snprintf(canon, len, "%s", text[0] == 'n' ? "normal\n" : "inversed\n");
		return true;
	}
	if (!kstrtou64(text, &v) || (!strcmp(attr, "enable") && v > 1))
		return false;
	if (!strcmp(attr, "period"))
		s->period = v;
	else if (!strcmp(attr, "duty_cycle"))
		s->duty = v;
	else
		s->enable = (int)v;
	snprintf(canon, len, "%llu\n", v);
	return true;
}

static int channel_write(int fd, const char *path, const char *dir, const char *text,
			 write_fn real)
{
	const char *attr = strrchr(path, '/') + 1;
	char chip[PATH_MAX], canon[32];
	struct state s;
	int err = 0;

	snprintf(chip, sizeof(chip), "%.*s", (int)(strrchr(dir, '/') - dir), dir);
	load(dir, &s);
	if (!take(&s, attr, text, canon, sizeof(canon)) || !s.period || s.duty > s.period)
		err = EINVAL;
	if (!err && (ftruncate(fd, 0) < 0 ||
		     pwrite(fd, canon, strlen(canon), 0) != (ssize_t)strlen(canon)))
		err = EIO;
	log_line(chip, real, "%s %s %s%s%s", strrchr(dir, '/') + 1, attr, text,
		 err ? " " : "", err == EINVAL ? "EINVAL" : err ? "EIO" : "");
	return err;
}

/* Is the channel directory @dir in a chip's (.../pwmchipN/pwmM)? */
static bool in_chip(const char *dir)
{
	char chip[PATH_MAX];

	snprintf(chip, sizeof(chip), "%.*s", (int)(strrchr(dir, '/') - dir), dir);
	return named(chip, "pwmchip");
}

static bool is_attr(const char *name)
{
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (!strcmp(name, attrs[i]))
			return true;
	return false;
}

static bool is_chip_file(const char *dir, const char *name)
{
	return (!strcmp(name, "export") || !strcmp(name, "unexport")) && named(dir, "pwmchip");
}

static bool is_channel_file(const char *dir, const char *name)
{
	return is_attr(name) && named(dir, "pwm") && !named(dir, "pwmchip") && in_chip(dir);
}

static bool is_pwm_file(const char *dir, const char *name)
{
	return is_chip_file(dir, name) || is_channel_file(dir, name);
}

static ssize_t fake_pwm_write(int fd, const void *buf, size_t n, write_fn real)
{
	char path[PATH_MAX], dir[PATH_MAX], text[64], *slash;
	struct stat st;
	int err;

	if (!file_path(fd, path, sizeof(path)) || n >= sizeof(text))
		return real(fd, buf, n);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	*slash = '\0';
	memcpy(text, buf, n);
	text[n] = '\0';
	if (fstat(fd, &st) == 0 && !(st.st_mode & 0222) && is_pwm_file(dir, slash + 1)) {
		errno = EACCES;	/* as the kernel's permission check, for root too */
		return -1;
	}
	if (is_chip_file(dir, slash + 1))
		err = chip_write(dir, slash + 1, text, real);
	else if (is_channel_file(dir, slash + 1))
		err = channel_write(fd, path, dir, text, real);
	else
		return real(fd, buf, n);
	if (!err)
		return (ssize_t)n;
	errno = err;
	return -1;
}

#ifdef FAKE_PWM_PRELOAD
ssize_t write(int fd, const void *buf, size_t n)
{
	static write_fn real;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "write");	/* POSIX's way */
	return fake_pwm_write(fd, buf, n, real);
}
#else
ssize_t __real_write(int fd, const void *buf, size_t n);
ssize_t __wrap_write(int fd, const void *buf, size_t n);

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	return fake_pwm_write(fd, buf, n, __real_write);
}
#endif
