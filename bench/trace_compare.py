#!/usr/bin/env python3
"""Where two or more builds of one model differ, op kind by op kind.

    python bench/trace_compare.py PROGRAM[,PROGRAM...] --input NAME=FILE.npy...
        [--runs 6] [--steps 5] [--threads 2]

Runs each compiled program with `--trace` in turns, `--runs` times, and
prints for each op kind (a trace event's `cat`: `Conv2D+AddV2+Relu` for a
fused group) the sum over its nodes of each node's fastest time in any
step of any run but the first step of each, one column per program; then
the median and the fastest step. On a shared machine a whole step's time
moves by 10-40% between runs, which hides a change of a few percent; a
node's fastest time over tens of steps moves far less, and alternating the
programs exposes them to the same noise. tfc alone: the programs are old
and new builds of the same model (compile it with each build's `tfc`).
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
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    # By path: a bare name in this directory would be looked up on PATH.
    programs = [os.path.abspath(p) for p in args.programs.split(",")]
    for program in programs:
        if not os.access(program, os.X_OK):
            sys.exit("trace_compare.py: %s: not an executable program" % program)
    if args.steps < 2:
        sys.exit("trace_compare.py: --steps must be at least 2 (the first is left out)")
    fastest = {p: {} for p in programs}
    kinds = {}
    steps = {p: [] for p in programs}
    with tempfile.TemporaryDirectory(prefix="tfc-trace-compare-") as work:
        for _ in range(args.runs):
            for p in programs:
                out = os.path.join(work, "trace.json")
                for duration, nodes in traced_steps(p, args.input, args.steps,
                                                    args.threads, out):
                    steps[p].append(duration)
                    for name, us in step_times(nodes).items():
                        fastest[p][name] = min(fastest[p].get(name, us), us)
                    for e in nodes:
                        kinds[e["name"]] = e.get("cat", "")
    by_kind = {p: collections.defaultdict(float) for p in programs}
    for p in programs:
        for name, us in fastest[p].items():
            by_kind[p][kinds[name]] += us
    order = sorted(set(kinds.values()), key=lambda k: -max(by_kind[p][k] for p in programs))
    labels = [os.path.basename(p)[:12] for p in programs]
    print("%-36s" % "op kind (ms, fastest per node)" + "".join("%13s" % l for l in labels))
    for kind in order:
        print("%-36s" % kind[:36] + "".join("%13.2f" % (by_kind[p][kind] / 1000) for p in programs))
    print("%-36s" % "sum" + "".join("%13.2f" % (sum(by_kind[p].values()) / 1000) for p in programs))
    print("%-36s" % "step median / fastest" + "".join(
        "%13s" % ("%.1f/%.1f" % (statistics.median(steps[p]) / 1000, min(steps[p]) / 1000))
        for p in programs))


if __name__ == "__main__":
    main()
