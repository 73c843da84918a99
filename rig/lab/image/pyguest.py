# SPDX-License-Identifier: GPL-2.0-only
"""Python in the lab guest (x86 boards): an image variant with Debian 12's
python3.11 and a site-packages of udrv, gpiod 2.5.0, gpiozero 2.0.1 and
Debian's python3-smbus, python3-spidev, python3-smbus2 and python3-periphery.

    from rig.lab import Board
    from rig.lab.image.pyguest import guest_files
    with Board("std", extra_files=guest_files()) as b:
        b.run("python3 -c 'import udrv, gpiod, gpiozero'")

What the guest gets ({guest_path: host_path}, for initramfs' extra files):

- /usr/bin/python3.11 (the host's interpreter; Debian 12's) with the shared
  libraries and the ELF interpreter `ldd` lists, and /usr/bin/python3 (a
  two-line sh wrapper: extra files are regular files, no symlinks);
- /usr/lib/python3.11: the host's standard library minus what a guest never
  needs (PRUNE_DIRS, PRUNE_DYNLOAD), each module also compiled to an
  unchecked-hash .pyc (the image's files have mtime 0: timestamp .pycs would
  never match, and the guest would compile every module it imports, at every
  boot), with the libraries of its extension modules (lib-dynload);
- /usr/lib/python3/dist-packages (on Debian's sys.path): `pip install
  --target` of the wheels below, dist-info included (importlib.metadata and
  gpiozero's entry points find them there), .pyc compiled the same way;
- Debian 12's python3-smbus, python3-spidev (C extensions built for
  python3.11), python3-smbus2 and python3-periphery (pure Python): their
  .debs (DEBIAN_PEERS, apt-get download through rig/lab/image/apt.py, cached
  in build/lab/python/debs/) unpacked and their dist-packages copied into the
  guest's, with libi2c0's libi2c.so.0 (python3-smbus links it): the peers of
  udrv.I2C and udrv.SPI in udrv-pybench --buses;
- /usr/lib/udrv/gpiozero1 (GUEST_GPIOZERO1, not on sys.path): Debian 12's
  python3-gpiozero 1.6.2 with python3-colorzero and python3-pkg-resources,
  unpacked the same way, for udrv-pybench --buses --gpiozero (gpiozero's
  MCP3008 through udrv's factory under 1.6.2 too);
- /usr/libexec/udrv/udrv-pybench: rig/bench/python/udrv_pybench.py.

The wheels, cached under build/lab/python/wheels/ (offline after the first
build):

- gpiod 2.5.0, built by pip from the sdist that scripts/fetch-peers pins
  and caches in build/deps/ (it vendors libgpiod 2.3's C sources, linked
  statically into the extension);
- gpiozero 2.0.1 and its dependency colorzero 2.0 from PyPI, pure Python,
  checked against the sha256 pinned here (pip --require-hashes);
- udrv, built by pip from bindings/python/ (keyed by the hash of bindings/python/, lib/,
  include/ and the meson files). Until bindings/python/ exists the image has no udrv
  and `udrv_missing()` says why (the tests that need it skip with that reason).

The staged tree (build/lab/python/stage-<key>/) is keyed by the hash of all
of those inputs; the initramfs is named by the hash of its contents, so a
board without Python keeps its own, smaller image.
"""

from __future__ import annotations

import compileall
import hashlib
import json
import os
import py_compile
import shutil
import subprocess
import sys
from pathlib import Path

from ..errors import LabError, ToolMissing
from ..paths import REPO_ROOT, lab_dir, locked
from . import apt
from .initramfs import shared_libraries

