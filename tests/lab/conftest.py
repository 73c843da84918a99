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
    deb_rpi3              the rpi3 board with udrv's arm64 packages (make deb
                          DEB_ARCH=arm64) and Debian's arm64 python3, unpacked
                          (rig/lab/image/debguest.py); a board of its own
    py_board              the x86 kernels (ids "std", "rt") booted with the Python
                          image variant (rig/lab/image/pyguest.py: python3.11, udrv, gpiod,
                          gpiozero); a board of its own, so that the others don't
                          pay for Python (session-scoped too)
    q35_py_board          the q35 kernels booted with the Python image variant
                          (with D-Bus and udrvd): VFIO through the broker
    local_board           std-q35 with udrv installed from source below /usr/local
                          (make install PREFIX=/usr/local, staged on the host), the
                          install's last steps left to the test
                          (rig/lab/image/localguest.py); a board of its own

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

On a labgrid target (run with build/lg-venv/bin/python -m pytest, which
loads labgrid's pytest plugin):
    --lg-env FILE           every board fixture is the one session
                            LabgridBoard of the env's target "main" (rig/lab/
                            labgrid_board.py) when the target has the
                            fixture's features (board_rt: rt, board_rpi3:
                            bcm2835, q35_board: iommu + edu, board_rt_smp:
                            rt + isolcpus, py_board: python, board: gpio-wire
                            + edu), else the test is skipped saying which
                            feature is missing and what it means; the
                            parametrized fixtures have one id, the target's
                            target.  Tests declare what they need with
                            pytest.mark.lg_feature(...); "qemu" marks the
                            tests that boot boards of their own or use
                            QEMU-only attributes (rig/lab/boards/api.py)

