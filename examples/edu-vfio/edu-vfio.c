// SPDX-License-Identifier: GPL-2.0-only
/*
 * A complete userspace driver for QEMU's "edu" PCI device (1234:11e8) on
 * libudrv, through VFIO: what examples/edu/edu.c does through UIO, plus
 * what UIO cannot do, MSI interrupts and DMA behind an IOMMU. Each step is
 * explained in README.md beside this file.
 *
 *   1. open: the device on vfio-pci (its IOMMU group, a type1 container);
 *      udrv turns on memory decoding and bus mastering
 *   2. BAR 0 mapped through VFIO: identification, liveness
 *   3. factorial: by polling the status register, then with the
 *      factorial-done interrupt (MSI)
 *   4. MSI round trips: raise (0x60) -> eventfd -> status (0x24) -> ack (0x64)
 *   5. INTx round trips: the same, then VFIO's unmask (the kernel masked
 *      the level-triggered line when it fired)
 *   6. DMA: a buffer mapped at an IOVA within edu's 28-bit DMA mask;
 *      RAM -> edu and edu -> RAM, verified byte for byte
 *   7. reset (VFIO_DEVICE_RESET), when the device offers one
 *
 * Usage: udrv-edu-vfio [-d DEVICE] [-n IRQS] [--dma-bytes N] [--json]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <udrv/udrv.h>
#include <udrv/vfio.h>

#include "../edu/edu_regs.h"

/* QEMU 7.2's edu aborts QEMU for a transfer that ends exactly at 0x41000 */
#define EDU_DMA_MAX		4095
#define EDU_DMA_MASK_BITS	28	/* QEMU's default dma_mask property */
#define EDU_DMA_TIMEOUT_MS	2000	/* edu completes 100 ms after the command */

struct edu {
	struct udrv_vfio *v;
	struct udrv_region *bar;
	struct udrv_mmio regs;
	struct udrv_json *j;	/* NULL: text output */
};

