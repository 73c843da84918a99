# SPDX-License-Identifier: GPL-2.0-only
"""The seeds of the rig's harnesses (udrv-bench's readers: rtla, cyclictest,
fields, peer, rate, trace), for make_seeds.py: what Debian 12's tools and
the lab's kernels print, captured in tests/rig/unit/, and near misses."""

from __future__ import annotations

from pathlib import Path

from seed_format import join

HERE = Path(__file__).resolve().parent

# rtla timerlat hist -n as Debian 12's rtla 6.1 prints it: the outputs captured
# in the lab for the unit tests (tests/rig/unit/rtla/README.md) that fit in
# run.py's -max_len, and two CPUs in a few lines
RTLA_HEAD = ("# RTLA timerlat histogram\n# Time unit is nanoseconds (ns)\n"
             "# Duration:   0 00:00:01\n")
RTLA = [p.read_bytes() for p in sorted((HERE.parent / "rig" / "unit" / "rtla").glob("*.txt"))
        if p.stat().st_size <= 4096] + [
    (RTLA_HEAD + "Index   IRQ-000   Thr-000   IRQ-001   Thr-001\n"
     "700           2         0         1         0 \n"
     "4100          0         2         0         1 \n"
     "over:         0         0         0         0 \n"
     "count:        2         2         1         1 \n"
     "min:        700      4100       700      4100 \n"
     "avg:        700      4100       700      4100 \n"
     "max:        700      4100       700      4100 \n").encode(),
    (RTLA_HEAD + "Index   IRQ-000   Thr-000   IRQ-003   Thr-003\n"
     "650           1         0         0         0 \n"
     "5000          0         0         0         0 \n"
     "over:         0         1         0         0 \n"
     "count:        1         1         0         0 \n"
     "min:        650    200000         -         - \n"
     "avg:        650    200000         -         - \n"
     "max:        650    200000         -         - \n").encode(),
]

def cyclictest(rng: int, values: list[int], nodes: int, comment: bool = True) -> bytes:
    """The files of `cyclictest -q -N -h RNG --spike=RNG-1 --spike-nodes=NODES`
    for one thread whose samples were VALUES (ns, in cycle order), printed as
    rt-tests 2.5 prints them (see tests/rig/unit/cyclictest/ for real ones):
    part 0 the --histfile, part 1 the stdout."""
    over = [i for i, v in enumerate(values) if v >= rng]
    hist = ["# Histogram"] + [f"{i:06d} {sum(v == i for v in values):06d}" for i in range(rng)]
    hist += [f"# Total: {len(values) - len(over):09d}",
             f"# Min Latencies: {min(values, default=1000000):05d}",
             f"# Avg Latencies: {int(sum(values) / len(values)) if values else 0:05d}",
             f"# Max Latencies: {max(values, default=0):05d}",
             f"# Histogram Overflows: {len(over):05d}",
             "# Histogram Overflow at cycle number:",
             "# Thread 0:" + "".join(f" {c:05d}" for c in over[:rng])
             + (f" # {len(over) - rng:05d} others" if len(over) > rng else ""), "", ""]
    out = "# /dev/cpu_dma_latency set to 0us\n" if comment else ""
    if over:
        out += "\n" + "".join(f"T:{0:2d} Spike:{values[c]:8d}: TS: {1000 * c + 2000000:12d}\n"
                              for c in over[:nodes]) + f"spikes = {len(over)}\n\n"
    return join("\n".join(hist), out)


