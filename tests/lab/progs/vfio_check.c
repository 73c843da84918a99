// SPDX-License-Identifier: GPL-2.0-only
/*
 * udrv-vfio-check: exercise libudrv's VFIO object on QEMU's edu device in
 * the lab and print what happened as JSON (one object), for the lab tests:
 *
 *   bind edu to vfio-pci (udrv_pci_bind), open it by vendor:device, info,
 *   BAR 0 (ident, liveness), the BAR errors (index 6, BAR 1 not
 *   implemented), a second open of the group (-EBUSY), edu's missing reset
 *   (-ENOTSUP), N MSI round trips (raise, wait, ack), N INTx round trips
 *   (raise, wait, ack, unmask), DMA both ways through buffers the library
 *   allocated within edu's 28-bit mask, checked byte for byte, and the DMA
 *   errors (beyond the mask, unaligned, overlapping); then binds the device
 *   back to the driver it had. Exit 0 when every check passed.
 *
 * Usage: udrv-vfio-check [ROUND_TRIPS] [SPEC]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <udrv/udrv.h>

#define EDU_IDENT	0x00
#define EDU_LIVENESS	0x04
#define EDU_IRQ_STATUS	0x24
#define EDU_IRQ_RAISE	0x60
#define EDU_IRQ_ACK	0x64
#define EDU_DMA_SRC	0x80
#define EDU_DMA_DST	0x88
#define EDU_DMA_COUNT	0x90
#define EDU_DMA_CMD	0x98
#define EDU_DMA_START	0x1
#define EDU_DMA_TO_RAM	0x2
#define EDU_BUFFER	0x40000
/* QEMU 7.2's edu aborts for a transfer that ends exactly at 0x41000 */
#define DMA_LEN		4000

static int failures;

