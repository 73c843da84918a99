# SPDX-License-Identifier: GPL-2.0-only
"""The Python bindings on real kernels (the Python image variant, py_board):
the image itself, udrv against gpio-wire, uio-ticker and QEMU's edu device,
the RT helpers and the histogram, and udrv-pybench (rig/bench/python/) with its
invariants. gpiod 2.5 (PyPI) is the reference beside udrv.

gpio-wire: line 2k drives line 2k+1 (docs/rig/kernel-modules.md); the generator
makes edges on an input line by itself. Each test is a short Python script
run in the guest that prints one JSON line of what it saw.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator

import pytest
from guest import python, python_json, sh

from rig.lab.image import pyguest
from rig.results import pybench_document
from rig.results.text import python_table, render

pytestmark = pytest.mark.lg_feature(["python"])

WIRE = "/sys/devices/platform/gpio-wire"
# every test that imports udrv in the guest
needs_udrv = pytest.mark.skipif(pyguest.udrv_missing() is not None,
                                reason=str(pyguest.udrv_missing()))  # fmt: skip
# what udrv-pybench runs: both libraries when the image has udrv
ONLY = "" if pyguest.udrv_missing() is None else "--only gpiod"

def code(*parts: str) -> str:
    """Python source from parts, each dedented on its own."""
    return "\n".join(textwrap.dedent(p).strip("\n") for p in parts)


CHIP_PATH = """
import pathlib
def chip_path(label="gpio-wire"):
    for c in sorted(pathlib.Path("/sys/class/gpio").glob("gpiochip*")):
        if (c / "label").read_text().strip() == label:
            return "/dev/" + next((c / "device").glob("gpiochip*")).name
    raise SystemExit("no gpio-wire chip")
"""


@pytest.fixture(autouse=True)
def wire_left_low(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test: gpio-wire's wire 1 (line 2 -> 3) driven low, whatever the
    test or the generator left on it (the other tests on this board, gpiozero's
    among them, expect the wires idle low)."""
    yield
    if "py_board" in request.fixturenames:
        board = request.getfixturevalue("py_board")
        r = sh(board, "udrv gpio set -c gpio-wire 2=1 && udrv gpio set -c gpio-wire 2=0 && "
                      "udrv gpio get -c gpio-wire 3")  # fmt: skip
        assert (r.status, r.stdout.strip()) == (0, "3=0"), r.stderr


# --- the image ------------------------------------------------------------------------
def test_image_has_python_and_the_packages(py_board):
    out = python_json(py_board, """
        import importlib.metadata as md, importlib.util, json, sys, sysconfig
        eps = sorted(e.name for e in md.entry_points(group="gpiozero_pin_factories"))
        std = sysconfig.get_paths()["stdlib"]
        pruned = [m for m in ("test", "idlelib", "tkinter", "ensurepip", "lib2to3",
                              "pydoc_data") if importlib.util.find_spec(m)]
        import gpiod, gpiozero, asyncio, selectors
        print(json.dumps({"version": sys.version_info[:2], "stdlib": std, "eps": eps,
            "gpiod": md.version("gpiod"), "libgpiod": gpiod.api_version,
            "gpiozero": md.version("gpiozero"), "colorzero": md.version("colorzero"),
            "pruned_but_present": pruned}))
    """)
    assert out["version"] == [3, 11]
    assert out["stdlib"] == pyguest.GUEST_STDLIB
    assert (out["gpiod"], out["libgpiod"]) == ("2.5.0", "2.3")
    assert (out["gpiozero"], out["colorzero"]) == ("2.0.1", "2.0")
    assert {"mock", "native"} <= set(out["eps"])  # gpiozero's, through its dist-info
    if pyguest.udrv_missing() is None:
        assert "udrv" in out["eps"]  # bindings/python/pyproject.toml's entry point
    assert out["pruned_but_present"] == []


