# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.lab: boot Debian's real kernels in QEMU and run commands inside."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import sys
import time
from pathlib import Path

from . import catalogue
from .boards.lg_place import add_parser as add_lg_reserve_parser
from .errors import CommandTimeout, LabError, exit_status
from .farm import add_parser as add_farm_parser
from .image import apt, initramfs, kernel, modules, pyguest
from .image.prepare import prepare
from .paths import kernel_src_dir, lab_dir
from .strategy import Board, shell
from .suite import pci, qemu
from .suite.labgrid import add_arguments as add_lg_suite_arguments
from .suite.labgrid import check_arguments as check_lg_suite_arguments
from .suite.labgrid import main as lg_suite

EXIT_LAB_ERROR = 125
EXIT_TIMEOUT = 124

DESCRIPTION = """\
Boot Debian bookworm's real kernels in QEMU (TCG, -icount shift=0,sleep=off:
guest time follows the instruction count, so timings repeat across boots) and
run commands inside them.  Two boards: x86 (qemu-system-x86_64) with the
standard ("std") and PREEMPT_RT ("rt") amd64 kernels, and rpi3
(qemu-system-aarch64 -M raspi3b) with the standard arm64 kernel.

The kernel versions are resolved from the metapackages (linux-image-amd64,
linux-image-rt-amd64, linux-image-arm64) with apt-cache; packages are
downloaded with apt-get into build/lab/cache/debs/ and unpacked into
build/lab/kernels/<release>/.  On x86, modules under rig/kernel/ are built against
the matching headers and loaded at boot; uio + uio_pci_generic are loaded and
QEMU's edu device (1234:11e8) appears as /dev/uio0.  On rpi3 the GPIO chip is
the real pinctrl-bcm2835 (54 lines).  Everything is cached: a second run boots
in ~10 s (x86) or ~3 s (rpi3).  A third board, q35 (--kernel std-q35 or
rt-q35), is x86 with an emulated Intel IOMMU and vfio-pci loaded, for VFIO
(docs/rig/lab.md); --board all leaves it out.

Exit status: `run` exits with the guest command's status; 124 if it timed
out; 125 if the lab itself failed (message on stderr)."""

EPILOG = """\
examples:
  python3 -m rig.lab info                                  what is resolved and cached
  python3 -m rig.lab fetch --kernel all                    download + unpack both kernels
  python3 -m rig.lab build                                 fetch + modules + initramfs
  python3 -m rig.lab run --kernel rt -- uname -a           boot, run, power off
  python3 -m rig.lab run --board rpi3 -- udrv gpio info    the Raspberry Pi 3 board
  python3 -m rig.lab run --kernel rt-q35 -- udrv pci list  q35 + Intel IOMMU (VFIO)
  python3 -m rig.lab run --out results -- 'bench > /out/r.json'
  python3 -m rig.lab shell --kernel std                    interactive console (Ctrl-A X quits)
  python3 -m rig.lab demo                                  every board: a short tour of udrv

From Python:  from rig.lab import Board; with Board("std") as b: print(b.run("uname -a").stdout)
Docs: docs/rig/lab.md"""


def _targets(args: argparse.Namespace) -> list[str]:
    """The boards (rig/lab/catalogue.py targets) that --board and --kernel select;
    --kernel may also name a target (std-q35, rt-smp), alone or with its board."""
    t = catalogue.TARGETS.get(args.kernel)
    if t is not None and args.kernel not in catalogue.KERNELS:
        if args.board not in (None, "all", t.board):
            raise LabError(f"--kernel {args.kernel} boots board {t.board}, not {args.board}: "
                           f"leave --board out or use --board {t.board}")  # fmt: skip
        return [args.kernel]
    return catalogue.select(args.board or "x86", args.kernel)


def _one(args: argparse.Namespace) -> str:
    return _targets(args)[0]


def cmd_fetch(args: argparse.Namespace) -> int:
    for fl in _targets(args):
        k = kernel.fetch(fl)
        print(f"{fl}: {k.release} in {k.root}")
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    for fl in _targets(args):
        p = prepare(fl)
        mods = ", ".join(ko.name for m in p.modules for ko in m.kos) or "none"
        print(f"{fl}: {p.kernel.release}; modules: {mods}; initramfs: {p.initramfs}")
    return 0