# cyclictest's files as `udrv-bench timer` reads them, at the ranges the
# harness uses (4 and 100 buckets): no overflow, some, more than the range
# (" # N others"), more than the spike nodes, no sample at all
CYCLICTEST = [
    cyclictest(4, [1, 2, 2, 3], 3),
    cyclictest(4, [2, 9, 3, 5], 3),
    cyclictest(4, [7, 8, 9, 10, 11, 12], 6, comment=False),
    cyclictest(4, [7, 8, 9, 10, 11, 12], 3),
    cyclictest(4, [], 3),
    cyclictest(100, [36, 38, 36, 120, 37, 41, 39], 300),
    cyclictest(100, [36, 38, 36, 37], 300)[:-1]
    + (HERE.parent / "rig" / "unit" / "cyclictest" / "out-100000").read_bytes(),
    join("", (HERE.parent / "rig" / "unit" / "cyclictest" / "out-4000").read_bytes()),
]


# rig/bench/core/fields.c: the first byte is n, then gpio-reply's counts and last edge
FIELDS = [bytes([2]) + b"632 632\n", bytes([2]) + b"0 0\n",
          bytes([3]) + b"1 2450279896 2450280065\n", bytes([1]) + b"18446744073709551615\n",
          # top bit: an option's names (bench_parse_names), the low bits how many
          bytes([0x84]) + b"user,lib", bytes([0x84]) + b"all", bytes([0x86]) + b"ab,a,isr",
          bytes([0x84]) + b"user,user"]

# rig/bench/core/peer_parse.c: udrv-bench-peer's output as it prints it (rx, irq's
# edges), and near misses
PEER_RX = ("received 3\nreads 2\nseqno_first 5\nseqno_last 7\ncpu_user_ns 0\n"
           "cpu_sys_ns 4000000\nsamples 2\nlat 8351\nlat 31009\nend\n")
PEER = [s.encode() for s in (
    PEER_RX,
    "received 0\nreads 0\nseqno_first 0\nseqno_last 0\ncpu_user_ns 0\ncpu_sys_ns 0\n"
    "samples 0\nend\n",
    "received 2\nreads 1\nseqno_first 1\nseqno_last 2\nedge 1779033147 1779034622 "
    "1779042971 1\nedge 1779055212 1779056687 1779065041 0\nend\n",
    PEER_RX.replace("lat 8351", "lat 08351"),
    PEER_RX.replace("reads 2\n", ""),
    PEER_RX + "lat 1\n",
    PEER_RX[:-1],
    "received 18446744073709551615\nreads 18446744073709551616\nend\n",
    "ns 520704\n", "set 1\n", "batch 256\n", "ok\n", "ready\n",
)]

# rig/bench/rate/rate_parse.c: part 0 a --rates list, part 1 the peer's rx output
# after its "ready" line, as udrv-bench rate reads it
RATE = [join(rates, rx) for rates, rx in (
    ("1k,2k,5k,10k,20k,50k,100k,200k", PEER_RX),
    ("7", "received 0\nreads 0\nseqno_first 0\nseqno_last 0\ncpu_user_ns 0\n"
          "cpu_sys_ns 0\nsamples 0\nend\n"),
    ("0x10k,1M", PEER_RX.replace("samples 2\nlat 8351\n", "samples 1\n")),
    ("5,3", PEER_RX[:-4]),
    ("1000001", PEER_RX.replace("seqno_last 7", "seqno_last 5")),
)]


def lab_trace(name: str) -> bytes:
    """A --spike-out file of the lab (tests/rig/unit/traces): its window line
    ("# udrv: spike of ... window A..B ns ..., bench pid P") as part 0."""
    text = (HERE.parent / "rig" / "unit" / "traces" / name).read_text()
    first = text.split("\n", 1)[0]
    window = first.split("window ", 1)[1].split(" ns", 1)[0].split("..")
    pid = first.rsplit("bench pid ", 1)[1]
    return join(f"{window[0]} {window[1]} 0 {pid}", text)


