// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source's own edge counts: gpio-wire (rig/kernel/gpio-wire) reports, per
 * input line, the edges it put on the wire and the edges its fault
 * injection dropped, in its platform device's "edges" attribute
 * ("LINE DRIVEN DROPPED" per input line). The benches that watch a wired
 * partner take their 'sent' from here, not from what they received.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "msg.h"

bool bench_wire_path(const struct udrv_chip *chip, char *path, size_t len)
{
	/* gpiochipN's device lives under the platform device */
	snprintf(path, len, "/sys/bus/gpio/devices/%s/../edges",
		 udrv_chip_name(chip));
	if (access(path, R_OK) == 0)
		return true;
	path[0] = '\0';
	return false;
}

/* "LINE DRIVEN DROPPED": 0 and the counts, 1 for another line, -1 bad */
static int wire_line(char *line, unsigned int want, struct bench_wire *w)
{
	char *save = NULL, *f[4];
	unsigned int in;

	f[0] = strtok_r(line, " ", &save);
	f[1] = strtok_r(NULL, " ", &save);
	f[2] = strtok_r(NULL, " ", &save);
	f[3] = strtok_r(NULL, " ", &save);
	if (!f[2] || f[3] || udrv_parse_uint(f[0], UINT32_MAX, &in) ||
	    udrv_parse_u64(f[1], UINT64_MAX, &w->driven) ||
	    udrv_parse_u64(f[2], UINT64_MAX, &w->dropped))
		return -1;
	return in == want ? 0 : 1;
}

int bench_wire_counts(const char *path, unsigned int line, struct bench_wire *w)
{
	char buf[4096], *l, *save = NULL;
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bench_error(-1, "cannot read %s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return bench_error(-1, "cannot read %s: %s", path,
				 n < 0 ? strerror(errno) : "empty");
	buf[n] = '\0';
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		ret = wire_line(l, line, w);
		if (ret < 0)
			return bench_error(-1, "%s: a line is not 'LINE DRIVEN DROPPED'", path);
		if (!ret)
			return 0;
	}
	return bench_error(-1, "%s has no line %u", path, line);
}
