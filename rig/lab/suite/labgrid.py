# SPDX-License-Identifier: GPL-2.0-only
"""The suite on any labgrid target: `python3 -m rig.lab suite --lg-env board.yaml`.

The target's place is reserved and locked through its coordinator when it is a
RemotePlace (rig/lab/boards/lg_place.py: a place someone else holds is waited for, never
taken), the board is driven through LabgridBoard (rig/lab/boards/labgrid_board.py), and
the benches its features and wiring allow run idle and under the `all` load,
as `make lab` runs them on the QEMU boards: both ask the one plan
(rig/lab/suite/plan.py: what each bench needs, its arguments, same sample counts,
same commands; same udrv-lab/1 document and tables; each run's board is the
board's udrv-target).

The target options `udrv-wire: "CHIP OUT IN"` (the board's loopback jumper) and
`udrv-reply-wire: "CHIP A B C D"` (udrv-bench reply's two jumpers) are its
wiring (rig/lab/boards/envs/*.yaml).  The skipped benches and why go to stderr and into the
document's `labgrid` object (docs/rig/results.md).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from typing import Any

from ..boards.api import LabBoard
from ..boards.labgrid_board import LabgridBoard, load_environment, target_features
from ..boards.lg_place import (
    WAIT_S,
    Place,
    coordinator_of,
    ensure_labgrid,
    on_signals_stop,
    remote_place,
)
from ..errors import LabError
from . import plan as plans
from . import qemu
from .plan import LOADS, Plan, parse_reply_wire, parse_wire, select
from .qemu import SuiteRun, lab_document

# every bench the suite knows, in the order it runs them
ALL = tuple(plans.BENCHES)
plan = plans.for_board  # the benches a target's features and wiring allow


def run_board(board: LabBoard, p: Plan, mode: str, loads: list[str], runs: list[SuiteRun],
              duration_s: int = 0) -> None:  # fmt: skip
    """The plan on one board, into `runs` as they go (qemu.run_plan)."""
    qemu.run_plan(board, p, mode, loads, runs, kernel=board.kernel, label=board.target,
                   duration_s=duration_s)  # fmt: skip


def target_plan(env: Any, lg_target: str, feats: frozenset[str]) -> tuple[Plan, str, str]:
    """The plan of a labgrid target with `feats`, from its wiring options; and
    the options as written ("": none)."""
    raw = str(env.config.get_target_option(lg_target, "udrv-wire", ""))  # "": no jumper
    raw_reply = str(env.config.get_target_option(lg_target, "udrv-reply-wire", ""))
    return plan(feats, parse_wire(raw) if raw else None,
                parse_reply_wire(raw_reply) if raw_reply else None), raw, raw_reply


def run_suite(env_file: str | Path, lg_target: str, mode: str, out: Path, *,
              loads: list[str], benches: list[str] | None = None, duration_s: int = 0,
              wait_s: float = WAIT_S) -> int:  # fmt: skip
    """Reserve the target's place, run its plan, release; write the document,
    print the tables and the report; 0 when every bench that ran passed."""
    t0 = time.monotonic()
    env = load_environment(env_file)
    feats = target_features(env, lg_target)
    p, raw, raw_reply = target_plan(env, lg_target, feats)
    if benches is not None:
        p = select(p, benches)
    runs: list[SuiteRun] = []
    died = ""
    target = lg_target
    with Place.of(env, lg_target, wait_s) as place:
        board = LabgridBoard(env=env, lg_target=lg_target)
        target = board.target
        qemu.say_skipped(target, p)
        try:
            run_board(board, p, mode, loads, runs, duration_s)
        except LabError as exc:  # the board died: keep what it measured
            died = f"{type(exc).__name__}: {exc}"
            print(f"lab: {target}: the board stopped answering: {died}", file=sys.stderr)
        finally:
            board.close()
    doc = lab_document(runs)
    doc["labgrid"] = {
        "env": str(env_file), "target": lg_target, "flavour": target,
        "features": sorted(feats), "wire": raw or None, "reply_wire": raw_reply or None,
        **({"place": place.name, "coordinator": coordinator_of(env),
            "waited_s": round(place.waited_s, 1)} if place is not None else {}),
        "skipped": p.skipped, **({"died": died} if died else {}),
    }  # fmt: skip
    if qemu.write_document(out, doc, [target]):  # this board's runs
        return 1
    failures = [f"{r.board}/{r.kernel}/{r.load}: {f}" for r in runs for f in r.failures]
    for f in failures:
        print(f"lab: bench failed: {f}", file=sys.stderr)
    missing = sorted({b for r in runs for b in r.unavailable})
    if missing:
        print(f"lab: not in this udrv yet: {', '.join(missing)}", file=sys.stderr)
    report = qemu.write_report(out)
    print(f"\nlab: results in {out} ({time.monotonic() - t0:.0f}s)")
    if report is not None:
        print(f"lab: report in {report}")
    return 1 if failures or died or report is None else 0


def _list(allowed: tuple[str, ...], what: str) -> Any:
    def parse(text: str) -> list[str]:
        items = [t for t in text.split(",") if t]
        bad = [t for t in items if t not in allowed]
        if bad or not items:
            raise argparse.ArgumentTypeError(f"{text!r}: {what} from {', '.join(allowed)}")
        return items
    return parse


def _seconds(text: str) -> float:
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise argparse.ArgumentTypeError(f"{text!r}: whole seconds, 0..999999")
    return float(text)


def add_arguments(st: argparse.ArgumentParser) -> None:
    """`python3 -m rig.lab suite`'s labgrid options."""
    g = st.add_argument_group("on a labgrid target (rig/lab/suite/labgrid.py)")
    g.add_argument("--lg-env", metavar="FILE",
                   help="run on the labgrid target of this environment instead of the QEMU "
                   "boards: its place reserved and locked when it is a RemotePlace, the benches "
                   "its features and wiring (udrv-wire, udrv-reply-wire) allow (the others "
                   "skipped, saying why); "
                   "--board and --kernel do not apply")  # fmt: skip
    g.add_argument("--target", dest="lg_target", default="main",
                   help="the environment's labgrid target (default main)")
    g.add_argument("--lg-wait", type=_seconds, default=WAIT_S, metavar="S",
                   help="wait up to S seconds for a place someone else holds (default "
                   f"{WAIT_S:.0f}); then give up, saying who holds it")  # fmt: skip
    g.add_argument("--benches", type=_list(ALL, "benches"), default=None, metavar="LIST",
                   help=f"only these benches, comma-separated ({','.join(ALL)})")
    g.add_argument("--loads", type=_list(LOADS, "loads"), default=list(LOADS), metavar="LIST",
                   help="the loads, comma-separated (default none,all)")


