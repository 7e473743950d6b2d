#!/usr/bin/env python3
"""Compile time against graph size: is it linear in the node count?

    python bench/compile_scaling.py [--nodes 1000,10000,20000,50000,100000]
                                    [--kind elementwise|products]
                                    [--rounds 2] [--tfc build/bin/tfc]
                                    [--work DIR]

For each size N, gen_synthetic_graph.py writes a graph of about N nodes
(fixed seed; --kind picks its elementwise mix, the default, or its chain
of small products, one kernel call and buffer per node), and `tfc compile GRAPH --fetch out -o PROGRAM` compiles it
to an executable `--rounds` times, each in its own process. The table
gives the fastest and the median wall time, the time per node, the peak
RSS, and each size's time per node over the smallest size's of at least
10,000 nodes (below that the fixed costs, like the op registry and the
link, dominate): linear time keeps that ratio near 1, and a ratio that
grows with N names the size where something superlinear starts. The
fastest round is the one to read on a shared machine, whose noise only
ever adds time.

tfc alone: there is no TensorFlow counterpart of compiling a graph ahead
of time, so nothing here needs TensorFlow.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import machine  # noqa: E402


def compile_once(tfc, graph, program):
    """Wall seconds and peak RSS (MiB) of one compile."""
    start = time.perf_counter()
    p = subprocess.Popen([tfc, "compile", graph, "--fetch", "out", "-o", program],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - start
    if status:
        sys.exit("tfc compile %s failed:\n%s" % (graph, err[-2000:]))
    return seconds, usage.ru_maxrss / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="1000,10000,20000,50000,100000")
    parser.add_argument("--kind", choices=["elementwise", "products"],
                        default="elementwise")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tfc", default=os.path.join(ROOT, "build", "bin", "tfc"))
    parser.add_argument("--work", default=None)
    args = parser.parse_args()
    try:
        sizes = [int(n) for n in args.nodes.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) <= 0 or args.rounds < 1:
        sys.exit("--nodes takes positive sizes separated by commas, "
                 "--rounds at least 1")
    work = args.work or tempfile.mkdtemp(prefix="tfc-compile-scaling-")
    os.makedirs(work, exist_ok=True)

    rows = []
    for n in sizes:
        graph = os.path.join(work, "%s%d.pbtxt" % (args.kind, n))
        subprocess.run([sys.executable, os.path.join(HERE, "gen_synthetic_graph.py"),
                        str(n), graph, "--kind", args.kind],
                       check=True, stdout=subprocess.DEVNULL)
        program = os.path.join(work, "%s%d" % (args.kind, n))
        runs = [compile_once(args.tfc, graph, program) for _ in range(args.rounds)]
        times = [t for t, _ in runs]
        rows.append((n, min(times), statistics.median(times), max(r for _, r in runs)))
        print("done: %d nodes" % n, file=sys.stderr)

    print(machine.line(os.cpu_count() or 1))
    print("%s graphs; %d round(s) per size; per node from the fastest round\n"
          % (args.kind, args.rounds))
    reference = next((r for r in rows if r[0] >= 10000), rows[0])
    base = reference[1] / reference[0]
    print("| nodes | fastest (s) | median (s) | per node (ms) | vs %d nodes | peak RSS (MiB) |"
          % reference[0])
    print("|---:|---:|---:|---:|---:|---:|")
    for n, fastest, median, rss in rows:
        print("| %d | %.2f | %.2f | %.3f | %.2f | %.0f |"
              % (n, fastest, median, 1e3 * fastest / n, (fastest / n) / base, rss))


if __name__ == "__main__":
    main()
