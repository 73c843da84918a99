#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Count the store instructions of functions in the generated code (TAP).

    store_count.py OBJDUMP FILE SYMBOL=N [SYMBOL?=N ...] [-- FILE SYMBOL=N ...]

For each SYMBOL of FILE (an object or archive), disassemble it with OBJDUMP
and check that it has exactly N instructions that store to memory other than
the stack: the mmio backend's toggle hot path must be one store per edge.
SYMBOL?=N: the symbol may be absent (a compiler-made .cold part). Stores to
the stack (spills, push) are reported but not counted: they are not register
writes. A call counts as a failure: the hot path must not call anything.
x86 (Intel syntax), AArch64 and 32-bit ARM are understood.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass

HEADER = re.compile(r"^[0-9a-f]+ <(?P<name>[^>]+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\t(?P<mnem>\S+)\s*(?P<ops>.*)$")
X86_NO_WRITE = ("cmp", "test", "nop", "lea", "prefetch", "bt", "ucomis", "comis", "j")
ARM_STACK = re.compile(r"\[sp\b")
X86_PREFIXES = {"data16", "data32", "addr32", "cs", "ds", "es", "ss", "fs", "gs", "rep",
                "repz", "repnz", "repe", "repne", "lock", "notrack", "bnd"}


@dataclass
class Count:
    stores: int = 0
    stack: int = 0
    calls: int = 0
    insns: int = 0


def disassemble(objdump: str, path: str) -> dict[str, list[tuple[str, str]]]:
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-M", "intel", path],
                         capture_output=True, text=True, check=False)
    if out.returncode:  # -M intel is x86 only
        out = subprocess.run([objdump, "-d", "--no-show-raw-insn", path],
                             capture_output=True, text=True, check=True)
    funcs: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in out.stdout.splitlines():
        head = HEADER.match(line)
        if head:
            current = funcs.setdefault(head["name"], [])
            continue
        insn = INSN.match(line)
        if insn and current is not None:
            current.append((insn["mnem"], insn["ops"].split("//")[0].strip()))
        elif not line.strip():
            current = None
    return funcs


def classify(mnem: str, ops: str, count: Count) -> None:
    count.insns += 1
    words = f"{mnem} {ops}".split(" ", 1)
    while words[0] in X86_PREFIXES and len(words) > 1:
        words = words[1].strip().split(" ", 1)
    m = words[0].lower()
    ops = words[1].strip() if len(words) > 1 else ""
    first = ops.split(",")[0]
    if m.startswith(("call", "bl")) and not m.startswith(("ble", "bls", "blt")):
        count.calls += 1
    elif m.startswith(("push", "vpush")):
        count.stack += 1
    elif m.startswith(("st", "vst")):  # ARM: str, strb, stp, stur, stm, ...
        if ARM_STACK.search(ops) or (m.startswith("stmdb") and ops.startswith("sp")):
            count.stack += 1
        else:
            count.stores += 1
    elif "[" in first and not m.startswith(X86_NO_WRITE) and not m.startswith("ld"):
        if re.search(r"\[(rsp|esp)\b", first):
            count.stack += 1
        else:
            count.stores += 1


def check(funcs: dict[str, list[tuple[str, str]]], spec: str, path: str) -> tuple[bool, str]:
    name, _, want = spec.partition("=")
    optional = name.endswith("?")
    name = name.rstrip("?")
    if name not in funcs:
        return optional, f"{name} in {path}: {'absent (optional)' if optional else 'not found'}"
    count = Count()
    for mnem, ops in funcs[name]:
        classify(mnem, ops, count)
    ok = count.stores == int(want) and count.calls == 0
    return ok, (f"{name}: {count.stores} store(s), want {want}; {count.stack} to the stack, "
                f"{count.calls} call(s), {count.insns} instructions")


def groups(args: list[str]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    while args:
        end = args.index("--") if "--" in args else len(args)
        out.append((args[0], args[1:end]))
        args = args[end + 1:]
    return out


def main(argv: list[str]) -> int:
    objdump, rest = argv[1], argv[2:]
    plan = groups(rest)
    total = sum(len(specs) for _, specs in plan)
    print(f"1..{total}")
    n = failed = 0
    for path, specs in plan:
        funcs = disassemble(objdump, path)
        for spec in specs:
            n += 1
            ok, what = check(funcs, spec, path)
            failed += not ok
            print(f"{'' if ok else 'not '}ok {n} - {what}")
            if not ok and spec.split("=")[0].rstrip("?") in funcs:
                for mnem, ops in funcs[spec.split("=")[0].rstrip("?")]:
                    print(f"#   {mnem} {ops}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
