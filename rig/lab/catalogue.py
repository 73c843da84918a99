# SPDX-License-Identifier: GPL-2.0-only
"""The lab's boards: which QEMU machine boots which Debian kernel.

A *target* is what `Board(name)` boots: a machine plus a kernel (std or rt).

    name   machine  kernel metapackage       QEMU
    std    x86      linux-image-amd64        qemu-system-x86_64 (pc, edu device)
    rt     x86      linux-image-rt-amd64     qemu-system-x86_64 (PREEMPT_RT)
    std-q35  q35    linux-image-amd64        qemu-system-x86_64 -M q35 + intel-iommu (VFIO)
    rt-q35   q35    linux-image-rt-amd64     the same, PREEMPT_RT
    rpi3   rpi3     linux-image-arm64        qemu-system-aarch64 -M raspi3b

Both machines put the console on their first serial port and the agent on
the second: ttyS0 + ttyS1 on x86; on raspi3b QEMU's first -serial is the
PL011 (ttyAMA0, the console; the device tree gives it to Bluetooth, so Linux
makes no /dev/ttyAMA0, and input typed there never reaches a shell) and the
second the mini-UART (ttyS1), which is also where `python3 -m rig.lab shell`
puts the interactive console on rpi3.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from .errors import LabError, ToolMissing
from .paths import REPO_ROOT


@dataclass(frozen=True)
class Machine:
    """A QEMU machine and what its guests need."""

    name: str  # "x86", "rpi3"
    arch: str  # Debian architecture of the kernel and guest programs
    qemu: str  # QEMU binary
    qemu_package: str  # Debian package that has it
    qemu_args: tuple[str, ...]  # machine, accelerator, devices
    console: str  # the kernel's console (first -serial)
    agent_tty: str  # the guest's end of the agent channel (second -serial)
    shell_console: str  # `python3 -m rig.lab shell`: the console, on -serial number shell_port
    shell_port: int
    append: str  # kernel command line besides console=
    memory: str  # default guest RAM
    fixed_memory: bool  # the machine accepts only `memory`
    static_build: str  # build/<this>/: the static udrv for the guest
    build_modules: bool  # build rig/kernel/* against the kernel's headers, load at every boot
    kernel_modules: tuple[str, ...]  # the kernel's own modules, loaded at boot in order
    dtb: str  # device tree, relative to usr/lib/linux-image-<release>/ ("": none)
    host_programs: bool  # ship the host's dynamically linked tools (cyclictest)
    busybox_package: str  # Debian package of the guest's busybox ("": the host's)
    kernel_config: bool  # ship /boot/config-<release> (udrv rt check reads the preemption model)
    # image variants that build and load rig/kernel/* on a machine whose plain
    # image does not (rpi3: "deb", the packaged Python set on gpio-wire)
    module_variants: tuple[str, ...] = ()
    # insmod parameters of some of kernel_modules: (its path, "name=value ...")
    kernel_module_params: tuple[tuple[str, str], ...] = ()

    def kernel_module_args(self, rel: str) -> str:
        """The insmod parameters of kernel module @rel (one of kernel_modules)."""
        return dict(self.kernel_module_params).get(rel, "")

    def static_dir(self) -> Path:
        return REPO_ROOT / "build" / self.static_build


# Debian's i2c-stub (amd64 kernels only): an SMBus-only adapter with one chip
# at 0x50 that does every SMBus transaction i2c-stub has, SMBus block
# included (functionality: STUB_FUNC_ALL, 0xf7f0000; its default leaves the
# block transactions out); with i2c-dev, /dev/i2c-N for it and for
# rig/kernel/i2c-fixture
I2C_DEV = "kernel/drivers/i2c/i2c-dev.ko"
I2C_STUB = "kernel/drivers/i2c/i2c-stub.ko"
I2C_STUB_ADDR = 0x50
I2C_STUB_PARAMS = f"chip_addr=0x{I2C_STUB_ADDR:02x} functionality=0xf7f0000"

X86 = Machine(
    name="x86",
    arch="amd64",
    qemu="qemu-system-x86_64",
    qemu_package="qemu-system-x86",
    qemu_args=("-accel", "tcg", "-nodefaults", "-device", "edu"),
    console="ttyS0,115200",
    agent_tty="/dev/ttyS1",
    shell_console="ttyS0,115200",
    shell_port=0,
    append="panic=-1 nokaslr",
    memory="512M",
    fixed_memory=False,
    static_build="static",
    build_modules=True,
    kernel_modules=("kernel/drivers/uio/uio.ko", "kernel/drivers/uio/uio_pci_generic.ko",
                    I2C_DEV, I2C_STUB),
    dtb="",
    host_programs=True,
    busybox_package="",
    kernel_config=False,
    kernel_module_params=((I2C_STUB, I2C_STUB_PARAMS),),
)

# raspi3b: 4 Cortex-A53, exactly 1 GiB. No PSCI, so `poweroff -f` only halts:
# the guest loads bcm2835_wdt, whose power-off handler resets the SoC, and
# -no-reboot turns that reset into a QEMU exit.  iomem=relaxed lets /dev/mem
# map the GPIO registers that pinctrl-bcm2835 has claimed (STRICT_DEVMEM).
RPI3 = Machine(
    name="rpi3",
    arch="arm64",
    qemu="qemu-system-aarch64",
    qemu_package="qemu-system-arm",
    qemu_args=("-M", "raspi3b", "-nodefaults"),
    console="ttyAMA0",
    agent_tty="/dev/ttyS1",
    shell_console="ttyS1,115200",  # serdev holds ttyAMA0's input: no typing there
    shell_port=1,
    append="panic=-1 nokaslr iomem=relaxed",
    memory="1G",
    fixed_memory=True,
    static_build="arm64",
    build_modules=False,
    kernel_modules=("kernel/drivers/watchdog/bcm2835_wdt.ko", "kernel/drivers/uio/uio.ko"),
    dtb="broadcom/bcm2837-rpi-3-b.dtb",
    host_programs=False,
    busybox_package="busybox-static",
    kernel_config=True,  # arm64's uname -v has no PREEMPT marker (it is VOLUNTARY)
    module_variants=("deb",),  # cross-built: aarch64-linux-gnu-gcc-12, the host's kbuild
)

# q35 with an emulated Intel IOMMU (VT-d), for VFIO: Debian's kernels have no
# VFIO_NOIOMMU, so vfio-pci needs a real IOMMU group, and vfio_iommu_type1
# refuses a group without interrupt remapping (intremap=on needs the split
# irqchip; caching-mode=on lets VFIO's map/unmap reach QEMU's IOMMU model).
# edu at 00:01.0 is alone in its IOMMU group; a conventional PCI bridge at
# 00:02.0 has two more edus behind it (01:01.0, 01:02.0), which share the
# bridge's group (a conventional bridge forwards their DMA under its own
# requester ID): the "group not viable" case. The guest's init binds every
# edu to uio_pci_generic, as on x86; `udrv pci bind` moves one to vfio-pci.
# A board of its own so that the pc board's numbers (the README's) stay.
VFIO_MODULES = (
    "kernel/virt/lib/irqbypass.ko",
    "kernel/drivers/vfio/vfio.ko",
    "kernel/drivers/vfio/vfio_iommu_type1.ko",
    "kernel/drivers/vfio/vfio_virqfd.ko",
    "kernel/drivers/vfio/pci/vfio-pci-core.ko",
    "kernel/drivers/vfio/pci/vfio-pci.ko",
)
Q35 = replace(
    X86,
    name="q35",
    qemu_args=("-accel", "tcg", "-nodefaults", "-M", "q35,kernel-irqchip=split",
               "-device", "intel-iommu,intremap=on,caching-mode=on",
               "-device", "edu,addr=01.0",
               "-device", "pci-bridge,id=br1,chassis_nr=1,bus=pcie.0,addr=02.0",
               "-device", "edu,bus=br1,addr=01.0", "-device", "edu,bus=br1,addr=02.0"),
    append=f"{X86.append} intel_iommu=on",
    kernel_modules=X86.kernel_modules + VFIO_MODULES,
)  # fmt: skip

MACHINES = {m.name: m for m in (X86, RPI3, Q35)}


# The SMP boards: what an RT deployment runs. Without -icount: QEMU 7.2's
# instruction counting runs the vCPUs round robin on one host thread, and an
# x86 guest's CPU 1 then spins in wait_for_master_cpu() (sampled with the
# monitor: cpu_init+0x2d, its pause loop) while CPU 0 gets too few turns to
# release it, so the kernel never got past "Booting SMP configuration" in
# minutes (also with tsc=reliable, nohz=off, idle=poll, other -cpu models).
# Multi-threaded TCG boots it, and guest time then follows the host's clock:
# timings are not instruction-counted on these boards (docs/rig/lab.md).
# CPU 1 is isolated from the
# scheduler's balancing and from unbound kernel work (isolcpus), has no tick
# while one task runs (nohz_full) and no RCU callbacks (rcu_nocbs); every
# interrupt starts on CPU 0 (irqaffinity). A bench pinned to CPU 1 (--cpu 1)
# moves its own interrupts there; the load stays on CPU 0.
SMP_APPEND = "isolcpus=nohz,domain,managed_irq,1 nohz_full=1 rcu_nocbs=1 irqaffinity=0"


@dataclass(frozen=True)
class Target:
    """What Board(name) boots: a machine and a kernel (std or rt)."""

    name: str  # "std", "rt", "rpi3", "std-smp", "rt-smp"
    machine: Machine
    kernel: str  # "std" or "rt"
    metapackage: str
    cpus: int | None = None  # -smp; None: the machine's own count (raspi3b: 4)
    append: str = ""  # kernel command line after the machine's
    icount: bool = True  # guest time follows the instruction count
    in_all: bool = True  # selected by --board all (q35: only by its name)

    @property
    def board(self) -> str:
        """What --board names: the machine, "-smp" for the isolated-CPU x86 boards."""
        return f"{self.machine.name}-smp" if self.machine.name == "x86" and self.cpus != 1 \
            else self.machine.name


TARGETS = {
    t.name: t
    for t in (
        Target("std", X86, "std", "linux-image-amd64", cpus=1),
        Target("rt", X86, "rt", "linux-image-rt-amd64", cpus=1),
        Target("std-smp", X86, "std", "linux-image-amd64", cpus=2, append=SMP_APPEND,
               icount=False),
        Target("rt-smp", X86, "rt", "linux-image-rt-amd64", cpus=2, append=SMP_APPEND,
               icount=False),
        Target("rpi3", RPI3, "std", "linux-image-arm64"),
        Target("std-q35", Q35, "std", "linux-image-amd64", cpus=1, in_all=False),
        Target("rt-q35", Q35, "rt", "linux-image-rt-amd64", cpus=1, in_all=False),
    )
}
KERNELS = ("std", "rt")
BOARDS = tuple(dict.fromkeys(t.board for t in TARGETS.values()))  # x86, x86-smp, rpi3, q35


def lookup(name: str) -> Target:
    t = TARGETS.get(name)
    if t is None:
        raise LabError(f"unknown board {name!r}: use one of {', '.join(TARGETS)}")
    return t


def features(name: str, variant: str = "") -> frozenset[str]:
    """The rig/lab/boards/api.py FEATURES a QEMU target has (variant "py": the
    Python image, rig/lab/image/pyguest.py, with D-Bus, dbusguest.py; "deb": udrv's packages and
    Debian's python3, rig/lab/image/debguest.py; "local": the source install,
    rig/lab/image/localguest.py)."""
    t = lookup(name)
    have = {"qemu"}
    if loads_modules(t, variant):  # rig/kernel/* is built and loaded
        have |= {"gpio-wire", "gpio-reply", "uio-ticker", "irqlat", "udrv-irq", "spi-fixture",
                 "pwm-fixture"}
        if I2C_DEV in t.machine.kernel_modules:  # its /dev/i2c-N
            have.add("i2c-fixture")
    if I2C_STUB in t.machine.kernel_modules and I2C_DEV in t.machine.kernel_modules:
        have.add("i2c-stub")
    if any(a.startswith("edu") for a in t.machine.qemu_args):  # x86 and q35
        have.add("edu")
    if t.machine.name == "q35":
        have.add("iommu")
    if t.machine.name == "rpi3":
        have.add("bcm2835")
    if t.kernel == "rt":
        have.add("rt")
    if (t.cpus or 1) > 1 and "isolcpus" in t.append:
        have.add("isolcpus")
    if variant in ("py", "deb"):
        have.add("python")
    if variant == "py":
        have.add("udrvd")
    if variant == "local":
        have.add("local-install")
    return frozenset(have)


def loads_modules(t: Target, variant: str = "") -> bool:
    """Whether target @t's image (of @variant) builds and loads rig/kernel/*."""
    return t.machine.build_modules or variant in t.machine.module_variants


