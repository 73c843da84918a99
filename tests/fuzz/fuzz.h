/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared pieces of the libFuzzer harnesses (tests/fuzz/README.md).
 *
 * Inputs of the harnesses that read files are several file contents in one:
 * the input is split at every FUZZ_SEP byte (0x1e, ASCII record separator),
 * part k becomes file k of the harness's list (byte for byte), a part that
 * is exactly FUZZ_ABSENT (0x1f) leaves its file out, and so do the parts
 * the input does not have.
 *
 * The files live in a fake tree under a temporary directory (in
 * $UDRV_FUZZ_TMPDIR, else /dev/shm when there is one, else $TMPDIR) that
 * UDRV_SYSROOT points at, emptied before each input.
 *
 * A property that does not hold is reported by FUZZ_CHECK(): the message,
 * then abort(), which libFuzzer records as a crash with its input.
 */
#ifndef UDRV_FUZZ_H
#define UDRV_FUZZ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FUZZ_SEP	0x1e
#define FUZZ_ABSENT	0x1f
#define FUZZ_MAX_PARTS	64

/*
 * UDRV_FUZZ_SKIP=name,name: properties not to check (to look past a known
 * finding while it is being fixed; make check and make fuzz check all).
 */
bool fuzz_skip(const char *property);

/* libFuzzer's entry points, defined by each harness */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct fuzz_parts {
	size_t n;
	const uint8_t *p[FUZZ_MAX_PARTS];
	size_t len[FUZZ_MAX_PARTS];
};

/* Split @data at FUZZ_SEP into at most FUZZ_MAX_PARTS parts (the last part
 * keeps any further separators). */
void fuzz_split(const uint8_t *data, size_t size, struct fuzz_parts *parts);
/* Part @i is present and not FUZZ_ABSENT. */
bool fuzz_has(const struct fuzz_parts *parts, size_t i);
/* Part @i as a NUL-terminated string (malloc'd; "" for an absent part;
 * C sees it up to its first NUL byte). */
char *fuzz_str(const struct fuzz_parts *parts, size_t i);

/* The fake root (made on first use, UDRV_SYSROOT set to it). */
const char *fuzz_root(void);
/* Remove everything under the root. */
void fuzz_reset(void);
/* @buf <- root + "/" + @rel. */
void fuzz_path(char *buf, size_t len, const char *rel);
/* mkdir -p of root-relative @rel. */
void fuzz_mkdir(const char *rel);
/* Write @len bytes to root-relative @rel (parents made). */
void fuzz_write(const char *rel, const void *data, size_t len);
void fuzz_write_str(const char *rel, const char *s);
/* Write part @i to @rel when it is present; true if written. */
bool fuzz_write_part(const struct fuzz_parts *parts, size_t i, const char *rel);
/* Symbolic link @rel -> @target (parents of @rel made). */
void fuzz_symlink(const char *target, const char *rel);
/* A sparse regular file of @size bytes. */
void fuzz_sparse(const char *rel, uint64_t size);
/* The contents of root-relative @rel as the library's readers see them:
 * what udrv_read_str() would return (trailing newlines and spaces
 * stripped), or NULL when absent, unreadable, too long for @max bytes with
 * its NUL, or holding a NUL byte. Static buffer (one at a time). */
const char *fuzz_text(const char *rel, size_t max);

/* @text is one JSON value (RFC 8259, valid UTF-8, nothing after it). */
bool fuzz_json_valid(const char *text, size_t len);

/*
 * The oracles' model of the udrv tool's value words ("1/on/active/high" 1,
 * "0/off/inactive/low" 0, anything else -1), written apart from the code it
 * checks (tools/cli.c's gpio_parse_value()): the cli and interactive
 * harnesses compare the tool's reading against it.
 */
int fuzz_model_value(const char *s);

__attribute__((noreturn, format(printf, 4, 5)))
void fuzz_fail(const char *file, int line, const char *cond,
	       const char *fmt, ...);

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

/*
 * The fake GPIO character device. The library's ioctl() calls go through
 * __wrap_ioctl (linked with -Wl,--wrap=ioctl): on a regular file they
 * answer the GPIO chip and line info ioctls from the file's contents,
 *
 *	LABEL\n
 *	NUM_LINES\n
 *	NAME[\tCONSUMER[\tFLAGS]]\n	one per line, from offset 0
 *
 * with what the kernel guarantees (strings cut to 31 bytes and
 * NUL-terminated, at most 65535 lines, no attributes); line requests fail
 * with EBUSY. Anything else goes to the real ioctl().
 */
#define FUZZ_CDEV_MAX_LINES	65535

#endif /* UDRV_FUZZ_H */
