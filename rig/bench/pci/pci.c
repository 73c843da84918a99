// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-bench pci: one PCI device's interrupt through UIO and through VFIO.
 *
 * QEMU's edu (1234:11e8) raises its interrupt on a write of its raise
 * register (0x60), synchronously: the cleanest stimulus. The same write is
 * measured through three paths, one after the other in one run:
 *   uio-intx   uio_pci_generic: INTx, which the driver masks in the PCI
 *              command register; udrv_uio_wait() reads /dev/uioN
 *   vfio-intx  vfio-pci: INTx, masked by vfio-pci's handler, signalled on
 *              an eventfd; udrv_vfio_wait()
 *   vfio-msi   vfio-pci: MSI (a memory write the IOMMU remaps), eventfd
 * For each: write_to_wake, t0 before the write to the wait's return, and
 * rearm, what the next interrupt needs: the ack (0x64) + INTx unmask in the
 * command register (UIO), the ack + VFIO_IRQ_SET_ACTION_UNMASK (VFIO INTx),
 * the ack alone (MSI: nothing is masked). The measurement core is edu.c's,
 * shared with 'udrv-bench uio'.
 *
 * The bench binds edu to the driver each path needs with udrv_pci_bind()
 * and puts the binding it found back at the end: after an error and after
 * SIGINT/SIGTERM too (bench_begin() catches them, so the way out is the
 * normal one). Loss: sent = the raise writes made, received = the waits
 * that returned, lost = the UIO event count's or the eventfd counter's
 * gaps; every wait has edu.c's watchdog.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "edu.h"
#include "fields.h"
#include "msg.h"
#include "benches.h"
#include <udrv/json.h>
#include <udrv/parse.h>
#include <udrv/vfio.h>

#define DEFAULT_SAMPLES		1000
#define PCI_DEVICES		"/sys/bus/pci/devices"

enum { VIA_UIO_INTX, VIA_VFIO_INTX, VIA_VFIO_MSI, NUM_VIAS };

static const struct via {
	const char *name;	/* --via, and the rows' mechanism */
	const char *driver;	/* what edu is bound to for it */
	const char *wait;	/* the rows' wait */
	const char *wake_note;
	const char *rearm_note;
} vias[NUM_VIAS] = {
	[VIA_UIO_INTX] = { "uio-intx", "uio_pci_generic", "read",
		"INTx -> hardirq (uio_pci_generic masks INTx in the command register)%s -> read() of /dev/uioN",
		"acknowledge (0x64) + INTx unmask in the PCI command register (config write)" },
	[VIA_VFIO_INTX] = { "vfio-intx", "vfio-pci", "poll",
		"INTx -> vfio-pci's hardirq (masks the line)%s -> eventfd",
		"acknowledge (0x64) + VFIO_IRQ_SET_ACTION_UNMASK ioctl" },
	[VIA_VFIO_MSI] = { "vfio-msi", "vfio-pci", "poll",
		"MSI (a memory write, remapped by the IOMMU) -> vfio-pci's handler%s -> eventfd",
		"acknowledge (0x64) only: an MSI masks nothing" },
};

struct pci_vfio {
	struct udrv_vfio *v;
	struct udrv_region *bar;
	struct edu_path path;
	uint64_t raw_missed;	/* the raw reads' counter gaps */
};

struct pci_bench {
	struct bench_run run;		/* first: json_extra gets it */
	bool want[NUM_VIAS];
	const char *device;		/* --device, or NULL: the first edu */
	char bdf[64];
	char before[64];		/* the driver edu was bound to */
	char after[64];			/* and at the end, read back */
	bool rebound, have_after;
	bool realtime;
	long irq[NUM_VIAS];		/* the Linux irq number; -1: not run */
	struct edu_uio uio;
	struct pci_vfio vfio;
	struct sigaction old_alrm;
};

