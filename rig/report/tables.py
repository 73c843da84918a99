# SPDX-License-Identifier: GPL-2.0-only
"""The tables of a report: what the suite prints (rig/lab/suite/qemu.py), the metadata, the counts.

Tables are data (Table); html.py renders them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rig.results.measures import is_toggle
from rig.results.text import ratio_label

from .fmt import us1
from .model import Row, RowKey, Run, ordered_keys


@dataclass
class Cell:
    text: str
    cls: str = ""  # CSS class: "num", "worse", "better", "muted"
    title: str = ""  # tooltip


@dataclass
class Table:
    id: str
    caption: str
    head: list[list[tuple[str, int]]]  # header rows of (text, colspan)
    rows: list[list[Cell]] = field(default_factory=list)
    note: str = ""


def num(text: str, cls: str = "num", title: str = "") -> Cell:
    return Cell(text, cls, title)


def ratio_text(row: Row) -> str:
    """"\u00d71.015 vs raw": the suite's label (rig.results.text), with a times sign."""
    return ratio_label(row, "\u00d7")


def toggle_tables(runs: list[Run]) -> list[Table]:
    """Toggle rate per mechanism x implementation: a table per board x load (as the suite
    prints one per board), a column group per kernel."""
    runs = [r for r in runs if any(is_toggle(x) for x in r.rows)]
    boards = list(dict.fromkeys(r.board_name for r in runs))
    tables = []
    for board in boards:
        for load in dict.fromkeys(r.load for r in runs if r.board_name == board):
            cols = [r for r in runs if r.board_name == board and r.load == load]
            name = "idle" if load == "none" else f"under load '{load}'"
            where = f", {board}" if len(boards) > 1 else ""
            tid = slug("table-toggle", board if len(boards) > 1 else None, load)
            tables.append(_toggle_table(tid, f"Toggle rate of one GPIO line (udrv-bench "
                                             f"toggle, {name}{where})", cols))
    return tables


def _toggle_table(tid: str, caption: str, cols: list[Run]) -> Table:
    t = Table(tid, caption,
              [[("mechanism", 1), ("implementation", 1)] + [(_col_name(r), 3) for r in cols],
               [("", 1), ("", 1)]
               + [(h, 1) for _ in cols for h in ("ns/toggle", "toggles/s", "vs reference")]])
    keys = dict.fromkeys(x.key[1:3] for r in cols for x in r.rows if is_toggle(x))
    for key in keys:
        line = [Cell(key[0]), Cell(key[1])]
        for r in cols:
            row = next((x for x in r.rows if is_toggle(x) and x.key[1:3] == key), None)
            if row is None:
                line += [num("-"), num("-"), Cell("")]
                continue
            line += [num(f"{row.stats.avg:.1f}"), num(f"{row.rate_per_s or 0:.0f}"),
                     Cell(ratio_text(row))]
        t.rows.append(line)
    t.note = ("ns/toggle: average time per output change; toggles/s over the whole run; "
              "vs reference: this row's average time / the reference row's, measured in "
              "the same run (1.01 = 1% slower).")
    return t


def _col_name(run: Run) -> str:
    """The run's label without its load (the table is per load) and board (per board)."""
    name = run.label
    suffix = f" {run.load_name}"
    name = name.removesuffix(suffix) if name != suffix.strip() else name
    return name.removeprefix(f"{run.board_name} ") or name


def latency_table(runs: list[Run]) -> Table | None:
    """min/avg/max in us per row x run, as the suite prints it."""
    keys = ordered_keys(runs, rate=False)
    if not keys:
        return None
    runs = [r for r in runs if any(not x.is_rate for x in r.rows)]
    t = Table("table-latency",
              "Latency min/avg/max in \u00b5s per mechanism \u00d7 kernel \u00d7 load",
              [[("bench", 1), ("mechanism/impl/wait", 1), ("sample", 1)]
               + [(r.label, 1) for r in runs]])
    for key in keys:
        bench, mech, impl, wait, sample = key
        line = [Cell(bench), Cell("/".join(p for p in (mech, impl, wait) if p)), Cell(sample)]
        for r in runs:
            row = r.row(key)
            if row is None or not row.stats.count:
                line.append(num("-"))
                continue
            s = row.stats
            line.append(num(f"{us1(s.min)}/{us1(s.avg)}/{us1(s.max)}",
                            title=f"p50 {us1(s.p50)}, p99 {us1(s.p99)}, "
                                  f"p99.9 {us1(s.p99_9)}, n={s.count}"))
        t.rows.append(line)
    t.note = "Each cell: minimum / average / maximum in microseconds (hover for percentiles)."
    return t


