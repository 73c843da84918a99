# SPDX-License-Identifier: GPL-2.0-only
"""Running the udrv and udrv-bench binaries: where they are, and what one run
returned."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rig.results import bench_document

REPO = Path(__file__).resolve().parents[2]
DEFAULT_BIN = REPO / "build" / "dev" / "tools" / "udrv"
DEFAULT_BENCH_BIN = REPO / "build" / "dev" / "rig" / "bench" / "udrv-bench"
TIMEOUT_S = 30.0  # generous: every command here finishes in milliseconds


def find_binary(var: str = "UDRV_BIN", default: Path = DEFAULT_BIN) -> Path:
    """$UDRV_BIN, or build/dev/tools/udrv of this checkout (relative: to it)."""
    env = os.environ.get(var)
    path = Path(env) if env else default
    if not path.is_absolute():
        path = REPO / path
    return path


def find_bench_binary() -> Path:
    """$UDRV_BENCH_BIN, or build/dev/rig/bench/udrv-bench of this checkout."""
    return find_binary("UDRV_BENCH_BIN", DEFAULT_BENCH_BIN)


def bench_peer(name: str, var: str) -> Path:
    """The bench's peer program @name (rig/bench/peers/): $@var, or where
    udrv-bench looks for it, peers/ beside itself; the test is skipped when
    it is not built (its library's sources: scripts/fetch-peers)."""
    env = os.environ.get(var)
    path = Path(env) if env else find_bench_binary().parent / "peers" / name
    if not path.is_file():
        import pytest  # only the tests that need a binary need pytest

        pytest.skip(f"no {name} at {path} (scripts/fetch-peers, then meson setup "
                    "--reconfigure)")
    return path


def required(path: Path, var: str) -> Path:
    """@path, which must be a file: else the test fails, saying to build it
    or to point $@var at it."""
    if not path.is_file():
        import pytest  # only the tests that need a binary need pytest

        pytest.fail(f"{path.name} not found at {path}: build it with 'ninja -C build/dev' "
                    f"or point {var} at it", pytrace=False)
    return path


@dataclass(frozen=True)
class Result:
    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    prog: str = "udrv"

    def json(self) -> Any:
        """stdout as one JSON document; a bench's (udrv-bench/1) checked against
        the results contract (rig.results: its schema file and what adds up),
        so that every document a test reads is one the readers accept."""
        doc = json.loads(self.stdout)
        if isinstance(doc, dict) and doc.get("schema") == "udrv-bench/1":
            bench_document(self.stdout, f"udrv {' '.join(self.args)}")
        return doc

    def json_lines(self) -> list[Any]:
        """stdout as JSON Lines (one document per non-empty line)."""
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]

    def __str__(self) -> str:
        return (f"{self.prog} {' '.join(self.args)} -> exit {self.returncode}\n"
                f"--- stdout ---\n{self.stdout}--- stderr ---\n{self.stderr}")


class Runner:
    """Runs udrv (or udrv-bench) against a fake root (UDRV_SYSROOT) or, with
    host(), the real one."""

    def __init__(self, binary: Path, root: Path | None) -> None:
        self.binary = binary
        self.root = root

    def _env(self, root: Path | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "UDRV_SYSROOT"}
        env["LC_ALL"] = "C"
        if root is not None:
            env["UDRV_SYSROOT"] = str(root)
        return env

    def _run(self, args: tuple[str, ...], root: Path | None) -> Result:
        env = self._env(root)
        proc = subprocess.run([str(self.binary), *args], env=env, capture_output=True,
                              timeout=TIMEOUT_S, stdin=subprocess.DEVNULL, check=False)
        return Result(args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                      proc.stderr.decode("utf-8", "replace"), self.binary.name)

    def __call__(self, *args: str) -> Result:
        """udrv ARGS with UDRV_SYSROOT pointing at the fake tree."""
        return self._run(args, self.root)

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        """udrv ARGS in the background, on the fake tree (the caller waits for it)."""
        return subprocess.Popen([str(self.binary), *args], env=self._env(self.root),
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)

    def host(self, *args: str) -> Result:
        """udrv ARGS on the real /sys, /dev and /proc (no UDRV_SYSROOT)."""
        return self._run(args, None)
