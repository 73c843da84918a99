// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared pieces of the libFuzzer harnesses: input splitting, the fake tree,
 * property failures (see fuzz.h); the fake GPIO character device is
 * fuzz_cdev.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#include "fuzz.h"

void fuzz_split(const uint8_t *data, size_t size, struct fuzz_parts *parts)
{
	size_t start = 0;

	parts->n = 0;
	for (size_t i = 0; i < size && parts->n < FUZZ_MAX_PARTS - 1; i++) {
		if (data[i] != FUZZ_SEP)
			continue;
		parts->p[parts->n] = data + start;
		parts->len[parts->n++] = i - start;
		start = i + 1;
	}
	parts->p[parts->n] = data + start;
	parts->len[parts->n++] = size - start;
}

bool fuzz_skip(const char *property)
{
	const char *skip = getenv("UDRV_FUZZ_SKIP");
	size_t len = strlen(property);

	for (const char *p = skip; p && *p; p += strcspn(p, ",")) {
		p += *p == ',';
		if (!strncmp(p, property, len) && (p[len] == ',' || !p[len]))
			return true;
	}
	return false;
}

bool fuzz_has(const struct fuzz_parts *parts, size_t i)
{
	return i < parts->n &&
	       !(parts->len[i] == 1 && parts->p[i][0] == FUZZ_ABSENT);
}

char *fuzz_str(const struct fuzz_parts *parts, size_t i)
{
	size_t len = fuzz_has(parts, i) ? parts->len[i] : 0;
	char *s = malloc(len + 1);

	if (!s)
		abort();
	if (len)
		memcpy(s, parts->p[i], len);
	s[len] = '\0';
	return s;
}

static char root[PATH_MAX];

static void die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

const char *fuzz_root(void)
{
	const char *tmp;

	if (root[0])
		return root;
	/* run.py gives a directory it removes afterwards: a crash (abort())
	 * leaves the tree behind */
	tmp = getenv("UDRV_FUZZ_TMPDIR");
	if (!tmp)
		tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
	snprintf(root, sizeof(root), "%s/udrv-fuzz-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		die("mkdtemp", root);
	setenv("UDRV_SYSROOT", root, 1);
	return root;
}

__attribute__((destructor))
static void remove_root(void)
{
	if (root[0]) {
		fuzz_reset();
		rmdir(root);
	}
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0 && remove(path) < 0 && errno != ENOENT)
		die("remove", path);
	return 0;
}

void fuzz_reset(void)
{
	fuzz_root();
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void fuzz_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", fuzz_root(), rel);
}

void fuzz_mkdir(const char *rel)
{
	char path[PATH_MAX];
	size_t rlen = strlen(fuzz_root());

	fuzz_path(path, sizeof(path), rel);
	for (char *p = path + rlen + 1; ; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			die("mkdir", path);
		*p = c;
		if (!c)
			break;
	}
}

static void mkdir_parent(const char *rel)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		fuzz_mkdir(dir);
	}
}

void fuzz_write(const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX];
	int fd;

	mkdir_parent(rel);
	fuzz_path(path, sizeof(path), rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("open", path);
	if (len && write(fd, data, len) != (ssize_t)len)
		die("write", path);
	close(fd);
}

void fuzz_write_str(const char *rel, const char *s)
{
	fuzz_write(rel, s, strlen(s));
}

bool fuzz_write_part(const struct fuzz_parts *parts, size_t i, const char *rel)
{
	if (!fuzz_has(parts, i))
		return false;
	fuzz_write(rel, parts->p[i], parts->len[i]);
	return true;
}

void fuzz_symlink(const char *target, const char *rel)
{
	char path[PATH_MAX];

	mkdir_parent(rel);
	fuzz_path(path, sizeof(path), rel);
	if (symlink(target, path) < 0)
		die("symlink", path);
}

void fuzz_sparse(const char *rel, uint64_t size)
{
	char path[PATH_MAX];
	int fd;

	mkdir_parent(rel);
	fuzz_path(path, sizeof(path), rel);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		die("sparse file", path);
	close(fd);
}

const char *fuzz_text(const char *rel, size_t max)
{
	static char buf[65536];
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	fuzz_path(path, sizeof(path), rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0 || (size_t)n >= sizeof(buf) - 1 || memchr(buf, 0, (size_t)n))
		return NULL;
	/* what fits, with one final newline allowed beyond */
	if ((size_t)n > max - 1 &&
	    !((size_t)n == max && buf[max - 1] == '\n'))
		return NULL;
	if ((size_t)n > max - 1)
		n = (ssize_t)max - 1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return buf;
}

