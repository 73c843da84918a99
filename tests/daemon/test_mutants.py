# SPDX-License-Identifier: GPL-2.0-only
"""The refusals of test_udrvd.py, test_devices.py, test_edge_events.py,
test_line_changes.py, test_hotplug.py, test_credentials.py and test_quotas.py
fail when their check is removed: udrvd is built again from a copy of
daemon/ with one check taken out, and the test
that covers that check must fail against it (and only tests that the check
explains). A refusal test that passes anyway tests something else."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.daemon.conftest import BUILD
from tests.support.udrv_runner import REPO, required

# name: (file, text, replacement, the tests that must fail)
MUTANTS = {
    "no policy check on RequestLines": (
        "chip.c", "if (udrvd_policy_gpio(chip->d->policy, who, &id, cfg->perms[i], msg))",
        "if (0)",
        {"test_the_line_beside_is_refused_naming_the_rule", "test_no_rule_no_access",
         "test_reconfigure_refusals",
         "test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_counts_from_the_callers_process",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid"}),
    "no policy check on SetValues": (
        "request.c", "int err = check_caller(r, m, UDRVD_DRIVE, error);",
        "int err = check_caller(r, m, 0, error);",
        {"test_set_values_needs_drive", "test_a_revoked_grant_stops_the_owner"}),
    "no policy check on GetFd": (
        "request.c", "int err = check_caller(r, m, UDRVD_GPIO_PERMS, error);",
        "int err = check_caller(r, m, 0, error);",
        {"test_the_fd_needs_all_on_every_line_and_the_owner"}),
    "no owner check on a request": (
        "request.c", "\tif (who->caller.uid == r->owner)\n\t\treturn 0;",
        "\tif (1)\n\t\treturn 0;",
        {"test_another_user_cannot_drive_or_release",
         "test_the_fd_needs_all_on_every_line_and_the_owner",
         "test_the_example_drives_a_held_line"}),
    "UnixGroupIDs not read (the user database's groups instead)": (
        "creds.c", '\tif (strcmp(key, "UnixGroupIDs"))', "\tif (1)",
        {"test_a_group_counts_from_the_callers_process",
         "test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid",
         "test_another_user_is_refused_naming_the_rules"}),
    "the bus's groups but the first not used": (
        "caller.c", "\tc->caller.ngroups = k->ids.ngroups ? k->ids.ngroups - 1 : 0;",
        "\tc->caller.ngroups = 0;",
        {"test_a_group_counts_from_the_callers_process",
         "test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid",
         "test_another_user_is_refused_naming_the_rules"}),
    "a cached caller found by another connection's name": (
        "caller.c", "\t\tif (known[i].name[0] && !strcmp(known[i].name, name))",
        "\t\tif (known[i].name[0])",
        {"test_a_group_counts_at_every_call_of_a_connection",
         "test_a_group_counts_from_the_callers_process",
         "test_a_group_is_not_taken_from_a_process_at_the_callers_pid",
         "test_a_revoked_watch_rule_stops_the_events",
         "test_a_user_over_its_request_quota_is_refused",
         "test_another_user_cannot_drive_or_release",
         "test_another_user_is_refused_naming_the_rules",
         "test_edges_go_only_to_watchers_the_policy_allows", "test_no_rule_no_access",
         "test_the_example_drives_a_held_line",
         "test_the_fd_needs_all_on_every_line_and_the_owner", "test_vfio_refusals",
         "test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no policy check on ReconfigureLines": (
        "request.c", "\t\terr = udrvd_chip_check_lines(r->chip, &cfg, &who.caller, error);",
        "\t\terr = 0;",
        {"test_reconfigure_refusals"}),
    "no policy check on OpenUio and OpenVfio": (
        "devices.c",
        "\tif (err < 0)\n\t\terr = sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, msg);",
        "\terr = 0;",
        {"test_another_user_is_refused_naming_the_rules",
         "test_a_device_the_rule_does_not_name_is_refused", "test_vfio_refusals"}),
    "a UIO device checked by the name asked for, not its own": (
        "devices.c", "\tif (err == -EINVAL) {", "\tif (err == -EINVAL || 1) {",
        {"test_the_granted_user_maps_the_device_through_the_fd",
         "test_a_device_the_rule_does_not_name_is_refused", "test_bad_device_names"}),
    "a watcher not checked against the policy": (
        "watch.c", "\treturn !udrvd_policy_gpio(l->chip->d->policy, who, &id, UDRVD_WATCH, msg);",
        "\treturn true;",
        {"test_edges_go_only_to_watchers_the_policy_allows",
         "test_a_revoked_watch_rule_stops_the_events",
         # their reads of a line without a watch rule make no watcher
         "test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing"}),
    "EdgeEvent broadcast, not sent to the watcher alone": (
        "watch.c", "\t\t\tr = sd_bus_message_set_destination(s, w->conn->name);", "\t\t\tr = 0;",
        {"test_edges_go_only_to_watchers_the_policy_allows",
         "test_a_revoked_watch_rule_stops_the_events"}),
    "a watcher checked only when it starts watching": (
        "watch.c", "\t\tif (!may_watch(l, &who))\n\t\t\tcontinue;\n", "",
        {"test_a_revoked_watch_rule_stops_the_events"}),
    "a watcher gone before udrvd's match not dropped": (
        "watch.c", "\tif (sd_bus_message_is_method_error(m, NULL))\n\t\tconn_drop(c->d, c->name);",
        "", {"test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing"}),
    "the end of a watching connection not heard": (
        "watch.c", "\t\tif (!strcmp(c->name, name)) {\n\t\t\tconn_drop(d, name);",
        "\t\tif (!strcmp(c->name, name)) {", {"test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing",
         "test_watchers_cost_udrvd_one_match",
         "test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "udrvd's match kept with no watcher left": (
        "watch.c",
        "\tif (!d->watching)\n\t\td->watchers_gone = sd_bus_slot_unref(d->watchers_gone);",
        "", {"test_connections_that_hang_up_do_not_fill_a_line",
         "test_many_lines_and_vanished_watchers_exhaust_nothing",
         "test_watchers_cost_udrvd_one_match",
         "test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no per-user watcher quota": (
        "watch.c", "\tif (mine >= UDRVD_USER_WATCHERS)", "\tif (0)",
        {"test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no limit of a line's watchers": (
        "watch.c", "\tif (n >= UDRVD_WATCHERS_MAX)", "\tif (0)",
        {"test_watchers_over_the_quota_or_a_full_line_are_refused"}),
    "no per-user request quota": (
        "request.c", "\tif (held >= UDRVD_USER_REQUESTS)", "\tif (0)",
        {"test_a_user_over_its_request_quota_is_refused"}),
    "line changes by others not signalled": (
        "info.c", "\t\t\tudrvd_line_changed(&chip->lines[off]);", "\t\t\t;",
        {"test_another_process_s_change_is_signalled"}),
    "a chip that goes away keeps its objects and requests": (
        "hotplug.c", "\t\tudrvd_chip_remove(d, ev->name);", "\t\t;",
        {"test_a_chip_that_goes_takes_its_requests"}),
    "a change signalled on the wrong line": (
        "info.c", "\t\t\tudrvd_line_changed(&chip->lines[off]);",
        "\t\t\tudrvd_line_changed(&chip->lines[(off + 3) % chip->nlines]);",
        {"test_another_process_s_change_is_signalled"}),
}


def build_mutant(tmp: Path, file: str, text: str, replacement: str) -> Path:
    src = tmp / "daemon"
    shutil.copytree(REPO / "daemon", src)
    code = (src / file).read_text()
    assert code.count(text) == 1, f"{file} no longer holds the checked text: update MUTANTS"
    (src / file).write_text(code.replace(text, replacement))
    lib = required(BUILD / "lib" / "libudrv.a", "libudrv.a")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libsystemd"], check=True,
                           capture_output=True, text=True).stdout.split()  # fmt: skip
    out = tmp / "udrvd"
    sources = [str(p) for p in sorted(src.glob("*.c"))]
    subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", '-DUDRV_VERSION="mutant"',
                    f"-I{REPO / 'include'}", f"-I{REPO / 'lib'}", f"-I{src}", *sources,
                    str(lib), *flags, "-lm", "-o", str(out)], check=True)  # fmt: skip
    return out


@pytest.mark.parametrize("name", MUTANTS)
def test_a_removed_check_is_seen(name: str, tmp_path: Path) -> None:
    file, text, replacement, expected = MUTANTS[name]
    udrvd = build_mutant(tmp_path, file, text, replacement)
    xml = tmp_path / "junit.xml"
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"--junitxml={xml}", "tests/daemon/test_udrvd.py",
                          "tests/daemon/test_devices.py", "tests/daemon/test_edge_events.py",
                          "tests/daemon/test_line_changes.py", "tests/daemon/test_hotplug.py",
                          "tests/daemon/test_credentials.py", "tests/daemon/test_quotas.py"],
                         cwd=REPO, env={**os.environ, "UDRVD_BIN": str(udrvd)},
                         capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    failed = {ln.split("::")[1].split()[0] for ln in res.stdout.splitlines()
              if ln.startswith("FAILED ")}  # fmt: skip
    assert failed == expected, f"{name}: failed {sorted(failed)}\n{res.stdout[-3000:]}"
