# SPDX-License-Identifier: GPL-2.0-only
"""The tables of a lab run, for a terminal (what `make lab` prints) or as
Markdown (docs): toggle rate per mechanism, latency min/avg/max per
mechanism x kernel x load, the responders, the priority axis, the scheduler
gaps, the interrupt rate capacity, UIO vs VFIO, and udrv-pybench's own table.

Tables are data (TextTable: title, columns, rows, footer); render() and
markdown() draw them. ratio_label() is the one "x1.015 vs raw".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rig.bench.specs import SPECS

from .model import Results, Row, Run

# the variants of a lab run (udrv-lab/1 "variant"): the priority axis on rt,
# idle (the plain run: the application above its irq thread), the gaps bench
# with RT throttling off; the rate sweep also runs in the first priority variant
PRIORITY_VARIANTS = ("irq-prio 90", "SCHED_OTHER")
GAPS_VARIANT = "rt-runtime -1"
# udrv-bench toggle with the broker rows (--udrvd, --gpio-manager, --gpiocli)
# on the board of the Python image, where udrvd and gpio-manager run
BROKER_VARIANT = "udrvd"
BROKER_MECHANISMS = ("cdev", "dbus", "gpiocli")
RATE_PRIORITY = PRIORITY_VARIANTS[0]
KERNELS = ("std", "rt")
LOADS = ("none", "all")
LATENCY_BENCHES = ("irq", "uio", "timer", "kernel")
PEER = "libgpiod-2.3"
PRIORITY_ROWS = (("uio", "uio-ticker", "read", "notify_to_wake"),
                 ("uio", "uio-ticker", "read", "expiry_to_wake"),
                 ("uio", "edu", "read", "write_to_wake"),
                 ("irq", "cdev", "read", "write_to_wake"),
                 ("irq", "cdev", "poll", "write_to_wake"),
                 ("irq", "cdev", "epoll", "write_to_wake"))
# udrv-bench reply's responders, in the order of Grandegger's gpioirqbench table
REPLY_ROWS = (("isr", None), ("kthread", None), ("user", "read"), ("user", "poll"),
              ("user", "epoll"), ("user", "busy"), ("lib", "read"), ("lib", "busy"),
              ("lib", "irq"))
TOGGLE_TITLES = {
    "x86": "Toggle rate of one GPIO line (udrv-bench toggle, idle)",
    "rpi3": "Toggle rate of GPIO 17 on the rpi3 board (raspi3b, pinctrl-bcm2835; "
            "udrv-bench toggle, idle)",
}


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


def _plain(runs: list[Run], board: str) -> list[Run]:
    return [r for r in runs if r.board_name == board and not r.variant]


def _rows(runs: list[Run], bench: str) -> dict[tuple[str, str], dict[tuple[Any, ...], Row]]:
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


def toggle_table(runs: list[Run], board: str = "x86") -> TextTable:
    by_run = _rows(_plain(runs, board), "toggle")
    kernels = [k for k in KERNELS if (k, "none") in by_run]
    keys: list[tuple[Any, ...]] = []
    for k in kernels:
        keys += [key for key in by_run[(k, "none")] if key not in keys]
    cols = [Column("mechanism", 13), Column("implementation", 15)]
    for k in kernels:
        cols += [Column(f"{k} ns/toggle", 16, ">"), Column("toggles/s", 12, ">"),
                 Column("vs reference", 20, "<", "  ")]
    t = TextTable([TOGGLE_TITLES.get(board, f"Toggle rate on the {board} board")], cols)
    for key in keys:
        line = [key[0], key[1]]
        for k in kernels:
            row = by_run[(k, "none")].get(key)
            if row is None:
                line += ["-", "-", ""]
            else:
                line += [f"{row.stats.avg:.1f}", f"{row.rate_per_s or 0:.0f}", ratio_label(row)]
        t.rows.append(line)
    t.footer = _toggle_footer(by_run, kernels)
    return t


def _toggle_footer(by_run: dict[tuple[str, str], dict[tuple[Any, ...], Row]],
                   kernels: list[str]) -> list[str]:
    """udrv against the peer library (its rows come from the same run of the
    same line), and where the generic mmio call stands against the pin."""
    lines = []
    for mech in ("sysfs", "cdev", "mmio"):
        ratios = []
        for k in kernels:
            rows = by_run[(k, "none")]
            udrv = rows.get((mech, "udrv", None, "toggle"))
            peer = rows.get((mech, PEER, None, "toggle"))
            if udrv and peer and peer.stats.avg:
                ratios.append(f"{times(udrv.stats.avg / peer.stats.avg)} {k}")
        if ratios:
            lines.append(f"{mech} udrv vs {PEER} (same line, same run): {', '.join(ratios)}")
    if any(("mmio", "udrv-pin", None, "toggle") in by_run[(k, "none")] for k in kernels):
        lines.append("mmio udrv: udrv_request_set_value(), a call that checks the index and picks "
                     "set or clear before its one store;")
        lines.append("  the store alone: udrv_mmio_pin_write() (udrv-pin; docs/api.md, "
                     "'What udrv_request_set_value() costs over the store')")
    return lines


def latency_table(runs: list[Run], board: str = "x86") -> TextTable:
    runs = _plain(runs, board)
    cols = [(k, ld) for k in KERNELS for ld in LOADS
            if any(r.kernel == k and r.load == ld for r in runs)]
    t = TextTable(["Latency min/avg/max in us per mechanism x kernel x load "
                   "(udrv-bench irq, uio, timer, kernel)"],
                  [Column("bench", 7), Column("mechanism/impl/wait", 32), Column("sample", 16)]
                  + [Column(f"{k} {load_name(ld)}", 22, ">") for k, ld in cols])
    for bench in LATENCY_BENCHES:
        by_run = _rows(runs, bench)
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
            by = _rows([run], bench).get((run.kernel, run.load), {}) if run else {}
            cells.append(p50_p99_max(by.get((mech, "udrv", wait, sample))))
        t.rows.append([bench, f"{mech}/{wait}", sample, *cells])
    return t


def reply_table(runs: list[Run], board: str = "x86") -> TextTable:
    """Trigger -> reply p50/p99/max in us per responder x kernel x load, then
    the priority axis's rt runs when the suite made them."""
    runs = [r for r in runs if r.board_name == board]
    cols: list[tuple[str, list[Run]]] = []
    for k in KERNELS:
        for ld in LOADS:
            sel = [r for r in runs if r.kernel == k and r.load == ld and not r.variant]
            if sel:
                cols.append((f"{k} {load_name(ld)}", sel))
    for v in PRIORITY_VARIANTS:
        sel = [r for r in runs if r.kernel == "rt" and r.variant == v]
        if sel:
            cols.append((f"rt {v}", sel))
    t = TextTable(["Responders: trigger -> reply p50/p99/max in us as the log host sees it "
                   "(udrv-bench reply; gpio-reply isr/kthread, a udrv process: its own loop "
                   "(user) or libudrv's responder (lib))"],
                  [Column("responder", 12), Column("wait", 8)]
                  + [Column(c, 22, ">") for c, _ in cols])
    tables = [next(iter(_rows(sel, "reply").values()), {}) for _, sel in cols]
    for impl, wait in REPLY_ROWS:
        key = ("gpio", impl, wait, "trigger_to_reply")
        if any(key in x for x in tables):  # lib's rows: documents since 12-2026
            t.rows.append([impl, wait or "-", *(p50_p99_max(x.get(key)) for x in tables)])
    return t


