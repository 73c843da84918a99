// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench toggle: the loops udrv is compared with, on the same line.
 *
 *   sysfs-shell/sh   a /bin/sh loop 'echo 1 > value; echo 0 > value'
 *   sysfs/raw        write(fd, "1", 1) on the value file kept open
 *                    (VanguardiaSur's C loop; docs/references.md)
 *   cdev/raw         ioctl(GPIO_V2_LINE_SET_VALUES_IOCTL) on a line fd from a
 *                    bare GPIO_V2_GET_LINE_IOCTL
 *   cdev/libgpiod-2.3  libgpiod 2.3's gpiod_line_request_set_value(), in
 *                    udrv-bench-peer (peer.h): udrv links no libgpiod
 *   mmio/raw         bare volatile stores to the set and clear registers of
 *                    a bare mmap, the line claimed by a bare ioctl
 *                    (VanguardiaSur's mmap loop)
 *
 * No libudrv call in any of the loops; libudrv only finds the chip's path,
 * sysfs base, line name and registers beforehand.
 *
 * Where the registers are known (a SoC the mmio backend knows), every row is
 * checked in the level register (GPLEVn, GPIO_DATAIN) after its batches: set
 * 1 through the row's mechanism, the level bit reads 1; set 0, it reads 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "toggle.h"
#include "msg.h"

#define CONSUMER "udrv-bench"

/* sysfs attributes */

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	err = n < 0 ? errno : 0;
	close(fd);
	return n < 0 ? -err : 0;
}

static bool find_line_dir(char *dir, size_t len, int gpio, const char *name)
{
	struct stat st;

	snprintf(dir, len, "/sys/class/gpio/gpio%d", gpio);
	if (!stat(dir, &st))
		return true;
	snprintf(dir, len, "/sys/class/gpio/%s", name);
	return name[0] && !stat(dir, &st);
}

int toggle_sysfs_export(struct toggle *t)
{
	struct udrv_line_info li = { 0 };
	char dir[TOGGLE_PATH_LEN - 8], path[TOGGLE_PATH_LEN], num[16];
	int base = udrv_chip_sysfs_base(t->chip), ret;

	if (base < 0)
		return bench_error(-1, "%s has no sysfs GPIO entry",
				 udrv_chip_name(t->chip));
	udrv_chip_line_info(t->chip, t->line, &li);	/* for its name */
	snprintf(num, sizeof(num), "%d", base + (int)t->line);
	t->export_num[0] = '\0';
	if (!find_line_dir(dir, sizeof(dir), base + (int)t->line, li.name)) {
		ret = write_file("/sys/class/gpio/export", num);
		if (ret)
			return bench_error(-1, "exporting GPIO %s (%s line %u): %s",
					 num, udrv_chip_name(t->chip), t->line,
					 strerror(-ret));
		snprintf(t->export_num, sizeof(t->export_num), "%s", num);
		if (!find_line_dir(dir, sizeof(dir), base + (int)t->line,
				   li.name))
			return bench_error(-1, "exported GPIO %s but found no /sys/class/gpio entry for it",
					 num);
	}
	snprintf(path, sizeof(path), "%s/direction", dir);
	ret = write_file(path, "low");
	if (ret)
		return bench_error(-1, "writing 'low' to %s: %s", path,
				 strerror(-ret));
	snprintf(t->value_path, sizeof(t->value_path), "%s/value", dir);
	return 0;
}

void toggle_sysfs_unexport(struct toggle *t)
{
	if (t->export_num[0])
		write_file("/sys/class/gpio/unexport", t->export_num);
	t->export_num[0] = '\0';
}

/* sysfs-shell/sh: the shell toggles; each batch is a round trip on pipes */

/* "N": toggle N times; "s0" / "s1": set the value (the level check) */
static const char shell_loop[] =
	"set -e; v=$1\n"
	"while read n; do\n"
	"\tcase $n in\n"
	"\ts*) echo ${n#s} > \"$v\" ;;\n"
	"\t*) i=0\n"
	"\t   while [ $i -lt $n ]; do echo 1 > \"$v\"; echo 0 > \"$v\"; i=$((i + 2)); done ;;\n"
	"\tesac\n"
	"\techo\n"
	"done\n";

static void shell_close(struct toggle *t)
{
	int status;

	if (t->shell_cmd >= 0)
		close(t->shell_cmd);	/* 'read' sees EOF: the shell exits */
	if (t->shell_ack >= 0)
		close(t->shell_ack);
	if (t->shell_pid > 0)
		waitpid(t->shell_pid, &status, 0);
	t->shell_cmd = t->shell_ack = -1;
	t->shell_pid = 0;
	toggle_sysfs_unexport(t);
}

static int shell_open(struct toggle *t)
{
	int cmd[2], ack[2];

	t->shell_cmd = t->shell_ack = -1;
	if (toggle_sysfs_export(t))
		return -1;
	if (pipe2(cmd, O_CLOEXEC))
		return bench_error(-1, "pipe: %s", strerror(errno));
	if (pipe2(ack, O_CLOEXEC)) {
		close(cmd[0]);
		close(cmd[1]);
		return bench_error(-1, "pipe: %s", strerror(errno));
	}
	signal(SIGPIPE, SIG_IGN);	/* a dead shell is an error, not a kill */
	t->shell_pid = fork();
	if (t->shell_pid == 0) {
		/* the child keeps the bench's scheduling policy and priority */
		dup2(cmd[0], STDIN_FILENO);
		dup2(ack[1], STDOUT_FILENO);
		execl("/bin/sh", "sh", "-c", shell_loop, "sh", t->value_path,
		      (char *)NULL);
		_exit(127);
	}
	close(cmd[0]);
	close(ack[1]);
	t->shell_cmd = cmd[1];
	t->shell_ack = ack[0];
	if (t->shell_pid < 0) {
		shell_close(t);
		return bench_error(-1, "fork: %s", strerror(errno));
	}
	return 0;
}

static int shell_command(struct toggle *t, const char *cmd)
{
	size_t len = strlen(cmd);
	char ack;

	if (write(t->shell_cmd, cmd, len) != (ssize_t)len ||
	    read(t->shell_ack, &ack, 1) != 1 || ack != '\n')
		return bench_error(-1, "the /bin/sh toggle loop on %s stopped",
				 t->value_path);
	return 0;
}

static int shell_batch(struct toggle *t, uint64_t n)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)n);
	return shell_command(t, buf);
}

