# SPDX-License-Identifier: GPL-2.0-only
"""QEMU's edu PCI device through uio_pci_generic, driven by examples/edu."""

from __future__ import annotations

import json

import pytest
from guest import Board, ok, sh, udrv

pytestmark = [pytest.mark.lg_feature(["edu"]), pytest.mark.lg_std]


def test_edu_is_a_uio_device(board):
    devices = ok(board, "uio info --json uio_pci_generic").json()
    assert devices[0]["name"] == "uio_pci_generic"
    # Linux 6.1's uio_pci_generic exports BAR 0 (edu: 1 MiB of MMIO) as map 0
    assert devices[0]["maps"][0]["size"] == 1 << 20


def test_peek_ident_and_poke_liveness(board):
    r = ok(board, "uio peek --bar 0 --json uio_pci_generic 0x0").json()
    assert r == [{"offset": 0, "value": 0x010000ED}]
    r = ok(board, "uio peek --map 0 --json uio_pci_generic 0x0").json()
    assert r == [{"offset": 0, "value": 0x010000ED}]
    ok(board, "uio poke --bar 0 uio_pci_generic 0x4 0x12345678")
    r = ok(board, "uio peek --bar 0 --json uio_pci_generic 0x4").json()
    assert r[0]["value"] == 0xEDCBA987


def test_edu_driver_example(board):
    r = sh(board, "udrv-edu --json -n 20")
    assert r.status == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["ok"] is True
    assert out["ident"] == 0x010000ED
    assert out["liveness"] == 0xEDCBA987
    assert out["factorial"][5] == 120 and out["factorial"][10] == 3628800
    assert out["interrupts"] == 20 and out["missed"] == 0
    assert out["raise_to_wake_ns"]["count"] == 20


def test_edu_driver_human_output(board):
    r = sh(board, "udrv-edu -n 3")
    assert r.status == 0, r.stderr
    assert "ident      0x010000ed" in r.stdout
    assert "5! = 120" in r.stdout and "10! = 3628800" in r.stdout
    assert "acknowledged -> INTx re-enabled" in r.stdout


def test_out_of_range_peek(board):
    r = udrv(board, "uio peek --bar 0 uio_pci_generic 0x100000")
    assert r.status == 2
    assert "is beyond" in r.stderr


def test_edu_has_no_irqcontrol_timeout(board):
    # the interrupt stays masked without --pci-unmask after one fires: waiting
    # with nothing raised times out cleanly
    r = udrv(board, "uio wait --timeout 100ms uio_pci_generic")
    assert r.status == 1
    assert "no interrupt within 100 ms" in r.stderr


def _edu_uio(board: Board) -> tuple[str, str]:
    """edu's uioN and its PCI config file (other PCI devices may be on
    uio_pci_generic too, as on the q35 board)."""
    r = sh(board, "for d in /sys/class/uio/uio*; do "
                  "[ \"$(cat $d/device/device 2>/dev/null)\" = 0x11e8 ] && "
                  "echo ${d##*/} && break; done")
    uio = r.stdout.strip()
    assert uio, "no UIO device for edu (1234:11e8)"
    return uio, f"/sys/class/uio/{uio}/device/config"


def _command(board: Board, config: str) -> int:
    r = sh(board, f"od -An -tx1 -j4 -N2 {config}")
    lo, hi = r.stdout.split()
    return int(lo, 16) | int(hi, 16) << 8


def _write_command(board: Board, config: str, cmd: int) -> None:
    """One 16-bit config write, as the kernel writes the command register."""
    octal = f"\\{cmd & 0xff:03o}\\{cmd >> 8:03o}"
    r = sh(board, f"printf '{octal}' | dd of={config} bs=2 seek=2 conv=notrunc 2>/dev/null")
    assert r.status == 0, r.stderr


def test_intx_raised_while_masked_arrives_on_unmask(board):
    """edu raises while INTx is masked (as uio_pci_generic's handler leaves it
    until the user re-arms): udrv's unmask delivers it. QEMU puts a pending
    INTx on the line only on a config write covering byte 4: an unmask that
    wrote the command register's high byte alone cleared the bit and the
    interrupt never came (the flaky test_an_interrupt_nobody_raised_is_seen)."""
    uio, config = _edu_uio(board)
    before = _command(board, config)
    _write_command(board, config, before | 0x400)
    try:
        ok(board, f"uio poke {uio} 0x60 0x1")
        assert _command(board, config) & 0x400, "INTx not masked"
        r = udrv(board, f"uio wait --json --pci-unmask --timeout 1s {uio}")
        assert r.status == 0, r.stderr
        assert json.loads(r.stdout.splitlines()[0])["delta"] == 1, r.stdout
        # uio_pci_generic's handler took it and masked INTx again
        assert _command(board, config) & 0x400
    finally:
        ok(board, f"uio poke {uio} 0x64 0x1")
        _write_command(board, config, before)
