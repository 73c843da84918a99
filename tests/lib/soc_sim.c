// SPDX-License-Identifier: GPL-2.0-only
/* A simulated GPIO register file: see soc_sim.h. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gpio/backend.h"
#include "fake_gpio.h"
#include "harness.h"
#include "gpio/soc/soc.h"
#include "soc_sim.h"

#define SIM_MAP_LEN	0x10000

struct sim_regs {
	int32_t set, clr, lev, out, dir;
	uint32_t stride;
};

static void regs_of(const struct sim *s, struct sim_regs *r)
{
	const struct udrv_gpio_layout *l = &s->layout;

	switch (s->kind) {
	case SIM_BCM2835:
	case SIM_BCM2711:
		*r = (struct sim_regs){ BCM_GPSET0, BCM_GPCLR0, BCM_GPLEV0, -1, -1, 4 };
		break;
	case SIM_AM335X:
		*r = (struct sim_regs){ AM_SET, AM_CLEAR, AM_DATAIN, AM_DATAOUT,
					AM_OE, 0 };
		break;
	default:
		*r = (struct sim_regs){ l->set, l->clear,
					l->data_in >= 0 ? l->data_in : l->data_out,
					l->data_out, l->dir, l->bank_stride };
		break;
	}
}

static uint32_t width_mask(const struct sim *s)
{
	return s->width == 32 ? 0xffffffffu : (1u << s->width) - 1;
}

uint32_t sim_reg(const struct sim *s, int32_t off)
{
	switch (s->width) {
	case 8:
		return *(const volatile uint8_t *)(s->regs + off);
	case 16:
		return *(const volatile uint16_t *)(s->regs + off);
	default:
		return *(const volatile uint32_t *)(s->regs + off);
	}
}

void sim_set_reg(struct sim *s, int32_t off, uint32_t v)
{
	switch (s->width) {
	case 8:
		*(volatile uint8_t *)(s->regs + off) = (uint8_t)v;
		break;
	case 16:
		*(volatile uint16_t *)(s->regs + off) = (uint16_t)v;
		break;
	default:
		*(volatile uint32_t *)(s->regs + off) = v;
		break;
	}
}

static int32_t at(int32_t off, const struct sim_regs *r, unsigned int w)
{
	return off < 0 ? -1 : off + (int32_t)(w * r->stride);
}

/* Which pins are outputs, as the registers (or the claims) say. */
static uint32_t outputs(const struct sim *s, const struct sim_regs *r,
			unsigned int w)
{
	uint32_t outs = 0, v;

	switch (s->kind) {
	case SIM_BCM2835:
	case SIM_BCM2711:
		for (unsigned int b = 0; b < 32; b++) {
			unsigned int line = w * 32 + b;

			v = sim_reg(s, BCM_GPFSEL0 + 4 * (int32_t)(line / 10));
			if (((v >> (line % 10) * 3) & 7) == 1)
				outs |= 1u << b;
		}
		return outs;
	case SIM_AM335X:
		return ~sim_reg(s, AM_OE);
	default:
		if (r->dir < 0)
			return s->outs[w];
		v = sim_reg(s, at(r->dir, r, w));
		return (s->layout.dir_input_high ? ~v : v) & width_mask(s);
	}
}

/* The registers the library must never write: offsets, -1 terminated. */
static size_t protected_regs(const struct sim *s, const struct sim_regs *r,
			     int32_t *offs)
{
	size_t n = 0;

	if (s->kind == SIM_BCM2835 || s->kind == SIM_BCM2711) {
		for (int32_t o = BCM_GPFSEL0; o <= 0x14; o += 4)
			offs[n++] = o;
		for (int32_t o = 0x94; o <= 0x9c; o += 4)	/* GPPUD, CLK */
			offs[n++] = o;
		for (int32_t o = BCM_PUP_PDN0; o <= 0xf0; o += 4)
			offs[n++] = o;
	}
	if (s->kind == SIM_AM335X)
		offs[n++] = AM_DATAOUT;
	for (unsigned int w = 0; w < s->words; w++) {
		if (r->dir >= 0)
			offs[n++] = at(r->dir, r, w);
		if (r->lev >= 0 && r->lev != r->out)
			offs[n++] = at(r->lev, r, w);
	}
	return n;
}