def test_pycs_are_used_not_rebuilt(py_board):
    # the image's .pycs are unchecked-hash: importing writes no new .pyc
    r = sh(py_board, "python3 -c 'import asyncio, gpiozero' && "
                     f"find {pyguest.GUEST_STDLIB} {pyguest.GUEST_SITE} -name '*.pyc' -newer /init"
                     " | head -3")  # fmt: skip
    assert r.status == 0, r.stderr
    assert r.stdout.strip() == ""


def test_gpiod_reference_on_gpio_wire(py_board):
    out = python_json(py_board, code(CHIP_PATH, """
        import gpiod, json
        from gpiod.line import Direction, Value
        with gpiod.request_lines(chip_path(), consumer="t", config={
                2: gpiod.LineSettings(direction=Direction.OUTPUT),
                (3, 5): gpiod.LineSettings(direction=Direction.INPUT)}) as req:
            seen = []
            for v in (Value.ACTIVE, Value.INACTIVE, Value.ACTIVE):
                req.set_value(2, v)
                seen.append([int(x == Value.ACTIVE) for x in req.get_values([3, 5])])
            req.set_value(2, Value.INACTIVE)
        print(json.dumps(seen))
    """))
    assert out == [[1, 0], [0, 0], [1, 0]]  # 2 -> 3 wired; 5 (wire 2's input) never moves


# --- udrv on gpio-wire ----------------------------------------------------------------
@needs_udrv
def test_udrv_set_get_by_offset_and_name(py_board):
    out = python_json(py_board, """
        import json, udrv
        with udrv.Chip("gpio-wire") as chip:
            out = {"name": chip.name, "label": chip.label, "lines": chip.num_lines,
                   "off": chip.line_offset("wire1-in")}
            cfg = {"wire1-out": udrv.LineSettings(direction=udrv.Direction.OUTPUT),
                   (3, 5): None}
            with chip.request(cfg, consumer="pytest") as req:
                info = chip.line_info(2)
                out["consumer"], out["dir"] = info.consumer, int(info.direction)
                seen = []
                for v in (1, 0, 1):
                    req.set_value("wire1-out", v)
                    seen.append([req.get_value(3), req.get_value(5)])
                req.set_values({2: 0})
                out["seen"], out["all"] = seen, req.get_values()
                try:
                    req.set_value(2, 2)
                except ValueError as exc:
                    out["bad_value"] = str(exc)
            try:
                req.get_value(3)
            except ValueError as exc:
                out["released"] = str(exc)
        print(json.dumps(out))
    """)
    assert out["label"] == "gpio-wire" and out["lines"] == 8 and out["off"] == 3
    assert out["consumer"] == "pytest" and out["dir"] == 1
    assert out["seen"] == [[1, 0], [0, 0], [1, 0]]
    assert out["all"] == [0, 0, 0]
    assert "bad_value" in out and "released" in out["released"]


EDGES = CHIP_PATH + """
import json, os, time, udrv
OUT = udrv.LineSettings(direction=udrv.Direction.OUTPUT)
BOTH = udrv.LineSettings(edge=udrv.Edge.BOTH)
def driven(line=3):
    for row in open("/sys/devices/platform/gpio-wire/edges"):
        f = row.split()
        if f[0] == str(line):
            return int(f[1])
def beside_irq_thread(consumer):
    # The character device's handler is threaded and oneshot: the line stays
    # masked until its thread ran, and gpio-wire, as hardware does, raises no
    # edge meanwhile. On one CPU the thread (FIFO 50) preempts the writer at
    # every edge; on several (rpi3: 4) it may run elsewhere, later. The writer
    # and the request's irq thread on one CPU make every edge count there too.
    threads = [t.pid for t in udrv.rt_threads("irq/") if t.name.endswith("-" + consumer)]
    assert len(threads) == 1, udrv.rt_threads("irq/")
    cpu = os.sched_getaffinity(0)
    cpu = {min(cpu)}
    os.sched_setaffinity(0, cpu)
    os.sched_setaffinity(threads[0], cpu)
"""


