# SPDX-License-Identifier: GPL-2.0-only
"""Property tests of the udrv package on the fake trees: sequences of calls
of the public API with hostile arguments (ints at and beyond every C width,
negative, bools, floats with inf and nan, text with surrogates and NULs,
bytes, None, objects of no expected type) on a chip with served sysfs
exports, a mapped UIO device, a regular file mapped as a Region, layouts,
histograms and the readiness functions.

The property: every call returns, or raises one of the exceptions the
package documents (TypeError, ValueError, OverflowError, BufferError,
udrv.Error), whose message is text (no printf code left in it); never
another exception (SystemError: an error return without an exception), and
never a crash (a crash ends pytest, which the python step counts).

Bounded and the same examples each run (derandomized, no database), so that
a failure repeats: make check runs 40 examples per property, each drawn in
whole before its first call; UDRV_PY_FUZZ_EXAMPLES=N runs N new ones (make
fuzz, N = FUZZ_EXAMPLES). Waits get
only the timeouts 0 or invalid ones: a valid long timeout would just wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import udrv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from tests.support.fakes import FakeTree, GpioExports, uio_fpga_mapped

REPO = Path(__file__).resolve().parents[2]
set_hypothesis_home_dir(str(REPO / "build" / "hypothesis"))  # its caches, not in the tree
EXAMPLES = int(os.environ.get("UDRV_PY_FUZZ_EXAMPLES", "0"))
SETTINGS = settings(max_examples=EXAMPLES or 40, deadline=None, derandomize=not EXAMPLES,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])

ALLOWED = (TypeError, ValueError, OverflowError, BufferError, udrv.Error)
# a printf conversion left in a message (PyErr_Format of 3.11 has no %zx)
PRINTF = re.compile(r"%[-#0-9.]*(?:z|ll|l|h|j|t)?[diouxXscpRSAUV]")

EDGES = [0, 1, -1, 2, 3, 7, 8, 63, 64, 255, 256, 4095, 4096, 65535, 65536, 2**31 - 1, 2**31,
         -(2**31), -(2**31) - 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1,
         2**64 - 1, 2**64, 2**64 + 4096, 2**65, -(2**64), 10**30]
ints = st.sampled_from(EDGES) | st.integers(-(2**70), 2**70) | st.integers(0, 300)
floats = st.floats() | st.sampled_from([math.inf, -math.inf, math.nan, -0.0, 1e12, 1e13])
texts = st.text(alphabet=st.characters(blacklist_characters="%"), max_size=8) | st.sampled_from(
    ["", "\0", "\ud800", "gpiochip0", "fake-wire", "0", "uio0", "fpga", "/dev/uio0", "..",
     "irq/", "base=0x1000,data=0x0", "map=/nonexistent"])
anything = (ints | floats | texts | st.none() | st.booleans() | st.binary(max_size=4)
            | st.just(object()) | st.just(()) | st.just([]) | st.just({}))


def arg(good: st.SearchStrategy[Any],
        bad: st.SearchStrategy[Any] = anything) -> st.SearchStrategy[Any]:
    """Mostly a plausible argument (the calls behind it are reached), else a
    hostile one."""
    return st.one_of(good, good, bad)


def timeout_of(x: Any) -> Any:
    """A wait's timeout: hostile ones kept, a valid one (None too: forever)
    made 0, so that no example waits."""
    if x is None or isinstance(x, bool):
        return 0
    if isinstance(x, (int, float)):
        try:
            if 0 <= x <= 1e12:
                return 0
        except OverflowError:
            return x
    return x


def check(call: Callable[..., object], *args: Any) -> object:
    """call(*args) returns, or raises a documented exception with a text
    message."""
    try:
        return call(*args)
    except ALLOWED as e:
        msg = str(e)
        assert not PRINTF.search(msg), f"printf code in {type(e).__name__}: {msg!r}"
        return None


@pytest.fixture
def world(tree: FakeTree, exports: GpioExports, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The fake machine: gpiochip0 (exports served), uio0 "fpga" mapped, an
    8 KiB regular file."""
    uio_fpga_mapped(tree, version="1.2")
    tree.dir("proc/self")
    f = tmp_path / "file"
    f.write_bytes(bytes(range(256)) * 32)
    yield {"tree": tree, "exports": exports, "file": f}


# Every example draws its whole plan before the first call: what a call
# returns (a request the served exports refused under load) must not change
# what is drawn, or hypothesis could not replay an example.
offsets = st.integers(-8, 300) | st.integers(0, 2**17)
region_plan = st.tuples(
    st.lists(st.tuples(st.booleans(), st.sampled_from([8, 16, 32, 64]),
                       arg(offsets, ints | anything),
                       arg(st.integers(0, 2**64 - 1), ints | anything)),
             max_size=6),
    st.booleans())


def region_ops(r: udrv.Region, plan: tuple[list[tuple[bool, int, Any, Any]], bool]) -> None:
    accesses, view = plan
    for read, width, off, val in accesses:
        if read:
            check(getattr(r, f"read{width}"), off)
        else:
            check(getattr(r, f"write{width}"), off, val)
    if view:
        with r.mem as mem:
            assert len(mem) == r.size
            check(r.unmap)  # refused while the view lives: BufferError
    check(r.unmap)
    check(r.read8, 0)  # released: ValueError


@SETTINGS
@given(path=st.booleans(), off=arg(st.integers(0, 9000), ints | anything),
       size=arg(st.integers(1, 70000), ints | anything), plan=region_plan)
