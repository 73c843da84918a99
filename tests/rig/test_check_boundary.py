# SPDX-License-Identifier: GPL-2.0-only
"""scripts/check-boundary (make check's boundary step) passes on this tree and
fails, for its reason, on a copy with one forbidden dependency added: a rig
or tools header included by the library, a tools header by a bench, a rig
header by the tool, a bench's header by another bench (or by core/ or
peers/), a C file of rig/bench/ outside core/, peers/ and a bench's folder,
a systemd or daemon/bus/ header by udrvd's object model (daemon/model/),
a back include that closes a cycle in udrvd's include graph (daemon/),
the rig package imported by the bindings or an example,
rig.lava imported by any module of rig.lab (its __main__ too), the lab's
image and boards importing each other or the strategies, a library
message in the tool's terms, lib/'s folders mixed (a source directly in
lib/, another folder's private header, one taken from beside the file), and
udrv's symbols checked against the bench
library's (a udrv-bench given as udrv has them all)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.udrv_runner import find_bench_binary, find_binary

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "check-boundary"
TREES = ("lib", "include", "bindings", "daemon", "kernel", "tools", "rig", "examples")


def check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The checked trees of this repository, copied once (each test adds one
    line to a file and takes it out again)."""
    root = tmp_path_factory.mktemp("tree")
    for t in TREES:
        shutil.copytree(REPO / t, root / t, symlinks=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.ko", "*.o", ".*"))
    return root


def test_this_tree_keeps_the_boundary(copy: Path) -> None:
    r = check("--root", str(copy))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "check-boundary: udrv-symbols: skipped" in r.stdout


@pytest.mark.parametrize(("path", "line", "verdict", "says"), [
    ("lib/parse.c", '#include "cli.h"', "toolkit-includes",
     '#include "cli.h" is a header of tools/'),
    ("lib/parse.c", '#include "../rig/bench/core/bench.h"', "toolkit-includes",
     "is a header of rig/"),
    ("include/udrv/parse.h", '#include "msg.h"', "toolkit-includes", "is a header of rig/"),
    ("bindings/python/src/module.c", '#include "commands.h"', "toolkit-includes",
     "is a header of tools/"),
    ("daemon/model/policy.c", '#include "fields.h"', "toolkit-includes",
     "is a header of rig/"),
    # udrvd's object model is plain C: no sd-bus, no header of its bus side
    ("daemon/model/policy.c", "#include <systemd/sd-bus.h>", "daemon-model",
     "#include systemd/sd-bus.h is a systemd header"),
    ("daemon/model/sysfs_devices.c", '#include "request.h"', "daemon-model",
     '#include "request.h" is a header of daemon/bus/'),
    ("daemon/model/perms.h", '#include "../bus/daemon.h"', "daemon-model",
     "is a header of daemon/bus/"),
    # udrvd's files in layers: a back include closes a cycle, named with its sites
    ("daemon/bus/chip.c", '#include "objects.h"', "daemon-layers",
     'bus/chip -> bus/objects -> bus/chip: a cycle (daemon/bus/chip.c:1: #include "objects.h"; '
     'daemon/bus/objects.c:'),
    ("daemon/bus/watch.h", '#include "request.h"', "daemon-layers",
     "bus/request -> bus/watch -> bus/request: a cycle"),
    ("daemon/model/chips.h", '#include "requests.h"', "daemon-layers",
     "model/chips -> model/requests -> model/chips: a cycle"),
    ("kernel/udrv-irq/event.c", "#include <udrv/uio-ticker.h>", "toolkit-includes",
     "is a header of rig/"),
    ("rig/bench/toggle/toggle.c", '#include "cli.h"', "rig-includes", "is a header of tools/"),
    ("rig/bench/core/out.c", '#include "../../../tools/commands.h"', "rig-includes",
     "is a header of tools/"),
    ("tools/cmd_gpio.c", '#include "bench.h"', "tools-includes", "is a header of rig/"),
    # one folder per bench: a bench includes its own headers and core/'s only
    ("rig/bench/irq/irq.c", '#include "toggle/toggle.h"', "bench-folders",
     '#include "toggle/toggle.h" is a header of rig/bench/toggle/ (irq/ includes irq/ and '
     "core/ only)"),
    ("rig/bench/timer/timer.c", '#include "../rate/rate.h"', "bench-folders",
     "is a header of rig/bench/rate/"),
    # a bare name a build's include path would find in another bench's folder
    ("rig/bench/gaps/gaps.c", '#include "reply.h"', "bench-folders",
     "is a header of rig/bench/reply/"),
    ("rig/bench/core/bench.c", '#include "irq/irq.h"', "bench-folders",
     "is a header of rig/bench/irq/ (core/ includes core/ only)"),
    ("rig/bench/peers/udrv-bench-peer.c", '#include "toggle.h"', "bench-folders",
     "is a header of rig/bench/toggle/ (peers/ includes peers/ and core/ only)"),
    ("bindings/python/udrv/__init__.py", "import rig.lab", "python-imports",
     "imports the rig package"),
    ("examples/python/blink.py", "from rig import report", "python-imports",
     "imports the rig package"),
    ("rig/lab/suite/plan.py", "from rig.lava import job", "lab-imports", "imports rig.lava"),
    ("rig/lab/boards/qemu.py", "from ...lava.results import convert", "lab-imports",
     "imports rig.lava"),
    ("rig/lab/errors.py", "from rig import lava", "lab-imports", "imports rig.lava"),
    # the lab's command line too: the LAVA commands are python3 -m rig.lava
    ("rig/lab/__main__.py", "from rig.lava import job as lava", "lab-imports",
     "imports rig.lava (the lab does not depend on the LAVA path)"),
    # a board drives a prepared image; preparing is the image's, combining the strategy's
    ("rig/lab/boards/qemu.py", "from ..image.prepare import prepare", "lab-layers",
     "imports rig.lab.image (a board boots an image prepared before"),
    ("rig/lab/boards/labgrid_env.py", "from rig.lab.strategy import Board", "lab-layers",
     "imports rig.lab.strategy"),
    ("rig/lab/boards/agent.py", "from .. import farm", "lab-layers", "imports rig.lab.farm"),
    ("rig/bench/base.py", "from rig.lab.suite import plan", "bench-imports", "imports rig.lab"),
    ("rig/bench/toggle/spec.py", "from ...lava import job", "bench-imports", "imports rig.lava"),
    ("rig/lab/image/prepare.py", "from ..boards.qemu import QemuBoard", "lab-layers",
     "imports rig.lab.boards (an image knows nothing of the boards"),
    ("rig/lab/image/apt.py", "import rig.lab.strategy", "lab-layers",
     "imports rig.lab.strategy"),
    ("lib/uio/uio.c", 'static const char hint[] = "see udrv uio info";', "library-terms",
     "names the tool's 'udrv uio'"),
    ("lib/gpio/chip.c", 'static const char hint[] = "or use --backend sysfs";', "library-terms",
     "names the tool's '--backend'"),
    # lib/ by subsystem: another folder's private header, one found beside the
    # file, a subsystem's header in a shared file, the responder's in gpio/
    ("lib/uio/uio_irq.c", '#include "gpio/backend.h"', "lib-folders",
     'is a private header of lib/gpio/ (lib/uio/ include'),
    ("lib/gpio/request.c", '#include "backend.h"', "lib-folders",
     'is found beside the file only: name it by its path from lib/ ("gpio/backend.h")'),
    ("lib/util.c", '#include "vfio/pci.h"', "lib-folders",
     "is a private header of lib/vfio/ (lib/'s shared files include"),
    ("lib/gpio/soc/soc.c", '#include "responder/responder_priv.h"', "lib-folders",
     "is a private header of lib/responder/ (lib/gpio/ include"),
], ids=lambda v: v if isinstance(v, str) and "/" in v and " " not in v else None)
def test_a_forbidden_dependency_fails(copy: Path, path: str, line: str, verdict: str,
                                      says: str) -> None:
    f = copy / path
    if not f.is_file():
        pytest.fail(f"{path} is gone: pick another file for this case")
    text = f.read_text()
    f.write_text(f"{line}\n{text}")
    try:
        r = check("--root", str(copy))
    finally:
        f.write_text(text)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"check-boundary: {verdict}: FAIL" in r.stdout, r.stdout
    assert f"{path}:1: " in r.stdout and says in r.stdout, r.stdout
    assert r.stdout.count(": FAIL") == 1, r.stdout


@pytest.mark.parametrize(("path", "says"), [
    ("rig/bench/stray.c", "at rig/bench/'s top: belongs in core/"),
    ("rig/bench/stray.h", "at rig/bench/'s top: belongs in core/"),
    ("rig/bench/misc/misc.c",
     "rig/bench/misc/ is no bench's folder (not in udrv_benches of rig/bench/meson.build)"),
])
def test_a_bench_file_out_of_place_fails(copy: Path, path: str, says: str) -> None:
    """Every C file of rig/bench/ is in core/, peers/ or the folder of a bench
    that rig/bench/meson.build lists (udrv_benches)."""
    f = copy / path
    made = [d for d in f.parents if not d.exists()]
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text("/* out of place */\nint stray;\n")
    try:
        r = check("--root", str(copy))
    finally:
        f.unlink()
        for d in made:
            d.rmdir()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "check-boundary: bench-folders: FAIL" in r.stdout, r.stdout
    assert f"  {path}: {says}" in r.stdout, r.stdout
    assert r.stdout.count(": FAIL") == 1, r.stdout


def test_a_source_directly_in_lib_fails(copy: Path) -> None:
    """Only what the subsystems share stays directly in lib/."""
    stray = copy / "lib" / "gpio_extra.c"
    stray.write_text("int udrv_gpio_extra(void);\n")
    try:
        r = check("--root", str(copy))
    finally:
        stray.unlink()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "check-boundary: lib-folders: FAIL" in r.stdout, r.stdout
    assert "lib/gpio_extra.c: directly in lib/ but not shared" in r.stdout, r.stdout
    assert r.stdout.count(": FAIL") == 1, r.stdout


def test_udrv_links_no_bench_object() -> None:
    udrv, bench = find_binary(), find_bench_binary()
    build = bench.parents[2]
    if not (udrv.is_file() and (build / "rig" / "bench" / "libudrv-bench.a").is_file()):
        pytest.fail(f"no {udrv} or bench library in {build}: build it (ninja -C build/dev)",
                    pytrace=False)
    r = check("--build", str(build), "--udrv", str(udrv))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "check-boundary: udrv-symbols: ok" in r.stdout
    # udrv-bench, given as udrv, has every symbol of the library it links
    r = check("--build", str(build), "--udrv", str(bench))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "check-boundary: udrv-symbols: FAIL" in r.stdout
    assert "defines cmd_bench_toggle, a symbol of the bench library" in r.stdout
