# SPDX-License-Identifier: GPL-2.0-only
"""Lab fixtures: Debian's real kernels booted in QEMU, once per pytest session.

    board_std, board_rt   the x86 board's standard / PREEMPT_RT kernel (session-scoped)
    board                 parametrized over the selected x86 kernels (ids "std", "rt")
    board_rpi3            the rpi3 board (raspi3b, Debian's arm64 kernel)
    board_rt_smp          the PREEMPT_RT kernel on two CPUs, CPU 1 isolated
    board_std_q35, board_rt_q35
                          the q35 board (Intel IOMMU, vfio-pci loaded; edu at
                          00:01.0 bound to uio_pci_generic at boot), std / rt
    q35_board             parametrized over the selected q35 kernels (ids
                          "std-q35", "rt-q35")
    any_board             parametrized over the selected one-machine boards
                          (ids "std", "rt", "rpi3"; not the SMP ones)
    py_board              the x86 kernels (ids "std", "rt") booted with the Python
                          image variant (lab/pyguest.py: python3.11, udrv, gpiod,
                          gpiozero); a board of its own, so that the others don't
                          pay for Python (session-scoped too)

Environment:
    UDRV_LAB=0              skip every lab test (the only way they are skipped)
    UDRV_LAB_KERNELS=std    test only some boards ("std", "rt", "rpi3", "rt-smp",
                            "std-smp", "std-q35", "rt-q35", "std,rpi3"; default
                            std, rt, rpi3, rt-smp, std-q35 and rt-q35; "all":
                            every one)
    UDRV_LAB_SHARD=rt,none  run only the tests of these boards ("none": the tests
                            that boot no board); the others are deselected, not
                            skipped. scripts/check.py runs two shards at once,
                            one QEMU per host core (a TCG guest is one thread)

Each kernel boots at most once per session and is shared by all tests (the
fixtures are session-scoped handles); a board that died (guest panic, agent
gone) is replaced by a fresh boot on its next use.  A boot failure (e.g. qemu
not installed) fails the tests that need the board, with the lab's message,
instead of skipping them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from lab import Board, LabError, pyguest  # noqa: E402
from lab.boards import TARGETS  # noqa: E402

ALL_KERNELS = tuple(TARGETS)  # "std", "rt" (x86), "rpi3", "std-smp", "rt-smp"
DEFAULT_KERNELS = ("std", "rt", "rpi3", "rt-smp", "std-q35", "rt-q35")
X86_KERNELS = tuple(n for n, t in TARGETS.items() if t.board == "x86")
SMP_KERNELS = tuple(n for n, t in TARGETS.items() if t.board == "x86-smp")
Q35_KERNELS = tuple(n for n, t in TARGETS.items() if t.board == "q35")
HERE = Path(__file__).resolve().parent


def selected_kernels() -> list[str]:
    raw = os.environ.get("UDRV_LAB_KERNELS", "").replace(",", " ").split()
    if not raw:
        return list(DEFAULT_KERNELS)
    if raw == ["all"]:
        return list(ALL_KERNELS)
    bad = [k for k in raw if k not in ALL_KERNELS]
    if bad:
        raise pytest.UsageError(
            f"UDRV_LAB_KERNELS: unknown board(s) {bad}; use some of {', '.join(ALL_KERNELS)}"
        )
    return [k for k in ALL_KERNELS if k in raw]


LAB_DISABLED = os.environ.get("UDRV_LAB", "1") == "0"
KERNELS = selected_kernels()
X86_SELECTED = [k for k in KERNELS if k in X86_KERNELS]
Q35_SELECTED = [k for k in KERNELS if k in Q35_KERNELS]


def pytest_report_header() -> str:
    if LAB_DISABLED:
        return "udrv lab: disabled (UDRV_LAB=0)"
    return f"udrv lab: boards {', '.join(KERNELS)} (QEMU TCG, -icount shift=0,sleep=off)"


BOOTS: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if BOOTS:
        terminalreporter.write_sep("-", "udrv lab boots (QEMU start to agent ready)")
        for line in BOOTS:
            terminalreporter.write_line(line)


# the session fixtures that boot one board, and what they boot
BOARD_FIXTURES = {"board_std": "std", "board_rt": "rt", "board_rpi3": "rpi3",
                  "board_rt_smp": "rt-smp", "board_std_smp": "std-smp",
                  "board_std_q35": "std-q35", "board_rt_q35": "rt-q35"}


def board_of(item: pytest.Item) -> str:
    """The board a test runs on: its `board`/`any_board` parameter, the
    session fixture it uses, or its module's LAB_BOARD (a module whose tests
    boot boards of their own); "none" for a test that boots nothing."""
    callspec = getattr(item, "callspec", None)
    for name in ("board", "any_board", "py_board", "q35_board"):
        if callspec is not None and name in callspec.params:
            return str(callspec.params[name])
    names = getattr(item, "fixturenames", ())
    for fixture, flavour in BOARD_FIXTURES.items():
        if fixture in names:
            return flavour
    return str(getattr(getattr(item, "module", None), "LAB_BOARD", "none"))


def shard_items(config: pytest.Config, items: list[pytest.Item]) -> None:
    """UDRV_LAB_SHARD: keep the lab tests of the boards it names."""
    raw = os.environ.get("UDRV_LAB_SHARD", "").replace(",", " ").split()
    if not raw:
        return
    known = {*ALL_KERNELS, "none"}
    bad = [b for b in raw if b not in known]
    if bad:
        raise pytest.UsageError(f"UDRV_LAB_SHARD: unknown board(s) {bad}; use some of "
                                f"{', '.join(sorted(known))}")
    keep, drop = [], []
    for item in items:
        lab = HERE in Path(str(item.path)).resolve().parents
        (keep if not lab or board_of(item) in raw else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    shard_items(config, items)
    if not LAB_DISABLED:
        return
    skip = pytest.mark.skip(reason="lab tests disabled by UDRV_LAB=0")
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


class Boards:
    """Boots lazily and keeps one Board per kernel for the whole session."""

    def __init__(self) -> None:
        self.boards: dict[str, Board] = {}

    def live(self, flavour: str) -> Board:
        """The flavour's board, booting it (again, if the last one died);
        "NAME+py": the board with the Python image variant (lab/pyguest.py)."""
        board = self.boards.get(flavour)
        if board is not None and board.dead:
            sys.stderr.write(f"\nlab: {flavour} board died ({board.dead}); booting a new one\n")
            board.close()
            board = None
        if board is None:
            name, _, variant = flavour.partition("+")
            extra = pyguest.guest_files() if variant == "py" else None
            board = self.boards[flavour] = Board(name, extra_files=extra)  # type: ignore[arg-type]
            BOOTS.append(f"{flavour} {board.release}: {board.boot_seconds:.1f}s ({board.log_path})")
        return board

    def handle(self, flavour: str, variant: str = "") -> Board:
        """A session-long handle on a kernel's board (boots it now)."""
        if flavour not in KERNELS:
            pytest.skip(f"board {flavour!r} not selected (UDRV_LAB_KERNELS={','.join(KERNELS)})")
        key = f"{flavour}+{variant}" if variant else flavour
        try:
            self.live(key)
        except LabError as exc:
            pytest.fail(f"{key} board did not boot: {type(exc).__name__}: {exc}", False)
        return cast(Board, LiveBoard(self, key))

    def close(self) -> None:
        for board in self.boards.values():
            board.close()
        self.boards.clear()


