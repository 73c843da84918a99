# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench irq (rig/bench/irq/spec.py: SPEC)."""