@needs_udrv
def test_udrv_edge_events_iterator(py_board):
    out = python_json(py_board, code(EDGES, """
        chip = udrv.Chip("gpio-wire")
        with chip.request({2: OUT}) as drv, chip.request({3: BOTH}, consumer="it") as rx:
            beside_irq_thread("it")
            time.sleep(0.02)
            d0 = driven()
            for i in range(10):
                drv.set_value(2, (i + 1) & 1)
            evs = list(rx.edge_events(timeout=0.2))
            print(json.dumps({"driven": driven() - d0,
                "edges": [int(e.edge) for e in evs], "offsets": sorted({e.offset for e in evs}),
                "seq": [e.line_seqno for e in evs], "lost": rx.lost_events,
                "ts_up": all(a.timestamp_ns < b.timestamp_ns for a, b in zip(evs, evs[1:])),
                "now_after": time.monotonic_ns() > evs[-1].timestamp_ns}))
    """))
    assert out["driven"] == 10
    assert out["edges"] == [int(x) for x in [1, 2] * 5]  # RISING, FALLING, ...
    assert out["offsets"] == [3] and out["seq"] == list(range(1, 11))
    assert out["lost"] == 0 and out["ts_up"] and out["now_after"]


@needs_udrv
def test_chip_respond_replies_through_udrv_irq(py_board):
    """Chip.respond(): every line udrv-irq's (B = line 1, its input; C = line 2,
    its reply line, wired to line 3). The callback sets C = B by chip.reply();
    the helper writes it with its next wait; line 3's edges, counted by the
    kernel on another request, are the replies."""
    out = python_json(py_board, code("""
        import json, threading, time
        import udrv
        seen, done = [], []
        def answer(chip, ev):
            seen.append(int(ev.edge))
            chip.reply(2, ev.edge == udrv.Edge.RISING)
            return len(seen) == 6
        def run():
            with udrv.Chip("gpio-wire") as chip:
                done.append(chip.respond(answer, line=1, replies={2: False}))
        t = threading.Thread(target=run)
        chip = udrv.Chip("gpio-wire")
        with chip.request({3: udrv.LineSettings(edge=udrv.Edge.BOTH)}, consumer="d") as d, \
             chip.request({0: udrv.LineSettings(direction=udrv.Direction.OUTPUT)}) as a:
            t.start()
            end = time.monotonic() + 30
            while not chip.line_info(1).used and time.monotonic() < end:
                time.sleep(0.01)  # the helper holds B once the run is under way
            for i in range(6):
                a.set_value(0, (i + 1) & 1)
                n = len(seen)
                while len(seen) == n and time.monotonic() < end:
                    time.sleep(0.001)  # each edge answered before the next
            t.join(30)
            evs = list(d.edge_events(timeout=0.5))
        print(json.dumps({"seen": seen, "alive": t.is_alive(), "done": done,
                          "consumer": chip.line_info(1).consumer,
                          "d": [int(e.edge) for e in evs]}))
    """))
    assert not out["alive"] and out["done"] == [[]], out
    assert out["seen"] == [1, 2] * 3, out
    assert out["d"] == [1, 2] * 3, out  # C followed B: six replies on the wire
    assert out["consumer"] == "", out  # given back when the run ended


@needs_udrv
def test_udrv_fileno_with_selectors(py_board):
    out = python_json(py_board, code(EDGES, """
        import selectors
        chip = udrv.Chip("gpio-wire")
        with chip.request({2: OUT}) as drv, chip.request({3: BOTH}) as rx:
            sel = selectors.DefaultSelector()
            sel.register(rx.fileno(), selectors.EVENT_READ)
            idle = sel.select(timeout=0.05)
            drv.set_value(2, 1)
            ready = sel.select(timeout=1.0)
            evs = rx.read_edge_events()
            after = sel.select(timeout=0.05)
            drv.set_value(2, 0)  # the wire back low
            print(json.dumps({"idle": len(idle), "ready": len(ready), "n": len(evs),
                              "edge": int(evs[0].edge), "after": len(after)}))
    """))
    assert out == {"idle": 0, "ready": 1, "n": 1, "edge": 1, "after": 0}


