# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench timer (rig/bench/timer/spec.py: SPEC)."""