def test_region_calls(world: dict[str, Any], path: Any, off: Any, size: Any,
                      plan: tuple[list[tuple[bool, int, Any, Any]], bool]) -> None:
    r = check(udrv.Region.map_file, world["file"] if path else str(world["file"]), off, size)
    if isinstance(r, udrv.Region):
        region_ops(r, plan)


uio_plan = st.lists(st.tuples(st.sampled_from(["map", "bar", "wait", "irq", "await"]),
                              arg(st.integers(0, 3), ints | anything), region_plan),
                    max_size=4)


@SETTINGS
@given(spec=arg(st.sampled_from(["fpga", "uio0", "/dev/uio0"]), texts | anything),
       plan=uio_plan)
def test_uio_calls(world: dict[str, Any], spec: Any,
                   plan: list[tuple[str, Any, Any]]) -> None:
    uio = check(udrv.Uio, spec)
    if not isinstance(uio, udrv.Uio):
        return
    with uio:
        check(lambda: (uio.maps, uio.ports, uio.name, uio.devname, uio.missed))
        for op, x, rplan in plan:
            if op in ("map", "bar"):
                r = check(uio.map if op == "map" else uio.pci_map_bar, x)
                if isinstance(r, udrv.Region):
                    region_ops(r, rplan)
            elif op == "wait":
                check(uio.wait, timeout_of(x))
            elif op == "irq":
                check(uio.irq_enable, x)
            else:
                check(asyncio.run, uio.await_irq(timeout_of(x)))
    check(uio.map, 0)


FIELDS = ["direction", "value", "bias", "drive", "active_low", "edge", "debounce_us",
          "event_clock"]
line_settings = st.none() | st.dictionaries(st.sampled_from(FIELDS),
                                            arg(st.sampled_from([0, 1]), ints | anything),
                                            max_size=3)


def settings_of(kw: dict[str, Any] | None) -> udrv.LineSettings | None:
    if kw is None:
        return None
    s = check(lambda: udrv.LineSettings(**kw))
    return s if isinstance(s, udrv.LineSettings) else None


lines = arg(st.integers(0, 7), ints | texts | anything)
request_plan = st.lists(st.tuples(
    st.sampled_from(["get", "set", "gets", "sets", "wait", "reconf"]), lines,
    arg(st.sampled_from([0, 1]), ints | anything), arg(st.lists(lines, max_size=3)),
    line_settings), max_size=6)


def request_ops(req: udrv.Request, plan: list[tuple[str, Any, Any, Any, Any]]) -> None:
    for op, line, value, many, kw in plan:
        if op == "get":
            check(req.get_value, line)
        elif op == "set":
            check(req.set_value, line, value)
        elif op == "gets":
            check(req.get_values, many)
        elif op == "sets":
            check(req.set_values, {line: value})
        elif op == "wait":
            check(req.wait_edge_events, timeout_of(value))
        else:
            check(req.reconfigure, {line: settings_of(kw)})
    check(lambda: (req.lost_events, req.backend, req.settings, repr(req)))


@SETTINGS
@given(spec=arg(st.sampled_from(["gpiochip0", 0, "fake-wire"]), texts | anything),
       info=arg(st.integers(0, 8), ints | anything), name=texts | anything,
       config=st.lists(st.tuples(st.lists(lines, min_size=1, max_size=2), line_settings),
                       min_size=1, max_size=3),
       backend=arg(st.just(udrv.Backend.SYSFS), ints | anything),
       bufsize=arg(st.just(0), ints | anything), consumer=arg(st.just("fuzz"), texts),
       plan=request_plan)
def test_gpio_calls(world: dict[str, Any], spec: Any, info: Any, name: Any,
                    config: list[tuple[list[Any], Any]], backend: Any, bufsize: Any,
                    consumer: Any, plan: list[tuple[str, Any, Any, Any, Any]]) -> None:
    chip = check(udrv.Chip, spec)
    if not isinstance(chip, udrv.Chip):
        return
    with chip, contextlib.ExitStack() as stack:
        check(chip.line_info, info)
        check(chip.line_offset, name)
        cfg = {(k[0] if len(k) == 1 else tuple(k)): settings_of(kw) for k, kw in config
               if all(isinstance(x, (int, str)) for x in k)}
        req = check(lambda: chip.request(cfg, backend=backend, event_buffer_size=bufsize,
                                         consumer=consumer))
        if isinstance(req, udrv.Request):
            stack.enter_context(req)
            request_ops(req, plan)


@SETTINGS
@given(spec=texts | anything, ns=st.lists(ints | anything, max_size=4),
       p=floats | ints | anything)
def test_layout_and_histogram_calls(spec: Any, ns: list[Any], p: Any) -> None:
    layout = check(udrv.GpioLayout.parse, spec)
    if layout is not None:
        check(repr, layout)
    h = udrv.Histogram()
    for x in ns:
        check(h.record, x)
    check(h.percentile, p)
    check(h.to_dict)


@SETTINGS
@given(action=texts | anything, hwirq=ints | anything, prefix=texts | anything,
       prio=st.none() | ints | anything)
def test_rt_report_calls(world: dict[str, Any], action: Any, hwirq: Any, prefix: Any,
                         prio: Any) -> None:
    check(udrv.rt_find_irq, action, hwirq)
    check(udrv.rt_threads, prefix)
    check(udrv.rt_check, prio, [prefix] if isinstance(prefix, str) else prefix)
