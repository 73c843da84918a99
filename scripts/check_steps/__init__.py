# SPDX-License-Identifier: GPL-2.0-only
"""The steps of scripts/check.py that are long enough to be read on their own."""
