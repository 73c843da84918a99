# SPDX-License-Identifier: GPL-2.0-only
"""The documentation a user reads holds together.

- every relative link of every Markdown file (README.md, docs/, examples/, ...)
  points at a file of the tree, and a `#anchor` at a heading of that file;
- every `docs/X.md` named in any tracked file (code comments, man pages,
  help texts) exists;
- nothing cites a source by a number ("ref 000"): docs/references.md names
  them;
- nothing outside tests/ points at a path outside the repository (../shared);
- README.md stays a page a user reads (at most README_MAX_LINES lines).

Each checker is also run on a small tree broken on purpose (the tests at the
end), so that a checker that cannot fail is seen.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from rig.results.page import GEN_BEGIN, GEN_END

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 300

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
DOCS_MENTION = re.compile(r"(?<![\w./-])(docs/[\w./-]*?\.md)\b(?:#([\w-]+))?")
REF_NUMBER = re.compile(r"\bref(?:erence)?s?\s+00\d\b", re.IGNORECASE)
OUTSIDE = re.compile(r"\.\./shared\b")


def tracked_files(root: Path) -> list[Path]:
    """The tree's files: git's list when it is a checkout, else every file
    outside build directories and hidden ones."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                             check=True).stdout
        names = [n for n in out.decode().split("\0") if n]
        return [root / n for n in names if (root / n).is_file()]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in root.rglob("*") if p.is_file()
                and not any(part.startswith((".", "build")) for part in p.relative_to(root).parts)]


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, code spans removed."""
    fenced = False
    for no, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield no, CODE_SPAN.sub("", line)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup and punctuation dropped,
    lower case, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(text):
        found.update(HTML_ANCHOR.findall(line))
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(text: str) -> Iterator[tuple[int, str]]:
    for no, line in prose_lines(text):
        for target in INLINE_LINK.findall(line):
            yield no, target
        m = REF_DEF.match(line)
        if m:
            yield no, m.group(1)


def broken_links(root: Path, md: Path) -> list[str]:
    """Every relative link of `md` that points at nothing, as 'file:line: target'."""
    text = text_of(md) or ""
    bad = []
    for no, target in links(text):
        if SCHEME.match(target) or target.startswith("//"):
            continue
        path, _, anchor = target.partition("#")
        dest = md if not path else (md.parent / path).resolve()
        where = f"{md.relative_to(root)}:{no}: {target}"
        if not dest.is_relative_to(root.resolve()):
            bad.append(f"{where} (outside the repository)")
        elif not dest.exists():
            bad.append(f"{where} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(text_of(dest) or ""):
            bad.append(f"{where} (no heading #{anchor} in {dest.relative_to(root.resolve())})")
    return bad


def missing_docs(root: Path, files: Iterable[Path]) -> list[str]:
    """Every `docs/X.md` (or `docs/X.md#anchor`) named in a file that does
    not exist."""
    bad = []
    for f in files:
        text = text_of(f)
        if text is None:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            for name, anchor in DOCS_MENTION.findall(line):
                doc = root / name
                if not doc.is_file():
                    bad.append(f"{f.relative_to(root)}:{no}: {name}")
                elif anchor and anchor not in anchors(text_of(doc) or ""):
                    bad.append(f"{f.relative_to(root)}:{no}: {name}#{anchor} (no such heading)")
    return bad


def matching_lines(root: Path, files: Iterable[Path], pattern: re.Pattern[str]) -> list[str]:
    bad = []
    for f in files:
        text = text_of(f)
        if text is None:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{f.relative_to(root)}:{no}: {line.strip()[:100]}")
    return bad


def unpaired_generated(text: str) -> list[str]:
    """Each generated-table block opens with the command that makes it and
    closes before the next one opens."""
    bad, open_at = [], 0
    for no, line in enumerate(text.splitlines(), 1):
        if line.startswith("<!-- generated"):
            if open_at or not GEN_BEGIN.match(line):
                bad.append(f"{no}: {line[:80]}")
            open_at = no
        elif line == GEN_END:
            if not open_at:
                bad.append(f"{no}: {GEN_END} without a block")
            open_at = 0
    if open_at:
        bad.append(f"{open_at}: block never closed")
    return bad


def markdown(files: Iterable[Path]) -> list[Path]:
    return [f for f in files if f.suffix == ".md"]


FILES = tracked_files(ROOT)
# this file names broken links and numbered citations on purpose (the tests below)
OTHERS = [f for f in FILES if f.resolve() != Path(__file__).resolve()]


def test_markdown_links_resolve() -> None:
    mds = markdown(FILES)
    assert ROOT / "README.md" in mds and any(f.parent.name == "docs" for f in mds)
    bad = [b for md in mds for b in broken_links(ROOT, md)]
    assert not bad, "broken links:\n" + "\n".join(bad)


def test_named_docs_exist() -> None:
    bad = missing_docs(ROOT, OTHERS)
    assert not bad, "docs/ files named but missing:\n" + "\n".join(bad)


def test_sources_cited_by_name() -> None:
    bad = matching_lines(ROOT, OTHERS, REF_NUMBER)
    assert not bad, ("cite a source by author and title (docs/references.md), "
                     "not by number:\n" + "\n".join(bad))


def test_no_path_outside_the_repository() -> None:
    files = [f for f in OTHERS if f.relative_to(ROOT).parts[0] != "tests"]
    bad = matching_lines(ROOT, files, OUTSIDE)
    assert not bad, "paths outside the repository:\n" + "\n".join(bad)


def test_generated_blocks_pair_up() -> None:
    page = ROOT / "docs" / "measurements.md"
    text = page.read_text()
    assert "<!-- generated: " in text
    assert unpaired_generated(text) == []


def test_readme_is_short() -> None:
    n = len((ROOT / "README.md").read_text().splitlines())
    assert n <= README_MAX_LINES, f"README.md has {n} lines (at most {README_MAX_LINES})"


# The checkers above, on a tree broken on purpose.

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "docs" / "rig").mkdir(parents=True)
    (tmp_path / "docs" / "api.md").write_text(
        "# The API\n\n## Real-time setup\n\n## Real-time setup\n\n```sh\n# not a heading\n```\n")
    (tmp_path / "docs" / "rig" / "lab.md").write_text(
        "# Lab\n\n[api](../api.md#real-time-setup) [again](../api.md#real-time-setup-1)\n")
    return tmp_path


def test_checker_sees_a_good_tree(tree: Path) -> None:
    readme = tree / "README.md"
    readme.write_text("[api](docs/api.md) [lab](docs/rig/lab.md) [web](https://x.org/a.md) "
                      "`[code](nowhere.md)`\n\n```\n[fenced](nowhere.md)\n```\n")
    assert broken_links(tree, readme) == []
    assert broken_links(tree, tree / "docs" / "rig" / "lab.md") == []


@pytest.mark.parametrize(("link", "why"), [
    ("docs/lab.md", "no such file"),
    ("docs/api.md#not-there", "no heading #not-there"),
    ("docs/api.md#not-a-heading", "no heading"),
    ("../shared/tools/fresh-debian", "outside the repository"),
])
def test_checker_sees_a_broken_link(tree: Path, link: str, why: str) -> None:
    readme = tree / "README.md"
    readme.write_text(f"intro\n\nsee [this]({link}) and\n\n[ref]: docs/api.md\n")
    bad = broken_links(tree, readme)
    assert len(bad) == 1 and bad[0].startswith(f"README.md:3: {link}") and why in bad[0], bad


def test_checker_sees_a_broken_reference_definition(tree: Path) -> None:
    readme = tree / "README.md"
    readme.write_text("[api][a]\n\n[a]: docs/apis.md\n")
    assert broken_links(tree, readme) == ["README.md:3: docs/apis.md (no such file)"]


def test_checker_sees_a_missing_doc_named_in_code(tree: Path) -> None:
    src = tree / "bench.c"
    src.write_text("/* the schema: docs/rig/results.md; the API: docs/api.md */\n"
                   "/* docs/api.md#real-time-setup, docs/api.md#vfio */\n")
    assert missing_docs(tree, [src]) == ["bench.c:1: docs/rig/results.md",
                                         "bench.c:2: docs/api.md#vfio (no such heading)"]


def test_checker_sees_a_numbered_citation_and_an_outside_path(tree: Path) -> None:
    src = tree / "toggle.c"
    src.write_text("ok\n * (ref 000: 8.25 kHz)\n../shared/tools\n")
    assert matching_lines(tree, [src], REF_NUMBER) == ["toggle.c:2: * (ref 000: 8.25 kHz)"]
    assert matching_lines(tree, [src], OUTSIDE) == ["toggle.c:3: ../shared/tools"]


def test_checker_sees_an_unpaired_generated_block() -> None:
    good = ("<!-- generated: python3 -m rig.results markdown r.json (toggle) -->\n*T*\n"
            + GEN_END + "\n")
    assert unpaired_generated(good) == []
    again = "<!-- generated: python3 -m rig.results markdown r.json -->\n"
    assert unpaired_generated(good + again) == ["4: block never closed"]
    assert unpaired_generated(good.replace(GEN_END, "")) == ["1: block never closed"]
    assert unpaired_generated("<!-- generated: by hand -->\n" + GEN_END + "\n") \
        == ["1: <!-- generated: by hand -->"]
    assert unpaired_generated(GEN_END + "\n") == [f"1: {GEN_END} without a block"]