static int edu_fail(struct edu *edu, const char *what)
{
	fprintf(stderr, "udrv-edu-vfio: %s: %s\n", what, udrv_vfio_errmsg(edu->v));
	return -1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Is the device @v has open an edu? */
static bool is_edu(struct udrv_vfio *v)
{
	struct udrv_vfio_info in;

	return !udrv_vfio_info(v, &in) && in.vendor == EDU_VENDOR &&
	       in.device == EDU_DEVICE;
}

/* The first device on vfio-pci that is an edu. */
static int edu_find(struct edu *edu)
{
	char **bdfs = NULL;
	int n, ret = -ENODEV;

	n = udrv_vfio_list(&bdfs);
	for (int i = 0; i < n && ret; i++) {
		if (udrv_vfio_open(edu->v, bdfs[i]))
			continue;
		if (is_edu(edu->v))
			ret = 0;
		else
			udrv_vfio_close(edu->v);
	}
	udrv_strv_free(bdfs);
	if (ret)
		fprintf(stderr,
			"udrv-edu-vfio: no edu (1234:11e8) on vfio-pci: start QEMU with -device edu and an IOMMU\n"
			"  (-M q35 -device intel-iommu,intremap=on, intel_iommu=on), modprobe vfio-pci, then\n"
			"  udrv pci bind 0000:00:01.0 vfio-pci   (or give the device with -d)\n");
	return ret;
}

static int edu_open(struct edu *edu, const char *spec)
{
	edu->v = udrv_vfio_new();
	if (!edu->v)
		return -1;
	if (!spec) {
		if (edu_find(edu))
			return -1;
	} else if (udrv_vfio_open(edu->v, spec)) {
		return edu_fail(edu, "open");
	} else if (!is_edu(edu->v)) {
		fprintf(stderr, "udrv-edu-vfio: %s is not an edu (1234:11e8)\n", spec);
		return -1;
	}
	if (udrv_vfio_map_bar(edu->v, 0, &edu->bar))
		return edu_fail(edu, "map BAR 0");
	edu->regs = udrv_region_mmio(edu->bar);
	/* a previous user may have left an interrupt raised: clear it */
	udrv_write32(&edu->regs, EDU_IRQ_ACK, 0xffffffff);
	udrv_write32(&edu->regs, EDU_STATUS, 0);
	return 0;
}

static void edu_close(struct edu *edu)
{
	udrv_region_unmap(edu->bar);
	udrv_vfio_free(edu->v);	/* disables interrupts, unmaps DMA */
}

static int edu_identify(struct edu *edu)
{
	uint32_t id = udrv_read32(&edu->regs, EDU_IDENT);
	uint32_t live;

	udrv_write32(&edu->regs, EDU_LIVENESS, 0x12345678);
	live = udrv_read32(&edu->regs, EDU_LIVENESS);
	if (edu->j) {
		udrv_json_kstr(edu->j, "device", udrv_vfio_bdf(edu->v));
		udrv_json_kuint(edu->j, "ident", id);
		udrv_json_kuint(edu->j, "liveness", live);
	} else {
		printf("device     %s on vfio-pci\n", udrv_vfio_bdf(edu->v));
		printf("ident      0x%08x (version %u.%u)\n", id, id >> 24,
		       (id >> 16) & 0xff);
		printf("liveness   wrote 0x12345678, read 0x%08x (%s)\n", live,
		       live == ~0x12345678u ? "inverse: alive" : "WRONG");
	}
	return (id & 0xff) == 0xed && live == ~0x12345678u ? 0 : -1;
}

static const uint32_t fact_expect[] = { 1, 1, 2, 6, 24, 120, 720, 5040,
					40320, 362880, 3628800 };

/* n! by polling the status register's "computing" bit. */
static uint32_t edu_factorial_poll(struct edu *edu, uint32_t n)
{
	udrv_write32(&edu->regs, EDU_FACTORIAL, n);
	while (udrv_read32(&edu->regs, EDU_STATUS) & EDU_STATUS_COMPUTING)
		;
	return udrv_read32(&edu->regs, EDU_FACTORIAL);
}

static int edu_factorials(struct edu *edu)
{
	int bad = 0;

	if (edu->j) {
		udrv_json_key(edu->j, "factorial");
		udrv_json_arr_begin(edu->j);
	}
	for (uint32_t n = 0; n <= 10; n++) {
		uint32_t f = edu_factorial_poll(edu, n);

		bad |= f != fact_expect[n];
		if (edu->j)
			udrv_json_uint(edu->j, f);
		else if (n == 5 || n == 10)
			printf("factorial  %u! = %u by polling%s\n", n, f,
			       f == fact_expect[n] ? "" : " WRONG");
	}
	if (edu->j)
		udrv_json_arr_end(edu->j);
	return bad ? -1 : 0;
}

/*
 * Wait for the interrupt that @expect in the status register announces,
 * then acknowledge it (and unmask INTx). 0, or -1 with a message.
 */
static int edu_wait_irq(struct edu *edu, enum udrv_vfio_irq_type type,
			uint32_t expect, int timeout_ms, struct udrv_vfio_irq *irq)
{
	uint32_t status;
	int ret;

	ret = udrv_vfio_wait(edu->v, timeout_ms, irq);
	if (ret < 0)
		return edu_fail(edu, "wait");
	if (ret == 0) {
		fprintf(stderr, "udrv-edu-vfio: no interrupt within %d ms (status 0x%x; bus mastering off?)\n",
			timeout_ms, udrv_read32(&edu->regs, EDU_IRQ_STATUS));
		return -1;
	}
	status = udrv_read32(&edu->regs, EDU_IRQ_STATUS);
	udrv_write32(&edu->regs, EDU_IRQ_ACK, status);
	if (type == UDRV_VFIO_INTX && udrv_vfio_intx_unmask(edu->v))
		return edu_fail(edu, "unmask INTx");
	if (status != expect) {
		fprintf(stderr, "udrv-edu-vfio: interrupt status 0x%x, expected 0x%x\n",
			status, expect);
		return -1;
	}
	return 0;
}

/* 10! with the factorial-done interrupt (MSI enabled by the caller). */
static int edu_factorial_irq(struct edu *edu)
{
	struct udrv_vfio_irq irq;
	uint32_t f;
	int ret;

	udrv_write32(&edu->regs, EDU_STATUS, EDU_STATUS_IRQ_FACT);
	udrv_write32(&edu->regs, EDU_FACTORIAL, 10);
	ret = edu_wait_irq(edu, UDRV_VFIO_MSI, EDU_IRQ_FACT, 1000, &irq);
	udrv_write32(&edu->regs, EDU_STATUS, 0);
	if (ret)
		return ret;
	f = udrv_read32(&edu->regs, EDU_FACTORIAL);
	if (edu->j)
		udrv_json_kuint(edu->j, "factorial_irq", f);
	else
		printf("factorial  10! = %u with the factorial-done interrupt (MSI)%s\n",
		       f, f == fact_expect[10] ? "" : " WRONG");
	return f == fact_expect[10] ? 0 : -1;
}

static const char *const irq_names[] = { "intx", "msi", "msix" };

static void report_trips(struct edu *edu, enum udrv_vfio_irq_type type,
			 const struct udrv_hist *h, unsigned int count)
{
	unsigned long long missed = udrv_vfio_missed(edu->v);

	if (edu->j) {
		udrv_json_key(edu->j, irq_names[type]);
		udrv_json_obj_begin(edu->j);
		udrv_json_kuint(edu->j, "raised", count);
		udrv_json_kuint(edu->j, "round_trips", udrv_hist_count(h));
		udrv_json_kuint(edu->j, "missed", missed);
		udrv_json_key(edu->j, "raise_to_wake_ns");
		udrv_hist_write_json(h, edu->j);
		udrv_json_obj_end(edu->j);
		return;
	}
	printf("%-10s %llu of %u round trips, %llu missed; raise->wake min %llu ns, median %llu ns, max %llu ns\n",
	       irq_names[type], (unsigned long long)udrv_hist_count(h), count,
	       missed, (unsigned long long)udrv_hist_min(h),
	       (unsigned long long)udrv_hist_percentile(h, 50),
	       (unsigned long long)udrv_hist_max(h));
}

/*
 * @count round trips through interrupts of @type: raise (0x60) -> the
 * eventfd -> status (0x24) -> ack (0x64) [-> unmask INTx]. Enabling one
 * type disables the other (one type at a time: the PCI rule).
 */
static int edu_round_trips(struct edu *edu, enum udrv_vfio_irq_type type,
			   unsigned int count)
{
	struct udrv_hist *h = udrv_hist_new();
	struct udrv_vfio_irq irq;
	uint64_t t0;
	int ret = 0;

	if (!h)
		return -1;
	if (udrv_vfio_irq_enable(edu->v, type, 1))
		ret = edu_fail(edu, irq_names[type]);
	for (unsigned int i = 0; i < count && !ret; i++) {
		t0 = now_ns();
		udrv_write32(&edu->regs, EDU_IRQ_RAISE, 0x1000u + i);
		ret = edu_wait_irq(edu, type, 0x1000u + i, 1000, &irq);
		if (!ret)
			udrv_hist_record(h, now_ns() - t0);
	}
	report_trips(edu, type, h, count);
	udrv_hist_free(h);
	if (!ret && udrv_vfio_missed(edu->v))
		ret = -1;	/* every raise is waited for: none may be missed */
	return ret;
}

/* Start a transfer and wait for its DMA-done interrupt (MSI enabled). */
static int edu_dma_run(struct edu *edu, uint64_t src, uint64_t dst,
		       size_t len, bool to_ram)
{
	struct udrv_vfio_irq irq;

	udrv_write64(&edu->regs, EDU_DMA_SRC, src);
	udrv_write64(&edu->regs, EDU_DMA_DST, dst);
	udrv_write64(&edu->regs, EDU_DMA_COUNT, len);
	udrv_write64(&edu->regs, EDU_DMA_CMD, EDU_DMA_START | EDU_DMA_IRQ |
		     (to_ram ? EDU_DMA_TO_RAM : 0));
	if (edu_wait_irq(edu, UDRV_VFIO_MSI, EDU_IRQ_DMA, EDU_DMA_TIMEOUT_MS, &irq))
		return -1;
	if (udrv_read64(&edu->regs, EDU_DMA_CMD) & EDU_DMA_START) {
		fprintf(stderr, "udrv-edu-vfio: DMA-done interrupt but the command is still running\n");
		return -1;
	}
	return 0;
}

/* The first byte where @a and @b differ, or -1. */
static long first_difference(const uint8_t *a, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

static void report_dma(struct edu *edu, const char *dir, size_t len,
		       uint64_t iova, long diff)
{
	if (edu->j) {
		udrv_json_key(edu->j, dir);
		udrv_json_obj_begin(edu->j);
		udrv_json_kuint(edu->j, "bytes", len);
		udrv_json_kuint(edu->j, "iova", iova);
		udrv_json_kint(edu->j, "first_difference", diff);
		udrv_json_obj_end(edu->j);
		return;
	}
	if (diff < 0 && !strcmp(dir, "ram_to_edu"))
		printf("dma        %s %zu bytes from IOVA 0x%llx: done\n",
		       dir, len, (unsigned long long)iova);
	else if (diff < 0)
		printf("dma        %s %zu bytes to IOVA 0x%llx: what went in, verified byte for byte\n",
		       dir, len, (unsigned long long)iova);
	else
		printf("dma        %s %zu bytes at IOVA 0x%llx: WRONG from byte %ld\n",
		       dir, len, (unsigned long long)iova, diff);
}

/*
 * RAM -> edu from buffer @out, then edu -> RAM into buffer @in; @in must
 * then equal @out. edu's buffer cannot be read through registers, so the
 * round trip is the check; the pattern differs from run to run, so that
 * a RAM -> edu that did nothing cannot pass on what an earlier run left in
 * edu's buffer. MSI must be enabled (the DMA-done interrupt).
 */
static int edu_dma_both(struct edu *edu, struct udrv_dma *out,
			struct udrv_dma *in, size_t len)
{
	uint8_t *src = udrv_dma_addr(out), *dst = udrv_dma_addr(in);
	uint8_t seed = (uint8_t)(now_ns() >> 10);
	long diff;

	for (size_t i = 0; i < len; i++)
		src[i] = (uint8_t)(i * 7 + seed);
	memset(dst, (uint8_t)~seed, len);
	if (edu_dma_run(edu, udrv_dma_iova(out), EDU_DMA_BUF, len, false))
		return -1;
	report_dma(edu, "ram_to_edu", len, udrv_dma_iova(out), -1);
	if (edu_dma_run(edu, EDU_DMA_BUF, udrv_dma_iova(in), len, true))
		return -1;
	diff = first_difference(src, dst, len);
	report_dma(edu, "edu_to_ram", len, udrv_dma_iova(in), diff);
	return diff < 0 ? 0 : -1;
}

static int edu_dma(struct edu *edu, size_t len)
{
	struct udrv_dma *out = NULL, *in = NULL;
	int ret = -1;

	if (udrv_vfio_set_dma_mask(edu->v, EDU_DMA_MASK_BITS))
		return edu_fail(edu, "DMA mask");
	if (udrv_vfio_irq_enable(edu->v, UDRV_VFIO_MSI, 1))
		return edu_fail(edu, "MSI");
	if (udrv_vfio_dma_alloc(edu->v, 4096, &out) ||
	    udrv_vfio_dma_alloc(edu->v, 4096, &in))
		edu_fail(edu, "DMA buffer");
	else
		ret = edu_dma_both(edu, out, in, len);
	if (in)
		udrv_vfio_dma_free(edu->v, in);
	if (out)
		udrv_vfio_dma_free(edu->v, out);
	return ret;
}

/* --dma-iova: map a buffer at a chosen IOVA (beyond the mask: refused). */
static int edu_dma_at(struct edu *edu, uint64_t iova)
{
	struct udrv_dma *buf;
	void *mem;
	int ret;

	if (udrv_vfio_set_dma_mask(edu->v, EDU_DMA_MASK_BITS))
		return edu_fail(edu, "DMA mask");
	mem = aligned_alloc(4096, 4096);
	if (!mem)
		return -1;
	ret = udrv_vfio_dma_map(edu->v, mem, 4096, iova, &buf);
	if (ret)
		edu_fail(edu, "DMA map");
	else
		udrv_vfio_dma_free(edu->v, buf);
	free(mem);
	return ret ? -1 : 0;
}

static int edu_reset(struct edu *edu)
{
	struct udrv_vfio_info in;
	int ret;

	if (udrv_vfio_info(edu->v, &in))
		return edu_fail(edu, "info");
	ret = in.can_reset ? udrv_vfio_reset(edu->v) : -ENOTSUP;
	if (ret && ret != -ENOTSUP)
		return edu_fail(edu, "reset");
	if (edu->j)
		udrv_json_kbool(edu->j, "reset", !ret);
	else
		printf("reset      %s\n", ret ? "not offered by the device (no FLR, PM or bus reset): skipped"
			       : "VFIO_DEVICE_RESET done");
	/* still there and alive after the reset */
	udrv_write32(&edu->regs, EDU_LIVENESS, 0x5a5a5a5a);
	return udrv_read32(&edu->regs, EDU_LIVENESS) == ~0x5a5a5a5au ? 0 : -1;
}

struct edu_opts {
	const char *spec;
	unsigned int irqs;
	unsigned int dma_bytes;
	uint64_t dma_iova;
	bool dma_iova_set;
	bool json;
};

static const char usage[] =
"Usage: udrv-edu-vfio [-d DEVICE] [-n IRQS] [--dma-bytes N] [--json]\n"
"       udrv-edu-vfio [-d DEVICE] --dma-iova IOVA\n"
"Drive QEMU's edu PCI device through VFIO (bound to vfio-pci): identification,\n"
"liveness, factorials (polled, then with the factorial-done interrupt), IRQS\n"
"MSI and IRQS INTx round trips (default 10), DMA of N bytes (default 4095,\n"
"at most 4095) to the device and back, verified byte for byte, and reset.\n"
"DEVICE: 0000:00:01.0 (default: the first edu on vfio-pci).\n"
"--dma-iova maps a page at IOVA and nothing else (edu's DMA mask is 28 bits:\n"
"an IOVA at or beyond 0x10000000 is refused, with the reason).\n"
"Exit status: 0 when every step checked out, 1 otherwise, 2 bad usage.\n";

static int parse_opts(int argc, char **argv, struct edu_opts *o)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "irqs", required_argument, NULL, 'n' },
		{ "dma-bytes", required_argument, NULL, 'b' },
		{ "dma-iova", required_argument, NULL, 'I' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, bad = 0;

	*o = (struct edu_opts){ .irqs = 10, .dma_bytes = EDU_DMA_MAX };
	while ((opt = getopt_long(argc, argv, "d:n:b:I:jh", opts, NULL)) != -1) {
		if (opt == 'd')
			o->spec = optarg;
		else if (opt == 'n')
			bad |= udrv_parse_uint(optarg, 100000, &o->irqs);
		else if (opt == 'b')
			bad |= udrv_parse_uint(optarg, EDU_DMA_MAX, &o->dma_bytes) ||
			       !o->dma_bytes;
		else if (opt == 'I')
			bad |= udrv_parse_u64(optarg, UINT64_MAX, &o->dma_iova),
			o->dma_iova_set = true;
		else if (opt == 'j')
			o->json = true;
		else
			return fputs(usage, opt == 'h' ? stdout : stderr), opt == 'h' ? 0 : 2;
	}
	if (bad || optind < argc)
		return fputs(usage, stderr), 2;
	return -1;
}

static int edu_run(struct edu *edu, const struct edu_opts *o)
{
	int ret;

	ret = edu_identify(edu);
	ret |= edu_factorials(edu);
	ret |= edu_round_trips(edu, UDRV_VFIO_MSI, o->irqs);
	ret |= edu_factorial_irq(edu);
	ret |= edu_round_trips(edu, UDRV_VFIO_INTX, o->irqs);
	ret |= edu_dma(edu, o->dma_bytes);
	ret |= edu_reset(edu);
	return ret;
}

int main(int argc, char **argv)
{
	struct edu edu = { 0 };
	struct edu_opts o;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret >= 0)
		return ret;
	if (edu_open(&edu, o.spec)) {
		edu_close(&edu);
		return 1;
	}
	if (o.dma_iova_set) {
		ret = edu_dma_at(&edu, o.dma_iova);
		edu_close(&edu);
		return ret ? 1 : 0;
	}
	edu.j = o.json ? udrv_json_new(stdout, true) : NULL;
	if (edu.j)
		udrv_json_obj_begin(edu.j);
	ret = edu_run(&edu, &o);
	if (edu.j) {
		udrv_json_kbool(edu.j, "ok", !ret);
		udrv_json_obj_end(edu.j);
		udrv_json_free(edu.j);
	}
	edu_close(&edu);
	return ret ? 1 : 0;
}
