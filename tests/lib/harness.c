// SPDX-License-Identifier: GPL-2.0-only
/* The unit test harness: see harness.h. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

int harness_failures;
static char root[PATH_MAX];

void harness_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "# %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	harness_failures++;
}

static void remove_tree(const char *dir)
{
	char cmd[PATH_MAX + 16];

	if (!dir[0] || !strstr(dir, "udrv-test."))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", dir);
}

static void make_root(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/udrv-test.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(2);
	}
}

/* The parent owns each test's temporary root, so that a test which drops
 * privileges still gets its tree removed. */
static int run_one(const struct harness_test *t)
{
	int status;
	pid_t pid;

	make_root();
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		harness_failures = 0;
		t->fn();
		fflush(stdout);
		_exit(harness_failures ? 1 : 0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	remove_tree(root);
	if (WIFSIGNALED(status))
		printf("# %s: killed by signal %d\n", t->name, WTERMSIG(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int harness_run(const struct harness_test *tests, size_t n)
{
	size_t i, failed = 0;

	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		int ok = run_one(&tests[i]) == 0;

		printf("%sok %zu - %s\n", ok ? "" : "not ", i + 1, tests[i].name);
		failed += !ok;
	}
	return failed ? 1 : 0;
}

const char *fake_root(void)
{
	setenv("UDRV_SYSROOT", root, 1);
	return root;
}

void fake_sysroot_too_long(void)
{
	static char longroot[600];

	memset(longroot, 'x', sizeof(longroot) - 1);
	longroot[0] = '/';
	setenv("UDRV_SYSROOT", longroot, 1);
}

const char *fake_root_dir(void)
{
	return root;
}

void fake_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", root, rel);
}

static void mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

void fake_dir(const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX + 64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	fake_path(path, sizeof(path), rel);
	mkdir_p(path);
}

static void parent_dir(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdir_p(dir);
	}
}

void fake_file(const char *rel, const char *content)
{
	char path[PATH_MAX + 64];
	FILE *f;

	fake_path(path, sizeof(path), rel);
	parent_dir(path);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(content, f);
	fclose(f);
}

void fake_symlink(const char *target, const char *rel)
{
	char path[PATH_MAX + 64];

	fake_path(path, sizeof(path), rel);
	parent_dir(path);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(2);
	}
}

void fake_fifo(const char *rel)
{
	char path[PATH_MAX + 64];

	fake_path(path, sizeof(path), rel);
	parent_dir(path);
	if (mkfifo(path, 0600) < 0) {
		perror(path);
		exit(2);
	}
}

char *fake_read(const char *rel)
{
	char path[PATH_MAX + 64];
	char *buf;
	FILE *f;
	long n;

	fake_path(path, sizeof(path), rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	buf = calloc(1, 65536);
	n = buf ? (long)fread(buf, 1, 65535, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

char *harness_load(const char *dir, const char *name, size_t *len)
{
	char path[PATH_MAX];
	char *buf = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0) {
		rewind(f);
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
			buf[n] = '\0';
			*len = (size_t)n;
			fclose(f);
			return buf;
		}
	}
	harness_fail(__FILE__, __LINE__, "cannot read %s: %s", path, strerror(errno));
	exit(1);
}

bool fake_starts_with(const char *rel, const char *want)
{
	char *got = fake_read(rel);
	bool ok = got && !strncmp(got, want, strlen(want));

	if (!ok)
		printf("# %s holds '%s', expected '%s'\n", rel, got ? got : "?", want);
	free(got);
	return ok;
}
