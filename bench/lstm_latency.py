#!/usr/bin/env python3
"""Latency of a Keras LSTM at batch 1, sequence 50: tfc's compiled program
against TensorFlow 2.21, in one run on the same machine and thread count.

The model (LSTM of 64 units over 50 steps of 32 features, then Dense 10;
fixed seed) is built with Keras, frozen to a GraphDef at batch 1 with its
While loop and TensorLists kept (as the test corpus's LSTM), compiled with
`tfc compile`, checked against TensorFlow (rtol 1e-4, atol 1e-5) and timed
as mlp_latency.py times the MLP: the program's own `--bench N`, and
TensorFlow's `session.run` on the frozen graph and the concrete function,
around each call.

Usage: python bench/lstm_latency.py [--tfc build/bin/tfc] [--runs 1000] [--threads 1]
(needs tensorflow-cpu==2.21.0 and numpy). Prints a markdown table.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

from mlp_latency import measure, parse_args, print_table  # noqa: E402

UNITS, STEPS, FEATURES = 64, 50, 32


def main():
    args = parse_args(1000)
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([
        tf.keras.Input((STEPS, FEATURES), batch_size=1, name="x"),
        tf.keras.layers.LSTM(UNITS),
        tf.keras.layers.Dense(10),
    ])
    fn = tf.function(lambda x: model(x)).get_concrete_function(
        tf.TensorSpec([1, STEPS, FEATURES], tf.float32, name="x"))
    frozen = convert_variables_to_constants_v2(fn, lower_control_flow=False)
    graph_def = frozen.graph.as_graph_def()
    x = np.random.default_rng(1).standard_normal((1, STEPS, FEATURES)).astype(np.float32)
    compile_s, size_kb, timings = measure(
        args, graph_def, frozen.inputs[0].name, frozen.outputs[0].name, fn, x,
        1e-4, 1e-5)
    print_table("Keras LSTM %d units, sequence %d x %d, Dense 10, batch 1, "
                "%d thread(s), %d runs" % (UNITS, STEPS, FEATURES, args.threads,
                                          args.runs), compile_s, size_kb, timings)


if __name__ == "__main__":
    main()
