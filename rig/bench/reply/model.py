# SPDX-License-Identifier: GPL-2.0-only
"""The "breakdown" list of a udrv-bench reply --breakdown document, typed
(schema.json beside): per responder, its median traced reply split into
contiguous stages, each traced event's own cost taken off, beside the untraced p50."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rig.results.model import Doc

SECTION = "breakdown"


@dataclass(frozen=True)
class Stage:
    name: str  # "<from>_to_<mark>"
    ns: int
    who: str

    @property
    def mark(self) -> str:
        """The mark the stage ends at."""
        return self.name.split("_to_", 1)[1]


@dataclass(frozen=True)
class Cost:
    """What one traced event of a type costs a reply."""

    event: str
    traced_p50_ns: int
    per_reply: float
    ns: float


@dataclass(frozen=True)
class Entry:
    """One responder's breakdown."""

    implementation: str
    wait: str | None
    chain: str
    edges: int
    events: str
    b_irq: int | None
    d_irq: int
    timestamp_in: str | None
    stages: tuple[Stage, ...]
    total_ns: int
    traced_p50_ns: int
    untraced_p50_ns: int
    ratio: float | None
    within_5pct: bool
    events_in_reply: int
    # the costs taken off (all three, or none: a document from before they were)
    traced_total_ns: int | None = None
    cost_edges: int | None = None
    costs: tuple[Cost, ...] | None = None
    # user, lib: one of the process's timestamps, and how many a reply takes
    # (both, or none: a document from before they were measured)
    probe_ns: int | None = None
    probes_in_reply: int | None = None

    @property
    def name(self) -> str:
        """"user/read", "isr"."""
        return self.implementation + (f"/{self.wait}" if self.wait else "")


Breakdown = tuple[Entry, ...]


def entry(e: dict[str, Any]) -> Entry:
    """The model of one checked entry of "breakdown"."""
    costs = e.get("costs")
    return Entry(implementation=e["implementation"], wait=e["wait"], chain=e["chain"],
                 edges=e["edges"], events=e["events"], b_irq=e["b_irq"], d_irq=e["d_irq"],
                 timestamp_in=e["timestamp_in"],
                 stages=tuple(Stage(s["name"], s["ns"], s["who"]) for s in e["stages"]),
                 total_ns=e["total_ns"], traced_p50_ns=e["traced_p50_ns"],
                 untraced_p50_ns=e["untraced_p50_ns"], ratio=e["ratio"],
                 within_5pct=e["within_5pct"], events_in_reply=e["events_in_reply"],
                 traced_total_ns=e.get("traced_total_ns"), cost_edges=e.get("cost_edges"),
                 probe_ns=e.get("probe_ns"), probes_in_reply=e.get("probes_in_reply"),
                 costs=None if costs is None else tuple(
                     Cost(c["event"], c["traced_p50_ns"], c["per_reply"], c["ns"])
                     for c in costs))


def parse(b: list[dict[str, Any]]) -> Breakdown:
    """The model of a checked "breakdown" list."""
    return tuple(entry(e) for e in b)


def of(doc: Doc) -> Breakdown:
    """A document's breakdown entries (a reply --breakdown document's), else ()."""
    b = doc.sections.get(SECTION)
    return b if isinstance(b, tuple) else ()
