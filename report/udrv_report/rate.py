# SPDX-License-Identifier: GPL-2.0-only
"""The interrupt rate capacity (udrv bench rate; lab/suite.py's run_rate): a
source that counts what it raises swept over offered rates, per mechanism and
receiver.

Two figures: the rate received against the rate offered (log-log; the
diagonal is "everything taken"), and the share lost at the source against
the rate offered; and the capacity table as the suite prints it.
"""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt

from .model import Doc, Run
from .plots import PALETTE, _png
from .tables import Cell, Table, num


def documents(runs: list[Run]) -> list[tuple[Run, Doc]]:
    """Every rate document with its run, in the order of the runs."""
    return [(r, d) for r in runs for d in r.docs if d.bench == "rate" and d.rate]


def _curves(doc: Doc) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Steps per (mechanism, implementation), in the order measured."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for s in (doc.rate or {})["steps"]:
        out.setdefault((s["mechanism"], s["implementation"]), []).append(s)
    return out


def _figure(found: list[tuple[Run, Doc]], loss: bool) -> bytes | None:
    if not found:
        return None
    fig, ax = plt.subplots(figsize=(8.5, 4.4))
    colors: dict[tuple[str, str], str] = {}
    markers: dict[str, str] = {}
    top, bottom = 0.0, float("inf")
    for run, doc in found:
        marker = markers.setdefault(run.label, "o^sDvP*X"[len(markers) % 8])
        for key, steps in _curves(doc).items():
            color = colors.setdefault(key, PALETTE[len(colors) % len(PALETTE)])
            xs = [s["offered_per_s"] for s in steps]
            if loss:
                ys = [100.0 * s["lost"] / s["source_count"] if s["source_count"] else 0.0
                      for s in steps]
            else:
                ys = [s["received_per_s"] for s in steps]
            top = max([top, *xs])
            bottom = min([bottom, *xs])
            ax.plot(xs, ys, color=color, marker=marker, markersize=4, linewidth=1,
                    label=f"{run.label}: {key[0]}/{key[1]}")
    ax.set_xscale("log")
    ax.set_xlabel("offered (events/s: the source's own count / the step)")
    if loss:
        ax.set_ylabel("lost at the source (%)")
        ax.set_ylim(-2, 102)
        ax.set_title("Loss: source count - received, per offered rate", fontsize=9)
    else:
        ax.set_yscale("log")
        ax.plot([bottom, top], [bottom, top], color="grey", linestyle=":", linewidth=1)
        ax.set_ylabel("received (events/s)")
        ax.set_title("Received vs offered (dotted: everything received)", fontsize=9)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=6, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    return _png(fig)


def received(found: list[tuple[Run, Doc]]) -> bytes | None:
    return _figure(found, loss=False)


def lost(found: list[tuple[Run, Doc]]) -> bytes | None:
    return _figure(found, loss=True)


def _fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def table(found: list[tuple[Run, Doc]]) -> Table:
    t = Table("table-rate", "Interrupt rate capacity: udrv bench rate",
              [[(h, 1) for h in ("run", "mechanism", "implementation", "knee (/s)",
                                 "CPU % at the knee", "max received (/s)", "CPU ns/event",
                                 "vs raw")]])
    for run, doc in found:
        for c in (doc.rate or {})["capacity"]:
            if not c["measured"]:
                t.rows.append([Cell(run.label), Cell(c["mechanism"]),
                               Cell(c["implementation"]), Cell(c["note"] or "absent", "muted"),
                               Cell(""), Cell(""), Cell(""), Cell("")])
                continue
            ratio = c["ratio_vs_raw"]
            t.rows.append([Cell(run.label), Cell(c["mechanism"]), Cell(c["implementation"]),
                           num(_fmt(c["knee_per_s"], ".0f")),
                           num(_fmt(c["cpu_pct_at_knee"], ".1f")),
                           num(_fmt(c["throughput_per_s"], ".0f")),
                           num(_fmt(c["ns_per_event"], ".0f")),
                           num("-" if ratio is None else f"x{ratio:.2f}")])
    t.note = ("Knee: the highest offered rate with nothing lost, counted at the source "
              "(gpio-wire's gen_edges, uio-ticker's ticks), and received per second at "
              "least 95% of offered. Max received: the most events "
              "per second the receiver took in one step; CPU ns/event there, against the "
              "bare read() of the same mechanism.")
    return t
