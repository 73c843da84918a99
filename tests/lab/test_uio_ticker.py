# SPDX-License-Identifier: GPL-2.0-only
"""rig/kernel/uio-ticker through libudrv: discovery, map, wait, timeout, missed
interrupts, irqcontrol off/on. udrv-ticker-check is tests/lab/progs/."""

from __future__ import annotations

import json

import pytest
from guest import ok, sh, udrv

pytestmark = [pytest.mark.lg_feature(["uio-ticker"]), pytest.mark.lg_rt]

PERIOD_US = 1000


@pytest.fixture
def ticker(board):
    """The ticker running at PERIOD_US; stopped again afterwards."""
    dev = ok(board, "uio info --json uio-ticker").json()[0]["device"]
    period = f"/sys/class/uio/{dev}/device/period_us"
    assert sh(board, f"echo {PERIOD_US} > {period}").status == 0
    yield dev
    sh(board, f"echo 0 > {period}")


def test_discovery_by_name_and_map(board, ticker):
    dev = ok(board, "uio info --json uio-ticker").json()[0]
    assert dev["name"] == "uio-ticker"
    assert [m["name"] for m in dev["maps"]] == ["ticker"]
    assert dev["maps"][0]["size"] == 4096


def test_wait_count_page_and_latency(board, ticker):
    r = sh(board, "udrv-ticker-check 10 20")
    assert r.status == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["magic_ok"] is True
    assert out["period_ns"] == PERIOD_US * 1000
    waits = out["waits"]
    counts = [w["count"] for w in waits]
    assert counts == sorted(counts) and len(set(counts)) == 10
    for w in waits:
        assert w["page_event"] >= w["count"]  # the page is never behind
        assert w["delta"] == w["missed"] + 1
        assert 0 < w["notify_to_wake_ns"] < 1_000_000_000
        assert w["expiry_to_wake_ns"] >= w["notify_to_wake_ns"]


def test_missed_interrupts_are_counted(board, ticker):
    out = json.loads(sh(board, "udrv-ticker-check 2 20").stdout)
    # slept 20 ms through 1 ms ticks: about 20 came while nobody waited
    assert out["missed_after_sleep"] >= 10
    assert out["delta_after_sleep"] == out["missed_after_sleep"] + 1
    assert out["missed_total"] >= out["missed_after_sleep"]


def test_irqcontrol_disable_enable(board, ticker):
    out = json.loads(sh(board, "udrv-ticker-check 1 0").stdout)
    assert out["wait_while_disabled"] == 0  # timed out: nothing signalled
    assert out["enabled_flag_while_disabled"] == 0
    assert out["suppressed_while_disabled"] >= 10  # ticks went on, counted
    assert out["wait_after_enable"] == 1


def test_cli_wait_and_timeout(board, ticker):
    lines = ok(board, "uio wait -n 3 --json uio-ticker").json_lines()
    assert [x["delta"] >= 1 for x in lines[:3]] == [True] * 3
    assert lines[-1]["interrupts"] == 3
    sh(board, f"echo 0 > /sys/class/uio/{ticker}/device/period_us")
    r = udrv(board, "uio wait --timeout 50ms uio-ticker")
    assert r.status == 1
    assert "no interrupt within 50 ms" in r.stderr
