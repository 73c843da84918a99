/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A minimal unit test harness: each test runs in a forked child (a crash or
 * a sanitizer report fails that test only) and results are printed as TAP.
 *
 *	static void test_foo(void) { CHECK(1 + 1 == 2); }
 *	UDRV_TESTS(test_foo, test_bar)
 *
 * Fake sysfs/dev trees: fake_root() makes a fresh temporary directory and
 * points UDRV_SYSROOT at it; fake_file() etc. create entries under it.
 */
#ifndef UDRV_TEST_HARNESS_H
#define UDRV_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

extern int harness_failures;

void harness_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			harness_fail(__FILE__, __LINE__, "%s", #cond);	\
	} while (0)

#define CHECK_INT(a, b)							\
	do {								\
		long long _a = (long long)(a), _b = (long long)(b);	\
		if (_a != _b)						\
			harness_fail(__FILE__, __LINE__,		\
				     "%s == %lld, expected %s == %lld",	\
				     #a, _a, #b, _b);			\
	} while (0)

#define CHECK_STR(a, b)							\
	do {								\
		const char *_a = (a), *_b = (b);			\
		if (!_a || !_b || strcmp(_a, _b))			\
			harness_fail(__FILE__, __LINE__,		\
				     "%s == \"%s\", expected \"%s\"",	\
				     #a, _a ? _a : "(null)",		\
				     _b ? _b : "(null)");		\
	} while (0)

/* @hay contains @needle (for error messages). */
#define CHECK_CONTAINS(hay, needle)					\
	do {								\
		const char *_h = (hay), *_n = (needle);			\
		if (!_h || !strstr(_h, _n))				\
			harness_fail(__FILE__, __LINE__,		\
				     "%s == \"%s\" lacks \"%s\"",	\
				     #hay, _h ? _h : "(null)", _n);	\
	} while (0)

struct harness_test {
	const char *name;
	void (*fn)(void);
};

int harness_run(const struct harness_test *tests, size_t n);

/* The whole of @dir/@name, NUL-terminated (@len without it); free() it.
 * A file that cannot be read ends the test program (exit 1). */
char *harness_load(const char *dir, const char *name, size_t *len);

#define UDRV_T(fn) { #fn, fn }
#define UDRV_TESTS(...)							\
	int main(void)							\
	{								\
		static const struct harness_test t[] = { __VA_ARGS__ };	\
		return harness_run(t, sizeof(t) / sizeof(t[0]));	\
	}

/* Fake trees (paths are relative to the fake root). */
const char *fake_root(void);
const char *fake_root_dir(void);	/* the current fake root */
/* Point UDRV_SYSROOT at a 599-byte root: no path under it fits. */
void fake_sysroot_too_long(void);
void fake_dir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fake_file(const char *path, const char *content);
void fake_symlink(const char *target, const char *path);
void fake_fifo(const char *path);
void fake_path(char *buf, size_t len, const char *rel);
char *fake_read(const char *path);	/* malloc'd contents, or NULL */
/* Does the fake file @rel start with @want? (sysfs attributes: writes do
 * not truncate regular files); says what it holds when not. */
bool fake_starts_with(const char *rel, const char *want);

#endif /* UDRV_TEST_HARNESS_H */
