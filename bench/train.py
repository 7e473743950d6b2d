#!/usr/bin/env python3
"""Training step time, tfc against TensorFlow 2.21, in one run.

    python bench/train.py [--models mlp,cnn] [--optimizers sgd,adam]
                          [--batch 64] [--threads 2] [--rounds 3]
                          [--tfc build/bin/tfc] [--work DIR]

The models are TF1 training graphs built here with fixed seeds, with
their gradients by TensorFlow's `minimize`, the optimizer's update ops
and a seeded init op:
  mlp  784-256-128-10 (ReLU, softmax cross entropy);
  cnn  32x32x3 images: Conv2D 3x3x32 + bias, FusedBatchNormV3 in training
       mode + ReLU, MaxPool 2x2, Conv2D 3x3x64 + bias + ReLU, MaxPool 2x2,
       dense 10 (softmax cross entropy).
For each model and optimizer:
  1. `tfc compile` it (feeds x, labels; fetch loss; target train_op;
     init init), and check that the program's loss after 5 steps matches
     TensorFlow's from the same init (rtol 1e-4);
  2. `--rounds` times, alternating, each in its own process: the program
     (`--bench N`: N training steps after warm-up, timed inside it) and
     TensorFlow's session.run([loss, train_op]) on the same graph, same
     threads (intra and inter op), median step time of N steps;
  3. print a markdown table: median over rounds of each median, and
     tfc's speedup.

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

STEPS = 300


def mlp(tf, tf1, batch):
    """The MLP's input shape and logits."""
    x = tf1.placeholder(tf.float32, [batch, 784], name="x")
    h = x
    for i, units in enumerate([256, 128, 10]):
        w = tf1.get_variable("w%d" % i, [h.shape[1], units],
                             initializer=tf1.glorot_uniform_initializer())
        b = tf1.get_variable("b%d" % i, [units],
                             initializer=tf1.zeros_initializer())
        h = tf.nn.bias_add(tf.matmul(h, w), b)
        if units != 10:
            h = tf.nn.relu(h)
    return (batch, 784), h


def cnn(tf, tf1, batch):
    """The CNN's input shape and logits."""
    x = tf1.placeholder(tf.float32, [batch, 32, 32, 3], name="x")
    glorot = tf1.glorot_uniform_initializer

    def conv(h, name, channels):
        k = tf1.get_variable(name + "/kernel", [3, 3, h.shape[3], channels],
                             initializer=glorot())
        b = tf1.get_variable(name + "/bias", [channels],
                             initializer=tf1.zeros_initializer())
        return tf.nn.bias_add(tf.nn.conv2d(h, k, 1, "SAME"), b)
    h = conv(x, "conv1", 32)
    gamma = tf1.get_variable("bn/gamma", [32], initializer=tf1.ones_initializer())
    beta = tf1.get_variable("bn/beta", [32], initializer=tf1.zeros_initializer())
    h, _, _ = tf1.nn.fused_batch_norm(h, gamma, beta, is_training=True)
    h = tf.nn.max_pool2d(tf.nn.relu(h), 2, 2, "VALID")
    h = tf.nn.max_pool2d(tf.nn.relu(conv(h, "conv2", 64)), 2, 2, "VALID")
    h = tf.reshape(h, [batch, 8 * 8 * 64])
    w = tf1.get_variable("dense/kernel", [8 * 8 * 64, 10], initializer=glorot())
    b = tf1.get_variable("dense/bias", [10], initializer=tf1.zeros_initializer())
    return (batch, 32, 32, 3), tf.nn.bias_add(tf.matmul(h, w), b)


def build(directory, model, optimizer, batch):
    """Writes graph.pbtxt, x.npy, labels.npy and want.npy (TensorFlow's
    loss at step 6: init, 5 training steps, then the loss)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    tf1 = tf.compat.v1
    rng = np.random.default_rng(7)
    graph = tf.Graph()
    with graph.as_default():
        tf1.set_random_seed(7)
        labels = tf1.placeholder(tf.int32, [batch], name="labels")
        shape, h = {"mlp": mlp, "cnn": cnn}[model](tf, tf1, batch)
        loss = tf.identity(tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=h)),
            name="loss")
        make = {"sgd": lambda: tf1.train.GradientDescentOptimizer(0.05),
                "momentum": lambda: tf1.train.MomentumOptimizer(0.05, 0.9),
                "adam": lambda: tf1.train.AdamOptimizer(1e-3)}[optimizer]
        make().minimize(loss, name="train_op")
        tf1.variables_initializer(tf1.global_variables(), name="init")
    xs = rng.standard_normal(shape).astype(np.float32)
    ys = rng.integers(0, 10, batch).astype(np.int32)
    np.save(os.path.join(directory, "x.npy"), xs)
    np.save(os.path.join(directory, "labels.npy"), ys)
    with tf1.Session(graph=graph) as sess:
        sess.run("init")
        for _ in range(5):
            sess.run("train_op", {"x:0": xs, "labels:0": ys})
        np.save(os.path.join(directory, "want.npy"),
                sess.run("loss:0", {"x:0": xs, "labels:0": ys}))
    tf.io.write_graph(graph.as_graph_def(), directory, "graph.pbtxt")


def worker(args):
    """TensorFlow's median training step, in this process."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    from google.protobuf import text_format
    tf1 = tf.compat.v1
    graph_def = tf1.GraphDef()
    text_format.Parse(open(os.path.join(args.dir, "graph.pbtxt")).read(), graph_def)
    graph = tf.Graph()
    with graph.as_default():
        tf1.import_graph_def(graph_def, name="")
    config = tf1.ConfigProto(intra_op_parallelism_threads=args.threads,
                             inter_op_parallelism_threads=args.threads)
    sess = tf1.Session(graph=graph, config=config)
    sess.run("init")
    feeds = {"x:0": np.load(os.path.join(args.dir, "x.npy")),
             "labels:0": np.load(os.path.join(args.dir, "labels.npy"))}
    for _ in range(10):
        sess.run(["loss:0", "train_op"], feeds)
    samples = []
    for _ in range(args.steps):
        start = time.perf_counter()
        sess.run(["loss:0", "train_op"], feeds)
        samples.append(time.perf_counter() - start)
    print(json.dumps({"median_s": float(np.median(samples))}))


