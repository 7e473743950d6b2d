#!/usr/bin/env python3
"""The benchmark models, built with Keras (fixed seeds) and frozen.

    python bench/models.py NAME --batch B --out DIR [--float64]

writes DIR/frozen.pb (variables folded into constants), DIR/x.npy (an input
drawn with a fixed seed), DIR/want.npy (TensorFlow's output for it) and
DIR/model.json (feed and fetch names). NAME is one of: mlp, cnn, resnet50,
mobilenetv2, transformer, or one of the keras.applications models of
catalog.py (its groups applications, other-applications and
large-applications). These are made with random weights (weights=None)
here on demand, never committed (ResNet-50's frozen graph is about 100
MB, VGG16's about 530 MB, ConvNeXtXLarge's about 1.4 GB). With --float64, only DIR/exact.npy
is written: the output for DIR/x.npy computed in float64 with the same
weights.

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog  # noqa: E402

SEED = 7


def mlp():
    return keras.Sequential([
        keras.Input((784,)),
        keras.layers.Dense(256, activation="relu"),
        keras.layers.Dense(128, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ]), (784,)


def cnn():
    return keras.Sequential([
        keras.Input((28, 28, 1)),
        keras.layers.Conv2D(32, 3, activation="relu"),
        keras.layers.MaxPooling2D(),
        keras.layers.Conv2D(64, 3, activation="relu"),
        keras.layers.MaxPooling2D(),
        keras.layers.Flatten(),
        keras.layers.Dense(128, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ]), (28, 28, 1)


# keras.applications models end in their logits (no softmax): with random
# weights the logits of some are nearly equal, and their softmax is 0.001
# everywhere, which would hide any difference from TensorFlow.
def resnet50():
    return keras.applications.ResNet50(weights=None, classifier_activation=None), (224, 224, 3)


def mobilenetv2():
    return keras.applications.MobileNetV2(weights=None, classifier_activation=None), (224, 224, 3)


def transformer():
    """One encoder block: multi-head self-attention and a GELU MLP, with
    residuals and layer norms, on 128 tokens of width 256."""
    tokens, width, heads = 128, 256, 8
    x = keras.Input((tokens, width))
    a = keras.layers.MultiHeadAttention(heads, width // heads)(x, x)
    h = keras.layers.LayerNormalization()(x + a)
    f = keras.layers.Dense(4 * width, activation="gelu")(h)
    f = keras.layers.Dense(width)(f)
    y = keras.layers.LayerNormalization()(h + f)
    return keras.Model(x, y), (tokens, width)


def application(constructor, size):
    """A keras.applications model with random weights at its image size."""
    return lambda: (constructor(weights=None, classifier_activation=None), (size, size, 3))


MODELS = {"mlp": mlp, "cnn": cnn, "resnet50": resnet50,
          "mobilenetv2": mobilenetv2, "transformer": transformer}
# The keras.applications models, as the catalog names them.
MODELS.update({m.name: application(getattr(keras.applications, m.application), m.side)
               for m in catalog.MODELS if m.application})


def concrete_function(name, batch):
    """Model `name`'s inference at `batch` as a concrete function (its
    weights variables), and the shape of one input."""
    keras.utils.set_random_seed(SEED)
    model, shape = MODELS[name]()
    fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
        tf.TensorSpec((batch,) + shape, tf.float32, name="x"))
    # The function holds the model's variables weakly: it keeps the model,
    # or they may be collected before it is frozen or called
    # (ResNet152V2's were).
    fn.keras_model = model
    return fn, shape


def build(name, batch):
    """The frozen GraphDef of model `name` at `batch`, its feed and fetch
    tensor names, and the concrete function it came from."""
    fn, shape = concrete_function(name, batch)
    frozen = convert_variables_to_constants_v2(fn)
    graph_def = frozen.graph.as_graph_def()
    return graph_def, frozen.inputs[0].name, frozen.outputs[0].name, fn, shape


def frozen_session(path, threads, inter_op=None):
    """A TensorFlow session on the frozen graph at `path`, with `threads`
    intra- and inter-op threads (the same as the compiled program's
    --threads; `inter_op` inter-op threads if given), and the graph's
    GraphDef: how the benchmarks run TensorFlow's session.run."""
    graph_def = tf.compat.v1.GraphDef()
    with open(path, "rb") as f:
        graph_def.ParseFromString(f.read())
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(graph_def, name="")
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=threads,
                                      inter_op_parallelism_threads=inter_op or threads)
    return tf.compat.v1.Session(graph=graph, config=config), graph_def


def float64_output(name, x):
    """Model `name`'s output for x computed in float64 with the float32
    model's weights: the answer that TensorFlow's and tfc's float32
    programs both round towards."""
    keras.utils.set_random_seed(SEED)
    model32, _ = MODELS[name]()
    # The policy, not floatx alone: once a model is built, the global
    # policy is fixed and floatx no longer changes the layers' dtype.
    keras.config.set_dtype_policy("float64")
    try:
        model64, _ = MODELS[name]()
    finally:
        keras.config.set_dtype_policy("float32")
    model64.set_weights([w.astype(np.float64) for w in model32.get_weights()])
    if any(w.dtype != "float64" for w in model64.weights):
        raise SystemExit("%s: some weights did not become float64" % name)
    # A few images at a time, and through a tf.function, whose graph frees
    # each tensor once its last reader is done: TensorFlow's float64
    # convolutions of a whole batch of 32 EfficientNetV2S images (384 x
    # 384) ran out of 24 GiB, and called eagerly, Keras held every layer's
    # output of 4 EfficientNetV2L images (480 x 480) to the end, 19.7 GB.
    run64 = tf.function(lambda images: model64(images, training=False))
    return np.concatenate([run64(tf.constant(x[i:i + 4], tf.float64)).numpy()
                           for i in range(0, len(x), 4)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=sorted(MODELS))
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--out", required=True)
    parser.add_argument("--float64", action="store_true",
                        help="only write DIR/exact.npy: the output for DIR/x.npy in float64")
    args = parser.parse_args()
    if args.float64:
        x = np.load(os.path.join(args.out, "x.npy"))
        np.save(os.path.join(args.out, "exact.npy"), float64_output(args.name, x))
        return
    graph_def, feed, fetch, fn, shape = build(args.name, args.batch)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "frozen.pb"), "wb") as f:
        f.write(graph_def.SerializeToString())
    x = np.random.default_rng(SEED).standard_normal((args.batch,) + shape).astype(np.float32)
    np.save(os.path.join(args.out, "x.npy"), x)
    np.save(os.path.join(args.out, "want.npy"), fn(tf.constant(x)).numpy())
    with open(os.path.join(args.out, "model.json"), "w") as f:
        json.dump({"feed": feed.split(":")[0], "fetch": fetch, "batch": args.batch}, f)
    print("wrote %s (%d nodes)" % (args.out, len(graph_def.node)))


if __name__ == "__main__":
    main()
