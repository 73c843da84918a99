# SPDX-License-Identifier: GPL-2.0-only
"""The module: version, the exceptions, the extension's exported symbols,
real-time helpers and histograms (the rt files of a fake tree)."""

from __future__ import annotations

import enum
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import udrv

from tests.support.fakes import FakeTree, fake_thread, rt_system

ROOT = Path(__file__).resolve().parent.parent.parent


def test_version_is_the_library_s() -> None:
    m = re.search(r"version:\s*'([^']+)'", (ROOT / "meson.build").read_text())
    assert m is not None
    assert udrv.version() == m.group(1) == udrv.__version__


def test_error_hierarchy() -> None:
    assert issubclass(udrv.Error, OSError)
    assert issubclass(udrv.NotFoundError, FileNotFoundError)
    assert issubclass(udrv.PermissionDeniedError, PermissionError)
    assert issubclass(udrv.InvalidError, ValueError)
    for cls in (udrv.NotFoundError, udrv.BusyError, udrv.PermissionDeniedError,
                udrv.InvalidError):
        assert issubclass(cls, udrv.Error)
    e = udrv.BusyError(16, "line 3 is busy")
    assert e.errno == 16 and e.strerror == "line 3 is busy"


def test_only_the_module_init_is_exported() -> None:
    """The extension exports PyInit__udrv and nothing else. The wheel has
    libudrv compiled in with hidden symbols (no clash with a system
    libudrv.so); a distribution's build (-Dlibudrv=system, which its test
    run says with UDRV_PY_LIBUDRV=system) links libudrv.so.1 instead."""
    nm = shutil.which("nm")
    if nm is None:
        pytest.fail("nm (binutils) is needed to check the extension's symbols")
    so = udrv._udrv.__file__
    out = subprocess.run([nm, "-D", "--defined-only", so], capture_output=True, text=True,
                         check=True).stdout
    names = [ln.split()[-1] for ln in out.splitlines() if ln.strip()]
    assert names == ["PyInit__udrv"], names
    ldd = subprocess.run(["ldd", so], capture_output=True, text=True).stdout
    linkage = os.environ.get("UDRV_PY_LIBUDRV", "bundled")
    assert linkage in ("bundled", "system"), f"UDRV_PY_LIBUDRV={linkage}: bundled or system"
    assert ("libudrv.so.1 =>" in ldd) == (linkage == "system"), ldd


def test_backend_is_the_library_s() -> None:
    """udrv.Backend is a copy of the library's registry (lib/gpio/backends.c):
    the same names, each member's value its index there."""
    names = udrv._udrv.BACKEND_NAMES
    assert [m.name.lower() for m in udrv.Backend] == list(names)
    assert [m.value for m in udrv.Backend] == list(range(len(names)))
    assert {"cdev", "sysfs", "mmio"} <= set(names)


def test_public_names_have_docstrings() -> None:
    """Every public name, and every public method and property of the
    classes, also those of the C types under the package's classes."""
    missing = []
    for name in udrv.__all__:
        obj = getattr(udrv, name)
        if not callable(obj):
            continue
        if not obj.__doc__:
            missing.append(name)
        if not isinstance(obj, type) or issubclass(obj, BaseException):
            continue
        for cls in obj.__mro__:
            if cls in (object, tuple, int, enum.IntEnum, enum.Enum) or \
                    cls.__module__ == "builtins":
                continue
            for attr, member in vars(cls).items():
                if attr.startswith("_") or not (callable(member) or
                                                 hasattr(member, "__get__")):
                    continue
                if not getattr(member, "__doc__", None) and not isinstance(member, int):
                    missing.append(f"{name}.{attr}")
    assert missing == []


# ---- rt ----



def test_rt_check_reads_the_system(tree: FakeTree) -> None:
    rt_system(tree)
    r = udrv.rt_check()
    assert r.realtime and r.preempt_model == "PREEMPT_RT"
    assert r.release == "6.1.0-test"
    assert (r.rt_runtime_us, r.rt_period_us) == (950000, 1000000)
    assert r.governor == "performance" and r.clocksource == "tsc"
    assert all(isinstance(f, udrv.RtFinding) and isinstance(f.level, udrv.RtLevel)
               for f in r.findings)
    assert all(f.level is not udrv.RtLevel.WARN for f in r.findings), r.findings


