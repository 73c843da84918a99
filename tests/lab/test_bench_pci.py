# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench pci on the q35 board (std): edu's raise-register write through
UIO INTx, VFIO INTx and VFIO MSI, and the binding put back.

Checked: the document validates (results_schema), the eight rows in order
(each VFIO path also through a bare read() of its eventfd: the raw row),
loss (sent = raise writes = received, nothing lost) and one sample per
interrupt, udrv's VFIO rows name the UIO row of the run as their reference
and the raw rows udrv's row of their path,
the irq of each path, edu bound as before at the end (also when it was
unbound before), and what breaks on purpose is seen: an MSI that never
arrives (bus mastering turned off under the bench in the guest: QEMU then
drops edu's MSI write) ends the bench with the watchdog's error and the
binding restored; an interrupt another process raises is seen by the
status check; SIGTERM or SIGINT in the VFIO phase writes the rows so
far and restores the binding.
"""

from __future__ import annotations

import json
import re
import signal
from typing import Any

import pytest
from background import Background, guest_ok
from guest import bench_ok, ok, sh, udrv_bench

from rig.results.check import check_bench

pytestmark = pytest.mark.lg_feature(["iommu", "edu"])

SAMPLES = 100
EDU = "0000:00:01.0"
SYSFS = f"/sys/bus/pci/devices/{EDU}"
ROWS = [("uio-intx", "udrv", "read", "write_to_wake"), ("uio-intx", "udrv", None, "rearm")] + [
    row for m in ("vfio-intx", "vfio-msi")
    for row in ((m, "udrv", "poll", "write_to_wake"), (m, "udrv", None, "rearm"),
                (m, "raw", "read", "write_to_wake"))]


def driver(board: Any) -> str:
    r = sh(board, f"basename $(readlink {SYSFS}/driver) 2>/dev/null")
    return r.stdout.strip()


def key(row: dict[str, Any]) -> tuple[str, str | None, str]:
    return (row["mechanism"], row["wait"], row["sample"])


@pytest.fixture(scope="module")
def pci_run(board_std_q35: Any) -> tuple[dict[str, Any], str, str]:
    """One run of all three paths: (document, driver before, driver after)."""
    before = driver(board_std_q35)
    doc = bench_ok(board_std_q35, f"pci --json --quiet -n {SAMPLES}", timeout=600).json()
    return doc, before, driver(board_std_q35)


def test_document_validates(pci_run):
    doc = pci_run[0]
    check_bench(doc)
    assert doc["bench"] == "pci"
    assert doc["rt"]["policy"] == "SCHED_FIFO" and doc["rt"]["priority"] == 80


def test_all_rows_in_order(pci_run):
    rows = pci_run[0]["rows"]
    assert [(r["mechanism"], r["implementation"], r["wait"], r["sample"]) for r in rows] == ROWS


def test_loss_and_counts(pci_run):
    for row in pci_run[0]["rows"]:
        assert row["stats"]["count"] == SAMPLES, key(row)
        if row["sample"] == "write_to_wake":
            assert row["loss"] == {"sent": SAMPLES, "received": SAMPLES, "lost": 0}, key(row)
        else:
            assert row["loss"] is None, key(row)


def test_vfio_rows_reference_uio(pci_run):
    rows = pci_run[0]["rows"]
    assert rows[0]["reference"] is None and rows[1]["reference"] is None
    for row in rows[2:]:
        ref = row["reference"]
        want = ("uio-intx", "udrv") if row["implementation"] == "udrv" \
            else (row["mechanism"], "udrv")
        assert (ref["mechanism"], ref["implementation"]) == want, key(row)
        assert ref["ratio_p50"] > 0 and ref["ratio_avg"] > 0, key(row)


def test_irq_and_binding_restored(pci_run):
    doc, before, after = pci_run
    pci = doc["pci"]
    assert pci["device"] == EDU
    assert before == "uio_pci_generic" and after == before
    assert pci["driver_before"] == before and pci["driver_after"] == before
    assert set(pci["irq"]) == {"uio-intx", "vfio-intx", "vfio-msi"}
    # INTx is the same line through both drivers; MSI a vector of its own
    assert pci["irq"]["uio-intx"] == pci["irq"]["vfio-intx"] != pci["irq"]["vfio-msi"]


def test_one_path_has_no_reference(board_std_q35):
    doc = bench_ok(board_std_q35, "pci --json -q -n 20 --via vfio-msi --device 00:01.0").json()
    assert [(r["mechanism"], r["implementation"], r["sample"]) for r in doc["rows"]] == \
        [("vfio-msi", "udrv", "write_to_wake"), ("vfio-msi", "udrv", "rearm"),
         ("vfio-msi", "raw", "write_to_wake")]
    assert [r["reference"] is None for r in doc["rows"]] == [True, True, False]
    assert driver(board_std_q35) == "uio_pci_generic"


def test_text_names_the_uio_reference(board_std_q35):
    out = bench_ok(board_std_q35, "pci -q -n 10 --via uio-intx,vfio-msi").stdout
    lines = [line for line in out.splitlines() if line.startswith("vfio-msi/udrv")]
    assert len(lines) == 2 and all(" vs uio-intx/udrv" in line for line in lines), out


def test_trace_on_spike(board_std_q35):
    """--trace-on-spike: every VFIO MSI wake-up takes more than 1 us, so the
    first is the spike; the trace names the vfio-msi hard interrupt in it."""
    doc = bench_ok(board_std_q35, "pci --json -q -n 20 --via vfio-msi "
                            "--trace-on-spike 1 --spike-out /tmp/pci-spike.txt").json()
    check_bench(doc)
    spike = doc["spike"]
    assert spike["sample"]["mechanism"] == "vfio-msi"
    assert spike["sample"]["index"] == 1
    assert "vfio-msi" in sh(board_std_q35, "cat /tmp/pci-spike.txt").stdout
    assert driver(board_std_q35) == "uio_pci_generic"


def test_unbound_before_is_unbound_after(board_std_q35):
    """The binding put back is the one found, whatever it was: here none."""
    ok(board_std_q35, f"pci bind {EDU} ''")
    try:
        assert driver(board_std_q35) == ""
        doc = bench_ok(board_std_q35, "pci --json -q -n 20 --via uio-intx,vfio-msi").json()
        assert doc["pci"]["driver_before"] == "" and doc["pci"]["driver_after"] == ""
        assert driver(board_std_q35) == ""
    finally:
        ok(board_std_q35, f"pci bind {EDU} uio_pci_generic")


def test_bad_options(board_std_q35):
    r = udrv_bench(board_std_q35, "pci --via msi")
    assert r.status == 2 and "bad --via 'msi'" in r.stderr
    r = udrv_bench(board_std_q35, "pci --via vfio-msi,")
    assert r.status == 2, r.stderr
    r = udrv_bench(board_std_q35, "pci --device 00:1f.0 -n 5")
    assert r.status == 1 and "not QEMU's edu" in r.stderr
    r = udrv_bench(board_std_q35, "pci --device 00:09.0 -n 5")
    assert r.status == 1 and "no such PCI device" in r.stderr
    assert driver(board_std_q35) == "uio_pci_generic"


def _start(board: Any, name: str, via: str, out: str) -> Background:
    job = Background(board, name, f"udrv-bench pci --quiet --via {via} -n 100000000 "
                                  f"--out {out}")
    job.wait_for(f"[ \"$(basename $(readlink {SYSFS}/driver))\" = vfio-pci ] && "
                 f"grep -q vfio /proc/interrupts", what="edu on vfio-pci, its irq requested")
    guest_ok(board, "sleep 0.2")  # samples (guest time)
    return job


def test_lost_msi_is_seen_and_the_binding_restored(board_std_q35):
    """Bus mastering off under the bench: edu's MSI write goes nowhere, the wait
    gets nothing, and the watchdog ends the bench instead of a hang."""
    job = _start(board_std_q35, "pci-lost", "vfio-msi", "/tmp/pci-lost.json")
    try:
        # the command register's low byte: memory decoding on, bus master off
        guest_ok(board_std_q35, f"printf '\\002' | dd of={SYSFS}/config bs=1 seek=4 "
                                "conv=notrunc 2>/dev/null")
        end = job.ended(timeout_s=60)
    finally:
        job.kill()
    assert end.status == 1, f"exit {end.status}\n{end.stderr}"
    assert "vfio-msi: no interrupt within 2 s" in end.stderr, end.stderr
    assert driver(board_std_q35) == "uio_pci_generic"


def test_intx_left_masked_is_unmasked(board_std_q35):
    """A previous user killed between an interrupt and its re-arm leaves INTx
    masked (the command register's Interrupt Disable bit): the bench unmasks
    it before its first wait instead of waiting for nothing."""
    guest_ok(board_std_q35, f"printf '\\004' | dd of={SYSFS}/config bs=1 seek=5 "
                            "conv=notrunc 2>/dev/null")
    assert sh(board_std_q35, f"od -An -tx1 -j5 -N1 {SYSFS}/config").stdout.strip() == "04"
    doc = bench_ok(board_std_q35, "pci --json -q -n 10 --via uio-intx").json()
    assert doc["rows"][0]["loss"] == {"sent": 10, "received": 10, "lost": 0}


def test_an_interrupt_nobody_raised_is_seen(board_std_q35):
    """Another process raises edu's interrupt (a bit the bench never uses)
    while the bench runs through UIO: the status check after the wake-up sees
    what the bench did not raise, fails the bench, and the binding stays."""
    job = Background(board_std_q35, "pci-extra",
                     "udrv-bench pci --quiet --via uio-intx -n 100000000")
    try:
        job.wait_for(f"[ -e /proc/{job.pid}/fd ] && ls -l /proc/{job.pid}/fd | grep -q uio0",
                     what="the bench's /dev/uio0 open")
        guest_ok(board_std_q35, "sleep 0.2")
        # SCHED_OTHER: runs in RT throttling's 5% beside the FIFO 80 bench
        guest_ok(board_std_q35, "udrv uio poke uio0 0x60 0x40000000")
        end = job.ended(timeout_s=60)
    finally:
        job.kill()
    assert end.status == 1, f"exit {end.status}\n{end.stderr}"
    assert re.search(r"uio-intx: interrupt status 0x4001[0-9a-f]{4} after raising "
                     r"0x1[0-9a-f]{4}", end.stderr), end.stderr
    assert driver(board_std_q35) == "uio_pci_generic"


@pytest.mark.parametrize(("via", "sig"), [("vfio-intx", signal.SIGTERM),
                                         ("vfio-msi", signal.SIGINT)])
def test_signal_in_the_vfio_phase_restores_the_binding(board_std_q35, via, sig):
    out = f"/tmp/pci-{sig.name}.json"
    job = _start(board_std_q35, f"pci-{sig.name}", via, out)
    try:
        job.signal(sig.name[3:])
        end = job.ended(timeout_s=60)
    finally:
        job.kill()
    assert end.status == 128 + sig, f"exit {end.status}\n{end.stderr}"
    assert f"udrv-bench: pci interrupted by {sig.name}" in end.stderr, end.stderr
    doc = json.loads(guest_ok(board_std_q35, f"cat {out}"))
    check_bench(doc)
    assert doc["interrupted"] == sig.name
    assert [r["mechanism"] for r in doc["rows"]] == [via] * 2
    assert all(r["stats"]["count"] > 0 for r in doc["rows"])
    assert doc["pci"]["driver_after"] == "uio_pci_generic"
    assert driver(board_std_q35) == "uio_pci_generic"
