// SPDX-License-Identifier: GPL-2.0-only
/* udrvd's state file: read, written, saved atomically (state.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <udrv/parse.h>

#include "state.h"
#include "words.h"

#define HEADER		"udrvd-state 1"
#define MAX_FILE	(4 << 20)
#define MAX_WORDS	11
#define MAX_OFFSET	65534

struct reader {
	const char *path;
	unsigned int lineno;
	char *msg;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct reader *rd, const char *fmt, ...)
{
	int n = snprintf(rd->msg, UDRVD_STATE_MSG_LEN, "%s:%u: ", rd->path, rd->lineno);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && n < UDRVD_STATE_MSG_LEN)
		vsnprintf(rd->msg + n, UDRVD_STATE_MSG_LEN - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* @w, %XX-escaped, into @out (at most @len - 1 bytes, no NUL, not empty). */
static int unescape(const char *w, char *out, size_t len)
{
	size_t n = 0;

	for (; *w; w++) {
		int c = (unsigned char)*w;

		if (c == '%') {
			int hi = hex(w[1]), lo = hi < 0 ? -1 : hex(w[2]);

			if (hi < 0 || lo < 0)
				return -EINVAL;
			c = hi << 4 | lo;
			if (!c || (c > ' ' && c <= '~' && c != '%'))
				return -EINVAL;	/* only what must be escaped is */
			w += 2;
		} else if (c <= ' ' || c > '~') {
			return -EINVAL;
		}
		if (n + 1 >= len)
			return -EINVAL;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return n ? 0 : -EINVAL;
}

static void escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c > '~' || c == '%')
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
}

static int decimal(const char *w, unsigned int max, unsigned int *v)
{
	if (strspn(w, "0123456789") != strlen(w))
		return -EINVAL;
	return udrv_parse_uint(w, max, v);
}

static int word(enum udrvd_word_kind kind, const char *w, int *v)
{
	return udrvd_word_parse(kind, w, v);
}

static int read_request(struct reader *rd, char **w, struct udrvd_state_req *r)
{
	unsigned int uid;

	memset(r, 0, sizeof(*r));
	if (decimal(w[1], (unsigned int)-2, &uid))
		return fail(rd, "'%s' is not an owner's uid", w[1]);
	r->owner = (uid_t)uid;
	if (unescape(w[2], r->chip, sizeof(r->chip)) || unescape(w[3], r->label, sizeof(r->label)) ||
	    unescape(w[4], r->consumer, sizeof(r->consumer)))
		return fail(rd, "a chip name, label or consumer that is empty, too long or badly escaped");
	return 0;
}

static int read_line(struct reader *rd, char **w, struct udrvd_state_req *r)
{
	struct udrv_line_settings *s = &r->settings[r->n];
	unsigned int off, value, low, debounce;
	int dir, bias, drive, edge, clock;

	if (r->n == UDRV_LINES_MAX)
		return fail(rd, "more than %d lines in one request", UDRV_LINES_MAX);
	if (decimal(w[1], MAX_OFFSET, &off) || decimal(w[3], 1, &value) ||
	    decimal(w[4], 1, &low) || decimal(w[8], UINT32_MAX, &debounce))
		return fail(rd, "an offset (0-%d), value, active-low (0 or 1) or debounce is not a number in range",
			    MAX_OFFSET);
	if (word(UDRVD_W_DIRECTION, w[2], &dir) || word(UDRVD_W_BIAS, w[5], &bias) ||
	    word(UDRVD_W_DRIVE, w[6], &drive) || word(UDRVD_W_EDGE, w[7], &edge) ||
	    word(UDRVD_W_CLOCK, w[9], &clock))
		return fail(rd, "a direction, bias, drive, edge or clock that is not one of libudrv's words");
	for (size_t i = 0; i < r->n; i++)
		if (r->offsets[i] == off)
			return fail(rd, "offset %u twice in one request", off);
	r->offsets[r->n] = off;
	*s = (struct udrv_line_settings){
		.direction = (enum udrv_direction)dir, .value = (int)value,
		.active_low = low, .bias = (enum udrv_bias)bias, .drive = (enum udrv_drive)drive,
		.edge = (enum udrv_edge)edge, .debounce_us = debounce,
		.event_clock = (enum udrv_clock)clock,
	};
	r->n++;
	return 0;
}

