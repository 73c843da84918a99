// SPDX-License-Identifier: GPL-2.0-only
/* A register model of the RP1's GPIO blocks that sees each store: rp1_model.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* REG_EFL */
#endif
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "harness.h"
#include "rp1_model.h"

#define CTRL_FUNCSEL_RIO	5u
#define CTRL_FUNCSEL_NULL	0x1fu
#define PAD_OD			(1u << 7)
#define PAD_IE			(1u << 6)
#define PAD_RESET		(PAD_OD | PAD_IE)
#define MAX_MAPS		4

static const unsigned int bank_lines[3] = { 28, 6, 20 };
static const unsigned int bank_first[3] = { 0, 28, 34 };

unsigned int rp1_bank(unsigned int line, unsigned int *bit)
{
	unsigned int b = line < 28 ? 0 : line < 34 ? 1 : 2;

	*bit = line - bank_first[b];
	return b;
}

static struct rp1_model *armed;
static struct { uintptr_t start, end; uint64_t pgoff; } maps[MAX_MAPS];
static size_t nmaps;
static struct sigaction old_segv, old_trap;

static void wr(struct rp1_model *m, uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(m->regs + off) = v;
}

__attribute__((unused))
static void violation(struct rp1_model *m, const char *fmt, uint32_t off,
		      uint32_t v)
{
	char what[160];

	if (m->violation[0])
		return;
	snprintf(what, sizeof(what), fmt, off);
	snprintf(m->violation, sizeof(m->violation),
		 "store %zu: %s (0x%05x = 0x%08x)", m->nlog, what, off, v);
}

static uint32_t rio_in(const struct rp1_model *m, unsigned int b)
{
	uint32_t in = (m->out[b] & m->oe[b]) | (m->ext[b] & ~m->oe[b]);

	for (unsigned int n = 0; n < bank_lines[b]; n++)
		if (!(m->pad[bank_first[b] + n] & PAD_IE))
			in &= ~(1u << n);
	return in & ((1u << bank_lines[b]) - 1);
}

/* Each register and its aliases as the model has them (aliases read back
 * the register, as far as the model cares). */
void rp1_sync(struct rp1_model *m)
{
	static const uint32_t alias[4] = { 0, RP1M_XOR, RP1M_SET, RP1M_CLR };
	uint32_t io, pads;

	for (unsigned int b = 0; b < 3; b++) {
		for (int a = 0; a < 4; a++) {
			wr(m, RP1M_RIO_REG(b, alias[a], RP1M_OUT), m->out[b]);
			wr(m, RP1M_RIO_REG(b, alias[a], RP1M_OE), m->oe[b]);
			wr(m, RP1M_RIO_REG(b, alias[a], RP1M_IN), rio_in(m, b));
		}
		io = RP1M_IO + b * RP1M_BANK;
		pads = RP1M_PADS + b * RP1M_BANK;
		for (unsigned int n = 0; n < bank_lines[b]; n++) {
			wr(m, io + 8 * n, 0);	/* STATUS: not modelled */
			wr(m, io + 8 * n + 4, m->ctrl[bank_first[b] + n]);
			wr(m, pads + 4 + 4 * n, m->pad[bank_first[b] + n]);
		}
	}
}

int rp1_level(const struct rp1_model *m, unsigned int line)
{
	unsigned int bit, b = rp1_bank(line, &bit);

	return (int)((rio_in(m, b) >> bit) & 1);
}

