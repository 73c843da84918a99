# SPDX-License-Identifier: GPL-2.0-only
"""python3 -m rig.lava: udrv's benches as LAVA jobs (docs/rig/lava.md).

    python3 -m rig.lava job --device-type qemu --kernel std -o job.yaml
    python3 -m rig.lava device --kernel std -o device.yaml
    python3 -m rig.lava bundle --arch arm64
    python3 -m rig.lava run --kernel std --samples 300 --out DIR
    python3 -m rig.lava results DIR -o farm.json

The work is done by job.py (jobs, device configs, the bundle, lava-run) and
results.py (LAVA's results as udrv-lab/1); this is their command line.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from rig.lab.errors import exit_status
from rig.lab.suite import plan

from . import job, results

EXIT_FAILED = 1  # the command could not do its work (the message says why)
EXIT_USAGE = 2  # a bad command line or input, as argparse's own errors

DESCRIPTION = textwrap.fill(
    "Render LAVA jobs that run udrv's benches (the test definition "
    "rig/lava/udrv-bench.yaml records every figure as a LAVA test case) for the qemu, "
    "beaglebone-black, bcm2837-rpi-3-b and bcm2712-rpi-5-b device types, run one here "
    "with lava-run "
    "(no server) on the lab's std, rt or rpi3 board under LAVA's qemu device type, "
    "and turn LAVA's results back into a udrv-lab/1 document for udrv-report.", 79,
    break_on_hyphens=False) + """

Exit status: 0 done; `run` exits with lava-run's status; 1 the command could
not do its work (a missing tool or build: the message on stderr says which);
2 a bad command line or input."""

EPILOG = """\
examples:
  python3 -m rig.lava run --kernel std --samples 300 --out build/lava/std \
--results build/lava/farm.json
  rig/report/udrv-report build/lab/results.json build/lava/farm.json
  python3 -m rig.lava job --device-type beaglebone-black --kernel-url URL \
--dtb-url URL --ramdisk-url URL --bundle-url URL -o bbb.yaml
  python3 -m rig.lava results rpi3.log --board rpi3-01 -o farm.json
Docs: docs/rig/lava.md"""


def _spec(args: argparse.Namespace) -> job.JobSpec:
    urls = {k: v for k in ("kernel", "dtb", "ramdisk", "bundle")
            if (v := getattr(args, f"{k}_url", None))}
    return job.JobSpec(device_type=getattr(args, "device_type", "qemu"), kernel=args.kernel,
                       benches=" ".join(args.bench), mode="full" if args.full else "quick",
                       samples=args.samples, load=args.load, features=tuple(args.feature),
                       wire=args.wire, reply_wire=args.reply_wire, bench_args=args.args,
                       minutes=args.minutes, board=args.board_name, testdef=args.testdef,
                       urls=urls)


def _write(text: str, out: str | None) -> None:
    if out in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(out).write_text(text)
        print(f"lava: wrote {out}", file=sys.stderr)


def cmd_job(args: argparse.Namespace) -> int:
    _write(job.render_job(_spec(args)), args.out)
    return 0


def cmd_device(args: argparse.Namespace) -> int:
    _write(job.render_device(job.device_dict(args.device_type, args.kernel)), args.out)
    return 0


def cmd_bundle(args: argparse.Namespace) -> int:
    print(job.bundle(args.arch))
    return 0


def _lava_run(text: str, device: str, out: Path, retries: int, timeout: float) -> int:
    """lava-run's status for the job, run again up to `retries` times when it failed
    for LAVA's own reason; each failed attempt's log is kept as lava-attemptK.log."""
    def attempt(k: int) -> int:
        # lava-run keeps its files in /var/lib/lava/dispatcher/tmp/JOB-ID: one per run
        return job.lava_run(text, device, out, job_id=f"udrv-{os.getpid()}-{k}",
                            timeout=timeout)  # fmt: skip

    for k in range(1, retries + 1):
        status = attempt(k)
        why = job.lava_error(out / "lava.log") if status != 0 else None
        if why is None:
            return status
        # what a LAVA lab does with an infrastructure failure: run the job again
        kept = out / f"lava-attempt{k}.log"
        (out / "lava.log").rename(kept)
        print(f"lava: the job failed for LAVA's own reason ({why}); running it again "
              f"(attempt {k + 1} of {retries + 1}; log of this one: {kept})",
              file=sys.stderr)  # fmt: skip
    return attempt(retries + 1)


def cmd_run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    text = job.render_job(_spec(args))  # a usage error before anything runs
    device = job.render_device(job.qemu_device_dict(args.kernel))
    status = _lava_run(text, device, out, args.retries, args.timeout)
    # LAVA's log does not name the device: `results DIR` reads it here
    (out / job.DEVICE_NAME_FILE).write_text((args.board_name or f"qemu-{args.kernel}") + "\n")
    print(f"lava: lava-run exit {status}; log {out / 'lava.log'}", file=sys.stderr)
    if status == 0 and args.results:
        results.write_doc(results.convert_path(str(out)), args.results)
    return status


def _count(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a decimal integer in [lo, hi], nothing else."""
    def parse(text: str) -> int:
        if not re.fullmatch(r"[0-9]{1,5}", text) or not lo <= int(text) <= hi:
            raise argparse.ArgumentTypeError(f"{text!r}: want a whole number {lo}..{hi}")
        return int(text)

    return parse


