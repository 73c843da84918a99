/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory-mapped I/O: a region handle that knows its size, and sized volatile
 * accessors with the barriers a device needs.
 *
 * udrv_readN()/udrv_writeN() follow the kernel's readl()/writel(): a read is
 * ordered before later memory accesses, a write after earlier ones (so a DMA
 * buffer filled before the doorbell write is visible to the device). The
 * _relaxed variants are bare volatile accesses for back-to-back register
 * pokes. Accesses are bounds and alignment checked unless NDEBUG is defined
 * (release builds), where they compile to a single load or store.
 */
#ifndef UDRV_MMIO_H
#define UDRV_MMIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct udrv_region;

/* A view of a mapped region, for the inline accessors. Frozen for the life
 * of libudrv.so.1: the inline accessors compiled into callers read it. */
struct udrv_mmio {
	volatile uint8_t *base;
	size_t size;
};

/*
 * Map @size bytes of a device file (/dev/mem, /dev/gpiomem, /dev/uioN, a
 * regular file in tests) at byte offset @offset; the offset need not be page
 * aligned. On failure @errbuf (when non-NULL) receives a message.
 */
int udrv_region_map_file(const char *path, uint64_t offset, size_t size,
			 struct udrv_region **regionp,
			 char *errbuf, size_t errlen);
void udrv_region_unmap(struct udrv_region *region);
struct udrv_mmio udrv_region_mmio(const struct udrv_region *region);
size_t udrv_region_size(const struct udrv_region *region);
const char *udrv_region_name(const struct udrv_region *region);

/* Called by the checked accessors on an out-of-range access; aborts. */
__attribute__((noreturn, cold))
void udrv_mmio_fault(const struct udrv_mmio *m, size_t off, size_t width);

#if defined(__aarch64__)
#define udrv_wmb()	__asm__ __volatile__("dmb oshst" ::: "memory")
#define udrv_rmb()	__asm__ __volatile__("dmb oshld" ::: "memory")
#elif defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7
#define udrv_wmb()	__asm__ __volatile__("dmb oshst" ::: "memory")
#define udrv_rmb()	__asm__ __volatile__("dmb osh" ::: "memory")
#elif defined(__x86_64__) || defined(__i386__)
/* x86 keeps uncached device accesses in order: stop the compiler only. */
#define udrv_wmb()	__asm__ __volatile__("" ::: "memory")
#define udrv_rmb()	__asm__ __volatile__("" ::: "memory")
#else
#define udrv_wmb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define udrv_rmb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#ifdef NDEBUG
#define udrv_mmio_check(m, off, width) ((void)0)
#else
#define udrv_mmio_check(m, off, width)					\
	do {								\
		if ((off) > (m)->size || (m)->size - (off) < (width) ||	\
		    ((off) & ((width) - 1)))				\
			udrv_mmio_fault((m), (off), (width));		\
	} while (0)
#endif

#define UDRV_MMIO_ACCESSORS(bits)					\
static inline uint##bits##_t						\
udrv_read##bits##_relaxed(const struct udrv_mmio *m, size_t off)	\
{									\
	udrv_mmio_check(m, off, sizeof(uint##bits##_t));		\
	return *(volatile uint##bits##_t *)(m->base + off);		\
}									\
static inline void							\
udrv_write##bits##_relaxed(const struct udrv_mmio *m, size_t off,	\
			   uint##bits##_t v)				\
{									\
	udrv_mmio_check(m, off, sizeof(uint##bits##_t));		\
	*(volatile uint##bits##_t *)(m->base + off) = v;		\
}									\
static inline uint##bits##_t						\
udrv_read##bits(const struct udrv_mmio *m, size_t off)			\
{									\
	uint##bits##_t v = udrv_read##bits##_relaxed(m, off);		\
	udrv_rmb();							\
	return v;							\
}									\
static inline void							\
udrv_write##bits(const struct udrv_mmio *m, size_t off, uint##bits##_t v) \
{									\
	udrv_wmb();							\
	udrv_write##bits##_relaxed(m, off, v);				\
}

UDRV_MMIO_ACCESSORS(8)
UDRV_MMIO_ACCESSORS(16)
UDRV_MMIO_ACCESSORS(32)
UDRV_MMIO_ACCESSORS(64)

#undef UDRV_MMIO_ACCESSORS

#ifdef __cplusplus
}
#endif

#endif /* UDRV_MMIO_H */