/* One store of @size bytes to @off, as the hardware takes it. */
__attribute__((unused))
static void apply(struct rp1_model *m, uint32_t off, uint32_t v, int size)
{
	uint32_t in_block = off % 0x10000, reg = in_block % 0x1000;
	uint32_t alias = in_block % RP1M_BANK - reg, b = in_block / RP1M_BANK;

	if (m->nlog < RP1M_LOG_MAX)
		m->log[m->nlog] = (struct rp1_store){ off, v };
	if (size != 4)
		violation(m, "a store that is not 32 bits wide", off, v);
	else if (off >= RP1M_SIZE || b > 2)
		violation(m, "a store outside the GPIO blocks", off, v);
	else if (off < RP1M_RIO)
		violation(m, "a write to IO_BANK (GPIOn_CTRL/STATUS): the library only checks the function", off, v);
	else if (off >= RP1M_PADS)
		violation(m, "a write to a pad: the library only checks the pads", off, v);
	else if (reg == RP1M_OE)
		violation(m, "a write to RIO_OE: the kernel sets the direction", off, v);
	else if (reg != RP1M_OUT)
		violation(m, "a write to a read-only or absent SYS_RIO register", off, v);
	else if (alias == 0)
		violation(m, "a plain write of RIO_OUT, which every line of the bank shares (a read-modify-write)", off, v);
	if (size == 4 && b <= 2 && off >= RP1M_RIO && off < RP1M_PADS &&
	    reg == RP1M_OUT) {
		if (alias == RP1M_SET)
			m->out[b] |= v;
		else if (alias == RP1M_CLR)
			m->out[b] &= ~v;
		else if (alias == RP1M_XOR)
			m->out[b] ^= v;
		else
			m->out[b] = v;
	}
	m->nlog++;
	rp1_sync(m);
}

__attribute__((unused))
static int map_of(uintptr_t addr)
{
	for (size_t k = 0; k < nmaps; k++)
		if (addr >= maps[k].start && addr < maps[k].end)
			return (int)k;
	return -1;
}

__attribute__((unused))
static uint32_t window_off(struct rp1_model *m, int k, uintptr_t addr)
{
	return (uint32_t)(maps[k].pgoff + (addr - maps[k].start) - m->file_off);
}

__attribute__((unused))
static void unhandled(int sig)
{
	signal(sig, SIG_DFL);	/* fault again, for real */
}

#if defined(__x86_64__)
/* The store is stepped over with the trap flag: its page writable for one
 * instruction, then what it wrote is read back and applied. */
static uintptr_t pending_page;
static uint32_t pending_off;
static int pending_map;
static uint8_t before[8];

static void on_segv(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	uintptr_t addr = (uintptr_t)si->si_addr;
	long page = sysconf(_SC_PAGESIZE);
	int k = map_of(addr);

	if (k < 0 || !armed) {
		unhandled(sig);
		return;
	}
	pending_map = k;
	pending_off = window_off(armed, k, addr);
	pending_page = addr & ~(uintptr_t)(page - 1);
	memcpy(before, (const void *)(armed->regs + (pending_off & ~7u)), 8);
	mprotect((void *)pending_page, (size_t)page, PROT_READ | PROT_WRITE);
	uc->uc_mcontext.gregs[REG_EFL] |= 0x100;
}

static void on_trap(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t word = pending_off & ~3u, v;
	uint8_t after[8];
	int size = 4;

	if (!pending_page || !armed) {
		unhandled(sig);
		return;
	}
	uc->uc_mcontext.gregs[REG_EFL] &= ~0x100;
	mprotect((void *)pending_page, (size_t)page, PROT_READ);
	pending_page = 0;
	memcpy(after, (const void *)(armed->regs + (pending_off & ~7u)), 8);
	for (unsigned int i = 0; i < 8; i++)
		if (before[i] != after[i] &&
		    ((pending_off & ~7u) + i) / 4 != word / 4)
			size = 8;
	if (pending_off & 3)
		size = 1;
	v = *(const volatile uint32_t *)(armed->regs + word);
	apply(armed, word, v, size);
}

static bool install(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, &old_segv);
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, &old_trap);
	return true;
}
#elif defined(__aarch64__)
/* The store is decoded (STR/STUR/STRB/STRH of a general register, any
 * addressing mode), done by the model, and skipped. */
