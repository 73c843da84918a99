# SPDX-License-Identifier: GPL-2.0-only
"""The tables `make lab` prints (rig.results.text), on made-up documents: the
toggle rate with its "x1.010 vs raw" and the peer's ratio, the latency,
responder, rate capacity and UIO-vs-VFIO tables, and the same as Markdown."""

from __future__ import annotations

from typing import Any

from rig.bench.base import RATE_PRIORITY
from rig.bench.pci import spec as pci_spec
from rig.bench.rate import spec as rate_spec
from rig.bench.reply import spec as reply_spec
from rig.bench.toggle import spec as toggle_spec
from rig.lab.suite import qemu as suite
from rig.results import text
from tests.support.results_docs import bench_doc, ref, row, spread, stats, suite_table


def toggle_doc(udrv: int = 101, peer: int | None = None) -> dict[str, Any]:
    rows = [row("cdev", "raw", "toggle", stats([100, 100, 101]), rate_per_s=9.9e6),
            row("cdev", "udrv", "toggle", stats([udrv]), rate_per_s=9.8e6,
                reference=ref("cdev", "raw", 1.01))]
    if peer is not None:
        rows.append(row("cdev", "libgpiod-2.3", "toggle", stats([peer]), rate_per_s=9.7e6))
    return bench_doc("toggle", rows)


def test_toggle_and_latency_tables() -> None:
    runs = [suite.SuiteRun("std", "none", [toggle_doc()]),
            suite.SuiteRun("rt", "none", [toggle_doc()])]
    toggle = suite_table(toggle_spec.toggle_table, runs)
    assert toggle[0].startswith("Toggle rate")
    assert any("cdev" in line and "x1.010 vs raw" in line for line in toggle)
    assert suite_table(text.latency_table, runs)[0].startswith("Latency")


def test_the_ratio_label_is_coded_once() -> None:
    """The suite's "x1.010 vs raw" and the report's "\u00d71.010 vs raw" are one
    function; another mechanism's reference is named (bench pci's VFIO vs UIO)."""
    from rig.results import model

    [r] = [x for x in model(toggle_doc(), "t").runs[0].rows if x.reference]
    assert text.ratio_label(r) == "x1.010 vs raw"
    assert text.ratio_label(r, "\u00d7") == "\u00d71.010 vs raw"
    from dataclasses import replace
    other = replace(r, reference=ref("uio-intx", "udrv", 0.98))
    assert text.ratio_label(other) == "x0.980 vs uio-intx/udrv"


def test_toggle_table_compares_with_the_peer_and_points_to_the_pin() -> None:
    """udrv / libgpiod-2.3 from the two rows of one run, per kernel; without
    the peer's row no such line (never a ratio made up); with an mmio
    udrv-pin row, the line that points to udrv_mmio_pin_write()."""
    def run(kernel: str, udrv: int, peer: int | None) -> suite.SuiteRun:
        return suite.SuiteRun(kernel, "none", [toggle_doc(udrv, peer)])

    lines = suite_table(toggle_spec.toggle_table, [run("std", 97, 100), run("rt", 102, 100)])
    assert "cdev udrv vs libgpiod-2.3 (same line, same run): x0.970 std, x1.020 rt" in lines
    assert not any("udrv_mmio_pin_write" in line for line in lines)
    lines = suite_table(toggle_spec.toggle_table, [run("std", 97, None)])
    assert not any("vs libgpiod-2.3" in line for line in lines)
    pinned = run("std", 97, 100)
    pinned.documents[0]["rows"] += [row("mmio", "raw", "toggle", stats([3])),
                                    row("mmio", "udrv-pin", "toggle", stats([3]))]
    assert any("udrv_mmio_pin_write()" in line
               for line in suite_table(toggle_spec.toggle_table, [pinned]))


def broker_doc(udrvd_ns: int) -> dict[str, Any]:
    """udrv-bench toggle with the broker rows (and the plain ones, which the
    broker table leaves to the toggle table)."""
    rows = [row("sysfs", "raw", "toggle", stats([90])),
            row("cdev", "raw", "toggle", stats([100])),
            row("cdev", "udrv", "toggle", stats([101]), reference=ref("cdev", "raw", 1.01)),
            row("cdev", "udrvd-fd", "toggle", stats([100]), reference=ref("cdev", "raw", 1.0)),
            row("dbus", "gpio-manager", "toggle", stats([400000])),
            row("dbus", "udrvd", "toggle", stats([udrvd_ns]),
                reference=ref("dbus", "gpio-manager", udrvd_ns / 400000))]
    return bench_doc("toggle", rows)


