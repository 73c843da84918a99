# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench's command lines outside the lab plan (the soak, the Python
section's broker rows) come from rig/lab/suite/plan.py's builder, and are the
lines written by hand before it (issue 42); the broker rows' document is read
through rig.results, so a broken one is refused with its message."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rig.bench import options
from rig.lab.boards.api import Result
from rig.lab.suite import plan, python, soak
from tests.support.results_docs import bench_doc, row, stats

GPIOCLI = "/opt/libgpiod/bin/gpiocli"
BUS = "unix:path=/run/dbus/system_bus_socket"
BUS2 = "unix:path=/run/dbus/gpio_manager_socket"


def hand_written_soak(edges: int, interrupts: int, period_us: int,
                      load: str) -> list[tuple[str, str, int]]:
    """soak.commands() as it was written by hand (before plan.py built it)."""
    per_edge_loop = -(-edges // soak.IRQ_LOOPS)
    per_uio_loop = -(-interrupts // soak.UIO_LOOPS)
    common = f"--json --quiet --load {load}"
    return [
        ("irq", f"udrv-bench irq {common} --samples {per_edge_loop}",
         per_edge_loop * soak.IRQ_LOOPS),
        ("uio", f"udrv-bench uio -d ticker {common} --samples {per_uio_loop} "
                f"--period-us {period_us}", per_uio_loop * soak.UIO_LOOPS),
    ]


@pytest.mark.parametrize(("edges", "interrupts", "period_us", "load"), [
    (soak.EDGES, soak.INTERRUPTS, soak.PERIOD_US, soak.LOAD),
    (4, 2, 10, "none"),
    (1001, 999, 73, "hackbench"),
])
def test_soak_commands_are_the_hand_written_ones(edges: int, interrupts: int, period_us: int,
                                                 load: str) -> None:
    assert soak.commands(edges, interrupts, period_us, load) == \
        hand_written_soak(edges, interrupts, period_us, load)


def test_soak_commands_follow_their_inputs() -> None:
    """Break on purpose: other inputs, other lines (the builder reads them all)."""
    base = soak.commands(1000, 1000, 50, "all")
    for other in (soak.commands(1004, 1000, 50, "all"), soak.commands(1000, 1002, 50, "all"),
                  soak.commands(1000, 1000, 51, "all"), soak.commands(1000, 1000, 50, "none")):
        assert other != base


@pytest.mark.parametrize("mode", ["full", "quick"])
def test_broker_command_is_the_hand_written_one(mode: str) -> None:
    hand = (f"udrv-bench toggle --json --quiet -n {python.BROKER_SAMPLES[mode]} --udrvd {BUS} "
            f"--gpio-manager {BUS2} --gpiocli {GPIOCLI}")
    assert python.broker_command(mode) == hand
    assert python.broker_command("full") != python.broker_command("quick")


def test_the_plan_spells_its_options_with_the_builder() -> None:
    assert plan.args("uio", "none", "quick", options.device_opt("ticker")) == \
        ("uio", "--json", "--quiet", "--load", "none", "--samples", "200", "-d", "ticker")
    assert options.argv("toggle") == ("toggle", "--json", "--quiet")
    with pytest.raises(ValueError, match="--samples or -n"):
        options.samples_opt(5, "--count")


# ---- the broker rows' document, through rig.results ----

def toggle_document() -> dict[str, Any]:
    rows = [row("cdev", "raw", "toggle", stats([100, 100, 101]), loss=True, rate_per_s=9.9e6),
            row("dbus", "udrvd", "toggle", stats([9000, 9100, 9200]), loss=True,
                rate_per_s=1.1e5)]
    return bench_doc("toggle", rows)


class FakeBoard:
    """A board whose every command exits 0 printing @stdout."""

    def __init__(self, stdout: str) -> None:
        self.stdout = stdout
        self.commands: list[str] = []

    def run(self, cmd: str, timeout: float = 0) -> Result:
        self.commands.append(cmd)
        return Result(0, self.stdout.encode(), b"", 0.1)

    def put_bytes(self, data: bytes, guest_path: str, mode: int = 0o644) -> None:
        pass


class FakeBroker:
    def __init__(self, board: Any, daemon: str, address: str = "") -> None:
        pass

    def start(self) -> FakeBroker:
        return self

    def stop(self) -> None:
        pass


def brokers(monkeypatch: pytest.MonkeyPatch, stdout: str) -> dict[str, Any]:
    monkeypatch.setattr(python.dbusguest, "missing", lambda: None)
    monkeypatch.setattr(python, "Broker", FakeBroker)
    board = FakeBoard(stdout)
    run = python.run_brokers(board, "std", "quick")  # type: ignore[arg-type]
    assert board.commands == [python.broker_command("quick")]
    return run


def test_broker_document_read_through_rig_results(monkeypatch: pytest.MonkeyPatch) -> None:
    run = brokers(monkeypatch, json.dumps(toggle_document()))
    assert run["failures"] == [] and run["documents"] == [toggle_document()]


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: d["rows"][0].pop("stats"), "rows[0].stats: missing"),
    (lambda d: d.__setitem__("schema", "udrv-bench/2"), "schema 'udrv-bench/2'"),
    (lambda d: d["rows"][1]["loss"].__setitem__("lost", 7), "rows[1].loss: sent"),
], ids=["key-removed", "unknown-version", "loss"])
def test_a_broken_broker_document_is_refused(monkeypatch: pytest.MonkeyPatch, damage: Any,
                                             message: str) -> None:
    doc = copy.deepcopy(toggle_document())
    damage(doc)
    run = brokers(monkeypatch, json.dumps(doc))
    assert run["documents"] == []
    [failure] = run["failures"]
    assert failure.startswith("udrv-bench toggle --udrvd printed no udrv-bench/1 document: "
                              f"{python.broker_command('quick')}: ") and message in failure, \
        failure


def test_no_broker_document_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    run = brokers(monkeypatch, "")
    [failure] = run["failures"]
    assert failure.endswith(": empty: no JSON document"), failure
