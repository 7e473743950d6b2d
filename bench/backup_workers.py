#!/usr/bin/env python3
"""OSDI Figure 8 in miniature: synchronous replicas with backup workers
against a straggler, tfc and TensorFlow 2.21's distributed runtime side by
side, in one run, on loopback.

    python bench/backup_workers.py [--tfc build/bin/tfc] [--aggregate 2]
                                   [--backups 0,1,2] [--steps 100]
                                   [--rounds 3] [--slow 0.8] [--batch 64]
                                   [--plot FILE.svg] [--work DIR]

The model and the clients are bench/ps_train.py's (an MLP under
SyncReplicasOptimizer, replica_device_setter over one ps task, no initial
tokens: every step waits for the update its gradient may join). It takes R
(--aggregate) gradients per update from R + b workers, for b of --backups.
The last worker straggles, the same way in both systems: the benchmark
stops its process (SIGSTOP) for --slow of every 25 ms (0.8: it runs at a
fifth of its speed); for TensorFlow that is the worker's server, where its
steps run. The figure is the chief's median step time, which in such
lockstep training is the time of one update: with no backup worker every
update waits for the straggler; with one, the first R gradients make it
and the straggler's come too late and are dropped (OSDI §4.4).

Prints the processor, then a markdown table of the medians over --rounds
rounds (alternating tfc and TensorFlow, fresh processes each round): step
times, each system's speedup over its own b = 0, and tfc's ratio to
TensorFlow. --plot writes the step times against b as an SVG line chart.
All the processes share the machine's cores: on a 2-core machine the
figures show the effect of a straggler and the systems' overheads, not
scaling, and move by 30% from run to run.

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from cluster import free_ports, stop, tf_servers  # noqa: E402  (this directory's)
import machine  # noqa: E402
import ps_train  # noqa: E402

PERIOD = 0.025  # seconds: one stop and run of the straggler


class Straggler(threading.Thread):
    """Stops process `pid` for `fraction` of every PERIOD until stop()."""

    def __init__(self, pid, fraction):
        super().__init__(daemon=True)
        self.pid, self.fraction = pid, fraction
        self.done = threading.Event()

    def run(self):
        try:
            while not self.done.is_set():
                os.kill(self.pid, signal.SIGSTOP)
                time.sleep(self.fraction * PERIOD)
                os.kill(self.pid, signal.SIGCONT)
                self.done.wait((1 - self.fraction) * PERIOD)
        except ProcessLookupError:
            pass

    def stop(self):
        self.done.set()
        self.join()
        try:
            os.kill(self.pid, signal.SIGCONT)
        except ProcessLookupError:
            pass


def time_tfc(program, workers, steps, work, slow):
    """The chief's median step time, in seconds: the tasks started here,
    the chief timing its steps (--bench), the other workers training until
    the chief's end ends their input."""
    ports = free_ports(workers + 1)
    cluster = os.path.join(work, "cluster-%d.json" % workers)
    with open(cluster, "w") as f:
        json.dump({"worker": ["127.0.0.1:%d" % p for p in ports[:workers]],
                   "ps": ["127.0.0.1:%d" % ports[workers]]}, f)

    def start(task, flags):
        return subprocess.Popen(
            [os.path.join(program, task), "--cluster", cluster,
             "--connect-timeout", "60"] + flags,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def inputs(k):
        return ["--input", "x:0=%s/x-%d.npy" % (work, k),
                "--input", "labels:0=%s/labels-%d.npy" % (work, k)]
    tasks = [start("ps-0", [])]
    tasks += [start("worker-%d" % k, inputs(k) + ["--steps", "1000000"])
              for k in range(workers - 1, 0, -1)]
    straggler = Straggler(tasks[1].pid, slow)
    straggler.start()
    try:
        chief = start("worker-0", inputs(0) + ["--steps", "1", "--bench", str(steps)])
        tasks.append(chief)
        out, _ = chief.communicate(timeout=900)
    finally:
        straggler.stop()
        for task in tasks:
            if task.poll() is None:
                try:
                    task.wait(30)
                except subprocess.TimeoutExpired:
                    task.kill()
                    task.wait()
    found = re.search(r"bench: .*median ([0-9.]+) us", out)
    if chief.returncode != 0 or not found:
        sys.exit("tfc's chief failed: " + out)
    return float(found.group(1)) * 1e-6


def time_tf(workers, aggregate, batch, steps, work, slow):
    """The chief's median step time, in seconds, with TensorFlow's servers
    and one client process per worker (ps_train.py's)."""
    ready = os.path.join(work, "tf-ready")
    if os.path.exists(ready):
        os.remove(ready)
    cluster, processes = tf_servers(workers, 1)
    straggler = Straggler(processes[-1].pid, slow)
    try:
        clients = [subprocess.Popen(
            [sys.executable, "-c", ps_train.CLIENT,
             "grpc://" + cluster["worker"][k], str(k), str(batch), str(steps),
             ready, str(aggregate), str(workers)],
            stdout=subprocess.PIPE, text=True) for k in range(workers)]
        processes += clients
        # Slowed once the servers listen (a stopped server still accepts).
        straggler.start()
        # Only the chief's steps are timed: the others may wait for tokens
        # that never come once it is done (as TensorFlow's would).
        out, _ = clients[0].communicate(timeout=900)
        if clients[0].returncode != 0:
            sys.exit("TensorFlow's chief client failed")
        return float(out.strip().splitlines()[-1])
    finally:
        straggler.stop()
        stop(processes)


def write_plot(path, backups, series, title):
    """An SVG line chart of step time (ms) against backup workers, one line
    per system."""
    width, height, left, bottom, top, right = 480, 300, 60, 50, 40, 130
    top_value = max(max(values) for values in series.values()) * 1.15
    def x(b):
        span = max(backups) - min(backups) or 1
        return left + (width - left - right) * (b - min(backups)) / span
    def y(value):
        return height - bottom - (height - bottom - top) * value / top_value
    colors = ["#1f77b4", "#d62728"]
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif" font-size="12">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="20" font-size="14">%s</text>' % (left, title)]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
        left, height - bottom, width - right, height - bottom))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (
        left, top, left, height - bottom))
    for b in backups:
        out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (
            x(b), height - bottom + 16, b))
    out.append('<text x="%.1f" y="%d" text-anchor="middle">backup workers</text>'
               % ((left + width - right) / 2, height - 12))
    for i in range(5):
        value = top_value * i / 4
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>' % (
            left - 6, y(value) + 4, value))
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (
            left, y(value), width - right, y(value)))
    out.append('<text x="16" y="%.1f" transform="rotate(-90 16 %.1f)" '
               'text-anchor="middle">step time (ms)</text>' % (
                   (top + height - bottom) / 2, (top + height - bottom) / 2))
    for i, (name, values) in enumerate(series.items()):
        points = " ".join("%.1f,%.1f" % (x(b), y(v)) for b, v in zip(backups, values))
        out.append('<polyline points="%s" fill="none" stroke="%s" '
                   'stroke-width="2"/>' % (points, colors[i % 2]))
        for b, v in zip(backups, values):
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (
                x(b), y(v), colors[i % 2]))
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (
            width - right + 10, top + 20 + 18 * i, colors[i % 2], name))
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", default="build/bin/tfc")
    parser.add_argument("--aggregate", type=int, default=2)
    parser.add_argument("--backups", default="0,1,2")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slow", type=float, default=0.8,
                        help="the fraction of each 25 ms the straggler is stopped")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--plot", help="an SVG chart of the step times")
    parser.add_argument("--work")
    args = parser.parse_args()
    if not 0 < args.slow < 1:
        sys.exit("--slow: a fraction between 0 and 1")
    import numpy as np
    import tensorflow as tf

    backups = [int(b) for b in args.backups.split(",")]
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="tfc-bench-backup-"))
    os.makedirs(work, exist_ok=True)
    tfc = os.path.abspath(args.tfc)
    scope = {}
    exec(ps_train.BUILD, scope)
    most = args.aggregate + max(backups)
    for k in range(most):
        rng = np.random.default_rng(k)
        np.save(os.path.join(work, "x-%d.npy" % k),
                rng.standard_normal((args.batch, ps_train.INPUTS)).astype(np.float32))
        np.save(os.path.join(work, "labels-%d.npy" % k),
                rng.integers(0, ps_train.CLASSES, args.batch).astype(np.int32))
    programs = {}
    for b in backups:
        workers = args.aggregate + b
        graph = scope["build"](tf, 0, args.batch, args.aggregate, workers)
        path = os.path.join(work, "worker0-%d.pbtxt" % workers)
        with open(path, "w") as f:
            f.write(str(graph.as_graph_def()))
        programs[b] = os.path.join(work, "tfc-job-%d" % workers)
        subprocess.run([tfc, "compile", path, "--feed", "x", "--feed", "labels",
                        "--fetch", "loss", "--target", "train_op", "--init", "init",
                        "--cluster", "worker=%d,ps=1" % workers,
                        "-o", programs[b]], check=True)
    ours = {b: [] for b in backups}
    theirs = {b: [] for b in backups}
    for _ in range(args.rounds):
        for b in backups:
            workers = args.aggregate + b
            ours[b].append(time_tfc(programs[b], workers, args.steps, work,
                                    args.slow))
            theirs[b].append(time_tf(workers, args.aggregate, args.batch,
                                     args.steps, work, args.slow))
    mine = [statistics.median(ours[b]) for b in backups]
    tf_steps = [statistics.median(theirs[b]) for b in backups]

    print(machine.line(os.cpu_count() or 1))
    print("SyncReplicasOptimizer, %d gradients per update; the last worker "
          "stopped %d%% of the time; chief's median step, %d rounds" % (
              args.aggregate, round(args.slow * 100), args.rounds))
    print()
    print("| backup workers | workers | tfc step | TensorFlow step | "
          "tfc speedup over b=0 | TensorFlow speedup over b=0 | tfc / TensorFlow |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for i, b in enumerate(backups):
        print("| %d | %d | %.2f ms | %.2f ms | %.2fx | %.2fx | %.2fx |" % (
            b, args.aggregate + b, mine[i] * 1e3, tf_steps[i] * 1e3,
            mine[0] / mine[i], tf_steps[0] / tf_steps[i], tf_steps[i] / mine[i]))
    if args.plot:
        write_plot(args.plot, backups,
                   {"tfc": [m * 1e3 for m in mine],
                    "TensorFlow": [t * 1e3 for t in tf_steps]},
                   "Sync replicas, %d of n, one straggler" % args.aggregate)
        print()
        print("plot: " + args.plot)


if __name__ == "__main__":
    main()
