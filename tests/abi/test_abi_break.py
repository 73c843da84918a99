# SPDX-License-Identifier: GPL-2.0-only
"""scripts/abi-check sees an ABI break (docs/abi.md): the library's sources
copied to a temporary directory, broken on purpose, built as libudrv.so.1
with cc (the flags of the meson build, no meson: fast) and compared with the
committed baseline. Each break must fail with its own verdict; the untouched
copy and the allowed changes (a field appended to a struct that grows by its
size, a new function in a new version node, a soname bump) must pass.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "scripts" / "abi-check"
CC = os.environ.get("CC", "cc")

pytestmark = pytest.mark.skipif(
    not (shutil.which("abidw") and shutil.which("abidiff") and shutil.which(CC)),
    reason="needs abigail-tools (scripts/install-deps) and a C compiler")


def project_version() -> str:
    m = re.search(r"version:\s*'([0-9.]+)'", (ROOT / "meson.build").read_text())
    assert m, "no version in meson.build"
    return m.group(1)


def soversion() -> str:
    m = re.search(r"soversion:\s*'(\d+)'", (ROOT / "lib" / "meson.build").read_text())
    assert m, "no soversion in lib/meson.build"
    return m.group(1)


@dataclass
class Tree:
    """A copy of lib/, include/ and kernel/include/uapi/ (udrv-irq's uapi,
    libudrv's too) with its objects (name.c -> name.o)."""
    root: Path

    @property
    def sources(self) -> list[Path]:
        return sorted((self.root / "lib").rglob("*.c"))

    def compile(self, only: set[str] | None = None) -> None:
        cflags = ["-std=c11", "-O2", "-g", "-fPIC", "-D_GNU_SOURCE",
                  f"-I{self.root / 'include'}", f"-I{self.root / 'lib'}",
                  f"-I{self.root / 'kernel' / 'include' / 'uapi'}",
                  f'-DUDRV_VERSION="{project_version()}"']
        todo = [s for s in self.sources if only is None or s.name in only]

        def one(src: Path) -> subprocess.CompletedProcess[str]:
            return subprocess.run([CC, *cflags, "-c", str(src), "-o", str(src.with_suffix(".o"))],
                                  capture_output=True, text=True)

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for res in pool.map(one, todo):
                assert res.returncode == 0, res.stderr

    def link(self, soname: str | None = None) -> Path:
        soname = soname or f"libudrv.so.{soversion()}"
        out = self.root / soname
        res = subprocess.run(
            [CC, "-shared", "-o", str(out), f"-Wl,-soname,{soname}",
             f"-Wl,--version-script={self.root / 'lib' / 'libudrv.map'}",
             *[str(s.with_suffix(".o")) for s in self.sources], "-lm"],
            capture_output=True, text=True)
        assert res.returncode == 0, res.stderr
        return out

    def edit(self, rel: str, old: str, new: str) -> None:
        path = self.root / rel
        text = path.read_text()
        assert old in text, f"{rel}: {old!r} not found (the test needs updating)"
        path.write_text(text.replace(old, new, 1))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    tree = Tree(tmp_path_factory.mktemp("abi") / "pristine")
    for d in ("lib", "include", "kernel/include/uapi"):
        shutil.copytree(ROOT / d, tree.root / d,
                        ignore=shutil.ignore_patterns("*.o", "__pycache__"))
    tree.compile()
    return tree


@pytest.fixture
def variant(pristine: Tree, tmp_path: Path) -> Iterator[Tree]:
    tree = Tree(tmp_path / "variant")
    shutil.copytree(pristine.root, tree.root)
    yield tree


def abi_check(lib: Path) -> tuple[int, dict[str, str], str]:
    """Exit status, {verdict: ok|FAIL|skipped}, output."""
    res = subprocess.run([sys.executable, str(CHECK), str(lib)], capture_output=True, text=True)
    verdicts = dict(re.findall(r"^abi-check: (\w+): (ok|FAIL|skipped)\b", res.stdout, re.MULTILINE))
    return res.returncode, verdicts, res.stdout + res.stderr


def expect(lib: Path, failed: set[str]) -> str:
    rc, verdicts, out = abi_check(lib)
    assert set(verdicts) == {"soname", "removed", "nodes", "changed"}, out
    assert {v for v, s in verdicts.items() if s == "FAIL"} == failed, out
    assert rc == (1 if failed else 0), out
    for v in failed:
        assert f"abi-check: {v}: fix: " in out, out
    return out


def test_unmodified_copy_passes(pristine: Tree) -> None:
    expect(pristine.link(), set())


def test_field_inserted_in_the_middle_of_a_struct_fails(variant: Tree) -> None:
    variant.edit("include/udrv/line.h", "\tint value;\t\t\t/* initial logical value",
                 "\tuint32_t abi_test_field;\n\tint value;\t\t\t/* initial logical value")
    variant.compile()
    out = expect(variant.link(), {"changed"})
    assert "abi_test_field" in out and "udrv_line_settings" in out, out
    # the same break with a new soname is a new ABI: allowed
    expect_soname_bump(variant)


def expect_soname_bump(tree: Tree) -> None:
    rc, verdicts, out = abi_check(tree.link(f"libudrv.so.{int(soversion()) + 1}"))
    assert rc == 0 and verdicts["soname"] == "ok", out
    assert all(verdicts[v] == "skipped" for v in ("removed", "nodes", "changed")), out
    assert "make abi-baseline" in out, out


def test_return_type_changed_fails(variant: Tree) -> None:
    variant.edit("include/udrv/uio.h", "uint64_t udrv_uio_missed(", "uint32_t udrv_uio_missed(")
    variant.edit("lib/uio/uio_irq.c", "uint64_t udrv_uio_missed(", "uint32_t udrv_uio_missed(")
    variant.compile()
    out = expect(variant.link(), {"changed"})
    assert "udrv_uio_missed" in out, out


def test_enum_renumbered_fails(variant: Tree) -> None:
    variant.edit("include/udrv/chip.h", "\tUDRV_BIAS_DISABLED,\n",
                 "\tUDRV_BIAS_ABI_TEST,\n\tUDRV_BIAS_DISABLED,\n")
    variant.compile()
    out = expect(variant.link(), {"changed"})
    assert "UDRV_BIAS_DISABLED" in out, out


def test_enum_value_appended_passes(variant: Tree) -> None:
    """docs/abi.md: enums may gain values at their end."""
    variant.edit("include/udrv/chip.h", "\tUDRV_BIAS_PULL_DOWN,\n",
                 "\tUDRV_BIAS_PULL_DOWN,\n\tUDRV_BIAS_ABI_TEST,\n")
    variant.compile()
    expect(variant.link(), set())


def test_field_appended_to_a_frozen_struct_fails(variant: Tree) -> None:
    variant.edit("include/udrv/gpio_mmio.h",
                 "\tuint32_t invert;\t\t/* mask for an active-low line, else 0 */\n",
                 "\tuint32_t invert;\t\t/* mask for an active-low line, else 0 */\n"
                 "\tuint32_t abi_test_field;\n")
    variant.compile()
    out = expect(variant.link(), {"changed"})
    assert "udrv_mmio_pin" in out, out


def test_field_appended_to_a_sized_struct_passes(variant: Tree) -> None:
    """How structs grow in 1.1: a field at the end of a struct passed with its
    size is not a break (the library copies what the caller has)."""
    variant.edit("include/udrv/line.h", "\tenum udrv_clock event_clock;\n};",
                 "\tenum udrv_clock event_clock;\n\tuint32_t abi_test_field;\n};")
    # the struct is no longer as in 1.0: its first new field follows 1.0's end
    variant.edit("lib/abi.c", "UDRV_NO_TAIL(udrv_line_settings, event_clock);",
                 "UDRV_GROWN(udrv_line_settings, event_clock, abi_test_field);")
    variant.compile()
    expect(variant.link(), set())


def test_function_removed_from_the_map_fails(variant: Tree) -> None:
    variant.edit("lib/libudrv.map", "\tudrv_uio_missed;\n", "")
    # abidiff also reports the removal as an incompatible change
    out = expect(variant.link(), {"removed", "changed"})
    assert "udrv_uio_missed" in out, out


NEW_FUNCTION = "\nint udrv_abi_test_new(void);\nint udrv_abi_test_new(void)\n{\n\treturn 1;\n}\n"


def test_function_added_to_the_released_node_fails(variant: Tree) -> None:
    variant.edit("lib/util.c", "const char *udrv_version(void)", NEW_FUNCTION.lstrip() +
                 "\nconst char *udrv_version(void)")
    variant.edit("lib/libudrv.map", "\tudrv_version;\n", "\tudrv_version;\n\tudrv_abi_test_new;\n")
    variant.compile({"util.c"})
    out = expect(variant.link(), {"nodes"})
    assert "udrv_abi_test_new@UDRV_1.0" in out, out


def test_function_added_in_a_new_node_passes(variant: Tree) -> None:
    variant.edit("lib/util.c", "const char *udrv_version(void)", NEW_FUNCTION.lstrip() +
                 "\nconst char *udrv_version(void)")
    map_path = variant.root / "lib" / "libudrv.map"
    text = map_path.read_text()
    last = max(int(m) for m in re.findall(r"^UDRV_1\.(\d+) \{", text, re.MULTILINE))
    new = f"UDRV_1.{last + 1}"
    node = f"\n{new} {{\nglobal:\n\tudrv_abi_test_new;\n}} UDRV_1.{last};\n"
    map_path.write_text(text + node)
    variant.compile({"util.c"})
    out = expect(variant.link(), set())
    assert f"udrv_abi_test_new@{new}" in out, out


EXPORTS = ROOT / "tests" / "lib" / "exports.py"
NM = shutil.which("nm")


def exports(tree: Tree, lib: Path) -> str:
    """tests/lib/exports.py on a built copy: its TAP output (status 0 or 1)."""
    assert NM, "needs nm (binutils)"
    res = subprocess.run([sys.executable, str(EXPORTS), NM, str(lib), str(tree.root / "include"),
                          str(tree.root / "lib")], capture_output=True, text=True)
    assert res.returncode in (0, 1), res.stdout + res.stderr
    return res.stdout


RIG_HELPERS = "the rig's helpers (hist.h, json.h) add no symbol"


def test_rig_helpers_keep_their_symbols(pristine: Tree) -> None:
    out = exports(pristine, pristine.link())
    assert f"ok 8 - {RIG_HELPERS}" in out and "not ok" not in out, out


def test_function_added_to_a_rig_helper_fails(variant: Tree) -> None:
    """udrv/hist.h, udrv/json.h (lib/measure/) serve the rig and stay as released
    (docs/abi.md): a new function there, even in a new node that abi-check
    allows, fails tests/lib/exports.py."""
    variant.edit("include/udrv/hist.h", "void udrv_hist_reset(struct udrv_hist *h);",
                 "void udrv_hist_reset(struct udrv_hist *h);\nint udrv_hist_abi_test_new(void);")
    variant.edit("lib/measure/hist.c", "void udrv_hist_reset(struct udrv_hist *h)",
                 "int udrv_hist_abi_test_new(void)\n{\n\treturn 1;\n}\n\n"
                 "void udrv_hist_reset(struct udrv_hist *h)")
    map_path = variant.root / "lib" / "libudrv.map"
    text = map_path.read_text()
    last = max(int(m) for m in re.findall(r"^UDRV_1\.(\d+) \{", text, re.MULTILINE))
    new = f"UDRV_1.{last + 1}"
    node = f"\n{new} {{\nglobal:\n\tudrv_hist_abi_test_new;\n}} UDRV_1.{last};\n"
    map_path.write_text(text + node)
    variant.compile({"hist.c"})
    lib = variant.link()
    expect(lib, set())
    out = exports(variant, lib)
    assert f"not ok 8 - {RIG_HELPERS}" in out, out
    assert f"# udrv_hist_abi_test_new@{new}" in out, out
    assert "not ok" not in out.replace(f"not ok 8 - {RIG_HELPERS}", ""), out


def test_function_added_to_the_last_released_node_fails(variant: Tree) -> None:
    """The newest node in the baseline (UDRV_1.1: VFIO) is released too."""
    variant.edit("lib/util.c", "const char *udrv_version(void)", NEW_FUNCTION.lstrip() +
                 "\nconst char *udrv_version(void)")
    variant.edit("lib/libudrv.map", "\tudrv_vfio_wait_sz;\n",
                 "\tudrv_vfio_wait_sz;\n\tudrv_abi_test_new;\n")
    variant.compile({"util.c"})
    out = expect(variant.link(), {"nodes"})
    assert "udrv_abi_test_new@UDRV_1.1" in out, out


def test_cannot_run_is_not_a_pass(tmp_path: Path) -> None:
    """A check that cannot run says why and exits 2 (make check counts it as
    a failure): a missing library, a file that is not a library."""
    rc, verdicts, out = abi_check(tmp_path / "libudrv.so.1")
    assert rc == 2 and not verdicts and "does not exist" in out, out
    bogus = tmp_path / "bogus.so"
    bogus.write_text("not an ELF file\n")
    rc, verdicts, out = abi_check(bogus)
    assert rc == 2 and not verdicts and "cannot run" in out, out
