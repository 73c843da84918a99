# SPDX-License-Identifier: GPL-2.0-only
"""The man pages a reader is sent to exist.

- every page of ours (a name starting with udrv or libudrv) that a man page
  or a Markdown file cites as NAME(SECTION) is there: a page of
  man/ or rig/man/ with that name and section, or, in section 3, a public
  function of libudrv, whose link page (man/links.py, installed by
  man/meson.build) opens libudrv(3): udrvd(8) cites udrv_uio_open_fd(3);
- build/dev has a link page for every public function and no other, and
  `man NAME` on them opens libudrv(3);
- each line of a program's SYNOPSIS (its man page in section 1 or 8, as man
  renders it) is one command line, starting with the program's name (udrv(1)
  broke `udrv pci bind DEVICE DRIVER` in two).

Each checker also runs on text broken on purpose (the tests at the end).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path

import pytest

from tests.docs.test_docs import text_of, tracked_files
from tests.support.udrv_runner import find_binary, required

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "man"))
import links  # noqa: E402  (man/links.py: the link pages' names)

# the link pages meson made: build/dev/man, or $UDRV_MAN_DIR
BUILD_MAN = find_binary("UDRV_MAN_DIR", ROOT / "build" / "dev" / "man")
OURS = re.compile(r"^(?:lib)?udrv")
ROFF_MACRO = re.compile(r"^\.(?:[BIR]{1,2})\s+(.*)$")
ROFF_INLINE = re.compile(r"\\f[BI]([\w.\\-]+)\\f[RP]\(([1-8])\)")
TEXT_CITE = re.compile(r"(?<![\w.-])([A-Za-z_][\w.-]*)\(([1-8])\)")
PAGE_SUFFIX = re.compile(r"^\.([1-8])$")


def public_functions() -> set[str]:
    return set(links.names((ROOT / "lib" / "libudrv.map").read_text(),
                           [h.read_text() for h in sorted((ROOT / "include/udrv").glob("*.h"))],
                           (ROOT / "man" / "libudrv.3").read_text()))


def pages(root: Path) -> set[tuple[str, str]]:
    """(name, section) of the man pages of the tree."""
    out = set()
    for d in (root / "man", root / "rig" / "man"):
        for p in d.glob("*.[1-8]"):
            out.add((p.stem, p.suffix[1:]))
    return out


def citations(text: str, roff: bool) -> list[tuple[int, str, str]]:
    """(line, name, section) of each NAME(SECTION) in @text: in a man page
    the macros' ".BR name (3)" and "\\fBname\\fR(3)", elsewhere name(3)."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        if roff:
            m = ROFF_MACRO.match(line)
            if m:
                try:
                    words = shlex.split(m[1])
                except ValueError:
                    words = m[1].split()
                for name, after in pairwise(words):
                    sec = re.match(r"^\(([1-8])\)", after)
                    if sec:
                        out.append((no, name.replace("\\-", "-"), sec[1]))
            out += [(no, n.replace("\\-", "-"), s) for n, s in ROFF_INLINE.findall(line)]
        else:
            out += [(no, n, s) for n, s in TEXT_CITE.findall(line)]
    return out


def unresolved(files: Iterable[tuple[str, str]], have: set[tuple[str, str]],
               functions: set[str]) -> list[str]:
    """The citations of pages of ours in (label, text) @files that no page
    answers."""
    bad = []
    for label, text in files:
        roff = bool(PAGE_SUFFIX.match(Path(label).suffix))
        for no, name, sec in citations(text, roff):
            if not OURS.match(name) or (name, sec) in have:
                continue
            if sec == "3" and name in functions:
                continue
            bad.append(f"{label}:{no}: {name}({sec})")
    return bad


def test_cited_pages_exist() -> None:
    files = []
    for f in tracked_files(ROOT):
        if not (f.suffix == ".md" or PAGE_SUFFIX.match(f.suffix)):
            continue
        text = text_of(f)
        if text is not None:
            files.append((str(f.relative_to(ROOT)), text))
    assert any(label == "man/udrvd.8" for label, _ in files)
    bad = unresolved(files, pages(ROOT), public_functions())
    assert not bad, "pages cited but not there:\n" + "\n".join(bad)


def test_every_public_function_has_a_link_page() -> None:
    required(BUILD_MAN / "udrv_uio_open_fd.3", "UDRV_MAN_DIR")
    built = {p.stem for p in BUILD_MAN.glob("udrv_*.3")}
    functions = public_functions()
    assert built == functions, (f"missing: {sorted(functions - built)}, "
                                f"extra: {sorted(built - functions)} (reconfigure build/dev)")
    assert {"udrv_uio_open_fd", "udrv_chip_request", "udrv_chip_request_sz", "udrv_read32",
            "udrv_wmb"} <= functions
    assert "udrv_mmio_check" not in functions  # a helper of the inline accessors
    assert (BUILD_MAN / "udrv_uio_open_fd.3").read_text() == ".so man3/libudrv.3\n"


@pytest.mark.skipif(shutil.which("man") is None, reason="no man(1) here (man-db)")
def test_man_opens_libudrv_3(tmp_path: Path) -> None:
    """`man udrv_uio_open_fd` on the pages as installed (man3/)."""
    man3 = tmp_path / "man3"
    man3.mkdir()
    shutil.copy(ROOT / "man" / "libudrv.3", man3)
    for page in BUILD_MAN.glob("udrv_*.3"):
        shutil.copy(page, man3)
    res = subprocess.run(["man", "-P", "cat", "udrv_uio_open_fd"], capture_output=True,
                         text=True, env={"MANPATH": str(tmp_path), "PATH": "/usr/bin:/bin",
                                         "MANWIDTH": "80"}, check=False)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "LIBUDRV(3)" in res.stdout and "udrv_uio_open_fd" in res.stdout