static int shell_set(struct toggle *t, int value)
{
	return shell_command(t, value ? "s1\n" : "s0\n");
}

const struct toggle_impl toggle_sysfs_shell = {
	.mechanism = "sysfs-shell",
	.implementation = "sh",
	.open = shell_open,
	.batch = shell_batch,
	.set = shell_set,
	.close = shell_close,
	.note = "/bin/sh loop: echo 1 > value; echo 0 > value",
	.share = 20,	/* a fork per write: 1/20 as many toggles */
};

/* sysfs/raw */

static int sysfs_raw_open(struct toggle *t)
{
	if (toggle_sysfs_export(t))
		return -1;
	t->fd = open(t->value_path, O_WRONLY | O_CLOEXEC);
	if (t->fd >= 0)
		return 0;
	bench_error(-1, "open %s: %s", t->value_path, strerror(errno));
	toggle_sysfs_unexport(t);
	return -1;
}

static int sysfs_raw_batch(struct toggle *t, uint64_t n)
{
	int fd = t->fd;

	for (uint64_t i = 0; i < n; i += 2)
		if (write(fd, "1", 1) != 1 || write(fd, "0", 1) != 1)
			return bench_error(-1, "write %s: %s", t->value_path,
					 strerror(errno));
	return 0;
}

static int sysfs_raw_set(struct toggle *t, int value)
{
	if (write(t->fd, value ? "1" : "0", 1) != 1)
		return bench_error(-1, "write %s: %s", t->value_path,
				 strerror(errno));
	return 0;
}

static void sysfs_raw_close(struct toggle *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	toggle_sysfs_unexport(t);
}

const struct toggle_impl toggle_sysfs_raw = {
	.mechanism = "sysfs",
	.implementation = "raw",
	.open = sysfs_raw_open,
	.batch = sysfs_raw_batch,
	.set = sysfs_raw_set,
	.close = sysfs_raw_close,
	.note = "write(fd, \"1\", 1) on the value fd kept open (VanguardiaSur's C loop)",
};

/* cdev/raw */

static int cdev_raw_open(struct toggle *t)
{
	struct gpio_v2_line_request lr;
	int chip_fd, ret;

	memset(&lr, 0, sizeof(lr));
	lr.offsets[0] = t->line;
	lr.num_lines = 1;
	snprintf(lr.consumer, sizeof(lr.consumer), "%s", CONSUMER);
	lr.config.flags = GPIO_V2_LINE_FLAG_OUTPUT;
	lr.config.num_attrs = 1;
	lr.config.attrs[0].attr.id = GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES;
	lr.config.attrs[0].attr.values = 0;
	lr.config.attrs[0].mask = 1;
	chip_fd = open(udrv_chip_path(t->chip), O_RDWR | O_CLOEXEC);
	if (chip_fd < 0)
		return bench_error(-1, "open %s: %s", udrv_chip_path(t->chip),
				 strerror(errno));
	ret = ioctl(chip_fd, GPIO_V2_GET_LINE_IOCTL, &lr);
	if (ret < 0)
		bench_error(-1, "GPIO_V2_GET_LINE_IOCTL on %s line %u: %s",
			  udrv_chip_path(t->chip), t->line, strerror(errno));
	close(chip_fd);
	t->fd = ret < 0 ? -1 : lr.fd;
	return ret < 0 ? -1 : 0;
}