static size_t split(char *line, char **w)
{
	char *save = NULL;
	size_t n = 0;

	for (char *p = strtok_r(line, " ", &save); p; p = strtok_r(NULL, " ", &save))
		if (n < MAX_WORDS)
			w[n++] = p;
		else
			return MAX_WORDS + 1;
	return n;
}

/* One line of the file, @inside a request block or not. */
static int read_one(struct reader *rd, char *line, struct udrvd_state *st, bool *inside)
{
	char *w[MAX_WORDS];
	size_t n = split(line, w);
	struct udrvd_state_req *r;

	if (!*inside && n == 5 && !strcmp(w[0], "request")) {
		r = udrvd_state_add(st);
		if (!r)
			return fail(rd, "more than %d requests", UDRVD_STATE_MAX_REQS);
		*inside = true;
		return read_request(rd, w, r);
	}
	r = *inside ? &st->reqs[st->n] : NULL;
	if (r && n == 10 && !strcmp(w[0], "line"))
		return read_line(rd, w, r);
	if (r && n == 1 && !strcmp(w[0], "end")) {
		if (!r->n)
			return fail(rd, "a request without lines");
		*inside = false;
		st->n++;
		return 0;
	}
	return fail(rd, *inside ? "expected 'line' with 9 fields or 'end'" :
		    "expected 'request OWNER CHIP LABEL CONSUMER'");
}

int udrvd_state_parse(const char *text, size_t len, const char *path,
		      struct udrvd_state *st, char msg[UDRVD_STATE_MSG_LEN])
{
	struct reader rd = { path, 0, msg };
	char line[1024];
	bool inside = false;
	int err = 0;

	memset(st, 0, sizeof(*st));
	msg[0] = '\0';
	if (len && text[len - 1] != '\n') {
		for (size_t i = 0; i < len; i++)
			rd.lineno += text[i] == '\n';
		rd.lineno++;	/* the last, unfinished line */
		return fail(&rd, "the file does not end with a newline: cut short");
	}
	for (size_t at = 0; at < len && !err;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = (size_t)(nl - (text + at));

		rd.lineno++;
		if (n >= sizeof(line) || memchr(text + at, '\0', n)) {
			err = fail(&rd, "a line longer than %zu bytes, or a NUL byte", sizeof(line) - 1);
			break;
		}
		memcpy(line, text + at, n);
		line[n] = '\0';
		at += n + 1;
		if (rd.lineno > 1)
			err = read_one(&rd, line, st, &inside);
		else if (strcmp(line, HEADER))
			err = fail(&rd, "not a udrvd state file (no '" HEADER "')");
	}
	if (!err && len && inside)
		err = fail(&rd, "the last request has no 'end': cut short");
	if (!err && !len)
		err = fail(&rd, "empty: not a udrvd state file");
	if (err)
		udrvd_state_free(st);
	return err;
}

/*
 * The state's folder, opened (its fd into *@dirfd) and checked: a folder,
 * udrvd's own (or root's) and writable by its owner alone, so that nobody
 * else can plant a file or a symbolic link in it. @name is the file's name
 * in it. One level is made (0700) when it is missing, as StateDirectory=
 * makes it; a missing parent is an error.
 */
