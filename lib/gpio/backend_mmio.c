// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The mmio backend: claim through the character device, drive through the
 * registers. udrv_chip_request() resolves the chip's register bank (soc.c),
 * maps it (mmio_map.c), claims the lines with the cdev backend (so that the
 * kernel knows they are in use, sets direction, bias and initial values, and
 * keeps the bank clocked), then checks in the registers that each line has
 * the direction it was claimed with: a wrong layout or base fails here, not
 * silently in the loop. Events and reconfiguration go through the cdev's
 * request (req->priv); the register state is req->regs.
 *
 * Writes use the write-1-to-set / write-1-to-clear registers: one store per
 * register touched, never a read-modify-write of a register other lines
 * share. udrv_request_set_value() on a line is one store (the store path, backend.h).
 * Blocks without set/clear registers (generic layouts) are written from a
 * shadow of the data register, taken at the claim.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio/backend.h"
#include "gpio/soc/soc.h"


/* One register word that the request's lines are in. */
struct mmio_port {
	int32_t level, out, set, clr;	/* offsets, -1: none */
	uint32_t shadow;		/* of out, without set/clear */
	uint64_t lines;			/* request bits in this word */
};

/*
 * The fast path of an output line in a 32-bit block with set and clear
 * registers is the request's store path (backend.h), built by fast_lines():
 * udrv_request_set_value() stores without calling in here.
 */
struct mmio_state {
	uint32_t bit[UDRV_LINES_MAX];
	uint64_t outputs, active_low;
	uint64_t pinned;		/* lines with a udrv_mmio_pin out */
	uint8_t port_of[UDRV_LINES_MAX];
	unsigned int num_ports;
	struct mmio_port port[UDRV_LINES_MAX];
	struct udrv_soc_bank bank;
	struct udrv_soc_map map;
};

/* the slow paths: several lines, inputs, 8/16-bit or shadowed blocks */

__attribute__((cold))
static int not_outputs(struct udrv_request *req, uint64_t inputs)
{
	size_t i = (size_t)__builtin_ctzll(inputs);

	return udrv_err(req->errmsg, EPERM,
			"cannot set line %u of %s: it is requested as an input (reconfigure it as an output)",
			req->offsets[i], req->chip_name);
}

/* The register bits to set (@hi) and clear (@lo) in port @p. */
static void port_split(const struct mmio_state *m, const struct mmio_port *p,
		       uint64_t mask, uint64_t values, uint32_t *hi,
		       uint32_t *lo)
{
	uint64_t todo = mask & p->lines;
	size_t i;

	*hi = *lo = 0;
	values ^= m->active_low;
	while (todo) {
		i = (size_t)__builtin_ctzll(todo);
		todo &= todo - 1;
		if (values & (1ULL << i))
			*hi |= m->bit[i];
		else
			*lo |= m->bit[i];
	}
}

static void port_write(struct mmio_state *m, struct mmio_port *p, uint32_t hi,
		       uint32_t lo)
{
	volatile uint8_t *regs = m->map.regs;

#ifdef UDRV_MMIO_MUTANT_RMW
	/* tests/lib/test_soc_rp1.c's mutant: the latch read, changed, written */
	if (p->out >= 0) {
		uint32_t v = udrv_soc_read(&m->bank, regs, p->out);

		udrv_soc_write(&m->bank, regs, p->out, (v & ~lo) | hi);
		return;
	}
#endif
	if (p->set >= 0) {
		if (hi)
			udrv_soc_write(&m->bank, regs, p->set, hi);
		if (lo)
			udrv_soc_write(&m->bank, regs, p->clr, lo);
		return;
	}
	p->shadow = (p->shadow & ~lo) | hi;
	udrv_soc_write(&m->bank, regs, p->out, p->shadow);
}

static int mmio_set(struct udrv_request *req, uint64_t mask, uint64_t values)
{
	struct mmio_state *m = req->regs;
	uint32_t hi, lo;

	if (mask & ~m->outputs)
		return not_outputs(req, mask & ~m->outputs);
	for (unsigned int k = 0; k < m->num_ports; k++) {
		if (!(m->port[k].lines & mask))
			continue;
		port_split(m, &m->port[k], mask, values, &hi, &lo);
		port_write(m, &m->port[k], hi, lo);
	}
	return 0;
}

/*
 * udrv_request_set_value() of a line without a store path (an input, a
 * shadowed or narrow block); lines with one never get here (backend.h).
 */
static int mmio_set_value(struct udrv_request *req, size_t idx, int value)
{
	return mmio_set(req, 1ULL << idx, value ? 1ULL << idx : 0);
}

