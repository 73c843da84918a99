# SPDX-License-Identifier: GPL-2.0-only
"""udrv's benches in a LAVA lab (docs/rig/lava.md): jobs, device configs, lava-run;
their command line is rig/lava/__main__.py:

    python3 -m rig.lava job --device-type qemu --kernel std -o job.yaml
    python3 -m rig.lava device --kernel std -o device.yaml
    python3 -m rig.lava run --kernel std --samples 300 --out DIR
    python3 -m rig.lava results DIR -o farm.json        (rig/lava/results.py)

The test definition (rig/lava/udrv-bench.yaml) runs rig/lava/udrv-lava-bench on the
board; the job templates (rig/lava/templates/DEVICE-TYPE.yaml.jinja2) deliver it
and udrv in an overlay of the ramdisk ("the bundle", a tar). LAVA's own
device-type templates come from Debian's lava-server package, downloaded
(never installed: it pulls in PostgreSQL) and unpacked into build/lava/.
"""

from __future__ import annotations

import io
import json
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rig.lab import catalogue
from rig.lab.boards.api import FEATURES
from rig.lab.errors import LabError, ToolMissing, need_tool
from rig.lab.image import apt
from rig.lab.paths import REPO_ROOT, lab_dir, locked
from rig.lab.suite import plan

LAVA_DIR = Path(__file__).resolve().parent  # rig/lava/: this package and its files
TESTDEF = LAVA_DIR / "udrv-bench.yaml"
RECORDER = LAVA_DIR / "udrv-lava-bench"
JOB_TEMPLATES = LAVA_DIR / "templates"
# device-type templates lava-server lacks (Debian 12's 2023.01): ours, for a server
OUR_DEVICE_TYPES = LAVA_DIR / "device-types"
DEVICE_TYPES = ("qemu", "beaglebone-black", "bcm2837-rpi-3-b", "bcm2712-rpi-5-b")
# the udrv build each device type's board runs (make static / armhf / arm64)
BUNDLE_ARCH = {"qemu": "amd64", "beaglebone-black": "armhf", "bcm2837-rpi-3-b": "arm64",
               "bcm2712-rpi-5-b": "arm64"}
BUILD_OF_ARCH = {"amd64": "static", "armhf": "armhf", "arm64": "arm64"}
# the benches a job runs unless told (--bench), in this order; each with the
# arguments of the one plan (rig/lab/suite/plan.py) for the board's features. A real
# board has no gpio-wire, uio-ticker or irqlat (rig/kernel/): the timer bench
# needs nothing; describe its loopback jumper (--wire) for toggle/irq, its
# two reply jumpers (--reply-wire) for reply
DEFAULT_BENCHES = "timer irq uio toggle"
BOARD_BENCHES = "timer"
DEVICE_NAME_FILE = "device-name"  # in lava run's --out: the LAVA device's name
LAVA_SERVER = "lava-server"


class UsageError(LabError):
    """A bad command line: exit 2."""


@dataclass(frozen=True)
class QemuBoard:
    """One of the lab's boards as a LAVA qemu device (rig/lab/catalogue.py)."""

    arch: str  # LAVA's arch (the qemu binary)
    context: tuple[tuple[str, str], ...]  # qemu.jinja2's variables: machine, cpu, no_kvm
    memory: int  # MiB
    options: tuple[str, ...]  # extra_options
    append: str  # the kernel command line
    bundle_arch: str


# The lab's command line with the interactive shell instead of the agent (not
# quiet: LAVA waits for "Linux version"). x86: TCG, guest time = instruction
# count, QEMU's edu device for the uio bench. rpi3: raspi3b, its console on
# the mini-UART (the second serial port: input typed on the PL011 never
# reaches a shell, docs/rig/lab.md), the first one discarded
QEMU_BOARDS = {
    "x86": QemuBoard("amd64", (("no_kvm", "True"),), int(catalogue.X86.memory.rstrip("M")),
                     ("-accel tcg", "-icount shift=0,sleep=off", "-device edu", "-no-reboot"),
                     f"console=ttyS0,115200 {catalogue.X86.append} udrv-lab.mode=shell", "amd64"),
    "rpi3": QemuBoard("arm64", (("machine", "raspi3b"), ("cpu", "cortex-a53")), 1024,
                      ("-icount shift=0,sleep=off", "-no-reboot", "-serial null",
                       "-serial stdio"),
                      f"console=ttyS1,115200 {catalogue.RPI3.append} udrv-lab.mode=shell",
                      "arm64"),
}


