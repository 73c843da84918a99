# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench toggle's text tables (what `make lab` prints): the toggle rate
per mechanism and implementation with libgpiod 2.3 beside udrv, and the
brokers' rows (the BROKER_VARIANT runs: udrvd, gpio-manager, gpiocli)."""

from __future__ import annotations

from typing import Any

from rig.results.model import Row, Run
from rig.results.text import (
    KERNELS,
    PEER,
    Column,
    TextTable,
    bench_rows,
    plain_runs,
    ratio_label,
    times,
)

from .spec import BROKER_MECHANISMS, BROKER_VARIANT

TOGGLE_TITLES = {
    "x86": "Toggle rate of one GPIO line (udrv-bench toggle, idle)",
    "rpi3": "Toggle rate of GPIO 17 on the rpi3 board (raspi3b, pinctrl-bcm2835; "
            "udrv-bench toggle, idle)",
}


def toggle_table(runs: list[Run], board: str = "x86") -> TextTable:
    by_run = bench_rows(plain_runs(runs, board), "toggle")
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


def broker_table(runs: list[Run], board: str = "x86") -> TextTable:
    """The brokers' rows of udrv-bench toggle (BROKER_VARIANT runs): a line
    held by udrvd or gpio-manager, driven through the fd udrvd hands over,
    one D-Bus call or one gpiocli process per toggle; each against its
    reference of the same run."""
    mine = [r for r in runs if r.board_name == board and r.variant == BROKER_VARIANT]
    by_run = bench_rows(mine, "toggle")
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


