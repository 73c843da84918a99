# SPDX-License-Identifier: GPL-2.0-only
"""What the docs say of the code, checked against the code.

- the ABI's version nodes: docs/abi.md's table names every node of
  lib/libudrv.map, in order, and each node's functions (a node of more than
  MAX_LISTED may name its header instead); the README names the first and
  the last;
- the README's C snippet compiles as a user compiles it (pkg-config, on
  build/dev's uninstalled libudrv.pc; an undeclared function an error, as
  in GCC 14) and runs: on a fake chip labelled pinctrl-bcm2835 (tests/daemon's
  fake character device) it drives line 17 and reads line 27's edge.
  (The Python snippet: tests/python/test_readme.py, in the venv that has
  the package.)
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.daemon.conftest import GUARD_S
from tests.support.fake_gpio import FALLING, edges, fake_chip, fake_env, line_state
from tests.support.fakes import FakeTree
from tests.support.readme_code import snippet
from tests.support.udrv_runner import required

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "dev"
MAX_LISTED = 8
NODE = re.compile(r"^(UDRV_\d+\.\d+)\s*\{(.*?)\}", re.MULTILINE | re.DOTALL)
ROW = re.compile(r"^\| `(UDRV_\d+\.\d+)` \|(.*)\|\s*$", re.MULTILINE)


def map_nodes(text: str) -> dict[str, list[str]]:
    """lib/libudrv.map's nodes, in order: their global symbols."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return {name: re.findall(r"^\s*(udrv_\w+)\s*;", body, re.MULTILINE)
            for name, body in NODE.findall(text)}


def node_table_errors(doc: str, nodes: dict[str, list[str]]) -> list[str]:
    rows = dict(ROW.findall(doc))
    bad = []
    if list(rows) != list(nodes):
        bad.append(f"docs/abi.md's nodes {list(rows)}, lib/libudrv.map's {list(nodes)}")
    for node, symbols in nodes.items():
        if node in rows and len(symbols) <= MAX_LISTED:
            bad += [f"{node}: {s} not named" for s in symbols
                    if not re.search(rf"\b{s.removesuffix('_sz')}\b", rows[node])]
    return bad


def readme_range_errors(readme: str, nodes: dict[str, list[str]]) -> list[str]:
    names = list(nodes)
    text = " ".join(readme.split())  # wrapped anywhere
    want = f"version nodes `{names[0]}` to `{names[-1]}`"
    said = re.findall(r"version nodes `UDRV_[^`]*`[^`]*`UDRV_[^`]*`", text)
    return [] if want in text else [f"README.md says {said}, the map has {names[0]} to "
                                    f"{names[-1]} ({want!r})"]


def test_abi_nodes_in_the_docs() -> None:
    nodes = map_nodes((ROOT / "lib" / "libudrv.map").read_text())
    assert list(nodes)[:2] == ["UDRV_1.0", "UDRV_1.1"] and len(nodes) >= 6
    assert node_table_errors((ROOT / "docs" / "abi.md").read_text(), nodes) == []
    assert readme_range_errors((ROOT / "README.md").read_text(), nodes) == []


def test_checker_sees_drifted_abi_docs() -> None:
    nodes = {"UDRV_1.0": ["udrv_version"] * 9, "UDRV_1.1": ["udrv_new_sz"]}
    good = "| `UDRV_1.0` | everything |\n| `UDRV_1.1` | `udrv_new()` |\n"
    assert node_table_errors(good, nodes) == []
    assert node_table_errors(good.replace("udrv_new", "udrv_old"), nodes) == [
        "UDRV_1.1: udrv_new_sz not named"]
    assert len(node_table_errors(good.split("\n")[0], nodes)) == 1  # UDRV_1.1 missing
    assert readme_range_errors("version nodes `UDRV_1.0` to\n  `UDRV_1.1`", nodes) == []
    assert readme_range_errors("version nodes `UDRV_1.0` and\n  `UDRV_1.1`, ...", nodes)


# ---- the C snippet ----

# after the snippet, in its main(): what it got
EPILOGUE = r"""
printf("%d %u %s\n", n, n > 0 ? ev[0].offset : 0u,
       n > 0 && ev[0].edge == UDRV_EDGE_FALLING ? "falling" : "-");
udrv_request_release(req);
udrv_chip_free(chip);
return 0;
"""


def c_program(code: str) -> str:
    """The snippet as a program: its #include lines, then the rest as the
    body of main() with EPILOGUE."""
    lines = code.splitlines()
    includes = [ln for ln in lines if ln.startswith("#include")]
    body = [ln for ln in lines if not ln.startswith("#include")]
    return ("\n".join(includes) + "\n#include <stdio.h>\n\nint main(void)\n{\n"
            + "\n".join(body) + EPILOGUE + "}\n")


def test_readme_c_snippet(tmp_path: Path) -> None:
    tree = FakeTree(tmp_path / "root")
    code = snippet("## The C API", "c")
    assert "pkg-config --cflags --libs libudrv" in code  # how the README says to build it
    src = tmp_path / "snippet.c"
    src.write_text(c_program(code))
    required(BUILD / "meson-uninstalled" / "libudrv-uninstalled.pc", "(build/dev)")
    pc = subprocess.run(["pkg-config", "--cflags", "--libs", "libudrv"], capture_output=True,
                        text=True, check=True,
                        env={"PKG_CONFIG_PATH": str(BUILD / "meson-uninstalled"),
                             "PATH": "/usr/bin:/bin"}).stdout.split()  # fmt: skip
    exe = tmp_path / "snippet"
    cc = subprocess.run(["cc", "-Wall", "-Werror=implicit-function-declaration",
                         str(src), "-o", str(exe), *pc, f"-Wl,-rpath,{BUILD / 'lib'}"],
                        capture_output=True, text=True, check=False)  # fmt: skip
    assert cc.returncode == 0, cc.stderr
    fake_chip(tree, "pinctrl-bcm2835", 32)
    with edges(tree, [(27, FALLING)]):
        run = subprocess.run([str(exe)], capture_output=True, text=True, env=fake_env(tree),
                             timeout=GUARD_S, check=False)  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout == "1 27 falling\n"
    assert line_state(tree, 17)[1:3] == ["out", "1"]  # the LED, set
    assert line_state(tree, 27)[1::4] == ["in", "both"]  # the button, watched


@pytest.mark.parametrize(("code", "main"), [
    ("#include <a.h>\nint x = 1;\n", "#include <a.h>\n#include <stdio.h>\n\nint main(void)\n{\n"
                                      "int x = 1;"),
])
def test_c_program_wraps_the_snippet(code: str, main: str) -> None:
    assert c_program(code).startswith(main)
