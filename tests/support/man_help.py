# SPDX-License-Identifier: GPL-2.0-only
"""What a program's --help and its man page each say it has: the commands and
the long options. The drift tests (tests/cli/test_cli_man.py for udrv,
tests/rig/bench/test_bench_man.py for udrv-bench) hold the two to each other.

--help: the texts of `PROG --help` and, following every command block (a
heading in COMMAND_HEADINGS, then lines "  NAME  text"), of `PROG NAME
--help`, recursively; a command is the path its "Usage: PROG PATH ..." line
names, or a name of a block; an option, one that an option line
("  -c, --chip CHIP  text" or "      --no-mlock  text") or the Usage line
shows (an option named in running text, such as cyclictest's --spike, is
not this program's).
A command whose --help is another program's (udrv bench: udrv-bench) is
not followed.

The man page: a command is the lowercase words after the program's name in
an .SS heading (".SS udrv gpio get [OPTIONS] LINE..." is "gpio get"); an
option, one in the SYNOPSIS or in the tag of a paragraph (the line after
.TP, or an .IP's tag).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
BLOCK_LINE = re.compile(r"^  ([a-z][a-z0-9-]*) {2,}\S")
OPTION_LINE = re.compile(r"^ +(?:-\w, +)?(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)")
WORD = re.compile(r"[a-z][a-z0-9-]*")
# the headings of the help texts' command lists (udrv's forwarded commands)
COMMAND_HEADINGS = ("Commands:", "Forwarded to udrv-bench(1), the latency suite, for a while:")


@dataclass
class Surface:
    """The commands (paths such as "gpio get") and long options of a program."""

    commands: set[str] = field(default_factory=set)
    options: set[str] = field(default_factory=set)


def _path(words: list[str]) -> str:
    """The leading lowercase command words of a usage line or a heading."""
    out = []
    for w in words:
        if not WORD.fullmatch(w):
            break
        out.append(w)
    return " ".join(out)


def _blocks(text: str) -> list[str]:
    """The names of the "Commands:"-like blocks of a help text."""
    names, in_block = [], False
    for line in text.splitlines():
        if line and not line[0].isspace():
            in_block = line in COMMAND_HEADINGS
            continue
        m = BLOCK_LINE.match(line)
        if in_block and m:
            names.append(m.group(1))
        elif not line.strip():
            in_block = False
    return names


def help_surface(prog: str, run: Callable[[list[str]], str]) -> Surface:
    """The surface `run(ARGS)` (PROG ARGS --help's stdout) shows, from the top."""
    out = Surface()
    todo: list[list[str]] = [[]]
    while todo:
        path = todo.pop()
        text = run([*path, "--help"])
        usage = text.splitlines()[0].split() if text else []
        if usage[:2] != ["Usage:", prog]:
            continue  # another program's help (forwarded): not this surface
        here = _path(usage[2:])
        if here:
            out.commands.add(here)
        out.options.update(OPTION.findall(text.splitlines()[0]))
        out.options.update(m.group(1) for m in map(OPTION_LINE.match, text.splitlines()) if m)
        for name in _blocks(text):
            child = [*path, name]
            out.commands.add(" ".join(child))
            todo.append(child)
    return out


def _plain(troff: str) -> str:
    """Troff source with the escapes that matter here undone."""
    text = re.sub(r"\\f[BIRP]|\\f\(..|\\c|\\&|\\~", "", troff)
    return text.replace("\\-", "-").replace('"', "")


def man_surface(prog: str, page: Path) -> Surface:
    """The commands and documented options of the man page of PROG."""
    out = Surface()
    lines = _plain(page.read_text()).splitlines()
    tag = synopsis = False
    for line in lines:
        if line.startswith(".SH "):
            synopsis = line == ".SH SYNOPSIS"
        if synopsis:
            out.options.update(OPTION.findall(line))
        if line.startswith(".SS "):
            for m in re.finditer(rf"(?<![\w-]){re.escape(prog)}((?: [a-z][a-z0-9-]*)+)", line):
                out.commands.add(_path(m.group(1).split()))
        if tag:  # the tag line of a .TP paragraph
            out.options.update(OPTION.findall(line))
        tag = line.startswith(".TP")
        if line.startswith(".IP "):  # a tag of its own
            out.options.update(OPTION.findall(line))
    return out


def run_help(binary: Path, env: dict[str, str] | None = None) -> Callable[[list[str]], str]:
    """A run() for help_surface: BINARY ARGS, its stdout."""
    def run(args: list[str]) -> str:
        return subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=30,
                              check=False, env=env).stdout
    return run


def drift(helps: Surface, man: Surface) -> list[str]:
    """What one side has and the other lacks, one line each (empty: in step)."""
    out = []
    for c in sorted(helps.commands):
        if not any(m == c or m.startswith(c + " ") for m in man.commands):
            out.append(f"command '{c}' is in --help, not in the man page")
    for c in sorted(man.commands - helps.commands):
        out.append(f"command '{c}' is in the man page, not in --help")
    out += [f"option {o} is in --help, not in the man page"
            for o in sorted(helps.options - man.options)]
    out += [f"option {o} is in the man page, not in --help"
            for o in sorted(man.options - helps.options)]
    return out


def page_drift(prog: str, binary: Path, page: Path) -> list[str]:
    """drift() of BINARY's --help and PAGE."""
    return drift(help_surface(prog, run_help(binary)), man_surface(prog, page))


def edited_copy(page: Path, tmp: Path, old: str, new: str) -> Path:
    """A copy of PAGE in TMP with OLD (which must be there) replaced by NEW:
    a page broken on purpose."""
    text = page.read_text()
    assert old in text, f"{old!r} is no longer in {page}: pick another line to break"
    out = tmp / page.name
    out.write_text(text.replace(old, new))
    return out
