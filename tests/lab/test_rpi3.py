# SPDX-License-Identifier: GPL-2.0-only
"""The rpi3 board: QEMU's raspi3b with Debian's arm64 kernel and the static arm64
udrv (build/arm64).  GPIO 17 of the SoC's own chip (pinctrl-bcm2835) is driven
through the character device and through sysfs, and the level the GPIO block
reports (GPLEV0, read with devmem through /dev/mem) must follow."""

from __future__ import annotations

import json
import re
import subprocess
import time

import pytest
from bcm2835 import (
    CHIP,
    FSEL_ALT5,
    FSEL_OUTPUT,
    GPCLR0,
    GPFSEL0,
    GPIO_BASE,
    GPLEV0,
    GPSET0,
    LINE,
    NUM_LINES,
    devmem,
    gpfsel,
    gplev,
)
from guest import ok

from rig.lab import Board
from rig.lab.catalogue import RPI3, missing_udrv
from rig.lab.suite import qemu as suite
from rig.results.check import check_lab

pytestmark = pytest.mark.lg_feature(["bcm2835"])

# the tests that boot boards of their own boot this one (conftest.board_of)
LAB_BOARD = "rpi3"

# cdev (the default), legacy sysfs, and SoC registers (claimed through the cdev)
BACKENDS = ["", "--backend sysfs", "--backend mmio"]
BACKEND_IDS = ["cdev", "sysfs", "mmio"]


@pytest.fixture(scope="module")
def rpi3(board_rpi3: Board) -> Board:
    """The rpi3 board, with the arm64 udrv in it."""
    why = missing_udrv(RPI3)
    if why is not None:
        pytest.fail(f"rpi3 board: {why}", False)
    return board_rpi3


def test_it_is_a_raspberry_pi_3(board_rpi3: Board) -> None:
    assert board_rpi3.run("uname -m").stdout.strip() == "aarch64"
    model = board_rpi3.run("tr -d '\\0' < /proc/device-tree/model").stdout
    assert model == "Raspberry Pi 3 Model B"
    assert "iomem=relaxed" in board_rpi3.run("cat /proc/cmdline").stdout.split()
    assert board_rpi3.release.endswith("-arm64")


def test_rt_check_reads_the_shipped_kernel_config(rpi3: Board) -> None:
    """arm64's `uname -v` names no preemption model; /boot/config-<release> does."""
    assert rpi3.run(f"test -s /boot/config-{rpi3.release}").status == 0
    r = rpi3.run("udrv rt check --json", timeout=60)
    assert r.status in (0, 1), r.stderr
    assert json.loads(r.stdout)["preempt_model"] == "VOLUNTARY"


def test_udrv_info_shows_the_soc_chip(rpi3: Board) -> None:
    info = ok(rpi3, "info").stdout
    assert re.search(rf"gpiochip\d+ \[{CHIP}\] {NUM_LINES} lines", info), info


@pytest.mark.lg_rpi3
def test_gpio_info_lists_54_lines(rpi3: Board) -> None:
    chips = ok(rpi3, f"gpio info -c {CHIP} --json").json()
    assert len(chips) == 1
    chip = chips[0]
    assert (chip["label"], chip["num_lines"], chip["cdev"]) == (CHIP, NUM_LINES, True)
    assert [line["offset"] for line in chip["lines"]] == list(range(NUM_LINES))
    assert chip["lines"][LINE]["name"] == f"GPIO{LINE}"
    assert chip["lines"][LINE]["used"] is False


def test_dev_mem_maps_the_gpio_block(board_rpi3: Board) -> None:
    """With iomem=relaxed /dev/mem maps the registers pinctrl-bcm2835 claimed:
    the device tree muxes GPIO 14/15 to the mini-UART (ALT5), the agent's tty."""
    assert gpfsel(board_rpi3, 14) == FSEL_ALT5
    assert gpfsel(board_rpi3, 15) == FSEL_ALT5
    # GPIO 32..53 are in GPLEV1 (22 bits); it reads back too (no EPERM, no fault)
    assert 0 <= devmem(board_rpi3, GPIO_BASE + GPLEV0 + 4) < 1 << 22