@needs_udrv
def test_udrv_async_for(py_board):
    out = python_json(py_board, code(EDGES, """
        import asyncio
        async def main():
            chip = udrv.Chip("gpio-wire")
            with chip.request({2: OUT}) as drv, chip.request({3: BOTH}) as rx:
                loop = asyncio.get_running_loop()
                for i in range(6):  # toggled from the loop while we await events
                    loop.call_later(0.01 * (i + 1), drv.set_value, 2, (i + 1) & 1)
                got = []
                async def collect():
                    async for ev in rx:
                        got.append(int(ev.edge))
                        if len(got) == 6:
                            return
                await asyncio.wait_for(collect(), 2.0)
                return got
        print(json.dumps(asyncio.run(main())))
    """))
    assert out == [1, 2, 1, 2, 1, 2]


@needs_udrv
def test_udrv_lost_events_counted_at_the_source(py_board):
    # the generator overruns a 16-event buffer while nobody reads: the
    # sequence-number gaps account for every edge it made, but for those it
    # made while the line was masked (the oneshot handler's thread had not
    # run: on a board of several CPUs; udrv-pybench counts them the same way).
    # The request holds a second, idle line, as udrv-pybench's does: on a
    # request of one line the kernel numbers events in its irq thread, and
    # two edges that came before the thread ran once are one event with no
    # gap (rpi3's 4 CPUs: 16 + 183 + 0 of 200 in 1 of 30 runs); with two
    # lines it numbers each edge in the hard interrupt, and the merge leaves
    # a gap
    out = python_json(py_board, code(EDGES, f"""
        W = "{WIRE}"
        def rd(a): return int(open(f"{{W}}/{{a}}").read())
        def wr(a, v): open(f"{{W}}/{{a}}", "w").write(str(v))
        chip = udrv.Chip("gpio-wire")
        saved = {{a: rd(a) for a in ("gen_line", "gen_limit")}}
        with chip.request({{3: BOTH, 5: udrv.LineSettings()}}, event_buffer_size=16) as rx:
            time.sleep(0.02)
            g0, m0 = rd("gen_edges"), rd("gen_masked")
            wr("gen_line", 3); wr("gen_limit", 200); wr("gen_period_ns", 20000)
            while rd("gen_period_ns"):
                time.sleep(0.01)
            made, masked = rd("gen_edges") - g0, rd("gen_masked") - m0
            evs = list(rx.edge_events(timeout=0.1))
            out = {{"made": made, "received": len(evs), "lost": rx.lost_events,
                   "ev_lost": sum(e.lost for e in evs), "masked": masked,
                   "cpus": os.cpu_count()}}
        for a, v in saved.items():
            wr(a, v)
        print(json.dumps(out))
    """))
    assert out["made"] == 200
    assert out["received"] <= 16 and out["lost"] > 0
    assert out["received"] + out["lost"] + out["masked"] == out["made"], out
    assert out["ev_lost"] == out["lost"]
    if out["cpus"] == 1:  # the thread ran at every edge
        assert out["masked"] == 0, out


# --- UIO ------------------------------------------------------------------------------
@pytest.fixture
def ticker(py_board):
    """uio-ticker at 1 ms; stopped again afterwards."""
    attr = "$(dirname $(grep -l uio-ticker /sys/class/uio/*/name))/device/period_us"
    assert sh(py_board, f"echo 1000 > {attr}").status == 0
    yield
    sh(py_board, f"echo 0 > {attr}")


TICKER = """
import json, struct, time, udrv
u = udrv.Uio("uio-ticker")
page = u.map(0)
def field(off): return page.read64(off)  # event 16, suppressed 64, ticks 72
"""