static const char help[] =
"Usage: udrv-bench pci [OPTIONS]\n"
"\n"
"One PCI device's interrupt through UIO and through VFIO: QEMU's edu\n"
"(1234:11e8) raises it on a write of its raise register (0x60); the bench\n"
"measures that write -> userspace wake-up (write_to_wake) and the cost of\n"
"re-arming for the next interrupt (rearm) through\n"
"  uio-intx   uio_pci_generic, INTx; re-arm: acknowledge + INTx unmask in\n"
"             the PCI command register\n"
"  vfio-intx  vfio-pci, INTx on an eventfd; re-arm: acknowledge +\n"
"             VFIO_IRQ_SET_ACTION_UNMASK\n"
"  vfio-msi   vfio-pci, MSI on an eventfd; re-arm: acknowledge only\n"
"It binds the device to the driver each needs and puts the binding it\n"
"found back at the end (also after an error, SIGINT or SIGTERM). The VFIO\n"
"rows name the UIO row of the same run as their reference (the ratio);\n"
"each VFIO path is measured a second time with a bare read() of its\n"
"eventfd (the raw row, whose reference is udrv's row): what udrv_vfio_wait()\n"
"costs over the bare system call (it reads first when the interrupt has\n"
"come, and polls beside vfio-pci's release request when it must sleep).\n"
"Needs root, an IOMMU with interrupt remapping for VFIO (intel_iommu=on;\n"
"the lab's q35 board), uio_pci_generic and vfio-pci loaded; docs/vfio.md.\n"
"\n"
"Options:\n"
"      --via LIST      uio-intx, vfio-intx, vfio-msi, comma-separated, or\n"
"                      all (default all, in that order)\n"
"  -d, --device BDF    the edu's PCI address (0000:00:01.0 or 00:01.0;\n"
"                      default: the first edu in /sys/bus/pci/devices)\n"
"  -n, --samples N     interrupts per path (default 1000)\n"
"\n"
BENCH_OPTS_HELP
"\n"
"Examples:\n"
"  udrv-bench pci -n 500\n"
"  udrv-bench pci --via vfio-msi --load all --json\n";

enum { OPT_VIA = 'v' };

