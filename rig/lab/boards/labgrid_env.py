# SPDX-License-Identifier: GPL-2.0-only
"""The lab's QEMU boards as labgrid targets: `python3 -m rig.lab lg-env`.

render() writes, for an image prepared by rig/lab/image/prepare.py (kernel, modules,
initramfs with udrv; rig/lab/strategy.py's write_env() prepares it first), a labgrid
environment with

  QEMUDriver   the board's machine, memory, devices (edu...), -icount, kernel,
               initrd (in extra_args: QEMUDriver has no initrd key), the dtb on
               rpi3, and boot_args with the console and udrv-lab.mode=shell
               (rig/lab/image/guest/init then gives a shell with the prompt PROMPT on
               the console instead of starting the agent on ttyS1)
  ShellDriver  that prompt; no login
  features     rig.lab.catalogue.features() of the board, without "qemu" (a labgrid
               board has no QEMU process or image the tests could reach)

QEMUDriver adds `-serial chardev:serialsocket` (its console) after
extra_args, `-S -qmp stdio`, and with display "fb-headless" `-display none`.
So its serial is the machine's first one (x86: ttyS0), except on raspi3b,
where the first (the PL011, ttyAMA0) cannot take input under Debian's device
tree: extra_args starts with `-serial null` there, QEMUDriver's socket
becomes the mini-UART, and the console is ttyS1 (as for `python3 -m rig.lab shell`).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from ..catalogue import features, lookup, memory_for

PROMPT = "udrv-lab# "
CPUS = {"x86": "qemu64", "q35": "qemu64", "rpi3": "cortex-a53"}


def _q(value: object) -> str:
    """A YAML scalar (a JSON string is valid YAML)."""
    return json.dumps(value)


def qemu_driver(target: str, kernel: Path, initrd: Path, dtb: Path | None) -> dict[str, str]:
    """QEMUDriver's keys for a lab target."""
    t = lookup(target)
    m = t.machine
    args = list(m.qemu_args)
    machine = "pc"
    if "-M" in args:
        i = args.index("-M")
        machine = args[i + 1]
        del args[i : i + 2]
    extra: list[str] = ["-serial", "null"] if m.shell_port == 1 else []
    extra += args
    if t.cpus:
        extra += ["-smp", str(t.cpus)]
    if t.icount:
        extra += ["-icount", "shift=0,sleep=off"]
    extra += ["-no-user-config", "-no-reboot", "-initrd", str(initrd)]
    boot = f"console={m.shell_console} {m.append} {t.append} quiet udrv-lab.mode=shell"
    drv = {
        "qemu_bin": "qemu",
        "machine": machine,
        "cpu": CPUS[m.name],
        "memory": memory_for(m, None),
        "kernel": "kernel",
        "extra_args": shlex.join(extra),
        "boot_args": " ".join(boot.split()),
        "display": "fb-headless",
    }
    if dtb is not None:
        drv["dtb"] = "dtb"
    return drv


def render(target: str, kernel: Path, initrd: Path, dtb: Path | None, qemu: str) -> str:
    """The environment's YAML text."""
    drv = qemu_driver(target, kernel, initrd, dtb)
    feats = sorted(features(target) - {"qemu"})
    lines = [
        f"# the lab's {target} board as a labgrid target (python3 -m rig.lab lg-env --kernel "
        f"{target}); rig/lab/boards/labgrid_env.py",
        "targets:",
        "  main:",
        "    drivers:",
        "      QEMUDriver:",
        *(f"        {k}: {_q(v)}" for k, v in drv.items()),
        "      ShellDriver:",
        f"        prompt: {_q(PROMPT)}",
        f"        login_prompt: {_q(' login: ')}",
        f"        username: {_q('root')}",
        "        login_timeout: 600",
        "    options:",
        f"      udrv-target: {_q(target)}",
        f"    features: [{', '.join(_q(f) for f in feats)}]",
        "tools:",
        f"  qemu: {_q(qemu)}",
        "images:",
        f"  kernel: {_q(str(kernel))}",
    ]
    if dtb is not None:
        lines.append(f"  dtb: {_q(str(dtb))}")
    return "\n".join(lines) + "\n"