@needs_udrv
def test_uio_ticker_wait_missed_irq_enable(py_board, ticker):
    out = python_json(py_board, code(TICKER, """
        out = {"name": u.name, "magic": page.read32(0), "maps": [m.name for m in u.maps]}
        first = u.wait(timeout=1.0)
        time.sleep(0.02)                       # ~20 ticks nobody waited for
        second = u.wait(timeout=1.0)
        out["delta"], out["missed"] = second.delta, second.missed
        out["count_vs_page"] = field(16) - second.count   # ticks since (>= 0, small)
        u.irq_enable(False)
        s0 = field(64)
        out["while_off"] = u.wait(timeout=0.02)
        out["suppressed"] = field(64) - s0
        u.irq_enable(True)
        out["back"] = u.wait(timeout=1.0) is not None
        print(json.dumps(out))
    """))
    assert out["name"] == "uio-ticker" and out["magic"] == 0x314B5455
    assert out["maps"] == ["ticker"]
    assert out["delta"] >= 15 and out["missed"] == out["delta"] - 1
    assert 0 <= out["count_vs_page"] <= 2
    assert out["while_off"] is None and out["suppressed"] >= 10
    assert out["back"] is True


@needs_udrv
@pytest.mark.lg_feature(["edu"])  # x86's; raspi3b has no PCI
def test_edu_bar0_memoryview_and_interrupt(py_board):
    out = python_json(py_board, """
        import json, time, udrv
        with udrv.Uio("uio_pci_generic") as u, u.pci_map_bar(0) as bar:
            with bar.mem as mem:  # the mapping itself, as a memoryview
                out = {"size": bar.size, "ident": int.from_bytes(mem[0:4], "little"),
                       "len": len(mem), "ident32": bar.read32(0x0)}
            bar.write32(0x04, 0x12345678)
            out["liveness"] = bar.read32(0x04)
            # edu computes on a host thread: poll "computing" (0x20 bit 0) until it
            # clears; bounded by reads, not guest time (idle, -icount's clock jumps
            # far ahead of the host thread)
            bar.write32(0x08, 5)
            for polls in range(1, 10**6):
                if not bar.read32(0x20) & 1:
                    break
            out["computed"] = not bar.read32(0x20) & 1
            out["fact5"] = bar.read32(0x08)
            u.pci_intx_unmask()
            out["idle"] = u.wait(timeout=0.02)
            bar.write32(0x60, 0x4)                  # raise
            irq = u.wait(timeout=1.0)
            out["irq"] = irq is not None
            out["status"] = bar.read32(0x24)
            bar.write32(0x64, 0x4)                  # acknowledge
            out["acked"] = bar.read32(0x24)
            try:
                bar.read32(bar.size)
            except ValueError:
                out["bounds"] = True
        print(json.dumps(out))
    """)
    assert out["size"] == out["len"] == 1 << 20
    assert out["ident"] == out["ident32"] == 0x010000ED
    assert out["computed"] is True
    assert out["liveness"] == 0xEDCBA987 and out["fact5"] == 120
    assert out["idle"] is None and out["irq"] is True
    assert out["status"] == 0x4 and out["acked"] == 0
    assert out["bounds"] is True


# --- RT helpers, histogram ------------------------------------------------------------
@needs_udrv
def test_rt_scheduler_and_check(py_board):
    out = python_json(py_board, """
        import json, os, udrv
        with udrv.Rt() as rt:
            rt.set_scheduler(udrv.Policy.FIFO, 20)
            st = rt.state
            pol = os.sched_getscheduler(0)
        rep = udrv.rt_check()
        print(json.dumps({"policy": int(st.policy), "prio": st.priority, "os": pol,
                          "realtime": rep.realtime, "model": rep.preempt_model,
                          "findings": len(rep.findings)}))
    """)
    assert out["policy"] == out["os"] == 1 and out["prio"] == 20  # SCHED_FIFO
    rt = "-rt-" in py_board.release
    assert out["realtime"] is rt
    assert ("RT" in out["model"].upper()) is rt


@needs_udrv
def test_histogram(py_board):
    out = python_json(py_board, """
        import json, udrv
        h = udrv.Histogram()
        for ns in range(1000, 101000, 1000):   # 1..100 us
            h.record(ns)
        print(json.dumps({"n": h.count, "min": h.min, "max": h.max, "mean": h.mean,
                          "p50": h.percentile(50), "buckets": sum(c for _, _, c in h.buckets())}))
    """)
    assert out["n"] == out["buckets"] == 100
    assert (out["min"], out["max"]) == (1000, 100000)
    assert out["mean"] == pytest.approx(50500, rel=0.01)
    assert 45000 <= out["p50"] <= 56000


