// SPDX-License-Identifier: GPL-2.0-only
/*
 * Load profiles for the benches and 'udrv-bench load': the non-RT load of the
 * gpioirqbench measurements, built in so that a busybox rootfs needs
 * nothing else.
 *
 *   hackbench  groups of processes messaging over socketpairs (scheduler,
 *              IPC, wakeups)
 *   memory     a 64 MiB buffer written and read with a cache-line stride
 *              (cache and memory bandwidth, TLB)
 *   fork       fork + exec of 'ls /bin' in a loop, like
 *              'while ls; do ls /bin; done' (page faults, exec, exit)
 *   all        the three together
 *
 * The load runs in its own process group at SCHED_OTHER; stopping it kills
 * the group.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"
#include "benches.h"

#define HB_GROUPS	2
#define HB_PAIRS	5	/* senders = receivers per group */
#define HB_MSG		100
#define MEM_BYTES	(64u << 20)

const char load_profiles_help[] =
"Load profiles (SCHED_OTHER; with a bench's --load, started and stopped by\n"
"the bench):\n"
"  hackbench  2 groups of 5 senders and 5 receivers messaging over\n"
"             socketpairs (scheduler, IPC, wakeups)\n"
"  memory     a 64 MiB buffer written and read with a cache-line stride\n"
"  fork       fork + exec 'ls /bin' in a loop (page faults, exec, exit)\n"
"  all        all three together\n";

int load_profile_valid(const char *p)
{
	return !strcmp(p, "none") || !strcmp(p, "hackbench") ||
	       !strcmp(p, "memory") || !strcmp(p, "fork") || !strcmp(p, "all");
}

static void hb_sender(int fd)
{
	char msg[HB_MSG] = { 0 };

	for (;;)
		if (write(fd, msg, sizeof(msg)) < 0 && errno != EINTR)
			_exit(0);
}

static void hb_receiver(int fd)
{
	char msg[HB_MSG];

	for (;;)
		if (read(fd, msg, sizeof(msg)) <= 0 && errno != EINTR)
			_exit(0);
}

static void spawn(void (*fn)(int), int fd)
{
	if (fork() == 0) {
		fn(fd);
		_exit(0);
	}
}

static void load_hackbench(void)
{
	int sv[2];

	for (int g = 0; g < HB_GROUPS; g++)
		for (int i = 0; i < HB_PAIRS; i++) {
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
				_exit(1);
			spawn(hb_sender, sv[0]);
			spawn(hb_receiver, sv[1]);
			close(sv[0]);
			close(sv[1]);
		}
}

static void memory_thrash(int unused)
{
	volatile unsigned char *buf = malloc(MEM_BYTES);
	unsigned long sum = 0;

	(void)unused;
	if (!buf)
		_exit(1);
	for (unsigned int pass = 0;; pass++) {
		for (size_t i = 0; i < MEM_BYTES; i += 64)
			buf[i] = (unsigned char)(i + pass);
		for (size_t i = 32; i < MEM_BYTES; i += 64)
			sum += buf[i];
	}
	(void)sum;
}

static void fork_storm(int unused)
{
	(void)unused;
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			int null = open("/dev/null", 1);

			if (null >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
			}
			execlp("ls", "ls", "/bin", (char *)NULL);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, NULL, 0) < 0)
			usleep(1000);
	}
}

/*
 * The load is forked without exec: close what it inherited from the bench
 * (line requests, UIO devices, tracefs files), or its processes hold them
 * too, until the last of them has exited (before load_stop() reaped them
 * all, the next bench found its line busy). stdin, stdout and stderr stay.
 */
static void load_close_fds(void)
{
	if (close_range(3, ~0U, 0) == 0)
		return;
	for (int fd = 3; fd < 65536; fd++)	/* kernels before 5.9 */
		close(fd);
}

/* The load's process group leader: start the workers, then wait. */
static void load_leader(const char *profile)
{
	struct sched_param sp = { 0 };
	bool all = !strcmp(profile, "all");

	sched_setscheduler(0, SCHED_OTHER, &sp);
	setpgid(0, 0);
	load_close_fds();
	if (all || !strcmp(profile, "hackbench"))
		load_hackbench();
	if (all || !strcmp(profile, "memory"))
		spawn(memory_thrash, -1);
	if (all || !strcmp(profile, "fork"))
		spawn(fork_storm, -1);
	for (;;)
		pause();
}

/*
 * The bench is the load's subreaper: when the leader dies, its workers (and
 * theirs: fork's ls) become the bench's children, so load_stop() reaps
 * every process of the load before it returns, and the next bench starts
 * with none of it still running. Without it they were init's, and several
 * were still exiting, runnable, when the bench had returned (ps in the lab).
 */
int load_start(const char *profile, pid_t *pid, char *err, size_t errlen)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		snprintf(err, errlen, "prctl(PR_SET_CHILD_SUBREAPER): %s", strerror(errno));
		return -1;
	}
	*pid = fork();
	if (*pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (*pid == 0)
		load_leader(profile);
	setpgid(*pid, *pid);	/* also here: no race with the child's */
	usleep(100000);		/* let it get going */
	return 0;
}

/* Every process of the load killed and reaped: the leader, then its
 * workers as they come to the bench (load_start()'s subreaper). */
void load_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	while (waitpid(-pid, NULL, 0) > 0 || errno == EINTR)
		;
}

static const char load_help[] =
"Usage: udrv-bench load PROFILE [-D|--duration D]\n"
"\n"
"Run a load profile in the foreground until --duration has passed or it is\n"
"stopped (Ctrl-C, SIGTERM), e.g. in a second shell while measuring something\n"
"else. The benches start and stop the same loads themselves with --load.\n"
"\n";

static volatile sig_atomic_t load_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	load_interrupted = 1;
}

int cmd_bench_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t duration = 0;
	char err[128];
	pid_t pid;
	int opt;

	while ((opt = getopt_long(argc, argv, "D:h", opts, NULL)) != -1) {
		if (opt == 'h')
			return printf("%s%s", load_help, load_profiles_help), EXIT_OK;
		if (opt != 'D' || udrv_parse_duration_ns(optarg, BENCH_DURATION_MAX_NS, &duration))
			return bench_usage("load", "bad option or --duration");
	}
	if (argc - optind != 1 || !load_profile_valid(argv[optind]) ||
	    !strcmp(argv[optind], "none"))
		return bench_usage("load", "give one PROFILE: hackbench, memory, fork or all");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (load_start(argv[optind], &pid, err, sizeof(err)))
		return bench_error(EXIT_FAIL, "%s", err);
	for (uint64_t t0 = bench_now_ns(); !load_interrupted &&
	     (!duration || bench_now_ns() - t0 < duration);)
		usleep(50000);
	load_stop(pid);
	return EXIT_OK;
}