def _what_options() -> argparse.ArgumentParser:
    """The options of `job` and `run`: what the job runs, on which board."""
    what = argparse.ArgumentParser(add_help=False)
    what.add_argument("--kernel", default="std",
                      help="qemu: the lab's board, std or rt (x86) or rpi3 (raspi3b) "
                      "(default std); other device types: a label for the job (std, rt)")
    what.add_argument("--bench", action="append", default=[], metavar="NAME",
                      choices=list(plan.BENCHES),
                      help=f"a bench to run (repeatable; default qemu: {job.DEFAULT_BENCHES}, "
                      f"the boards: {job.BOARD_BENCHES}); its arguments are the suite's "
                      "(rig/lab/suite/plan.py) for the board's features")
    what.add_argument("--full", action="store_true",
                      help="the full run's sample counts (default: --quick's, make lab-quick)")
    what.add_argument("--samples", type=_count(1, 99999), default=None,
                      help="this many samples per row instead (the benches that take a count)")
    what.add_argument("--load", default="none", choices=list(plan.LOADS),
                      help="load while measuring (default none)")
    what.add_argument("--feature", action="append", default=[], metavar="NAME",
                      help="a feature the board has (repeatable; rig/lab/boards/api.py "
                      "FEATURES; qemu: the lab board's)")
    _wire_options(what)
    what.add_argument("--minutes", type=_count(1, 1440), default=30,
                      help="job timeout (default 30)")
    what.add_argument("--board-name", default="", help="udrv.board in the job's metadata "
                      "(default: the device type)")
    what.add_argument("--testdef", default="inline", metavar="inline|GIT-URL",
                      help="the test definition inline in the job (default), or from "
                      "this git repository (path rig/lava/udrv-bench.yaml)")
    for k, what_url in (("kernel", "kernel image"), ("dtb", "device tree"),
                        ("ramdisk", "ramdisk (gzip'd cpio)"),
                        ("bundle", "udrv bundle (python3 -m rig.lava bundle)")):
        what.add_argument(f"--{k}-url", default=None, help=f"the {what_url}'s URL "
                          "(qemu: the lab's own by default)")
    return what


def _wire_options(what: argparse.ArgumentParser) -> None:
    what.add_argument("--wire", default="", metavar="'CHIP OUT IN'",
                      help="the board's loopback jumper: output line OUT of CHIP wired to "
                      "input IN (the GPIO benches' lines; a labgrid target's udrv-wire)")
    what.add_argument("--reply-wire", default="", metavar="'CHIP A B C D'",
                      help="reply's two jumpers: line A of CHIP wired to B, C to D (the log "
                      "host drives A, the responder answers B's edges on C, the log host "
                      "watches D; a labgrid target's udrv-reply-wire)")
    what.add_argument("--args", action="append", default=[], metavar="BENCH:OPTIONS",
                      help="more options for one bench (repeatable), e.g. "
                      "'rate:--rates 2k,20k'")


def _add_job_device_bundle(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                           what: argparse.ArgumentParser) -> None:
    j = sub.add_parser("job", parents=[what], help="render a job for a device type")
    j.add_argument("--device-type", default="qemu", choices=job.DEVICE_TYPES,
                   help="default qemu")
    j.add_argument("-o", "--out", default=None, help="the job file (default stdout)")
    j.set_defaults(func=cmd_job)
    d = sub.add_parser("device", help="render a device configuration (lava-run --device)",
                       description="A lab board as a LAVA qemu device, or an example "
                       "beaglebone-black / bcm2837-rpi-3-b / bcm2712-rpi-5-b device to start "
                       "from (console on telnet localhost 7001, no power control)")
    d.add_argument("--device-type", default="qemu", choices=job.DEVICE_TYPES,
                   help="default qemu")
    d.add_argument("--kernel", default="std", help="qemu: the lab's board, std, rt (x86) or "
                   "rpi3 (default std)")
    d.add_argument("-o", "--out", default=None, help="the file (default stdout)")
    d.set_defaults(func=cmd_device)
    b = sub.add_parser("bundle",
                       help="the tar of udrv, udrv-bench and udrv-lava-bench for a board")
    b.add_argument("--arch", default="amd64", choices=list(job.BUILD_OF_ARCH))
    b.set_defaults(func=cmd_bundle)


def _add_run_results(sub: argparse._SubParsersAction[argparse.ArgumentParser],
                     what: argparse.ArgumentParser) -> None:
    r = sub.add_parser("run", parents=[what], help="lava-run a qemu job here (no server)")
    r.add_argument("--out", required=True, metavar="DIR",
                   help="job.yaml, device.yaml, lava.log (the job's log) go here")
    r.add_argument("--results", default=None, metavar="FILE",
                   help="also convert the results into this udrv-lab/1 file")
    r.add_argument("--timeout", type=float, default=1800.0, help="wall seconds (1800)")
    r.add_argument("--retries", type=_count(0, 5), default=1, metavar="N",
                   help="run the job again up to N times when it fails for LAVA's own reason "
                   "(did not boot or log in in time, could not end cleanly; not a failed "
                   "bench), as a LAVA lab resubmits an infrastructure failure; each failed "
                   "attempt's log is kept as DIR/lava-attemptK.log (default 1)")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("results", help="LAVA results -> udrv-lab/1 (udrv-report's input)")
    results.add_arguments(c)
    c.set_defaults(func=results.main)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python3 -m rig.lava", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    what = _what_options()
    _add_job_device_bundle(sub, what)
    _add_run_results(sub, what)
    return p


def _command(args: argparse.Namespace) -> int:
    """The command's status; a usage error found past argparse (job.UsageError,
    which is a LabError) exits 2 as argparse's own do, not 1."""
    try:
        return int(args.func(args))
    except job.UsageError as exc:
        print(f"lava {args.cmd}: {exc}", file=sys.stderr)
        return EXIT_USAGE


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return exit_status(lambda: _command(args), "lava", EXIT_FAILED)


if __name__ == "__main__":
    sys.exit(main())
