# SPDX-License-Identifier: GPL-2.0-only
"""Everything a boot needs, made or reused: kernel (fetch), modules, initramfs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import catalogue
from ..errors import LabError
from ..paths import locked
from . import initramfs, modules
from .kernel import Kernel, fetch
from .modules import ModuleDir


@dataclass
class Prepared:
    kernel: Kernel
    modules: list[ModuleDir]
    initramfs: Path
    extra_files: dict[str, Path]


def prepare(
    target: str,
    *,
    extra_files: dict[str, str | Path] | None = None,
    variant: str = "",
    include_static: bool = True,
    quiet: bool = False,
) -> Prepared:
    """Fetch the kernel, build our modules (on the boards, or image variants,
    that load them: catalogue.loads_modules) and the initramfs (each step
    cached). With include_static, a board whose static udrv build is missing
    does not start: the error names the build and the command that makes it
    (rather than `udrv: not found` in every test)."""
    if include_static:
        why = catalogue.missing_udrv(catalogue.lookup(target).machine)
        if why is not None:
            raise LabError(f"the {target} board cannot start without udrv: {why}")
    kernel = fetch(target, quiet=quiet)
    machine = kernel.spec.machine
    extra: dict[str, Path] = initramfs.default_extra_files(machine) if include_static else {}
    for guest, host in (extra_files or {}).items():
        extra[guest] = Path(host)
    # one lock for both steps: another process must not rebuild a module while
    # this one packs it into an initramfs
    with locked(kernel.root / "prepare.lock"):
        load = catalogue.loads_modules(kernel.spec, variant)
        mods = modules.build_all(kernel, quiet=quiet) if load else []
        image = initramfs.build(kernel, mods, extra)
    return Prepared(kernel, mods, image, extra)
