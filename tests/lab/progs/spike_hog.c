// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-spike-hog: a CPU hog of known length, for tests/lab/test_spike.py.
 *
 * At SCHED_FIFO PRIO (above a bench at 80) it sleeps SLEEP_US, then
 * busy-loops BUSY_US of CLOCK_MONOTONIC, COUNT times (0: until killed),
 * and prints each burst as a JSON line on stdout:
 *   {"pid": 321, "burst": 0, "start_ns": ..., "end_ns": ...}
 *
 * Usage: udrv-spike-hog PRIO BUSY_US SLEEP_US COUNT
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <udrv/parse.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: udrv-spike-hog PRIO(1..99) BUSY_US SLEEP_US COUNT\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned int prio, busy_us, sleep_us, count;
	struct sched_param sp;
	struct timespec ts;
	uint64_t t0, t1;

	if (argc != 5 || udrv_parse_uint(argv[1], 99, &prio) || !prio ||
	    udrv_parse_uint(argv[2], 10000000, &busy_us) ||
	    udrv_parse_uint(argv[3], 10000000, &sleep_us) ||
	    udrv_parse_uint(argv[4], 1000000, &count))
		return usage();
	sp.sched_priority = (int)prio;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("udrv-spike-hog: SCHED_FIFO/mlockall");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned int i = 0; !count || i < count; i++) {
		ts.tv_sec = sleep_us / 1000000;
		ts.tv_nsec = (long)(sleep_us % 1000000) * 1000;
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		t0 = now_ns();
		do
			t1 = now_ns();
		while (t1 - t0 < (uint64_t)busy_us * 1000);
		printf("{\"pid\": %d, \"burst\": %u, \"start_ns\": %llu, \"end_ns\": %llu}\n",
		       (int)getpid(), i, (unsigned long long)t0,
		       (unsigned long long)t1);
	}
	return 0;
}