static int open_dir(const char *path, int *dirfd, const char **name,
		    char msg[UDRVD_STATE_MSG_LEN])
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat sb;
	int fd;

	*name = slash ? slash + 1 : path;
	if (!**name) {
		snprintf(msg, UDRVD_STATE_MSG_LEN, "the state %s names a folder, not a file", path);
		return -EISDIR;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir)) {
		snprintf(msg, UDRVD_STATE_MSG_LEN, "the state's path is too long: %.64s...", path);
		return -ENAMETOOLONG;
	}
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		if (mkdir(dir, 0700) && errno != EEXIST) {
			int err = -errno;

			snprintf(msg, UDRVD_STATE_MSG_LEN, "cannot make the state's folder %s: %s%s",
				 dir, strerror(-err), err == -ENOENT || err == -EACCES ?
				 " (it must exist and be udrvd's: StateDirectory= in the unit)" : "");
			return err;
		}
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0 || fstat(fd, &sb)) {
		int err = -errno;

		snprintf(msg, UDRVD_STATE_MSG_LEN, "cannot open the state's folder %s: %s", dir,
			 strerror(-err));
		if (fd >= 0)
			close(fd);
		return err;
	}
	if ((sb.st_uid != geteuid() && sb.st_uid != 0) || (sb.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(msg, UDRVD_STATE_MSG_LEN,
			 "the state's folder %s is owned by uid %u, mode %04o: another user could plant the state or a link in it; it must be udrvd's (uid %u) or root's and writable by its owner alone (chown %u %s; chmod 0700 %s; StateDirectory= in the unit does it)",
			 dir, (unsigned int)sb.st_uid, (unsigned int)(sb.st_mode & 07777),
			 (unsigned int)geteuid(), (unsigned int)geteuid(), dir, dir);
		close(fd);
		return -EPERM;
	}
	*dirfd = fd;
	return 0;
}

