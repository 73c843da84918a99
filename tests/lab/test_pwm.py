# SPDX-License-Identifier: GPL-2.0-only
"""Hardware PWM on the real kernels' PWM class: `udrv pwm` on
rig/kernel/pwm-fixture, a PWM chip whose channel 0 drives gpio-wire's
line 0 (wire0-out) from a hard hrtimer. The waveform is read on the other
end of the wire: `udrv gpio mon` on line 1 (wire0-in) prints each edge
with the kernel's timestamp, so every period and pulse width is measured
from what the line did, not from what sysfs says (6.1's sysfs reads back
the state that was requested). The fixture counts at the source:
/sys/devices/platform/pwm-fixture/stats (periods begun, level changes
driven, periods its timer woke too late for).

Under icount the guest's clock follows the instruction count: an hrtimer
expires a nearly fixed number of instructions after its deadline, so the
periods and widths come out within 100 ns of what was set.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from guest import CHIP, ok, root, sh, udrv

from rig.lab import Board

pytestmark = [pytest.mark.lg_feature(["pwm-fixture", "gpio-wire"])]

FIXTURE = "/sys/devices/platform/pwm-fixture"
CHANNEL, OUT, IN = 0, 0, 1  # channel 0 drives line 0, seen on line 1
# an edge's time on the wire against its deadline varies by the timer's
# and the edge interrupt's instruction counts: within 100 ns in the lab
# (std and rt, 6.1), bounded at 1 us here
TOLERANCE_NS = 1000


@pytest.fixture
def pwm(board: Board) -> Iterator[str]:
    """The fixture's sysfs chip directory; channel 0 unexported after the test
    (the chip gives gpio-wire's line 0 back)."""
    chips = ok(board, "pwm list --json").json()
    mine = [c for c in chips if c.get("device") == "pwm-fixture"]
    assert len(mine) == 1, chips
    path = f"/sys/class/pwm/{mine[0]['chip']}"
    yield path
    sh(board, f"test -d {path}/pwm{CHANNEL} && echo {CHANNEL} > {path}/unexport")


def stats(board: Board) -> dict[int, tuple[int, int, int]]:
    """Per channel: (periods, edges, overruns), counted by the fixture."""
    out = {}
    for line in root(board, f"cat {FIXTURE}/stats").splitlines():
        ch, _line, periods, edges, overruns = map(int, line.split())
        out[ch] = (periods, edges, overruns)
    return out


def edges(board: Board, n: int) -> list[tuple[int, str]]:
    """The next @n edges on line IN: (kernel timestamp ns, rising|falling)."""
    r = udrv(board, f"gpio mon -c {CHIP} --edge both -n {n} --json {IN}", timeout=300)
    assert r.status == 0, f"udrv gpio mon: exit {r.status}\n{r.stderr}"
    evs = [e for e in r.json_lines() if "edge" in e]
    assert len(evs) == n and not any(e["lost"] for e in evs), evs
    return edge_list(evs)


def edge_list(lines: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """udrv gpio mon --json's edges: (kernel timestamp ns, rising|falling)."""
    return [(e["timestamp_ns"], e["edge"]) for e in lines if "edge" in e]


def waveform(evs: list[tuple[int, str]], active: str = "rising") -> tuple[list[int], list[int]]:
    """(periods, pulse widths) in ns of edges alternating in direction:
    periods from active edge to active edge, widths from an active edge to
    the next one."""
    kinds = [k for _, k in evs]
    assert all(a != b for a, b in itertools.pairwise(kinds)), kinds
    starts = [i for i, (_, k) in enumerate(evs) if k == active]
    periods = [evs[b][0] - evs[a][0] for a, b in itertools.pairwise(starts)]
    widths = [evs[i + 1][0] - evs[i][0] for i in starts if i + 1 < len(evs)]
    return periods, widths


def level(board: Board, line: int = IN) -> int:
    """The level on the wire (input @line of gpio-wire)."""
    value = ok(board, f"gpio get -c {CHIP} --json {line}").json()["lines"][0]["value"]
    assert isinstance(value, int)
    return value


def near(values: list[int], want: int, error: int = TOLERANCE_NS) -> bool:
    return bool(values) and all(abs(v - want) <= error for v in values)


def test_the_chip_and_its_line(board: Board, pwm: str) -> None:
    """Exported, channel 0 holds gpio-wire's line 0 as pwm-fixture;
    unexported, gives it back."""
    ok(board, f"pwm set pwm-fixture {CHANNEL} --period 1ms --duty 0")
    info = {ln["offset"]: ln for ln in ok(board, f"gpio info -c {CHIP} --json").json()[0]["lines"]}
    assert info[OUT]["consumer"] == "pwm-fixture", info[OUT]
    root(board, f"echo {CHANNEL} > {pwm}/unexport")
    info = {ln["offset"]: ln for ln in ok(board, f"gpio info -c {CHIP} --json").json()[0]["lines"]}
    assert not info[OUT]["used"], info[OUT]


@pytest.mark.parametrize(("freq", "duty", "period_ns", "width_ns"), [
    ("1000", "50", 1_000_000, 500_000),  # 1 kHz at 50 %
    ("50", "7.5", 20_000_000, 1_500_000),  # a servo's 1.5 ms at 50 Hz
])
def test_what_the_wire_sees(board: Board, pwm: str, freq: str, duty: str, period_ns: int,
                            width_ns: int) -> None:
    before = stats(board)[CHANNEL]
    st = ok(board, f"pwm set pwm-fixture {CHANNEL} --frequency {freq} --duty-cycle {duty} "
                   "--enable --json").json()
    assert (st["period_ns"], st["duty_ns"], st["enabled"]) == (period_ns, width_ns, True), st
    periods, widths = waveform(edges(board, 21))
    assert near(periods, period_ns), periods
    assert near(widths, width_ns), widths
    ok(board, f"pwm set pwm-fixture {CHANNEL} --disable")
    after = stats(board)[CHANNEL]
    assert after[0] >= 10 and after[1] >= 20 and after[2] == 0, (before, after)
    # disabled: the inactive level on the wire
    assert level(board) == 0


def test_a_change_takes_effect_at_a_period_boundary(board: Board, pwm: str) -> None:
    """From 50 % to 25 % while it runs: each pulse is one or the other,
    none cut short; the periods stay whole."""
    ok(board, f"pwm set pwm-fixture {CHANNEL} --period 1ms --duty 500us --enable")
    r = sh(board, f"(sleep 0.005; udrv pwm set pwm-fixture {CHANNEL} --duty 250us >/dev/null) & "
                  f"udrv gpio mon -c {CHIP} --edge both -n 41 --json {IN}", timeout=300)
    assert r.status == 0, r.stderr
    evs = edge_list(r.json_lines())
    periods, widths = waveform(evs)
    assert near(periods, 1_000_000), periods
    assert all(abs(w - 500_000) <= TOLERANCE_NS or abs(w - 250_000) <= TOLERANCE_NS
               for w in widths), widths
    assert near(widths[-3:], 250_000), widths  # the change came
    ok(board, f"pwm set pwm-fixture {CHANNEL} --disable")


def test_inversed_polarity_is_active_low(board: Board, pwm: str) -> None:
    ok(board, f"pwm set pwm-fixture {CHANNEL} --period 1ms --duty 0 --enable")
    ok(board, f"pwm set pwm-fixture {CHANNEL} --disable")
    ok(board, f"pwm set pwm-fixture {CHANNEL} --polarity inversed --duty 200us --enable")
    periods, widths = waveform(edges(board, 21), active="falling")
    assert near(periods, 1_000_000) and near(widths, 200_000), (periods, widths)
    ok(board, f"pwm set pwm-fixture {CHANNEL} --disable")
    assert level(board) == 1