class LiveBoard:
    """Forwards to the kernel's current Board; a board that died (guest panic,
    agent gone) is replaced by a fresh boot on the next use."""

    def __init__(self, boards: Boards, flavour: str) -> None:
        self._boards = boards
        self._flavour = flavour

    def __getattr__(self, name: str) -> Any:
        return getattr(self._boards.live(self._flavour), name)

    def __repr__(self) -> str:
        return f"<lab board {self._flavour}>"


@pytest.fixture(scope="session")
def lab_boards() -> Iterator[Boards]:
    boards = Boards()
    yield boards
    boards.close()


@pytest.fixture(scope="session")
def board_std(lab_boards: Boards) -> Board:
    return lab_boards.handle("std")


@pytest.fixture(scope="session")
def board_rt(lab_boards: Boards) -> Board:
    return lab_boards.handle("rt")


@pytest.fixture(scope="session")
def board_rpi3(lab_boards: Boards) -> Board:
    return lab_boards.handle("rpi3")


@pytest.fixture(scope="session", params=X86_SELECTED, ids=X86_SELECTED)
def board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The x86 kernels: the tests that use kernel/ modules (gpio-wire) or edu."""
    return lab_boards.handle(str(request.param))


@pytest.fixture(scope="session")
def board_rt_smp(lab_boards: Boards) -> Board:
    return lab_boards.handle("rt-smp")


@pytest.fixture(scope="session")
def board_std_q35(lab_boards: Boards) -> Board:
    return lab_boards.handle("std-q35")


@pytest.fixture(scope="session")
def board_rt_q35(lab_boards: Boards) -> Board:
    return lab_boards.handle("rt-q35")


@pytest.fixture(scope="session", params=Q35_SELECTED, ids=Q35_SELECTED)
def q35_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The q35 kernels (Intel IOMMU, vfio-pci): the VFIO tests."""
    return lab_boards.handle(str(request.param))


ONE_CPU = [k for k in KERNELS if k not in SMP_KERNELS and k not in Q35_KERNELS]


@pytest.fixture(scope="session", params=ONE_CPU, ids=ONE_CPU)
def any_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """Every selected board, rpi3 included: the tests of the lab itself."""
    return lab_boards.handle(str(request.param))


@pytest.fixture(scope="session", params=X86_SELECTED, ids=X86_SELECTED)
def py_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The x86 kernels with Python in the guest (python3, udrv, gpiod, gpiozero)."""
    return lab_boards.handle(str(request.param), "py")
