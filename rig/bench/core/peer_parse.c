// SPDX-License-Identifier: GPL-2.0-only
/*
 * The strict reader of the peer's lines (peer_parse.h), and the peers' writer
 * of how they run.
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fields.h"
#include "peer_parse.h"

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

/* The numbers after the key go through bench_read_u64s() (fields.c). */
int bench_peer_line(const char *line, size_t len, char *key, size_t keylen,
		    uint64_t *vals, unsigned int max, unsigned int *n)
{
	/* each number as long as bench_read_u64s() takes it, its space or the
	 * newline, and the NUL */
	char buf[BENCH_PEER_MAX_VALS * (BENCH_FIELD_DIGITS + 1) + 1];
	size_t i = 0, rest;
	unsigned int k = 1;

	while (i < len && key_char(line[i]))
		i++;
	if (!i || i >= keylen)
		return -EINVAL;
	memcpy(key, line, i);
	key[i] = '\0';
	if (i == len) {
		*n = 0;
		return 0;
	}
	rest = len - i - 1;
	if (line[i] != ' ' || rest + 2 > sizeof(buf))
		return -EINVAL;
	memcpy(buf, line + i + 1, rest);
	buf[rest] = '\n';
	buf[rest + 1] = '\0';
	for (size_t j = 0; j < rest; j++)
		k += buf[j] == ' ';
	if (k > max || k > BENCH_FIELDS_MAX || bench_read_u64s(buf, vals, (int)k))
		return -EINVAL;
	*n = k;
	return 0;
}

static int find_key(const struct bench_peer_key *keys, size_t nkeys,
		    const char *key)
{
	for (size_t i = 0; i < nkeys; i++)
		if (!strcmp(keys[i].name, key))
			return (int)i;
	return -1;
}

/* Every required key seen? */
static int check_required(const struct bench_peer_key *keys, size_t nkeys,
			  const unsigned int *seen, char *why, size_t whylen)
{
	for (size_t i = 0; i < nkeys; i++)
		if ((keys[i].flags & BENCH_PEER_REQUIRED) && !seen[i]) {
			snprintf(why, whylen, "no '%s' line", keys[i].name);
			return -EINVAL;
		}
	return 0;
}

int bench_peer_text(const char *text, size_t len,
		    const struct bench_peer_key *keys, size_t nkeys,
		    const char *end,
		    int (*fn)(void *ctx, size_t key, const uint64_t *vals),
		    void *ctx, char *why, size_t whylen)
{
	unsigned int seen[32] = { 0 }, lineno = 0, n;
	uint64_t vals[BENCH_PEER_MAX_VALS];
	char key[BENCH_PEER_KEY_LEN];
	const char *p = text, *nl;
	int idx, ret;

	if (nkeys > sizeof(seen) / sizeof(seen[0]))
		return -EINVAL;
	for (; p < text + len; p = nl + 1) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(text + len - p));
		if (!nl) {
			snprintf(why, whylen, "line %u: no newline at its end", lineno);
			return -EINVAL;
		}
		if ((size_t)(nl - p) == strlen(end) && !memcmp(p, end, strlen(end))) {
			if (nl + 1 != text + len) {
				snprintf(why, whylen, "line %u: text after '%s'", lineno + 1, end);
				return -EINVAL;
			}
			return check_required(keys, nkeys, seen, why, whylen);
		}
		if (bench_peer_line(p, (size_t)(nl - p), key, sizeof(key), vals,
				    BENCH_PEER_MAX_VALS, &n)) {
			snprintf(why, whylen, "line %u: not 'key N...': '%.*s'",
				 lineno, nl - p > 40 ? 40 : (int)(nl - p), p);
			return -EINVAL;
		}
		idx = find_key(keys, nkeys, key);
		if (idx < 0 || keys[idx].nvals != n) {
			snprintf(why, whylen, idx < 0 ? "line %u: unknown key '%s'" :
				 "line %u: '%s' takes another number of values",
				 lineno, key);
			return -EINVAL;
		}
		if (seen[idx]++ && !(keys[idx].flags & BENCH_PEER_MANY)) {
			snprintf(why, whylen, "line %u: '%s' twice", lineno, key);
			return -EINVAL;
		}
		ret = fn ? fn(ctx, (size_t)idx, vals) : 0;
		if (ret)
			return ret;
	}
	snprintf(why, whylen, "no '%s' line: the output stops early", end);
	return -EINVAL;
}

void bench_peer_print_sched(int locked)
{
	struct sched_param sp = { 0 };
	uint64_t mask = 0;
	cpu_set_t cpus;
	int policy = sched_getscheduler(0);

	sched_getparam(0, &sp);
	CPU_ZERO(&cpus);
	if (!sched_getaffinity(0, sizeof(cpus), &cpus))
		for (int c = 0; c < 64; c++)
			if (CPU_ISSET(c, &cpus))
				mask |= 1ULL << c;
	printf("sched %d %d\naffinity %llu\nmlocked %d\n", policy < 0 ? 0 : policy,
	       sp.sched_priority, (unsigned long long)mask, locked);
}

static int set_cpus(int cpu, char *why, size_t len)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	if (cpu >= 0 && cpu < CPU_SETSIZE)
		CPU_SET(cpu, &cpus);
	for (long c = 0; cpu < 0 && c < n && c < CPU_SETSIZE; c++)
		CPU_SET((int)c, &cpus);
	if (!sched_setaffinity(0, sizeof(cpus), &cpus))
		return 0;
	snprintf(why, len, "sched_setaffinity(%s%d): %s", cpu < 0 ? "every CPU, " : "CPU ",
		 cpu < 0 ? (int)n : cpu, strerror(errno));
	return -1;
}

int bench_peer_set_sched(int prio, int cpu, bool mlock, char *why, size_t len)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(0, prio ? SCHED_FIFO : SCHED_OTHER, &sp) ||
	    (!prio && setpriority(PRIO_PROCESS, 0, 0))) {
		snprintf(why, len, "%s %d: %s", prio ? "SCHED_FIFO" : "SCHED_OTHER", prio,
			 strerror(errno));
		return -1;
	}
	if (set_cpus(cpu, why, len))
		return -1;
	if (mlock ? mlockall(MCL_CURRENT | MCL_FUTURE) : munlockall()) {
		snprintf(why, len, "%s: %s", mlock ? "mlockall" : "munlockall", strerror(errno));
		return -1;
	}
	return 0;
}
