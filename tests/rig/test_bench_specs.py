# SPDX-License-Identifier: GPL-2.0-only
"""One spec per bench (rig/bench/<bench>/spec.py, listed in rig.bench.specs):

- udrv-bench-1.schema.json is the composition of its base and the benches'
  parts (python3 -m rig.results schema --compose), and a part changed on
  purpose makes the checked-in file differ; parts that clash are refused;
- every bench of the schema's enum is a folder with its spec and its part;
- a bench's section is read into its typed model, and rig.results and
  rig.report read it only through the model: no `["gaps"]` outside the spec
  (the scan below, and a copy with such a read put back on purpose).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rig.bench.gaps import model as gaps_model
from rig.bench.pwm import model as pwm_model
from rig.bench.specs import BY_NAME, SPECS
from rig.results import compose, load
from rig.results.check import check_bench
from rig.results.schema import Invalid

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "rig" / "report" / "fixtures"


def test_checked_in_schema_is_the_composition() -> None:
    assert compose.TARGET.read_text() == compose.text(compose.compose())
    assert compose.write(check=True)


def test_the_command_checks_the_composition() -> None:
    r = subprocess.run([sys.executable, "-m", "rig.results", "schema", "--compose", "--check"],
                       cwd=REPO, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the composition of its parts" in r.stdout


def _parts(tmp_path: Path, bench: str, change: object) -> list[Path]:
    """Every spec's part, @bench's a copy changed by @change(part)."""
    out = []
    for spec in SPECS:
        if spec.name != bench:
            out.append(spec.schema)
            continue
        part = json.loads(spec.schema.read_text())
        change(part)  # type: ignore[operator]
        path = tmp_path / f"{bench}.schema.json"
        path.write_text(json.dumps(part))
        out.append(path)
    return out


def test_a_broken_part_no_longer_matches(tmp_path: Path) -> None:
    """A part changed on purpose: the checked-in file is not its composition."""
    def loosen(part: dict) -> None:  # type: ignore[type-arg]
        part["$defs"]["gaps"]["required"].remove("threshold_ns")

    target = tmp_path / "udrv-bench-1.schema.json"
    shutil.copy(compose.TARGET, target)
    assert compose.write(target, check=True)
    broken = compose.compose(parts=_parts(tmp_path, "gaps", loosen))
    assert compose.text(broken) != target.read_text()
    assert not compose.write(target, check=True, parts=_parts(tmp_path, "gaps", loosen))
    assert target.read_text() == compose.TARGET.read_text()  # --check changed nothing
    assert not compose.write(target, parts=_parts(tmp_path, "gaps", loosen))
    assert json.loads(target.read_text()) == broken


def test_clashing_parts_are_refused(tmp_path: Path) -> None:
    def clash(part: dict) -> None:  # type: ignore[type-arg]
        part["$defs"] = {"row": {"type": "object"}}  # the base's

    with pytest.raises(compose.ComposeError, match="'row' is already"):
        compose.compose(parts=_parts(tmp_path, "toggle", clash))
    with pytest.raises(compose.ComposeError, match="bench 'gaps' twice"):
        compose.compose(parts=[s.schema for s in SPECS] + [BY_NAME["gaps"].schema])

    def other(part: dict) -> None:  # type: ignore[type-arg]
        part["title"] = "x"

    with pytest.raises(compose.ComposeError, match="title"):
        compose.compose(parts=_parts(tmp_path, "irq", other))


def test_every_bench_has_its_folder() -> None:
    enum = json.loads(compose.TARGET.read_text())["properties"]["bench"]["enum"]
    assert enum == [s.name for s in SPECS]
    for spec in SPECS:
        folder = REPO / "rig" / "bench" / spec.name
        assert (folder / "spec.py").is_file() and (folder / "__init__.py").is_file()
        assert json.loads(spec.schema.read_text())["bench"] == spec.name
        conds = json.loads(compose.TARGET.read_text())["allOf"]
        for cond in json.loads(spec.schema.read_text()).get("allOf", []):
            assert cond in conds  # a condition on its own documents only
            assert cond["if"] == {"properties": {"bench": {"const": spec.name}}}
    required = {c["if"]["properties"]["bench"]["const"]: c["then"]["required"]
                for c in json.loads(compose.TARGET.read_text())["allOf"]}
    assert required == {"gaps": ["gaps"], "rate": ["rate"], "pci": ["pci"], "i2c": ["i2c"],
                        "spi": ["spi"], "pwm": ["pwm"]}


def meson_benches(text: str) -> list[str]:
    """rig/bench/meson.build's udrv_benches: the benches built (their folders,
    their commands in bench_list.h) and whose specs are installed."""
    m = re.search(r"^udrv_benches = \[([^\]]*)\]", text, re.MULTILINE)
    assert m, "rig/bench/meson.build: no 'udrv_benches = [...]'"
    return re.findall(r"'([^']+)'", m.group(1))


def test_meson_lists_every_spec() -> None:
    """The C side's list and the Python side's: the same benches, in one order."""
    text = (REPO / "rig" / "bench" / "meson.build").read_text()
    assert meson_benches(text) == [s.name for s in SPECS]
    # a bench left out on purpose is seen
    broken = re.sub(r",\s*'pwm'\]", "]", text)
    assert broken != text and meson_benches(broken) != [s.name for s in SPECS]


def test_gaps_section_is_typed() -> None:
    runs = load(str(FIXTURES / "lab-gaps.json")).runs
    docs = [d for r in runs for d in r.docs if d.bench == "gaps"]
    assert docs
    for d in docs:
        g = gaps_model.of(d)
        assert isinstance(g, gaps_model.Gaps)
        assert all(isinstance(x, gaps_model.Gap) for x in g.timeline)
        assert len(g.timeline) + g.timeline_dropped == g.count
    assert not any(gaps_model.of(d) for r in runs for d in r.docs if d.bench != "gaps")


def test_gaps_check_is_the_specs(tmp_path: Path) -> None:
    """The spec's check runs on its model: a gap below the threshold is refused."""
    doc = json.loads((FIXTURES / "lab-gaps.json").read_text())["runs"][0]["documents"][0]
    check_bench(doc)
    doc["gaps"]["timeline"][0]["gap_ns"] = doc["gaps"]["threshold_ns"] - 1
    with pytest.raises(Invalid, match=r"gaps.timeline: a gap < threshold_ns"):
        check_bench(doc)


