# SPDX-License-Identifier: GPL-2.0-only
"""udrv-pybench --buses in the udrv-pybench-1 document: a run kept from the
lab's std kernel (tests/rig/fixtures/udrv-pybench-buses.json) passes the
schema and the check and is modelled (rows, ratios, the libraries left out);
each part of the section broken on purpose is refused naming it; wrong
answers make failures; the python-buses table shows its rows and ratios."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rig.results import ResultsError, pybench_document
from rig.results.pybench import check_pybench
from rig.results.schema import HERE, PYBENCH_FILE, Invalid
from rig.results.text import python_buses_table, render

DOC = Path(__file__).parent / "fixtures" / "udrv-pybench-buses.json"


def doc() -> dict[str, Any]:
    return json.loads(DOC.read_text())


def test_the_kept_run_passes_and_is_modelled() -> None:
    m = pybench_document(DOC.read_text(), str(DOC))
    assert m.buses is not None and m.failures == []
    i2c, spi = m.buses.parts["i2c"], m.buses.parts["spi"]
    assert sorted(i2c.calls) == ["byte-data", "i2c-block-32", "word-data"]
    assert sorted(i2c.calls["byte-data"].rows) == ["smbus", "smbus2", "udrv"]
    assert "I2C_FUNC_I2C" in i2c.unsupported["periphery"]  # i2c-stub: SMBus only
    assert sorted(spi.calls["xfer-3"].rows) == ["periphery", "spidev", "udrv"]
    for part in (i2c, spi):
        for call in part.calls.values():
            u = call.rows["udrv"]
            for lib, q in call.ratio.items():
                assert q["median"] == round(u.median_ns / call.rows[lib].median_ns, 3)
    (adc,) = m.buses.mcp3008
    assert adc.gpiozero == "2.0.1" and adc.row.wrong == 0
    assert adc.reads_per_s == round(1e9 / adc.row.median_ns, 1)


def with_gpiozero1(d: dict[str, Any]) -> dict[str, Any]:
    """@d with an mcp3008_more run under gpiozero 1.6.2 (udrv-pybench --gpiozero)."""
    more = copy.deepcopy(d["buses"]["mcp3008"])
    more["gpiozero"] = "1.6.2"
    d["buses"]["mcp3008_more"] = [more]
    return d


def test_more_gpiozeros_are_read_in_order() -> None:
    m = pybench_document(json.dumps(with_gpiozero1(doc())), "x")
    assert m.buses is not None
    assert [r.gpiozero for r in m.buses.mcp3008] == ["2.0.1", "1.6.2"]
    lines = render(python_buses_table([{"lab_kernel": "std", "result": with_gpiozero1(doc())}]))
    assert sum("gpiozero 1.6.2 MCP3008" in line for line in lines) == 1, lines
    assert sum("gpiozero 2.0.1 MCP3008" in line for line in lines) == 1, lines


def test_jsonschema_agrees() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(json.loads((HERE / PYBENCH_FILE).read_text()))
    v.validate(doc())
    bad = doc()
    bad["buses"]["i2c"]["calls"]["byte-data"]["rows"]["udrv"]["wrong"] = -1
    assert not v.is_valid(bad)


def _i2c(d: dict[str, Any]) -> dict[str, Any]:
    return d["buses"]["i2c"]


BREAKS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a ratio that is not the rows'": (
        lambda d: _i2c(d)["calls"]["word-data"]["ratio"]["smbus"].update(median=0.5),
        "buses.i2c.calls.word-data.ratio.smbus.median"),
    "a ratio of a peer left out": (
        lambda d: _i2c(d)["calls"]["byte-data"]["ratio"].pop("smbus2"),
        "buses.i2c.calls.byte-data.ratio"),
    "a median that is not the rounds'": (
        lambda d: d["buses"]["spi"]["calls"]["xfer-3"]["rows"]["spidev"].update(median_ns=1.0),
        "buses.spi.calls.xfer-3.rows.spidev.median_ns"),
    "a round too few": (
        lambda d: d["buses"]["spi"]["calls"]["xfer-3"]["rows"]["udrv"]["ns_per_call"].pop(),
        "buses.spi.calls.xfer-3.rows.udrv.ns_per_call"),
    "calls that are not rounds x calls_per_round": (
        lambda d: _i2c(d)["calls"]["byte-data"]["rows"]["udrv"].update(calls=7),
        "buses.i2c.calls.byte-data.rows.udrv.calls"),
    "a library measured but not in the rows": (
        lambda d: _i2c(d)["calls"]["byte-data"]["rows"].pop("smbus"),
        "buses.i2c.calls.byte-data.rows"),
    "an order missing a round": (
        lambda d: _i2c(d)["order"].remove("smbus2"), "buses.i2c.order"),
    "unsupported and measured": (
        lambda d: _i2c(d)["unsupported"].update(smbus="no"), "buses.i2c.order"),
    "left out but not among the libraries": (
        lambda d: (_i2c(d)["libraries"].pop("periphery")), "buses.i2c.unsupported"),
    "a library the bench has no such name for": (
        lambda d: _i2c(d)["order"].append("wiringpi"), "buses.i2c.order"),
    "an mcp3008 rate that is not the median's": (
        lambda d: d["buses"]["mcp3008"]["rows"]["udrv"].update(reads_per_s=1.0),
        "buses.mcp3008.rows.udrv.reads_per_s"),
    "an mcp3008 value per round missing": (
        lambda d: d["buses"]["mcp3008"]["values"].pop(), "buses.mcp3008.values"),
    "an unknown field": (lambda d: d["buses"].update(extra=1), "buses"),
    "a gpiozero measured twice": (
        lambda d: with_gpiozero1(d)["buses"]["mcp3008_more"][0].update(gpiozero="2.0.1"),
        "buses: gpiozero 2.0.1, 2.0.1"),
    "more gpiozeros without the bench's own": (
        lambda d: with_gpiozero1(d)["buses"].pop("mcp3008"), "buses.mcp3008_more without"),
    "a value per round missing under another gpiozero": (
        lambda d: with_gpiozero1(d)["buses"]["mcp3008_more"][0]["values"].pop(),
        "buses.mcp3008_more[0].values"),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_section_is_refused_naming_it(name: str) -> None:
    d = copy.deepcopy(doc())
    damage, where = BREAKS[name]
    damage(d)
    with pytest.raises(Invalid) as exc:
        check_pybench(d)
    assert where in str(exc.value), exc.value
    with pytest.raises(ResultsError):
        pybench_document(json.dumps(d), "broken")


def test_wrong_answers_and_missing_peers_are_failures() -> None:
    d = doc()
    _i2c(d)["calls"]["word-data"]["rows"]["smbus2"]["wrong"] = 3
    spi = d["buses"]["spi"]
    spi["unavailable"]["periphery"] = "cannot import periphery: No module named 'periphery'"
    spi["order"] = [x for x in spi["order"] if x != "periphery"]
    call = spi["calls"]["xfer-3"]
    del call["rows"]["periphery"], call["ratio"]["periphery"]
    d["buses"]["mcp3008"]["rows"]["udrv"]["wrong"] = 1
    m = pybench_document(json.dumps(d), "x")
    assert m.failures == ["spi periphery: cannot import periphery: No module named 'periphery'",
                          "i2c word-data smbus2: 3 of 1000 answers wrong",
                          "mcp3008 (gpiozero 2.0.1): 1 of 1000 values wrong"]


def test_a_document_without_buses_still_reads() -> None:
    d = doc()
    del d["buses"]
    for k in ("smbus", "smbus2", "spidev", "periphery", "gpiozero"):
        del d["versions"][k]
    assert pybench_document(json.dumps(d), "x").buses is None


def test_the_table_has_the_rows_and_the_ratios() -> None:
    d = doc()
    lines = render(python_buses_table([{"lab_kernel": "std", "result": d}]))
    text = "\n".join(lines)
    b = d["buses"]
    q = b["i2c"]["calls"]["byte-data"]["ratio"]["smbus"]["median"]
    assert any(line.split()[:3] == ["std", "i2c", "byte-data"] and f"x{q:.3f}" in line
               for line in lines), text
    assert "periphery" in text and "I2C_FUNC_I2C" in text  # why it has no I2C row
    reads = b["mcp3008"]["rows"]["udrv"]["reads_per_s"]
    assert f"{reads:.0f}" in text
    assert python_buses_table([{"lab_kernel": "std", "result": {}}]).rows == []
