# SPDX-License-Identifier: GPL-2.0-only
"""The tables of a lab run, for a terminal (what `make lab` prints) or as
Markdown (docs): toggle rate per mechanism, latency min/avg/max per
mechanism x kernel x load, the responders, the priority axis, the scheduler
gaps, the interrupt rate capacity, UIO vs VFIO, udrv-pybench's own table and
its bus rows (python-buses).

Tables are data (TextTable: title, columns, rows, footer); render() and
markdown() draw them. ratio_label() is the one "x1.015 vs raw".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# the variants of a lab run (udrv-lab/1 "variant"), the benches' vocabulary
from rig.bench.base import PRIORITY_VARIANTS, TextTableSpec
from rig.bench.specs import SPECS

from .model import Results, Row, Run
from .pybench import bus_model

KERNELS = ("std", "rt")
LOADS = ("none", "all")
# the benches whose rows are the latency table's (their specs say latency=True)
LATENCY_BENCHES = tuple(s.name for s in SPECS if s.latency)
PEER = "libgpiod-2.3"
PRIORITY_ROWS = (("uio", "uio-ticker", "read", "notify_to_wake"),
                 ("uio", "uio-ticker", "read", "expiry_to_wake"),
                 ("uio", "edu", "read", "write_to_wake"),
                 ("irq", "cdev", "read", "write_to_wake"),
                 ("irq", "cdev", "poll", "write_to_wake"),
                 ("irq", "cdev", "epoll", "write_to_wake"))


@dataclass
class Column:
    name: str
    width: int = 0
    align: str = "<"  # "<" text, ">" numbers
    sep: str = ""  # printed before the column


@dataclass
class TextTable:
    title: list[str]
    columns: list[Column]
    rows: list[list[str]] = field(default_factory=list)  # a row may stop early
    footer: list[str] = field(default_factory=list)
    preformatted: bool = False  # footer is a program's own table (udrv-pybench)


def times(value: float | None, digits: int = 3, sign: str = "x") -> str:
    """"x1.015"; "" without a value."""
    return "" if value is None else f"{sign}{value:.{digits}f}"


def ratio_label(row: Row, sign: str = "x") -> str:
    """"x1.015 vs raw": the row's average over its reference row's, measured in
    the same run ("vs uio-intx/udrv" when the reference is another mechanism)."""
    ref = row.reference
    if not ref or ref.get("ratio_avg") is None:
        return ""
    other = f"{ref['mechanism']}/" if ref["mechanism"] != row.mechanism else ""
    return f"{times(ref['ratio_avg'], 3, sign)} vs {other}{ref['implementation']}"


def render(t: TextTable) -> list[str]:
    """The table for a terminal: fixed columns."""
    lines = [*t.title, "".join(f"{c.sep}{c.name:{c.align}{c.width}}" for c in t.columns)]
    for row in t.rows:
        lines.append("".join(f"{c.sep}{cell:{c.align}{c.width}}"
                             for c, cell in zip(t.columns, row, strict=False)))
    return lines + t.footer


def _md(text: str) -> str:
    return text.replace("|", "\\|").strip() or " "


def markdown(t: TextTable) -> list[str]:
    """The table as GitHub Markdown: its title a heading, then the table."""
    lines = [f"#### {t.title[0]}", ""]
    if t.title[1:]:
        lines += [" ".join(s.strip() for s in t.title[1:]), ""]
    if t.columns:
        lines.append("| " + " | ".join(_md(c.name) for c in t.columns) + " |")
        lines.append("|" + "|".join("---:" if c.align == ">" else "---" for c in t.columns)
                     + "|")
        for row in t.rows:
            cells = [_md(c) for c in row] + [" "] * (len(t.columns) - len(row))
            lines.append("| " + " | ".join(cells) + " |")
    if t.footer:
        lines.append("")
        if t.preformatted:
            lines += ["```", *t.footer, "```"]
        else:
            lines += [f"{s.strip()}  " for s in t.footer]
    return lines


# ---- the tables ----

def load_name(load: str) -> str:
    return "idle" if load == "none" else load


def plain_runs(runs: list[Run], board: str) -> list[Run]:
    return [r for r in runs if r.board_name == board and not r.variant]


def bench_rows(runs: list[Run], bench: str) -> dict[tuple[str, str], dict[tuple[Any, ...], Row]]:
    """(kernel, load) -> {(mechanism, implementation, wait, sample): row} of one bench."""
    out: dict[tuple[str, str], dict[tuple[Any, ...], Row]] = {}
    for run in runs:
        table = out.setdefault((run.kernel, run.load), {})
        for doc in run.docs:
            if doc.bench == bench:
                for row in doc.rows:
                    table[row.key[1:]] = row
    return out


def _us3(row: Row | None, fields: tuple[str, str, str]) -> str:
    """"2.0/2.5/3.0": three statistics of a row in us; "-" without it."""
    if row is None:
        return "-"
    return "/".join(f"{getattr(row.stats, f) / 1000:.1f}" for f in fields)


def p50_p99_max(row: Row | None) -> str:
    return _us3(row, ("p50", "p99", "max"))


def _p50_label(row: Row) -> str:
    """"x1.015 vs raw" of the p50s; "" without a reference."""
    ref = row.reference
    if not ref or ref.get("ratio_p50") is None:
        return ""
    return f"{times(ref['ratio_p50'])} vs {ref['implementation']}"


def pair_table(runs: list[Run], board: str, bench: str, title: list[str]) -> TextTable:
    """A bench whose rows are one operation through several implementations
    measured in turns (rig/bench/core/pair.h: i2c, spi): mechanism x
    implementation, and per kernel (idle) the p50 and mean ns per operation
    and the p50's ratio to the reference row's of the same run (the p50: a
    preemption in one batch moves a mean, not the median batch)."""
    by_run = bench_rows(plain_runs(runs, board), bench)
    kernels = [k for k in KERNELS if (k, "none") in by_run]
    keys: list[tuple[Any, ...]] = []
    for k in kernels:
        keys += [key for key in by_run[(k, "none")] if key not in keys]
    cols = [Column("mechanism", 11), Column("implementation", 15)]
    for k in kernels:
        cols += [Column(f"{k} p50 ns", 12, ">"), Column("avg ns", 10, ">"),
                 Column("p50 vs reference", 18, "<", "  ")]
    t = TextTable(title, cols)
    for key in keys:
        line = [key[0], key[1]]
        for k in kernels:
            row = by_run[(k, "none")].get(key)
            line += (["-", "-", ""] if row is None else
                     [f"{row.stats.p50}", f"{row.stats.avg:.0f}", _p50_label(row)])
        t.rows.append(line)
    return t


def latency_table(runs: list[Run], board: str = "x86") -> TextTable:
    runs = plain_runs(runs, board)
    cols = [(k, ld) for k in KERNELS for ld in LOADS
            if any(r.kernel == k and r.load == ld for r in runs)]
    t = TextTable(["Latency min/avg/max in us per mechanism x kernel x load "
                   "(udrv-bench irq, uio, timer, kernel)"],
                  [Column("bench", 7), Column("mechanism/impl/wait", 32), Column("sample", 16)]
                  + [Column(f"{k} {load_name(ld)}", 22, ">") for k, ld in cols])
    for bench in LATENCY_BENCHES:
        by_run = bench_rows(runs, bench)
        keys: list[tuple[Any, ...]] = []
        for col in cols:
            keys += [key for key in by_run.get(col, {}) if key not in keys]
        for key in keys:
            label = "/".join(p for p in key[:3] if p)
            t.rows.append([bench, label, key[3]]
                          + [_us3(by_run.get(col, {}).get(key), ("min", "avg", "max"))
                             for col in cols])
    return t


def priority_table(runs: list[Run], board: str = "x86") -> TextTable:
    """rt idle: the application above its irq thread, below it, SCHED_OTHER."""
    mine = [r for r in runs if r.board_name == board and r.kernel == "rt"]
    cols = {"above (FIFO 80 > 50)": next((r for r in mine if r.load == "none"
                                          and not r.variant), None)}
    cols |= {f"below ({v})" if v != "SCHED_OTHER" else v:
             next((r for r in mine if r.variant == v), None) for v in PRIORITY_VARIANTS}
    t = TextTable(["Priority axis on PREEMPT_RT, idle: p50/p99/max in us, the application "
                   "above its irq thread, below it, at SCHED_OTHER (udrv-bench irq, uio)"],
                  [Column("bench", 7), Column("mechanism/wait", 22), Column("sample", 16)]
                  + [Column(c, 24, ">") for c in cols])
    for bench, mech, wait, sample in PRIORITY_ROWS:
        cells = []
        for run in cols.values():
            by = bench_rows([run], bench).get((run.kernel, run.load), {}) if run else {}
            cells.append(p50_p99_max(by.get((mech, "udrv", wait, sample))))
        t.rows.append([bench, f"{mech}/{wait}", sample, *cells])
    return t


def python_table(results: list[dict[str, Any]]) -> TextTable:
    """udrv-pybench's own table per kernel (rows udrv, gpiod, udrv/gpiod)."""
    t = TextTable(["Python: udrv vs gpiod 2.5 on the same gpio-wire line, same run "
                   "(udrv-pybench; toggle: ns per set_value call, median of interleaved rounds;",
                   "events: receipt CLOCK_MONOTONIC - kernel timestamp; lost = sequence gaps + "
                   "the wire's drops; unacc = made at the source - received - lost)"], [],
                  preformatted=True)
    for res in results:
        if "failure" in res:
            t.footer.append(f"{res['lab_kernel']}: failed: {res['failure']}")
        if "table" not in res:
            continue
        t.footer += res["table"].splitlines()
        if res.get("result", {}).get("note"):
            t.footer.append(f"note: {res['result']['note']}")
    return t


