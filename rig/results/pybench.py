# SPDX-License-Identifier: GPL-2.0-only
"""udrv-pybench's document (udrv-pybench-1): its check and its model.

What `udrv-pybench --json FILE` writes (rig/bench/python/udrv_pybench.py),
and the result of each entry of a udrv-lab/1 document's python list. The
schema file udrv-pybench-1.schema.json says its fields; check_pybench() adds
what a schema cannot say: a toggle row's rounds and figures agree with the
calls and rounds asked for, the order of the rounds names each library's
rounds, an event row's unaccounted is made - received - lost - dropped -
masked and its histogram counted what was received, the ratios are the rows'.
(A run whose accounting did not add up is still a valid document: the bench
exits 1 saying so, and the lab files it as a failure.)

rig.results.read reads it: pybench_document(text, source), load_pybench(path).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from .schema import PYBENCH, Invalid, need, validate

# what the bench rounds its figures to: ns_per_call, median_ns, min_ns to 0.1
# (the median of rounded rounds is then within 0.1 of the rounded median);
# the ratios to 0.001
NS_ROUNDING = 0.1 + 1e-9
RATIO_ROUNDING = 1e-3 + 1e-9


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def check_pybench(doc: Any, where: str = "") -> None:
    """A udrv-pybench-1 document (@where: its place in a larger one), or Invalid
    naming the first thing wrong and where."""
    if isinstance(doc, dict) and "schema" in doc and doc["schema"] != PYBENCH:
        raise Invalid(f"{_at(where, 'schema')}: {doc['schema']!r}, expected {PYBENCH!r} "
                      "(udrv-pybench's document)")
    try:
        validate(doc, PYBENCH)
    except Invalid as exc:
        raise Invalid(_at(where, str(exc)) if where else str(exc)) from None
    _toggle(doc["toggle"], _at(where, "toggle"))
    _events(doc["events"], _at(where, "events"))
    if "buses" in doc:
        _buses(doc["buses"], _at(where, "buses"))


def _toggle(t: dict[str, Any], where: str) -> None:
    rows = t["rows"]
    for lib, r in rows.items():
        at = f"{where}.rows.{lib}"
        need(len(r["ns_per_call"]) == t["rounds"],
              f"{at}.ns_per_call: {len(r['ns_per_call'])} rounds, rounds says {t['rounds']}")
        need(r["calls"] == t["calls_per_round"] * t["rounds"],
              f"{at}.calls: {r['calls']}, but {t['rounds']} rounds of "
              f"{t['calls_per_round']} calls are {t['calls_per_round'] * t['rounds']}")
        need(r["min_ns"] == min(r["ns_per_call"]),
              f"{at}.min_ns: {r['min_ns']}, the rounds' least is {min(r['ns_per_call'])}")
        median = statistics.median(r["ns_per_call"])
        need(abs(r["median_ns"] - median) <= NS_ROUNDING,
              f"{at}.median_ns: {r['median_ns']}, the rounds' median is {median}")
    for lib in rows:
        n = t["order"].count(lib)
        need(n == t["rounds"], f"{where}.order: {n} rounds of {lib}, rounds says {t['rounds']}")
    others = sorted(set(t["order"]) - rows.keys())
    need(not others, f"{where}.order: rounds of {', '.join(others)}, which has no row")
    _ratio(t, where, {"median": "median_ns", "min": "min_ns"}, lambda r, f: r[f])


def _events(e: dict[str, Any], where: str) -> None:
    for lib, r in e["rows"].items():
        at = f"{where}.rows.{lib}"
        left = r["made"] - r["received"] - r["lost"] - r["dropped"] - r["masked"]
        need(r["unaccounted"] == left,
              f"{at}.unaccounted: {r['unaccounted']}, but made {r['made']} - received "
              f"{r['received']} - lost {r['lost']} - dropped {r['dropped']} - masked "
              f"{r['masked']} is {left}")
        lat = r["latency_ns"]
        need(lat["count"] == r["received"],
              f"{at}.latency_ns.count: {lat['count']}, received {r['received']}: the "
              "histogram holds one latency per event received")
        if lat["count"]:
            need(lat["min"] <= lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"],
                  f"{at}.latency_ns: min {lat['min']} <= p50 {lat['p50']} <= p90 "
                  f"{lat['p90']} <= p99 {lat['p99']} <= max {lat['max']} does not hold")
            need(lat["min"] <= lat["mean"] <= lat["max"],
                  f"{at}.latency_ns: mean {lat['mean']} outside [min, max]")
    _ratio(e, where, {"p50": "p50", "p99": "p99", "max": "max"},
           lambda r, f: r["latency_ns"].get(f))


def _ratio(part: dict[str, Any], where: str, fields: dict[str, str], figure: Any) -> None:
    """udrv / gpiod of each figure, present exactly when both libraries have rows."""
    rows = part["rows"]
    both = {"udrv", "gpiod"} <= rows.keys()
    if "ratio" not in part:
        need(not both, f"{where}: rows of udrv and gpiod, but no ratio")
        return
    need(both, f"{where}.ratio: a ratio without rows of both udrv and gpiod")
    for key, value in part["ratio"].items():
        u, g = figure(rows["udrv"], fields[key]), figure(rows["gpiod"], fields[key])
        need(u is not None and g is not None,
              f"{where}.ratio.{key}: a ratio of figures the rows do not have")
        want = u / g if g else None
        need((value is None) == (want is None) and
              (want is None or abs(value - want) <= RATIO_ROUNDING),
              f"{where}.ratio.{key}: {value}, but udrv's {u} / gpiod's {g} is "
              f"{'none (gpiod 0)' if want is None else round(want, 3)}")


def _bus_row(r: dict[str, Any], at: str, n: int, rounds: int) -> None:
    need(len(r["ns_per_call"]) == rounds,
         f"{at}.ns_per_call: {len(r['ns_per_call'])} rounds, rounds says {rounds}")
    need(r["calls"] == n * rounds,
         f"{at}.calls: {r['calls']}, but {rounds} rounds of {n} calls are {n * rounds}")
    need(r["wrong"] <= r["calls"], f"{at}.wrong: {r['wrong']} of {r['calls']} calls")
    need(r["min_ns"] == min(r["ns_per_call"]),
         f"{at}.min_ns: {r['min_ns']}, the rounds' least is {min(r['ns_per_call'])}")
    median = statistics.median(r["ns_per_call"])
    need(abs(r["median_ns"] - median) <= NS_ROUNDING,
         f"{at}.median_ns: {r['median_ns']}, the rounds' median is {median}")


def _buses(b: dict[str, Any], where: str) -> None:
    """Each part's rows: rounds and figures as asked, the libraries it names,
    each library in exactly one of rows, unsupported, unavailable; the ratios
    udrv / each peer of the rows."""
    n, rounds = b["calls_per_round"], b["rounds"]
    for part in ("i2c", "spi"):
        s, at = b[part], f"{where}.{part}"
        libs = set(s["libraries"])
        for key in ("unsupported", "unavailable"):
            others = sorted(set(s[key]) - libs)
            need(not others, f"{at}.{key}: {', '.join(others)}, not among its libraries")
        both = sorted(set(s["unsupported"]) & set(s["unavailable"]))
        need(not both, f"{at}: {', '.join(both)} both unsupported and unavailable")
        measured = libs - set(s["unsupported"]) - set(s["unavailable"])
        for lib in sorted(libs):
            count = s["order"].count(lib)
            want = rounds if lib in measured else 0
            need(count == want, f"{at}.order: {count} rounds of {lib}, expected {want}")
        need(set(s["order"]) <= libs, f"{at}.order: a library that is not among its libraries")
        need(bool(s["calls"]), f"{at}.calls: none")
        for call, c in s["calls"].items():
            cat = f"{at}.calls.{call}"
            need(set(c["rows"]) == measured,
                 f"{cat}.rows: {', '.join(sorted(c['rows'])) or 'none'}, but the libraries "
                 f"measured are {', '.join(sorted(measured)) or 'none'}")
            for lib, r in c["rows"].items():
                _bus_row(r, f"{cat}.rows.{lib}", n, rounds)
            _bus_ratio(c, cat)
    runs = [("mcp3008" if i == 0 else f"mcp3008_more[{i - 1}]", m)
            for i, m in enumerate(mcp3008_runs(b))]  # fmt: skip
    need(not b.get("mcp3008_more") or "mcp3008" in b, f"{where}.mcp3008_more without mcp3008")
    for name, m in runs:
        at = f"{where}.{name}"
        r = m["rows"]["udrv"]
        _bus_row(r, f"{at}.rows.udrv", n, rounds)
        need(len(m["values"]) == rounds, f"{at}.values: {len(m['values'])}, rounds {rounds}")
        need("reads_per_s" in r, f"{at}.rows.udrv: no reads_per_s")
        want = 1e9 / r["median_ns"] if r["median_ns"] else 0.0
        need(abs(r["reads_per_s"] - want) <= max(0.1, want * 1e-3) + 1e-9,
             f"{at}.rows.udrv.reads_per_s: {r['reads_per_s']}, 1e9 / median_ns is "
             f"{round(want, 1)}")
    versions = [m["gpiozero"] for _name, m in runs]
    need(len(set(versions)) == len(versions),
         f"{where}: gpiozero {', '.join(versions)}: a version measured twice")


def mcp3008_runs(b: dict[str, Any]) -> list[dict[str, Any]]:
    """A buses section's MCP3008 runs: mcp3008 (the bench's own gpiozero), then
    mcp3008_more (udrv-pybench --gpiozero's)."""
    return ([b["mcp3008"]] if "mcp3008" in b else []) + list(b.get("mcp3008_more", []))


def _bus_ratio(c: dict[str, Any], where: str) -> None:
    rows = c["rows"]
    peers = sorted(set(rows) - {"udrv"})
    if "udrv" not in rows or not peers:
        need("ratio" not in c, f"{where}.ratio: a ratio without rows of udrv and a peer")
        return
    need("ratio" in c and sorted(c["ratio"]) == peers,
         f"{where}.ratio: {sorted(c.get('ratio', {}))}, expected one per peer {peers}")
    u = rows["udrv"]
    for lib, q in c["ratio"].items():
        for key, fig in (("median", "median_ns"), ("min", "min_ns")):
            g = rows[lib][fig]
            want = u[fig] / g if g else None
            value = q[key]
            need((value is None) == (want is None) and
                 (want is None or abs(value - want) <= RATIO_ROUNDING),
                 f"{where}.ratio.{lib}.{key}: {value}, but udrv's {u[fig]} / {lib}'s {g} is "
                 f"{'none' if want is None else round(want, 3)}")


# ---- the model ----

@dataclass(frozen=True)
class ToggleRow:
    """One library's set_value() rounds: ns per call per round, counted at the source."""

    library: str
    ns_per_call: tuple[float, ...]
    median_ns: float
    min_ns: float
    calls: int
    driven: int  # gpio-wire's DRIVEN count: calls when every call reached the line

    @property
    def counted(self) -> bool:
        return self.driven == self.calls


@dataclass(frozen=True)
class EventRow:
    """One library's events run: the source's count and where each edge went."""

    library: str
    made: int
    received: int
    lost: int
    dropped: int
    masked: int
    other: int
    unaccounted: int
    seconds: float
    latency_ns: dict[str, float]  # count, min, max, mean, p50, p90, p99 (count 0: none)


@dataclass(frozen=True)
class BusRow:
    """One library's rounds of one I2C or SPI call (or the MCP3008's reads)."""

    library: str
    ns_per_call: tuple[float, ...]
    median_ns: float
    min_ns: float
    calls: int
    wrong: int  # answers that were not the reference's: not 0 fails the run


@dataclass(frozen=True)
class BusCall:
    """One call (byte-data, word-data, i2c-block-32, xfer-3): its rows and
    the ratios udrv / each peer ({"smbus": {"median": 0.98, "min": 0.97}})."""

    name: str
    rows: dict[str, BusRow]
    ratio: dict[str, dict[str, float | None]]


@dataclass(frozen=True)
class BusPart:
    """The I2C or the SPI part of --buses: where, what each library calls, the
    ones left out and why, and the calls."""

    kind: str  # "i2c" or "spi"
    where: str  # "SMBus stub driver /dev/i2c-0 0x50", "spi-loopback /dev/spidev0.1"
    libraries: dict[str, str]
    unsupported: dict[str, str]
    unavailable: dict[str, str]
    calls: dict[str, BusCall]


@dataclass(frozen=True)
class Mcp3008:
    """gpiozero's MCP3008.value through udrv's factory, under one gpiozero."""

    gpiozero: str
    channel: int
    row: BusRow
    reads_per_s: float


@dataclass(frozen=True)
class Buses:
    calls_per_round: int
    rounds: int
    parts: dict[str, BusPart]
    mcp3008: tuple[Mcp3008, ...]  # the bench's own gpiozero first, then --gpiozero's

    @property
    def failures(self) -> list[str]:
        bad = [f"{p.kind} {lib}: {why}" for p in self.parts.values()
               for lib, why in p.unavailable.items()]
        bad += [f"{p.kind} {c.name} {r.library}: {r.wrong} of {r.calls} answers wrong"
                for p in self.parts.values() for c in p.calls.values() for r in c.rows.values()
                if r.wrong]  # fmt: skip
        bad += [f"mcp3008 (gpiozero {m.gpiozero}): {m.row.wrong} of {m.row.calls} values wrong"
                for m in self.mcp3008 if m.row.wrong]  # fmt: skip
        return bad


def bus_model(b: dict[str, Any]) -> Buses:
    """A checked buses section (check_pybench()) as its model."""

    def row(lib: str, r: dict[str, Any]) -> BusRow:
        return BusRow(lib, tuple(r["ns_per_call"]), r["median_ns"], r["min_ns"], r["calls"],
                      r["wrong"])

    parts = {}
    for kind in ("i2c", "spi"):
        s = b[kind]
        where = (f"{s['adapter']} {s['bus']} 0x{s['address']:02x}" if kind == "i2c"
                 else f"{s['modalias']} {s['device']}")  # fmt: skip
        calls = {name: BusCall(name, {lib: row(lib, r) for lib, r in c["rows"].items()},
                               {lib: dict(q) for lib, q in c.get("ratio", {}).items()})
                 for name, c in s["calls"].items()}  # fmt: skip
        parts[kind] = BusPart(kind, where, dict(s["libraries"]), dict(s["unsupported"]),
                              dict(s["unavailable"]), calls)
    runs = mcp3008_runs(b)
    return Buses(b["calls_per_round"], b["rounds"], parts,
                 tuple(Mcp3008(m["gpiozero"], m["channel"], row("udrv", m["rows"]["udrv"]),
                               m["rows"]["udrv"]["reads_per_s"]) for m in runs))  # fmt: skip


@dataclass(frozen=True)
class PyBench:
    """One udrv-pybench-1 document; `doc` is the checked document itself."""

    source: str
    kernel: str
    chip: str
    out_line: int
    in_line: int
    versions: dict[str, str]
    histogram: str
    sched: dict[str, Any]
    calls_per_round: int
    rounds: int
    order: tuple[str, ...]
    toggle: dict[str, ToggleRow]
    toggle_ratio: dict[str, float | None]
    events_count: int
    period_ns: int
    buffer: int
    events: dict[str, EventRow]
    events_ratio: dict[str, float | None]
    note: str | None
    doc: dict[str, Any]
    buses: Buses | None = None  # udrv-pybench --buses

    @property
    def failures(self) -> list[str]:
        """What the bench itself fails the run for (exit 1): a round's calls not
        all counted at the source, an event run's edges not all accounted for."""
        bad = [f"{r.library} toggle: {r.calls} set_value calls, gpio-wire counted "
               f"{r.driven} level changes" for r in self.toggle.values() if not r.counted]
        bad += [f"{r.library} events: the generator made {r.made}; {r.unaccounted} "
                "unaccounted" for r in self.events.values() if r.unaccounted]
        return bad + (self.buses.failures if self.buses else [])


def model(doc: dict[str, Any], source: str) -> PyBench:
    """The model of a document check_pybench() passed."""
    t, e = doc["toggle"], doc["events"]
    return PyBench(
        source=source, kernel=doc["kernel"], chip=doc["chip"], out_line=doc["out_line"],
        in_line=doc["in_line"], versions=dict(doc["versions"]), histogram=doc["histogram"],
        sched=dict(doc["sched"]), calls_per_round=t["calls_per_round"], rounds=t["rounds"],
        order=tuple(t["order"]),
        toggle={lib: ToggleRow(lib, tuple(r["ns_per_call"]), r["median_ns"], r["min_ns"],
                               r["calls"], r["driven"]) for lib, r in t["rows"].items()},
        toggle_ratio=dict(t.get("ratio", {})), events_count=e["count"],
        period_ns=e["period_ns"], buffer=e["buffer"],
        events={lib: EventRow(lib, r["made"], r["received"], r["lost"], r["dropped"],
                              r["masked"], r["other"], r["unaccounted"], r["seconds"],
                              dict(r["latency_ns"])) for lib, r in e["rows"].items()},
        events_ratio=dict(e.get("ratio", {})), note=doc.get("note"), doc=doc,
        buses=bus_model(doc["buses"]) if "buses" in doc else None)