def test_pwm_section_is_typed() -> None:
    runs = load(str(FIXTURES / "lab-pwm.json")).runs
    sections = [p for r in runs for d in r.docs if (p := pwm_model.of(d))]
    assert len(sections) == 4
    for p in sections:
        for run in p.runs:
            assert all(isinstance(x, pwm_model.Pulse) for x in run.timeline)
            assert len(run.timeline) + run.timeline_dropped == run.wire.pulses


def test_pwm_check_is_the_specs() -> None:
    """The spec's check runs on its model: a pulse's error that is not its
    width row's sample is refused; LAVA's rebuilt document has no timeline."""
    doc = json.loads((FIXTURES / "lab-pwm.json").read_text())["runs"][0]["documents"][0]
    check_bench(doc)
    run = doc["pwm"]["runs"][0]
    pulses = run["timeline"]
    run["timeline"] = []
    with pytest.raises(Invalid, match=r"pwm.runs\[0\]: 0 pulses listed \+ 0 dropped"):
        check_bench(doc)
    check_bench({**doc, "rebuilt": "from LAVA's test cases"})
    run["timeline"] = pulses
    pulses[-1]["error_ns"] = -10**9
    with pytest.raises(Invalid, match=r"pwm.runs\[0\].timeline: largest \|error_ns\| "
                                      r"1000000000, its width-error row's max"):
        check_bench(doc)


def section_reads(root: Path) -> list[str]:
    """Places in rig/results and rig/report that read a bench's section by key."""
    keys = "|".join(re.escape(s.section) for s in SPECS if s.section and s.parse)
    pattern = re.compile(rf"""\[\s*["']({keys})["']\s*\]|\.get\(\s*["']({keys})["']""")
    found = []
    for package in ("results", "report"):
        for path in sorted((root / "rig" / package).rglob("*.py")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    return found


def test_sections_are_read_through_their_models() -> None:
    assert section_reads(REPO) == []


def test_a_section_read_by_key_is_found(tmp_path: Path) -> None:
    for package in ("results", "report"):
        shutil.copytree(REPO / "rig" / package, tmp_path / "rig" / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    tables = tmp_path / "rig" / "report" / "tables.py"
    tables.write_text(tables.read_text() + '\n\ndef f(doc):\n    return doc["gaps"]["count"]\n')
    assert section_reads(tmp_path) == [
        f'rig/report/tables.py:{len(tables.read_text().splitlines())}: '
        'return doc["gaps"]["count"]']


def test_a_section_in_another_benchs_document_is_refused() -> None:
    """A bench's own section belongs to its documents: a gaps object in a
    toggle document is refused (the schema alone allows it)."""
    gaps = json.loads((FIXTURES / "lab-gaps.json").read_text())["runs"][0]["documents"][0]
    toggle = next(d for d in json.loads((FIXTURES / "lab-quick-a.json").read_text())["runs"][0]
                  ["documents"] if d["bench"] == "toggle")
    check_bench(toggle)
    toggle["gaps"] = gaps["gaps"]
    with pytest.raises(Invalid, match=r"^gaps: a gaps in a toggle document$"):
        check_bench(toggle)