def qemu_board(kernel: str) -> QemuBoard:
    """std, rt: the x86 board; rpi3: the Raspberry Pi 3 board."""
    if kernel == "rpi3":
        return QEMU_BOARDS["rpi3"]
    if kernel in catalogue.KERNELS:
        return QEMU_BOARDS["x86"]
    raise UsageError(f"--kernel {kernel}: the qemu template runs the lab's std, rt or rpi3 "
                     "board")


def work_dir() -> Path:
    """build/lava: the device-type templates, bundles, rendered files."""
    d = lab_dir().parent / "lava"
    d.mkdir(parents=True, exist_ok=True)
    return d


def _jinja() -> Any:
    try:
        import jinja2
    except ImportError:
        raise ToolMissing("python3-jinja2 is not installed (LAVA's templates are jinja2; "
                          "scripts/install-deps installs it)") from None
    return jinja2


def device_type_templates() -> Path:
    """build/lava/device-types: lava-server's device-type templates (qemu.jinja2,
    beaglebone-black.jinja2, base*.jinja2 ...), from its .deb: `apt-get download`
    (or apt's cache), unpacked with dpkg -x, kept."""
    out = work_dir() / "device-types"
    with locked(work_dir() / "device-types.lock"):
        if (out / "qemu.jinja2").is_file():
            return out
        debs = work_dir() / "debs"
        debs.mkdir(exist_ok=True)
        found = sorted(debs.glob(f"{LAVA_SERVER}_*.deb")) or sorted(
            Path("/var/cache/apt/archives").glob(f"{LAVA_SERVER}_*.deb"))
        if not found:
            proc = apt.run_apt("apt-get", apt.host_arch(), "download", LAVA_SERVER, cwd=debs,
                               timeout=600)
            found = sorted(debs.glob(f"{LAVA_SERVER}_*.deb"))
            if proc.returncode != 0 or not found:
                raise LabError(f"apt-get download {LAVA_SERVER} failed (exit "
                               f"{proc.returncode}): {proc.stderr.strip()[-300:]}; LAVA's "
                               "device-type templates come from it (run apt-get update?)")
        with tempfile.TemporaryDirectory(dir=work_dir()) as tmp:
            dpkg = need_tool("dpkg-deb", "dpkg")
            proc = subprocess.run([dpkg, "-x", str(found[-1]), tmp], capture_output=True,
                                  text=True, check=False, timeout=300)
            src = Path(tmp) / "usr/share/lava-server/device-types"
            if proc.returncode != 0 or not (src / "qemu.jinja2").is_file():
                raise LabError(f"{found[-1]} has no usr/share/lava-server/device-types/"
                               f"qemu.jinja2 (dpkg-deb -x: {proc.stderr.strip()[-200:]})")
            staged = Path(tmp) / "staged"
            shutil.copytree(src, staged)
            shutil.rmtree(out, ignore_errors=True)
            staged.rename(out)
    return out


def render_device(device_dict: str) -> str:
    """A device dictionary (jinja2 text that extends a device-type template)
    rendered into the device configuration lava-run reads."""
    jinja2 = _jinja()
    loader = jinja2.ChoiceLoader([
        jinja2.DictLoader({"device.jinja2": device_dict}),
        jinja2.FileSystemLoader([str(device_type_templates()), str(OUR_DEVICE_TYPES)]),
    ])
    env = jinja2.Environment(loader=loader, trim_blocks=True, autoescape=False)
    return str(env.get_template("device.jinja2").render())


