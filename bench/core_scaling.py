#!/usr/bin/env python3
"""What a machine's cores give each system: threads inside one step, or
independent work side by side.

    python bench/core_scaling.py DIR [--tfc build/bin/tfc] [--threads 2]
                                     [--rounds 3] [--steps N] [--no-tf]

DIR is a model directory of bench/run.py (`--work DIR` keeps them:
frozen.pb, x.npy, model.json). tfc's program runs one node at a time, each
on every thread; TensorFlow's executor also runs independent nodes at once
(its inter-op threads). Whether that could pay on a machine is a question
of how its cores behave, which this answers before anyone builds it. In
`--rounds` alternating rounds, each configuration in its own process(es):

  - tfc, one process on --threads threads, and on one thread;
  - tfc, --threads copies of the program side by side, one thread each:
    independent work on separate cores, the most that running a model's
    branches (or a batch's micro-batches) at once could make of the
    cores, since each copy keeps a core to itself with no sharing or
    waiting between them (the copies' weights are the same file's pages);
  - TensorFlow's session.run (bench/run.py's worker) with --threads intra-
    and inter-op threads, as run.py runs it, and with one inter-op thread,
    so that it runs one node at a time as tfc does (left out by --no-tf).

It prints each configuration's median step (side by side, the slowest
copy's) and throughput (samples a second over all its processes), and
three ratios: tfc's threads over one thread, the copies side by side over
one process's threads (above 1: the cores would give more to independent
work than to threads inside each node), and TensorFlow's inter-op threads
over one (what running nodes at once gives TensorFlow on this model). The
program is compiled from the frozen graph with --tfc first. Needs
tensorflow-cpu==2.21.0 and numpy for the TensorFlow rows; tfc itself
never does.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import catalog  # noqa: E402
import machine  # noqa: E402
import run  # noqa: E402

NAME = os.path.basename(sys.argv[0])


def fail(message):
    sys.exit("%s: %s" % (NAME, message))


def last_error(stderr, status):
    """A failed process's last line on stderr, or its exit status."""
    return (stderr.strip().splitlines()[-1:] or ["exit status %d" % status])[0]


def program_steps(programs):
    """Runs the command lines side by side, each a compiled program with
    --bench; returns each one's median step in seconds."""
    running = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for cmd in programs]
    medians = []
    try:
        for cmd, p in zip(programs, running):
            out, err = p.communicate()
            m = re.search(r"median ([0-9.]+) us", out)
            if p.returncode or not m:
                fail("%s: %s" % (" ".join(cmd), last_error(err, p.returncode)))
            medians.append(float(m.group(1)) * 1e-6)
    finally:
        # One copy failed (or the run was interrupted): stop the others.
        for p in running:
            if p.poll() is None:
                p.kill()
                p.wait()
    return medians


def tf_step(d, threads, inter_op, steps):
    """TensorFlow session.run's median step in seconds, through
    bench/run.py's worker."""
    worker = subprocess.run([sys.executable, os.path.join(HERE, "run.py"), "--worker", "session",
                             "--dir", d, "--threads", str(threads), "--inter-op", str(inter_op),
                             "--steps", str(steps)], capture_output=True, text=True)
    if worker.returncode:
        fail("TensorFlow session.run (inter-op %d): %s"
             % (inter_op, last_error(worker.stderr, worker.returncode)))
    return json.loads(worker.stdout.strip().splitlines()[-1])["median_s"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="a model directory of bench/run.py --work")
    parser.add_argument("--tfc", default=os.path.join(HERE, "..", "build", "bin", "tfc"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=None,
                        help="timed steps per measurement (default: run.py's for the model)")
    parser.add_argument("--no-tf", action="store_true", help="tfc's rows only")
    args = parser.parse_args()
    if args.threads < 2:
        fail("--threads must be at least 2 (one thread has nothing to share)")
    if args.rounds < 1:
        fail("--rounds must be at least 1")
    if args.steps is not None and args.steps < 1:
        fail("--steps must be at least 1")
    d = os.path.abspath(args.dir)
    try:
        meta = json.load(open(os.path.join(d, "model.json")))
    except (OSError, ValueError) as e:
        fail("%s: not a model directory of bench/run.py (%s)" % (d, e))
    batch = meta["batch"]
    steps = args.steps
    if steps is None:
        # run.py's count for a catalog model; 5 for any other.
        steps = run.steps_for(meta["model"], batch) if meta["model"] in catalog.BY_NAME else 5

    print(machine.line(args.threads))
    print("%s at batch %d, %d rounds of %d steps" % (meta["model"], batch, args.rounds, steps),
          flush=True)
    t = args.threads
    with tempfile.TemporaryDirectory(prefix="tfc-core-scaling-") as work:
        program = os.path.join(work, "program")
        graph = os.path.join(d, "frozen.pb")
        try:
            failed = subprocess.run([args.tfc, "compile", graph, "--feed", meta["feed"],
                                     "--fetch", meta["fetch"], "-o", program]).returncode
        except OSError as e:
            fail("--tfc %s: %s" % (args.tfc, e.strerror))
        if failed:
            fail("%s: tfc compile failed (its error above)" % graph)

        def bench(threads):
            return [program, "--input", "%s=%s" % (meta["feed"], os.path.join(d, "x.npy")),
                    "--bench", str(steps), "--threads", str(threads), "--quiet"]

        # Each configuration: its processes' command lines, or a TensorFlow
        # inter-op count; its rounds' (median step, samples a second).
        rows = [("tfc, one process, %d threads" % t, [bench(t)]),
                ("tfc, one process, 1 thread", [bench(1)]),
                ("tfc, %d processes of 1 thread, side by side" % t, [bench(1)] * t)]
        if not args.no_tf:
            rows += [("TensorFlow session.run, inter-op %d" % t, t),
                     ("TensorFlow session.run, inter-op 1", 1)]
        samples = {label: [] for label, _ in rows}
        for r in range(args.rounds):
            for label, how in rows:
                if isinstance(how, int):
                    medians = [tf_step(d, t, how, steps)]
                else:
                    medians = program_steps(how)
                # Side by side, a step is the slowest copy's: when all of
                # them have made one.
                rate = sum(batch / m for m in medians)
                samples[label].append((max(medians), rate))
                print("round %d: %s: %.4g ms, %.4g samples/s"
                      % (r + 1, label, max(medians) * 1e3, rate),
                      file=sys.stderr, flush=True)

    print()
    print("| configuration | step (ms) | samples/s |")
    print("|---|---:|---:|")
    rate = {}
    for label, _ in rows:
        rate[label] = statistics.median(s for _, s in samples[label])
        step = statistics.median(m for m, _ in samples[label])
        print("| %s | %.4g | %.4g |" % (label, step * 1e3, rate[label]))
    labels = [label for label, _ in rows]
    print()
    print("tfc, %d threads over 1: %.2fx (%d would be perfect)"
          % (t, rate[labels[0]] / rate[labels[1]], t))
    print("tfc, %d side by side over %d threads: %.2fx (above 1, independent work on separate "
          "cores would pay)" % (t, t, rate[labels[2]] / rate[labels[0]]))
    if not args.no_tf:
        print("TensorFlow, inter-op %d over 1: %.2fx (what running nodes at once gives it here)"
              % (t, rate[labels[3]] / rate[labels[4]]))


if __name__ == "__main__":
    main()