static int mmio_get(struct udrv_request *req, uint64_t mask, uint64_t *values)
{
	struct mmio_state *m = req->regs;
	uint64_t v = 0, todo;
	uint32_t level;
	size_t i;

	for (unsigned int k = 0; k < m->num_ports; k++) {
		todo = m->port[k].lines & mask;
		if (!todo)
			continue;
		level = udrv_soc_read(&m->bank, m->map.regs, m->port[k].level);
		for (; todo; todo &= todo - 1) {
			i = (size_t)__builtin_ctzll(todo);
			if (level & m->bit[i])
				v |= 1ULL << i;
		}
	}
	*values = (v ^ m->active_low) & mask;
	return 0;
}

/* the register half: resolve, map, check (testable without a claim) */

static unsigned int port_find(struct mmio_state *m, const struct udrv_soc_bank *b,
			      unsigned int line)
{
	int32_t level = udrv_soc_reg(b, SOC_REG_LEVEL, line);
	struct mmio_port *p;

	for (unsigned int k = 0; k < m->num_ports; k++)
		if (m->port[k].level == level)
			return k;
	p = &m->port[m->num_ports];
	p->level = level;
	p->out = udrv_soc_reg(b, SOC_REG_OUT, line);
	p->set = udrv_soc_reg(b, SOC_REG_SET, line);
	p->clr = udrv_soc_reg(b, SOC_REG_CLEAR, line);
	return m->num_ports++;
}

static int lines_check(const struct udrv_request *req,
		       const struct udrv_soc_bank *b, char *errmsg)
{
	for (size_t i = 0; i < req->num_lines; i++)
		if (req->offsets[i] >= b->lines)
			return udrv_err(errmsg, EINVAL,
					"line %u of %s: the %s registers%s%s hold lines 0..%u",
					req->offsets[i], req->chip_name, b->soc,
					b->device[0] ? " of " : "", b->device,
					b->lines - 1);
	return 0;
}

int udrv_mmio_attach(struct udrv_request *req, struct udrv_chip *chip,
		     const struct udrv_gpio_layout *layout, char *errmsg)
{
	struct mmio_state *m = calloc(1, sizeof(*m));
	unsigned int k;
	int ret;

	if (!m)
		return udrv_err(errmsg, ENOMEM, "out of memory");
	ret = udrv_soc_bank_find(&m->bank, chip, layout, errmsg);
	if (!ret)
		ret = lines_check(req, &m->bank, errmsg);
	if (!ret)
		ret = udrv_soc_map(&m->map, &m->bank, errmsg);
	if (ret) {
		free(m);
		return ret;
	}
	for (size_t i = 0; i < req->num_lines; i++) {
		k = port_find(m, &m->bank, req->offsets[i]);
		m->port_of[i] = (uint8_t)k;
		m->port[k].lines |= 1ULL << i;
	}
	req->regs = m;
	return 0;
}

void udrv_mmio_detach(struct udrv_request *req)
{
	struct mmio_state *m = req->regs;

	if (!m)
		return;
	memset(&req->store, 0, sizeof(req->store));	/* before the unmap */
	udrv_soc_unmap(&m->map);
	free(m);
	req->regs = NULL;
}

/* The request's lines as @settings has them: outputs and active-low. */
struct mmio_dirs {
	uint64_t outputs, active_low;
};

static void dirs_of(const struct udrv_request *req,
		    const struct udrv_line_settings *settings,
		    struct mmio_dirs *d)
{
	d->outputs = d->active_low = 0;
	for (size_t i = 0; i < req->num_lines; i++) {
		if (settings[i].direction == UDRV_DIR_OUTPUT)
			d->outputs |= 1ULL << i;
		if (settings[i].active_low)
			d->active_low |= 1ULL << i;
	}
}

__attribute__((cold))
static int direction_mismatch(const struct udrv_request *req,
			      const struct mmio_state *m, size_t i, bool out,
			      const char *what, char *errmsg)
{
	const struct udrv_soc_bank *b = &m->bank;

	return udrv_err(errmsg, EIO,
			"line %u of %s was claimed as an %s, but %s: the registers mapped from %s (0x%llx) are not this chip's; check the SoC detection or the layout (base, dir, dir-input)",
			req->offsets[i], req->chip_name, out ? "output" : "input",
			what, m->map.path, (unsigned long long)b->phys);
}