static const struct option long_opts[] = {
	{ "via", required_argument, NULL, OPT_VIA },
	{ "device", required_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

static int parse_vias(struct pci_bench *b, const char *arg)
{
	const char *names[NUM_VIAS];
	unsigned int mask;

	for (int i = 0; i < NUM_VIAS; i++)
		names[i] = vias[i].name;
	if (bench_parse_names(arg, names, NUM_VIAS, &mask))
		return -EINVAL;
	for (int i = 0; i < NUM_VIAS; i++)
		b->want[i] = mask & 1u << i;
	return 0;
}

static int pci_opt(struct bench_run *run, int opt, const char *arg, void *ctx)
{
	struct pci_bench *b = ctx;

	switch (opt) {
	case OPT_VIA:
		if (parse_vias(b, arg))
			return bench_usage(run->bench, "bad --via '%s': uio-intx, vfio-intx, vfio-msi (comma-separated, each once) or all",
					 arg);
		return 0;
	case 'd':
		b->device = arg;
		return 0;
	default:
		return bench_usage(run->bench, "bad option");
	}
}

/* The device's sysfs directory, under bench_sysroot(). */
static void pci_dir(const char *bdf, char *dir, size_t len)
{
	snprintf(dir, len, "%s%s/%s", bench_sysroot(), PCI_DEVICES, bdf);
}

/* The first edu in the kernel's order of PCI addresses. */
static int edu_first(char *bdf, size_t len)
{
	struct dirent **names;
	char dir[512], root[256];
	int n, found = -1;

	snprintf(root, sizeof(root), "%s%s", bench_sysroot(), PCI_DEVICES);
	n = scandir(root, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		pci_dir(names[i]->d_name, dir, sizeof(dir));
		if (found && names[i]->d_name[0] != '.' && edu_is_edu(dir)) {
			snprintf(bdf, len, "%s", names[i]->d_name);
			found = 0;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return found;
}

/*
 * --device: a name the kernel gave a PCI device, as it is or with domain
 * 0000: prefixed; looked up, not parsed, so nothing but a real address
 * passes.
 */
static int edu_named(const char *spec, char *bdf, size_t len)
{
	char dir[512];

	snprintf(bdf, len, "%s", spec);
	pci_dir(bdf, dir, sizeof(dir));
	if (strchr(spec, '/') || access(dir, F_OK)) {
		snprintf(bdf, len, "0000:%s", spec);
		pci_dir(bdf, dir, sizeof(dir));
		if (strchr(spec, '/') || strlen(spec) != 7 || access(dir, F_OK))
			return bench_error(EXIT_FAIL, "--device %s: no such PCI device in %s (lspci -D lists them)",
					 spec, PCI_DEVICES);
	}
	if (!edu_is_edu(dir))
		return bench_error(EXIT_FAIL, "--device %s: not QEMU's edu (PCI ID 1234:11e8)", bdf);
	return EXIT_OK;
}

static int edu_locate(struct pci_bench *b)
{
	char err[256];

	if (b->device) {
		if (edu_named(b->device, b->bdf, sizeof(b->bdf)))
			return EXIT_FAIL;
	} else if (edu_first(b->bdf, sizeof(b->bdf))) {
		return bench_error(EXIT_FAIL, "no PCI device with ID 1234:11e8 in %s (QEMU -device edu; the lab's q35 board has one)",
				 PCI_DEVICES);
	}
	if (udrv_pci_driver(b->bdf, b->before, sizeof(b->before), err, sizeof(err)))
		return bench_error(EXIT_FAIL, "%s", err);
	return EXIT_OK;
}

/* Bind edu to @driver (if it is not already) and check the result. */
static int pci_bind(struct pci_bench *b, const char *driver)
{
	char err[256], now[64];

	if (udrv_pci_driver(b->bdf, now, sizeof(now), err, sizeof(err)))
		return bench_error(EXIT_FAIL, "%s", err);
	if (!strcmp(now, driver))
		return EXIT_OK;
	b->rebound = true;
	if (udrv_pci_bind(b->bdf, driver, err, sizeof(err)))
		return bench_error(EXIT_FAIL, "%s", err);
	if (udrv_pci_driver(b->bdf, now, sizeof(now), err, sizeof(err)))
		return bench_error(EXIT_FAIL, "%s", err);
	if (strcmp(now, driver))
		return bench_error(EXIT_FAIL, "%s: bound to '%s' after binding it to %s",
				 b->bdf, now, driver);
	return EXIT_OK;
}

/* Put the binding found at the start back; says so if it cannot. */
static int pci_restore(struct pci_bench *b)
{
	char err[256];

	if (b->rebound && udrv_pci_bind(b->bdf, b->before, err, sizeof(err)))
		bench_error(EXIT_FAIL, "%s", err);
	b->have_after = !udrv_pci_driver(b->bdf, b->after, sizeof(b->after),
					 err, sizeof(err));
	if (b->have_after && !strcmp(b->after, b->before))
		return EXIT_OK;
	return bench_error(EXIT_FAIL, "%s: bound to '%s' at the end, not to '%s' as before: 'udrv pci bind %s %s' puts it back",
			 b->bdf, b->have_after ? b->after : "?", b->before,
			 b->bdf, b->before[0] ? b->before : "\"\"");
}

/* The irq of the path just enabled: for MSI, the first of msi_irqs/. */
static int pci_irq(struct pci_bench *b, int via)
{
	struct dirent **names;
	char path[600];
	uint64_t irq;
	int n, ret;

	pci_dir(b->bdf, path, sizeof(path));
	if (via == VIA_VFIO_MSI) {
		strncat(path, "/msi_irqs", sizeof(path) - strlen(path) - 1);
		n = scandir(path, &names, NULL, alphasort);
		ret = -ENOENT;
		for (int i = 0; i < n; i++) {
			if (ret && names[i]->d_name[0] != '.')
				ret = udrv_parse_u64(names[i]->d_name, INT32_MAX, &irq);
			free(names[i]);
		}
		if (n >= 0)
			free(names);
	} else {
		strncat(path, "/irq", sizeof(path) - strlen(path) - 1);
		ret = bench_file_u64(path, &irq);
	}
	if (ret)
		return bench_error(EXIT_FAIL, "cannot read the irq of %s from %s: %s",
				 b->bdf, path, strerror(-ret));
	b->irq[via] = (long)irq;
	snprintf(path, sizeof(path), "irq/%llu-", (unsigned long long)irq);
	return bench_wake_threads(&b->run, path);
}

/* UIO: the uioN that uio_pci_generic made for edu */

static int uio_name(struct pci_bench *b, char *name, size_t len)
{
	char dir[600];
	struct dirent *d;
	DIR *dp;
	int ret = -ENOENT;

	pci_dir(b->bdf, dir, sizeof(dir));
	strncat(dir, "/uio", sizeof(dir) - strlen(dir) - 1);
	dp = opendir(dir);
	while (dp && ret && (d = readdir(dp)))
		if (!strncmp(d->d_name, "uio", 3)) {
			snprintf(name, len, "%s", d->d_name);
			ret = 0;
		}
	if (dp)
		closedir(dp);
	return ret ? bench_error(EXIT_FAIL, "%s: no UIO device in %s though bound to uio_pci_generic",
			       b->bdf, dir) : EXIT_OK;
}

static int uio_open(struct pci_bench *b, struct edu_path **path)
{
	char name[32];
	int ret = uio_name(b, name, sizeof(name));

	if (!ret)
		ret = edu_uio_open(&b->uio, name);
	b->uio.path.what = vias[VIA_UIO_INTX].name;
	*path = &b->uio.path;
	return ret;
}

/* VFIO */

static int vfio_wait(void *ctx)
{
	struct pci_vfio *p = ctx;
	struct udrv_vfio_irq irq;
	int ret = udrv_vfio_wait(p->v, -1, &irq);

	return ret == 1 ? EXIT_OK :
	       bench_wait_failed(ret, p->path.what, udrv_vfio_errmsg(p->v));
}

static int vfio_unmask(void *ctx)
{
	struct pci_vfio *p = ctx;

	if (udrv_vfio_intx_unmask(p->v))
		return bench_error(EXIT_FAIL, "%s: %s", p->path.what, udrv_vfio_errmsg(p->v));
	return EXIT_OK;
}

static uint64_t vfio_missed(void *ctx)
{
	const struct pci_vfio *p = ctx;

	return udrv_vfio_missed(p->v);
}

static int vfio_open(struct pci_bench *b, int via, struct edu_path **path)
{
	struct pci_vfio *p = &b->vfio;
	bool msi = via == VIA_VFIO_MSI;

	p->v = udrv_vfio_new();
	if (!p->v)
		return bench_error(EXIT_FAIL, "out of memory");
	if (udrv_vfio_open(p->v, b->bdf) ||
	    udrv_vfio_map_bar(p->v, 0, &p->bar) ||
	    udrv_vfio_irq_enable(p->v, msi ? UDRV_VFIO_MSI : UDRV_VFIO_INTX, 1))
		return bench_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(p->v));
	p->path = (struct edu_path){
		.what = vias[via].name, .regs = udrv_region_mmio(p->bar),
		.wait = vfio_wait, .unmask = msi ? NULL : vfio_unmask,
		.missed = vfio_missed, .ctx = p,
	};
	*path = &p->path;
	return EXIT_OK;
}

/*
 * The reference of a VFIO path: a bare read() of the vector's eventfd, what
 * a minimal hand-written driver does. It blocks in the eventfd alone, so it
 * would not see vfio-pci's request to release the device, which
 * udrv_vfio_wait() polls for beside the vector: the difference is what that
 * costs.
 */
static int vfio_raw_wait(void *ctx)
{
	struct pci_vfio *p = ctx;
	uint64_t n;
	ssize_t r = read(udrv_vfio_irq_fd(p->v, 0), &n, sizeof(n));

	if (r == (ssize_t)sizeof(n)) {
		p->raw_missed += n - 1;
		return EXIT_OK;
	}
	return bench_wait_failed(r < 0 ? -errno : -EIO, p->path.what,
				 r < 0 ? strerror(errno) : "a short read of the eventfd");
}

static uint64_t vfio_raw_missed(void *ctx)
{
	const struct pci_vfio *p = ctx;

	return p->raw_missed;
}

/* udrv's eventfds are non-blocking (it polls them): a blocking one here. */
static int vfio_raw_fd(struct pci_vfio *p, bool blocking)
{
	int fd = udrv_vfio_irq_fd(p->v, 0);
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, blocking ? fl & ~O_NONBLOCK : fl | O_NONBLOCK))
		return bench_error(EXIT_FAIL, "%s: fcntl on the eventfd: %s",
				 p->path.what, strerror(errno));
	return EXIT_OK;
}

/* The same interrupts once more through vfio_raw_wait(): a "raw" row. */
static int vfio_raw_rows(struct pci_bench *b, int via, struct edu_path *path,
			 struct bench_row *udrv)
{
	struct bench_row *wake;
	struct edu_path raw = *path;
	int ret;

	wake = bench_row(&b->run, vias[via].name, "raw", "read", "write_to_wake");
	if (!wake)
		return bench_error(EXIT_FAIL, "out of memory");
	snprintf(wake->note, sizeof(wake->note),
		 "a bare blocking read() of the eventfd (blind to vfio-pci's release request); the reference is udrv's row");
	wake->reference = bench_row_index(&b->run, udrv);
	raw.wait = vfio_raw_wait;
	raw.missed = vfio_raw_missed;
	ret = vfio_raw_fd(&b->vfio, true);
	if (!ret)
		ret = edu_loop(&b->run, &raw, wake, NULL, DEFAULT_SAMPLES);
	return ret ? ret : vfio_raw_fd(&b->vfio, false);
}

static void vfio_close(struct pci_vfio *p)
{
	udrv_region_unmap(p->bar);
	udrv_vfio_free(p->v);	/* closes: disables the irqs, releases the group */
	p->bar = NULL;
	p->v = NULL;
	p->raw_missed = 0;
}

/* One path: its rows, the binding, the warm-up, the loop. */
static int via_rows(struct pci_bench *b, int via, struct bench_row **ref)
{
	const struct via *v = &vias[via];
	struct bench_row *wake, *rearm;
	struct edu_path *path = NULL;
	int ret;

	wake = bench_row(&b->run, v->name, "udrv", v->wait, "write_to_wake");
	rearm = bench_row(&b->run, v->name, "udrv", NULL, "rearm");
	if (!wake || !rearm)
		return bench_error(EXIT_FAIL, "out of memory");
	snprintf(wake->note, sizeof(wake->note), v->wake_note,
		 b->realtime ? " -> irq thread" : "");
	snprintf(rearm->note, sizeof(rearm->note), "%s", v->rearm_note);
	if (ref[0]) {
		wake->reference = bench_row_index(&b->run, ref[0]);
		rearm->reference = bench_row_index(&b->run, ref[1]);
	}
	ret = pci_bind(b, v->driver);
	if (!ret)
		ret = via == VIA_UIO_INTX ? uio_open(b, &path) : vfio_open(b, via, &path);
	/* warm-up: takes what came since open */
	if (!ret)
		ret = edu_clear(path);
	if (!ret)
		ret = edu_irq(path, 1, NULL, NULL);
	if (!ret)
		ret = pci_irq(b, via);
	if (!ret)
		ret = edu_loop(&b->run, path, wake, rearm, DEFAULT_SAMPLES);
	if (!ret && via != VIA_UIO_INTX && !bench_interrupted())
		ret = vfio_raw_rows(b, via, path, wake);
	edu_uio_close(&b->uio);
	vfio_close(&b->vfio);
	if (via == VIA_UIO_INTX) {
		ref[0] = wake;
		ref[1] = rearm;
	}
	return ret;
}

static int pci_rows(struct pci_bench *b)
{
	struct bench_row *ref[2] = { NULL, NULL };
	int ret = EXIT_OK;

	bench_watchdog_start(&b->old_alrm);
	for (int i = 0; i < NUM_VIAS && !ret && !bench_interrupted(); i++)
		if (b->want[i])
			ret = via_rows(b, i, ref);
	bench_watchdog_stop(&b->old_alrm);
	return ret;
}

static void pci_json(const struct bench_run *run, struct udrv_json *j)
{
	const struct pci_bench *b = (const struct pci_bench *)run;

	udrv_json_key(j, "pci");
	udrv_json_obj_begin(j);
	udrv_json_kstr(j, "device", b->bdf);
	udrv_json_kstr(j, "driver_before", b->before);
	udrv_json_kstr(j, "driver_after", b->have_after ? b->after : NULL);
	udrv_json_key(j, "irq");
	udrv_json_obj_begin(j);
	for (int i = 0; i < NUM_VIAS; i++) {
		if (b->irq[i] >= 0)
			udrv_json_kint(j, vias[i].name, b->irq[i]);
	}
	udrv_json_obj_end(j);
	udrv_json_obj_end(j);
}

static int pci_measure(struct pci_bench *b)
{
	struct udrv_rt_report rep;
	int ret, restored;

	udrv_rt_check(&rep);
	b->realtime = rep.realtime;
	ret = bench_begin(&b->run);
	if (ret)
		return ret;
	ret = pci_rows(b);
	restored = pci_restore(b);
	return bench_end(&b->run, ret ? ret : restored);
}

BENCH_COMMAND(pci,
		"one PCI device's interrupt: UIO INTx vs VFIO INTx vs VFIO MSI\n"
		"(edu), wake-up and re-arm cost");

int cmd_bench_pci(int argc, char **argv)
{
	struct pci_bench *b = calloc(1, sizeof(*b));
	int ret;

	if (!b)
		return bench_error(EXIT_FAIL, "out of memory");
	for (int i = 0; i < NUM_VIAS; i++) {
		b->want[i] = true;
		b->irq[i] = -1;
	}
	b->run.traceable = true;
	ret = bench_parse(&b->run, "pci", argc, argv, help, "d:",
			  long_opts, pci_opt, b);
	if (!ret && optind < argc)
		ret = bench_usage(b->run.bench, "unexpected argument '%s'", argv[optind]);
	b->run.json_extra = pci_json;	/* bench_parse() clears it */
	if (!ret)
		ret = edu_locate(b);
	if (!ret)
		ret = pci_measure(b);
	free(b);
	return ret < 0 ? EXIT_OK : ret;
}
