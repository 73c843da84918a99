# SPDX-License-Identifier: LGPL-2.1-or-later
"""Lines that udrvd holds for you (udrvd(8), docs/udrvd.md): they keep their
value after your process exits, until you release them. The package's side
of udrv._udrv.udrvd_hold(), udrvd_release() and udrvd_fd(), as `udrv gpio
set --hold daemon` and `udrv gpio release` on the command line; take_held()
drives a held line at the character device's speed."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from . import _udrv
from ._gpio import Line, Request
from ._types import Direction, LineSettings


def _names(lines: Iterable[Line], chip: str | None) -> tuple[str, ...]:
    """Lines as the client takes them: names, or offsets (as str) with a chip."""
    out: list[str] = []
    for line in lines:
        if isinstance(line, bool) or not isinstance(line, (int, str)):
            raise TypeError(f"a line is an offset (int) or a name (str), not {line!r}")
        if isinstance(line, int):
            if chip is None:
                raise ValueError(f"line {line} is an offset: name its chip (chip=...)")
            if not 0 <= line <= 65535:
                raise ValueError(f"a line offset is 0..65535, not {line}")
            line = str(line)
        elif not line:
            raise ValueError("a line's name is empty")
        if line in out:
            raise ValueError(f"line {line!r} is given twice")
        out.append(line)
    if not out:
        raise ValueError("no line given")
    return tuple(out)


def _given(lines: Iterable[Line] | Line) -> list[Line]:
    """The lines a caller gave: one line, or an iterable of them."""
    return [lines] if isinstance(lines, (str, int)) else list(lines)


def hold(config: Mapping[Line, LineSettings], *, chip: str | None = None,
         consumer: str = "udrv") -> str:  # fmt: skip
    """Have udrvd hold lines as outputs: config maps each line (a name, or
    an offset when chip is given) to its LineSettings, direction OUTPUT and
    value the level to keep. The lines keep it after this process exits,
    until release_held(); holding them again sets the values (and changes
    the settings) on the same request of udrvd's. chip is a chip's name,
    number, path or label (None: the one chip that has every name).

    Returns the object path of udrvd's request. Raises PermissionDeniedError
    when udrvd's policy refuses (its message names the rules), NotFoundError
    when udrvd does not run or there is no such line, BusyError when other
    requests hold the lines, Error (ENOTSUP) when this package was built
    without udrvd's client.
    """
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a mapping {{line: LineSettings}}, "
                        f"not {type(config).__name__}")  # fmt: skip
    for line, s in config.items():
        if not isinstance(s, LineSettings):
            raise TypeError(f"settings of {line!r} must be a LineSettings, "
                            f"not {type(s).__name__}")  # fmt: skip
        if s.direction != Direction.OUTPUT:
            raise ValueError(f"udrvd holds outputs: line {line!r} has direction "
                             f"{s.direction.name}")  # fmt: skip
    if not consumer:
        raise ValueError("consumer is empty")
    names = _names(config, chip)
    path = _udrv.udrvd_hold(chip, names, tuple(s._astuple() for s in config.values()),
                            consumer)  # fmt: skip
    assert isinstance(path, str)
    return path


def release_held(lines: Iterable[Line], *, chip: str | None = None) -> dict[Line, int]:
    """Release udrvd's requests that hold lines (names, or offsets with
    chip): every line of each such request goes back to the kernel, which
    most drivers leave at its level. Returns {line: the logical value it had}
    for the lines given. NotFoundError when udrvd holds one of them in no
    request (or does not run), PermissionDeniedError when the request is
    another user's."""
    given = _given(lines)
    values = _udrv.udrvd_release(chip, _names(given, chip))
    return dict(zip(given, values))


def take_held(lines: Iterable[Line], *, chip: str | None = None) -> Request:
    """The fast path to lines udrvd holds for you (names, or offsets with
    chip): udrvd hands over its request's file descriptor, and the Request
    returned drives the lines through the kernel, one ioctl per set_value(),
    no D-Bus call. Its lines are all the lines of udrvd's request, in that
    request's order, by offset, and the lines given by name by their names.
    release() (or the end of this process) leaves them held by udrvd, at the
    level you set last.

    NotFoundError when udrvd holds a line in no request (hold() it first) or
    does not run, BusyError when different requests hold them,
    PermissionDeniedError when udrvd refuses: it hands the descriptor to the
    request's owner only, with every permission on each line.
    """
    given = _given(lines)
    name, fd, offsets, named = _udrv.udrvd_fd(chip, _names(given, chip))
    names = {line: off for line, off in zip(given, named) if isinstance(line, str)}
    try:
        return Request.adopt(name, fd, offsets, names=names)
    except BaseException:
        os.close(fd)  # adopt() leaves it ours on an error
        raise