STAGE_FORMAT = "udrv-lab-python-1"
PYTHON_VERSION = "3.11"
INTERPRETER = Path(f"/usr/bin/python{PYTHON_VERSION}")
STDLIB = Path(f"/usr/lib/python{PYTHON_VERSION}")
GUEST_STDLIB = f"/usr/lib/python{PYTHON_VERSION}"
GUEST_SITE = "/usr/lib/python3/dist-packages"
GUEST_BENCH = "/usr/libexec/udrv/udrv-pybench"
BENCH_SCRIPT = REPO_ROOT / "rig" / "bench" / "python" / "udrv_pybench.py"
# the udrv package's sources: bindings/python/ of this checkout, or of another one
# (UDRV_LAB_PYTHON_SRC=/path/to/checkout/python: a branch not merged yet)
PY_SRC = Path(os.environ.get("UDRV_LAB_PYTHON_SRC") or REPO_ROOT / "bindings" / "python").resolve()

# Standard library directories a guest never needs (relative to STDLIB): the
# test suites, the IDE and GUI toolkits, pip's bootstrap, 2to3, pydoc's
# topics, the static library and its build config, and the host's own
# site-packages/dist-packages (the guest has its own).
PRUNE_DIRS = (
    "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3", "pydoc_data",
    "ctypes/test", "distutils/tests", "sqlite3/test", "unittest/test", "tkinter/test",
    f"config-{PYTHON_VERSION}-x86_64-linux-gnu", "site-packages", "dist-packages", "venv",
    "distutils",
)  # fmt: skip
PRUNE_FILES = ("turtle.py", "__phello__.foo.py")
# extension modules left out (prefix of their file name): test modules, GUI,
# curses, databases and audio nobody uses in a driver test, and TLS (_ssl,
# _hashlib: 5 MB of libssl + libcrypto; hashlib falls back on its built-in
# md5/sha1/sha2/sha3/blake2)
PRUNE_DYNLOAD = (
    "_test", "_ctypes_test", "_xxtestfuzz", "_xxsubinterpreters", "xxlimited", "_tkinter",
    "_sqlite3", "_dbm", "_gdbm", "nis", "ossaudiodev", "audioop", "_curses", "_ssl",
    "_hashlib",
)  # fmt: skip

GPIOD_SDIST = "gpiod-2.5.0.tar.gz"
GPIOD_WHEEL_PREFIX = "gpiod-2.5.0-"
# pure-Python wheels from PyPI: requirement, file name, sha256
PYPI_WHEELS = (
    ("gpiozero==2.0.1", "gpiozero-2.0.1-py3-none-any.whl",
     "8f621de357171d574c0b7ea0e358cb66e560818a47b0eeedf41ce1cdbd20c70b"),
    ("colorzero==2.0", "colorzero-2.0-py2.py3-none-any.whl",
     "0e60d743a6b8071498a56465f7719c96a5e92928f858bab1be2a0d606c9aa0f8"),
)  # fmt: skip
# Debian 12's Python peers of udrv.I2C and udrv.SPI (udrv-pybench --buses):
# their .debs (the system's apt, rig/lab/image/apt.py) unpacked, their
# dist-packages into the guest's (the C extensions are built for python3.11)
DEBIAN_PEERS = ("python3-smbus", "python3-spidev", "python3-smbus2", "python3-periphery")
# and the shared library python3-smbus links (i2c-tools' libi2c), into the
# guest's multiarch library directory
DEBIAN_PEER_LIBS = ("libi2c0",)
# Debian 12's gpiozero 1.6.2 with what it depends on, unpacked into a directory
# of its own (not on sys.path: the site has gpiozero 2.0.1), for
# udrv-pybench --buses --gpiozero GUEST_GPIOZERO1 (the MCP3008 reads under it)
DEBIAN_GPIOZERO1 = ("python3-gpiozero", "python3-colorzero", "python3-pkg-resources")
GUEST_GPIOZERO1 = "/usr/lib/udrv/gpiozero1"
GUEST_LIBDIR = f"/usr/lib/{apt.GNU_TYPES['amd64']}"
# what the udrv wheel is built from
UDRV_INPUTS = ("bindings/python", "lib", "include", "client", "meson.build",
               "meson_options.txt")  # fmt: skip


