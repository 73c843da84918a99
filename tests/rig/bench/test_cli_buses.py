# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench i2c and spi on the fake i2c-dev and spidev of tests/cli (a
register file at 0x50, a loopback): the rows in turns, the document valid,
and the check that a call did its work: a bus that returns nothing, a
device that is no loopback, each ends the bench with exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rig.results import check
from tests.support.bus_fakes import i2c_bus, spidev
from tests.support.fakes import FakeTree
from tests.support.udrv_runner import REPO, Runner

QUIET = ("--no-mlock", "--no-dma-latency", "-q", "--samples", "20", "--batch", "4")
TOOLS = REPO / "build" / "dev" / "tools"


def _path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, i2cget: str | None) -> None:
    """PATH: udrv (build/dev/tools), and an i2cget (a script: @i2cget its
    body) or none."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if i2cget is not None:
        script = bin_dir / "i2cget"
        script.write_text(f"#!/bin/sh\n{i2cget}\n")
        script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{TOOLS}:/usr/bin:/bin")


def _doc(bench: Runner, tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "doc.json"
    r = bench(*args, *QUIET, "--out", str(out))
    assert r.returncode == 0, r
    doc = json.loads(out.read_text())
    check.check(doc)
    return doc


def _rows(doc: dict) -> list[tuple[str, str, int, int | None]]:
    return [(r["mechanism"], r["implementation"], r["stats"]["count"],
             r["reference"] and r["reference"]["implementation"]) for r in doc["rows"]]


def test_i2c_rows_in_turns(bench: Runner, tree: FakeTree, monkeypatch: pytest.MonkeyPatch,
                           tmp_path: Path) -> None:
    i2c_bus(tree, monkeypatch)
    doc = _doc(bench, tmp_path, "i2c", "--bus", "1", "--no-commands")
    # the SMBus rows also through i2c-tools' libi2c (libi2c-dev: scripts/install-deps
    # --check), whose 32-byte I2C block read is i2c-dev's old size, I2C_SMBUS_I2C_BLOCK_BROKEN
    smbus_impls = ("raw", "udrv", "libi2c")
    assert _rows(doc) == [(m, impl, 20, None if impl == "raw" else "raw")
                          for m in ("byte-data", "word-data", "i2c-block", "rdwr")
                          for impl in (smbus_impls if m != "rdwr" else ("raw", "udrv"))]
    assert doc["i2c"]["adapter"] == "SMBus I801 adapter at f040" and doc["i2c"]["batch"] == 4
    # counted at the source: the fake's log has each transaction the rows say
    # (the 64 registers read once the row's way, then a warm-up batch and
    # 20 batches of 4 for each implementation)
    ops = tree.path("dev/i2c-1.log").read_text().splitlines()
    for op in ("read-byte-data", "read-word-data", "read-i2c-block-data"):
        assert ops.count(f"{op} 0x50") == 64 + 3 * (1 + 20) * 4, op
    assert ops.count("rdwr-read 0x50") == 64 + 2 * (1 + 20) * 4


def test_i2c_a_read_that_returns_nothing_fails(bench: Runner, tree: FakeTree,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    i2c_bus(tree, monkeypatch)
    tree.path("dev/i2c-1.lazy").write_text("")
    r = bench("i2c", "--bus", "1", *QUIET)
    assert r.returncode == 1 and "read a wrong value" in r.stderr, r


def test_i2c_no_device(bench: Runner, tree: FakeTree, monkeypatch: pytest.MonkeyPatch) -> None:
    i2c_bus(tree, monkeypatch)
    r = bench("i2c", "--bus", "1", "--address", "0x51", *QUIET)
    assert r.returncode == 1 and "at 0x51: No such device or address" in r.stderr, r
    assert "udrv i2c detect 1" in r.stderr
    r = bench("i2c", *QUIET)  # no i2c-stub
    assert r.returncode == 1 and "modprobe i2c-stub" in r.stderr, r


def test_spi_rows_in_turns(bench: Runner, tree: FakeTree, monkeypatch: pytest.MonkeyPatch,
                           tmp_path: Path) -> None:
    spidev(tree, monkeypatch, ((0, 1, "spi-loopback"),))
    doc = _doc(bench, tmp_path, "spi")  # the only device
    assert _rows(doc) == [(m, impl, 20, None if impl == "raw" else "raw")
                          for m in ("xfer-3", "xfer-32", "message-2")
                          for impl in ("raw", "udrv")]
    assert doc["spi"]["checked"] is True
    xfers = tree.path("dev/spidev0.1.log").read_text().splitlines()
    assert xfers.count("xfer 3") == 2 * 21 * 4 and xfers.count("xfer 4") == 2 * 21 * 4


def test_spi_not_a_loopback_fails(bench: Runner, tree: FakeTree,
                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    spidev(tree, monkeypatch, ((0, 1, "spi-loopback"), (1, 0, "spidev")))
    tree.path("dev/spidev0.1.stuck").write_text("")
    r = bench("spi", "--device", "spi-loopback", *QUIET)
    assert r.returncode == 1 and "not those sent" in r.stderr and "--no-check" in r.stderr, r
    doc = _doc(bench, tmp_path, "spi", "--device", "0.1", "--no-check")
    assert doc["spi"]["checked"] is False
    r = bench("spi", *QUIET)
    assert r.returncode == 1 and "several spidev devices" in r.stderr, r


@pytest.mark.parametrize(("args", "says"), [
    (("i2c", "--address", "0x78"), "bad --address '0x78'"),
    (("i2c", "--address", "2"), "bad --address '2'"),
    (("i2c", "--batch", "0"), "bad --batch '0'"),
    (("i2c", "--bus", ""), "bad --bus ''"),
    (("spi", "--batch", "18446744073709551616"), "bad --batch"),
    (("spi", "--device", ""), "bad --device ''"),
    (("spi", "extra"), "unexpected argument 'extra'"),
])
def test_bad_options_exit_2(bench: Runner, args: tuple[str, ...], says: str) -> None:
    r = bench(*args)
    assert r.returncode == 2 and says in r.stderr, r


def test_i2c_command_rows(bench: Runner, tree: FakeTree, monkeypatch: pytest.MonkeyPatch,
                          tmp_path: Path) -> None:
    """i2cget against udrv i2c get, a process each sample (here an i2cget
    that is udrv: the lab has i2c-tools'), each one's output checked."""
    i2c_bus(tree, monkeypatch)
    _path(monkeypatch, tmp_path, '[ "$1" = -y ] && shift; exec udrv i2c get "$@"')
    doc = _doc(bench, tmp_path, "i2c", "--bus", "1")
    assert _rows(doc)[-2:] == [("command", "i2cget", 20, None), ("command", "udrv", 20, "i2cget")]
    ops = tree.path("dev/i2c-1.log").read_text().splitlines()
    # the bench's own reads, then one read of register 0x10 a process (a
    # warm-up and 20 samples each)
    assert ops.count("read-byte-data 0x50") == 64 + 3 * 21 * 4 + 2 * 21


def test_i2c_command_rows_check_the_output(bench: Runner, tree: FakeTree,
                                           monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    i2c_bus(tree, monkeypatch)
    _path(monkeypatch, tmp_path, "echo 0x00")
    r = bench("i2c", "--bus", "1", *QUIET)
    assert r.returncode == 1 and "printed 0x00" in r.stderr and "a wrong value" in r.stderr, r


def test_i2c_no_i2cget_no_command_rows(bench: Runner, tree: FakeTree,
                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    i2c_bus(tree, monkeypatch)
    _path(monkeypatch, tmp_path, None)
    out = tmp_path / "doc.json"
    r = bench("i2c", "--bus", "1", *QUIET, "--out", str(out))
    assert r.returncode == 0 and "apt install i2c-tools" in r.stderr, r
    assert "command" not in {row["mechanism"] for row in json.loads(out.read_text())["rows"]}
