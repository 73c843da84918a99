// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv pci list|info|peek|poke|wait|bind: PCI devices on vfio-pci (VFIO),
 * their regions, registers and interrupts; moving a device between drivers.
 * wait is in cmd_pci_wait.c.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <udrv/vfio.h>

#include "cli.h"
#include "cli_region.h"
#include "cmd_pci.h"
#include "commands.h"

static const char pci_help[] =
"Usage: udrv pci COMMAND [OPTIONS] DEVICE ...\n"
"\n"
"PCI devices driven from userspace through VFIO: the device is bound to the\n"
"kernel's vfio-pci driver, sits in an IOMMU group (boot with intel_iommu=on\n"
"or amd_iommu=on), and udrv gets its registers, MSI/MSI-X/INTx interrupts\n"
"and DMA through /dev/vfio/N. DEVICE is a PCI address (0000:00:01.0 or\n"
"00:01.0) or vendor:device in hex (1234:11e8) when only one device has it.\n"
"For the same device through UIO (INTx only, no DMA): 'udrv uio'.\n"
"\n"
"Commands:\n"
"  list   the devices bound to vfio-pci\n"
"  info   ids, IOMMU group, regions, interrupts, reset of a device\n"
"  peek   read registers from a BAR\n"
"  poke   write a register\n"
"  wait   enable INTx, MSI or MSI-X and wait for interrupts\n"
"  bind   bind a device to a driver (vfio-pci, uio_pci_generic, ...)\n"
"\n"
"Examples:\n"
"  udrv pci bind 0000:00:01.0 vfio-pci\n"
"  udrv pci info 0000:00:01.0\n"
"  udrv pci peek --bar 0 0000:00:01.0 0x0\n"
"  udrv pci poke --bar 0 0000:00:01.0 0x4 0x12345678\n"
"  udrv pci wait --irq msi -n 3 --raise 0x60:1 --ack 0x64:1 0000:00:01.0\n"
"  udrv pci bind 0000:00:01.0 uio_pci_generic\n";

static const struct option pci_long_opts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "bar", required_argument, NULL, 'B' },
	{ "width", required_argument, NULL, 'w' },
	{ "num", required_argument, NULL, 'n' },
	{ "timeout", required_argument, NULL, 't' },
	{ "irq", required_argument, NULL, 'i' },
	{ "vectors", required_argument, NULL, 'V' },
	{ "raise", required_argument, NULL, 'r' },
	{ "ack", required_argument, NULL, 'a' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

const char *const pci_irq_names[3] = { "intx", "msi", "msix" };

static int parse_irq_type(const char *arg)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, pci_irq_names[i]))
			return i;
	return -1;
}

