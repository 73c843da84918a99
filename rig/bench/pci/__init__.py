# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pci (rig/bench/pci/spec.py: SPEC)."""