def median(values):
    values = sorted(values)
    return values[len(values) // 2]


def alternate(program, inputs, worker, steps, rounds, env=None):
    """`rounds` times, alternating, each in its own process: the program's
    `--bench steps` (its median step, printed; run with env) and the
    `worker` command (which prints {"median_s": ...} last); the median over
    rounds of each, in seconds."""
    tfc_times, tf_times = [], []
    for _ in range(rounds):
        out = subprocess.run([program] + inputs + ["--bench", str(steps)],
                             check=True, capture_output=True, text=True, env=env).stdout
        tfc_times.append(float(re.search(r"median ([0-9.]+) us", out).group(1)) * 1e-6)
        out = subprocess.run(worker, check=True, capture_output=True, text=True).stdout
        tf_times.append(json.loads(out.strip().splitlines()[-1])["median_s"])
    return median(tfc_times), median(tf_times)


def add_common_arguments(parser, steps):
    """The options of a training benchmark that alternates the program and
    a TensorFlow worker (this script, rnn_train.py)."""
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tfc", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "build/bin/tfc"))
    parser.add_argument("--work")
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--dir")
    parser.add_argument("--steps", type=int, default=steps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mlp,cnn")
    parser.add_argument("--optimizers", default="sgd,adam")
    parser.add_argument("--batch", type=int, default=64)
    add_common_arguments(parser, STEPS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    work = args.work or tempfile.mkdtemp(prefix="tfc-train-bench-")
    rows = []
    for model, optimizer in [(m, o) for m in args.models.split(",")
                             for o in args.optimizers.split(",")]:
        directory = os.path.join(work, model + "-" + optimizer)
        os.makedirs(directory, exist_ok=True)
        build(directory, model, optimizer, args.batch)
        program = os.path.join(directory, "train")
        compile_program(args.tfc, directory, program)
        rows.append((model, optimizer)
                    + time_program(directory, program, args.threads, args.steps, args.rounds))
    print_table(rows, args.batch, args.threads)


def compile_program(tfc, directory, program, target_cpu=None):
    """`tfc compile`s the training graph that build() wrote."""
    subprocess.run([tfc, "compile", os.path.join(directory, "graph.pbtxt"),
                    "-o", program, "--feed", "x", "--feed", "labels",
                    "--fetch", "loss", "--target", "train_op", "--init", "init"]
                   + (["--target-cpu", target_cpu] if target_cpu else []), check=True)


def time_program(directory, program, threads, steps, rounds, env=None):
    """Checks the program's loss after 5 steps against TensorFlow's (exits
    when they differ), then alternates it (run with env) with TensorFlow's
    worker: the median step of each, in seconds."""
    inputs = ["--input", "x=" + os.path.join(directory, "x.npy"),
              "--input", "labels=" + os.path.join(directory, "labels.npy"),
              "--threads", str(threads)]
    got = os.path.join(directory, "got.npy")
    subprocess.run([program] + inputs + ["--steps", "6", "--output", "loss=" + got],
                   check=True, env=env)
    import numpy as np
    want, have = float(np.load(os.path.join(directory, "want.npy"))), float(np.load(got))
    if abs(want - have) > 1e-4 * abs(want) + 1e-6:
        sys.exit("%s: tfc's loss after 5 steps %g, TensorFlow's %g"
                 % (os.path.basename(directory), have, want))
    return alternate(
        program, inputs,
        [sys.executable, os.path.abspath(__file__), "--worker", "--dir", directory,
         "--threads", str(threads), "--steps", str(steps)],
        steps, rounds, env)


def print_table(rows, batch, threads):
    """The markdown table of (model, optimizer, tfc step, TensorFlow step)."""
    print(machine.line(threads))
    print()
    print("| batch %d, %d threads | optimizer | tfc step | TensorFlow step | speedup |"
          % (batch, threads))
    print("|---|---|---|---|---|")
    for model, optimizer, ours, theirs in rows:
        print("| %s | %s | %.1f us | %.1f us | %.2fx |" % (
            model, optimizer, ours * 1e6, theirs * 1e6, theirs / ours))


if __name__ == "__main__":
    main()
