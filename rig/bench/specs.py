# SPDX-License-Identifier: GPL-2.0-only
"""Every bench of udrv-bench, its spec (rig/bench/<bench>/spec.py): the one list
rig.results (the document's sections, its schema, the tables) and rig.report
(its sections) iterate. A new bench: its folder, and its line here."""

from __future__ import annotations

from .base import BenchSpec
from .gaps.spec import SPEC as GAPS
from .irq.spec import SPEC as IRQ
from .kernel.spec import SPEC as KERNEL
from .pci.spec import SPEC as PCI
from .rate.spec import SPEC as RATE
from .reply.spec import SPEC as REPLY
from .timer.spec import SPEC as TIMER
from .toggle.spec import SPEC as TOGGLE
from .uio.spec import SPEC as UIO

# in the schema's order of "bench" (and of the tables and the report's sections)
SPECS: tuple[BenchSpec, ...] = (TOGGLE, IRQ, UIO, TIMER, KERNEL, REPLY, GAPS, RATE, PCI)
BY_NAME = {s.name: s for s in SPECS}
# the benches drawn by a section of their own, not with the latency rows
OWN_ROWS = frozenset(s.name for s in SPECS if s.own_rows)
