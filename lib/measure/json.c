// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A streaming JSON writer: it tracks nesting and commas, escapes strings
 * and prints doubles in the shortest form that reads back exactly.
 *
 * Misuse (a value without a key inside an object, a key outside one, a
 * mismatched end, nesting deeper than JSON_MAX_DEPTH) sets an error flag:
 * nothing more is written and udrv_json_free() returns -EINVAL. Calls on a
 * NULL writer do nothing, so a failed udrv_json_new() needs no checks in
 * between. Several top-level values are written one per line.
 */
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <udrv/json.h>

#include "internal.h"

#define JSON_MAX_DEPTH	32

struct udrv_json {
	FILE *out;
	bool pretty;
	bool error;
	bool after_key;		/* a key was written, its value is next */
	bool written;		/* anything at all was written */
	int depth;
	char type[JSON_MAX_DEPTH + 1];		/* '{' or '[' per level */
	unsigned long items[JSON_MAX_DEPTH + 1];	/* written per level */
};

struct udrv_json *udrv_json_new(FILE *out, bool pretty)
{
	struct udrv_json *j;

	if (!out) {
		errno = EINVAL;
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->out = out;
	j->pretty = pretty;
	return j;
}

/* Returns -EINVAL if unbalanced or misused, -EIO if the stream failed. */
int udrv_json_free(struct udrv_json *j)
{
	int ret = 0;

	if (!j)
		return 0;
	if (j->written)
		fputc('\n', j->out);
	if (j->error || j->depth || j->after_key)
		ret = -EINVAL;
	else if (fflush(j->out) || ferror(j->out))
		ret = -EIO;
	free(j);
	return ret;
}

static void newline_indent(struct udrv_json *j, int level)
{
	int i;

	fputc('\n', j->out);
	for (i = 0; i < level; i++)
		fputs("  ", j->out);
}

/* Separator before an array element, an object key or a top-level value. */
static void separate(struct udrv_json *j)
{
	if (j->depth == 0) {
		if (j->items[0])
			fputc('\n', j->out);
	} else {
		if (j->items[j->depth])
			fputc(',', j->out);
		if (j->pretty)
			newline_indent(j, j->depth);
	}
	j->items[j->depth]++;
	j->written = true;
}

/* Returns false if nothing may be written (error, or misuse now). */
static bool begin_value(struct udrv_json *j)
{
	if (!j || j->error)
		return false;
	if (j->after_key) {
		j->after_key = false;
		return true;
	}
	if (j->depth && j->type[j->depth] == '{') {
		j->error = true;	/* a value in an object needs a key */
		return false;
	}
	separate(j);
	return true;
}

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static void write_escape(FILE *out, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", out);
		break;
	case '\\':
		fputs("\\\\", out);
		break;
	case '\n':
		fputs("\\n", out);
		break;
	case '\r':
		fputs("\\r", out);
		break;
	case '\t':
		fputs("\\t", out);
		break;
	default:
		fprintf(out, "\\u%04x", c);
	}
}

/*
 * A quoted string: '"', '\' and control characters escaped, valid UTF-8
 * copied, invalid bytes replaced by U+FFFD so that the output stays JSON.
 */
static void write_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0, n;

	fputc('"', out);
	while (s[run]) {
		if (s[run] >= 0x20 && s[run] < 0x80 &&
		    s[run] != '"' && s[run] != '\\') {
			run++;
			continue;
		}
		n = s[run] >= 0x80 ? utf8_len(s + run) : 0;
		if (n) {
			run += n;
			continue;
		}
		fwrite(s, 1, run, out);
		if (s[run] >= 0x80)
			fputs("\\ufffd", out);
		else
			write_escape(out, s[run]);
		s += run + 1;
		run = 0;
	}
	fwrite(s, 1, run, out);
	fputc('"', out);
}

static void begin(struct udrv_json *j, char type)
{
	if (!begin_value(j))
		return;
	if (j->depth == JSON_MAX_DEPTH) {
		j->error = true;
		return;
	}
	fputc(type, j->out);
	j->depth++;
	j->type[j->depth] = type;
	j->items[j->depth] = 0;
}

static void end(struct udrv_json *j, char type)
{
	if (!j || j->error)
		return;
	if (!j->depth || j->type[j->depth] != type || j->after_key) {
		j->error = true;
		return;
	}
	if (j->pretty && j->items[j->depth])
		newline_indent(j, j->depth - 1);
	fputc(type == '{' ? '}' : ']', j->out);
	j->depth--;
}

void udrv_json_obj_begin(struct udrv_json *j)
{
	begin(j, '{');
}

void udrv_json_obj_end(struct udrv_json *j)
{
	end(j, '{');
}

void udrv_json_arr_begin(struct udrv_json *j)
{
	begin(j, '[');
}

void udrv_json_arr_end(struct udrv_json *j)
{
	end(j, '[');
}

void udrv_json_key(struct udrv_json *j, const char *key)
{
	if (!j || j->error)
		return;
	if (!j->depth || j->type[j->depth] != '{' || j->after_key || !key) {
		j->error = true;
		return;
	}
	separate(j);
	write_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

void udrv_json_str(struct udrv_json *j, const char *s)
{
	if (!begin_value(j))
		return;
	if (s)
		write_string(j->out, s);
	else
		fputs("null", j->out);
}

void udrv_json_int(struct udrv_json *j, int64_t v)
{
	if (begin_value(j))
		fprintf(j->out, "%" PRId64, v);
}

void udrv_json_uint(struct udrv_json *j, uint64_t v)
{
	if (begin_value(j))
		fprintf(j->out, "%" PRIu64, v);
}

/* Replace the locale's decimal point (if it is not '.') by '.'. */
static void c_decimal_point(char *buf)
{
	const char *dp = localeconv()->decimal_point;
	size_t dlen = dp ? strlen(dp) : 0;
	char *p;

	if (!dlen || !strcmp(dp, "."))
		return;
	p = strstr(buf, dp);
	if (!p)
		return;
	*p = '.';
	memmove(p + 1, p + dlen, strlen(p + dlen) + 1);
}

/* The shortest of %.15g, %.16g and %.17g that reads back as @v. */
static void format_double(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, len, "%.17g", v);
	c_decimal_point(buf);
}

void udrv_json_double(struct udrv_json *j, double v)
{
	char buf[40];

	if (!begin_value(j))
		return;
	if (!isfinite(v)) {
		fputs("null", j->out);
		return;
	}
	format_double(buf, sizeof(buf), v);
	fputs(buf, j->out);
}

void udrv_json_bool(struct udrv_json *j, bool v)
{
	if (begin_value(j))
		fputs(v ? "true" : "false", j->out);
}

void udrv_json_null(struct udrv_json *j)
{
	if (begin_value(j))
		fputs("null", j->out);
}

void udrv_json_kstr(struct udrv_json *j, const char *key, const char *s)
{
	udrv_json_key(j, key);
	udrv_json_str(j, s);
}

void udrv_json_kint(struct udrv_json *j, const char *key, int64_t v)
{
	udrv_json_key(j, key);
	udrv_json_int(j, v);
}

void udrv_json_kuint(struct udrv_json *j, const char *key, uint64_t v)
{
	udrv_json_key(j, key);
	udrv_json_uint(j, v);
}

void udrv_json_kdouble(struct udrv_json *j, const char *key, double v)
{
	udrv_json_key(j, key);
	udrv_json_double(j, v);
}

void udrv_json_kbool(struct udrv_json *j, const char *key, bool v)
{
	udrv_json_key(j, key);
	udrv_json_bool(j, v);
}
