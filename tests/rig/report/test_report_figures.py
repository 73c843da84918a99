# SPDX-License-Identifier: GPL-2.0-only
"""The contract of a report's figures (rig/report/figcheck.py), on matplotlib's
objects before the PNG is written: one measure per figure, numbers and units on
every axis, no title drawn over another text. Each check is broken on purpose
by a figure drawn badly here, and seen to fail; the report's own charts pass it
(report_helpers.render fails on any warning of every page the tests render).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Iterator

import pytest
from report_helpers import LAB_A, LAB_RATE, Rendered

if importlib.util.find_spec("matplotlib") is None:
    pytest.fail("these tests draw with matplotlib: scripts/install-deps --check installs "
                "python3-matplotlib (make check runs them with /usr/bin/python3)",
                allow_module_level=True)

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from rig.report import figcheck, plots
from rig.report.load import load_all
from rig.report.model import Run, label_runs
from rig.results import measures as measures_mod
from rig.results.measures import TOGGLES, measure


@pytest.fixture
def fig() -> Iterator[Figure]:
    """A good figure: one measure, numbers and labels, a title above its panel."""
    f, ax = plt.subplots(figsize=(6, 3))
    ax.plot([1, 2, 3], [10, 20, 15])
    ax.set_xlabel("offered (events/s)")
    ax.set_ylabel("latency (\u00b5s)")
    ax.set_title("a panel", fontsize=9)
    f.suptitle("a figure", fontsize=10)
    plots.finish(f)
    figcheck.declare(f, "time (ns)")
    yield f
    plt.close(f)


def test_a_good_figure_passes(fig: Figure) -> None:
    assert figcheck.problems(fig) == []


def test_two_measures_in_one_figure(fig: Figure) -> None:
    figcheck.declare(fig, TOGGLES)
    (problem,) = figcheck.problems(fig)
    assert problem.startswith("mixes measures:") and TOGGLES in problem


def test_a_figure_that_declares_nothing() -> None:
    f, ax = plt.subplots()
    ax.plot([1, 2], [1, 2])
    ax.set(xlabel="x (s)", ylabel="y (s)")
    assert figcheck.problems(f) == ["declares no measure (figcheck.declare)"]
    plt.close(f)


def test_an_axis_without_numbers(fig: Figure) -> None:
    ax = fig.axes[0]
    ax.xaxis.set_major_formatter(NullFormatter())
    assert figcheck.problems(fig) == [
        "panel 'a panel' x axis: 0 tick labels (numbers), needs 2"]


def test_a_log_axis_within_a_decade() -> None:
    """matplotlib's log axis from 30k to 45k has no power of ten to label: the issue's
    toggle chart; plots.log_axis puts numbers there."""
    f, (bare, ours) = plt.subplots(1, 2, figsize=(8, 3))
    for ax in (bare, ours):
        ax.plot([31e3, 44e3], [1, 2])
        ax.set(xlabel="toggles per second", ylabel="n (count)", title=f"p{id(ax)}")
    bare.set_xscale("log")
    bare.set_xlim(30e3, 45e3)
    bare.xaxis.set_minor_formatter(NullFormatter())  # matplotlib labels some minors
    plots.log_axis(ours, "x", 30e3, 45e3)
    figcheck.declare(f, TOGGLES)
    assert figcheck.problems(f) == [
        f"panel 'p{id(bare)}' x axis: 0 tick labels (numbers), needs 2"]
    assert [t.get_text() for t in figcheck._ticklabels(ours.xaxis)] == ["30k", "40k"]
    plt.close(f)


def test_panels_of_a_shared_axis_without_numbers() -> None:
    """plt.subplots(sharex=True) keeps the numbers under the bottom panel only: on a
    tall chart the upper panels had none (the issue's toggle chart)."""
    f, axes = plt.subplots(2, 1, figsize=(5, 5), sharex=True)
    for i, ax in enumerate(axes):
        ax.plot([1, 2], [1, 2])
        ax.set(title=f"run {i}", xlabel="x (s)", ylabel="y (s)")
    f.tight_layout()
    figcheck.declare(f, TOGGLES)
    assert figcheck.problems(f) == ["panel 'run 0' x axis: 0 tick labels (numbers), needs 2"]
    axes[0].tick_params(labelbottom=True)
    plots.finish(f)
    assert figcheck.problems(f) == []
    plt.close(f)


def test_tick_labels_on_top_of_each_other(fig: Figure) -> None:
    ax = fig.axes[0]
    ax.set_xticks([1, 1.02, 1.04], ["1000000", "1000001", "1000002"], fontsize=14)
    assert "panel 'a panel' x axis: tick labels on top of each other" in figcheck.problems(fig)


def test_a_numeric_axis_without_its_unit(fig: Figure) -> None:
    fig.axes[0].set_ylabel("")
    assert figcheck.problems(fig) == [
        "panel 'a panel' y axis: no label (what it counts, its unit)"]


def test_names_need_no_unit(fig: Figure) -> None:
    ax = fig.axes[0]
    ax.set_yticks([10, 20], ["cdev  raw", "cdev  udrv"])
    ax.set_ylabel("")
    assert figcheck.problems(fig) == []


def test_the_figure_title_over_a_panel_title() -> None:
    """The issue's layout: a tall figure, the title at matplotlib's y=0.98, 0.15 inch
    kept free above the panels (the toggle chart before plots.finish)."""
    f, axes = plt.subplots(8, 1, figsize=(7.2, 24), sharex=True)
    for i, ax in enumerate(axes):
        ax.plot([1, 2], [1, 2])
        ax.set(title=f"run {i}", xlabel="x (s)", ylabel="y (s)")
        ax.tick_params(labelbottom=True)
    f.suptitle("Toggle rate of one GPIO line", fontsize=10)
    f.tight_layout(rect=(0, 0, 1, 1 - 0.15 / f.get_figheight()))
    figcheck.declare(f, TOGGLES)
    assert figcheck.problems(f) == [
        "figure text 'Toggle rate of one GPIO line' is drawn over panel title 'run 0'"]
    plots.finish(f)
    assert figcheck.problems(f) == []
    plt.close(f)


def test_panel_titles_over_the_panel_above() -> None:
    f, axes = plt.subplots(2, 1, figsize=(5, 3))
    for i, ax in enumerate(axes):
        ax.plot([1, 2], [1, 2])
        ax.set(title=f"run {i}\nsecond line\nthird line", xlabel="x (s)", ylabel="y (s)")
    figcheck.declare(f, TOGGLES)
    problems = figcheck.problems(f)
    assert any(p.startswith("panel title 'run 1") and "of panel 'run 0" in p
               for p in problems), problems
    plt.close(f)


@pytest.fixture(scope="module")
def lab_runs() -> list[Run]:
    """A fresh `make lab`'s results: the suite's benches and the rate sweep."""
    runs = load_all([str(LAB_A), str(LAB_RATE)])
    label_runs(runs)
    return runs


def _drawn(monkeypatch: pytest.MonkeyPatch, draw: object) -> list[Figure]:
    """The figures a chart function hands to plots._png."""
    figs: list[Figure] = []
    monkeypatch.setattr(plots, "_png", lambda f: figs.append(f) or b"")
    assert callable(draw)
    draw()
    return figs


def test_toggle_chart_has_only_toggle_rows(lab_runs: list[Run],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue: the rate bench's rows (events received per second, 'cdev raw 131.7
    k/s') under the title "Toggle rate of one GPIO line"."""
    rate_rows = [r for run in lab_runs for r in run.rows if r.bench == "rate"]
    assert rate_rows and all(r.is_rate for r in rate_rows)  # what the chart was given
    (f,) = _drawn(monkeypatch, lambda: plots.toggles([(None, lab_runs)]))
    assert figcheck.problems(f) == []
    assert figcheck._MEASURES[f] == {TOGGLES}
    names = {t.get_text() for ax in f.axes for t in ax.get_yticklabels()}
    assert "sysfs-shell  sh" in names and not any("batch" in n or "uio" in n for n in names)
    assert [ax.get_title() for ax in f.axes] == [r.label for r in lab_runs
                                                 if any(measures_mod.is_toggle(x)
                                                        for x in r.rows)]


@pytest.mark.parametrize(("per_s", "text"), [
    (35.0, "35 /s"), (2.5, "2.5 /s"), (0.25, "0.25 /s"), (999.6, "1000 /s"), (1000.0, "1.0 k/s"),
    (131742.0, "131.7 k/s"), (1.25e6, "1.2 M/s"),
])
def test_rate_text(per_s: float, text: str) -> None:
    assert plots.rate_text(per_s) == text


def test_toggle_chart_labels_slow_rows_per_second(lab_runs: list[Run],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A gpiocli row (one process per toggle: tens a second) was labelled "0.0 k/s"."""
    run = next(r for r in lab_runs if any(measures_mod.is_toggle(x) for x in r.rows))
    doc = next(d for d in run.docs if any(measures_mod.is_toggle(x) for x in d.rows))
    i = next(i for i, x in enumerate(doc.rows) if measures_mod.is_toggle(x))
    doc.rows[i] = dataclasses.replace(doc.rows[i], rate_per_s=35.0)
    (f,) = _drawn(monkeypatch, lambda: plots.toggles([(None, [run])]))
    texts = [t.get_text() for ax in f.axes for t in ax.texts]
    assert any(t.startswith(" 35 /s") for t in texts), texts
    assert not any("0.0 k/s" in t for t in texts), texts


def test_toggle_chart_with_the_old_choice_of_rows(lab_runs: list[Run],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows chosen as before (every row with a rate): the check sees two measures."""
    monkeypatch.setattr(plots, "is_toggle", lambda r: r.is_rate)
    (f,) = _drawn(monkeypatch, lambda: plots.toggles([(None, lab_runs)]))
    rate = measure(next(r for run in lab_runs for r in run.rows if r.bench == "rate"))
    assert f"mixes measures: {rate}; {TOGGLES}" in figcheck.problems(f)


def test_page_of_a_fresh_lab(report_a_rate: Rendered) -> None:
    """Toggle tables and chart for the suite's board, none for the rate sweep's."""
    page = report_a_rate.page
    assert {"toggle-rates", "rate-received", "rate-lost"} <= set(page.figures)
    toggles = [tid for tid in page.tables if tid.startswith("table-toggle")]
    assert toggles and not any("x86" in tid for tid in toggles), toggles
    for tid in toggles:
        rows = {(r[0].text, r[1].text) for r in page.tables[tid].rows}
        assert ("sysfs-shell", "sh") in rows and not any("batch" in m for m, _ in rows)