def held(board: Board, backend: str, value: int) -> tuple[int, int, str]:
    """Drive LINE to `value` with `udrv gpio set --hold` and, while it is held,
    read its function (GPFSEL1), GPLEV0 and its line in /sys/kernel/debug/gpio."""
    fsel = GPIO_BASE + GPFSEL0 + 4 * (LINE // 10)
    script = (
        f"udrv gpio set {backend} -c {CHIP} -C lab-rpi3 --hold 30s {LINE}={value} & pid=$!\n"
        "i=0\n"  # wait (bounded) until the kernel shows the line requested as an output
        f"until grep -q 'GPIO{LINE} *|[^)]*) out' /sys/kernel/debug/gpio; do\n"
        "  i=$((i + 1)); [ $i -gt 400 ] && break; sleep 0.05\n"
        "done\n"
        f"devmem {fsel:#x} 32; devmem {GPIO_BASE + GPLEV0:#x} 32\n"
        f"grep 'GPIO{LINE} ' /sys/kernel/debug/gpio\n"
        "kill $pid; wait $pid\n"
    )
    r = board.run(script, timeout=120)
    words = r.stdout.split("\n")
    assert len(words) >= 3, f"exit {r.status}\n{r.stdout}\n{r.stderr}"
    fsel_word, lev_word = int(words[0], 16), int(words[1], 16)
    return (fsel_word >> (3 * (LINE % 10))) & 0b111, (lev_word >> LINE) & 1, words[2]


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_set_drives_the_pin(rpi3: Board, backend: str) -> None:
    for value in (1, 0, 1, 0):
        function, level, debug = held(rpi3, backend, value)
        assert function == FSEL_OUTPUT, debug
        assert level == value, f"GPLEV0 bit {LINE} is {level} while driving {value}: {debug}"
        assert debug.split()[-2:] == ["out", "hi" if value else "lo"], debug
        consumer = "sysfs" if "sysfs" in backend else "lab-rpi3"
        assert f"|{consumer}" in debug.replace(" ", ""), debug


@pytest.mark.parametrize("backend", BACKENDS, ids=BACKEND_IDS)
def test_level_stays_after_release(rpi3: Board, backend: str) -> None:
    """`udrv gpio set` without --hold: the write reaches the GPIO block; the line
    is released afterwards (pinctrl-bcm2835 makes it an input again)."""
    for value in (1, 0):
        ok(rpi3, f"gpio set {backend} -c {CHIP} {LINE}={value}")
        assert gplev(rpi3, LINE) == value
    line = ok(rpi3, f"gpio info -c {CHIP} --json").json()[0]["lines"][LINE]
    assert line["used"] is False


def test_busy_line_names_its_holder(rpi3: Board) -> None:
    r = rpi3.run(
        f"udrv gpio set -c {CHIP} -C holder --hold 30s {LINE}=1 & pid=$!; "
        f"until grep -q 'GPIO{LINE} *|holder' /sys/kernel/debug/gpio; do sleep 0.05; done; "
        f"udrv gpio set -c {CHIP} {LINE}=0; echo status=$?; kill $pid; wait",
        timeout=120,
    )
    assert "status=1" in r.stdout, r.stdout + r.stderr
    assert "is busy: held by consumer 'holder'" in r.stderr


# ---- the mmio backend: registers through /dev/mem, claim through the cdev ----


@pytest.mark.lg_rpi3
def test_mmio_toggle_writes_the_registers(rpi3: Board) -> None:
    """The claim drives 0 and the release writes nothing, so a 1 after an odd
    number of toggles can only come from a store to GPSET0."""
    for n, level in ((1, 1), (2, 0), (3, 1), (2, 0)):
        ok(rpi3, f"gpio toggle -b mmio -c {CHIP} -n {n} {LINE}")
        assert gplev(rpi3, LINE) == level, f"after {n} toggles"


@pytest.mark.lg_rpi3
def test_mmio_get_reads_gplev(rpi3: Board) -> None:
    for reg, value in ((GPSET0, 1), (GPCLR0, 0)):
        rpi3.run(f"devmem {GPIO_BASE + reg:#x} 32 {1 << LINE:#x}")
        got = ok(rpi3, f"gpio get -b mmio -c {CHIP} {LINE}").stdout.strip()
        assert got == f"{LINE}={value}"
        got = ok(rpi3, f"gpio get -b mmio -l -c {CHIP} {LINE}").stdout.strip()
        assert got == f"{LINE}={1 - value}"


def test_mmio_info_names_the_registers(rpi3: Board) -> None:
    chips = ok(rpi3, f"gpio info -b mmio -c {CHIP} --json").json()
    assert chips[0]["mmio"] == {
        "soc": "bcm2837", "device": "3f200000.gpio", "phys": GPIO_BASE, "size": 180,
        "width": 32, "map_path": "/dev/mem", "map_offset": GPIO_BASE,
    }


def test_mmio_refuses_another_chip(rpi3: Board) -> None:
    chips = ok(rpi3, "gpio info -b mmio --json").json()
    others = [c for c in chips if c["label"] != CHIP]
    assert others, "the firmware GPIO expander is missing"
    for chip in others:
        assert "is not the bcm2837's GPIO block" in chip["mmio"]["error"], chip


def test_mmio_refuses_open_drain(rpi3: Board) -> None:
    r = rpi3.run(f"udrv gpio set -b mmio -d open-drain -c {CHIP} {LINE}=1", timeout=60)
    assert r.status == 1, r.stdout + r.stderr
    assert "emulated by the kernel" in r.stderr


@pytest.mark.lg_feature(["qemu"])
def test_mmio_with_strict_dev_mem_names_the_fixes() -> None:
    """Without iomem=relaxed the kernel refuses to map a claimed region: the
    message says why and what to do.  A board of its own."""
    with Board("rpi3", append="iomem=strict", quiet=True) as b:
        r = b.run(f"udrv gpio get -b mmio -c {CHIP} {LINE}", timeout=60)
    assert r.status == 1, r.stdout + r.stderr
    for text in ("EPERM", "IO_STRICT_DEVMEM", "3f200000.gpio", "iomem=relaxed"):
        assert text in r.stderr, r.stderr


@pytest.mark.lg_rpi3
def test_toggle_bench_rows(rpi3: Board) -> None:
    """What the suite's rpi3 part runs (rig/lab/suite/qemu.py), with few samples."""
    run = suite.run_rpi3(rpi3, "quick")
    assert run.failures == [], run.failures
    (doc,) = run.documents
    assert doc["bench"] == "toggle" and doc["board"] == "Raspberry Pi 3 Model B"
    impls = [(row["mechanism"], row["implementation"]) for row in doc["rows"]]
    for row in [("sysfs-shell", "sh"), ("sysfs", "raw"), ("sysfs", "udrv"), ("cdev", "raw"),
                ("cdev", "udrv"), ("cdev", "libgpiod-2.3"), ("mmio", "raw"), ("mmio", "udrv"),
                ("mmio", "udrv-pin")]:
        assert row in impls, impls
    by_impl = {(r["mechanism"], r["implementation"]): r for r in doc["rows"]}
    for impl in ("udrv", "udrv-pin"):
        assert by_impl[("mmio", impl)]["reference"]["implementation"] == "raw"
    for row in doc["rows"]:  # every mechanism's effect was seen in the GPIO block
        assert f"verified: set 1, 0 -> GPLEV0 bit {LINE} read 1, 0" in row["note"], row
    assert all(row["loss"] is None for row in doc["rows"])  # --no-edges: nothing watches
    lab_doc = suite.lab_document([run])
    check_lab(lab_doc)
    assert lab_doc["runs"][0]["board"] == "rpi3"


@pytest.mark.lg_rpi3
def test_toggle_bench_level_check_sees_a_broken_peer(rpi3: Board) -> None:
    """The level check of the libgpiod-2.3 row goes through the peer: a peer
    that drives the other value on 'set' (its --break test switch, added by a
    wrapper) fails the bench, and the row's error names GPLEV0."""
    peer, wrapper = "/usr/libexec/udrv/udrv-bench-peer", "/tmp/peer-broken"
    rpi3.run(f"printf '%s\\n' '#!/bin/sh' 'exec {peer} \"$@\" --break' > {wrapper}; "
             f"chmod +x {wrapper}")
    cmd = f"toggle -c {CHIP} --line {LINE} -q -n 512 --no-edges"
    r = rpi3.run(f"UDRV_BENCH_PEER={wrapper} udrv-bench {cmd}", timeout=300)
    assert r.status == 1, r.stdout + r.stderr
    assert "level check failed on cdev/libgpiod-2.3: set 1, but GPLEV0 bit 17 reads 0" in r.stderr
    r = rpi3.run(f"UDRV_BENCH_PEER={peer} udrv-bench {cmd}", timeout=300)
    assert r.status == 0, r.stderr
    assert "cdev/udrv vs libgpiod-2.3 x" in r.stdout


@pytest.mark.lg_feature(["qemu"])
def test_poweroff_ends_qemu() -> None:
    """No PSCI on raspi3b: the guest's poweroff only ends QEMU through
    bcm2835_wdt's power-off handler and -no-reboot.  A board of its own."""
    with Board("rpi3", quiet=True) as b:
        assert b.modules.get("bcm2835_wdt") == "ok"
        req = b.channel.request("QUIT {id}", time.monotonic() + 30)
        b.channel.read_reply(req, time.monotonic() + 60)
        assert b.proc is not None
        try:
            status = b.proc.wait(120)
        except subprocess.TimeoutExpired:
            pytest.fail(f"QEMU still runs after the guest powered off:\n{b.console_tail(10)}")
        assert status == 0
        assert "reboot: Power down" in b.console()
