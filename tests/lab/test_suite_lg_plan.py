# SPDX-License-Identifier: GPL-2.0-only
"""What `python3 -m rig.lab suite --lg-env` runs on a board (rig/lab/suite/labgrid.py's
plan()), from its features and wiring; no board needed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rig.bench.board import Wire
from rig.lab.errors import LabError
from rig.lab.suite.labgrid import ALL, Plan, parse_reply_wire, parse_wire, plan, select

REPO = Path(__file__).resolve().parents[2]
QEMU_X86 = frozenset({"gpio-wire", "gpio-reply", "uio-ticker", "irqlat", "edu"})


def opts(p: Plan) -> dict[str, str]:
    """bench -> its board options as one string."""
    return {b: " ".join(o) for b, o in p.opts.items()}


def test_the_qemu_x86_board_runs_everything_but_pci_with_defaults() -> None:
    p = plan(QEMU_X86, None)
    assert list(p.opts) == ["toggle", "irq", "uio", "timer", "kernel", "reply", "gaps", "rate",
                            "pwm"]
    assert set(p.opts.values()) == {()}, p.opts  # gpio-wire's own lines: the bench defaults
    # no i2c-stub nor spi-fixture in this set: the bus benches are skipped too
    assert list(p.skipped) == ["pci", "i2c", "spi"] and p.priority == []


def test_rt_adds_the_priority_axis_of_what_runs() -> None:
    assert plan(QEMU_X86 | {"rt"}, None).priority == ["irq", "uio", "reply", "rate"]
    assert plan(QEMU_X86 | {"rt", "iommu"}, None).priority == ["irq", "uio", "reply", "pci",
                                                                "rate"]
    assert plan(frozenset({"rt", "uio-ticker"}), None).priority == ["uio"]


def test_a_board_with_nothing_runs_timer_and_clock_only_gaps() -> None:
    p = plan(frozenset(), None)
    assert opts(p) == {"timer": "", "gaps": "--no-line"}
    assert set(p.skipped) == set(ALL) - {"timer", "gaps"}
    assert "gpio-wire" in p.skipped["irq"] and "udrv-wire" in p.skipped["irq"]


def test_a_jumper_names_the_chip_and_lines() -> None:
    p = plan(frozenset({"irqlat"}), parse_wire("gpiochip1 16 17"))
    assert opts(p)["toggle"] == "-c gpiochip1 --line 16"
    assert opts(p)["irq"] == opts(p)["kernel"] == "-c gpiochip1 --out-line 16"
    assert opts(p)["gaps"] == "-c gpiochip1 --line 16"
    assert "reply" in p.skipped and "rate" in p.skipped and "uio" in p.skipped
    assert "udrv-reply-wire" in p.skipped["reply"]


def test_reply_jumpers_name_the_four_lines_and_the_process_responders() -> None:
    wire = parse_reply_wire("pinctrl-bcm2835 22 23 24 25")
    p = plan(frozenset({"bcm2835"}), None, wire)
    assert opts(p)["reply"] == ("-c pinctrl-bcm2835 --trigger 22 --in 23 --reply 24 --watch 25 "
                                "--responder user,lib")
    # gpio-reply.ko loaded on the board: its isr and kthread responders too
    p = plan(frozenset({"gpio-reply", "rt"}), None, parse_reply_wire("gpiochip1 13 12 15 14"))
    assert opts(p)["reply"] == "-c gpiochip1 --trigger 13 --in 12 --reply 15 --watch 14"
    assert "reply" in p.priority
    # gpio-wire's lines without gpio-reply: the bench's default lines, no module
    assert opts(plan(frozenset({"gpio-wire"}), None))["reply"] == "--responder user,lib"


def test_the_reply_jumpers_do_not_stand_in_for_the_loopback() -> None:
    p = plan(frozenset(), None, parse_reply_wire("gpiochip0 22 23 24 25"))
    assert list(p.opts) == ["timer", "reply", "gaps"]
    assert "udrv-wire" in p.skipped["irq"] and opts(p)["gaps"] == "--no-line"


def test_a_jumper_to_another_line_than_the_next_skips_irq_saying_why() -> None:
    p = plan(frozenset({"irqlat"}), Wire("gpiochip0", 17, 27))
    assert "irq" not in p.opts and "kernel" not in p.opts
    assert "reads line 18" in p.skipped["irq"]
    assert opts(p)["toggle"] == "-c gpiochip0 --line 17"


def test_bcm2835_without_a_wire_is_make_labs_rpi3_toggle() -> None:
    p = plan(frozenset({"bcm2835"}), None)
    assert opts(p)["toggle"] == "-c pinctrl-bcm2835 --line 17 --no-edges"
    assert opts(p)["gaps"] == "-c pinctrl-bcm2835 --line 17"


def test_rp1_without_a_wire_toggles_the_pi_5s_gpio_17() -> None:
    """A Pi 5 (raspberrypi5.yaml's features) without its jumpers: the RP1's GPIO 17."""
    p = plan(frozenset({"rp1"}), None)
    assert opts(p)["toggle"] == "-c pinctrl-rp1 --line 17 --no-edges"
    assert opts(p)["gaps"] == "-c pinctrl-rp1 --line 17"


def test_uio_devices_and_pci() -> None:
    assert opts(plan(frozenset({"uio-ticker"}), None))["uio"] == "-d ticker"
    assert opts(plan(frozenset({"edu"}), None))["uio"] == "-d edu"
    assert opts(plan(frozenset({"edu", "iommu"}), None))["pci"] == ""


def test_select_keeps_the_asked_and_says_the_rest_were_not_asked() -> None:
    p = select(plan(QEMU_X86 | {"rt"}, None), ["timer", "irq", "pci"])
    assert list(p.opts) == ["irq", "timer"] and p.priority == ["irq"]
    assert p.skipped["toggle"] == "not in --benches" and "iommu" in p.skipped["pci"]


@pytest.mark.parametrize("text", ["gpiochip0 17", "gpiochip0 17 17", "gpiochip0 x 18",
                                  "gpiochip0 17 18 19", "", "gpiochip0 -1 2", "c 99999 1",
                                  "c 017 18"])
def test_bad_wires_are_refused(text: str) -> None:
    with pytest.raises(LabError, match="CHIP OUT IN"):
        parse_wire(text)


@pytest.mark.parametrize("text", ["gpiochip0 22 23 24", "gpiochip0 22 23 24 22", "", "c 1 2 3 x",
                                  "c 1 2 3 4 5", "c 01 2 3 4", "c 1 2 3 99999", "c -1 2 3 4",
                                  "1 2 3 4"])
def test_bad_reply_wires_are_refused(text: str) -> None:
    with pytest.raises(LabError, match="CHIP A B C D"):
        parse_reply_wire(text)


def lab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rig.lab", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=60)


def test_cli_refuses_what_does_not_parse_or_apply() -> None:
    bad = lab("suite", "--lg-env", "x.yaml", "--benches", "toggle,nope")
    assert bad.returncode == 2 and "nope" not in bad.stdout and "benches from" in bad.stderr
    assert lab("suite", "--lg-env", "x.yaml", "--loads", "some").returncode == 2
    assert lab("suite", "--lg-env", "x.yaml", "--lg-wait", "-1").returncode == 2
    alone = lab("suite", "--benches", "timer")
    assert alone.returncode == 125 and "--benches applies to a labgrid target" in alone.stderr
    missing = lab("suite", "--lg-env", "/nonexistent/board.yaml")
    assert missing.returncode == 125 and "does not exist" in missing.stderr, missing.stderr


def test_acquire_tries_again_only_when_the_exporter_was_late(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from rig.lab.boards import lg_place

    monkeypatch.setattr(lg_place.time, "sleep", lambda s: None)
    said: list[str] = []
    calls: list[int] = []

    def refused_twice() -> None:
        calls.append(1)
        if len(calls) < 3:
            raise LabError(f"acquire failed (1): Server error: Error: {lg_place.ACQUIRE_REFUSED} x")

    lg_place.acquire(refused_twice, said.append)
    assert len(calls) == 3 and len(said) == 2 and "attempt 1 of 3" in said[0]

    def always_refused() -> None:
        calls.append(1)
        raise LabError(f"Error: {lg_place.ACQUIRE_REFUSED} for place udrv-std")

    calls.clear()
    with pytest.raises(LabError, match=lg_place.ACQUIRE_REFUSED):
        lg_place.acquire(always_refused, said.append)
    assert len(calls) == lg_place.ACQUIRE_TRIES

    def held() -> None:
        calls.append(1)
        raise LabError("place udrv-std is already acquired by elsewhere/other")

    calls.clear()
    with pytest.raises(LabError, match="already acquired"):
        lg_place.acquire(held, said.append)
    assert len(calls) == 1, "a refusal of another kind was tried again"