Each board boots once per session and is shared by all tests (the fixtures
are session-scoped handles), and is shut down after the last test that uses
it; a board that died (guest panic, agent gone) is replaced by a fresh boot
on its next use.  A boot failure (e.g. qemu
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

from rig.lab import Board, LabError
from rig.lab.boards.api import FEATURES
from rig.lab.catalogue import TARGETS, features
from rig.lab.image import debguest, localguest, pyguest

ROOT = Path(__file__).resolve().parents[2]

ALL_KERNELS = tuple(TARGETS)  # "std", "rt" (x86), "rpi3", "std-smp", "rt-smp"
DEFAULT_KERNELS = ("std", "rt", "rpi3", "rt-smp", "std-q35", "rt-q35")
X86_KERNELS = tuple(n for n, t in TARGETS.items() if t.board == "x86")
SMP_KERNELS = tuple(n for n, t in TARGETS.items() if t.board == "x86-smp")
Q35_KERNELS = tuple(n for n, t in TARGETS.items() if t.board == "q35")
HERE = Path(__file__).resolve().parent
# the boards make lab-check runs a subset of the lab tests on through labgrid: the
# tests marked lg_BOARD (the transport, the feature skips, a few real ones)
LG_BOARDS = ("std", "rt", "rpi3")


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


# --lg-env: what each board fixture needs of the labgrid target ("!rt": a
# board without the feature rt); QEMU boards need nothing here (they are what
# the fixtures name)
LG_NEEDS: dict[str, tuple[str, ...]] = {
    "board_std": ("gpio-wire", "edu", "!rt", "!iommu"),  # the pc board, not q35
    "board_rt": ("rt",),
    "board_rpi3": ("bcm2835",),
    "board": ("gpio-wire", "edu"),
    "any_board": (),
    "board_rt_smp": ("rt", "isolcpus"),
    "board_std_smp": ("isolcpus", "!rt"),
    "board_std_q35": ("iommu", "edu", "!rt"),
    "board_rt_q35": ("iommu", "edu", "rt"),
    "q35_board": ("iommu", "edu"),
    "py_board": ("python",),
    "q35_py_board": ("iommu", "edu", "python"),
    "deb_rpi3": ("bcm2835", "python"),
    "local_board": ("gpio-wire", "local-install"),
}
# the parametrized board fixtures and their QEMU boards
PARAM_BOARDS: dict[str, list[str]] = {}
LG_TARGET = "main"


def lg_env(config: pytest.Config) -> Any:
    """The labgrid plugin's Environment when --lg-env (or LG_ENV) is given, else None."""
    if not config.pluginmanager.hasplugin("labgrid"):
        return None
    from labgrid.pytestplugin.hooks import LABGRID_ENV_KEY

    return config.stash.get(LABGRID_ENV_KEY, None)


def lg_missing(fixture: str, have: frozenset[str]) -> list[str]:
    """What the labgrid target lacks for `fixture` (descriptions)."""
    out = []
    for need in LG_NEEDS.get(fixture, ()):
        if need.startswith("!"):
            if need[1:] in have:
                out.append(f"a board without {need[1:]} (the target has {need[1:]}: "
                           f"{FEATURES[need[1:]]})")  # fmt: skip
        elif need not in have:
            out.append(f"{need} ({FEATURES.get(need, 'not a udrv feature')})")
    return out


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """test_labgrid_board.py: only on a labgrid target (--lg-env)."""
    if collection_path.name == "test_labgrid_board.py" and lg_env(config) is None:
        return True
    return None


def pytest_configure(config: pytest.Config) -> None:
    # the markers, also when labgrid's plugin is not loaded (plain pytest)
    config.addinivalue_line("markers", "lg_feature(features): the board features (rig/lab/"
                            "boards/api.py FEATURES) a test needs; a labgrid target "
                            "without them skips it (--lg-env)")  # fmt: skip
    # what scripts/check.py selects by marker (-m), declared in the test files
    config.addinivalue_line("markers", "late: boots boards of its own under a wall-clock boot "
                            "timeout: run after the shards (make lab-check's lab step)")
    config.addinivalue_line("markers", "deb: needs udrv's Debian packages in build/deb (make "
                            "deb, make deb DEB_ARCH=arm64): scripts/deb-test --lab runs "
                            "them, make lab-check does not")  # fmt: skip
    for board in LG_BOARDS:
        config.addinivalue_line("markers", f"lg_{board}: in make lab-check's labgrid run of the "
                                f"{board} board (python3 -m rig.lab lg-env --kernel {board})")


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """The parametrized board fixtures: one id per selected QEMU board, or with
    --lg-env the one id of the labgrid target's udrv-target (unless the test
    parametrizes the fixture itself, e.g. with indirect=)."""
    env = lg_env(metafunc.config)
    own = set()
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0] if mark.args else mark.kwargs.get("argnames", ())
        own.update(n.strip() for n in (names.split(",") if isinstance(names, str) else names))
    for name, qemu in PARAM_BOARDS.items():
        if name not in metafunc.fixturenames or name in own:
            continue
        if env is not None:
            from rig.lab.boards.labgrid_board import udrv_target

            ids = [udrv_target(env, LG_TARGET)]
        else:
            ids = qemu
        params = [pytest.param(i, id=i, marks=[pytest.mark.deb] if i in DEB_PARAMS else [])
                  for i in ids]  # fmt: skip
        metafunc.parametrize(name, params, indirect=True, scope="session")


def param_board(name: str, param: str) -> tuple[str, str]:
    """(board, image variant) of parametrized fixture @name's parameter @param:
    py_board's are the Python image, DEB_PARAMS' the packaged one."""
    return DEB_PARAMS.get(param, (param, "py" if name in ("py_board", "q35_py_board") else ""))


def wanted_features(item: pytest.Item) -> set[str]:
    """The features a test's lg_feature markers ask for."""
    want: set[str] = set()
    for mark in item.iter_markers("lg_feature"):
        arg = mark.args[0] if mark.args else ()
        want.update([arg] if isinstance(arg, str) else arg)
    return want