void sim_prepare(struct sim *s)
{
	uint32_t poison = SIM_POISON & width_mask(s), level, outs;
	int32_t offs[64];
	struct sim_regs r;
	size_t n;

	regs_of(s, &r);
	for (unsigned int w = 0; w < s->words; w++) {
		outs = outputs(s, &r, w);
		level = ((s->latch[w] & outs) | (s->ext[w] & ~outs)) &
			width_mask(s);
		if (r.set >= 0) {
			sim_set_reg(s, at(r.set, &r, w), poison);
			sim_set_reg(s, at(r.clr, &r, w), poison);
		}
		if (r.lev >= 0 && r.lev != r.out)
			sim_set_reg(s, at(r.lev, &r, w), level);
		if (r.out >= 0) {
			s->shown[w] = r.lev == r.out ? level : s->latch[w];
			sim_set_reg(s, at(r.out, &r, w), s->shown[w]);
		}
	}
	n = protected_regs(s, &r, offs);
	for (size_t i = 0; i < n; i++)
		s->keep[i] = sim_reg(s, offs[i]);
}

static void violation(struct sim *s, const char *what, int32_t off,
		      uint32_t v)
{
	if (!s->violation[0])
		snprintf(s->violation, sizeof(s->violation),
			 "%s (register 0x%x = 0x%x)", what, (unsigned int)off, v);
}

static void settle_word(struct sim *s, const struct sim_regs *r,
			unsigned int w)
{
	uint32_t poison = SIM_POISON & width_mask(s), v;
	int32_t off;

	if (r->set >= 0) {
		off = at(r->set, r, w);
		v = sim_reg(s, off);
		if (v != poison && (v & poison) == poison)
			violation(s, "read-modify-write of a set register", off, v);
		if (v != poison)
			s->latch[w] |= v;
		off = at(r->clr, r, w);
		v = sim_reg(s, off);
		if (v != poison && (v & poison) == poison)
			violation(s, "read-modify-write of a clear register", off, v);
		if (v != poison)
			s->latch[w] &= ~v;
	}
	if (s->kind != SIM_GENERIC || r->out < 0)
		return;
	off = at(r->out, r, w);
	v = sim_reg(s, off);
	if (v == s->shown[w])
		return;
	if (r->set >= 0)
		violation(s, "data register written though set/clear exist", off, v);
	s->latch[w] = v;
}

void sim_settle(struct sim *s)
{
	int32_t offs[64];
	struct sim_regs r;
	size_t n;

	regs_of(s, &r);
	n = protected_regs(s, &r, offs);
	for (size_t i = 0; i < n; i++)
		if (sim_reg(s, offs[i]) != s->keep[i])
			violation(s, "a register the library must not write was written",
				  offs[i], sim_reg(s, offs[i]));
	for (unsigned int w = 0; w < s->words; w++)
		settle_word(s, &r, w);
	sim_prepare(s);
}

int sim_level(const struct sim *s, unsigned int line)
{
	unsigned int w = line / s->width, b = line % s->width;
	struct sim_regs r;
	uint32_t outs;

	regs_of(s, &r);
	outs = outputs(s, &r, w);
	return (int)((((s->latch[w] & outs) | (s->ext[w] & ~outs)) >> b) & 1);
}