def test_broker_table_has_the_broker_runs_only() -> None:
    """The brokers' run (variant udrvd) makes its own table, with each row's
    ratio to its reference; the toggle table keeps to the plain runs, and
    without them there is none."""
    runs = [suite.SuiteRun("std", "none", [broker_doc(200000)], variant=toggle_spec.BROKER_VARIANT),
            suite.SuiteRun("rt", "none", [broker_doc(480000)], variant=toggle_spec.BROKER_VARIANT)]
    lines = suite_table(toggle_spec.broker_table, runs)
    assert lines[0].startswith("Brokers on the x86 board")
    assert [ln.split()[:2] for ln in lines[2:6]] == [["cdev", "raw"], ["cdev", "udrvd-fd"],
                                                     ["dbus", "gpio-manager"], ["dbus", "udrvd"]]
    assert "x0.500 vs gpio-manager" in lines[5] and "x1.200 vs gpio-manager" in lines[5]
    from rig.results import model

    doc = suite.lab_document(runs)
    names = [t.title[0].split(" (")[0] for t in text.tables(model(doc, "t"))]
    assert names == ["Brokers on the x86 board: a line held by udrvd or libgpiod's gpio-manager, "
                     "same line, same run"]


def reply_doc(p50_us: float) -> dict[str, Any]:
    rows = []
    for i, (impl, wait) in enumerate(reply_spec.REPLY_ROWS):
        p50 = int((p50_us + i) * 1000)
        rows.append(row("gpio", impl, "trigger_to_reply", spread(p50, p50 + 500, p50 + 1000),
                        wait))
    return bench_doc("reply", rows)


def test_responder_table() -> None:
    runs = [suite.SuiteRun("std", "none", [reply_doc(2.0)]),
            suite.SuiteRun("std", "all", [reply_doc(3.0)]),
            suite.SuiteRun("rt", "none", [reply_doc(10.0)])]
    lines = suite_table(reply_spec.reply_table, runs)
    assert "std idle" in lines[1] and "std all" in lines[1] and "rt idle" in lines[1]
    assert "rt all" not in lines[1]
    body = lines[2:]
    assert [line.split()[:2] for line in body] == [
        ["isr", "-"], ["kthread", "-"], ["user", "read"], ["user", "poll"],
        ["user", "epoll"], ["user", "busy"], ["lib", "read"], ["lib", "busy"], ["lib", "irq"],
        ["lib", "irq-reply"]]
    assert body[0].split()[2:] == ["2.0/2.5/3.0", "3.0/3.5/4.0", "10.0/10.5/11.0"]
    assert body[5].split()[2:] == ["7.0/7.5/8.0", "8.0/8.5/9.0", "15.0/15.5/16.0"]


def test_latency_table_leaves_reply_to_its_own_table() -> None:
    lines = suite_table(text.latency_table, [suite.SuiteRun("std", "none", [reply_doc(2.0)])])
    assert not any("trigger_to_reply" in line for line in lines)


def test_priority_axis_columns() -> None:
    """The rt variants (the priority axis) come after the plain columns."""
    assert "reply" in suite.PRIORITY_BENCHES
    assert tuple(suite.PRIORITY) == text.PRIORITY_VARIANTS  # the suite runs what is printed
    runs = [suite.SuiteRun("rt", "none", [reply_doc(20.0)]),
            suite.SuiteRun("rt", "none", [reply_doc(10.0)], variant="irq-prio 90"),
            suite.SuiteRun("rt", "none", [reply_doc(9.0)], variant="SCHED_OTHER")]
    lines = suite_table(reply_spec.reply_table, runs)
    assert lines[1].split()[2:] == ["rt", "idle", "rt", "irq-prio", "90", "rt", "SCHED_OTHER"]
    assert lines[4].split()[2:] == ["22.0/22.5/23.0", "12.0/12.5/13.0", "11.0/11.5/12.0"]


def capacity(mech: str, impl: str, knee: float | None, measured: bool = True) -> dict:
    return {"mechanism": mech, "implementation": impl, "measured": measured,
            "knee_per_s": knee, "cpu_pct_at_knee": None if knee is None else 12.5,
            "throughput_per_s": 90000.0 if measured else None,
            "ns_per_event": 5600.0 if measured else None,
            "ratio_vs_raw": 1.0 if impl == "raw" else (1.09 if measured else None),
            "ratio_at_per_s": 20000 if measured else None, "note": None}


def rate_doc() -> dict[str, Any]:
    return bench_doc("rate", [row("cdev", "raw", "event_to_wake", stats([5000]))],
                     rate={"step_duration_ns": 10**9, "rates": [], "steps": [],
                           "capacity": [capacity("cdev", "raw", 49945.2),
                                        capacity("cdev", "udrv", None),
                                        capacity("cdev", "libgpiod-2.3", None, measured=False)]})