def _copy_out(board: Board, dest: Path) -> int:
    listing = board.run("cd /out 2>/dev/null && find . -type f", timeout=60)
    names = [n.removeprefix("./") for n in listing.stdout.splitlines() if n.strip()]
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(board.get(f"/out/{name}"))
        print(f"lab: copied /out/{name} -> {target}", file=sys.stderr)
    return len(names)


def cmd_run(args: argparse.Namespace) -> int:
    command = " ".join(args.command)
    if not command.strip():
        raise LabError("no command given: python3 -m rig.lab run [--board rpi3] -- CMD...")
    bad = [item for item in args.put if "=" not in item]
    if bad:
        raise LabError(f"--put wants GUEST=HOST, got {bad[0]!r}")
    extra: dict[str, str | Path] = dict(item.split("=", 1) for item in args.put)
    extra = {**_python_files(args), **extra}
    t0 = time.monotonic()
    with Board(
        _one(args), memory=args.memory, append=args.append, extra_files=extra, quiet=args.quiet
    ) as b:
        try:
            r = b.run(command, timeout=args.timeout)
        except CommandTimeout as exc:
            print(f"lab: {exc}", file=sys.stderr)
            return EXIT_TIMEOUT
        sys.stdout.buffer.write(r.stdout_bytes)
        sys.stdout.flush()
        sys.stderr.buffer.write(r.stderr_bytes)
        sys.stderr.flush()
        if args.out is not None:
            n = _copy_out(b, Path(args.out))
            if n == 0:
                print("lab: the command left no files in /out", file=sys.stderr)
    if not args.quiet:
        total = time.monotonic() - t0
        print(
            f"lab: exit {r.status}; {total:.1f}s in all "
            f"(boot {b.boot_seconds:.1f}s, command {r.seconds:.1f}s)",
            file=sys.stderr,
        )
    return r.status


DEMO_SCRIPTS = {"x86": "demo.sh", "rpi3": "demo-rpi3.sh", "q35": "demo.sh"}


def cmd_demo(args: argparse.Namespace) -> int:
    for fl in _targets(args):
        print(f"===== {fl} board =====", flush=True)
        with Board(fl) as b:
            script = Path(__file__).with_name(DEMO_SCRIPTS[b.machine.name]).read_text()
            r = b.run("exec 2>&1\n" + script, timeout=args.timeout)
            sys.stdout.write(r.stdout + r.stderr)
            print(f"(booted in {b.boot_seconds:.1f}s; console log {b.log_path})\n", flush=True)
    return 0


def _duration(text: str) -> int:
    """'90s', '30m', '1h' -> seconds (argparse type: a usage error otherwise)."""
    m = re.fullmatch(r"([1-9][0-9]{0,5})([smh])", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number and s, m or h (90s, 30m, 1h)")
    seconds = int(m[1]) * {"s": 1, "m": 60, "h": 3600}[m[2]]
    if seconds > 7 * 86400:
        raise argparse.ArgumentTypeError(f"{text!r}: at most 7 days")
    return seconds


def _jobs(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,2}", text) or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"{text!r}: a whole number of boards, 1..64")
    return int(text)


def cmd_suite(args: argparse.Namespace) -> int:
    out = Path(args.out) if args.out else lab_dir() / "results.json"
    if args.lg_env:  # a labgrid target (rig/lab/suite/labgrid.py)
        return lg_suite(args, out)
    check_lg_suite_arguments(args)
    targets = _targets(args)
    if args.board == "all":  # the instruction-counted boards: their numbers repeat
        targets = [f for f in targets if catalogue.lookup(f).icount]
        targets += pci.q35_targets(targets)  # UIO vs VFIO (udrv-bench pci)
    return qemu.run_suite(targets, "quick" if args.quick else "full", out,
                           duration_s=args.duration, jobs=args.jobs)


def _python_files(args: argparse.Namespace) -> dict[str, str | Path]:
    """--python: the Python image's files (rig/lab/image/pyguest.py, with D-Bus:
    dbusguest.py), x86 boards only."""
    if not args.python:
        return {}
    if catalogue.lookup(_one(args)).machine.name != "x86":
        raise LabError("--python: the Python image is for the x86 boards (the rpi3 "
                       "guest is arm64; docs/rig/lab.md, Python in the guest)")
    return dict(pyguest.variant_files(quiet=getattr(args, "quiet", False)))


def cmd_shell(args: argparse.Namespace) -> int:
    return shell(_one(args), memory=args.memory, append=args.append,
                 extra_files=_python_files(args) or None)


def _host_tools() -> dict[str, str]:
    out: dict[str, str] = {}
    tools = [(m.qemu, m.qemu_package) for m in catalogue.MACHINES.values()]
    tools += [("qemu-aarch64-static", "qemu-user-static"), ("apt-get", "apt"),
              ("dpkg", "dpkg"), ("make", "make"), ("gcc-12", "gcc-12")]  # fmt: skip
    for tool, pkg in tools:
        out[tool] = shutil.which(tool) or f"MISSING (apt-get install {pkg})"
    try:
        out["busybox-static"] = str(initramfs.find_busybox())
    except LabError:
        out["busybox-static"] = "MISSING (apt-get install busybox-static)"
    return out


def cmd_info(args: argparse.Namespace) -> int:
    info: dict[str, object] = {
        "lab_dir": str(lab_dir()),
        "host_tools": _host_tools(),
        "module_sources": [str(m.src) for m in modules.discover()],
        "kernels": [kernel.cache_state(fl) for fl in apt.FLAVOURS],
    }
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"lab dir: {info['lab_dir']}")
    for tool, where in _host_tools().items():
        print(f"  {tool:20} {where}")
    srcs = info["module_sources"]
    print(f"modules from {kernel_src_dir()}: {', '.join(Path(s).name for s in srcs) or 'none'}")  # type: ignore[attr-defined]
    for st in info["kernels"]:  # type: ignore[attr-defined]
        print(f"{st['target']} (board {st['machine']}, {st['metapackage']}):")
        if "error" in st:
            print(f"  ERROR: {st['error']}")
            continue
        unpacked = "yes" if st["unpacked"] else "no"
        print(f"  release   {st['release']}   unpacked: {unpacked} ({st['root']})")
        for pkg, ver in st["packages"].items():
            cached = "cached" if st["debs_cached"][pkg] else "not downloaded"
            print(f"  {pkg:40} {ver:14} {cached}")
    return 0