def qemu_device_dict(kernel: str = "std") -> str:
    """A lab board as a LAVA qemu device: its arch, machine, memory, options."""
    b = qemu_board(kernel)
    opts = ", ".join(f"'{o}'" for o in b.options)
    sets = "".join(f"{{% set {k} = {v if v == 'True' else repr(v)} %}}\n" for k, v in b.context)
    return ("{% extends 'qemu.jinja2' %}\n"
            f"{{% set arch = '{b.arch}' %}}\n{sets}"
            f"{{% set memory = {b.memory} %}}\n"
            f"{{% set extra_options = [{opts}] %}}\n")


# A device dictionary for the boards this machine has not got, to start from:
# a LAVA admin's for one BeagleBone Black / Raspberry Pi 3 / 5 has the real serial
# console (ser2net) and power commands (a PDU).
EXAMPLE_DEVICE = """{{% extends '{device_type}.jinja2' %}}
{{% set connection_command = 'telnet localhost 7001' %}}
{{% set hard_reset_command = '/bin/true' %}}
{{% set power_off_command = '/bin/true' %}}
{{% set power_on_command = '/bin/true' %}}
"""


def device_dict(device_type: str, kernel: str = "std") -> str:
    """The device dictionary lava-run gets: a lab board for qemu, an example
    (a console on telnet localhost 7001, no power control) for the others."""
    if device_type == "qemu":
        return qemu_device_dict(kernel)
    if device_type not in DEVICE_TYPES:
        raise LabError(f"--device-type {device_type}: use one of {', '.join(DEVICE_TYPES)}")
    return EXAMPLE_DEVICE.format(device_type=device_type)


def bundle(arch: str) -> Path:
    """build/lava/udrv-bundle-ARCH.tar: usr/bin/udrv and usr/bin/udrv-bench (the
    static build for ARCH) and usr/bin/udrv-lava-bench, the overlay the job
    templates put into the board's ramdisk."""
    build = BUILD_OF_ARCH.get(arch)
    if build is None:
        raise LabError(f"no udrv build for {arch!r}: use one of {', '.join(BUILD_OF_ARCH)}")
    udrv = REPO_ROOT / "build" / build / "tools" / "udrv"
    bench = REPO_ROOT / "build" / build / "rig" / "bench" / "udrv-bench"
    for program in (udrv, bench):
        if not program.is_file():
            raise LabError(f"{program} does not exist: run `make {build}` first")
    out = work_dir() / f"udrv-bundle-{arch}.tar"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for src, dst in ((udrv, "usr/bin/udrv"), (bench, "usr/bin/udrv-bench"),
                         (RECORDER, "usr/bin/udrv-lava-bench")):
            info = tar.gettarinfo(str(src), arcname=dst)
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mode = 0o755
            with src.open("rb") as fh:
                tar.addfile(info, fh)
    out.write_bytes(buf.getvalue())
    return out


@dataclass
class JobSpec:
    """What a job runs and where its files are."""

    device_type: str = "qemu"
    kernel: str = "std"  # the lab's kernel (qemu); a label on the other device types
    benches: str = ""  # "": DEFAULT_BENCHES on qemu, BOARD_BENCHES on the others
    mode: str = "quick"  # the plan's sample counts: quick or full
    samples: int | None = None  # another count for every bench that takes one
    load: str = "none"
    features: tuple[str, ...] = ()  # the board's FEATURES (qemu: the lab board's)
    wire: str = ""  # the board's loopback jumper, "CHIP OUT IN" (udrv-wire)
    reply_wire: str = ""  # reply's two jumpers, "CHIP A B C D" (udrv-reply-wire)
    bench_args: list[str] = field(default_factory=list)  # "BENCH:OPTIONS", appended
    minutes: int = 30
    board: str = ""  # udrv.board in the job's metadata ("" : the device type)
    testdef: str = "inline"  # inline, or a git URL
    urls: dict[str, str] = field(default_factory=dict)  # kernel, dtb, ramdisk, bundle