def test_rt_check_warns_and_checks_priority(tree: FakeTree) -> None:
    rt_system(tree, clocksource="jiffies")
    fake_thread(tree, 142, "irq/24-udrv", 50)
    r = udrv.rt_check(priority=80, prefixes=["irq/24-"])
    levels = {f.topic: f.level for f in r.findings}
    assert levels["clocksource"] is udrv.RtLevel.WARN
    assert levels["priority"] is udrv.RtLevel.WARN
    text = next(f.text for f in r.findings if f.topic == "priority")
    assert "irq/24-udrv, FIFO 50" in text
    with pytest.raises(udrv.InvalidError):
        udrv.rt_check(priority=0)


def test_rt_threads(tree: FakeTree) -> None:
    fake_thread(tree, 142, "irq/24-udrv", 50)
    fake_thread(tree, 7, "irq/9-acpi", 50)
    fake_thread(tree, 115, "uio-ticker", 40)
    assert udrv.rt_threads("irq/24-") == [udrv.RtThread(142, "irq/24-udrv", 1, 50)]
    assert sorted(t.pid for t in udrv.rt_threads("irq/")) == [7, 142]
    with pytest.raises(udrv.InvalidError):
        udrv.rt_threads("")


def test_rt_threads_names_need_not_be_utf8(tree: FakeTree) -> None:
    """A thread's name is bytes (prctl PR_SET_NAME); rt_threads() and the
    report raised UnicodeDecodeError on one that is not UTF-8."""
    rt_system(tree)
    fake_thread(tree, 142, "irq/24-udrv", 50)
    tree.path("proc/142/comm").write_bytes(b"irq/24-\xff\xfe\n")
    assert udrv.rt_threads("irq/24-") == [udrv.RtThread(142, os.fsdecode(b"irq/24-\xff\xfe"),
                                                         1, 50)]
    r = udrv.rt_check(priority=80)
    text = next(f.text for f in r.findings if f.topic == "priority")
    assert os.fsdecode(b"irq/24-\xff\xfe") in text


def test_a_process_called_irq_is_no_irq_thread(tree: FakeTree) -> None:
    """The report counts the kernel's irq threads (PF_KTHREAD), not a
    process that took the name irq/N-x."""
    rt_system(tree)
    fake_thread(tree, 142, "irq/24-udrv", 50)
    fake_thread(tree, 4000, "irq/99-mine", 99, kernel=False)
    r = udrv.rt_check()
    assert (r.irq_threads, r.irq_thread_prio_min, r.irq_thread_prio_max) == (1, 50, 50)
    assert len(udrv.rt_threads("irq/")) == 2  # by name: both


def test_rt_find_irq_not_found(tree: FakeTree) -> None:
    tree.dir("sys/kernel/irq")
    with pytest.raises(udrv.NotFoundError, match="no interrupt has a handler"):
        udrv.rt_find_irq("udrv", 3)


def test_rt_handle_state_and_errors(tree: FakeTree) -> None:
    with udrv.Rt() as rt:
        st = rt.state
        assert isinstance(st, udrv.RtState)
        assert st.dma_latency_us == -1
        rt.set_scheduler(udrv.Policy.OTHER, 0)
        assert rt.state.policy == os.SCHED_OTHER
        with pytest.raises(udrv.InvalidError):
            rt.set_scheduler(udrv.Policy.FIFO, 200)
        with pytest.raises(udrv.InvalidError):
            rt.lock_memory(1 << 30)
        with pytest.raises(udrv.Error):  # no dev/cpu_dma_latency in the fake tree
            rt.hold_dma_latency(0)
        with pytest.raises(udrv.Error):
            rt.set_cpu(100000)
    with pytest.raises(ValueError, match="is released"):
        rt.set_cpu(0)


# ---- histograms ----


def test_histogram() -> None:
    h = udrv.Histogram()
    for ns in range(1, 1001):
        h.record(ns * 1000)
    assert h.count == 1000 and h.min == 1000 and h.max == 1_000_000
    assert abs(h.mean - 500_500) < 1
    assert 495_000 <= h.percentile(50) <= 505_000
    assert h.percentile(100) == 1_000_000
    assert sum(c for _, _, c in h.buckets()) == 1000
    d = h.to_dict()
    assert set(d) == {"count", "min", "avg", "max", "stddev", "p50", "p90", "p99", "p99_9",
                      "p99_99", "overflow", "buckets"}
    h.record(1 << 40)
    assert h.overflow == 1
    other = udrv.Histogram()
    other.record(5)
    h.merge(other)
    assert h.count == 1002 and h.min == 5
    with pytest.raises(TypeError):
        h.merge(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        h.percentile(0)
    with pytest.raises(OverflowError):
        h.record(-1)
    h.reset()
    assert h.count == 0 and list(h.buckets()) == [] and h.to_dict()["p99"] == 0