FONT_MACRO = re.compile(r"^\.(B|I|BR|RB|BI|IB|IR|RI)(?:\s+(.*))?$")
ROFF_ARG = re.compile(r'"((?:[^"]|"")*)"|(\S+)')
BREAKS = (".br", ".PP", ".sp", ".P", ".LP")


def synopsis(text: str) -> list[str]:
    r"""The lines of a man page's SYNOPSIS as man prints them: without fill
    (.nf) one line per text line or font macro, with fill words joined up
    to a break (.br, .PP); a piece ending in \c joined to the next with no
    space; .B and .I join their arguments with spaces, .BR and the like
    without."""
    section = text.split("\n.SH SYNOPSIS\n", 1)[1].split("\n.SH ", 1)[0]
    out: list[str] = []
    fill, glue, new_line = True, False, True
    for line in section.splitlines():
        m = FONT_MACRO.match(line)
        if line in (".nf", ".fi"):
            fill, new_line = line == ".fi", True
            continue
        if line.split(" ")[0] in BREAKS:
            new_line = True
            continue
        if m:
            args = [q.replace('""', '"') if q or not w else w
                    for q, w in ROFF_ARG.findall(m[2] or "")]
            piece = " ".join(args) if m[1] in ("B", "I") else "".join(args)
        elif line.startswith(".") or not line.strip():
            continue
        else:
            piece = line
        cont = piece.endswith("\\c")
        piece = re.sub(r"\\f[BIRP]|\\c$", "", piece).replace("\\-", "-").replace("\\~", " ")
        if new_line or not out:
            out.append(piece)
        elif glue:
            out[-1] += piece
        elif fill:
            out[-1] += " " + piece
        else:
            out.append(piece)
        glue, new_line = cont, False
    return [ln.strip() for ln in out if ln.strip()]


def broken_synopsis(page: Path) -> list[str]:
    name = page.stem
    return [f"{page.name}: {ln}" for ln in synopsis(page.read_text())
            if not ln.startswith(name + " ")]


def test_synopsis_lines_are_commands() -> None:
    progs = [p for d in (ROOT / "man", ROOT / "rig" / "man") for p in sorted(d.glob("*.[18]"))]
    assert {p.name for p in progs} >= {"udrv.1", "udrvd.8", "udrv-bench.1"}
    assert "udrv pci bind DEVICE DRIVER" in synopsis((ROOT / "man" / "udrv.1").read_text())
    bad = [b for p in progs for b in broken_synopsis(p)]
    assert not bad, "SYNOPSIS lines that are no command:\n" + "\n".join(bad)


@pytest.mark.skipif(shutil.which("man") is None, reason="no man(1) here (man-db)")
def test_synopsis_as_man_prints_it() -> None:
    """The parser above against man itself, on udrv(1)."""
    out = subprocess.run(["man", "-l", "-P", "cat", str(ROOT / "man" / "udrv.1")],
                         capture_output=True, text=True, check=True,
                         env={"MANWIDTH": "250", "PATH": "/usr/bin:/bin"}).stdout
    printed = out.split("SYNOPSIS\n", 1)[1].split("\nDESCRIPTION", 1)[0].splitlines()
    assert [ln.strip() for ln in printed if ln.strip()] == synopsis(
        (ROOT / "man" / "udrv.1").read_text())


# The checkers on text broken on purpose.


def test_checker_sees_a_broken_synopsis(tmp_path: Path) -> None:
    page = tmp_path / "udrv.1"
    page.write_text('.TH UDRV 1\n.SH SYNOPSIS\n.nf\n.B "udrv pci bind"\n.I "DEVICE DRIVER"\n'
                    '.BI "udrv pci bind " "DEVICE DRIVER"\n.fi\n.SH DESCRIPTION\nx\n')
    assert broken_synopsis(page) == ["udrv.1: DEVICE DRIVER"]

HAVE = {("udrvd", "8"), ("udrv", "1"), ("libudrv", "3")}


@pytest.mark.parametrize(("label", "text", "bad"), [
    ("man/x.8", ".RB ( udrv_uio_open_fd (3)).\n", []),
    ("man/x.8", ".RB ( udrv_nonesuch (3)).\n", ["man/x.8:1: udrv_nonesuch(3)"]),
    ("man/x.8", "see \\fBudrvd\\fR(5) and\n.BR udrv\\-bench (1),\n",
     ["man/x.8:1: udrvd(5)", "man/x.8:2: udrv-bench(1)"]),
    ("man/x.8", ".BR ioctl (2), poll(2)\n", []),  # not ours
    ("notes/x.md", "`udrvd(8)`, udrv(1), udrvd.conf(5) and libudrv(3)\n",
     ["notes/x.md:1: udrvd.conf(5)"]),
    ("notes/x.md", "`Request.get_value(3)` and udrv_write8(1)\n", ["notes/x.md:1: udrv_write8(1)"]),
])
def test_checker_sees_a_missing_page(label: str, text: str, bad: list[str]) -> None:
    assert unresolved([(label, text)], HAVE, {"udrv_uio_open_fd"}) == bad
