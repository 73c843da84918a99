# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench gaps (rig/bench/gaps/spec.py: SPEC)."""
