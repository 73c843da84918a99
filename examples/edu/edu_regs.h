/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * QEMU's edu PCI device (1234:11e8): its BAR 0 register map, from QEMU's
 * docs/specs/edu.rst and hw/misc/edu.c (7.2). Shared by the UIO driver
 * (edu.c) and the VFIO one (../edu-vfio/edu-vfio.c). Registers below 0x80
 * take 32-bit accesses only; the DMA registers 32 or 64.
 */
#ifndef EDU_REGS_H
#define EDU_REGS_H

#define EDU_VENDOR		0x1234
#define EDU_DEVICE		0x11e8

#define EDU_IDENT		0x00	/* RO: 0xRRrr00ed, 0x010000ed */
#define EDU_LIVENESS		0x04	/* RW: reads back the inverse */
#define EDU_FACTORIAL		0x08	/* RW: n in, n! out */
#define EDU_STATUS		0x20	/* RW */
#define  EDU_STATUS_COMPUTING	0x01	/* factorial in progress (RO) */
#define  EDU_STATUS_IRQ_FACT	0x80	/* interrupt when factorial done */
#define EDU_IRQ_STATUS		0x24	/* RO: what raised the interrupt */
#define  EDU_IRQ_FACT		0x001	/* factorial done */
#define  EDU_IRQ_DMA		0x100	/* DMA done */
#define EDU_IRQ_RAISE		0x60	/* WO: raise, value ORed into status */
#define EDU_IRQ_ACK		0x64	/* WO: clear bits; line drops at 0 */
#define EDU_DMA_SRC		0x80	/* RW 64-bit: source address */
#define EDU_DMA_DST		0x88	/* RW 64-bit: destination address */
#define EDU_DMA_COUNT		0x90	/* RW 64-bit: bytes */
#define EDU_DMA_CMD		0x98	/* RW 64-bit */
#define  EDU_DMA_START		0x1	/* cleared when done */
#define  EDU_DMA_TO_RAM		0x2	/* 0: RAM -> edu, 1: edu -> RAM */
#define  EDU_DMA_IRQ		0x4	/* raise EDU_IRQ_DMA when done */

#define EDU_DMA_BUF		0x40000	/* edu's 4 KiB buffer, device address */

#endif /* EDU_REGS_H */