def main(args: argparse.Namespace, out: Path) -> int:
    """cmd_suite with --lg-env."""
    if not Path(args.lg_env).is_file():  # before looking for labgrid: the plainer mistake
        raise LabError(f"labgrid environment {args.lg_env} does not exist (a QEMU board's: "
                       "python3 -m rig.lab lg-env; a farm's: python3 -m rig.lab farm up)")
    ensure_labgrid()
    on_signals_stop()
    mode = "quick" if args.quick else "full"
    return run_suite(args.lg_env, args.lg_target, mode, out, loads=args.loads,
                     benches=args.benches, duration_s=args.duration,
                     wait_s=args.lg_wait)  # fmt: skip


def check_arguments(args: argparse.Namespace) -> None:
    """The labgrid options without --lg-env: a usage error."""
    extra = [option for option, name, default in (
        ("--target", "lg_target", "main"), ("--benches", "benches", None),
        ("--loads", "loads", list(LOADS)), ("--lg-wait", "lg_wait", WAIT_S))
        if getattr(args, name) != default]  # fmt: skip
    if extra and not args.lg_env:
        raise LabError(f"{extra[0]} applies to a labgrid target: "
                       "give --lg-env FILE")  # fmt: skip


__all__ = ["ALL", "Plan", "add_arguments", "main", "parse_reply_wire", "parse_wire", "plan",
           "remote_place", "select", "target_plan"]