def runs_table(runs: list[Run]) -> Table:
    t = Table("table-runs", "Runs: kernel, board and load of each",
              [[(h, 1) for h in ("run", "file", "board", "kernel (uname -r)", "uname -v",
                                 "preemption model", "load", "benches", "failed",
                                 "not in this udrv")]])
    for r in runs:
        k = r.docs[0].kernel if r.docs else {}
        board = r.board if r.board in (r.lab_board, "?") or not r.lab_board else \
            f"{r.lab_board}: {r.board}"
        t.rows.append([Cell(r.label), Cell(r.source), Cell(board), Cell(r.release),
                       Cell(str(k.get("version", ""))), Cell(_preempt(k)), Cell(r.load),
                       Cell(", ".join(d.bench for d in r.docs)),
                       Cell("; ".join(r.failures), "worse" if r.failures else ""),
                       Cell(", ".join(r.unavailable))])
    return t


def _preempt(kernel: dict[str, object]) -> str:
    model = str(kernel.get("preempt_model", "?"))
    return f"{model} (real-time)" if kernel.get("realtime") else model


def documents_table(runs: list[Run]) -> Table:
    t = Table("table-documents",
              "Bench documents: the real-time settings in force (read back from the kernel), "
              "samples and losses",
              [[(h, 1) for h in ("run", "bench", "udrv version", "policy", "priority",
                                 "memory locked", "CPU", "cpu_dma_latency (\u00b5s)", "rows",
                                 "samples", "events sent", "lost")]])
    for r in runs:
        for d in r.docs:
            sent = sum(x.loss["sent"] for x in d.rows if x.loss)
            lost = sum(x.loss["lost"] for x in d.rows if x.loss)
            t.rows.append([Cell(r.label), Cell(d.bench), Cell(d.tool_version),
                           Cell(str(d.rt.get("policy", "?"))), num(_opt(d.rt.get("priority"))),
                           Cell(_opt(d.rt.get("memory_locked"))), num(_opt(d.rt.get("cpu"))),
                           num(_opt(d.rt.get("dma_latency_us"))), num(str(len(d.rows))),
                           num(str(sum(x.stats.count for x in d.rows))), num(str(sent)),
                           num(str(lost), "worse" if lost else "num")])
    t.note = ("CPU: the CPU the bench was pinned to (none: not pinned). cpu_dma_latency: "
              "the value held open during the run (none: not set).")
    return t


def _opt(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def samples_table(runs: list[Run]) -> Table:
    """Every row of every run: counts, percentiles, losses and the bench's note."""
    t = Table("table-samples", "Every row: sample counts, percentiles (\u00b5s), lost events",
              [[(h, 1) for h in ("run", "bench", "mechanism/impl/wait", "sample", "samples",
                                 "min", "p50", "p99", "p99.9", "max", "beyond histogram",
                                 "sent", "received", "lost", "note")]])
    for r in runs:
        for x in r.rows:
            s = x.stats
            loss = x.loss or {}
            t.rows.append([Cell(r.label), Cell(x.bench), Cell(x.label), Cell(x.sample),
                           num(str(s.count)),
                           *(num(us1(v)) for v in (s.min, s.p50, s.p99, s.p99_9, s.max)),
                           num(str(s.overflow)),
                           *(num(str(loss.get(k, "-"))) for k in ("sent", "received")),
                           num(str(loss.get("lost", "-")), "worse" if loss.get("lost") else "num"),
                           Cell(x.note or "", "small")])
    return t


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "_." else "-" for c in text).strip("-") or "x"


def slug(*parts: object) -> str:
    return "-".join(_slug(str(p)) for p in parts if p is not None)


def key_slug(key: RowKey) -> str:
    return slug(*key)
