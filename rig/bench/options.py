# SPDX-License-Identifier: GPL-2.0-only
"""udrv-bench's options, the one place that spells them: the lab's plan
(rig.lab.suite.plan), the soak, the broker rows of the Python section and
the benches' plan entries (their specs) build command lines with these."""

from __future__ import annotations

Opts = tuple[str, ...]


def argv(bench: str, *, load: str | None = None, size: Opts = (), opts: Opts = (),
         lead: Opts = ()) -> Opts:
    """A bench's argument list (without the program), its document on stdout:
    BENCH [LEAD] --json --quiet [--load LOAD] [SIZE] [OPTS]."""
    return (bench, *lead, "--json", "--quiet", *(("--load", load) if load else ()), *size,
            *opts)  # fmt: skip


def samples_opt(n: int, flag: str = "--samples") -> Opts:
    """The bench's count: --samples N (or its short form, -n N)."""
    if flag not in ("--samples", "-n"):
        raise ValueError(f"{flag!r}: udrv-bench's count is --samples or -n")
    return (flag, str(n))


def count(full: int, quick: int) -> dict[str, Opts]:
    """A plan entry's size per mode: --samples FULL, --samples QUICK."""
    return {"full": samples_opt(full), "quick": samples_opt(quick)}


def device_opt(device: str) -> Opts:
    """udrv-bench uio's device: -d ticker|edu|both."""
    return ("-d", device)


def period_opt(period_us: int) -> Opts:
    """udrv-bench uio's uio-ticker period: --period-us P."""
    return ("--period-us", str(period_us))


def brokers_opt(udrvd: str, gpio_manager: str, gpiocli: str) -> Opts:
    """udrv-bench toggle's broker rows: udrvd's and gpio-manager's bus addresses,
    the gpiocli program."""
    return ("--udrvd", udrvd, "--gpio-manager", gpio_manager, "--gpiocli", gpiocli)