# --- the benchmark --------------------------------------------------------------------
def pybench(board, args: str) -> tuple[int, dict, str]:
    r = sh(board, f"udrv-pybench {ONLY} {args} --json /tmp/pybench.json; "
                  "echo status=$?; cat /tmp/pybench.json")  # fmt: skip
    head, _, body = r.stdout.partition("status=")
    status, _, js = body.partition("\n")
    assert "{" not in head, head  # --json FILE: the document in FILE, stdout the table
    # read as the lab reads it: rig.results, udrv-pybench-1 checked
    res = pybench_document(js, "/tmp/pybench.json").doc if js.strip() else {}
    return int(status), res, head + r.stderr


def test_pybench_rows_ratios_and_accounting(py_board):
    status, res, text = pybench(py_board, "-n 200 --rounds 2 --events 200")
    assert status == 0, text
    libs = ["gpiod"] if ONLY else ["udrv", "gpiod"]
    t, e = res["toggle"], res["events"]
    assert sorted(t["rows"]) == sorted(libs) and sorted(e["rows"]) == sorted(libs)
    assert len(t["order"]) == 2 * len(libs)
    for lib in libs:
        tr, er = t["rows"][lib], e["rows"][lib]
        assert len(tr["ns_per_call"]) == 2 and tr["driven"] == tr["calls"] == 400
        assert er["made"] == 200 == er["received"] + er["lost"] + er["dropped"] + er["masked"]
        assert er["latency_ns"]["count"] == er["received"]
        assert 0 < er["latency_ns"]["min"] <= er["latency_ns"]["p50"] <= er["latency_ns"]["max"]
        assert lib in text
    if not ONLY:  # the ratios come from this run's rows
        assert t["ratio"]["median"] == round(t["rows"]["udrv"]["median_ns"]
                                             / t["rows"]["gpiod"]["median_ns"], 3)
        lu, lg = e["rows"]["udrv"]["latency_ns"], e["rows"]["gpiod"]["latency_ns"]
        assert e["ratio"]["p50"] == round(lu["p50"] / lg["p50"], 3)
        assert "udrv/gpiod" in text
    # make lab's section prints this run's table
    table = render(python_table([{"lab_kernel": "x", "table": text, "result": res}]))
    assert any(line.startswith("gpiod ") for line in table)
    assert any(line.startswith("udrv ") for line in table) is not bool(ONLY)


@pytest.mark.parametrize("sig", ["TERM", "INT"])
def test_pybench_signal_puts_the_generator_back(py_board, sig):
    gen = " ".join(f"{WIRE}/{a}" for a in ("gen_line", "gen_limit", "gen_period_ns"))
    before = sh(py_board, f"cat {gen}").stdout.split()
    r = sh(py_board, f"udrv-pybench {ONLY} -n 2 --rounds 1 --events 100000 & pid=$!; "
                     f"sleep 2; cat {WIRE}/gen_line {WIRE}/gen_period_ns; kill -{sig} $pid; "
                     "wait $pid; echo status=$?")  # fmt: skip
    during = r.stdout.split()[:2]
    assert during == ["3", "200000"], r.stdout + r.stderr  # it was running on line 3
    assert "status=130" in r.stdout and "settings restored" in r.stderr
    assert sh(py_board, f"cat {gen}").stdout.split() == before
    assert before[2] == "0"
    # the wire back low, though the generator stopped at any level
    r = sh(py_board, "udrv gpio get -c gpio-wire 3")
    assert (r.status, r.stdout.strip()) == (0, "3=0"), r.stderr


def test_pybench_counts_lost_events(py_board):
    status, res, text = pybench(py_board, "-n 2 --rounds 1 --events 300 --period-ns 20000 "
                                          "--buffer 16 --hold 50")  # fmt: skip
    assert status == 0, text
    for er in res["events"]["rows"].values():
        assert er["lost"] > 0 and er["received"] <= 16
        assert er["unaccounted"] == 0