/* "OFFSET:VALUE", both decimal or 0x hex; VALUE fits in 32 bits. */
static int parse_write(const char *arg, struct pci_write *w)
{
	char buf[64], *colon;
	uint64_t v;

	if (strlen(arg) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	if (cli_parse_u64(buf, &w->off) || cli_parse_u64(colon + 1, &v) ||
	    v > UINT32_MAX)
		return -EINVAL;
	w->value = (uint32_t)v;
	w->set = true;
	return 0;
}

static int pci_opt_value(struct pci_opts *o, int opt, const char *arg,
			 const char *cmd)
{
	long v;

	switch (opt) {
	case 'B':
		if (cli_parse_int(arg, 0, 5, &v))
			return cli_usage(cmd, "bad --bar '%s': 0..5", arg);
		o->bar = (unsigned int)v;
		return 0;
	case 'w':
		if (cli_parse_int(arg, 8, 64, &v) || (v != 8 && v != 16 && v != 32 && v != 64))
			return cli_usage(cmd, "bad --width '%s': 8, 16, 32 or 64", arg);
		o->width = (unsigned int)v;
		return 0;
	case 'n':
		if (cli_parse_u64(arg, &o->count) || !o->count)
			return cli_usage(cmd, "bad --num '%s': 1 or more", arg);
		return 0;
	case 't':
		if (cli_parse_timeout_ms(arg, &o->timeout_ms))
			return cli_usage(cmd, "bad --timeout '%s': e.g. 1s, 200ms", arg);
		return 0;
	case 'V':
		if (cli_parse_int(arg, 1, 2048, &v))
			return cli_usage(cmd, "bad --vectors '%s': 1..2048", arg);
		o->vectors = (unsigned int)v;
		return 0;
	default:
		return cli_usage(cmd, "bad option");
	}
}

static int pci_opt(struct pci_opts *o, int opt, const char *arg,
		   const char *cmd)
{
	switch (opt) {
	case 'j':
		o->json = true;
		return 0;
	case 'i':
		o->irq = parse_irq_type(arg);
		if (o->irq < 0)
			return cli_usage(cmd, "bad --irq '%s': intx, msi or msix", arg);
		return 0;
	case 'r':
	case 'a':
		if (parse_write(arg, opt == 'r' ? &o->raise : &o->ack))
			return cli_usage(cmd, "bad --%s '%s': OFFSET:VALUE, e.g. 0x60:1",
					 opt == 'r' ? "raise" : "ack", arg);
		return 0;
	default:
		return pci_opt_value(o, opt, arg, cmd);
	}
}

int parse_pci(int argc, char **argv, struct pci_opts *o,
		     const char *cmd, const char *help)
{
	int opt;

	*o = (struct pci_opts){ .width = 32, .count = 1, .timeout_ms = -1,
				.irq = -1, .vectors = 1 };
	while ((opt = getopt_long(argc, argv, "jB:w:n:t:i:V:r:a:h",
				  pci_long_opts, NULL)) != -1) {
		if (opt == 'h') {
			cli_print_help(help);
			return -1;
		}
		if (pci_opt(o, opt, optarg, cmd))
			return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The library's reason why no device is on vfio-pci, and the command that binds one. */
static void pci_absent_reason(char *buf, size_t len)
{
	size_t n;

	udrv_vfio_absent_reason(buf, len);
	n = strlen(buf);
	snprintf(buf + n, len - n, "\nudrv: to bind a device: udrv pci bind BDF vfio-pci");
}

/*
 * After a failed open, the udrv command that does what the library's message
 * asks: bind the device to vfio-pci, or, when it is on vfio-pci and busy, fix
 * the other devices of its IOMMU group.
 */
static void open_pci_hint(const char *spec, int err)
{
	char driver[64], errbuf[256];

	if (err == -EINVAL ||
	    udrv_pci_driver(spec, driver, sizeof(driver), errbuf, sizeof(errbuf)))
		return;
	if (strcmp(driver, "vfio-pci"))
		fprintf(stderr, "udrv: to bind it: udrv pci bind %s vfio-pci\n",
			spec);
	else if (err == -EBUSY)
		fputs("udrv: if its IOMMU group is not viable: udrv pci bind BDF vfio-pci for each other device the message lists, or udrv pci bind BDF '' to unbind it\n",
		      stderr);
}

int open_pci(const char *spec, struct udrv_vfio **vp)
{
	int ret, err;

	*vp = udrv_vfio_new();
	if (!*vp)
		return cli_error(EXIT_FAIL, "out of memory");
	ret = udrv_vfio_open(*vp, spec);
	if (ret) {
		/* -EINVAL: the spec itself is malformed */
		err = ret;
		ret = cli_error(ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s",
				udrv_vfio_errmsg(*vp));
		open_pci_hint(spec, err);
		udrv_vfio_free(*vp);
		*vp = NULL;
	}
	return ret;
}

/* ---- list ---- */

static const char list_help[] =
"Usage: udrv pci list [--json]\n"
"\n"
"The PCI devices bound to vfio-pci (what 'udrv pci info', 'peek', 'poke' and\n"
"'wait' can open). Opens none of them. Nothing bound: why (vfio-pci not\n"
"loaded, no IOMMU groups) and how to bind a device ('udrv pci bind').\n";

static int pci_list(int argc, char **argv)
{
	char **bdfs = NULL, reason[512];
	struct pci_opts o;
	struct udrv_json *j;
	int n, ret;

	ret = parse_pci(argc, argv, &o, "pci list", list_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (optind < argc)
		return cli_usage("pci list", "unexpected argument '%s'", argv[optind]);
	n = udrv_vfio_list(&bdfs);
	if (n < 0)
		return cli_error(EXIT_FAIL, "listing vfio-pci devices: %s", strerror(-n));
	j = cli_json_begin(o.json);
	if (j)
		udrv_json_arr_begin(j);
	for (int i = 0; i < n; i++) {
		if (j)
			udrv_json_str(j, bdfs[i]);
		else
			printf("%s\n", bdfs[i]);
	}
	if (j)
		udrv_json_arr_end(j);
	cli_json_end(j);
	if (n == 0) {
		pci_absent_reason(reason, sizeof(reason));
		fprintf(stderr, "%s\n", reason);
	}
	udrv_strv_free(bdfs);
	return EXIT_OK;
}

/* ---- info ---- */

static const char info_help[] =
"Usage: udrv pci info [--json] [DEVICE...]\n"
"\n"
"Open each DEVICE (default: every device on vfio-pci) through VFIO and show\n"
"its vendor:device, subsystem and class, its IOMMU group, its regions (BARs\n"
"0-5, ROM, config space: size, offset in the device fd, read/write/mmap),\n"
"the vectors of each interrupt type (INTx, MSI, MSI-X), whether VFIO can\n"
"reset it, and the DMA mask udrv applies (32 bits until set).\n"
"Opening turns on memory decoding and bus mastering in the command register.\n";

static const char *const region_names[] = {
	"bar0", "bar1", "bar2", "bar3", "bar4", "bar5", "rom", "config",
};

static const char *region_name(unsigned int index)
{
	return index < 8 ? region_names[index] : "other";
}

static void region_flags(uint32_t flags, char *buf)
{
	buf[0] = flags & UDRV_VFIO_REGION_READ ? 'r' : '-';
	buf[1] = flags & UDRV_VFIO_REGION_WRITE ? 'w' : '-';
	buf[2] = flags & UDRV_VFIO_REGION_MMAP ? 'm' : '-';
	buf[3] = '\0';
}

static void show_region(const struct udrv_vfio_region_info *r,
			struct udrv_json *j)
{
	char flags[4];

	region_flags(r->flags, flags);
	if (!j) {
		printf("  %-7s size 0x%-10" PRIx64 " %s offset 0x%" PRIx64 "%s\n",
		       region_name(r->index), r->size, flags, r->offset,
		       r->size ? "" : " (not implemented)");
		return;
	}
	udrv_json_obj_begin(j);
	udrv_json_kuint(j, "index", r->index);
	udrv_json_kstr(j, "name", region_name(r->index));
	udrv_json_kuint(j, "size", r->size);
	udrv_json_kuint(j, "offset", r->offset);
	udrv_json_kbool(j, "read", r->flags & UDRV_VFIO_REGION_READ);
	udrv_json_kbool(j, "write", r->flags & UDRV_VFIO_REGION_WRITE);
	udrv_json_kbool(j, "mmap", r->flags & UDRV_VFIO_REGION_MMAP);
	udrv_json_obj_end(j);
}

static int show_regions(struct udrv_vfio *v, unsigned int n,
			struct udrv_json *j)
{
	struct udrv_vfio_region_info r;
	int ret;

	if (j) {
		udrv_json_key(j, "regions");
		udrv_json_arr_begin(j);
	}
	for (unsigned int i = 0; i < n; i++) {
		ret = udrv_vfio_region_info(v, i, &r);
		/* VFIO counts the VGA region (8) also for a device without it */
		if (ret == -EINVAL && i > UDRV_VFIO_CONFIG_REGION)
			continue;
		if (ret)
			return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(v));
		show_region(&r, j);
	}
	if (j)
		udrv_json_arr_end(j);
	return EXIT_OK;
}

static void show_ids_text(const struct udrv_vfio_info *in)
{
	printf("%s %04x:%04x (subsystem %04x:%04x, class 0x%06x) iommu group %u\n",
	       in->bdf, in->vendor, in->device, in->subsystem_vendor,
	       in->subsystem_device, in->class_code, in->iommu_group);
	printf("  interrupts intx %u, msi %u, msix %u; reset %s; dma mask %u bits\n",
	       in->irq_count[0], in->irq_count[1], in->irq_count[2],
	       in->can_reset ? "yes" : "no", in->dma_mask_bits);
}

static void show_ids_json(const struct udrv_vfio_info *in,
			  struct udrv_json *j)
{
	udrv_json_kstr(j, "device", in->bdf);
	udrv_json_kuint(j, "vendor", in->vendor);
	udrv_json_kuint(j, "device_id", in->device);
	udrv_json_kuint(j, "subsystem_vendor", in->subsystem_vendor);
	udrv_json_kuint(j, "subsystem_device", in->subsystem_device);
	udrv_json_kuint(j, "class", in->class_code);
	udrv_json_kuint(j, "iommu_group", in->iommu_group);
	udrv_json_key(j, "irqs");
	udrv_json_obj_begin(j);
	for (int i = 0; i < 3; i++)
		udrv_json_kuint(j, pci_irq_names[i], in->irq_count[i]);
	udrv_json_obj_end(j);
	udrv_json_kbool(j, "reset", in->can_reset);
	udrv_json_kuint(j, "dma_mask_bits", in->dma_mask_bits);
}

static int show_device(struct udrv_vfio *v, struct udrv_json *j)
{
	struct udrv_vfio_info in;
	int ret;

	if (udrv_vfio_info(v, &in))
		return cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(v));
	if (j) {
		udrv_json_obj_begin(j);
		show_ids_json(&in, j);
	} else {
		show_ids_text(&in);
	}
	ret = show_regions(v, in.num_regions, j);
	if (j)
		udrv_json_obj_end(j);
	return ret;
}

static int show_devices(char **specs, int n, struct udrv_json *j)
{
	int ret = EXIT_OK, err;
	struct udrv_vfio *v;

	for (int i = 0; i < n; i++) {
		err = open_pci(specs[i], &v);
		if (!err)
			err = show_device(v, j);
		udrv_vfio_free(v);
		/* a usage error (a malformed address) wins over a failure */
		if (err && ret != EXIT_USAGE)
			ret = err;
	}
	return ret;
}

static int pci_info(int argc, char **argv)
{
	char **bdfs = NULL;
	struct pci_opts o;
	int n, ret;

	ret = parse_pci(argc, argv, &o, "pci info", info_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	n = argc - optind;
	if (n == 0) {
		n = udrv_vfio_list(&bdfs);
		if (n < 0)
			return cli_error(EXIT_FAIL, "listing vfio-pci devices: %s",
					 strerror(-n));
	}
	return cli_show_list(o.json, bdfs, argv + optind, n,
			     pci_absent_reason, show_devices);
}

/* ---- peek / poke ---- */

static const char peek_help[] =
"Usage: udrv pci peek [OPTIONS] DEVICE OFFSET [COUNT]\n"
"       udrv pci poke [OPTIONS] DEVICE OFFSET VALUE\n"
"\n"
"Read COUNT registers (default 1) from, or write VALUE to, a BAR of a device\n"
"on vfio-pci, at a byte OFFSET (decimal or 0x hex). The BAR is mmap'd through\n"
"VFIO; every access is checked against its size (an offset beyond the BAR is\n"
"a usage error, exit 2), as 'udrv uio peek' checks a UIO map.\n"
"\n"
"Options:\n"
"  -B, --bar N      BAR N, 0..5 (default 0)\n"
"  -w, --width W    access width in bits: 8, 16, 32 (default) or 64\n"
"  -j, --json       peek: [{\"offset\": O, \"value\": V}, ...]\n";

static int peek_poke(int argc, char **argv, bool poke)
{
	const char *cmd = poke ? "pci poke" : "pci peek";
	struct udrv_region *r = NULL;
	struct udrv_vfio *v = NULL;
	struct pci_opts o;
	uint64_t off, arg;
	int ret;

	ret = parse_pci(argc, argv, &o, cmd, peek_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = cli_peek_args(cmd, argc, argv, poke, o.width, &off, &arg);
	if (!ret)
		ret = open_pci(argv[optind], &v);
	if (!ret && udrv_vfio_map_bar(v, o.bar, &r))
		ret = cli_error(EXIT_FAIL, "%s", udrv_vfio_errmsg(v));
	if (!ret)
		ret = cli_peek_poke(r, poke, o.json, o.width, off, arg);
	udrv_region_unmap(r);
	udrv_vfio_free(v);
	return ret;
}

static int pci_peek(int argc, char **argv)
{
	return peek_poke(argc, argv, false);
}

static int pci_poke(int argc, char **argv)
{
	return peek_poke(argc, argv, true);
}

/* ---- bind ---- */

static const char bind_help[] =
"Usage: udrv pci bind DEVICE DRIVER\n"
"\n"
"Bind the PCI device DEVICE to DRIVER: vfio-pci (for 'udrv pci'),\n"
"uio_pci_generic (for 'udrv uio'), any other PCI driver, or \"\" to leave it\n"
"unbound. What driverctl does: unbind from the current driver, write\n"
"DRIVER to driver_override (\"\" clears it), ask the PCI core to probe,\n"
"and check the result. Needs root; the driver's module must be loaded\n"
"(modprobe vfio-pci). Prints \"DEVICE: OLD -> NEW\".\n"
"\n"
"Example: udrv pci bind 0000:00:01.0 vfio-pci\n";

static int pci_bind(int argc, char **argv)
{
	char err[512], old[64], now[64];
	struct pci_opts o;
	int ret;

	ret = parse_pci(argc, argv, &o, "pci bind", bind_help);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	if (argc - optind != 2)
		return cli_usage("pci bind", "give DEVICE DRIVER");
	ret = udrv_pci_driver(argv[optind], old, sizeof(old), err, sizeof(err));
	if (ret)
		return cli_error(ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", err);
	ret = udrv_pci_bind(argv[optind], argv[optind + 1], err, sizeof(err));
	if (ret)
		return cli_error(ret == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", err);
	if (udrv_pci_driver(argv[optind], now, sizeof(now), err, sizeof(err)))
		return cli_error(EXIT_FAIL, "%s", err);
	printf("%s: %s -> %s\n", argv[optind], old[0] ? old : "(none)",
	       now[0] ? now : "(none)");
	return EXIT_OK;
}

int cmd_pci(int argc, char **argv)
{
	static const struct cli_cmd cmds[] = {
		{ "list", pci_list, "devices on vfio-pci" },
		{ "info", pci_info, "describe devices" },
		{ "peek", pci_peek, "read registers" },
		{ "poke", pci_poke, "write a register" },
		{ "wait", pci_wait, "wait for interrupts" },
		{ "bind", pci_bind, "bind a device to a driver" },
		{ NULL, NULL, NULL },
	};

	return cli_dispatch("pci", cmds, argc - 1, argv + 1, pci_help);
}