def skip_lacking_features(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip, with what is missing and what it means, the tests whose
    lg_feature markers their board lacks: with --lg-env the labgrid target's
    (labgrid's own hook skips them too, saying only the feature's name), else
    a parametrized QEMU board's (py_board's "rpi3-deb" has no edu)."""
    env = lg_env(config)
    target: frozenset[str] | None = None
    if env is not None:
        from rig.lab.boards.labgrid_board import target_features

        target = target_features(env, LG_TARGET)
    for item in items:
        want = wanted_features(item)
        if not want:
            continue
        boards: list[tuple[str, frozenset[str]]] = []
        if target is not None:
            boards = [("the labgrid target", target)]
        else:
            params = getattr(getattr(item, "callspec", None), "params", {})
            boards = [(f"the {params[n]} board", features(*param_board(n, str(params[n]))))
                      for n in PARAM_BOARDS if isinstance(params.get(n), str)]  # fmt: skip
        for who, have in boards:
            missing = sorted(want - have)
            if missing:
                why = "; ".join(f"{f} ({FEATURES.get(f, 'not a udrv feature')})" for f in missing)
                item.add_marker(pytest.mark.skip(reason=f"{who} lacks {why}"))
                break


def pytest_report_header(config: pytest.Config) -> str:
    env = lg_env(config)
    if env is not None:
        from rig.lab.boards.labgrid_board import target_features

        return (f"udrv lab: labgrid target {LG_TARGET} of {env.config_file}, features "
                f"{', '.join(sorted(target_features(env, LG_TARGET))) or 'none'}")  # fmt: skip
    if LAB_DISABLED:
        return "udrv lab: disabled (UDRV_LAB=0)"
    return f"udrv lab: boards {', '.join(KERNELS)} (QEMU TCG, -icount shift=0,sleep=off)"


BOOTS: list[str] = []


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if BOOTS:
        terminalreporter.write_sep("-", "udrv lab boots (QEMU start to agent ready)")
        for line in BOOTS:
            terminalreporter.write_line(line)


# the session fixtures that boot one board, and the board (Boards' key:
# "KERNEL" or "KERNEL+VARIANT") they boot
BOARD_FIXTURES = {"board_std": "std", "board_rt": "rt", "board_rpi3": "rpi3",
                  "deb_rpi3": "rpi3+deb", "board_rt_smp": "rt-smp",
                  "board_std_smp": "std-smp", "board_std_q35": "std-q35",
                  "board_rt_q35": "rt-q35", "local_board": "std-q35+local"}


def board_keys(item: pytest.Item) -> list[str]:
    """The session boards (Boards' keys) a test uses: those of its parametrized
    board fixtures, then those of the board fixtures it requests."""
    keys = []
    params = getattr(getattr(item, "callspec", None), "params", {})
    for name in PARAM_BOARDS:
        if isinstance(params.get(name), str):
            kernel, variant = param_board(name, params[name])
            keys.append(f"{kernel}+{variant}" if variant else kernel)
    names = getattr(item, "fixturenames", ())
    keys += [key for fixture, key in BOARD_FIXTURES.items() if fixture in names]
    return keys


def board_of(item: pytest.Item) -> str:
    """The board a test runs on: its board fixture's kernel, or its module's
    LAB_BOARD (a module whose tests boot boards of their own); "none" for a
    test that boots nothing."""
    keys = board_keys(item)
    if keys:
        return keys[0].partition("+")[0]
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
    skip_lacking_features(config, items)
    if not LAB_DISABLED:
        return
    skip = pytest.mark.skip(reason="lab tests disabled by UDRV_LAB=0")
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


# each QEMU board's last test in this session (Boards' key: nodeid), once
# collection has ordered the tests: the board is shut down after it. An idle
# board under -icount sleep=off keeps a host core busy (uio-ticker's 1 kHz
# timer): the std-q35 board of a shard's first tests, kept up to the end,
# took a core from the other boards for half an hour of a 2-core CI run
LAST_USE: dict[str, str] = {}
SESSION_BOARDS: list[Boards] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    LAST_USE.clear()
    for item in session.items:
        for key in board_keys(item):
            LAST_USE[key] = item.nodeid


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """After a board's last test (and its fixtures' teardown), shut it down;
    a later use (a fixture's teardown at the session's end) boots it again."""
    yield
    done = [key for key, last in LAST_USE.items() if last == item.nodeid]
    if SESSION_BOARDS and done:
        SESSION_BOARDS[0].shut(done)


class Boards:
    """Boots lazily and keeps one Board per kernel while the session's tests
    need it; with --lg-env (env: labgrid's Environment) the one LabgridBoard
    of its target."""

    def __init__(self, env: Any = None) -> None:
        self.boards: dict[str, Board] = {}
        self.env = env

    def live(self, target: str) -> Board:
        """The target's board, booting it (again, if the last one died);
        "NAME+py": the board with the Python image variant (rig/lab/image/pyguest.py);
        "rpi3+deb": the rpi3 board with Debian's arm64 python3 and udrv's arm64
        packages (rig/lab/image/debguest.py);
        "std-q35+local": std-q35 with the source install (rig/lab/image/localguest.py);
        "lg": the labgrid target."""
        board = self.boards.get(target)
        if board is not None and board.dead:
            sys.stderr.write(f"\nlab: {target} board died ({board.dead}); booting a new one\n")
            board.close()
            board = None
        if board is None and target == "lg":
            from rig.lab.boards.labgrid_board import LabgridBoard

            lgb = LabgridBoard(env=self.env, lg_target=LG_TARGET)
            BOOTS.append(f"labgrid target {LG_TARGET} ({lgb.target}) {lgb.release}: "
                         f"{lgb.boot_seconds:.1f}s to the agent")  # fmt: skip
            board = self.boards[target] = cast(Board, lgb)
        if board is None:
            name, _, variant = target.partition("+")
            extra = (pyguest.variant_files() if variant == "py" else
                     debguest.guest_files() if variant == "deb" else
                     localguest.guest_files() if variant == "local" else None)  # fmt: skip
            board = self.boards[target] = Board(name, extra_files=extra,  # type: ignore[arg-type]
                                                 variant=variant)
            BOOTS.append(f"{target} {board.release}: {board.boot_seconds:.1f}s ({board.log_path})")
        return board

    def handle(self, target: str, variant: str = "", *, fixture: str = "") -> Board:
        """A session-long handle on a kernel's board (boots it now); with
        --lg-env the labgrid target's, when it has what `fixture` needs."""
        if self.env is not None:
            from rig.lab.boards.labgrid_board import target_features

            have = target_features(self.env, LG_TARGET)
            missing = lg_missing(fixture, have)
            # a test's own parameter naming an rt QEMU board (indirect=) needs rt
            t = TARGETS.get(target)
            if fixture in PARAM_BOARDS and t is not None and t.kernel == "rt" and "rt" not in have:
                missing.append(f"rt ({FEATURES['rt']}) for its parameter {target!r}")
            if missing:
                pytest.skip(f"{fixture} needs {'; '.join(missing)}, which the labgrid "
                            "target does not have")  # fmt: skip
            key = "lg"
        else:
            if target not in KERNELS:
                pytest.skip(f"board {target!r} not selected "
                            f"(UDRV_LAB_KERNELS={','.join(KERNELS)})")  # fmt: skip
            key = f"{target}+{variant}" if variant else target
        try:
            self.live(key)
        except LabError as exc:
            pytest.fail(f"{key} board did not boot: {type(exc).__name__}: {exc}", False)
        return cast(Board, LiveBoard(self, key))

    def shut(self, keys: list[str]) -> None:
        """Shut down the QEMU boards of @keys (not the labgrid target's)."""
        for key in keys:
            board = self.boards.pop(key, None) if self.env is None else None
            if board is not None:
                board.close()

    def close(self) -> None:
        for board in self.boards.values():
            board.close()
        self.boards.clear()


class LiveBoard:
    """Forwards to the kernel's current Board; a board that died (guest panic,
    agent gone) is replaced by a fresh boot on the next use."""

    def __init__(self, boards: Boards, target: str) -> None:
        self._boards = boards
        self._flavour = target

    def __getattr__(self, name: str) -> Any:
        return getattr(self._boards.live(self._flavour), name)

    def __repr__(self) -> str:
        return f"<lab board {self._flavour}>"


@pytest.fixture(scope="session")
def lab_boards(request: pytest.FixtureRequest) -> Iterator[Boards]:
    boards = Boards(lg_env(request.config))
    SESSION_BOARDS[:] = [boards]
    yield boards
    boards.close()
    SESSION_BOARDS.clear()


@pytest.fixture(scope="session")
def board_std(lab_boards: Boards) -> Board:
    return lab_boards.handle("std", fixture="board_std")


@pytest.fixture(scope="session")
def board_rt(lab_boards: Boards) -> Board:
    return lab_boards.handle("rt", fixture="board_rt")


@pytest.fixture(scope="session")
def board_rpi3(lab_boards: Boards) -> Board:
    return lab_boards.handle("rpi3", fixture="board_rpi3")


@pytest.fixture(scope="session")
def deb_rpi3(lab_boards: Boards) -> Board:
    """The rpi3 board with udrv's arm64 packages and Debian's arm64 python3
    (rig/lab/image/debguest.py): a board of its own."""
    return lab_boards.handle("rpi3", "deb", fixture="deb_rpi3")


@pytest.fixture(scope="session")
def board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The x86 kernels: the tests that use rig/kernel/ modules (gpio-wire) or edu."""
    return lab_boards.handle(str(request.param), fixture="board")


@pytest.fixture(scope="session")
def board_rt_smp(lab_boards: Boards) -> Board:
    return lab_boards.handle("rt-smp", fixture="board_rt_smp")


@pytest.fixture(scope="session")
def board_std_q35(lab_boards: Boards) -> Board:
    return lab_boards.handle("std-q35", fixture="board_std_q35")


@pytest.fixture(scope="session")
def board_rt_q35(lab_boards: Boards) -> Board:
    return lab_boards.handle("rt-q35", fixture="board_rt_q35")


@pytest.fixture(scope="session")
def local_board(lab_boards: Boards) -> Board:
    """std-q35 with udrv installed from source below /usr/local, the install
    not yet finished (rig/lab/image/localguest.py): a board of its own."""
    return lab_boards.handle("std-q35", "local", fixture="local_board")


@pytest.fixture(scope="session")
def q35_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The q35 kernels (Intel IOMMU, vfio-pci): the VFIO tests."""
    return lab_boards.handle(str(request.param), fixture="q35_board")


ONE_CPU = [k for k in KERNELS if k not in SMP_KERNELS and k not in Q35_KERNELS]
# py_board's packaged parameters: (board, image variant); marked deb (they
# need make deb DEB_ARCH=arm64; scripts/deb-test --lab runs them)
DEB_PARAMS = {"rpi3-deb": ("rpi3", "deb")}
PARAM_BOARDS.update(board=X86_SELECTED, q35_board=Q35_SELECTED, q35_py_board=Q35_SELECTED,
                    any_board=ONE_CPU,
                    py_board=X86_SELECTED + [p for p, (b, _) in DEB_PARAMS.items() if b in KERNELS])


@pytest.fixture(scope="session")
def any_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """Every selected board, rpi3 included: the tests of the lab itself."""
    return lab_boards.handle(str(request.param), fixture="any_board")


@pytest.fixture(scope="session")
def q35_py_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The q35 kernels with the Python image variant (D-Bus, udrvd): a board
    of its own, for VFIO through udrvd."""
    return lab_boards.handle(*param_board("q35_py_board", str(request.param)),
                             fixture="q35_py_board")  # fmt: skip


@pytest.fixture(scope="session")
def py_board(request: pytest.FixtureRequest, lab_boards: Boards) -> Board:
    """The x86 kernels with Python in the guest (python3, udrv, gpiod, gpiozero),
    and "rpi3-deb": the rpi3 board with udrv's arm64 packages, Debian's arm64
    python3, gpiod and gpiozero, and rig/kernel/'s modules (cross-built)."""
    return lab_boards.handle(*param_board("py_board", str(request.param)), fixture="py_board")

