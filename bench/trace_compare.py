#!/usr/bin/env python3
"""Where two or more builds of one model differ, op kind by op kind, or
one build on different thread counts.

    python bench/trace_compare.py PROGRAM[,PROGRAM...] --input NAME=FILE.npy...
        [--runs 6] [--steps 5] [--threads 2[,T...]] [--nodes N]

Runs each compiled program with `--trace` in turns, `--runs` times, and
prints for each op kind (a trace event's `cat`: `Conv2D+AddV2+Relu` for a
fused group) the sum over its nodes of each node's fastest time in any
step of any run but the first step of each, one column per program; then
the median and the fastest step. On a shared machine a whole step's time
moves by 10-40% between runs, which hides a change of a few percent; a
node's fastest time over tens of steps moves far less, and alternating the
programs exposes them to the same noise. tfc alone: the programs are old
and new builds of the same model (compile it with each build's `tfc`).

With several thread counts (`--threads 1,2`), each program runs on each,
one column per program and count (`program@2`). Where a node's time on
more threads is more than its time on fewer, scaled by the counts, time
is lost to the split: a kernel whose threads wait or repeat work (a
separable pair remade its rows for every chunk of its loop, and took 5.3
ms on two threads where one thread took 7.5). With --nodes N, the N
nodes whose time in the last column most exceeds the first's (scaled by
their thread counts, if they differ) follow the table.
"""

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile


def traced_steps(program, feeds, steps, threads, out):
    """Each step after the first: its duration in us, and its nodes' trace
    events (name, op kind in "cat", "dur" in us, a fused group's members
    in args["fused"])."""
    inputs = [a for f in feeds for a in ("--input", f)]
    run = subprocess.run([program] + inputs + ["--steps", str(steps),
                                               "--threads", str(threads), "--trace", out],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        last = run.stderr.strip().splitlines()[-1:] or ["exit %d" % run.returncode]
        sys.exit("%s: %s: %s" % (os.path.basename(sys.argv[0]), program, last[0]))
    events = [e for e in json.load(open(out))["traceEvents"] if e.get("ph") == "X"]
    step_events = sorted((e for e in events if e["name"].startswith("step ")),
                         key=lambda e: e["ts"])[1:]
    nodes = [e for e in events if not e["name"].startswith("step ")]
    for step in step_events:
        end = step["ts"] + step["dur"]
        yield step["dur"], [e for e in nodes if step["ts"] <= e["ts"] < end]


def step_times(events):
    """{node: its time in one step's events, us}: a node in a loop (the
    micro-batches of tfc-split-batch, say) runs once an iteration, and its
    time is their sum."""
    times = collections.defaultdict(float)
    for e in events:
        times[e["name"]] += e["dur"]
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", help="comma-separated compiled programs")
    parser.add_argument("--input", required=True, action="append",
                        help="NAME=FILE.npy, as the programs take (once per input)")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--threads", default="2",
                        help="thread counts, comma-separated: each program runs on each")
    parser.add_argument("--nodes", type=int, default=0,
                        help="list the N nodes the last column loses most time on")
    args = parser.parse_args()
    # By path: a bare name in this directory would be looked up on PATH.
    programs = [os.path.abspath(p) for p in args.programs.split(",")]
    for program in programs:
        if not os.access(program, os.X_OK):
            sys.exit("trace_compare.py: %s: not an executable program" % program)
    if args.steps < 2:
        sys.exit("trace_compare.py: --steps must be at least 2 (the first is left out)")
    if args.nodes < 0:
        sys.exit("trace_compare.py: --nodes must be 0 or more")
    try:
        threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        threads = []
    if not threads or min(threads) < 1:
        sys.exit("trace_compare.py: --threads: %s is not a list of counts of at least 1"
                 % args.threads)
    columns = [(p, t) for p in programs for t in threads]
    fastest = {c: {} for c in columns}
    kinds = {}
    steps = {c: [] for c in columns}
    with tempfile.TemporaryDirectory(prefix="tfc-trace-compare-") as work:
        for _ in range(args.runs):
            for c in columns:
                out = os.path.join(work, "trace.json")
                for duration, nodes in traced_steps(c[0], args.input, args.steps,
                                                    c[1], out):
                    steps[c].append(duration)
                    for name, us in step_times(nodes).items():
                        fastest[c][name] = min(fastest[c].get(name, us), us)
                    for e in nodes:
                        kinds[e["name"]] = e.get("cat", "")
    by_kind = {c: collections.defaultdict(float) for c in columns}
    for c in columns:
        for name, us in fastest[c].items():
            by_kind[c][kinds[name]] += us
    order = sorted(set(kinds.values()), key=lambda k: -max(by_kind[c][k] for c in columns))
    labels = [os.path.basename(p)[:12] + ("@%d" % t if len(threads) > 1 else "")
              for p, t in columns]
    print("%-36s" % "op kind (ms, fastest per node)" + "".join("%15s" % l for l in labels))
    for kind in order:
        print("%-36s" % kind[:36] + "".join("%15.2f" % (by_kind[c][kind] / 1000) for c in columns))
    print("%-36s" % "sum" + "".join("%15.2f" % (sum(by_kind[c].values()) / 1000) for c in columns))
    print("%-36s" % "step median / fastest" + "".join(
        "%15s" % ("%.1f/%.1f" % (statistics.median(steps[c]) / 1000, min(steps[c]) / 1000))
        for c in columns))
    if args.nodes > 0 and len(columns) > 1:
        print_losses(columns[0], columns[-1], labels[0], labels[-1], fastest, kinds, args.nodes)


def print_losses(first, last, first_label, last_label, fastest, kinds, count):
    """The `count` nodes whose time in column `last` most exceeds their time
    in `first`, scaled by the columns' thread counts (first's time times
    its threads over last's: what perfect scaling would give)."""
    scale = first[1] / last[1]
    losses = sorted(((fastest[last][n] - fastest[first][n] * scale, n)
                     for n in fastest[first] if n in fastest[last]), reverse=True)
    print()
    against = first_label + (" x %d/%d" % (first[1], last[1]) if scale != 1 else "")
    print("nodes losing most in %s against %s (ms):" % (last_label, against))
    print("%9s %9s %9s  %-36s %s" % ("lost", first_label[-9:], last_label[-9:], "op kind", "node"))
    for lost, name in losses[:count]:
        print("%9.3f %9.3f %9.3f  %-36s %s" % (lost / 1000, fastest[first][name] / 1000,
                                              fastest[last][name] / 1000,
                                              kinds[name][:36], name))

if __name__ == "__main__":
    main()