void sim_claim(struct sim *s, unsigned int line, bool output, int value)
{
	unsigned int w = line / s->width, b = line % s->width;
	struct sim_regs r;
	int32_t off;
	uint32_t v;

	regs_of(s, &r);
	if (s->kind == SIM_BCM2835 || s->kind == SIM_BCM2711) {
		off = BCM_GPFSEL0 + 4 * (int32_t)(line / 10);
		v = sim_reg(s, off) & ~(7u << (line % 10) * 3);
		sim_set_reg(s, off, v | (output ? 1u : 0u) << (line % 10) * 3);
	} else if (r.dir >= 0) {
		off = at(r.dir, &r, w);
		v = sim_reg(s, off) & ~(1u << b);
		if (output != (s->kind == SIM_AM335X || s->layout.dir_input_high))
			v |= 1u << b;
		sim_set_reg(s, off, v);
	}
	s->outs[w] = (s->outs[w] & ~(1u << b)) | (output ? 1u << b : 0);
	if (output)
		s->latch[w] = (s->latch[w] & ~(1u << b)) | (value ? 1u << b : 0);
	sim_prepare(s);
}

void sim_compatible(const char *strings, size_t len)
{
	char path[512];
	FILE *f;

	fake_dir("proc/device-tree");
	fake_path(path, sizeof(path), "proc/device-tree/compatible");
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fwrite(strings, 1, len, f);
	fclose(f);
}

void sim_devfile(const char *rel, uint64_t size)
{
	char path[512];
	int fd;

	fake_dir("dev");
	fake_path(path, sizeof(path), rel);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0);
	if (fd >= 0)
		close(fd);
}

void sim_attach(struct sim *s, enum sim_kind kind, const char *rel,
		uint64_t offset)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = offset & ~(uint64_t)(page - 1);
	char path[512];
	int fd;

	s->kind = kind;
	s->width = kind == SIM_GENERIC && s->layout.width ? s->layout.width : 32;
	s->words = kind == SIM_BCM2835 || kind == SIM_BCM2711 ? 2 :
		   kind == SIM_GENERIC && s->layout.bank_stride ? SIM_WORDS : 1;
	fake_path(path, sizeof(path), rel);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0);
	s->map = mmap(NULL, SIM_MAP_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)start);
	CHECK(s->map != MAP_FAILED);
	close(fd);
	s->map_len = SIM_MAP_LEN;
	s->regs = (volatile uint8_t *)s->map + (offset - start);
	sim_prepare(s);
}

void sim_detach(struct sim *s)
{
	if (s->map && s->map != MAP_FAILED)
		munmap(s->map, s->map_len);
	s->map = NULL;
}

void sim_tree(const char *compat, size_t len, const char *device,
	      const char *label, int ngpio)
{
	fake_root();
	fake_gpio_bus();
	if (compat)
		sim_compatible(compat, len);
	fake_gpio_chip(0, device, 512, ngpio, label);
}

struct udrv_chip *sim_chip(void)
{
	struct udrv_chip *chip = udrv_chip_new();

	CHECK_INT(udrv_chip_open(chip, "gpiochip0"), 0);
	return chip;
}

int sim_request(struct udrv_chip *chip, size_t n, const unsigned int *offsets,
		const struct udrv_line_settings *settings,
		const struct udrv_gpio_layout *layout,
		struct udrv_request **reqp, char *err)
{
	struct udrv_request *req = calloc(1, sizeof(*req));
	int ret;

	req->ops = &udrv_mmio_ops;
	req->set_value = udrv_mmio_ops.set_value;
	req->backend = UDRV_BACKEND_MMIO;
	req->fd = -1;
	req->num_lines = n;
	memcpy(req->offsets, offsets, n * sizeof(*offsets));
	memcpy(req->settings, settings, n * sizeof(*settings));
	udrv_strlcpy(req->chip_name, udrv_chip_name(chip), sizeof(req->chip_name));
	ret = udrv_mmio_attach(req, chip, layout, err);
	if (!ret)
		ret = udrv_mmio_start(req, settings, err);
	if (ret) {
		sim_release(req);
		req = NULL;
	}
	*reqp = req;
	return ret;
}

void sim_release(struct udrv_request *req)
{
	if (!req)
		return;
	udrv_mmio_detach(req);
	free(req);
}
