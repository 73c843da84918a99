# SPDX-License-Identifier: GPL-2.0-only
"""Every bench of udrv-bench, its spec (rig/bench/<bench>/spec.py: SPEC): the one
list rig.results (the document's sections, its schema, the tables) and rig.report
(its sections) iterate. A new bench: its folder, and its name in NAMES (and in
rig/bench/meson.build's udrv_benches, the C side's list: the same order)."""

from __future__ import annotations

from importlib import import_module

from .base import BenchSpec

# in the schema's order of "bench" and the lab's plan's (the tables and the
# report's sections go by their specs' ranks)
NAMES = ("toggle", "irq", "uio", "timer", "kernel", "reply", "pci", "gaps", "rate", "i2c", "spi",
         "pwm")


def _spec(name: str) -> BenchSpec:
    spec = import_module(f"{__package__}.{name}.spec").SPEC
    if not isinstance(spec, BenchSpec) or spec.name != name:
        raise TypeError(f"rig/bench/{name}/spec.py: SPEC is not the BenchSpec of {name!r}")
    return spec


SPECS: tuple[BenchSpec, ...] = tuple(_spec(n) for n in NAMES)
BY_NAME = {s.name: s for s in SPECS}
# the benches drawn by a section of their own, not with the latency rows
OWN_ROWS = frozenset(s.name for s in SPECS if s.own_rows)