def broker_table(runs: list[Run], board: str = "x86") -> TextTable:
    """The brokers' rows of udrv-bench toggle (BROKER_VARIANT runs): a line
    held by udrvd or gpio-manager, driven through the fd udrvd hands over,
    one D-Bus call or one gpiocli process per toggle; each against its
    reference of the same run."""
    mine = [r for r in runs if r.board_name == board and r.variant == BROKER_VARIANT]
    by_run = _rows(mine, "toggle")
    kernels = [k for k in KERNELS if (k, "none") in by_run]
    keys: list[tuple[Any, ...]] = []
    for k in kernels:
        keys += [key for key in by_run[(k, "none")]
                 if key[0] in BROKER_MECHANISMS and key not in keys
                 and (key[0] != "cdev" or key[1] in ("raw", "udrvd-fd"))]  # fmt: skip
    cols = [Column("mechanism", 10), Column("implementation", 15)]
    for k in kernels:
        cols += [Column(f"{k} ns/toggle", 16, ">"), Column("vs reference", 24, "<", "  ")]
    t = TextTable([f"Brokers on the {board} board: a line held by udrvd or libgpiod's "
                   "gpio-manager, same line, same run (udrv-bench toggle --udrvd "
                   "--gpio-manager --gpiocli)"], cols)  # fmt: skip
    for key in keys:
        line = [key[0], key[1]]
        for k in kernels:
            row = by_run[(k, "none")].get(key)
            line += ["-", ""] if row is None else [f"{row.stats.avg:.1f}", ratio_label(row)]
        t.rows.append(line)
    t.footer = ["cdev/udrvd-fd: the request's fd that udrvd hands over (io.udrv1.Request."
                "GetFd), cdev/raw's ioctl loop on it;",
                "dbus: one io.gpiod1.Request.SetValues call per toggle; gpiocli: one "
                "`gpiocli set` process per toggle (libgpiod 2.2.1's)"]  # fmt: skip
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


def _benches(runs: list[Run]) -> set[str]:
    return {d.bench for r in runs for d in r.docs}


# the tables by name (python3 -m rig.results markdown --table NAME): the
# shared ones, then the benches' own (their specs', rig/bench/<bench>/spec.py)
SPEC_TABLES = tuple((s.name, s.table) for s in SPECS if s.table)
TABLES = ("toggle", "latency", "reply", "priority", *(t.name for _, t in SPEC_TABLES),
          "broker", "python")


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
        has = _benches(mine)
        makers: list[tuple[str, bool, Callable[[list[Run], str], TextTable]]] = [
            ("toggle", "toggle" in _benches([r for r in mine if not r.variant]), toggle_table),
            ("latency", bool(has & set(LATENCY_BENCHES)), latency_table),
            ("reply", "reply" in has, reply_table),
            ("priority", any(r.variant in PRIORITY_VARIANTS and {"irq", "uio"} & _benches([r])
                             for r in mine), priority_table),
            *((t.name, bench in has, t.make) for bench, t in SPEC_TABLES),
            ("broker", any(r.variant == BROKER_VARIANT for r in mine), broker_table)]
        out += [make(runs, board) for name, wanted, make in makers
                if wanted and (kinds is None or name in kinds)]
    if results.python and (kinds is None or "python" in kinds):
        out.append(python_table(results.python))
    return out


def print_tables(results: Results, boards: list[str] | None = None) -> None:
    for t in tables(results, boards):
        print()
        print("\n".join(render(t)))
