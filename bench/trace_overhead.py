#!/usr/bin/env python3
"""What tracing costs: tfc's trace points and --trace against TensorFlow's
RunOptions trace levels, in one run.

    python bench/trace_overhead.py [--models mlp,cnn,resnet_block,transformer_block,lstm]
                                   [--rounds 3] [--threads 1] [--tfc build/bin/tfc]

For each model of the test corpus (its committed frozen graph and input):
  1. compile it twice: with the trace points every program has, and with
     --no-trace-points (none: the code a program without them would run);
  2. `--rounds` times, alternating, each in its own process: the program
     without points, the program with points but not tracing, the same
     with --trace (recording every node), TensorFlow's session.run of the
     frozen graph with RunOptions NO_TRACE and with FULL_TRACE (its step
     stats, what its timeline is made from); each reports its median step
     over N steps after warm-up;
  3. print a markdown table: the median over rounds of each, and the
     ratios that matter: points not tracing over no points (what a program
     pays for being traceable; also from the best round of each, which a
     shared machine's noise disturbs least), tracing over not tracing,
     TensorFlow's FULL_TRACE over its NO_TRACE.

Programs report their median to the hundredth of a microsecond (their
--bench line); TensorFlow's is timed around session.run. Needs
tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import machine  # noqa: E402
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "test", "corpus")
STEPS = {"mlp": 20000, "cnn": 5000, "resnet_block": 500,
         "transformer_block": 2000, "lstm": 5000, "mobilenet_block": 2000}


def feed_and_fetch(model):
    manifest = json.load(open(os.path.join(CORPUS, model, "manifest.json")))
    (feed,) = manifest["feeds"]
    (fetch,) = manifest["fetches"]
    return feed, fetch["tensor"]


def program_median(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median ([0-9.]+) us", out).group(1))


def tf_worker(args):
    """One TensorFlow measurement in this process (see --tf-worker)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    feed, fetch = feed_and_fetch(args.model)
    import models
    session, _ = models.frozen_session(os.path.join(CORPUS, args.model, "frozen.pb"),
                                       args.threads)
    feeds = {feed["tensor"]: np.load(os.path.join(CORPUS, args.model, feed["npy"]))}
    level = getattr(tf.compat.v1.RunOptions, args.tf_worker)
    options = tf.compat.v1.RunOptions(trace_level=level)
    metadata = tf.compat.v1.RunMetadata()
    step = lambda: session.run(fetch, feeds, options=options, run_metadata=metadata)  # noqa: E731
    for _ in range(max(3, args.steps // 10)):
        step()
    samples = []
    for _ in range(args.steps):
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
    print(json.dumps({"median_us": statistics.median(samples) * 1e6}))


def tf_median(model, level, steps, threads):
    out = subprocess.run(
        [sys.executable, __file__, "--tf-worker", level, "--model", model,
         "--steps", str(steps), "--threads", str(threads)],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["median_us"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="mlp,cnn,resnet_block,transformer_block,lstm")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--tfc", default=os.path.join(ROOT, "build", "bin", "tfc"))
    parser.add_argument("--tf-worker")
    parser.add_argument("--model")
    parser.add_argument("--steps", type=int)
    args = parser.parse_args()
    if args.tf_worker:
        return tf_worker(args)

    print(machine.line(args.threads))
    work = tempfile.mkdtemp(prefix="trace-overhead-")
    rows = []
    for model in args.models.split(","):
        feed, fetch = feed_and_fetch(model)
        name = lambda t: t[:-2] if t.endswith(":0") else t  # noqa: E731
        programs = {}
        for kind, flags in (("points", []), ("none", ["--no-trace-points"])):
            programs[kind] = os.path.join(work, "%s-%s" % (model, kind))
            subprocess.run([args.tfc, "compile", os.path.join(CORPUS, model, "frozen.pb"),
                            "--feed", name(feed["tensor"]), "--fetch", name(fetch),
                            "-o", programs[kind]] + flags, check=True)
        steps = STEPS.get(model, 1000)
        run = ["--input", "%s=%s" % (name(feed["tensor"]),
                                     os.path.join(CORPUS, model, feed["npy"])),
               "--bench", str(steps), "--threads", str(args.threads)]
        trace = os.path.join(work, model + ".json")
        samples = {k: [] for k in ("none", "off", "on", "tf", "tf_full")}
        for _ in range(args.rounds):
            samples["none"].append(program_median([programs["none"]] + run))
            samples["off"].append(program_median([programs["points"]] + run))
            samples["on"].append(program_median([programs["points"]] + run +
                                                ["--trace", trace, "--quiet"]))
            samples["tf"].append(tf_median(model, "NO_TRACE", steps // 10 or 1, args.threads))
            samples["tf_full"].append(tf_median(model, "FULL_TRACE", steps // 10 or 1,
                                                args.threads))
        nodes = sum(1 for e in json.load(open(trace))["traceEvents"]
                    if e.get("ph") == "X" and e.get("cat") != "Step")
        m = {k: statistics.median(v) for k, v in samples.items()}
        best = {k: min(v) for k, v in samples.items()}
        rows.append((model, nodes / (steps + min(steps, 10) + 1), m, best))
        print("%s: %s" % (model, json.dumps(samples)), file=sys.stderr)

    print("\n%d rounds, %d threads; the median over rounds of each runner's "
          "median step (us), and for tfc's programs without and with trace "
          "points (not tracing) also the best round's, which shared machines "
          "disturb least\n" % (args.rounds, args.threads))
    print("| model | nodes/step | tfc, no points | tfc, points | points/none "
          "| best: none, points | tfc --trace | trace/points | TF NO_TRACE "
          "| TF FULL_TRACE | full/none |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for model, per_step, m, best in rows:
        print("| %s | %.0f | %.2f | %.2f | %.3fx | %.2f, %.2f (%.3fx) | %.2f | %.2fx "
              "| %.1f | %.1f | %.2fx |"
              % (model, per_step, m["none"], m["off"], m["off"] / m["none"],
                 best["none"], best["off"], best["off"] / best["none"],
                 m["on"], m["on"] / m["off"], m["tf"], m["tf_full"],
                 m["tf_full"] / m["tf"]))


if __name__ == "__main__":
    main()