static void on_segv(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	mcontext_t *mc = &uc->uc_mcontext;
	uintptr_t addr = (uintptr_t)si->si_addr;
	uint32_t insn, rt, rn, off;
	int k = map_of(addr), size;
	uint64_t v;

	if (k < 0 || !armed) {
		unhandled(sig);
		return;
	}
	insn = *(const uint32_t *)mc->pc;
	off = window_off(armed, k, addr);
	if ((insn & 0x3fc00000) != 0x39000000 &&
	    (insn & 0x3fc00000) != 0x38000000) {
		violation(armed, "not a single-register store instruction", off, insn);
		mc->pc += 4;
		return;
	}
	size = 1 << (insn >> 30);
	rt = insn & 31;
	rn = (insn >> 5) & 31;
	v = rt == 31 ? 0 : mc->regs[rt];
	/* pre- and post-indexed: the base register moves by imm9 */
	if ((insn & 0x3fc00000) == 0x38000000 && !(insn & (1u << 21)) &&
	    ((insn >> 10) & 1)) {
		int64_t imm = (int64_t)((insn >> 12) & 0x1ff);

		if (imm & 0x100)
			imm -= 0x200;
		if (rn == 31)
			mc->sp += (uint64_t)imm;
		else
			mc->regs[rn] += (uint64_t)imm;
	}
	if (size == 4)
		apply(armed, off, (uint32_t)v, 4);
	else
		apply(armed, off & ~3u, (uint32_t)v, size);
	mc->pc += 4;
}

static bool install(void)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGTRAP, NULL, &old_trap);
	return true;
}
#else
static bool install(void)
{
	return false;
}
#endif

/* The library's mappings of the file: /proc/self/maps, but ours. */
static void find_maps(struct rp1_model *m)
{
	unsigned long long start, end, pgoff;
	char line[1024], path[512];
	FILE *f = fopen("/proc/self/maps", "re");

	nmaps = 0;
	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %511s", &start, &end,
			   &pgoff, path) < 3 || strcmp(path, m->path) ||
		    (uintptr_t)start == (uintptr_t)m->map || nmaps == MAX_MAPS)
			continue;
		maps[nmaps].start = (uintptr_t)start;
		maps[nmaps].end = (uintptr_t)end;
		maps[nmaps].pgoff = pgoff;
		nmaps++;
	}
	if (f)
		fclose(f);
}

bool rp1_arm(struct rp1_model *m)
{
	find_maps(m);
	CHECK(nmaps > 0);
	if (!install())
		return false;
	armed = m;
	for (size_t k = 0; k < nmaps; k++)
		CHECK(mprotect((void *)maps[k].start, maps[k].end - maps[k].start,
			       PROT_READ) == 0);
	return true;
}

void rp1_disarm(void)
{
	for (size_t k = 0; k < nmaps; k++)
		mprotect((void *)maps[k].start, maps[k].end - maps[k].start,
			 PROT_READ | PROT_WRITE);
	nmaps = 0;
	if (armed) {
		sigaction(SIGSEGV, &old_segv, NULL);
		sigaction(SIGTRAP, &old_trap, NULL);
	}
	armed = NULL;
}

void rp1_clear(struct rp1_model *m)
{
	m->nlog = 0;
	m->violation[0] = '\0';
}

void rp1_claim(struct rp1_model *m, unsigned int line, bool output, int value)
{
	unsigned int bit, b = rp1_bank(line, &bit);

	m->ctrl[line] = CTRL_FUNCSEL_RIO;
	m->pad[line] = (m->pad[line] & ~PAD_OD) | PAD_IE;
	if (output) {
		m->oe[b] |= 1u << bit;
		m->out[b] = (m->out[b] & ~(1u << bit)) | (value ? 1u << bit : 0);
	} else {
		m->oe[b] &= ~(1u << bit);
	}
	rp1_sync(m);
}

void rp1_attach(struct rp1_model *m, const char *rel, uint64_t offset)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t start = offset & ~(uint64_t)(page - 1);
	char path[512];
	int fd;

	memset(m, 0, sizeof(*m));
	fake_path(path, sizeof(path), rel);
	CHECK(realpath(path, m->path) != NULL);
	m->file_off = offset;
	fd = open(path, O_RDWR);
	CHECK(fd >= 0);
	m->map_len = RP1M_SIZE + (size_t)(offset - start);
	m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		      (off_t)start);
	CHECK(m->map != MAP_FAILED);
	close(fd);
	m->regs = (volatile uint8_t *)m->map + (offset - start);
	for (unsigned int i = 0; i < RP1M_LINES; i++) {
		m->ctrl[i] = CTRL_FUNCSEL_NULL;
		m->pad[i] = PAD_RESET;
	}
	rp1_sync(m);
}

void rp1_detach(struct rp1_model *m)
{
	rp1_disarm();
	if (m->map && m->map != MAP_FAILED)
		munmap(m->map, m->map_len);
	m->map = NULL;
}
