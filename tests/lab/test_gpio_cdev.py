# SPDX-License-Identifier: GPL-2.0-only
"""GPIO through the character device on rig/kernel/gpio-wire, on both kernels."""

from __future__ import annotations

import json
import re

import pytest
from guest import CHIP, ok, sh, udrv

pytestmark = [pytest.mark.lg_feature(["gpio-wire"]), pytest.mark.lg_std]


def test_chip_and_lines(board):
    chips = ok(board, f"gpio info -c {CHIP} --json").json()
    assert len(chips) == 1
    chip = chips[0]
    assert chip["label"] == CHIP
    assert chip["cdev"] is True
    assert chip["num_lines"] == 8
    names = [line["name"] for line in chip["lines"]]
    assert names[:4] == ["wire0-out", "wire0-in", "wire1-out", "wire1-in"]


def test_set_then_get_through_the_wire(board):
    for value in (1, 0, 1):
        ok(board, f"gpio set -c {CHIP} 0={value}")
        got = ok(board, f"gpio get -c {CHIP} --json wire0-in").json()
        assert got["lines"][0]["value"] == value


def test_multi_line_request(board):
    ok(board, f"gpio set -c {CHIP} 0=1 2=0 4=1 6=0")
    got = ok(board, f"gpio get -c {CHIP} 1 3 5 7")
    assert got.stdout.strip() == "1=1 3=0 5=1 7=0"


def test_active_low(board):
    ok(board, f"gpio set -c {CHIP} --active-low 2=1")  # logical 1 = physical low
    assert ok(board, f"gpio get -c {CHIP} 3").stdout.strip() == "3=0"
    assert ok(board, f"gpio get -c {CHIP} --active-low 3").stdout.strip() == "3=1"


def test_edges_timestamps_seqno(board):
    ok(board, f"gpio set -c {CHIP} 4=0")
    r = sh(
        board,
        f"udrv gpio mon -c {CHIP} --json -n 6 -t 5s wire2-in > /tmp/mon.json & "
        f"sleep 0.2; udrv gpio toggle -c {CHIP} -n 6 -p 1ms wire2-out; wait",
    )
    assert r.status == 0, r.stderr
    lines = read_json_lines(board, "/tmp/mon.json")
    events, summary = lines[:-1], lines[-1]
    assert summary == {"events": 6, "lost": 0}
    assert [e["edge"] for e in events] == ["rising", "falling"] * 3
    assert [e["seqno"] for e in events] == list(range(1, 7))
    assert [e["line_seqno"] for e in events] == list(range(1, 7))
    stamps = [e["timestamp_ns"] for e in events]
    assert stamps == sorted(stamps) and len(set(stamps)) == 6
    assert all(e["offset"] == 5 and e["lost"] == 0 for e in events)


def test_lost_events_are_reported(board):
    """Overflow the kernel's 16-event buffer while the reader is stopped."""
    ok(board, f"gpio set -c {CHIP} 6=0")
    r = sh(
        board,
        f"udrv gpio mon -c {CHIP} --json -S 16 -n 16 -t 10s wire3-in > /tmp/lost.json & "
        "pid=$!; sleep 0.2; kill -STOP $pid; "
        f"udrv gpio toggle -c {CHIP} -n 100 wire3-out; kill -CONT $pid; wait $pid",
    )
    assert r.status == 0, r.stderr
    lines = read_json_lines(board, "/tmp/lost.json")
    events, summary = lines[:-1], lines[-1]
    assert len(events) == 16
    # sent = received + reported lost
    assert summary["events"] + summary["lost"] == 100
    assert events[0]["lost"] == summary["lost"] > 0
    assert events[-1]["seqno"] == 100


def test_busy_line(board):
    r = sh(
        board,
        f"udrv gpio set -c {CHIP} -C holder --hold 3s 0=1 & sleep 0.3; "
        f"udrv gpio get -c {CHIP} 0; echo status=$?; kill %1; wait",
    )
    assert "status=1" in r.stdout
    assert "line 0 of gpiochip" in r.stderr and "is busy: held by consumer 'holder'" in r.stderr
    assert re.search(r"udrv: every line's holder: udrv gpio info -c gpiochip\d+\n", r.stderr), r


def test_bad_offset(board):
    r = udrv(board, f"gpio get -c {CHIP} 99")
    assert r.status == 1
    assert "offset 99 out of range" in r.stderr and "has 8 lines (0..7)" in r.stderr


def test_wrong_chip(board):
    r = udrv(board, "gpio get -c no-such-chip 0")
    assert r.status == 1
    assert "no GPIO chip 'no-such-chip' (available: gpiochip" in r.stderr


def test_unknown_line_name(board):
    r = udrv(board, "gpio get no-such-line")
    assert r.status == 1
    assert "no line named 'no-such-line' on " in r.stderr
    assert f"[{CHIP}]" in r.stderr  # the chips looked at, with their labels


def test_a_near_line_name_is_suggested(board):
    r = udrv(board, "gpio get WIRE0-IN")
    assert r.status == 1
    assert "did you mean 'wire0-in'? (line names are case-sensitive)" in r.stderr


def test_info_by_line_name(board):
    [chip] = ok(board, "gpio info --json wire0-in wire1-in").json()
    assert chip["label"] == CHIP
    assert [(ln["offset"], ln["name"]) for ln in chip["lines"]] == [(1, "wire0-in"),
                                                                     (3, "wire1-in")]


def test_watch_line_info_changes(board):
    """The kernel's line-info changes of a line another process requests and
    releases: udrv gpio get, repeated until the watch saw four (it may start
    between a request and its release, hence either order)."""
    r = sh(
        board,
        f"udrv gpio watch -c {CHIP} --json -n 4 -t 10s wire0-in > /tmp/watch.json & pid=$!; "
        f"for i in $(seq 200); do udrv gpio get -c {CHIP} -C peek 1 > /dev/null; "
        "[ $(wc -l < /tmp/watch.json) -ge 4 ] && break; sleep 0.05; done; wait $pid",
    )
    assert r.status == 0, r.stderr
    events = read_json_lines(board, "/tmp/watch.json")
    assert len(events) == 4
    assert all(e["offset"] == 1 and e["line"] == "wire0-in" for e in events)
    kinds = [e["event"] for e in events]
    assert kinds in (["requested", "released"] * 2, ["released", "requested"] * 2), kinds
    assert all(e["consumer"] == "peek" and e["used"] for e in events if e["event"] == "requested")
    assert all(not e["used"] for e in events if e["event"] == "released")
    stamps = [e["timestamp_ns"] for e in events]
    assert stamps == sorted(stamps)


def test_input_line_refuses_output(board):
    r = udrv(board, f"gpio set -c {CHIP} 1=1")
    assert r.status == 1
    assert "refused" in r.stderr


def read_json_lines(board, path: str) -> list[dict]:
    return [json.loads(x) for x in board.get(path).decode().splitlines() if x.strip()]