def python_buses_table(results: list[dict[str, Any]]) -> TextTable:
    """udrv-pybench --buses per kernel: each call's udrv row against each
    peer's, ns per call (median of interleaved rounds), udrv / peer."""
    t = TextTable(["Python: udrv.I2C and udrv.SPI vs Debian's python3-smbus, python3-spidev (C), "
                   "python3-smbus2, python3-periphery (pure Python), same run",
                   "(udrv-pybench --buses; ns per call, median of interleaved rounds; udrv/peer "
                   "below 1: udrv faster; every answer checked against a reference)"],
                  [Column("kernel", 7), Column("bus", 4), Column("call", 13),
                   Column("udrv ns", 9, ">"), Column("peer", 11, ">", " "),
                   Column("peer ns", 9, ">"), Column("udrv/peer", 10, ">", " "),
                   Column("(min)", 8, ">", " ")])  # fmt: skip
    for res in results:
        doc = res.get("result") or {}
        b = doc.get("buses")
        if not b:
            continue
        kernel = res.get("lab_kernel", doc.get("kernel", ""))
        buses = bus_model(b)
        t.footer.append(f"{kernel}: " + ", ".join(f"{p.kind} on {p.where}"
                                                  for p in buses.parts.values()))
        for part in ("i2c", "spi"):
            for call, c in b[part]["calls"].items():
                u = c["rows"].get("udrv")
                for lib, r in c["rows"].items():
                    if lib == "udrv":
                        continue
                    q = c.get("ratio", {}).get(lib, {})
                    t.rows.append([kernel, part, call,
                                   f"{u['median_ns']:.0f}" if u else "", lib,
                                   f"{r['median_ns']:.0f}", times(q.get("median")),
                                   times(q.get("min"))])  # fmt: skip
            for lib, why in {**b[part]["unsupported"], **b[part]["unavailable"]}.items():
                t.footer.append(f"{kernel} {part} {lib}: no row: {why}")
        for m in buses.mcp3008:
            t.footer.append(f"{kernel}: gpiozero {m.gpiozero} MCP3008(channel={m.channel})"
                            f".value through udrv's factory: {m.reads_per_s:.0f} reads/s "
                            f"({m.row.median_ns / 1e3:.1f} us a read, median)")
    return t


