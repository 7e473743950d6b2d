#!/usr/bin/env python3
"""Keras RNN training step time, tfc against TensorFlow 2.21, in one run.

    python bench/rnn_train.py [--layers lstm,gru] [--batch 16] [--seq 20]
                              [--units 64] [--threads 2] [--rounds 3]
                              [--tfc build/bin/tfc] [--work DIR]

For each layer: a Keras model (the layer over sequences of `--seq` steps
of 32 features, its last output into Dense 10; fixed seed) and a Keras SGD
in a tf.function train step (sparse softmax cross entropy), exported as
the SavedModel signature `train_step`, as the corpus's train_lstm. Its
gradient is a second While loop that pops the forward loop's TensorList
accumulators.
  1. `tfc compile --signature train_step`, and check that the program's
     second loss (after one update) matches TensorFlow's (rtol 1e-4);
  2. `--rounds` times, alternating, each in its own process: the program
     (`--bench N`: N training steps after warm-up, timed inside it) and
     the loaded SavedModel's train_step signature called from Python (the
     concrete function Keras' fit would call), same threads (intra and
     inter op), median step time of N steps;
  3. print a markdown table: median over rounds of each median, and
     tfc's speedup.
Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import machine  # noqa: E402

from train import add_common_arguments, alternate

FEATURES, CLASSES, STEPS = 32, 10, 200


def build(directory, layer, args):
    """Writes saved_model/, x.npy, labels.npy and want.npy (TensorFlow's
    second loss)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    import keras
    keras.utils.set_random_seed(11)
    make = {"lstm": keras.layers.LSTM, "gru": keras.layers.GRU,
            "simple_rnn": keras.layers.SimpleRNN}[layer]
    model = keras.Sequential([keras.Input((args.seq, FEATURES)), make(args.units),
                              keras.layers.Dense(CLASSES)])
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = keras.optimizers.SGD(0.01)
    opt.build(model.trainable_variables)
    module = tf.Module()
    module.model, module.opt = model, opt

    @tf.function(input_signature=[
        tf.TensorSpec([args.batch, args.seq, FEATURES], tf.float32, name="x"),
        tf.TensorSpec([args.batch], tf.int32, name="labels")])
    def train_step(x, labels):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return {"loss": loss}

    module.train_step = train_step
    tf.saved_model.save(module, os.path.join(directory, "saved_model"),
                        signatures={"train_step": train_step.get_concrete_function()})
    rng = np.random.default_rng(3)
    x = rng.standard_normal((args.batch, args.seq, FEATURES)).astype(np.float32)
    labels = rng.integers(0, CLASSES, args.batch).astype(np.int32)
    np.save(os.path.join(directory, "x.npy"), x)
    np.save(os.path.join(directory, "labels.npy"), labels)
    # The loss of the second step, after one update: it checks the
    # gradient too.
    step = tf.saved_model.load(os.path.join(directory, "saved_model")).signatures["train_step"]
    step(x=tf.constant(x), labels=tf.constant(labels))
    want = step(x=tf.constant(x), labels=tf.constant(labels))
    np.save(os.path.join(directory, "want.npy"), want["loss"].numpy())


def worker(args):
    """TensorFlow's median training step, in this process."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(args.threads)
    step = tf.saved_model.load(os.path.join(args.dir, "saved_model")).signatures["train_step"]
    x = tf.constant(np.load(os.path.join(args.dir, "x.npy")))
    labels = tf.constant(np.load(os.path.join(args.dir, "labels.npy")))
    for _ in range(10):
        step(x=x, labels=labels)["loss"].numpy()
    samples = []
    for _ in range(args.steps):
        start = time.perf_counter()
        step(x=x, labels=labels)["loss"].numpy()
        samples.append(time.perf_counter() - start)
    print(json.dumps({"median_s": float(np.median(samples))}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="lstm,gru")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seq", type=int, default=20)
    parser.add_argument("--units", type=int, default=64)
    add_common_arguments(parser, STEPS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    work = args.work or tempfile.mkdtemp(prefix="tfc-rnn-train-bench-")
    rows = []
    for layer in args.layers.split(","):
        directory = os.path.join(work, layer)
        os.makedirs(directory, exist_ok=True)
        # (In a process of its own: the worker sets threads before any op.)
        subprocess.run([sys.executable, "-c",
                        "import sys; sys.path.insert(0, %r); import rnn_train, argparse; "
                        "rnn_train.build(%r, %r, argparse.Namespace(batch=%d, seq=%d, units=%d))"
                        % (os.path.dirname(os.path.abspath(__file__)), directory, layer,
                           args.batch, args.seq, args.units)], check=True)
        program = os.path.join(directory, "train")
        subprocess.run([args.tfc, "compile", os.path.join(directory, "saved_model"),
                        "--signature", "train_step", "-o", program], check=True)
        inputs = ["--input", "train_step_x:0=" + os.path.join(directory, "x.npy"),
                  "--input", "train_step_labels:0=" + os.path.join(directory, "labels.npy"),
                  "--threads", str(args.threads)]
        got = os.path.join(directory, "got.npy")
        subprocess.run([program] + inputs + ["--steps", "2", "--output",
                                             "StatefulPartitionedCall:0=" + got], check=True)
        import numpy as np
        want, have = float(np.load(os.path.join(directory, "want.npy"))), float(np.load(got))
        if abs(want - have) > 1e-4 * abs(want) + 1e-6:
            sys.exit("%s: tfc's second loss %g, TensorFlow's %g" % (layer, have, want))
        ours, theirs = alternate(
            program, inputs,
            [sys.executable, __file__, "--worker", "--dir", directory,
             "--threads", str(args.threads), "--steps", str(args.steps)],
            args.steps, args.rounds)
        rows.append((layer, ours, theirs))
    print(machine.line(args.threads))
    print()
    print("| %d units, seq %d x %d, batch %d, %d threads | tfc step | TensorFlow step | speedup |"
          % (args.units, args.seq, FEATURES, args.batch, args.threads))
    print("|---|---|---|---|")
    for layer, ours, theirs in rows:
        print("| %s | %.1f us | %.1f us | %.2fx |" % (layer, ours * 1e6, theirs * 1e6,
                                                     theirs / ours))


if __name__ == "__main__":
    main()