@pytest.fixture
def wire_fault(py_board):
    """Set gpio-wire fault injection parameters; put them back afterwards."""
    params = "/sys/module/gpio_wire/parameters"

    def set_(**kw: int) -> None:
        for k, v in kw.items():
            assert sh(py_board, f"echo {v} > {params}/{k}").status == 0

    yield set_
    set_(drop_every=0, drop_uncounted=0, stuck_every=0)
    # a stuck write may have left wire 1 high: drive it low, as the other tests expect
    assert sh(py_board, "udrv gpio set -c gpio-wire 2=0").status == 0


def test_pybench_fails_on_uncounted_drops(py_board, wire_fault):
    wire_fault(drop_every=7)  # counted by the wire: accounted for
    status, res, text = pybench(py_board, "-n 2 --rounds 1 --events 70")
    assert status == 0, text
    rows = res["events"]["rows"].values()
    assert all(er["dropped"] >= 9 and er["unaccounted"] == 0 for er in rows), rows
    wire_fault(drop_uncounted=1)  # the same drops, no counter shows them
    status, res, text = pybench(py_board, "-n 2 --rounds 1 --events 70")
    assert status == 1
    assert "unaccounted" in text
    rows = res["events"]["rows"].values()
    assert all(er["dropped"] == 0 and er["unaccounted"] >= 9 for er in rows), rows
    if len(res["sched"]["cpus"]) == 1:  # the irq thread ran at every edge: never masked
        assert all(er["masked"] == 0 for er in rows), rows


def test_pybench_fails_on_stuck_writes(py_board, wire_fault):
    wire_fault(stuck_every=50)  # every 50th level change ignored by the "driver"
    status, res, text = pybench(py_board, "-n 100 --rounds 1 --events 2")
    assert status == 1
    assert "level changes" in text
    assert all(tr["driven"] < tr["calls"] == 100 for tr in res["toggle"]["rows"].values())


def test_pybench_usage_errors(py_board):
    r = sh(py_board, "udrv-pybench --in-line 2; echo status=$?")
    assert "status=2" in r.stdout and "odd lines" in r.stderr
    r = sh(py_board, "udrv-pybench -n 0; echo status=$?")
    assert "status=2" in r.stdout and "a whole number 2.." in r.stderr
    r = python(py_board, "import gpiod")  # the guest's python itself is fine
    assert r.status == 0


def test_pybench_profile(py_board):
    r = sh(py_board, f"udrv-pybench {ONLY} --profile -n 100 --events 50")
    assert r.status == 0, r.stderr
    for lib in ["gpiod"] + ([] if ONLY else ["udrv"]):
        assert f"{lib}: " in r.stdout and "calls per set_value (100)" in r.stdout
        assert "calls per event (50)" in r.stdout
    calls = {m[0]: float(m[1]) for m in re.findall(r"^(\w+): ([0-9.]+) calls per set_value",
                                                    r.stdout, re.MULTILINE)}  # fmt: skip
    assert calls["gpiod"] > 5  # LineRequest.set_value() is Python over set_values()
    if not ONLY:  # udrv's is one C call (+2 of the profiled loop's over 100 calls)
        assert calls["udrv"] < 1.1


