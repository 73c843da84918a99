# SPDX-License-Identifier: GPL-2.0-only
"""udrv-report's pieces that need no matplotlib: binning, the noise rule, reading files."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from report_helpers import BENCH_IRQ, BENCH_TIMER, LAB_A, LAB_B

from rig.report.bins import nice_ceil, rebin
from rig.report.compare import judge, pair_runs
from rig.report.errors import InputError
from rig.report.fmt import us
from rig.report.load import load, load_all, split_spec
from rig.report.model import Stats, label_runs


def test_nice_ceil_steps_1_2_5() -> None:
    assert [nice_ceil(x) for x in (0.3, 1, 1.5, 2, 3, 7, 10, 11, 180, 4999)] == [
        1, 1, 2, 2, 5, 10, 10, 20, 200, 5000]


def test_rebin_counts_every_sample_once_in_the_bin_of_its_bucket() -> None:
    runs = load(str(LAB_A)).runs
    by_key: dict[tuple, list] = {}
    for run in runs:
        for row in run.rows:
            by_key.setdefault(row.key, []).append(row)
    for key, rows in by_key.items():
        edges, counts = rebin(rows)
        width = edges[1] - edges[0]
        assert all(abs(edges[i + 1] - edges[i] - width) < 1e-9 for i in range(len(edges) - 1))
        assert width >= max(b[1] - b[0] + 1 for r in rows for b in r.stats.buckets), key
        assert len(edges) - 1 <= 2 * 200 + 1, key
        for row, c in zip(rows, counts, strict=True):
            assert sum(c) == row.stats.count - row.stats.overflow, key
            for lo, hi, n in row.stats.buckets:
                i = int(((lo + hi + 1) / 2 - edges[0]) // width)
                assert c[i] >= n, (key, lo, hi)


def stats(**kw: float) -> Stats:
    base = dict(count=10000, min=900, avg=1000.0, max=2000, stddev=10.0, p50=1000, p90=1010,
                p99=1050, p99_9=1200, p99_99=1900, overflow=0, buckets=())
    base.update(kw)
    return Stats(**base)  # type: ignore[arg-type]


def test_noise_rule() -> None:
    a = stats()
    assert judge("avg", None, a, replace(a, avg=1020.0), 0.03).cls == "num"
    assert judge("avg", None, a, replace(a, avg=1040.0), 0.03).cls == "num worse"
    assert judge("avg", None, a, replace(a, avg=960.0), 0.03).cls == "num better"
    noisy = replace(a, stddev=2000.0)  # 3 SE = 3 * sqrt(2 * 2000^2 / 10000) = 84.9 ns
    assert judge("avg", None, noisy, replace(noisy, avg=1080.0), 0.03).cls == "num"
    assert judge("avg", None, noisy, replace(noisy, avg=1090.0), 0.03).cls == "num worse"
    assert judge("p50", 0.5, a, replace(a, p50=1100), 0.03).cls == "num worse"
    assert judge("p50", 0.5, a, replace(a, p50=1100), 0.2).cls == "num"
    # p99.9 needs 10000 samples on each side for 10 beyond it
    assert judge("p99_9", 0.999, a, replace(a, p99_9=2000), 0.03).cls == "num worse"
    few = replace(a, count=9999)
    cell = judge("p99_9", 0.999, few, replace(few, p99_9=2000), 0.03)
    assert cell.cls == "num muted" and "10000 samples" in cell.title
    cell = judge("max", None, a, replace(a, max=9000), 0.03)
    assert cell.cls == "num muted" and cell.text.endswith("\u00d74.500")


def test_runs_pair_by_kernel_and_load_or_one_to_one() -> None:
    a, b = load_all([str(LAB_A)]), load_all([str(LAB_B)])
    pairs = pair_runs(a, b)
    assert [(x.kernel, x.load, y.kernel, y.load) for x, y in pairs] == [
        (r.kernel, r.load, r.kernel, r.load) for r in a]
    std, rt = load_all([f"{LAB_A}@std/idle"]), load_all([f"{LAB_A}@rt/none"])
    assert [(x.kernel, y.kernel) for x, y in pair_runs(std, rt)] == [("std", "rt")]


def test_a_priority_variant_pairs_only_with_its_own() -> None:
    """A lab file's variant runs ("irq-prio 90") are other configurations: each
    pairs with the same variant of the other file, never with the plain run."""
    a, b = load_all([str(LAB_A)]), load_all([str(LAB_B)])
    plain = next(r for r in a if not r.variant)
    b = [replace(r, variant="") for r in b]
    a = [*a, replace(plain, variant="irq-prio 90")]
    pairs = pair_runs(a, b)
    assert all(x.variant == y.variant for x, y in pairs), pairs
    assert not any(x.variant == "irq-prio 90" for x, _ in pairs)
    b.append(replace(b[0], variant="irq-prio 90"))
    got = [(x.variant, y.variant) for x, y in pair_runs(a, b)]
    assert ("irq-prio 90", "irq-prio 90") in got


def test_bench_files_join_and_lab_files_stay_apart() -> None:
    runs = load_all([str(BENCH_TIMER), str(BENCH_IRQ)])
    assert len(runs) == 1 and [d.bench for d in runs[0].docs] == ["timer", "irq"]
    assert (runs[0].kernel, runs[0].load) == ("std", "none")
    runs = load_all([str(BENCH_TIMER), str(BENCH_TIMER)])
    assert len(runs) == 2  # the same bench twice: two runs
    label_runs(runs)
    assert runs[0].label != runs[1].label
    runs = load_all([str(LAB_A), str(LAB_B)])
    label_runs(runs)
    assert len(runs) == 8 and len({r.label for r in runs}) == 8
    assert runs[0].label == "lab-quick-a.json: std idle"


def test_selectors(tmp_path: Path) -> None:
    assert split_spec("results.json@rt/idle") == ("results.json", "rt/idle")
    odd = tmp_path / "a@b.json"
    odd.write_text(BENCH_TIMER.read_text())
    assert split_spec(str(odd)) == (str(odd), None)
    assert [r.kernel + r.load for r in load_all([f"{LAB_A}@rt"])] == ["rtnone", "rtall"]
    with pytest.raises(InputError, match="no run matches @xx"):
        load_all([f"{LAB_A}@xx"])


def test_microsecond_format() -> None:
    assert [us(v) for v in (0, 632, 9740, 10000, 15850, 152400, 2_000_000)] == [
        "0", "0.632", "9.74", "10.0", "15.8", "152", "2000"]


def test_version_is_the_projects() -> None:
    """rig.report's version follows meson.build's (the one udrv prints)."""
    import re

    from rig import report

    meson = (Path(__file__).resolve().parents[3] / "meson.build").read_text()
    m = re.search(r"version:\s*'([^']+)'", meson)
    assert m is not None
    assert report.__version__ == m.group(1)