TRACE_LINES = [
    "  a b-9 [1] x-12     [001] d..2.     5.000001: sched_switch: prev_comm=a b prev_pid=12 "
    "prev_prio=120 prev_state=S ==> next_comm=c next_pid=13 next_prio=9",
    "  t-5 [000] d.h1.  1.000020: local_timer_entry: vector=236\n"
    "  t-5 [000] d.h1.  1.000030: hrtimer_expire_entry: hrtimer=0 function=f now=1\n"
    "  t-5 [000] d.h1.  1.000050: local_timer_exit: vector=236\n"
    "  t-5 [000] ..s1.  1.000060: softirq_entry: vec=7 [action=SCHED]\n"
    "  t-5 [000] ..s1.  1.000090: softirq_exit: vec=7 [action=SCHED]",
    "  load-7 [000] d.h1.  1.000000: sched_waking: comm=bench pid=10 prio=19 target_cpu=000\n"
    "  load-7 [000] d..2.  1.050000: sched_switch: prev_comm=load prev_pid=7 prev_prio=120 "
    "prev_state=R ==> next_comm=bench next_pid=10 next_prio=19",
    "  a-1 [000] .....  12.123456789: sched_pi_setprio: comm=b pid=2 oldprio=120 newprio=19",
    "CPU:0 [LOST 12 EVENTS]\n##### CPU 0 buffer started ####",
    # the raw format (options/raw), which --breakdown reads for the nanoseconds
    "157 0 3316102499 type: 1182\n156 1 3316083000 type: 315\nCPU:0 [LOST 12 EVENTS]",
]
# udrv-bench reply --breakdown: replies from the lab's traces (std isr, rt
# user/read; tests/rig/unit/test_breakdown.c), part 0 the reply's t_write and
# D's timestamp (B = irq 25, D = irq 24, C = gpio 1022)
_U138 = "      udrv-bench-138     [000] d.h1.     2.9439"
_U155 = "      udrv-bench-155     [000] d..h1..     3.3160"
_SW = " prev_prio=49 prev_state={} ==> next_comm={} next_pid={} next_prio={}"
BREAKDOWN = [
    join("2943985600 2943991250 0 138", "\n".join([
        "      udrv-bench-138     [000] .....     2.943986: gpio_value: 1020 set 1",
        _U138 + "87: irq_work_entry: vector=246",
        _U138 + "88: irq_handler_entry: irq=25 name=gpio-reply",
        _U138 + "88: gpio_value: 1021 get 1",
        _U138 + "89: gpio_value: 1022 set 0",
        _U138 + "91: irq_handler_entry: irq=24 name=udrv-bench-reply",
        "      udrv-bench-138     [000] d..2.     2.944000: sched_switch: prev_comm=udrv-bench"
        " prev_pid=138" + _SW.format("S", "irq/24-udrv-ben", 139, 49)])),
    join("3316069800 3316104300 0 155", "\n".join([
        _U155 + "71: irq_work_entry: vector=246",
        _U155 + "72: irq_handler_entry: irq=25 name=udrv-reply-target",
        " irq/24-udrv-ben-156     [000] d...2..     3.316083: sched_switch:"
        " prev_comm=irq/24-udrv-ben prev_pid=156" + _SW.format("S", "irq/25-udrv-rep", 158, 49),
        " irq/25-udrv-rep-158     [000] d...211     3.316088: sched_switch:"
        " prev_comm=irq/25-udrv-rep prev_pid=158" + _SW.format("R+", "udrv-bench", 157, 19),
        "      udrv-bench-157     [000] .......     3.316102: gpio_value: 1022 set 0",
        "      udrv-bench-157     [000] d..h1..     3.316104: irq_handler_entry: irq=24"
        " name=udrv-bench-reply",
        "      udrv-bench-157     [000] d..h1..     3.316105: irq_handler_entry: irq=24"
        " name=udrv-bench-reply"])),
]
TRACE = ([lab_trace("hog-std.txt"), lab_trace("hog-rt.txt")] + BREAKDOWN
         + [join("1000000000 1000100000 0 10", t) for t in TRACE_LINES]
         + [join("x", t) for t in TRACE_LINES])