@needs_udrv
def test_pybench_buses_rows_checked_and_ratios(py_board):
    # --buses: I2C on i2c-stub, SPI on spi-fixture's loopback, gpiozero's MCP3008,
    # with Debian's peers from the image; every answer checked in the guest
    adc = sh(py_board, "cat /sys/devices/platform/spi-fixture/adc").stdout
    status, res, text = pybench(py_board, "-n 200 --rounds 2 --events 20 --buses "
                                          f"--gpiozero {pyguest.GUEST_GPIOZERO1}")  # fmt: skip
    assert status == 0, text
    b = res["buses"]
    i2c, spi = b["i2c"], b["spi"]
    assert i2c["adapter"] == "SMBus stub driver" and i2c["address"] == 0x50
    assert i2c["unavailable"] == {} and spi["unavailable"] == {}  # the image has every peer
    # i2c-stub is SMBus only: periphery (plain I2C transfers) has no I2C row, saying why
    assert list(i2c["unsupported"]) == ["periphery"]
    assert sorted(i2c["calls"]) == ["byte-data", "i2c-block-32", "word-data"]
    for call in i2c["calls"].values():
        assert sorted(call["rows"]) == ["smbus", "smbus2", "udrv"]
    assert sorted(spi["calls"]["xfer-3"]["rows"]) == ["periphery", "spidev", "udrv"]
    for part in (i2c, spi):
        assert len(part["order"]) == 2 * (len(part["libraries"]) - len(part["unsupported"]))
        for call in part["calls"].values():
            u = call["rows"]["udrv"]
            for lib, r in call["rows"].items():
                assert r["calls"] == 400 and r["wrong"] == 0
                if lib != "udrv":
                    assert call["ratio"][lib]["median"] == round(u["median_ns"]
                                                                 / r["median_ns"], 3)
    m = b["mcp3008"]
    assert m["gpiozero"] == "2.0.1" and m["rows"]["udrv"]["wrong"] == 0
    assert len(m["values"]) == 2 and len(set(m["values"])) == 2  # set anew each round
    # again under Debian 12's gpiozero 1.6.2 (a child with it first on sys.path)
    (m1,) = b["mcp3008_more"]
    assert m1["gpiozero"] == "1.6.2" and m1["rows"]["udrv"]["wrong"] == 0, m1
    assert m1["rows"]["udrv"]["calls"] == 400 and len(m1["values"]) == 2
    assert "gpiozero 1.6.2 MCP3008(channel=1).value" in text
    assert "i2c-block-32" in text and "xfer-3" in text
    # the fixture's inputs put back
    assert sh(py_board, "cat /sys/devices/platform/spi-fixture/adc").stdout == adc


@needs_udrv
def test_pybench_another_gpiozero_must_come_from_its_directory(py_board):
    # a --gpiozero directory without gpiozero: the child would import the
    # site's 2.0.1 and measure it twice under another name; it says so instead
    r = sh(py_board, "mkdir -p /tmp/no-gpiozero && udrv-pybench -n 50 --rounds 1 --events 20 "
                     "--buses --gpiozero /tmp/no-gpiozero; echo status=$?")  # fmt: skip
    assert "status=1" in r.stdout, r
    assert "MCP3008 under the gpiozero in /tmp/no-gpiozero: udrv-pybench: gpiozero came from " \
           "/usr/lib/python3/dist-packages/gpiozero/__init__.py" in r.stderr, r.stderr


@needs_udrv
def test_pybench_buses_wrong_answer_fails_the_run(py_board):
    # a reply that is not the reference's fails the run: the loopback's MISO
    # is MOSI, so a bench whose frames were changed behind its back must fail.
    # Here: i2c-stub's registers rewritten between the reference reads and the
    # calls cannot be staged from outside, so the guest's bench module is run
    # with its reference made wrong by one
    out = python_json(py_board, """
        import json, runpy, sys
        sys.argv = ["udrv-pybench"]
        g = runpy.run_path("/usr/libexec/udrv/udrv-pybench")
        raw_read = g["RawI2C"].read
        def off_by_one(self, kind, reg):
            v = raw_read(self, kind, reg)
            return v + 1 if kind == "word-data" and reg == 3 else v
        g["RawI2C"].read = off_by_one
        res = g["bench_i2c"](64, 1, "SMBus stub driver", ("udrv", "smbus"))
        print(json.dumps({"wrong": {k: {lib: r["wrong"] for lib, r in c["rows"].items()}
                                    for k, c in res["calls"].items()},
                          "bad": g["bus_failures"]({"i2c": res, "spi": {"unavailable": {},
                                                                        "calls": {}}})}))
    """)
    # registers cycle 0..31: 64 calls hit register 3 twice, each library
    assert out["wrong"]["word-data"] == {"udrv": 2, "smbus": 2}
    assert out["wrong"]["byte-data"] == {"udrv": 0, "smbus": 0}
    assert out["bad"] == ["i2c word-data udrv: 2 of 64 answers were not the reference's",
                          "i2c word-data smbus: 2 of 64 answers were not the reference's"]