/* The state file, open on @fd, is udrvd's and nobody else may write it. */
static int check_file(int fd, const char *path, char msg[UDRVD_STATE_MSG_LEN])
{
	struct stat sb;

	if (fstat(fd, &sb))
		return -errno;
	if (S_ISREG(sb.st_mode) && (sb.st_uid == geteuid() || sb.st_uid == 0) &&
	    !(sb.st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	snprintf(msg, UDRVD_STATE_MSG_LEN,
		 "the state %s is not udrvd's: %s, owned by uid %u, mode %04o; udrvd writes it itself (uid %u, 0600): remove it",
		 path, S_ISREG(sb.st_mode) ? "a file" : "not a regular file",
		 (unsigned int)sb.st_uid, (unsigned int)(sb.st_mode & 07777),
		 (unsigned int)geteuid());
	return -EPERM;
}

int udrvd_state_load(const char *path, struct udrvd_state *st, char msg[UDRVD_STATE_MSG_LEN])
{
	const char *name;
	char *text = NULL;
	size_t len = 0;
	ssize_t n = 1;
	int dirfd, fd, err;

	memset(st, 0, sizeof(*st));
	msg[0] = '\0';
	err = open_dir(path, &dirfd, &name, msg);
	if (err)
		return err;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	err = fd < 0 ? -errno : 0;
	close(dirfd);
	if (err == -ENOENT)
		return 0;
	if (err == -ELOOP) {
		snprintf(msg, UDRVD_STATE_MSG_LEN,
			 "the state %s is a symbolic link: not udrvd's, which it does not follow; remove it",
			 path);
		return err;
	}
	if (!err) {
		err = check_file(fd, path, msg);
		if (err == -EPERM)
			goto out_fd;
	}
	if (!err && !(text = malloc(MAX_FILE + 1)))
		err = -ENOMEM;
	if (err)
		goto out;
	while (n > 0 && len <= MAX_FILE) {
		n = read(fd, text + len, MAX_FILE + 1 - len);
		if (n < 0 && errno == EINTR)
			n = 1;
		else if (n > 0)
			len += (size_t)n;
	}
	err = n < 0 ? -errno : len > MAX_FILE ? -EFBIG : 0;
out:
	if (err)
		snprintf(msg, UDRVD_STATE_MSG_LEN, "cannot read the state %s: %s", path,
			 strerror(-err));
	else
		err = udrvd_state_parse(text, len, path, st, msg);
out_fd:
	if (fd >= 0)
		close(fd);
	free(text);
	return err;
}

int udrvd_state_format(const struct udrvd_state *st, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (!f)
		return -ENOMEM;
	fputs(HEADER "\n", f);
	for (size_t i = 0; i < st->n; i++) {
		const struct udrvd_state_req *r = &st->reqs[i];

		fprintf(f, "request %u ", (unsigned int)r->owner);
		escape(f, r->chip);
		fputc(' ', f);
		escape(f, r->label);
		fputc(' ', f);
		escape(f, r->consumer);
		fputc('\n', f);
		for (size_t k = 0; k < r->n; k++) {
			const struct udrv_line_settings *s = &r->settings[k];

			fprintf(f, "line %u %s %d %d %s %s %s %u %s\n", r->offsets[k],
				udrvd_word(UDRVD_W_DIRECTION, s->direction), s->value ? 1 : 0,
				s->active_low ? 1 : 0, udrvd_word(UDRVD_W_BIAS, s->bias),
				udrvd_word(UDRVD_W_DRIVE, s->drive), udrvd_word(UDRVD_W_EDGE, s->edge),
				s->debounce_us, udrvd_word(UDRVD_W_CLOCK, s->event_clock));
		}
		fputs("end\n", f);
	}
	return fclose(f) ? -ENOMEM : 0;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Written beside the state as NAME.tmp, made anew (O_EXCL: whatever is
 * there, a file or a link someone planted, is removed, never followed or
 * written through), 0600: only udrvd reads it. Then renamed over the state
 * (a rename replaces a link, it does not follow it) and the folder synced.
 */
static int write_tmp(int dirfd, const char *tmp, const char *text, size_t len)
{
	int fd, err;

	if (unlinkat(dirfd, tmp, 0) && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	err = write_all(fd, text, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

int udrvd_state_write(const char *path, const char *text, size_t len,
		      char msg[UDRVD_STATE_MSG_LEN])
{
	char tmp[NAME_MAX + 1];
	const char *name;
	int dirfd, err;

	msg[0] = '\0';
	err = open_dir(path, &dirfd, &name, msg);
	if (err)
		return err;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", name) >= (int)sizeof(tmp))
		err = -ENAMETOOLONG;
	else
		err = write_tmp(dirfd, tmp, text, len);
	if (!err && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (!err && fsync(dirfd))
		err = -errno;
	close(dirfd);
	if (err)
		snprintf(msg, UDRVD_STATE_MSG_LEN, "cannot write the state %s: %s", path,
			 strerror(-err));
	return err;
}

int udrvd_state_save(const char *path, const struct udrvd_state *st,
		     char msg[UDRVD_STATE_MSG_LEN])
{
	char *text = NULL;
	size_t len = 0;
	int err = udrvd_state_format(st, &text, &len);

	if (err) {
		snprintf(msg, UDRVD_STATE_MSG_LEN, "cannot write the state %s: %s", path,
			 strerror(-err));
		return err;
	}
	err = udrvd_state_write(path, text, len, msg);
	free(text);
	return err;
}

struct udrvd_state_req *udrvd_state_add(struct udrvd_state *st)
{
	struct udrvd_state_req *reqs;

	if (st->n == UDRVD_STATE_MAX_REQS)
		return NULL;
	reqs = realloc(st->reqs, (st->n + 1) * sizeof(*reqs));
	if (!reqs)
		return NULL;
	st->reqs = reqs;
	memset(&reqs[st->n], 0, sizeof(reqs[0]));
	return &reqs[st->n];
}

void udrvd_state_free(struct udrvd_state *st)
{
	free(st->reqs);
	st->reqs = NULL;
	st->n = 0;
}
