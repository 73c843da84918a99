// SPDX-License-Identifier: GPL-2.0-only
/*
 * A complete userspace driver for QEMU's "edu" PCI device (1234:11e8) on
 * libudrv, through the kernel's generic uio_pci_generic driver. This is the
 * worked example of writing a UIO driver:
 *
 *   1. find the device: the UIO device whose PCI ID is 1234:11e8
 *   2. map its registers: BAR 0, which uio_pci_generic exports as UIO map 0
 *      on recent kernels (6.1 does); older ones need the sysfs BAR file
 *   3. talk to it: identification, liveness check, factorial
 *   4. interrupts: raise (0x60) -> wait on /dev/uioN -> read the status
 *      (0x24) -> acknowledge (0x64) -> re-enable INTx in the PCI command
 *      register, which uio_pci_generic masked when the interrupt came
 *
 * Usage: udrv-edu [-d uioN] [-n IRQS] [--json]
 *
 * Register map: edu_regs.h (QEMU docs/specs/edu.rst; 32-bit accesses only).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <udrv/udrv.h>

#include "edu_regs.h"

#define EDU_BAR_SIZE		0x100

struct edu {
	struct udrv_uio *uio;
	struct udrv_region *bar;
	struct udrv_mmio regs;
};

static int edu_fail(struct edu *edu, const char *what)
{
	fprintf(stderr, "udrv-edu: %s: %s\n", what, udrv_uio_errmsg(edu->uio));
	return -1;
}

/* The first UIO device whose PCI vendor:device is the edu's. */
static int edu_find(char *devname, size_t len)
{
	char **names = NULL, path[128], buf[16];
	unsigned long vendor, device;
	int n, found = -ENOENT;
	FILE *f;

	n = udrv_uio_list(&names);
	for (int i = 0; i < n && found; i++) {
		snprintf(path, sizeof(path), "/sys/class/uio/%s/device/vendor", names[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		vendor = fgets(buf, sizeof(buf), f) ? strtoul(buf, NULL, 16) : 0;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/class/uio/%s/device/device", names[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		device = fgets(buf, sizeof(buf), f) ? strtoul(buf, NULL, 16) : 0;
		fclose(f);
		if (vendor == EDU_VENDOR && device == EDU_DEVICE) {
			snprintf(devname, len, "%s", names[i]);
			found = 0;
		}
	}
	udrv_strv_free(names);
	return found;
}

static int edu_open(struct edu *edu, const char *spec)
{
	char devname[32];

	if (!spec) {
		if (edu_find(devname, sizeof(devname))) {
			fprintf(stderr,
				"udrv-edu: no UIO device with PCI ID 1234:11e8: start QEMU with -device edu, then\n"
				"  modprobe uio_pci_generic; echo '1234 11e8' > /sys/bus/pci/drivers/uio_pci_generic/new_id\n");
			return -1;
		}
		spec = devname;
	}
	edu->uio = udrv_uio_new();
	if (!edu->uio)
		return -1;
	if (udrv_uio_open(edu->uio, spec))
		return edu_fail(edu, "open");
	if (udrv_uio_num_maps(edu->uio) > 0 ?
	    udrv_uio_map(edu->uio, 0, &edu->bar) :
	    udrv_uio_pci_map_bar(edu->uio, 0, &edu->bar))
		return edu_fail(edu, "map BAR 0");
	edu->regs = udrv_region_mmio(edu->bar);
	return 0;
}

static void edu_close(struct edu *edu)
{
	udrv_region_unmap(edu->bar);
	udrv_uio_free(edu->uio);
}

static uint32_t edu_factorial(struct edu *edu, uint32_t n)
{
	udrv_write32(&edu->regs, EDU_FACTORIAL, n);
	while (udrv_read32(&edu->regs, EDU_STATUS) & EDU_STATUS_COMPUTING)
		;
	return udrv_read32(&edu->regs, EDU_FACTORIAL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * One interrupt round trip; returns the raise-to-wake time in ns, or 0 on
 * error. @value lands in the interrupt status register.
 */
static uint64_t edu_irq(struct edu *edu, uint32_t value, uint32_t *status,
			struct udrv_uio_irq *irq)
{
	uint64_t t0, t1;
	int ret;

	t0 = now_ns();
	udrv_write32(&edu->regs, EDU_IRQ_RAISE, value);
	ret = udrv_uio_wait(edu->uio, 1000, irq);
	t1 = now_ns();
	if (ret <= 0) {
		if (ret == 0)
			fprintf(stderr, "udrv-edu: no interrupt within 1 s (INTx still masked?)\n");
		else
			edu_fail(edu, "wait");
		return 0;
	}
	*status = udrv_read32(&edu->regs, EDU_IRQ_STATUS);
	udrv_write32(&edu->regs, EDU_IRQ_ACK, *status);
	if (udrv_uio_pci_intx_unmask(edu->uio)) {
		edu_fail(edu, "re-enable INTx");
		return 0;
	}
	return t1 - t0 ? t1 - t0 : 1;
}

static int edu_identify(struct edu *edu, struct udrv_json *j)
{
	uint32_t id = udrv_read32(&edu->regs, EDU_IDENT);
	uint32_t live;

	udrv_write32(&edu->regs, EDU_LIVENESS, 0x12345678);
	live = udrv_read32(&edu->regs, EDU_LIVENESS);
	if (j) {
		udrv_json_kstr(j, "device", udrv_uio_devname(edu->uio));
		udrv_json_kuint(j, "ident", id);
		udrv_json_kuint(j, "liveness", live);
	} else {
		printf("device %s (%s)\n", udrv_uio_devname(edu->uio),
		       udrv_uio_name(edu->uio));
		printf("ident      0x%08x (version %u.%u)\n", id, id >> 24,
		       (id >> 16) & 0xff);
		printf("liveness   wrote 0x12345678, read 0x%08x (%s)\n", live,
		       live == ~0x12345678u ? "inverse: alive" : "WRONG");
	}
	return (id & 0xff) == 0xed && live == ~0x12345678u ? 0 : -1;
}

static int edu_factorials(struct edu *edu, struct udrv_json *j)
{
	static const uint32_t expect[] = { 1, 1, 2, 6, 24, 120, 720, 5040,
					   40320, 362880, 3628800 };
	int bad = 0;

	if (j) {
		udrv_json_key(j, "factorial");
		udrv_json_arr_begin(j);
	}
	for (uint32_t n = 0; n <= 10; n++) {
		uint32_t f = edu_factorial(edu, n);

		bad |= f != expect[n];
		if (j)
			udrv_json_uint(j, f);
		else if (n == 5 || n == 10)
			printf("factorial  %u! = %u%s\n", n, f,
			       f == expect[n] ? "" : " WRONG");
	}
	if (j)
		udrv_json_arr_end(j);
	return bad ? -1 : 0;
}

static int edu_interrupts(struct edu *edu, unsigned int count,
			  struct udrv_json *j)
{
	struct udrv_hist *h = udrv_hist_new();
	struct udrv_uio_irq irq = { 0 };
	uint32_t status = 0;
	uint64_t ns;
	int ret = 0;

	for (unsigned int i = 0; i < count && !ret; i++) {
		ns = edu_irq(edu, 0x100u + i, &status, &irq);
		if (!ns || status != 0x100u + i)
			ret = -1;
		else
			udrv_hist_record(h, ns);
		if (!j && i == 0)
			printf("interrupt  raised 0x%x -> woke (count %u) -> status 0x%x -> acknowledged -> INTx re-enabled\n",
			       0x100u, irq.count, status);
	}
	if (j) {
		udrv_json_kuint(j, "interrupts", udrv_hist_count(h));
		udrv_json_kuint(j, "missed", udrv_uio_missed(edu->uio));
		udrv_json_key(j, "raise_to_wake_ns");
		udrv_hist_write_json(h, j);
	} else {
		printf("interrupts %llu round trips, %llu missed; raise->wake min %llu ns, median %llu ns, max %llu ns\n",
		       (unsigned long long)udrv_hist_count(h),
		       (unsigned long long)udrv_uio_missed(edu->uio),
		       (unsigned long long)udrv_hist_min(h),
		       (unsigned long long)udrv_hist_percentile(h, 50),
		       (unsigned long long)udrv_hist_max(h));
	}
	udrv_hist_free(h);
	return ret;
}

static const char usage[] =
"Usage: udrv-edu [-d DEVICE] [-n IRQS] [--json]\n"
"Drive QEMU's edu PCI device through uio_pci_generic: identification,\n"
"liveness, factorials, and IRQS interrupt round trips (default 10).\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "irqs", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL;
	unsigned int irqs = 10;
	struct edu edu = { 0 };
	struct udrv_json *j = NULL;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "d:n:jh", opts, NULL)) != -1) {
		if (opt == 'd')
			spec = optarg;
		else if (opt == 'n')
			irqs = (unsigned int)strtoul(optarg, NULL, 0);
		else if (opt == 'j')
			j = udrv_json_new(stdout, true);
		else
			return fputs(usage, opt == 'h' ? stdout : stderr), opt == 'h' ? 0 : 2;
	}
	if (edu_open(&edu, spec)) {
		edu_close(&edu);
		udrv_json_free(j);
		return 1;
	}
	if (j)
		udrv_json_obj_begin(j);
	ret = edu_identify(&edu, j);
	ret |= edu_factorials(&edu, j);
	ret |= edu_interrupts(&edu, irqs, j);
	if (j) {
		udrv_json_kbool(j, "ok", !ret);
		udrv_json_obj_end(j);
		udrv_json_free(j);
	}
	edu_close(&edu);
	return ret ? 1 : 0;
}
