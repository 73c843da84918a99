# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench spi (rig/bench/spi/spec.py: SPEC)."""
