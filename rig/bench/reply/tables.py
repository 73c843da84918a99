# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench reply's text table (what `make lab` prints): trigger -> reply per
responder, kernel and load, and the priority axis's rt runs."""

from __future__ import annotations

from rig.results.model import Run
from rig.results.text import (
    KERNELS,
    LOADS,
    PRIORITY_VARIANTS,
    Column,
    TextTable,
    bench_rows,
    load_name,
    p50_p99_max,
)

from .spec import REPLY_ROWS


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
                  [Column("responder", 12), Column("wait", 9)]
                  + [Column(c, 22, ">") for c, _ in cols])
    tables = [next(iter(bench_rows(sel, "reply").values()), {}) for _, sel in cols]
    for impl, wait in REPLY_ROWS:
        key = ("gpio", impl, wait, "trigger_to_reply")
        if any(key in x for x in tables):  # lib's rows: documents since 12-2026
            t.rows.append([impl, wait or "-", *(p50_p99_max(x.get(key)) for x in tables)])
    return t


