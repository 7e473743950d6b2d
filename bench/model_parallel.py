#!/usr/bin/env python3
"""Model parallelism (white paper §4.4): a two-layer LSTM with a layer per
task, trained by SGD, tfc against TensorFlow 2.21's distributed runtime,
side by side in one run, on loopback.

    python bench/model_parallel.py [--tfc build/bin/tfc] [--units 256]
                                   [--batch 32] [--steps 20] [--bench 30]
                                   [--rounds 3] [--work DIR]

The graph, built here with TensorFlow's TF1 API: a while_loop over
--steps time steps (TensorArrays, as dynamic_rnn builds it), layer 1 on
/job:worker/task:0 and layer 2 on /job:worker/task:1, the loss against a
target, plain SGD with the gradients colocated with their forward ops, so
that the forward and the gradient loops both run on the two tasks, each
iteration's states crossing between them.
  * tfc: `tfc compile --cluster worker=2` (in-graph: one executable per
    task) and `tfc run-cluster --bench N`: the chief's median training
    step after warm-up.
  * TensorFlow: a `tf.distribute.Server` per task and a
    `tf.compat.v1.Session` on task 0 running the train op N times after
    warm-up (median).
Prints the processor, the medians over --rounds rounds (alternating, fresh
processes each round) and the ratio. The two tasks share the machine's
cores. Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import os
import statistics
import subprocess
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from cluster import median_seconds, stop, tf_servers, tfc_bench_medians  # noqa: E402  (this directory's)
import machine  # noqa: E402

FIRST, SECOND = "/job:worker/task:0", "/job:worker/task:1"


def build(tf, np, units, batch, steps, features):
    """The graph and its feeds (x, target), fixed seeds."""
    tf1 = tf.compat.v1
    from tensorflow.python.ops import control_flow_util
    control_flow_util.ENABLE_CONTROL_FLOW_V2 = False
    rng = np.random.default_rng(3)
    graph = tf.Graph()
    with graph.as_default():
        with tf1.device(FIRST):
            x = tf1.placeholder(tf.float32, [steps, batch, features], name="x")
            target = tf1.placeholder(tf.float32, [steps, batch, units], name="target")
            inputs = tf1.TensorArray(tf.float32, size=steps).unstack(x)
            outputs = tf1.TensorArray(tf.float32, size=steps)

        def weights(layer, fan_in):
            scale = 1 / np.sqrt(fan_in + units)
            w = (rng.standard_normal((fan_in + units, 4 * units)) * scale).astype(np.float32)
            return (tf1.get_variable(layer + "/kernel", initializer=w, use_resource=True),
                    tf1.get_variable(layer + "/bias", initializer=np.zeros(4 * units, np.float32),
                                     use_resource=True))

        with tf1.device(FIRST):
            layer1 = weights("layer1", features)
        with tf1.device(SECOND):
            layer2 = weights("layer2", units)

        def cell(params, inp, h, c):
            kernel, bias = params
            fan_in = int(inp.shape[1])
            z = tf.matmul(inp, kernel[:fan_in]) + tf.matmul(h, kernel[fan_in:]) + bias
            i, j, f, o = tf.split(z, 4, axis=1)
            c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(j)
            return tf.sigmoid(o) * tf.tanh(c), c

        def body(t, h1, c1, h2, c2, out):
            with tf1.device(FIRST):
                h1, c1 = cell(layer1, inputs.read(t), h1, c1)
            with tf1.device(SECOND):
                h2, c2 = cell(layer2, h1, h2, c2)
            with tf1.device(FIRST):
                return t + 1, h1, c1, h2, c2, out.write(t, h2)

        zeros = tf.zeros([batch, units])
        with tf1.device(FIRST):
            loop = tf1.while_loop(lambda t, *_: t < steps, body,
                                  [tf.constant(0), zeros, zeros, zeros, zeros, outputs])
            loss = tf.reduce_mean(tf.square(loop[5].stack() - target), name="loss")
            tf1.train.GradientDescentOptimizer(0.1).minimize(
                loss, colocate_gradients_with_ops=True, name="train")
        tf.group(tf1.global_variables_initializer(), name="init")
    feeds = {"x": rng.standard_normal((steps, batch, features)).astype(np.float32),
             "target": rng.standard_normal((steps, batch, units)).astype(np.float32)}
    return graph, feeds


def time_tf(tf, graph, feeds, bench):
    cluster, servers = tf_servers(2, 0)
    try:
        feed = {name + ":0": value for name, value in feeds.items()}
        with tf.compat.v1.Session("grpc://" + cluster["worker"][0], graph=graph) as session:
            session.run("init")
            return median_seconds(lambda: session.run("train", feed), bench)
    finally:
        stop(servers)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", default="build/bin/tfc")
    parser.add_argument("--units", type=int, default=256)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=20, help="time steps")
    parser.add_argument("--features", type=int, default=64)
    parser.add_argument("--bench", type=int, default=30, help="timed training steps")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work")
    args = parser.parse_args()
    import numpy as np
    import tensorflow as tf

    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="tfc-bench-mp-"))
    os.makedirs(work, exist_ok=True)
    tfc = os.path.abspath(args.tfc)
    graph, feeds = build(tf, np, args.units, args.batch, args.steps, args.features)
    path = os.path.join(work, "lstm.pbtxt")
    with open(path, "w") as f:
        f.write(str(graph.as_graph_def()))
    inputs = []
    for name, value in feeds.items():
        np.save(os.path.join(work, name + ".npy"), value)
        inputs += ["--input", "%s=%s" % (name, os.path.join(work, name + ".npy"))]
    program = os.path.join(work, "tfc-lstm")
    subprocess.run([tfc, "compile", path, "--cluster", "worker=2", "--feed", "x",
                    "--feed", "target", "--fetch", "loss", "--target", "train",
                    "--init", "init", "-o", program], check=True)
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(tfc_bench_medians(tfc, program, 1, args.bench, inputs)[0])
        theirs.append(time_tf(tf, graph, feeds, args.bench))
    print(machine.line(os.cpu_count() or 1))
    print()
    print("two-layer LSTM, %d units, batch %d, %d time steps, a layer per task; "
          "training step, median of %d rounds" % (args.units, args.batch, args.steps,
                                                   args.rounds))
    print()
    print("| tfc step | TensorFlow step | tfc speedup |")
    print("| --- | --- | --- |")
    ours, theirs = statistics.median(ours), statistics.median(theirs)
    print("| %.2f ms | %.2f ms | %.2fx |" % (ours * 1e3, theirs * 1e3, theirs / ours))


if __name__ == "__main__":
    main()