def board_features(spec: JobSpec) -> frozenset[str]:
    """qemu: the lab board's features (rig/lab/catalogue.py); else --feature's."""
    if spec.device_type == "qemu":
        qemu_board(spec.kernel)
        return catalogue.features(spec.kernel) - {"qemu"} | set(spec.features)
    return frozenset(spec.features)


def _extra(spec: JobSpec, benches: list[str]) -> dict[str, tuple[str, ...]]:
    """--args 'BENCH:OPTIONS' -> bench -> its options (UsageError if malformed)."""
    out: dict[str, tuple[str, ...]] = {}
    for item in spec.bench_args:
        bench, sep, opts = item.partition(":")
        if not sep or bench not in benches or not opts.strip():
            raise UsageError(f"--args {item!r}: want 'BENCH:OPTIONS' for a bench of the job "
                             f"({', '.join(benches)})")
        out[bench] = out.get(bench, ()) + tuple(shlex.split(opts))
    return out


def bench_commands(spec: JobSpec) -> list[tuple[str, ...]]:
    """The argument lists (without the program) of the job's benches, in its
    order: the plan's for the board's features and wiring, the --args appended.
    A bench the board does not allow runs as asked, with no board options (a
    warning says why the plan would skip it)."""
    benches = spec.benches.split()
    unknown = [b for b in benches if b not in plan.BENCHES]
    if unknown:
        raise UsageError(f"--bench {unknown[0]}: use one of {', '.join(plan.BENCHES)}")
    try:
        wire = plan.parse_wire(spec.wire) if spec.wire else None
    except LabError as exc:
        raise UsageError(str(exc).replace("udrv-wire", "--wire", 1)) from None
    try:
        reply = plan.parse_reply_wire(spec.reply_wire) if spec.reply_wire else None
    except LabError as exc:
        raise UsageError(str(exc).replace("udrv-reply-wire", "--reply-wire", 1)) from None
    feats = board_features(spec)
    bad = sorted(feats - FEATURES.keys())
    if bad:
        raise UsageError(f"--feature {bad[0]}: use one of {', '.join(FEATURES)}")
    full = plan.for_board(feats, wire, reply)
    for b in benches:
        if b in full.skipped:
            print(f"lava: {b}: {full.skipped[b]} (run as asked)", file=sys.stderr)
    p = plan.select(full, benches, force=True)
    extra = _extra(spec, benches)
    return [p.args(b, spec.load, spec.mode, samples=spec.samples) + extra.get(b, ())
            for b in benches]


def _definition(spec: JobSpec) -> str:
    """The test action's definitions: rig/lava/udrv-bench.yaml inline (one JSON line,
    which is YAML) or from a git repository, with the job's bench commands."""
    params = {"COMMANDS": ";".join(" ".join(a) for a in bench_commands(spec))}
    entry: dict[str, Any] = {"name": "udrv-bench"}
    if spec.testdef == "inline":
        import yaml  # python3-yaml: a dependency of lava-dispatcher

        # LAVA's schema takes no "parameters" beside an inline definition:
        # the job's values become the definition's defaults
        testdef = yaml.safe_load(TESTDEF.read_text())
        testdef["params"] |= params
        entry |= {"from": "inline", "path": "inline/udrv-bench.yaml", "repository": testdef}
    else:
        entry |= {"from": "git", "repository": spec.testdef, "path": "rig/lava/udrv-bench.yaml",
                  "parameters": params}
    return f"    - {json.dumps(entry, sort_keys=True)}"


def _file_url(path: Path) -> str:
    return f"file://{path.resolve()}"


def _qemu_urls(spec: JobSpec) -> dict[str, str]:
    """The lab's kernel and initramfs for the target (built if missing)."""
    from rig.lab.image.prepare import prepare

    qemu_board(spec.kernel)
    prep = prepare(spec.kernel, quiet=True)
    urls = {"kernel": _file_url(prep.kernel.vmlinuz), "ramdisk": _file_url(prep.initramfs)}
    if prep.kernel.dtb is not None:
        urls["dtb"] = _file_url(prep.kernel.dtb)
    return urls


