# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench toggle (rig/bench/toggle/spec.py: SPEC)."""
