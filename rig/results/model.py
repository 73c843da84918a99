# SPDX-License-Identifier: GPL-2.0-only
"""What a results file holds once read: runs of bench documents (docs/rig/results.md).

Built by rig.results.read from a checked document (no field is looked up twice).

A run is one kernel x one load profile (one boot of the lab board, or the
documents of `udrv-bench NAME --json` files from the same system). Rows keep
the schema's names; a row's key (bench, mechanism, implementation, wait,
sample) identifies the same measurement across runs and files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rig.bench.specs import OWN_ROWS

RowKey = tuple[str, str, str, str | None, str]
# benches drawn by a section of their own, not with the latency rows (their
# specs' own_rows: gaps, rate)
OWN_SECTION = OWN_ROWS


@dataclass(frozen=True)
class Stats:
    count: int
    min: float
    avg: float
    max: float
    stddev: float
    p50: float
    p90: float
    p99: float
    p99_9: float
    p99_99: float
    overflow: int
    buckets: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class Row:
    bench: str
    mechanism: str
    implementation: str
    wait: str | None
    sample: str
    unit: str
    stats: Stats
    loss: dict[str, int] | None
    rate_per_s: float | None
    reference: dict[str, Any] | None
    note: str | None

    @property
    def key(self) -> RowKey:
        return (self.bench, self.mechanism, self.implementation, self.wait, self.sample)

    @property
    def label(self) -> str:
        """mechanism/implementation[/wait], as the suite's tables print it."""
        return "/".join(p for p in (self.mechanism, self.implementation, self.wait) if p)

    @property
    def is_rate(self) -> bool:
        """A throughput row (toggles), as opposed to a latency row."""
        return self.rate_per_s is not None


@dataclass
class Doc:
    """One udrv-bench/1 document."""

    bench: str
    board: str
    kernel: dict[str, Any]
    load: str
    rt: dict[str, Any]
    tool_version: str
    rows: list[Row]
    # the bench's own object(s), each read by its spec into its model
    # (rig/bench/<bench>/model.py: of(doc) returns it typed): "gaps", "rate", "pci", "breakdown"
    sections: dict[str, Any] = field(default_factory=dict)


@dataclass
class Run:
    """The documents measured in one kernel under one load profile."""

    source: str  # the file it came from, as given on the command line
    kernel: str  # the lab's kernel label ("std", "rt", ...), else derived
    load: str
    docs: list[Doc] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    lab_board: str = ""  # the lab's name of the machine ("x86", "rpi3"), if the file has it
    variant: str = ""  # a priority-axis run of the lab ("irq-prio 90", "SCHED_OTHER")
    label: str = ""  # unique among the runs of a report (set by label_runs)
    from_bench_file: bool = False  # a udrv-bench/1 file: joins others of the same system

    @property
    def board(self) -> str:
        """The board as the bench reported it (device tree model, DMI product)."""
        return self.docs[0].board if self.docs else self.lab_board or "?"

    @property
    def board_name(self) -> str:
        """A short name: the lab's ("rpi3"), else the bench's without parentheses."""
        return self.lab_board or short_board(self.board)

    @property
    def release(self) -> str:
        return str(self.docs[0].kernel.get("release", "?")) if self.docs else "?"

    @property
    def load_name(self) -> str:
        return "idle" if self.load == "none" else self.load

    @property
    def rows(self) -> list[Row]:
        return [r for d in self.docs for r in d.rows]

    def row(self, key: RowKey) -> Row | None:
        for r in self.rows:
            if r.key == key:
                return r
        return None


@dataclass
class Results:
    """One input file."""

    path: str
    schema: str
    tool_version: str
    runs: list[Run]
    python: list[dict[str, Any]] = field(default_factory=list)  # udrv-lab/1's "python"


def label_runs(runs: list[Run]) -> None:
    """Give every run a short unique label: "std idle", then board, file, number."""
    boards = {r.board_name for r in runs}
    for r in runs:
        r.label = f"{r.kernel} {r.load_name}" + (f" {r.variant}" if r.variant else "")
        if len(boards) > 1:
            r.label = f"{r.board_name} {r.label}"
    names = {r.source: r.source.rpartition("/")[2] for r in runs}
    if len(set(names.values())) < len(names):
        names = {src: src for src in names}
    _disambiguate(runs, lambda r: f"{names[r.source]}: {r.label}")
    _disambiguate(runs, lambda r: f"{r.label} #{runs.index(r) + 1}")


def _disambiguate(runs: list[Run], relabel: Any) -> None:
    seen: dict[str, int] = {}
    for r in runs:
        seen[r.label] = seen.get(r.label, 0) + 1
    for r in runs:
        if seen[r.label] > 1:
            r.label = relabel(r)


def short_board(board: str) -> str:
    """"Standard PC (i440FX + PIIX, 1996)" -> "Standard PC"."""
    return board.split("(")[0].strip() or board


def ordered_keys(runs: list[Run], rate: bool) -> list[RowKey]:
    """Row keys of latency (rate=False) or toggle-rate rows, in order of appearance."""
    keys: dict[RowKey, None] = {}
    for run in runs:
        for row in run.rows:
            if row.is_rate == rate and row.bench not in OWN_SECTION:
                keys.setdefault(row.key)
    return list(keys)