def _benches(runs: list[Run]) -> set[str]:
    return {d.bench for r in runs for d in r.docs}


def _latency_benches(runs: list[Run]) -> bool:
    return bool(_benches(runs) & set(LATENCY_BENCHES))


def _priority_runs(runs: list[Run]) -> bool:
    return any(r.variant in PRIORITY_VARIANTS and {"irq", "uio"} & _benches([r]) for r in runs)


# the tables the benches share, by rank among the benches' own (their specs',
# rig/bench/<bench>/spec.py: toggle 10, reply 30, gaps 50, rate 60, pci 70,
# broker 80); udrv-pybench's table comes last
SHARED = (TextTableSpec("latency", latency_table, 20, _latency_benches),
          TextTableSpec("priority", priority_table, 40, _priority_runs))
# (its bench or None, the table), in rank order
ALL_TABLES: tuple[tuple[str | None, TextTableSpec], ...] = tuple(sorted(
    [*((None, x) for x in SHARED), *((s.name, x) for s in SPECS for x in s.tables)],
    key=lambda bt: bt[1].rank))
# the tables by name (python3 -m rig.results markdown --table NAME)
TABLES = (*(x.name for _, x in ALL_TABLES), "python", "python-buses")


def _wanted(bench: str | None, table: TextTableSpec, runs: list[Run]) -> bool:
    """Does the board of @runs have @table: its own rule, or a document of its bench."""
    return table.wanted(runs) if table.wanted else bench in _benches(runs)


def tables(results: Results, boards: list[str] | None = None,
           kinds: list[str] | None = None) -> list[TextTable]:
    """Every table a results document has (or those of `kinds`, names of
    TABLES), board by board (the x86 boards, then q35, then rpi3), then
    udrv-pybench's."""
    runs = results.runs
    order = {"q35": 1, "rpi3": 2}
    names = boards or sorted(dict.fromkeys(r.board_name for r in runs),
                             key=lambda b: order.get(b, 0))
    out = []
    for board in names:
        mine = [r for r in runs if r.board_name == board]
        out += [table.make(runs, board) for bench, table in ALL_TABLES
                if (kinds is None or table.name in kinds) and _wanted(bench, table, mine)]
    if results.python and (kinds is None or "python" in kinds):
        out.append(python_table(results.python))
    if any("buses" in (p.get("result") or {}) for p in results.python) and \
            (kinds is None or "python-buses" in kinds):
        out.append(python_buses_table(results.python))
    return out


def print_tables(results: Results, boards: list[str] | None = None) -> None:
    for t in tables(results, boards):
        print()
        print("\n".join(render(t)))
