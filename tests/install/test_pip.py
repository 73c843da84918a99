# SPDX-License-Identifier: GPL-2.0-only
"""The Python package as the README installs it (issue 41, item 9): its two
commands, taken from README.md's "From source" block and run as written
(a venv in a HOME of the test's own), give a venv where `import udrv` works;
and `pip install .` at the top of the tree, which holds no Python package,
fails with a message that says where the package is and how to install it,
not with setuptools' error."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.support.udrv_runner import REPO

PIP_S = 900.0  # a guard: building the wheel takes a minute on 2 cores


def readme_commands() -> list[str]:
    """The README's venv commands: the lines of the "From source" sh block that
    make or use the venv, their comments cut."""
    text = (REPO / "README.md").read_text()
    block = text.split("**From source**", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    cmds = [re.sub(r"\s+#.*$", "", ln) for ln in block.splitlines()]
    return [c for c in cmds if c.startswith(("python3 -m venv", "~/.venvs/"))]


def test_the_readmes_venv_commands_install_the_package(tmp_path: Path) -> None:
    cmds = readme_commands()
    assert cmds == ["python3 -m venv ~/.venvs/udrv",
                    "~/.venvs/udrv/bin/pip install ./bindings/python"], cmds  # fmt: skip
    env = {**os.environ, "HOME": str(tmp_path), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    cache = REPO / "build" / "py-deps"  # make check's wheels of meson-python, meson, ninja
    if cache.is_dir():
        env["PIP_FIND_LINKS"] = str(cache)
    for cmd in cmds:
        res = subprocess.run(["sh", "-c", cmd], cwd=REPO, env=env, capture_output=True,
                             text=True, timeout=PIP_S, check=False)  # fmt: skip
        assert res.returncode == 0, f"{cmd}:\n{res.stdout[-3000:]}{res.stderr[-3000:]}"
    python = tmp_path / ".venvs" / "udrv" / "bin" / "python"
    res = subprocess.run([str(python), "-c", "import udrv; print(udrv.__file__)"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60,
                         check=False)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(str(tmp_path / ".venvs" / "udrv")), res.stdout


def test_pip_install_at_the_top_says_where_the_package_is(tmp_path: Path) -> None:
    """In a venv (the top's backend needs nothing from PyPI: --no-index)."""
    venv = tmp_path / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, timeout=120)
    res = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-index", "."], cwd=REPO,
                         capture_output=True, text=True, timeout=120, check=False,
                         env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})  # fmt: skip
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert "the top of this tree is the C project (meson, make), not a Python package" in out
    assert "python3 -m venv ~/.venvs/udrv" in out and \
        "~/.venvs/udrv/bin/pip install ./bindings/python" in out, out  # fmt: skip
    assert "setuptools" not in out, out
