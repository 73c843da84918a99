# SPDX-License-Identifier: GPL-2.0-only
"""GPIO through legacy sysfs on rig/kernel/gpio-wire: export, set, get, edge + poll."""

from __future__ import annotations

import json

import pytest
from guest import CHIP, ok, sh, sysfs_base, udrv

pytestmark = pytest.mark.lg_feature(["gpio-wire"])


def test_base_is_read_not_assumed(board):
    base = sysfs_base(board)
    r = sh(board, f"cat /sys/class/gpio/gpiochip{base}/label")
    assert r.stdout.strip() == CHIP


def test_set_get_and_unexport(board):
    base = sysfs_base(board)
    for value in (1, 0):
        ok(board, f"gpio set -b sysfs -c {CHIP} 2={value}")
        got = ok(board, f"gpio get -b sysfs -c {CHIP} --json 3").json()
        assert got["backend"] == "sysfs"
        assert got["lines"][0]["value"] == value
    # released lines are unexported again
    r = sh(board, f"ls /sys/class/gpio/gpio{base + 2} /sys/class/gpio/gpio{base + 3}")
    assert r.status != 0


def test_sysfs_and_cdev_agree(board):
    ok(board, f"gpio set -c {CHIP} 0=1")
    assert ok(board, f"gpio get -b sysfs -c {CHIP} 1").stdout.strip() == "1=1"
    ok(board, f"gpio set -b sysfs -c {CHIP} 0=0")
    assert ok(board, f"gpio get -c {CHIP} 1").stdout.strip() == "1=0"


def test_edges_with_poll(board):
    ok(board, f"gpio set -c {CHIP} 4=0")
    r = sh(
        board,
        f"udrv gpio mon -b sysfs -c {CHIP} --json -n 4 -t 5s 5 > /tmp/smon.json & "
        f"sleep 0.3; for v in 1 0 1 0; do udrv gpio set -c {CHIP} 4=$v; sleep 0.05; done; wait",
    )
    assert r.status == 0, r.stderr
    lines = [json.loads(x) for x in board.get("/tmp/smon.json").decode().splitlines()]
    events, summary = lines[:-1], lines[-1]
    assert [e["edge"] for e in events] == ["rising", "falling", "rising", "falling"]
    assert summary == {"events": 4, "lost": 0}


def test_busy_line_through_sysfs(board):
    r = sh(
        board,
        f"udrv gpio set -c {CHIP} -C holder --hold 3s 6=1 & sleep 0.3; "
        f"udrv gpio get -b sysfs -c {CHIP} 6; echo status=$?; kill %1; wait",
    )
    assert "status=1" in r.stdout
    assert "is busy: held by consumer 'holder'" in r.stderr


def test_sysfs_cannot_bias(board):
    r = udrv(board, f"gpio get -b sysfs --bias pull-up -c {CHIP} 1")
    assert r.status == 1
    assert "sysfs GPIO cannot set bias; use the cdev backend" in r.stderr