def render_job(spec: JobSpec) -> str:
    if spec.device_type not in DEVICE_TYPES:
        raise UsageError(f"--device-type {spec.device_type}: use one of "
                         f"{', '.join(DEVICE_TYPES)}")
    if not spec.benches:
        spec.benches = DEFAULT_BENCHES if spec.device_type == "qemu" else BOARD_BENCHES
    urls = dict(spec.urls)
    if spec.device_type == "qemu" and not {"kernel", "ramdisk"} <= urls.keys():
        urls = _qemu_urls(spec) | urls
    board = qemu_board(spec.kernel) if spec.device_type == "qemu" else QEMU_BOARDS["x86"]
    needs_dtb = spec.device_type != "qemu" or board.arch == "arm64"
    if not needs_dtb:
        urls.pop("dtb", None)  # x86 boots without a device tree
    need = ("kernel", "ramdisk") + (("dtb",) if needs_dtb else ())
    missing = [k for k in need if k not in urls]
    if missing:
        raise UsageError(f"the {spec.device_type} job needs " +
                         ", ".join(f"--{k}-url" for k in missing) +
                         " (your board's kernel, device tree and ramdisk: docs/rig/lava.md)")
    if "bundle" not in urls:
        urls["bundle"] = _file_url(bundle(board.bundle_arch if spec.device_type == "qemu"
                                          else BUNDLE_ARCH[spec.device_type]))
    jinja2 = _jinja()
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(JOB_TEMPLATES)),
                             trim_blocks=True, lstrip_blocks=True, autoescape=False,
                             undefined=jinja2.StrictUndefined)
    return str(env.get_template(f"{spec.device_type}.yaml.jinja2").render(
        benches=spec.benches, kernel_label="std" if spec.kernel == "rpi3" else spec.kernel,
        arch=board.arch, board=spec.board or spec.device_type, job_minutes=spec.minutes,
        memory=board.memory, qemu_options=board.options, qemu_context=board.context,
        append=board.append,
        kernel_url=urls["kernel"], ramdisk_url=urls["ramdisk"], dtb_url=urls.get("dtb", ""),
        bundle_url=urls["bundle"], definition=_definition(spec),
    )) + "\n"


def lava_run(job: str, device: str, out: Path, *, job_id: str, timeout: float) -> int:
    """lava-run JOB in OUT (job.yaml, device.yaml, lava.log: its log, one YAML
    mapping per line); lava-run's exit status."""
    exe = shutil.which("lava-run")
    if exe is None:
        raise ToolMissing("lava-run is not installed (Debian: apt-get install "
                          "--no-install-recommends lava-dispatcher)")
    out.mkdir(parents=True, exist_ok=True)
    (out / "job.yaml").write_text(job)
    (out / "device.yaml").write_text(device)
    with (out / "lava.log").open("w") as log:
        try:
            proc = subprocess.run(
                [exe, "--job-id", job_id, "--output-dir", str(out / "lava-run"),
                 "--device", str(out / "device.yaml"), str(out / "job.yaml")],
                stdout=log, stderr=subprocess.STDOUT, check=False, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise LabError(f"lava-run did not finish in {timeout:.0f} s (log: "
                           f"{out / 'lava.log'})") from None
    return proc.returncode


# LAVA's error types that are not the test's: the board did not boot or log
# in in time, the dispatcher could not end the job (its QEMU slow to die on a
# busy host); a failed bench is a test case, never one of these
LAVA_OWN_ERRORS = ("Infrastructure", "Job", "Bug", "LAVABug")


def lava_error(log: Path) -> str | None:
    """The job's error when lava-run failed for LAVA's own reason (the job
    result's error_type is one of LAVA_OWN_ERRORS): "TYPE: MESSAGE"; else None."""
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        msg = entry.get("msg") if isinstance(entry, dict) else None
        if entry.get("lvl") == "results" and isinstance(msg, dict) and msg.get("case") == "job":
            kind = str(msg.get("error_type", ""))
            return f"{kind}: {msg.get('error_msg', '')}" if kind in LAVA_OWN_ERRORS else None
    return None