static int directions_check(const struct udrv_request *req,
			    const struct mmio_state *m,
			    const struct mmio_dirs *d, char *errmsg)
{
	const struct udrv_soc_bank *b = &m->bank;
	char what[128];
	bool want;
	int out;

	for (size_t i = 0; i < req->num_lines; i++) {
		want = d->outputs & (1ULL << i);
		out = b->drv->is_output(b, m->map.regs, req->offsets[i], what,
					sizeof(what));
		if (out == -EBUSY || out == -EIO)
			return udrv_err(errmsg, -out,
					"line %u of %s cannot be driven through the %s registers: %s",
					req->offsets[i], req->chip_name, b->soc,
					what);
		if (out >= 0 && out != want)
			return direction_mismatch(req, m, i, want, what, errmsg);
	}
	return 0;
}

/* Outputs need set/clear or a data register to write. */
static int writable_check(const struct udrv_request *req,
			  const struct mmio_state *m,
			  const struct mmio_dirs *d, char *errmsg)
{
	for (size_t i = 0; i < req->num_lines; i++)
		if ((d->outputs & (1ULL << i)) &&
		    m->port[m->port_of[i]].set < 0 &&
		    m->port[m->port_of[i]].out < 0)
			return udrv_err(errmsg, EOPNOTSUPP,
					"line %u: the layout has no register to drive outputs (set/clear, or data_out)",
					req->offsets[i]);
	return 0;
}

static void fast_lines(struct udrv_request *req, struct mmio_state *m)
{
	volatile uint8_t *regs = m->map.regs;
	const struct mmio_port *p;
	bool low;

	for (size_t i = 0; i < req->num_lines; i++) {
		p = &m->port[m->port_of[i]];
		req->store.reg[i][0] = req->store.reg[i][1] = NULL;
		m->bit[i] = udrv_soc_bit(&m->bank, req->offsets[i]);
		req->store.bit[i] = m->bit[i];
		if (!(m->outputs & (1ULL << i)) || p->set < 0 ||
		    m->bank.width != 32)
			continue;
#ifdef UDRV_MMIO_MUTANT_RMW
		if (p->out >= 0)
			continue;	/* every write through port_write() */
#endif
		low = m->active_low & (1ULL << i);
		req->store.reg[i][low] = (volatile uint32_t *)(regs + p->set);
		req->store.reg[i][!low] = (volatile uint32_t *)(regs + p->clr);
	}
}

/*
 * All or nothing: the directions and polarities are taken (and the fast
 * path rebuilt) only once the registers agree with them, so that a refusal
 * leaves every path of the request as it was.
 */
int udrv_mmio_start(struct udrv_request *req,
		    const struct udrv_line_settings *settings, char *errmsg)
{
	struct mmio_state *m = req->regs;
	struct mmio_dirs d;
	struct mmio_port *p;
	int ret;

	dirs_of(req, settings, &d);
	ret = directions_check(req, m, &d, errmsg);
	if (!ret)
		ret = writable_check(req, m, &d, errmsg);
	if (ret)
		return ret;
	m->outputs = d.outputs;
	m->active_low = d.active_low;
	for (unsigned int k = 0; k < m->num_ports; k++) {
		p = &m->port[k];
		if (p->set < 0 && p->out >= 0)
			p->shadow = udrv_soc_read(&m->bank, m->map.regs, p->out);
	}
	fast_lines(req, m);
	return 0;
}

/* the backend */

static int drive_check(const struct udrv_request *req,
		       const struct udrv_line_settings *s, char *errmsg)
{
	for (size_t i = 0; i < req->num_lines; i++)
		if (s[i].direction == UDRV_DIR_OUTPUT &&
		    s[i].drive != UDRV_DRIVE_PUSH_PULL)
			return udrv_err(errmsg, EOPNOTSUPP,
					"line %u: %s is emulated by the kernel (by switching the direction), which register writes bypass; use the cdev backend for it",
					req->offsets[i], udrv_drive_str(s[i].drive));
	return 0;
}

static int mmio_request(struct udrv_request *req, struct udrv_chip *chip,
			const struct udrv_request_config *config)
{
	int ret = drive_check(req, req->settings, chip->errmsg);

	if (!ret)
		ret = udrv_mmio_attach(req, chip, config->layout, chip->errmsg);
	if (ret)
		return ret;
	ret = udrv_cdev_ops.request(req, chip, config);
	if (!ret) {
		ret = udrv_mmio_start(req, req->settings, chip->errmsg);
		if (ret)
			udrv_cdev_ops.release(req);
	}
	if (ret)
		udrv_mmio_detach(req);
	return ret;
}

static void mmio_release(struct udrv_request *req)
{
	udrv_cdev_ops.release(req);
	udrv_mmio_detach(req);
}

/*
 * A udrv_mmio_pin is a copy of the line's registers, taken for its
 * direction and polarity: a reconfigure that changes either would leave it
 * driving the inverted level (or an input). Refused while pins are out.
 */