static int cdev_raw_batch(struct toggle *t, uint64_t n)
{
	struct gpio_v2_line_values hi = { .bits = 1, .mask = 1 };
	struct gpio_v2_line_values lo = { .bits = 0, .mask = 1 };
	int fd = t->fd;

	for (uint64_t i = 0; i < n; i += 2)
		if (ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &hi) < 0 ||
		    ioctl(fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lo) < 0)
			return bench_error(-1, "GPIO_V2_LINE_SET_VALUES_IOCTL: %s",
					 strerror(errno));
	return 0;
}

static int cdev_raw_set(struct toggle *t, int value)
{
	struct gpio_v2_line_values lv = { .bits = value ? 1 : 0, .mask = 1 };

	if (ioctl(t->fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &lv) < 0)
		return bench_error(-1, "GPIO_V2_LINE_SET_VALUES_IOCTL: %s",
				 strerror(errno));
	return 0;
}

static void cdev_raw_close(struct toggle *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

const struct toggle_impl toggle_cdev_raw = {
	.mechanism = "cdev",
	.implementation = "raw",
	.open = cdev_raw_open,
	.batch = cdev_raw_batch,
	.set = cdev_raw_set,
	.close = cdev_raw_close,
	.note = "bare GPIO_V2_LINE_SET_VALUES_IOCTL on a bare GPIO_V2_GET_LINE_IOCTL fd",
};

/*
 * cdev/libgpiod-2.3: the loop runs in udrv-bench-peer (libgpiod 2.3, a
 * program of its own: udrv links no libgpiod), a child at the bench's
 * policy, priority and CPUs; "batch N" on its stdin toggles N times and it
 * answers the batch's ns; "set V" is the level check's write.
 */
static int peer_error(struct toggle *t, const char *what, const char *why)
{
	if (bench_interrupted())
		return -1;	/* bench_end says so */
	bench_error(-1, "%s: %s: %s", t->peer.tool.name ? t->peer.tool.name : BENCH_PEER_NAME,
		    what, why);
	return -1;
}

static int peer_run_line(void *ctx, size_t key, const uint64_t *vals)
{
	bench_peer_run_store(ctx, key, vals);
	return 0;
}

void toggle_peer_close(struct toggle *t)
{
	char why[160];

	if (t->peer.pid > 0 && bench_peer_finish(&t->peer, NULL, NULL, why, sizeof(why)))
		peer_error(t, "ending", why);
	t->peer.pid = -1;
}

static int peer_open(struct toggle *t)
{
	static const struct bench_peer_key keys[] = { BENCH_PEER_RUN_TABLE };
	char line[16], why[320];
	const char *args[] = { "toggle", "--chip", udrv_chip_path(t->chip),
			       "--line", line, t->run.o.mlock ? "--mlock" : NULL,
			       NULL };
	struct bench_peer_run run = { 0 };

	snprintf(line, sizeof(line), "%u", t->line);
	if (bench_peer_start(&t->peer, args, true, why, sizeof(why)))
		return peer_error(t, "starting " BENCH_PEER_NAME, why);
	if (!bench_peer_read(&t->peer, keys, BENCH_PEER_RUN_KEYS, "ready",
			     peer_run_line, &run, why, sizeof(why)) &&
	    !bench_peer_run_check(&run, t->run.o.mlock, why, sizeof(why)))
		return 0;
	peer_error(t, "starting", why);
	toggle_peer_close(t);
	return -1;
}

int toggle_peer_timed(struct toggle *t, uint64_t n, uint64_t *ns)
{
	char why[200];
	uint64_t v;

	if (bench_peer_send(&t->peer, why, sizeof(why), "batch %llu\n",
			    (unsigned long long)n) ||
	    bench_peer_reply(&t->peer, "ns", 1, &v, why, sizeof(why)))
		return peer_error(t, "a batch", why);
	*ns = v;
	return 0;
}

int toggle_peer_set(struct toggle *t, int value)
{
	char why[200];

	if (bench_peer_send(&t->peer, why, sizeof(why), "set %d\n", !!value) ||
	    bench_peer_reply(&t->peer, "ok", 0, NULL, why, sizeof(why)))
		return peer_error(t, "setting the line", why);
	return 0;
}

const char *toggle_libgpiod_absent(void)
{
	char path[256];

	return bench_peer_path(path, sizeof(path)) ? BENCH_PEER_ABSENT : "";
}

const struct toggle_impl toggle_cdev_libgpiod = {
	.mechanism = "cdev",
	.implementation = BENCH_PEER_IMPL,
	.open = peer_open,
	.timed = toggle_peer_timed,
	.set = toggle_peer_set,
	.close = toggle_peer_close,
	/* short: the loss and level-check notes follow in 160 characters */
	.note = "libgpiod 2.3 gpiod_line_request_set_value() (uAPI v2), udrv-bench-peer at the bench's prio",
};

/* mmio/raw: the registers of a bare mapping, the line from a bare ioctl */

void toggle_mmio_setup(struct toggle *t)
{
	const struct udrv_mmio_line_info *m = &t->mmio;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start;
	uint8_t *block;
	int fd;

	if (udrv_chip_mmio_line_info(t->chip, NULL, t->line, &t->mmio)) {
		snprintf(t->mmio_note, sizeof(t->mmio_note), "mmio: no row: %s",
			 udrv_chip_errmsg(t->chip));
		return;
	}
	start = m->map_offset & ~(uint64_t)(page - 1);
	t->map_len = (size_t)(m->map_offset - start) + m->size;
	fd = open(m->map_path, O_RDWR | O_SYNC | O_CLOEXEC);
	t->map = fd < 0 ? MAP_FAILED :
		 mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)start);
	if (t->map == MAP_FAILED) {
		snprintf(t->mmio_note, sizeof(t->mmio_note),
			 "mmio: no row: mapping %s at 0x%llx: %s", m->map_path,
			 (unsigned long long)start, strerror(errno));
		t->map = NULL;
	}
	if (fd >= 0)
		close(fd);
	if (!t->map)
		return;
	block = (uint8_t *)t->map + (m->map_offset - start);
	t->set = (volatile uint32_t *)(block + m->set);
	t->clr = (volatile uint32_t *)(block + m->clear);
	t->level = (const volatile uint32_t *)(block + m->level);
	t->has_mmio = m->set >= 0 && m->width == 32;
	snprintf(t->mmio_note, sizeof(t->mmio_note),
		 "mmio: %s registers at 0x%llx through %s: %s/%s, level %s, bit %u",
		 m->soc, (unsigned long long)m->phys, m->map_path, m->set_name,
		 m->clear_name, m->level_name, __builtin_ctz(m->mask));
}