/*
 * Through the sanitizers' report: it reaches libFuzzer's stderr also when
 * -close_fd_mask has closed the program's.
 */
void fuzz_fail(const char *file, int line, const char *cond,
	       const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	int n;

	n = snprintf(msg, sizeof(msg), "property failed at %s:%d: %s: ", file, line, cond);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	__sanitizer_report_error_summary(msg);
	abort();
}

/* a strict JSON checker (RFC 8259, UTF-8) for what the library writes */

struct jp {
	const unsigned char *s, *end;
	int depth;
};

static void jp_space(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
				 *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool jp_lit(struct jp *p, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, lit, n))
		return false;
	p->s += n;
	return true;
}

/* One UTF-8 sequence at p->s (already known >= 0x80). */
static bool jp_utf8(struct jp *p)
{
	const unsigned char *s = p->s;
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4 || (size_t)(p->end - s) < n)
		return false;
	cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return false;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return false;
	p->s += n;
	return true;
}

static bool jp_string(struct jp *p)
{
	if (p->s >= p->end || *p->s != '"')
		return false;
	for (p->s++; p->s < p->end; ) {
		unsigned char c = *p->s;

		if (c == '"') {
			p->s++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c >= 0x80) {
			if (!jp_utf8(p))
				return false;
			continue;
		}
		p->s++;
		if (c != '\\')
			continue;
		if (p->s >= p->end)
			return false;
		c = *p->s++;
		if (c == 'u') {
			for (int i = 0; i < 4; i++, p->s++)
				if (p->s >= p->end || !strchr("0123456789abcdefABCDEF", *p->s) ||
				    !*p->s)
					return false;
		} else if (!strchr("\"\\/bfnrt", c) || !c) {
			return false;
		}
	}
	return false;
}

static bool jp_digits(struct jp *p)
{
	const unsigned char *start = p->s;

	while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
		p->s++;
	return p->s > start;
}

static bool jp_number(struct jp *p)
{
	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s < p->end && *p->s == '0')
		p->s++;
	else if (!jp_digits(p))
		return false;
	if (p->s < p->end && *p->s == '.') {
		p->s++;
		if (!jp_digits(p))
			return false;
	}
	if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
		p->s++;
		if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
			p->s++;
		if (!jp_digits(p))
			return false;
	}
	return true;
}

static bool jp_value(struct jp *p);

static bool jp_container(struct jp *p, char close, bool object)
{
	bool first = true;

	if (++p->depth > 64)
		return false;
	p->s++;
	jp_space(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return true;
	}
	for (;;) {
		if (!first) {
			jp_space(p);
			if (p->s < p->end && *p->s == close) {
				p->s++;
				p->depth--;
				return true;
			}
			if (p->s >= p->end || *p->s != ',')
				return false;
			p->s++;
		}
		first = false;
		jp_space(p);
		if (object) {
			if (!jp_string(p))
				return false;
			jp_space(p);
			if (p->s >= p->end || *p->s != ':')
				return false;
			p->s++;
		}
		if (!jp_value(p))
			return false;
	}
}

static bool jp_value(struct jp *p)
{
	jp_space(p);
	if (p->s >= p->end)
		return false;
	switch (*p->s) {
	case '{':
		return jp_container(p, '}', true);
	case '[':
		return jp_container(p, ']', false);
	case '"':
		return jp_string(p);
	case 't':
		return jp_lit(p, "true");
	case 'f':
		return jp_lit(p, "false");
	case 'n':
		return jp_lit(p, "null");
	default:
		return jp_number(p);
	}
}

bool fuzz_json_valid(const char *text, size_t len)
{
	struct jp p = { (const unsigned char *)text,
			(const unsigned char *)text + len, 0 };

	if (!jp_value(&p))
		return false;
	jp_space(&p);
	return p.s == p.end;
}

int fuzz_model_value(const char *s)
{
	static const char *const on[] = { "1", "on", "active", "high" };
	static const char *const off[] = { "0", "off", "inactive", "low" };

	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++) {
		if (!strcmp(s, on[i]))
			return 1;
		if (!strcmp(s, off[i]))
			return 0;
	}
	return -1;
}
