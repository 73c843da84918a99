# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench-peer rx (the contract 'udrv-bench rate' reads, docs/rig/results.md)
on gpio-wire: the peer reads the input line 1 while 'udrv gpio toggle' drives
line 0 from a second process; SIGTERM, repeated every 10 ms, stops it, and
what it prints accounts for every edge gpio-wire put on the wire."""

from __future__ import annotations

from typing import Any

import pytest
from guest import CHIP, PEER, ok, sh

pytestmark = pytest.mark.lg_feature(["gpio-wire"])

KEYS = ("received", "reads", "seqno_first", "seqno_last", "cpu_user_ns", "cpu_sys_ns",
        "samples")


def parse_rx(text: str) -> tuple[dict[str, int], list[int]]:
    """The peer's output, strictly: the keys once each in order, 'lat' lines, 'end'."""
    lines = text.split("\n")
    assert lines[0] == "ready" and lines[-1] == "" and lines[-2] == "end", text[-200:]
    out: dict[str, int] = {}
    lat: list[int] = []
    for line in lines[1:-2]:
        key, value = line.split(" ")
        assert value.isdigit() and (value == "0" or value[0] != "0"), line
        if key == "lat":
            lat.append(int(value))
        else:
            assert key in KEYS and key not in out and not lat, line
            out[key] = int(value)
    assert tuple(out) == KEYS
    return out, lat


def wire_driven(text: str, line: int) -> int:
    for row in text.splitlines():
        f = row.split()
        if int(f[0]) == line:
            assert f[2] == "0"  # gpio-wire's fault injection is off
            return int(f[1])
    raise AssertionError(f"no line {line} in {text!r}")


def rx(board: Any, toggles: int, args: str, period: str) -> tuple[dict[str, int], list[int], int]:
    path = ok(board, f"gpio info -c {CHIP} --json").json()[0]["path"]
    edges = "/sys/devices/platform/gpio-wire/edges"
    # line 0 low before the peer starts: 'udrv gpio toggle' starts low, and a
    # line left high by an earlier test would add one edge (seen: 201 of 200)
    script = (
        f"udrv gpio set -c {CHIP} 0=0; "
        f"{PEER} rx --chip {path} --line 1 {args} > /tmp/rx.out 2> /tmp/rx.err & pid=$!; "
        "i=0; until grep -q ready /tmp/rx.out; do usleep 10000; i=$((i+1)); "
        "[ $i -lt 500 ] || { cat /tmp/rx.err >&2; exit 9; }; done; "
        f"cat {edges} > /tmp/e0; "
        f"udrv gpio toggle -c {CHIP} -n {toggles} {period} 0 > /dev/null; "
        f"usleep 100000; cat {edges} > /tmp/e1; "
        "while kill -TERM $pid 2> /dev/null; do usleep 10000; done; wait $pid; "
        "echo \"status $?\" >&2; cat /tmp/rx.out; echo ===; cat /tmp/e0; echo ===; cat /tmp/e1")
    r = sh(board, script, timeout=300)
    assert "status 0" in r.stderr, r.stderr
    out, e0, e1 = r.stdout.split("===\n")
    counts, lat = parse_rx(out)
    return counts, lat, wire_driven(e1, 1) - wire_driven(e0, 1)


@pytest.mark.parametrize(("toggles", "args", "period"), [
    (200, "--batch 1", "-p 1ms"),
    (400, "--batch 8 --buffer 64 --max-samples 100", ""),
], ids=["one-at-a-time", "batches"])
def test_rx_accounts_for_every_edge(board: Any, toggles: int, args: str, period: str) -> None:
    counts, lat, sent = rx(board, toggles, args, period)
    assert sent == toggles
    # every edge: read, or a gap in the line's sequence numbers (kernel drops)
    span = counts["seqno_last"] - counts["seqno_first"] + 1
    dropped = span - counts["received"]
    assert counts["received"] + dropped == sent, counts
    assert counts["samples"] == len(lat) == min(counts["received"], 100 if "--max" in args
                                                else counts["received"])
    assert all(0 < x < 1_000_000_000 for x in lat)
    assert 1 <= counts["reads"] <= counts["received"]
    assert counts["cpu_user_ns"] + counts["cpu_sys_ns"] > 0
    if "--batch 1" in args:
        assert counts["reads"] == counts["received"]  # one event per read
        assert dropped == 0  # a toggle per ms: the reader keeps up


def test_rx_without_events(board: Any) -> None:
    """SIGTERM before any edge: zeros, and still the whole output."""
    counts, lat, sent = rx(board, 0, "--batch 4", "")
    assert sent == 0 and lat == []
    assert counts["received"] == counts["reads"] == counts["samples"] == 0
    assert counts["seqno_first"] == counts["seqno_last"] == 0