def cmd_lg_env(args: argparse.Namespace) -> int:
    from .strategy import write_env

    target = _one(args)
    out = Path(args.output or lab_dir() / "lg-env" / f"{target}.yaml")
    write_env(target, out, quiet=args.quiet)
    print(out)
    return 0


def lg_env_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                  kern: argparse.ArgumentParser) -> None:  # fmt: skip
    e = sub.add_parser(
        "lg-env", parents=[kern], help="a QEMU board as a labgrid environment",
        description="Prepare the board's image (kernel, modules, initramfs with udrv) and "
        "write a labgrid environment for it: a QEMUDriver (the board's machine, devices, "
        "-icount, its console as labgrid's serial), a ShellDriver (the guest's shell mode, "
        "prompt 'udrv-lab# ') and the board's features. Then: build/lg-venv/bin/python -m "
        "pytest --lg-env FILE tests/lab (docs/rig/lab.md).",
    )  # fmt: skip
    e.add_argument("-o", "--output", metavar="FILE",
                   help="default build/lab/lg-env/<board>.yaml")  # fmt: skip
    e.add_argument("-q", "--quiet", action="store_true", help="no build output")
    e.set_defaults(func=cmd_lg_env)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m rig.lab", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    machines = list(catalogue.BOARDS)
    kern = argparse.ArgumentParser(add_help=False)
    kern.add_argument("--board", choices=machines, default=None,
                      help="x86 (default: one CPU), x86-smp (two CPUs, CPU 1 isolated), "
                      "rpi3 (Raspberry Pi 3, raspi3b) or q35 (x86 with an Intel IOMMU "
                      "for VFIO; --kernel std gives target std-q35)")  # fmt: skip
    kern.add_argument(
        "--kernel", choices=[*catalogue.KERNELS, *(n for n in catalogue.TARGETS
                                                if n not in catalogue.KERNELS)],
        default="std", help="kernel, std or rt (default std), or a target's name (std-q35, rt-q35, "
        "std-smp, rt-smp, rpi3)",
    )  # fmt: skip
    boot = argparse.ArgumentParser(add_help=False)
    boot.add_argument("--memory", default=None,
                      help="guest RAM (default: x86 512M; rpi3 has exactly 1G)")  # fmt: skip
    boot.add_argument("--append", default="", help="extra kernel command line")
    allk = argparse.ArgumentParser(add_help=False)
    allk.add_argument("--board", choices=[*machines, "all"], default="all", help="default all")
    allk.add_argument("--kernel", choices=[*catalogue.KERNELS, "all"], default="all",
                      help="default all (rpi3 has only std)")  # fmt: skip

    f = sub.add_parser("fetch", parents=[allk], help="resolve, download and unpack kernels")
    f.set_defaults(func=cmd_fetch)
    b = sub.add_parser("build", parents=[allk], help="fetch + build modules + initramfs")
    b.set_defaults(func=cmd_build)
    r = sub.add_parser(
        "run", parents=[kern, boot], help="boot, run one shell command, power off",
        description="Boot, run CMD (joined with spaces, run by busybox sh in /root), print its "
        "stdout/stderr, optionally copy the files it left in the guest's /out/, power off, "
        "and exit with its status.",
    )  # fmt: skip
    r.add_argument(
        "--timeout", type=float, default=600.0, help="command timeout, wall seconds (600)"
    )
    r.add_argument("--out", metavar="DIR", help="copy the guest's /out/ here afterwards")
    r.add_argument("--put", action="append", default=[], metavar="GUEST=HOST",
                   help="add a host file to the initramfs (repeatable)")  # fmt: skip
    r.add_argument("--python", action="store_true",
                   help="the Python image variant (x86 boards): python3.11, udrv, gpiod 2.5.0, "
                   "gpiozero 2.0.1 (rig/lab/image/pyguest.py)")  # fmt: skip
    r.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    r.add_argument("command", nargs=argparse.REMAINDER, help="-- CMD...")
    r.set_defaults(func=cmd_run)
    s = sub.add_parser("shell", parents=[kern, boot], help="interactive serial console")
    s.add_argument("--python", action="store_true",
                   help="the Python image variant (x86 boards), as for run")
    s.set_defaults(func=cmd_shell)
    d = sub.add_parser("demo", parents=[allk], help="boot each kernel and show udrv at work")
    d.add_argument("--timeout", type=float, default=300.0, help="per kernel, seconds (300)")
    d.set_defaults(func=cmd_demo)
    st = sub.add_parser(
        "suite", parents=[allk], help="the latency suite: every bench, idle and under load",
        description="Boot each kernel, run every 'udrv-bench' idle and under the 'all' load, "
        "on PREEMPT_RT also the wake-up benches with the irq threads above the "
        "application and at SCHED_OTHER, and the scheduler-gaps bench with RT "
        "throttling on and off, print the toggle-rate, latency, priority and gaps "
        "tables, and write the udrv-lab/1 document (docs/rig/results.md). This is what "
        "'make lab' runs. --board all is every instruction-counted board (x86, rpi3), "
        "and beside each x86 kernel the q35 board for udrv-bench pci (UIO vs VFIO); "
        "the SMP boards (--board x86-smp) follow the host's clock, so their numbers "
        "do not repeat.",
    )  # fmt: skip
    st.add_argument("--quick", action="store_true", help="few samples per row (CI)")
    st.add_argument("--duration", type=_duration, default=0, metavar="D",
                    help="each latency bench (irq, uio, timer) runs about D per kernel "
                    "and load instead of its sample count: 90s, 30m, 1h (gpioirqbench ran "
                    "1.5 h under load). The whole suite then takes about 12 x D of "
                    "guest time; under load a busy vCPU's guest time runs up to 30x "
                    "slower than the wall clock (measured: 20 s took 555 s)")  # fmt: skip
    st.add_argument("--out", default=None, metavar="FILE",
                    help="results file (default build/lab/results.json)")  # fmt: skip
    st.add_argument("--jobs", type=_jobs, default=0, metavar="N",
                    help="boards measured at once (default: one per host core). Each "
                    "board's timings follow its own instruction count, so running "
                    "boards side by side changes the wall time, not the numbers")  # fmt: skip
    add_lg_suite_arguments(st)
    st.set_defaults(func=cmd_suite)
    i = sub.add_parser("info", help="resolved versions, host tools and cache state")
    i.add_argument("--json", action="store_true", help="machine-readable output")
    i.set_defaults(func=cmd_info)
    lg_env_parser(sub, kern)
    add_farm_parser(sub)
    add_lg_reserve_parser(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["lava"]:  # argparse's "invalid choice" would not say where it went
        moved = shlex.join(["python3", "-m", "rig.lava", *argv[1:]])
        parser().error(f"the LAVA commands moved: {moved}")
    args = parser().parse_args(argv)
    if getattr(args, "command", None) and args.command[0] == "--":
        args.command = args.command[1:]
    return exit_status(lambda: args.func(args), "lab", EXIT_LAB_ERROR)


if __name__ == "__main__":
    sys.exit(main())