def select(board: str, kernel: str) -> list[str]:
    """Target names for --board x86|rpi3|q35|all and --kernel std|rt|all.

    An explicit combination that does not exist (rpi3 with rt) is an error;
    with `all` on either side, the targets that exist. `all` boards are those
    with in_all (not q35: make lab and the demo stay as they were)."""
    found = [
        t.name
        for t in TARGETS.values()
        if (board == t.board or (board == "all" and t.in_all)) and kernel in ("all", t.kernel)
    ]
    if not found:
        kernels = sorted({t.kernel for t in TARGETS.values() if t.board == board})
        raise LabError(
            f"board {board} has no {kernel} kernel (it has: {', '.join(kernels) or 'none'})"
        )
    return found


def qemu_binary(machine: Machine) -> str:
    exe = shutil.which(machine.qemu)
    if exe is None:
        raise ToolMissing(
            f"{machine.qemu} is not installed (the {machine.name} board needs it): "
            f"apt-get install {machine.qemu_package}"
        )
    return exe


def memory_for(machine: Machine, memory: str | None) -> str:
    """The -m argument: the machine's default, or `memory` if the machine takes it."""
    if memory is None or memory == machine.memory:
        return machine.memory
    if machine.fixed_memory:
        raise LabError(f"the {machine.name} board has exactly {machine.memory} of RAM "
                       f"(QEMU refuses -m {memory}); leave --memory out")  # fmt: skip
    return memory


def qemu_command(
    machine: Machine,
    *,
    kernel: Path,
    initrd: Path,
    dtb: Path | None,
    memory: str,
    append: str,
    serials: list[str],
    console: str | None = None,
    cpus: int | None = None,
    icount: bool = True,
) -> list[str]:
    """The QEMU command line; console= (default: the machine's) comes first in
    the kernel command line."""
    cmd = [qemu_binary(machine), *machine.qemu_args, *(["-smp", str(cpus)] if cpus else []),
           *(["-icount", "shift=0,sleep=off"] if icount else []),
           "-m", memory, "-no-user-config", "-display", "none", "-no-reboot",
           "-kernel", str(kernel), "-initrd", str(initrd)]  # fmt: skip
    if dtb is not None:
        cmd += ["-dtb", str(dtb)]
    console = console or machine.console
    cmd += ["-append", f"console={console} {machine.append} {append}".strip()]
    for s in serials:
        cmd += ["-serial", s]
    return cmd


def missing_udrv(machine: Machine) -> str | None:
    """Why the machine's guests would have no udrv (its static build is missing), or None."""
    cli = machine.static_dir() / "tools" / "udrv"
    if cli.is_file():
        return None
    return f"{cli} does not exist: run `make {machine.static_build}` first"