static int pins_check(const struct udrv_request *req,
		      const struct udrv_line_settings *s, char *errmsg)
{
	const struct mmio_state *m = req->regs;

	for (size_t i = 0; i < req->num_lines; i++) {
		uint64_t bit = 1ULL << i;
		bool out = s[i].direction == UDRV_DIR_OUTPUT;

		if (!(m->pinned & bit))
			continue;
		if (out != !!(m->outputs & bit) ||
		    s[i].active_low != !!(m->active_low & bit))
			return udrv_err(errmsg, EBUSY,
					"line %u: a udrv_mmio_pin of it is in use and would keep the old %s; stop using the pins, call udrv_request_mmio_pins_release(), reconfigure, then take them again",
					req->offsets[i],
					out != !!(m->outputs & bit) ? "direction" : "polarity (active-low)");
	}
	return 0;
}

/*
 * What the registers can be checked for before the kernel is told (a block
 * without registers to drive an output); the directions only after it.
 * When the registers disagree with what the kernel did, the kernel gets
 * the request's settings back: all or nothing, like the other backends.
 */
static int mmio_reconfigure(struct udrv_request *req,
			    const struct udrv_line_settings *settings)
{
	char errmsg[UDRV_ERRMSG_LEN];
	struct mmio_dirs d;
	int ret = drive_check(req, settings, req->errmsg);

	dirs_of(req, settings, &d);
	if (!ret)
		ret = pins_check(req, settings, req->errmsg);
	if (!ret)
		ret = writable_check(req, req->regs, &d, req->errmsg);
	if (!ret)
		ret = udrv_cdev_ops.reconfigure(req, settings);
	if (ret)
		return ret;
	ret = udrv_mmio_start(req, settings, req->errmsg);
	if (!ret)
		return 0;
	memcpy(errmsg, req->errmsg, sizeof(errmsg));
	if (udrv_cdev_ops.reconfigure(req, req->settings))
		snprintf(errmsg + strlen(errmsg), sizeof(errmsg) - strlen(errmsg),
			 "; the lines could not be set back to their settings either (%s)",
			 req->errmsg);
	memcpy(req->errmsg, errmsg, sizeof(errmsg));
	return ret;
}

static int mmio_read_events(struct udrv_request *req,
			    struct udrv_edge_event *buf, size_t max)
{
	return udrv_cdev_ops.read_events(req, buf, max);
}

const struct udrv_backend_ops udrv_mmio_ops = {
	.name = "mmio",
	.request = mmio_request,
	.release = mmio_release,
	.get = mmio_get,
	.set = mmio_set,
	.set_value = mmio_set_value,	/* the slow path: see req->store */
	.reconfigure = mmio_reconfigure,
	.read_events = mmio_read_events,
};

/* the inline fast path */

int udrv_request_mmio_pin(struct udrv_request *req, size_t idx,
			  struct udrv_mmio_pin *pin)
{
	struct mmio_state *m = req->regs;
	const struct mmio_port *p;
	uint8_t *regs;

	if (req->backend != UDRV_BACKEND_MMIO || !m)
		return udrv_err(req->errmsg, EINVAL,
				"the request uses the %s backend: request the lines with UDRV_BACKEND_MMIO for register access",
				udrv_backend_str(req->backend));
	if (idx >= req->num_lines)
		return udrv_err(req->errmsg, EINVAL,
				"line index %zu out of range: the request holds %zu lines",
				idx, req->num_lines);
	p = &m->port[m->port_of[idx]];
	if (p->set < 0 || m->bank.width != 32)
		return udrv_err(req->errmsg, EOPNOTSUPP,
				"line %u: the %s block has %s; an inline pin needs 32-bit set and clear registers (udrv_request_set_value() works)",
				req->offsets[idx], m->bank.soc,
				p->set < 0 ? "no set/clear registers (writes go through a shadow of the data register)" :
				"registers narrower than 32 bits");
	regs = (uint8_t *)m->map.regs;
	memset(pin, 0, sizeof(*pin));
	pin->mask = m->bit[idx];
	pin->level = (const volatile uint32_t *)(regs + p->level);
	pin->invert = m->active_low & (1ULL << idx) ? pin->mask : 0;
	if (m->outputs & (1ULL << idx)) {
		pin->reg[0] = req->store.reg[idx][0];
		pin->reg[1] = req->store.reg[idx][1];
	}
	m->pinned |= 1ULL << idx;
	return 0;
}

void udrv_request_mmio_pins_release(struct udrv_request *req)
{
	struct mmio_state *m = req->regs;

	if (req->backend == UDRV_BACKEND_MMIO && m)
		m->pinned = 0;
}