def python_dir() -> Path:
    return lab_dir() / "python"


def _log(msg: str, quiet: bool) -> None:
    if not quiet:
        print(f"lab: python: {msg}", file=sys.stderr)


def pip_command() -> list[str]:
    """Debian's pip for the guest's interpreter (python3-pip: make deps)."""
    cmd = [str(INTERPRETER), "-m", "pip"]
    if not INTERPRETER.is_file():
        raise ToolMissing(f"{INTERPRETER} is missing (the guest's Python is the host's): "
                          "apt-get install python3 (make deps)")  # fmt: skip
    if subprocess.run([*cmd, "--version"], capture_output=True).returncode != 0:
        raise ToolMissing(f"no pip for {INTERPRETER}: apt-get install python3-pip (make deps)")
    return cmd


def _run(cmd: list[str], what: str, env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise LabError(f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n{tail}")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def _tree_hash(root: Path, paths: list[Path]) -> str:
    """Hash of the files under `paths` (names and contents), build dirs excluded."""
    h = hashlib.sha256()
    for top in paths:
        files = sorted(top.rglob("*")) if top.is_dir() else [top]
        for p in files:
            rel = p.relative_to(root)
            if not p.is_file() or any(part in ("build", "__pycache__", ".eggs") or
                                      part.endswith(".egg-info") for part in rel.parts):
                continue
            h.update(f"{rel}\0".encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def wheel_machine(arch: str) -> str:
    """The machine of Debian architecture @arch in a wheel's platform tag (aarch64)."""
    return apt.GNU_TYPES[arch].split("-")[0]


def _cross_env(arch: str) -> dict[str, str]:
    """The environment that makes pip build an extension for @arch (a foreign
    one): sysconfig's data of @arch (its CC, EXT_SUFFIX and pyconfig.h) and
    its platform tag, as Debian builds python3-* extensions across."""
    gnu, machine = apt.GNU_TYPES[arch], wheel_machine(arch)
    data = f"_sysconfigdata__linux_{gnu}"
    cc, cc_package = f"{gnu}-gcc", f"gcc-{gnu}"
    pyconfig = Path(f"/usr/include/{gnu}/python{PYTHON_VERSION}/pyconfig.h")
    if not (STDLIB / f"{data}.py").is_file() or not pyconfig.is_file():
        raise ToolMissing(f"building Python extensions for {arch} needs Debian's "
                          f"libpython{PYTHON_VERSION}-dev:{arch}: dpkg --add-architecture {arch}; "
                          f"apt-get update; apt-get install libpython{PYTHON_VERSION}-dev:{arch}")
    if shutil.which(cc) is None:
        raise ToolMissing(f"{cc} is not installed: apt-get install {cc_package}")
    return {**os.environ, "_PYTHON_SYSCONFIGDATA_NAME": data,
            "_PYTHON_HOST_PLATFORM": f"linux-{machine}"}  # fmt: skip


def gpiod_wheel(wheels: Path, quiet: bool = False, arch: str = "") -> Path:
    """gpiod 2.5.0's wheel for @arch (default: the host's), built once from
    the pinned sdist in build/deps/ (cross-built for a foreign one)."""
    arch = arch or apt.host_arch()
    pattern = f"{GPIOD_WHEEL_PREFIX}cp311-cp311-linux_{wheel_machine(arch)}.whl"
    found = sorted(wheels.glob(pattern))
    if found:
        return found[0]
    env = _cross_env(arch) if arch != apt.host_arch() else None
    sdist = REPO_ROOT / "build" / "deps" / GPIOD_SDIST
    if not sdist.is_file():
        _log("fetching the gpiod 2.5.0 sdist (scripts/fetch-peers)", quiet)
        _run([str(INTERPRETER), str(REPO_ROOT / "scripts" / "fetch-peers")],
             "scripts/fetch-peers")  # fmt: skip
    _log(f"building gpiod's wheel for {arch} from {sdist}", quiet)
    _run([*pip_command(), "wheel", "--no-deps", "-q", "-w", str(wheels), str(sdist)],
         f"building the gpiod wheel for {arch} from {sdist} (needs python3-dev)", env)  # fmt: skip
    found = sorted(wheels.glob(pattern))
    if not found:
        raise LabError(f"pip built no gpiod wheel for {arch} into {wheels}")
    return found[0]


def pypi_wheels(wheels: Path, quiet: bool = False) -> list[Path]:
    """gpiozero and colorzero, downloaded once, checked against PYPI_WHEELS' sha256."""
    out = [wheels / name for _req, name, _sum in PYPI_WHEELS]
    if not all(p.is_file() for p in out):
        reqs = wheels / "requirements-pypi.txt"
        reqs.write_text("".join(f"{r} --hash=sha256:{s}\n" for r, _n, s in PYPI_WHEELS))
        _log("downloading gpiozero 2.0.1 and colorzero 2.0 from PyPI", quiet)
        _run([*pip_command(), "download", "--no-deps", "-q", "--require-hashes", "--only-binary",
              ":all:", "-d", str(wheels), "-r", str(reqs)], "pip download")  # fmt: skip
    for p, (_r, _n, want) in zip(out, PYPI_WHEELS, strict=True):
        got = sha256_file(p)
        if got != want:
            raise LabError(f"{p}: sha256 {got}, pinned {want}: delete it and build again")
    return out


PEER_DEBS = (*DEBIAN_PEERS, *DEBIAN_PEER_LIBS)


def peer_debs(quiet: bool = False, names: tuple[str, ...] = PEER_DEBS) -> list[Path]:
    """The .debs of @names (DEBIAN_PEERS' by default), downloaded once into
    build/lab/python/debs/ (the versions apt-cache has: a new Debian point
    release downloads again)."""
    arch = apt.host_arch()
    dest = python_dir() / "debs"
    dest.mkdir(parents=True, exist_ok=True)
    versions = apt.versions(names, arch)

    def found(name: str) -> list[Path]:
        v = versions[name].replace(":", "%3a")
        return sorted(dest.glob(f"{name}_{v}_*.deb"))

    missing = [f"{n}={versions[n]}" for n in names if not found(n)]
    if missing:
        _log(f"downloading {' '.join(missing)}", quiet)
        apt.download_specs(missing, arch, dest)
    out = []
    for n in names:
        hits = found(n)
        if not hits:
            raise LabError(f"apt-get download left out {n}={versions[n]} ({dest})")
        out.append(hits[0])
    return out


def unpack_dist_packages(debs: list[Path], root: Path, site: str = GUEST_SITE) -> None:
    """What @debs (dpkg-deb -x) have in usr/lib/python3/dist-packages and in
    the multiarch library directory, into @site and the same library
    directory under @root (symbolic links copied as files: the image holds
    regular files)."""
    dpkg_deb = shutil.which("dpkg-deb")
    if dpkg_deb is None:
        raise ToolMissing("dpkg-deb is not installed: apt-get install dpkg")
    for deb in debs:
        tmp = root.parent / f"deb.tmp{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        _run([dpkg_deb, "-x", str(deb), str(tmp)], f"dpkg-deb -x {deb}")
        parts = [d for d in (GUEST_SITE, GUEST_LIBDIR) if (tmp / d.strip("/")).is_dir()]
        if not parts:
            raise LabError(f"{deb} has neither {GUEST_SITE} nor {GUEST_LIBDIR}")
        for d in parts:
            to = site if d == GUEST_SITE else d
            shutil.copytree(tmp / d.strip("/"), root / to.strip("/"), symlinks=False,
                            dirs_exist_ok=True)  # fmt: skip
        shutil.rmtree(tmp)


def udrv_missing() -> str | None:
    """Why the image has no udrv wheel (bindings/python/ not there yet), or None."""
    if not (PY_SRC / "pyproject.toml").is_file():
        return (f"{PY_SRC}/pyproject.toml does not exist (the udrv Python package is not "
                "in this tree yet): the guest has python3, gpiod and gpiozero but no udrv")
    return None


def udrv_wheel(wheels: Path, quiet: bool = False) -> Path | None:
    """The udrv wheel built by pip from bindings/python/ (None: udrv_missing())."""
    if udrv_missing() is not None:
        return None
    root = PY_SRC.parent.parent
    key = _tree_hash(root, [root / p for p in UDRV_INPUTS])[:16]
    out = wheels / "udrv" / key
    found = sorted(out.glob("udrv-*.whl"))
    if found:
        return found[0]
    _log(f"building udrv's wheel from {PY_SRC}", quiet)
    tmp = out.with_name(f"{key}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    _run([*pip_command(), "wheel", "--no-deps", "-q", "-w", str(tmp), str(PY_SRC)],
         f"building the udrv wheel from {PY_SRC}")  # fmt: skip
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)
    found = sorted(out.glob("udrv-*.whl"))
    if not found:
        raise LabError(f"pip built no udrv wheel from {PY_SRC}")
    return found[0]


def _pruned(rel: Path) -> bool:
    parts = rel.as_posix()
    if any(parts == d or parts.startswith(d + "/") for d in PRUNE_DIRS):
        return True
    if "__pycache__" in rel.parts or rel.name in PRUNE_FILES:
        return True
    return rel.parts[0] == "lib-dynload" and rel.name.startswith(PRUNE_DYNLOAD)


def _copy_stdlib(dest: Path) -> None:
    for src in sorted(STDLIB.rglob("*")):
        rel = src.relative_to(STDLIB)
        if src.is_dir() or _pruned(rel):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)


def compile_tree(tree: Path) -> None:
    """Unchecked-hash .pycs next to every module (syntax errors in data files such
    as lib2to3's fixtures are ignored: compile_dir reports, we don't need them)."""
    mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
    compileall.compile_dir(str(tree), quiet=2, workers=1, legacy=False, invalidation_mode=mode)


def _libraries(stage: Path) -> dict[str, str]:
    """{guest_path: host_path} of the shared libraries of the interpreter and of
    every extension module in the stage (ldd), the ELF interpreter included."""
    libs: dict[str, str] = {}
    programs = [INTERPRETER, *sorted(stage.rglob("*.so"))]
    for prog in programs:
        for lib in shared_libraries(prog, stage / GUEST_LIBDIR.strip("/")):
            if stage.resolve() not in lib.resolve().parents:
                libs[str(lib)] = str(lib.resolve())
    return libs


def install_wheels(site: Path, wheels: list[Path], arch: str = "") -> None:
    """pip install --target `site` of `wheels` (no index, no dependencies, no
    .pyc: compile_tree() makes them) for the guest's `arch` (default: the
    host's); without bin/ (console scripts with host paths)."""
    arch = arch or apt.host_arch()
    platform = ([] if arch == apt.host_arch() else
                ["--platform", f"linux_{wheel_machine(arch)}", "--only-binary=:all:"])  # fmt: skip
    _run([*pip_command(), "install", "-q", "--no-deps", "--no-index", "--no-compile",
          "--disable-pip-version-check", *platform, "--target", str(site), *map(str, wheels)],
         "pip install --target")  # fmt: skip
    shutil.rmtree(site / "bin", ignore_errors=True)


def python_wrapper(path: Path, interpreter: Path | str) -> None:
    """/usr/bin/python3 as a two-line sh wrapper of `interpreter` (the image
    holds regular files, no symbolic links)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)  # a package's symbolic link: not written through
    path.write_text(f'#!/bin/sh\nexec {interpreter} "$@"\n')
    path.chmod(0o755)


def publish_stage(tmp: Path, out: Path) -> Path:
    """Move the finished stage `tmp` to `out`; the other stage-* beside it go."""
    shutil.rmtree(out, ignore_errors=True)
    tmp.replace(out)
    for old in out.parent.glob("stage-*"):
        if old != out:
            shutil.rmtree(old, ignore_errors=True)
    return out


def _stage_key(wheels: list[Path], debs: list[Path]) -> str:
    h = hashlib.sha256(STAGE_FORMAT.encode())
    h.update(f"{sys.version}\0{INTERPRETER.stat().st_size}\0{STDLIB.stat().st_mtime_ns}\0"
             f"{PRUNE_DIRS}{PRUNE_FILES}{PRUNE_DYNLOAD}".encode())  # fmt: skip
    for w in [*wheels, *debs]:
        h.update(f"{w.name}\0{sha256_file(w)}\0".encode())
    return h.hexdigest()[:16]


def stage(quiet: bool = False) -> Path:
    """The staged guest tree (usr/lib/python3.11, usr/lib/python3/dist-packages,
    usr/bin/python3, libs.json), made once per set of inputs."""
    if not INTERPRETER.is_file():
        raise ToolMissing(f"the guest's Python is Debian 12's python{PYTHON_VERSION}: "
                          "apt-get install python3 (make deps)")  # fmt: skip
    root = python_dir()
    wheels_dir = root / "wheels"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    with locked(root / "python.lock"):
        wheels = [gpiod_wheel(wheels_dir, quiet), *pypi_wheels(wheels_dir, quiet)]
        udrv = udrv_wheel(wheels_dir, quiet)
        if udrv is not None:
            wheels.append(udrv)
        debs = peer_debs(quiet)
        gpiozero1 = peer_debs(quiet, DEBIAN_GPIOZERO1)
        out = root / f"stage-{_stage_key(wheels, debs + gpiozero1)}"
        if (out / "libs.json").is_file():
            return out
        _log(f"staging python{PYTHON_VERSION} and {', '.join(w.name for w in wheels)}", quiet)
        tmp = root / f"stage.tmp{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        _copy_stdlib(tmp / GUEST_STDLIB.strip("/"))
        site = tmp / GUEST_SITE.strip("/")
        install_wheels(site, wheels)
        unpack_dist_packages(debs, tmp)
        unpack_dist_packages(gpiozero1, tmp, GUEST_GPIOZERO1)
        compile_tree(tmp / "usr")
        python_wrapper(tmp / "usr" / "bin" / "python3", INTERPRETER)
        (tmp / "libs.json").write_text(json.dumps(_libraries(tmp), indent=1, sort_keys=True))
        return publish_stage(tmp, out)


def guest_files(quiet: bool = False) -> dict[str, Path]:
    """{guest_path: host_path}: Python, its libraries, the stage and the bench
    (Board(extra_files=...))."""
    st = stage(quiet)
    files: dict[str, Path] = {str(INTERPRETER): INTERPRETER}
    files.update({g: Path(h) for g, h in json.loads((st / "libs.json").read_text()).items()})
    for p in sorted(st.joinpath("usr").rglob("*")):
        if p.is_file():
            files["/" + p.relative_to(st).as_posix()] = p
    if BENCH_SCRIPT.is_file():
        files[GUEST_BENCH] = BENCH_SCRIPT
    return files


def variant_files(quiet: bool = False) -> dict[str, Path]:
    """The "py" image variant's files: guest_files(), and D-Bus with udrvd and
    libgpiod's gpiocli and gpio-manager (dbusguest.py) when they are built
    (else what needs them says what to build)."""
    from . import dbusguest

    files = guest_files(quiet)
    if dbusguest.missing() is None:
        files.update(dbusguest.guest_files())
    return files


def main() -> int:
    """python3 -m rig.lab.image.pyguest: stage the tree and print what it holds."""
    files = guest_files()
    size = sum(p.stat().st_size for p in files.values())
    print(f"{len(files)} files, {size / 1e6:.1f} MB uncompressed; stage {stage(quiet=True)}")
    why = udrv_missing()
    if why:
        print(f"note: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
