# SPDX-License-Identifier: GPL-2.0-only
"""make check's python step (scripts/check.py's docstring: python): the wheel,
its tests in fresh venvs (gpiozero 2 and 1.6.2), the ASan+UBSan extension,
mypy and stubtest, the sdist installed offline."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from .common import BUILD, ROOT, Tally, count_junit, pip_cached, pytest_cmd, run

# what the python step builds and type-checks with (PyPI, into build/venv)
PY_BUILD_DEPS = ["meson-python==0.22.1", "meson==1.12.1", "ninja==1.13.2", "mypy==2.4.1"]


# what tests/python needs in the test venv beside Debian's pytest: gpiozero 2
# for udrv.gpiozero's tests (PyPI's, Raspberry Pi OS's); and the gpiozero of
# Debian 12's python3-gpiozero, 1.6.2, for their second run (GPIOZERO_TESTS,
# in its own venv, build/py-test-gpiozero1)
PY_TEST_DEPS = ["gpiozero==2.0.1", "colorzero==2.0"]


PY_TEST_GPIOZERO_1 = ["gpiozero==1.6.2", "colorzero==2.0"]

# udrv.gpiozero's tests (test_gpiozero.py, its PWM and SPI parts...): the
# files run again with PY_TEST_GPIOZERO_1
GPIOZERO_TESTS = "tests/python/test_gpiozero*.py"


def py_build_deps() -> Path | None:
    """build/venv with PY_BUILD_DEPS (from the cache build/py-deps)."""
    venv = BUILD / "venv"
    pip = [str(venv / "bin" / "pip"), "-q", "--disable-pip-version-check"]
    if not (venv / "bin" / "pip").exists() and run([sys.executable, "-m", "venv", str(venv)]):
        return None
    return venv if pip_cached(pip, PY_BUILD_DEPS) else None


def python_bindings(tally: Tally, env: dict[str, str]) -> None:
    """The wheel of bindings/python/, a fresh venv with it (Debian's pytest from the
    system site packages), tests/python there, mypy --strict."""
    venv = py_build_deps()
    if venv is None:
        tally.add("python: cannot install meson-python/mypy into build/venv (PyPI, "
                  "python3-venv)", False)
        return
    wheels = BUILD / "py-wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    benv = {**env, "PATH": f"{venv / 'bin'}:{env.get('PATH', '')}"}
    ok = run([str(venv / "bin" / "pip"), "wheel", "-q", "--no-build-isolation", "--no-deps",
              f"--config-settings=build-dir={BUILD / 'py-build'}",
              "--config-settings=setup-args=-Dwerror=true", "-w", str(wheels),
              "./bindings/python"], env=benv) == 0
    tally.add("python:wheel", ok)
    if not ok:
        return
    [wheel] = wheels.glob("udrv-*.whl")
    test = test_venv("py-test", wheel, PY_TEST_DEPS)
    tally.add("python:install", test is not None)
    if test is not None:
        python_tests("python", test, "tests/python", PY_TEST_DEPS, tally, env)
        gz1 = test_venv("py-test-gpiozero1", wheel, PY_TEST_GPIOZERO_1)
        tally.add("python:install gpiozero 1", gz1 is not None)
        if gz1 is not None:
            gz_tests = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob(GPIOZERO_TESTS))
            python_tests("python-gpiozero1", gz1, gz_tests, PY_TEST_GPIOZERO_1, tally, env)
        python_asan(tally, env, venv)
    mypy = [str(venv / "bin" / "mypy"), "--strict", "--cache-dir", str(BUILD / "mypy-cache"),
            "bindings/python/udrv", "examples/python"]
    tally.add("python:mypy", run(mypy, env={**env, "MYPYPATH": str(ROOT / "bindings/python")})
              == 0)
    # the stubs against the extension itself (installed beside mypy for that)
    ok = run([str(venv / "bin" / "pip"), "install", "-q", "--no-index", "--no-deps",
              "--force-reinstall", str(wheel)]) == 0
    tally.add("python:stubtest", ok and run(
        [str(venv / "bin" / "python"), "-m", "mypy.stubtest", "--mypy-config-file",
         str(ROOT / "bindings" / "python" / "pyproject.toml"), "udrv._udrv"],
        env={k: v for k, v in env.items() if k != "MYPYPATH"}) == 0)
    python_sdist(tally, venv)


def test_venv(name: str, wheel: Path, deps: list[str]) -> Path | None:
    """A fresh venv build/@name (Debian's pytest from the system site
    packages) with the udrv @wheel and @deps (from the cache build/py-deps)."""
    test = BUILD / name
    ok = run([sys.executable, "-m", "venv", "--clear", "--system-site-packages", str(test)]) == 0
    tpip = [str(test / "bin" / "pip"), "-q", "--disable-pip-version-check"]
    ok = ok and run([*tpip, "install", "--no-index", "--no-deps", str(wheel)]) == 0
    return test if ok and pip_cached(tpip, deps) else None


def python_tests(name: str, venv: Path, path: str | list[str], deps: list[str], tally: Tally,
                 env: dict[str, str]) -> None:
    """pytest @path (one or a list) in @venv, on the installed package (not
    bindings/python/udrv of the source tree); the gpiozero of @deps named to
    the gpiozero tests ($UDRV_TEST_GPIOZERO)."""
    xml = BUILD / f"pytest-{name}.xml"
    xml.unlink(missing_ok=True)
    gpiozero = next(d.split("==")[1] for d in deps if d.startswith("gpiozero=="))
    status = run([str(venv / "bin" / "python"), *pytest_cmd(path, xml)[1:]],
                 env={**env, "UDRV_TEST_GPIOZERO": gpiozero})
    count_junit(name, xml, tally)
    if status not in (0, 1):  # interrupted or crashed: tests may be missing
        tally.add(f"{name}: pytest exited {status}", False)


def python_sdist(tally: Tally, venv: Path) -> None:
    """The sdist of bindings/python (meson-python's build_sdist: meson dist,
    libudrv's sources copied in by build-aux/dist.py) installed offline into a
    fresh venv: pip builds it in its own isolated build environment from the
    wheels of build/py-deps alone (--no-index), and the package imports."""
    dist = BUILD / "py-sdist"
    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir()
    make = f"import mesonpy; print(mesonpy.build_sdist({str(dist)!r}))"
    ok = run([str(venv / "bin" / "python"), "-c", make], cwd=ROOT / "bindings" / "python") == 0
    sdists = sorted(dist.glob("udrv-*.tar.gz"))
    fresh = BUILD / "py-sdist-venv"
    ok = ok and len(sdists) == 1 and run([sys.executable, "-m", "venv", "--clear",
                                          str(fresh)]) == 0  # fmt: skip
    ok = ok and run([str(fresh / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
                     "--no-index", "--find-links", str(BUILD / "py-deps"), str(sdists[0])]) == 0
    check = "import udrv; print('python:sdist: udrv', udrv.__version__, 'from', udrv.__file__)"
    tally.add("python:sdist", ok and run([str(fresh / "bin" / "python"), "-c", check],
                                         cwd=BUILD) == 0)  # fmt: skip


def python_asan(tally: Tally, env: dict[str, str], venv: Path) -> None:
    """tests/python again on the extension built with ASan and UBSan
    (build/py-asan; the sanitizers' runtimes preloaded into Python)."""
    bdir = BUILD / "py-asan"
    benv = {**env, "PATH": f"{venv / 'bin'}:{env.get('PATH', '')}"}
    if not (bdir / "build.ninja").exists() and run(
            ["meson", "setup", str(bdir), "bindings/python", "-Dwerror=true",
             "-Db_sanitize=address,undefined",
             "-Db_lundef=false", "-Dbuildtype=debug",
             "-Dc_args=-fno-sanitize-recover=all"], env=benv):
        tally.add("python:asan (meson setup)", False)
        return
    ok = run(["ninja", "-C", str(bdir)], env=benv) == 0
    tally.add("python:asan build", ok)
    if not ok:
        return
    pkg = BUILD / "py-asan-pkg" / "udrv"
    shutil.rmtree(pkg.parent, ignore_errors=True)
    shutil.copytree(ROOT / "bindings" / "python" / "udrv", pkg,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for so in bdir.glob("_udrv*.so"):
        shutil.copy2(so, pkg)
    libs = [subprocess.run(["gcc", f"-print-file-name={lib}"], capture_output=True, text=True,
                           check=False).stdout.strip() for lib in ("libasan.so", "libubsan.so")]
    xml = BUILD / "pytest-python-asan.xml"
    xml.unlink(missing_ok=True)
    cmd = pytest_cmd("tests/python", xml)
    status = run([str(BUILD / "py-test" / "bin" / "python"), *cmd[1:]], env={
        **env, "PYTHONPATH": str(pkg.parent), "LD_PRELOAD": " ".join(libs),
        "ASAN_OPTIONS": "detect_leaks=0", "UBSAN_OPTIONS": "halt_on_error=1"})
    count_junit("python-asan", xml, tally)
    if status not in (0, 1):
        tally.add(f"python-asan: pytest exited {status}", False)
