# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pwm (rig/bench/pwm/spec.py: SPEC)."""
