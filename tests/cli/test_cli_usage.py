# SPDX-License-Identifier: GPL-2.0-only
"""Help texts, --version, and the exit status of bad command lines."""

from __future__ import annotations

import re

import pytest

from tests.support.udrv_runner import Runner

GPIO_OPTS = ["--chip", "--backend", "--active-low", "--bias", "--drive", "--consumer", "--json",
             "--strict"]
UIO_ACCESS = ["--map", "--bar", "--width", "--json"]

HELP: list[tuple[str, list[str]]] = [
    ("", ["info", "gpio", "uio", "pci", "rt", "--version", "--json"]),
    ("info", ["--json", "--verbose"]),
    ("gpio", ["info", "get", "set", "mon", "toggle", "watch"]),
    ("gpio info", ["-c CHIP", "--json", "--strict", "LINE"]),
    ("gpio get", GPIO_OPTS),
    ("gpio set", [*GPIO_OPTS, "--hold"]),
    ("gpio mon", [*GPIO_OPTS, "--edge", "--debounce-us", "--event-clock", "--event-buffer",
                  "--num-events", "--timeout"]),
    ("gpio toggle", [*GPIO_OPTS, "--count", "--period", "--toggle"]),
    ("gpio watch", ["--chip", "--strict", "--event", "--num-events", "--timeout", "--json"]),
    ("uio", ["info", "wait", "peek", "poke"]),
    ("uio info", ["--json"]),
    ("uio wait", ["--num", "--timeout", "--enable", "--pci-unmask", "--json"]),
    ("uio peek", UIO_ACCESS),
    ("uio poke", UIO_ACCESS),
    ("pci", ["list", "info", "peek", "poke", "wait", "bind"]),
    ("pci list", ["--json"]),
    ("pci info", ["--json"]),
    ("pci peek", ["--bar", "--width", "--json"]),
    ("pci poke", ["--bar", "--width"]),
    ("pci wait", ["--irq", "--vectors", "--num", "--timeout", "--raise", "--ack", "--bar",
                  "--json"]),
    ("pci bind", ["vfio-pci", "uio_pci_generic"]),
    ("rt", ["check", "--json", "--verbose"]),
    ("rt check", ["--json", "--verbose", "--prio", "--wait-for"]),
]

def help_params() -> list[object]:
    return [pytest.param(cmd, opts, id=cmd or "udrv") for cmd, opts in HELP]


@pytest.mark.parametrize(("cmd", "options"), help_params())
def test_help_exits_0_and_lists_options(udrv: Runner, cmd: str, options: list[str]) -> None:
    r = udrv(*cmd.split(), "--help")
    assert r.returncode == 0, r
    assert r.stdout.startswith("Usage: udrv"), r
    for opt in options:
        assert opt in r.stdout, f"'udrv {cmd} --help' does not mention {opt}\n{r}"
    assert r.stderr == ""


@pytest.mark.parametrize("cmd", [c for c, _ in HELP])
def test_short_help(udrv: Runner, cmd: str) -> None:
    r = udrv(*cmd.split(), "-h")
    assert r.returncode == 0, r
    assert r.stdout.startswith("Usage: udrv"), r


def test_help_word_is_help(udrv: Runner) -> None:
    r = udrv("gpio", "help")
    assert r.returncode == 0, r
    assert "Commands:" in r.stdout


def test_version(udrv: Runner) -> None:
    r = udrv("--version")
    assert r.returncode == 0, r
    assert re.fullmatch(r"udrv \d+\.\d+\.\d+\n", r.stdout), r
    assert udrv("-V").stdout == r.stdout


def test_no_command_is_usage(udrv: Runner) -> None:
    r = udrv()
    assert r.returncode == 2, r
    assert "Usage: udrv" in r.stdout


@pytest.mark.parametrize(("args", "hint"), [
    (["bogus"], "udrv --help"),
    (["gpio", "bogus"], "udrv gpio --help"),
    (["uio", "bogus"], "udrv uio --help"),
    (["rt", "bogus"], "udrv rt --help"),
], ids=["udrv", "gpio", "uio", "rt"])
def test_unknown_command(udrv: Runner, args: list[str], hint: str) -> None:
    r = udrv(*args)
    assert r.returncode == 2, r
    assert f"Try '{hint}'." in r.stderr, r
    assert "unknown command" in r.stderr


def test_unknown_top_level_command_message(udrv: Runner) -> None:
    r = udrv("bogus")
    assert "unknown command 'bogus'" in r.stderr, r


@pytest.mark.parametrize("cmd", [
    "info", "gpio get", "gpio set", "gpio mon", "gpio toggle",
    "uio info", "uio wait", "uio peek", "uio poke", "rt check",
    "gpio info", "pci list", "pci info", "pci peek", "pci poke", "pci wait", "pci bind",
])
def test_unknown_option(udrv: Runner, cmd: str) -> None:
    r = udrv(*cmd.split(), "--bogus")
    assert r.returncode == 2, r
    assert f"Try 'udrv {cmd} --help'." in r.stderr, r


@pytest.mark.parametrize(("args", "message"), [
    (["info", "extra"], "unexpected argument 'extra'"),
    (["gpio", "get", "-c", "0"], "give at least one LINE"),
    (["gpio", "set", "-c", "0"], "LINE=VALUE"),
    (["gpio", "set", "-c", "0", "3"], "'3' is not LINE=VALUE"),
    (["gpio", "set", "-c", "0", "3=maybe"], "is not LINE=VALUE"),
    (["gpio", "set", "-c", "0", "--hold", "soon", "3=1"], "bad --hold 'soon'"),
    (["gpio", "get", "-c", "0", "--bias", "sideways", "3"], "unknown bias 'sideways'"),
    (["gpio", "get", "-c", "0", "--drive", "hard", "3"], "unknown drive 'hard'"),
    (["gpio", "mon", "-c", "0", "--edge", "up", "3"], "bad --edge 'up'"),
    (["gpio", "mon", "-c", "0", "--event-clock", "sundial", "3"], "bad --event-clock"),
    (["gpio", "mon", "-c", "0", "--timeout", "soon", "3"], "bad --timeout 'soon'"),
    (["gpio", "toggle", "-c", "0", "3", "4"], "give exactly one LINE"),
    (["gpio", "toggle", "-c", "0", "--count", "many", "3"], "bad --count 'many'"),
    (["uio", "wait", "uio0", "uio1"], "give exactly one DEVICE"),
    (["uio", "wait", "--timeout", "soon", "uio0"], "bad --timeout 'soon'"),
    (["uio", "peek", "uio0"], "give DEVICE OFFSET [COUNT]"),
    (["uio", "poke", "uio0", "0x0"], "give DEVICE OFFSET VALUE"),
    (["uio", "peek", "uio0", "zero"], "must be numbers"),
    (["uio", "peek", "--width", "24", "uio0", "0"], "bad --width '24'"),
    (["uio", "peek", "--map", "9", "uio0", "0"], "bad --map '9'"),
    (["rt", "check", "--prio", "0"], "bad --prio '0': a SCHED_FIFO priority, 1..99"),
    (["rt", "check", "--wait-for", "irq/24-"], "--wait-for needs --prio N"),
    (["rt", "check", "--prio", "80", "--wait-for", ""], "empty --wait-for"),
    (["rt", "check", "--prio", "80", "extra"], "unexpected argument 'extra'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_command_line_exits_2(udrv: Runner, args: list[str], message: str) -> None:
    r = udrv(*args)
    assert r.returncode == 2, r
    assert message in r.stderr, r
    assert "Try 'udrv " in r.stderr, r
