#!/usr/bin/env python3
"""Latency of a Keras MLP at batch 1: tfc's compiled program against
TensorFlow 2.21, in one run on the same machine and thread count.

The model (784-256-128-10, ReLU, softmax; fixed seed) is built with Keras,
frozen to a GraphDef at batch 1, compiled with `tfc compile`, and timed:
  * tfc: the program's own `--bench N` (median and p90 of N steps after
    warm-up, measured inside the program);
  * TensorFlow: `session.run` on the frozen graph, and the concrete
    function of the Keras model (eager call), median and p90 of N calls
    after warm-up, measured around each call.
The outputs of the compiled program are checked against TensorFlow's first.

Usage: python bench/mlp_latency.py [--tfc build/bin/tfc] [--runs 2000] [--threads 1]
(needs tensorflow-cpu==2.21.0 and numpy). Prints a markdown table.
"""

import argparse
import os
import re
import subprocess
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)


def percentiles(samples_us):
    samples = np.sort(np.asarray(samples_us))
    return (float(np.percentile(samples, 50)), float(np.percentile(samples, 90)))


def parse_args(runs):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfc", default=os.path.join(root, "build/bin/tfc"))
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(args.threads)
    return args


def measure(args, graph_def, feed, fetch, fn, x, rtol, atol):
    """Compiles the frozen graph with tfc, checks its output against `fn`'s
    (rtol, atol), then times the program (--bench), TensorFlow's
    session.run on the graph and `fn`. Returns the compile time (s), the
    program size (KiB) and the (median, p90) of each runner, in us."""
    with tempfile.TemporaryDirectory() as work:
        pb = os.path.join(work, "model.pb")
        with open(pb, "wb") as f:
            f.write(graph_def.SerializeToString())
        np.save(os.path.join(work, "x.npy"), x)
        program = os.path.join(work, "model")
        start = time.perf_counter()
        subprocess.run([args.tfc, "compile", pb, "--feed", feed.split(":")[0],
                        "--fetch", fetch, "-o", program], check=True)
        compile_s = time.perf_counter() - start

        # Correctness first.
        out = os.path.join(work, "y.npy")
        subprocess.run([program, "--input", "%s=%s" % (feed, os.path.join(work, "x.npy")),
                        "--output", "%s=%s" % (fetch, out)], check=True)
        want = fn(tf.constant(x)).numpy()
        got = np.load(out)
        assert np.allclose(got, want, rtol=rtol, atol=atol), (got, want)

        # tfc: the program's own measurement.
        text = subprocess.run(
            [program, "--input", "%s=%s" % (feed, os.path.join(work, "x.npy")),
             "--threads", str(args.threads), "--bench", str(args.runs)],
            check=True, capture_output=True, text=True).stdout
        m = re.search(r"median ([0-9.]+) us, p90 ([0-9.]+) us", text)
        tfc_median, tfc_p90 = float(m.group(1)), float(m.group(2))
        size_kb = os.path.getsize(program) / 1024

    # TensorFlow: session.run on the frozen graph.
    g = tf.Graph()
    with g.as_default():
        tf.compat.v1.import_graph_def(graph_def, name="")
    config = tf.compat.v1.ConfigProto(
        intra_op_parallelism_threads=args.threads,
        inter_op_parallelism_threads=args.threads)
    with tf.compat.v1.Session(graph=g, config=config) as sess:
        for _ in range(min(args.runs, 200)):
            sess.run(fetch, {feed: x})
        samples = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            sess.run(fetch, {feed: x})
            samples.append((time.perf_counter() - t0) * 1e6)
    session_median, session_p90 = percentiles(samples)

    # TensorFlow: the concrete function.
    xt = tf.constant(x)
    for _ in range(min(args.runs, 200)):
        fn(xt)
    samples = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        fn(xt)
        samples.append((time.perf_counter() - t0) * 1e6)
    eager_median, eager_p90 = percentiles(samples)

    return compile_s, size_kb, ((tfc_median, tfc_p90), (session_median, session_p90),
                                (eager_median, eager_p90))


def print_table(title, compile_s, size_kb, timings):
    print("%s; tfc compile %.2f s, program %.0f KiB" % (title, compile_s, size_kb))
    print()
    print("| runner | median (us) | p90 (us) | tfc speedup (median) |")
    print("|---|---:|---:|---:|")
    names = ("tfc program", "TF session.run (frozen graph)", "TF concrete function")
    for name, (median, p90) in zip(names, timings):
        print("| %s | %.1f | %.1f | %.1fx |" % (name, median, p90,
                                               median / timings[0][0]))


def main():
    args = parse_args(2000)
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([
        tf.keras.Input((784,), batch_size=1, name="x"),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(128, activation="relu"),
        tf.keras.layers.Dense(10, activation="softmax"),
    ])
    fn = tf.function(lambda x: model(x)).get_concrete_function(
        tf.TensorSpec([1, 784], tf.float32, name="x"))
    frozen = convert_variables_to_constants_v2(fn)
    graph_def = frozen.graph.as_graph_def()
    feed = frozen.inputs[0].name
    fetch = frozen.outputs[0].name
    x = np.random.default_rng(1).standard_normal((1, 784)).astype(np.float32)
    compile_s, size_kb, timings = measure(args, graph_def, feed, fetch, fn, x,
                                          1e-5, 1e-6)
    print_table("MLP 784-256-128-10, batch 1, %d thread(s), %d runs"
                % (args.threads, args.runs), compile_s, size_kb, timings)


if __name__ == "__main__":
    main()