void toggle_mmio_teardown(struct toggle *t)
{
	if (t->map)
		munmap(t->map, t->map_len);
	t->map = NULL;
	t->set = t->clr = NULL;
	t->level = NULL;
}

static int mmio_raw_batch(struct toggle *t, uint64_t n)
{
	volatile uint32_t *set = t->set, *clr = t->clr;
	uint32_t mask = t->mmio.mask;

	for (uint64_t i = 0; i < n; i += 2) {
		*set = mask;
		*clr = mask;
	}
	return 0;
}

static int mmio_raw_set(struct toggle *t, int value)
{
	*(value ? t->set : t->clr) = t->mmio.mask;
	return 0;
}

const struct toggle_impl toggle_mmio_raw = {
	.mechanism = "mmio",
	.implementation = "raw",
	.open = cdev_raw_open,		/* the claim; the stores need none */
	.batch = mmio_raw_batch,
	.set = mmio_raw_set,
	.close = cdev_raw_close,
	.note = "bare stores to the set/clear registers of a bare mmap (VanguardiaSur's mmap loop)",
};

/* the level check */

int toggle_verify(struct toggle *t, const struct toggle_impl *impl,
		  struct bench_row *row)
{
	unsigned int bit = (unsigned int)__builtin_ctz(t->mmio.mask);
	int seen[2];

	if (!t->level)
		return 0;
	for (int v = 1; v >= 0; v--) {
		if (impl->set(t, v))
			return -1;
		seen[v] = (*t->level & t->mmio.mask) != 0;
		if (seen[v] != v)
			return bench_error(-1, "level check failed on %s/%s: set %d, but %s bit %u reads %d (the mechanism did not drive the pin)",
					 impl->mechanism, impl->implementation,
					 v, t->mmio.level_name, bit, seen[v]);
	}
	bench_note_add(row->note, sizeof(row->note),
		       "verified: set 1, 0 -> %s bit %u read 1, 0",
		       t->mmio.level_name, bit);
	return 0;
}
