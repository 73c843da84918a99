# SPDX-License-Identifier: GPL-2.0-only
"""The page in a real browser: Debian's chromium (scripts/install-deps), headless,
no network, loads the report of a fresh `make lab` (fixtures lab-quick-a.json +
lab-rate.json) and every <img> is decoded with a non-zero natural size.

The page itself has no script (test_report_page: self-contained, nothing
external); a copy of it gets one, run at the load event, that writes each
image's state into the DOM, which chromium --dump-dom prints. A copy with one
image damaged on purpose shows that a broken image is seen.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from report_helpers import Rendered
from report_page import Page, check_png, scanlines

CHROMIUM = "/usr/bin/chromium"
PROBE = """<script>
window.addEventListener("load", function () {
  var out = [];
  document.querySelectorAll("img").forEach(function (img) {
    var fig = img.closest("figure");
    out.push({figure: fig ? fig.id : "", complete: img.complete,
              width: img.naturalWidth, height: img.naturalHeight});
  });
  var pre = document.createElement("pre");
  pre.id = "udrv-img-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""
RESULT = re.compile(r'<pre id="udrv-img-check">(.*?)</pre>', re.DOTALL)
# headless, a profile of its own, nothing fetched or synced; root needs --no-sandbox
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--no-default-browser-check", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-extensions",
         "--virtual-time-budget=10000")


@pytest.fixture(scope="module")
def chromium() -> str:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("no chromium: scripts/install-deps --check installs Debian's chromium "
                    "(apt-get install chromium)")
    return CHROMIUM if Path(CHROMIUM).exists() else str(shutil.which("chromium"))


def _browse(chromium: str, page: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = page.parent / f".chromium-{page.stem}"
    return subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args,
                           page.as_uri()], capture_output=True, text=True, timeout=120)


def images(chromium: str, html: Path) -> list[dict[str, object]]:
    """What chromium made of each <img> of @html once loaded."""
    probe = html.with_name(f"{html.stem}-probe.html")
    probe.write_text(html.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                     encoding="utf-8")
    r = _browse(chromium, probe, "--dump-dom")
    found = RESULT.search(r.stdout)
    assert r.returncode == 0 and found, f"chromium ({r.returncode}):\n{r.stderr[-2000:]}"
    return list(json.loads(found.group(1)))


def test_every_image_decodes_in_chromium(chromium: str, report_a_rate: Rendered) -> None:
    got = images(chromium, report_a_rate.html)
    figures = report_a_rate.page.figures
    assert [i["figure"] for i in got] == list(figures)  # each <img>, in order
    for img in got:
        assert img["complete"] and img["width"] and img["height"], img
    assert {"toggle-rates", "rate-received", "rate-lost"} <= set(figures)


def test_a_broken_image_is_seen(chromium: str, report_a_rate: Rendered,
                                tmp_path: Path) -> None:
    text = report_a_rate.text
    src = report_a_rate.page.figures["toggle-rates"]
    broken = tmp_path / "broken.html"
    broken.write_text(text.replace(src, src[:len(src) // 2] + "AAAA"), encoding="utf-8")
    (img,) = [i for i in images(chromium, broken) if i["figure"] == "toggle-rates"]
    assert img["width"] == 0, img
    assert Page(broken.read_text()).figures["toggle-rates"] != src


def test_screenshot_of_the_page(chromium: str, report_a_rate: Rendered) -> None:
    """The whole page drawn: a PNG of the window's size that is not one colour."""
    shot = report_a_rate.html.with_name("page-screenshot.png")
    r = _browse(chromium, report_a_rate.html, f"--screenshot={shot}",
                "--window-size=1280,2000", "--hide-scrollbars")
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    data = shot.read_bytes()
    assert check_png(data) == (1280, 2000)
    rows = scanlines(data)
    colours = {row[x:x + 3] for row in rows[::10] for x in range(0, len(row), 3 * 7)}
    assert len(colours) > 20, f"{len(colours)} colours: a blank page"


def test_a_blank_screenshot_is_seen(chromium: str, tmp_path: Path) -> None:
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    shot = tmp_path / "blank.png"
    r = _browse(chromium, blank, f"--screenshot={shot}", "--window-size=320,200")
    assert r.returncode == 0 and shot.exists(), r.stderr[-2000:]
    rows = scanlines(shot.read_bytes())
    assert {row[x:x + 3] for row in rows for x in range(0, len(row), 3)} == {b"\xff\xff\xff"}