static void check(struct udrv_json *j, const char *what, bool ok)
{
	udrv_json_kbool(j, what, ok);
	if (!ok) {
		failures++;
		fprintf(stderr, "udrv-vfio-check: %s failed\n", what);
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct trips {
	unsigned int woke;	/* waits that returned an interrupt */
	unsigned int ok;	/* ... with one interrupt, none missed */
	uint64_t sum_ns;	/* raise write to the wait's return */
	uint64_t max_ns;
};

/* @n raise -> wait -> ack trips of @type. */
static struct trips round_trips(struct udrv_vfio *v, struct udrv_mmio *m,
				enum udrv_vfio_irq_type type, unsigned int n)
{
	struct udrv_vfio_irq irq;
	struct trips t = { 0 };

	for (unsigned int i = 0; i < n; i++) {
		uint64_t t0 = now_ns(), dt;

		udrv_write32(m, EDU_IRQ_RAISE, 1u << (i % 8));
		if (udrv_vfio_wait(v, 1000, &irq) != 1) {
			fprintf(stderr, "wait %u: %s\n", i, udrv_vfio_errmsg(v));
			break;
		}
		dt = now_ns() - t0;
		t.woke++;
		t.sum_ns += dt;
		t.max_ns = dt > t.max_ns ? dt : t.max_ns;
		udrv_write32(m, EDU_IRQ_ACK, udrv_read32(m, EDU_IRQ_STATUS));
		if (type == UDRV_VFIO_INTX && udrv_vfio_intx_unmask(v)) {
			fprintf(stderr, "unmask: %s\n", udrv_vfio_errmsg(v));
			break;
		}
		if (irq.type == (unsigned int)type && irq.vector == 0 &&
		    irq.count == 1 && irq.missed == 0)
			t.ok++;
	}
	return t;
}

static void json_trips(struct udrv_json *j, const char *name, struct trips t)
{
	char key[32];

	snprintf(key, sizeof(key), "%s_trips", name);
	udrv_json_kuint(j, key, t.ok);
	snprintf(key, sizeof(key), "%s_mean_ns", name);
	udrv_json_kuint(j, key, t.woke ? t.sum_ns / t.woke : 0);
	snprintf(key, sizeof(key), "%s_max_ns", name);
	udrv_json_kuint(j, key, t.max_ns);
}

static void irqs(struct udrv_vfio *v, struct udrv_mmio *m, struct udrv_json *j,
		 unsigned int n)
{
	struct udrv_vfio_irq irq;

	check(j, "msi_enable", udrv_vfio_irq_enable(v, UDRV_VFIO_MSI, 1) == 0);
	json_trips(j, "msi", round_trips(v, m, UDRV_VFIO_MSI, n));
	check(j, "msi_timeout", udrv_vfio_wait(v, 50, &irq) == 0);
	check(j, "msix_none", udrv_vfio_irq_enable(v, UDRV_VFIO_MSIX, 1) == -ENOTSUP);
	check(j, "intx_enable", udrv_vfio_irq_enable(v, UDRV_VFIO_INTX, 1) == 0);
	json_trips(j, "intx", round_trips(v, m, UDRV_VFIO_INTX, n));
	/* masked after a trip without unmask: a second raise stays pending */
	udrv_write32(m, EDU_IRQ_RAISE, 1);
	check(j, "intx_fired", udrv_vfio_wait(v, 1000, &irq) == 1);
	udrv_write32(m, EDU_IRQ_ACK, udrv_read32(m, EDU_IRQ_STATUS));
	udrv_write32(m, EDU_IRQ_RAISE, 2);
	check(j, "intx_masked", udrv_vfio_wait(v, 50, &irq) == 0);
	check(j, "intx_unmasked", udrv_vfio_intx_unmask(v) == 0 &&
	      udrv_vfio_wait(v, 1000, &irq) == 1);
	udrv_write32(m, EDU_IRQ_ACK, udrv_read32(m, EDU_IRQ_STATUS));
	udrv_vfio_intx_unmask(v);
	udrv_json_kuint(j, "missed", udrv_vfio_missed(v));
	check(j, "irq_disable", udrv_vfio_irq_disable(v) == 0);
}

static bool dma_wait(struct udrv_mmio *m)
{
	for (int i = 0; i < 10000; i++) {
		if (!(udrv_read64(m, EDU_DMA_CMD) & EDU_DMA_START))
			return true;
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
	return false;
}

static bool dma_run(struct udrv_mmio *m, uint64_t src, uint64_t dst,
		    uint64_t cmd)
{
	udrv_write64(m, EDU_DMA_SRC, src);
	udrv_write64(m, EDU_DMA_DST, dst);
	udrv_write64(m, EDU_DMA_COUNT, DMA_LEN);
	udrv_write64(m, EDU_DMA_CMD, cmd);
	return dma_wait(m);
}

static void dma_errors(struct udrv_vfio *v, struct udrv_json *j)
{
	void *mem = aligned_alloc(4096, 8192);
	struct udrv_dma *b, *c;

	if (!mem)
		return;
	check(j, "dma_beyond_mask",
	      udrv_vfio_dma_map(v, mem, 4096, 1ULL << 28, &b) == -ERANGE);
	udrv_json_kstr(j, "dma_beyond_mask_message", udrv_vfio_errmsg(v));
	check(j, "dma_unaligned_iova",
	      udrv_vfio_dma_map(v, mem, 4096, 0x100800, &b) == -EINVAL);
	check(j, "dma_unaligned_size",
	      udrv_vfio_dma_map(v, mem, 100, 0, &b) == -EINVAL);
	check(j, "dma_at_iova",
	      udrv_vfio_dma_map(v, mem, 8192, 0x200000, &b) == 0 &&
	      udrv_dma_iova(b) == 0x200000);
	check(j, "dma_overlap",
	      udrv_vfio_dma_map(v, mem, 4096, 0x201000, &c) == -EEXIST);
	check(j, "dma_unmap", udrv_vfio_dma_free(v, b) == 0);
	free(mem);
}

static void dma(struct udrv_vfio *v, struct udrv_mmio *m, struct udrv_json *j)
{
	struct udrv_dma *to, *from;
	uint8_t *a, *b;
	int ret;

	check(j, "dma_mask", udrv_vfio_set_dma_mask(v, 28) == 0);
	ret = udrv_vfio_dma_alloc(v, DMA_LEN, &to);
	check(j, "dma_alloc", ret == 0);
	if (ret || udrv_vfio_dma_alloc(v, DMA_LEN, &from)) {
		fprintf(stderr, "dma alloc: %s\n", udrv_vfio_errmsg(v));
		failures++;
		return;
	}
	udrv_json_kuint(j, "dma_iova_to", udrv_dma_iova(to));
	udrv_json_kuint(j, "dma_iova_from", udrv_dma_iova(from));
	a = udrv_dma_addr(to);
	b = udrv_dma_addr(from);
	for (size_t i = 0; i < DMA_LEN; i++) {
		a[i] = (uint8_t)(i * 7 + 3);
		b[i] = 0;
	}
	check(j, "dma_to_device", dma_run(m, udrv_dma_iova(to), EDU_BUFFER,
					  EDU_DMA_START));
	check(j, "dma_to_ram", dma_run(m, EDU_BUFFER, udrv_dma_iova(from),
				       EDU_DMA_START | EDU_DMA_TO_RAM));
	check(j, "dma_data", !memcmp(a, b, DMA_LEN));
	check(j, "dma_free", !udrv_vfio_dma_free(v, to) &&
	      !udrv_vfio_dma_free(v, from));
	dma_errors(v, j);
}

static void bars(struct udrv_vfio *v, struct udrv_json *j)
{
	struct udrv_region *r;

	check(j, "bar6_einval", udrv_vfio_map_bar(v, 6, &r) == -EINVAL);
	check(j, "bar1_enodev", udrv_vfio_map_bar(v, 1, &r) == -ENODEV);
	udrv_json_kstr(j, "bar1_message", udrv_vfio_errmsg(v));
}

/* A second handle on the same group, and edu's missing reset. */
static void second_open(struct udrv_vfio *v, const char *spec, struct udrv_json *j)
{
	struct udrv_vfio *w = udrv_vfio_new();

	check(j, "second_open_ebusy", w && udrv_vfio_open(w, spec) == -EBUSY);
	if (w)
		udrv_json_kstr(j, "second_open_message", udrv_vfio_errmsg(w));
	udrv_vfio_free(w);
	check(j, "reset_enotsup", udrv_vfio_reset(v) == -ENOTSUP);
}

static void info(struct udrv_vfio *v, struct udrv_json *j)
{
	struct udrv_vfio_info in;

	check(j, "info", udrv_vfio_info(v, &in) == 0);
	udrv_json_kstr(j, "bdf", in.bdf);
	udrv_json_kuint(j, "vendor", in.vendor);
	udrv_json_kuint(j, "device", in.device);
	udrv_json_kuint(j, "class", in.class_code);
	udrv_json_kuint(j, "group", in.iommu_group);
	udrv_json_kuint(j, "regions", in.num_regions);
	udrv_json_kuint(j, "intx", in.irq_count[UDRV_VFIO_INTX]);
	udrv_json_kuint(j, "msi", in.irq_count[UDRV_VFIO_MSI]);
	udrv_json_kuint(j, "msix", in.irq_count[UDRV_VFIO_MSIX]);
	udrv_json_kbool(j, "can_reset", in.can_reset);
}

static int run(struct udrv_vfio *v, const char *spec, struct udrv_json *j,
	       unsigned int n)
{
	struct udrv_region *bar;
	struct udrv_mmio m;

	info(v, j);
	if (udrv_vfio_map_bar(v, 0, &bar)) {
		fprintf(stderr, "map BAR 0: %s\n", udrv_vfio_errmsg(v));
		return 1;
	}
	m = udrv_region_mmio(bar);
	udrv_json_kuint(j, "ident", udrv_read32(&m, EDU_IDENT));
	udrv_write32(&m, EDU_LIVENESS, 0x12345678);
	udrv_json_kuint(j, "liveness", udrv_read32(&m, EDU_LIVENESS));
	bars(v, j);
	second_open(v, spec, j);
	irqs(v, &m, j, n);
	dma(v, &m, j);
	udrv_region_unmap(bar);
	return 0;
}

int main(int argc, char **argv)
{
	const char *spec = argc > 2 ? argv[2] : "1234:11e8";
	unsigned int n = 20;
	char err[384], drv[64] = "", orig[64] = "";
	struct udrv_json *j;
	struct udrv_vfio *v;
	int ret;

	if (argc > 1 && udrv_parse_uint(argv[1], 100000, &n)) {
		fprintf(stderr, "usage: udrv-vfio-check [ROUND_TRIPS] [SPEC]\n");
		return 2;
	}
	j = udrv_json_new(stdout, true);
	udrv_json_obj_begin(j);
	if (udrv_pci_driver(spec, orig, sizeof(orig), err, sizeof(err)))
		fprintf(stderr, "driver: %s\n", err);
	udrv_json_kstr(j, "driver_before", orig);
	ret = udrv_pci_bind(spec, "vfio-pci", err, sizeof(err));
	check(j, "bind", ret == 0);
	if (ret)
		fprintf(stderr, "bind: %s\n", err);
	check(j, "driver", !udrv_pci_driver(spec, drv, sizeof(drv), err,
					    sizeof(err)) &&
	      !strcmp(drv, "vfio-pci"));
	v = udrv_vfio_new();
	ret = udrv_vfio_open(v, spec);
	check(j, "open", ret == 0);
	if (ret)
		udrv_json_kstr(j, "open_message", udrv_vfio_errmsg(v));
	else if (run(v, spec, j, n))
		failures++;
	udrv_vfio_free(v);
	/* put the device back where it was, for the tests after this one */
	check(j, "restored", !udrv_pci_bind(spec, orig, err, sizeof(err)) &&
	      !udrv_pci_driver(spec, drv, sizeof(drv), err, sizeof(err)) &&
	      !strcmp(drv, orig));
	udrv_json_kuint(j, "failures", (uint64_t)failures);
	udrv_json_obj_end(j);
	udrv_json_free(j);
	return failures ? 1 : 0;
}