def test_rate_table() -> None:
    lines = suite_table(rate_spec.text_table, [suite.SuiteRun("std", "all", [rate_doc()])])
    assert "knee" in lines[0]
    assert lines[3].split() == ["std", "all", "cdev", "raw", "49945", "12.5", "90000",
                                "5600", "x1.00", "20000"]
    assert lines[4].split()[4:6] == ["-", "-"]
    assert lines[5].split()[-1] == "absent"
    # the irq-prio 90 run of the priority axis is, named so; other variants not
    prio = suite_table(rate_spec.text_table, [suite.SuiteRun("rt", "none", [rate_doc()],
                                                        variant=RATE_PRIORITY)])
    assert prio[3].split()[:2] == ["rt", "irq-prio-90"]
    assert suite_table(rate_spec.text_table, [suite.SuiteRun("rt", "none", [rate_doc()],
                                                        variant="SCHED_OTHER")]) == lines[:3]


def pci_doc(p50_us: float, raw: bool = False) -> dict[str, Any]:
    rows = []
    for i, mech in enumerate(pci_spec.MECHANISMS):
        for j, sample in enumerate(pci_spec.SAMPLES):
            p50 = int((p50_us + i + 10 * j) * 1000)
            reference = None
            if i:
                reference = ref("uio-intx", "udrv", 1.0, p50 / ((p50_us + 10 * j) * 1000))
            rows.append(row(mech, "udrv", sample, spread(p50, p50 + 500, p50 + 1000),
                            None if j else ("read" if i == 0 else "poll"),
                            reference=reference))
            if raw and i and j:
                rows.append(row(mech, "raw", "write_to_wake", spread(1500, 1600, 1700), "read",
                                reference=ref(mech, "udrv", 0.5)))
    return bench_doc("pci", rows)


def test_pci_table() -> None:
    runs = [suite.SuiteRun("std", "none", [pci_doc(2.0)], board="q35"),
            suite.SuiteRun("std", "all", [pci_doc(3.0)], board="q35"),
            suite.SuiteRun("rt", "none", [pci_doc(20.0)], board="q35"),
            suite.SuiteRun("std", "none", [pci_doc(99.0)])]  # x86: not in this table
    lines = suite_table(pci_spec.text_table, runs)
    assert lines[2].split()[2:] == ["std", "idle", "std", "all", "rt", "idle"]
    body = [line.split() for line in lines[3:]]
    assert [b[:2] for b in body] == [[m, s] for m in pci_spec.MECHANISMS for s in pci_spec.SAMPLES]
    assert body[0][2:] == ["2.0/2.5/3.0", "3.0/3.5/4.0", "20.0/20.5/21.0"]
    assert body[2][2:] == ["3.0/3.5/4.0", "x1.50", "4.0/4.5/5.0", "x1.33",
                           "21.0/21.5/22.0", "x1.05"]
    assert body[5][2:6] == ["14.0/14.5/15.0", "x1.17", "15.0/15.5/16.0", "x1.15"]
    # the variant is the last column
    runs = [suite.SuiteRun("rt", "none", [pci_doc(8.0)], board="q35", variant="irq-prio 90"),
            suite.SuiteRun("rt", "none", [pci_doc(20.0)], board="q35")]
    lines = suite_table(pci_spec.text_table, runs)
    assert lines[2].split()[2:] == ["rt", "idle", "rt", "irq-prio", "90"]
    assert lines[3].split()[2:] == ["20.0/20.5/21.0", "8.0/8.5/9.0"]


def test_pci_table_with_a_path_missing_and_raw_rows() -> None:
    doc = pci_doc(2.0)
    doc["rows"] = [r for r in doc["rows"] if r["mechanism"] != "vfio-intx"]
    lines = suite_table(pci_spec.text_table, [suite.SuiteRun("std", "none", [doc], board="q35")])
    assert lines[5].split() == ["vfio-intx", "write_to_wake", "-"]
    body = [line.split() for line in suite_table(
        pci_spec.text_table, [suite.SuiteRun("std", "none", [pci_doc(2.0, raw=True)],
                                        board="q35")])[3:]]
    assert [b[0] for b in body] == ["uio-intx"] * 2 + ["vfio-intx"] * 3 + ["vfio-msi"] * 3
    assert body[2][2:] == ["3.0/3.5/4.0", "x1.50"]  # udrv's, not the raw row's
    assert body[4] == ["vfio-intx", "raw", "read()", "1.5/1.6/1.7", "x0.50"]
    assert body[7] == ["vfio-msi", "raw", "read()", "1.5/1.6/1.7", "x0.50"]


def test_markdown_is_the_same_table() -> None:
    """Each text row is a Markdown row with the same cells: docs tables are
    generated from a results file, never copied by hand."""
    from rig.results import model

    results = model(suite.lab_document([suite.SuiteRun("std", "none", [reply_doc(2.0)])]), "x")
    [t] = text.tables(results)
    md = text.markdown(t)
    assert md[0] == f"#### {t.title[0]}"
    rows = [line for line in md if line.startswith("| ")][1:]
    assert [[c.strip() for c in r.strip("|").split("|")] for r in rows] == t.rows
    assert text.render(t)[2].split()[:2] == ["isr", "-"]
