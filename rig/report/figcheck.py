# SPDX-License-Identifier: GPL-2.0-only
"""The contract of every figure of a report, checked on matplotlib's objects
before the PNG is written (plots.png):

- one measure: the rows drawn (declare()) are of one measure (rig/results/measures.py);
- numbers: every visible axis shows tick labels, a numeric one at least
  two, not on top of each other, and its label (the unit) is on it or on an
  axis shared with it (the bottom row of a column of panels);
- titles: the figure's title (and any figure text) overlaps no panel's title
  and no text of any panel; a panel's title overlaps no other panel's texts.

problems() says what is broken, one sentence each; the report writes the
page anyway and prints them as warnings (tests/rig/report fails on any).
"""

from __future__ import annotations

import itertools
import re
import weakref

from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

_MEASURES: weakref.WeakKeyDictionary[Figure, set[str]] = weakref.WeakKeyDictionary()
# a tick label that is a number ("20k", "0.5", "-3", "1e5", mathtext's 10^5), not a name
NUMBER = re.compile(r"[-\u2212+]?[\d.]+(e[-+]?\d+)?\s*[kMG%]?")
SLACK = 1.0  # pixels two boxes may share (antialiased edges) before they overlap


def declare(fig: Figure, *measures: str) -> None:
    """The measures of what is drawn in @fig (rig.results.measures.measure() of its rows)."""
    _MEASURES.setdefault(fig, set()).update(measures)


def name(fig: Figure) -> str:
    """The figure's title, else its first panel's: how a warning names it."""
    for text in (*fig.texts, *(ax.title for ax in fig.axes)):
        if text.get_text():
            return text.get_text().replace("\n", " ")
    return "untitled figure"


def problems(fig: Figure) -> list[str]:
    """What in @fig breaks the contract above (empty: nothing)."""
    found = _measure_problems(fig)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    axes = [ax for ax in fig.axes if ax.get_visible()]
    for ax in axes:
        for axis in (ax.xaxis, ax.yaxis):
            found += _axis_problems(ax, axis, renderer)
    found += _title_problems(fig, axes, renderer)
    return found


def _measure_problems(fig: Figure) -> list[str]:
    measures = sorted(_MEASURES.get(fig, ()))
    if not measures:
        return ["declares no measure (figcheck.declare)"]
    if len(measures) > 1:
        return [f"mixes measures: {'; '.join(measures)}"]
    return []


def _ticklabels(axis: Axis) -> list[Text]:
    """The visible, non-empty major tick labels inside the view."""
    lo, hi = sorted(axis.get_view_interval())
    span = (hi - lo) * 1e-9
    return [label for tick in axis.get_major_ticks() if lo - span <= tick.get_loc() <= hi + span
            for label in (tick.label1, tick.label2)
            if label.get_visible() and label.get_text().strip()]


def _axis_problems(ax: Axes, axis: Axis, renderer: object) -> list[str]:
    where = f"panel {ax.get_title()!r} {axis.axis_name} axis"
    labels = _ticklabels(axis)
    numeric = any(_is_number(t.get_text()) for t in labels) or not labels
    want = 2 if numeric else 1
    out = []
    if len(labels) < want:
        out.append(f"{where}: {len(labels)} tick labels (numbers), needs {want}")
    boxes = [t.get_window_extent(renderer) for t in labels]
    if any(_overlap(a, b) for a, b in itertools.pairwise(boxes)):
        out.append(f"{where}: tick labels on top of each other")
    if numeric and not any(s.get_label_text().strip() for s in _shared(ax, axis)):
        out.append(f"{where}: no label (what it counts, its unit)")
    return out


def _is_number(text: str) -> bool:
    for mark in ("\\mathdefault", "$", "{", "}", "^", "\\times"):
        text = text.replace(mark, "")
    return NUMBER.fullmatch(text.strip()) is not None


def _shared(ax: Axes, axis: Axis) -> list[Axis]:
    group = ax.get_shared_x_axes() if axis is ax.xaxis else ax.get_shared_y_axes()
    return [getattr(a, f"{axis.axis_name}axis") for a in group.get_siblings(ax)
            if a.get_visible()]


def _texts(ax: Axes) -> list[Text]:
    """The texts of a panel: axis labels and tick labels (its title aside)."""
    out = [ax.xaxis.label, ax.yaxis.label, *_ticklabels(ax.xaxis), *_ticklabels(ax.yaxis)]
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def _title_problems(fig: Figure, axes: list[Axes], renderer: object) -> list[str]:
    titles: list[tuple[object, str, Bbox]] = [
        (fig, f"figure text {t.get_text()!r}", t.get_window_extent(renderer))
        for t in fig.texts if t.get_visible() and t.get_text().strip()]
    titles += [(ax, f"panel title {ax.get_title()!r}", ax.title.get_window_extent(renderer))
               for ax in axes if ax.get_title().strip()]
    others = titles + [(ax, f"{t.get_text()!r} of panel {ax.get_title()!r}",
                        t.get_window_extent(renderer)) for ax in axes for t in _texts(ax)]
    out = []
    for i, (owner, what, box) in enumerate(titles):
        for other, what2, box2 in others[i + 1:]:
            if other is not owner and _overlap(box, box2):
                out.append(f"{what} is drawn over {what2}")
    return out


def _overlap(a: Bbox, b: Bbox) -> bool:
    return (min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK
            and min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK)

