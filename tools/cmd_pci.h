/* SPDX-License-Identifier: GPL-2.0-only */
/* What the udrv pci commands share (cmd_pci.c, cmd_pci_wait.c). */
#ifndef UDRV_CMD_PCI_H
#define UDRV_CMD_PCI_H

#include <stdbool.h>
#include <stdint.h>
#include <udrv/vfio.h>

/* A write of VALUE at OFFSET of the BAR (--raise, --ack). */
struct pci_write {
	bool set;
	uint64_t off;
	uint32_t value;
};

struct pci_opts {
	bool json;
	unsigned int bar;
	unsigned int width;	/* bits */
	uint64_t count;
	int timeout_ms;		/* -1: wait forever */
	int irq;		/* enum udrv_vfio_irq_type; -1: MSI if any */
	unsigned int vectors;
	struct pci_write raise;
	struct pci_write ack;
};

extern const char *const pci_irq_names[3];	/* by enum udrv_vfio_irq_type */

/* Returns -1 after printing the help, an exit code on a usage error. */
int parse_pci(int argc, char **argv, struct pci_opts *o, const char *cmd,
	      const char *help);
/* Opens @spec, or prints why not: EXIT_USAGE for a malformed spec. */
int open_pci(const char *spec, struct udrv_vfio **vp);
int pci_wait(int argc, char **argv);

#endif /* UDRV_CMD_PCI_H */
