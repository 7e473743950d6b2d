#!/usr/bin/env python3
"""Generates the tfc test corpus: small TensorFlow graphs with inputs and outputs.

Run with a Python that has tensorflow-cpu==2.21.0 and numpy installed:

    /path/to/venv/bin/python test/corpus/generate.py [--only mlp,cnn] [--out DIR]

For every model it (re)creates test/corpus/<name>/ with some of

    frozen.pb       binary GraphDef, variables folded into constants
    graph.pbtxt     text GraphDef (TF1 graphs; training graphs keep their
                    variables, initializers, gradients, train op and saver)
    saved_model/    SavedModel (saved_model.pb + variables/)
    inputs/N.npy    the values fed to manifest["feeds"][N]
    outputs/N.npy   TensorFlow's values for manifest["fetches"][N]
    outputs/step_losses.npy
                    training graphs: the loss of each training step and
                    of the step after them (manifest["step_losses"])
    checkpoint/     training graphs: TensorFlow's Saver checkpoint of the
                    initial variables
    manifest.json   what to feed, what to fetch, how to run (see README.md)

and finally writes op_types.txt, the sorted set of op types used by every
graph in the corpus, function library bodies included.

TensorFlow is only used to MAKE this data; tfc never depends on it.

Determinism:
  * fixed seeds everywhere (Python, NumPy, TensorFlow graph and op seeds);
  * every reference output comes from a tf.compat.v1.Session configured by
    session_config(): one thread, Grappler and graph-level constant folding
    off, so that TensorFlow runs exactly the nodes that are in the file;
  * oneDNN graph rewrites are disabled (TF_ENABLE_ONEDNN_OPTS=0) so the plain
    Eigen kernels compute the outputs.
check_roundtrip.py uses the same session configuration.

Every written frozen.pb / graph.pbtxt is loaded back into a fresh graph and
re-run; the script stops with an error unless the outputs are identical.
"""

import argparse
import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import zlib

# Must be set before TensorFlow is imported.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402  (Keras 3, the one TensorFlow 2.21 ships with)
from google.protobuf import text_format  # noqa: E402
from tensorflow.core.protobuf import control_flow_pb2  # noqa: E402
from tensorflow.core.protobuf import fingerprint_pb2  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2,
)
from tensorflow.python.ops import control_flow_util  # noqa: E402
from tensorflow.python.ops import gen_data_flow_ops  # noqa: E402
from tensorflow.python.ops import gen_logging_ops  # noqa: E402
from tensorflow.python.ops import gen_summary_ops  # noqa: E402
from tfsession import (identical, load_graph_def, run_saved_model_graph,  # noqa: E402
                       session_config)

SEED = 20240601
CORPUS_DIR = os.path.dirname(os.path.abspath(__file__))
BATCH = 2

tf1 = tf.compat.v1


# --------------------------------------------------------------------------
# Generic helpers
# --------------------------------------------------------------------------



def model_seed(name):
    """A stable per-model seed (crc32, not hash(): hash() is salted)."""
    return (SEED + zlib.crc32(name.encode())) % (2**31)


def seed_everything(name):
    """Seeds Python, NumPy, TensorFlow (eager) and Keras for one model and
    returns a NumPy Generator for that model's input data."""
    s = model_seed(name)
    random.seed(s)
    np.random.seed(s)
    keras.utils.set_random_seed(s)  # also calls tf.random.set_seed
    return np.random.default_rng(s)




def run_graph_def(graph_def, feeds, fetches, init=None, targets=None, steps=0):
    """Imports graph_def into a fresh graph and runs it in a fresh session.

    feeds: {tensor_name: array}; fetches: [tensor_name].  With init/targets,
    runs `init` once, then `targets` `steps` times (with the same feeds), then
    the fetches: exactly how training outputs are defined in the manifest.
    """
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(graph_def, name="")
    with tf1.Session(graph=g, config=session_config()) as sess:
        if init:
            sess.run(init)
        for _ in range(steps):
            sess.run(targets, feed_dict=feeds)
        return [np.asarray(v) for v in sess.run(fetches, feed_dict=feeds)]



def read_signature(sm_dir, key="serving_default"):
    """Reads the signature's real tensor names from saved_model.pb."""
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(sm_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    sig = sm.meta_graphs[0].signature_def[key]
    return {
        "key": key,
        "inputs": {k: sig.inputs[k].name for k in sorted(sig.inputs)},
        "outputs": {k: sig.outputs[k].name for k in sorted(sig.outputs)},
    }


def make_saved_model_deterministic(sm_dir, name):
    """Makes a written SavedModel byte-for-byte reproducible without changing
    what it means:
      * saved_model.pb is re-serialized with sorted map fields (the TF1
        Builder writes maps in hash order; tf.saved_model.save already writes
        them sorted, so its files, and the checksum in fingerprint.pb, stay
        unchanged);
      * fingerprint.pb (TF2 only) carries a random `uuid`, an informational
        field; it is replaced by a value derived from the model name."""
    pb = os.path.join(sm_dir, "saved_model.pb")
    sm = saved_model_pb2.SavedModel()
    with open(pb, "rb") as f:
        original = f.read()
    sm.ParseFromString(original)
    # The v1 control-flow contexts are stored as serialized protos inside
    # bytes fields of the collections; re-serialize those too.
    context_types = {"cond_context": control_flow_pb2.CondContextDef,
                     "while_context": control_flow_pb2.WhileContextDef}
    for mg in sm.meta_graphs:
        for key, cls in context_types.items():
            if key in mg.collection_def:
                values = mg.collection_def[key].bytes_list.value
                for i, raw in enumerate(values):
                    ctx = cls()
                    ctx.ParseFromString(raw)
                    values[i] = ctx.SerializeToString(deterministic=True)
    data = sm.SerializeToString(deterministic=True)
    if data != original:
        with open(pb, "wb") as f:
            f.write(data)
    fp_path = os.path.join(sm_dir, "fingerprint.pb")
    if os.path.exists(fp_path):
        fp = fingerprint_pb2.FingerprintDef()
        with open(fp_path, "rb") as f:
            fp.ParseFromString(f.read())
        fp.uuid = str(model_seed(name))
        with open(fp_path, "wb") as f:
            f.write(fp.SerializeToString(deterministic=True))


@contextlib.contextmanager
def tf1_graph(name):
    """A fresh TF1-style graph: graph mode, v1 control flow (Switch/Merge,
    Enter/Exit/NextIteration), graph-level seed set.  The global control-flow
    flag is restored afterwards."""
    old = control_flow_util.ENABLE_CONTROL_FLOW_V2
    tf1.disable_control_flow_v2()
    g = tf.Graph()
    try:
        with g.as_default():
            tf1.set_random_seed(model_seed(name))
            yield g
    finally:
        control_flow_util.ENABLE_CONTROL_FLOW_V2 = old


class ModelDir:
    """Collects the files and the manifest of one corpus model."""

    def __init__(self, root, name, kind, description):
        self.name = name
        self.dir = os.path.join(root, name)
        if os.path.exists(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(os.path.join(self.dir, "inputs"))
        os.makedirs(os.path.join(self.dir, "outputs"))
        self.manifest = {"name": name, "kind": kind, "description": description,
                         "graphs": {}, "feeds": [], "fetches": []}
        self.feed_values = {}  # tensor name -> array
        self.fetch_values = []  # in fetch order

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def add_feed(self, tensor, value):
        value = np.array(value, order="C")  # (ascontiguousarray makes 0-d 1-d)
        npy = "inputs/%d.npy" % len(self.manifest["feeds"])
        np.save(self.path(npy), value, allow_pickle=False)
        self.manifest["feeds"].append({"tensor": tensor, "npy": npy})
        self.feed_values[tensor] = value

    def add_fetch(self, tensor, value):
        value = np.array(value, order="C")
        npy = "outputs/%d.npy" % len(self.manifest["fetches"])
        np.save(self.path(npy), value, allow_pickle=False)
        self.manifest["fetches"].append({"tensor": tensor, "npy": npy})
        self.fetch_values.append(value)

    def fetch_names(self):
        return [f["tensor"] for f in self.manifest["fetches"]]

    def write_frozen(self, graph_def):
        with open(self.path("frozen.pb"), "wb") as f:
            # deterministic=True: sorted map fields (attrs), so that
            # regenerating gives byte-identical files.
            f.write(graph_def.SerializeToString(deterministic=True))
        self.manifest["graphs"]["frozen"] = "frozen.pb"

    def write_text(self, graph_def):
        with open(self.path("graph.pbtxt"), "w") as f:
            f.write(text_format.MessageToString(graph_def))
        self.manifest["graphs"]["text"] = "graph.pbtxt"

    def add_saved_model(self, key="serving_default"):
        """Records the SavedModel at <dir>/saved_model and its signature.

        Empty sub-directories (assets/, and variables/ of a graph without
        variables) are removed: git cannot store them, and this keeps the
        generated tree identical to the committed one."""
        for sub in ("assets", "variables"):
            p = self.path("saved_model", sub)
            if os.path.isdir(p) and not os.listdir(p):
                os.rmdir(p)
        make_saved_model_deterministic(self.path("saved_model"), self.name)
        self.manifest["graphs"]["saved_model"] = "saved_model"
        self.manifest["saved_model_signature"] = read_signature(
            self.path("saved_model"), key)

    def verify(self):
        """Reloads every frozen.pb / graph.pbtxt written for this model into a
        fresh graph, re-runs it and requires identical outputs."""
        m = self.manifest
        for form in ("frozen", "text"):
            if form not in m["graphs"]:
                continue
            gd = load_graph_def(self.path(m["graphs"][form]))
            # Training graphs: init + steps only for the graph with variables.
            training = m["kind"] == "training" and form == "text"
            got = run_graph_def(
                gd, self.feed_values, self.fetch_names(),
                init=m.get("init") if form == "text" else None,
                targets=m.get("targets") if training else None,
                steps=m.get("steps", 0) if training else 0)
            for f, want, have in zip(m["fetches"], self.fetch_values, got):
                if not identical(want, have):
                    raise SystemExit(
                        "FAIL %s/%s: %s differs after reload:\nwant %r\nhave %r"
                        % (self.name, m["graphs"][form], f["tensor"], want, have))
            print("  verified %-12s %s (%d fetches identical)"
                  % (m["graphs"][form], form, len(got)))

    def check_saved_model(self, expected_by_output_key, exact=False):
        """Runs the written SavedModel the TF1 way and compares its outputs
        with `expected_by_output_key` (allclose, or identical if exact)."""
        sig = self.manifest["saved_model_signature"]
        feeds = {}
        for k in sig["inputs"]:
            feeds[k] = self.feed_values[k + ":0"]  # convention, see README
        got = run_saved_model_graph(self.path("saved_model"), sig["key"], feeds)
        for k, want in expected_by_output_key.items():
            have = got[k]
            if identical(want, have):
                status = "identical"
            elif not exact and np.allclose(want, have, rtol=1e-5, atol=1e-6):
                status = "close (max abs diff %.3g)" % np.max(np.abs(want - have))
            else:
                raise SystemExit("FAIL %s/saved_model output %s:\nwant %r\nhave %r"
                                 % (self.name, k, want, have))
            print("  verified saved_model  output %s %s" % (k, status))

    def finish(self):
        with open(self.path("manifest.json"), "w") as f:
            json.dump(self.manifest, f, indent=2)
            f.write("\n")


# --------------------------------------------------------------------------
# Keras / TF2 models: frozen.pb + saved_model/
# --------------------------------------------------------------------------


def randomize_batch_norm(model, rng):
    """Gives every BatchNormalization layer non-trivial inference statistics,
    otherwise BN would be (almost) the identity right after construction."""
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            n = layer.moving_mean.shape[0]
            f32 = np.float32
            layer.gamma.assign(rng.uniform(0.5, 1.5, n).astype(f32))
            layer.beta.assign((0.1 * rng.standard_normal(n)).astype(f32))
            layer.moving_mean.assign((0.1 * rng.standard_normal(n)).astype(f32))
            layer.moving_variance.assign(rng.uniform(0.5, 1.5, n).astype(f32))


def export_keras(root, name, description, model, x):
    """Writes frozen.pb + saved_model/ + inputs/outputs for a one-input Keras
    model.  The frozen graph and the SavedModel both come from one tf.function
    with input_signature [TensorSpec(name="x")], so the frozen graph's input is
    "x:0" and the signature input key is "x"."""
    md = ModelDir(root, name, "inference", description)
    spec = tf.TensorSpec(x.shape, tf.float32, name="x")

    module = tf.Module()
    # Track the model's underlying tf.Variables directly.  (Tracking the
    # Keras 3 model object instead makes tf.saved_model.save write a second
    # copy of every variable, "Variable_N", which the saver_def restores
    # while the serving function reads the originals: useless to a TF1-style
    # loader.)
    module.model_variables = [v.value for v in model.variables]
    module.serve = tf.function(lambda x: model(x, training=False),
                               input_signature=[spec])
    concrete = module.serve.get_concrete_function()

    # Frozen graph: variables -> constants; keep functional control flow
    # (While/If + function library) instead of lowering it.
    frozen = convert_variables_to_constants_v2(concrete, lower_control_flow=False)
    graph_def = frozen.graph.as_graph_def()
    in_names = [t.name for t in frozen.inputs]
    out_names = [t.name for t in frozen.outputs]
    assert in_names == ["x:0"], in_names
    md.write_frozen(graph_def)

    # Reference outputs: the frozen graph run in a plain TF1 session.
    md.add_feed("x:0", x)
    outs = run_graph_def(graph_def, {"x:0": x}, out_names)
    for n, v in zip(out_names, outs):
        md.add_fetch(n, v)

    # Sanity check against eager Keras (same math, maybe other kernels).
    eager = np.asarray(model(x, training=False))
    if not np.allclose(eager, outs[0], rtol=1e-5, atol=1e-6):
        raise SystemExit("FAIL %s: frozen graph disagrees with eager Keras" % name)

    tf.saved_model.save(module, md.path("saved_model"),
                        signatures={"serving_default": concrete})
    md.add_saved_model()
    md.verify()
    out_key = list(md.manifest["saved_model_signature"]["outputs"])[0]
    md.check_saved_model({out_key: outs[0]})
    md.finish()


def make_mlp(root):
    rng = seed_everything("mlp")
    inp = keras.Input((32,), batch_size=BATCH, name="x")
    h = keras.layers.Dense(16, activation="relu")(inp)
    h = keras.layers.Dense(8, activation="relu")(h)
    out = keras.layers.Dense(4, activation="softmax")(h)
    model = keras.Model(inp, out, name="mlp")
    x = rng.standard_normal((BATCH, 32)).astype(np.float32)
    export_keras(root, "mlp", "Keras MLP 32->16->8->4, Dense+ReLU, softmax output",
                 model, x)


def make_swish_mlp(root):
    # Keras 3's swish has a custom gradient: its SavedModel's function
    # library holds the gradient function, with a control input on a
    # function argument, and the forward pass goes through an IdentityN.
    rng = seed_everything("swish_mlp")
    inp = keras.Input((12,), batch_size=BATCH, name="x")
    h = keras.layers.Dense(16, activation="swish")(inp)
    out = keras.layers.Dense(4)(h)
    model = keras.Model(inp, out, name="swish_mlp")
    x = rng.standard_normal((BATCH, 12)).astype(np.float32)
    export_keras(root, "swish_mlp", "Keras MLP 12->16->4 with swish (a custom "
                 "gradient), logits", model, x)


def make_cnn(root):
    rng = seed_everything("cnn")
    L = keras.layers
    inp = keras.Input((16, 16, 3), batch_size=BATCH, name="x")
    h = L.Conv2D(8, 3, padding="same")(inp)
    h = L.BatchNormalization()(h)
    h = L.ReLU()(h)
    h = L.MaxPooling2D(2)(h)                       # 8x8
    h = L.Conv2D(8, 3, padding="valid")(h)          # 6x6
    h = L.BatchNormalization()(h)
    h = L.ReLU()(h)
    h = L.AveragePooling2D(2)(h)                   # 3x3
    h = L.GlobalAveragePooling2D()(h)
    out = L.Dense(4)(h)
    model = keras.Model(inp, out, name="cnn")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 16, 16, 3)).astype(np.float32)
    export_keras(root, "cnn", "Keras CNN: Conv2D, BatchNorm (inference), ReLU, "
                 "MaxPool, AvgPool, GlobalAveragePooling, Dense", model, x)


def make_resnet_block(root):
    rng = seed_everything("resnet_block")
    L = keras.layers
    inp = keras.Input((8, 8, 4), batch_size=BATCH, name="x")
    h = L.Conv2D(8, 3, strides=2, padding="same", use_bias=False)(inp)
    h = L.BatchNormalization()(h)
    h = L.ReLU()(h)
    h = L.Conv2D(8, 3, padding="same", use_bias=False)(h)
    h = L.BatchNormalization()(h)
    s = L.Conv2D(8, 1, strides=2, use_bias=False)(inp)   # projection shortcut
    s = L.BatchNormalization()(s)
    out = L.ReLU()(L.Add()([h, s]))
    model = keras.Model(inp, out, name="resnet_block")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 8, 8, 4)).astype(np.float32)
    export_keras(root, "resnet_block", "Residual block: conv-bn-relu-conv-bn + "
                 "1x1 strided projection shortcut, add, relu", model, x)


def export_inverted_residual(root, name, activation, description):
    """1x1 expand, BN, activation, DepthwiseConv2D, BN, activation, 1x1
    project, BN, add: MobileNetV2's block and EfficientNet's MBConv (without
    squeeze-excitation) differ only in the activation."""
    rng = seed_everything(name)
    L = keras.layers
    inp = keras.Input((8, 8, 8), batch_size=BATCH, name="x")
    h = L.Conv2D(16, 1, use_bias=False)(inp)             # expand
    h = L.BatchNormalization()(h)
    h = activation()(h)
    h = L.DepthwiseConv2D(3, padding="same", use_bias=False)(h)
    h = L.BatchNormalization()(h)
    h = activation()(h)
    h = L.Conv2D(8, 1, use_bias=False)(h)                # project
    h = L.BatchNormalization()(h)
    out = L.Add()([inp, h])                              # inverted residual
    model = keras.Model(inp, out, name=name)
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 8, 8, 8)).astype(np.float32)
    export_keras(root, name, description, model, x)


def make_mobilenet_block(root):
    export_inverted_residual(
        root, "mobilenet_block", lambda: keras.layers.ReLU(6.0),
        "MobileNetV2 inverted residual: 1x1 expand, DepthwiseConv2D, BN, "
        "ReLU6, 1x1 project, add")


def make_mobilenetv2_stem(root):
    """MobileNetV2's stem and first two blocks as Keras builds them, on 64 x
    64 images (the first block's 32 x 32 output is large enough for tfc's
    separable group): Conv2D stride 2, BN, ReLU6; the first block's
    DepthwiseConv2D, BN, ReLU6, 1x1 projection, BN (no expansion); the
    second block's 1x1 expansion, BN, ReLU6, ZeroPadding2D, stride-2
    DepthwiseConv2D, BN, ReLU6, projection, BN. The second block's
    expansion reads the first block's group (a regression test: it once
    took that group for a depthwise's epilogue)."""
    rng = seed_everything("mobilenetv2_stem")
    L = keras.layers
    inp = keras.Input((64, 64, 3), batch_size=BATCH, name="x")
    h = L.Conv2D(32, 3, strides=2, padding="same", use_bias=False)(inp)
    h = L.ReLU(6.0)(L.BatchNormalization()(h))
    h = L.DepthwiseConv2D(3, padding="same", use_bias=False)(h)
    h = L.ReLU(6.0)(L.BatchNormalization()(h))
    h = L.BatchNormalization()(L.Conv2D(16, 1, use_bias=False)(h))
    h = L.Conv2D(96, 1, use_bias=False)(h)
    h = L.ReLU(6.0)(L.BatchNormalization()(h))
    h = L.ZeroPadding2D(((0, 1), (0, 1)))(h)
    h = L.DepthwiseConv2D(3, strides=2, padding="valid", use_bias=False)(h)
    h = L.ReLU(6.0)(L.BatchNormalization()(h))
    out = L.BatchNormalization()(L.Conv2D(24, 1, use_bias=False)(h))
    model = keras.Model(inp, out, name="mobilenetv2_stem")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 64, 64, 3)).astype(np.float32)
    export_keras(root, "mobilenetv2_stem", "MobileNetV2's stem and first two "
                 "blocks: the first block's depthwise and projection read by "
                 "the second's expansion", model, x)


def make_efficientnet_block(root):
    export_inverted_residual(
        root, "efficientnet_block", lambda: keras.layers.Activation("swish"),
        "EfficientNet MBConv without squeeze-excitation: 1x1 expand, BN, "
        "swish, DepthwiseConv2D, BN, swish, 1x1 project, BN, add")


def make_xception_block(root):
    """Separable convolutions as Xception and MobileNet have them: ReLU,
    SeparableConv2D, BN twice and the residual add (Xception's middle
    flow, 24 channels: not whole vectors), then a SeparableConv2D to 32
    channels, and MobileNet's DepthwiseConv2D, BN, ReLU6, 1x1, BN, ReLU6
    (32 channels); on 32 x 32 images, the smallest tfc computes such
    convolutions in one kernel."""
    rng = seed_everything("xception_block")
    L = keras.layers
    inp = keras.Input((32, 32, 24), batch_size=BATCH, name="x")
    h = inp
    for _ in range(2):
        h = L.ReLU()(h)
        h = L.SeparableConv2D(24, 3, padding="same", use_bias=False)(h)
        h = L.BatchNormalization()(h)
    h = L.Add()([inp, h])
    h = L.ReLU()(h)
    h = L.SeparableConv2D(32, 3, padding="same", use_bias=False)(h)
    h = L.BatchNormalization()(h)
    h = L.DepthwiseConv2D(3, padding="same", use_bias=False)(h)
    h = L.BatchNormalization()(h)
    h = L.ReLU(6.0)(h)
    h = L.Conv2D(32, 1, use_bias=False)(h)
    h = L.BatchNormalization()(h)
    out = L.ReLU(6.0)(h)
    model = keras.Model(inp, out, name="xception_block")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 32, 32, 24)).astype(np.float32)
    export_keras(root, "xception_block", "Separable convolutions: Xception's "
                 "middle flow (ReLU, SeparableConv2D, BN twice, add), a "
                 "SeparableConv2D to more channels, MobileNet's depthwise, "
                 "BN, ReLU6, 1x1, BN, ReLU6", model, x)


def make_xception_entry(root):
    """Xception's entry flow as its blocks 2 and 3 have it, on 128 x 128
    images: a 1x1 convolution to 32 channels, BN, ReLU; then two separable
    convolutions to 64 channels, each with BN and the second's ReLU after
    it, then two more, the last max pooled (3x3, stride 2, SAME); the
    shortcut's strided 1x1 convolution and BN added; a global average.
    Each two separable convolutions are one kernel call in tfc (a pair:
    the first's output, 4 MiB an image, is never written), the second
    pair pooled as it goes."""
    rng = seed_everything("xception_entry")
    L = keras.layers
    inp = keras.Input((128, 128, 3), batch_size=BATCH, name="x")
    h = L.ReLU()(L.BatchNormalization()(L.Conv2D(32, 1, use_bias=False)(inp)))
    shortcut = L.BatchNormalization()(
        L.Conv2D(64, 1, strides=2, padding="same", use_bias=False)(h))
    for pair in range(2):
        if pair:
            h = L.ReLU()(h)
        h = L.SeparableConv2D(64, 3, padding="same", use_bias=False)(h)
        h = L.ReLU()(L.BatchNormalization()(h))
        h = L.SeparableConv2D(64, 3, padding="same", use_bias=False)(h)
        h = L.BatchNormalization()(h)
    h = L.MaxPooling2D(3, strides=2, padding="same")(h)
    h = L.Add()([h, shortcut])
    out = L.GlobalAveragePooling2D()(h)
    model = keras.Model(inp, out, name="xception_entry")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 128, 128, 3)).astype(np.float32)
    export_keras(root, "xception_entry", "Xception's entry flow: separable "
                 "convolutions in pairs on 128 x 128 images, the second "
                 "pair max pooled, the strided shortcut added", model, x)


def make_densenet_block(root):
    """A DenseNet dense block as keras.applications builds one: four layers
    of BN, ReLU, 1x1 convolution to 48 channels, BN, ReLU, 3x3 convolution
    to 12 channels (the growth), each concatenated to all the block's
    channels so far (24 + 12k: not whole vectors); then the transition's
    BN, ReLU, 1x1 convolution and 2x2 average pooling. tfc makes the
    block's chain of concatenations in one buffer (concatenations in
    place)."""
    rng = seed_everything("densenet_block")
    L = keras.layers
    inp = keras.Input((16, 16, 24), batch_size=BATCH, name="x")
    h = inp
    for _ in range(4):
        y = L.ReLU()(L.BatchNormalization(epsilon=1.001e-5)(h))
        y = L.Conv2D(48, 1, use_bias=False)(y)
        y = L.ReLU()(L.BatchNormalization(epsilon=1.001e-5)(y))
        y = L.Conv2D(12, 3, padding="same", use_bias=False)(y)
        h = L.Concatenate(axis=3)([h, y])
    h = L.ReLU()(L.BatchNormalization(epsilon=1.001e-5)(h))
    h = L.Conv2D(36, 1, use_bias=False)(h)
    out = L.AveragePooling2D(2, strides=2)(h)
    model = keras.Model(inp, out, name="densenet_block")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 16, 16, 24)).astype(np.float32)
    export_keras(root, "densenet_block", "DenseNet dense block (four layers "
                 "of BN, ReLU, 1x1, BN, ReLU, 3x3 concatenated to the "
                 "block's channels) and its transition", model, x)


def make_inception_block(root):
    """Inception's branches concatenated along the channels, each written
    in its part of the concatenation by what makes it: a 1x1 convolution
    with its BN and ReLU, a 1x1 then a 3x3 one (Winograd's), average
    pooling then a 1x1, and the input's ReLU (an elementwise loop); then a
    1x1 convolution of the concatenation."""
    rng = seed_everything("inception_block")
    L = keras.layers

    def conv_bn_relu(h, channels, size):
        h = L.Conv2D(channels, size, padding="same", use_bias=False)(h)
        return L.ReLU()(L.BatchNormalization(epsilon=1e-3)(h))

    inp = keras.Input((16, 16, 24), batch_size=BATCH, name="x")
    b1 = conv_bn_relu(inp, 16, 1)
    b2 = conv_bn_relu(conv_bn_relu(inp, 16, 1), 32, 3)
    b3 = conv_bn_relu(L.AveragePooling2D(3, strides=1, padding="same")(inp), 8, 1)
    b4 = L.ReLU()(inp)
    h = L.Concatenate(axis=3)([b1, b2, b3, b4])
    out = L.Conv2D(32, 1)(h)
    model = keras.Model(inp, out, name="inception_block")
    randomize_batch_norm(model, rng)
    x = rng.standard_normal((BATCH, 16, 16, 24)).astype(np.float32)
    export_keras(root, "inception_block", "Inception branches (1x1; 1x1 "
                 "then 3x3; average pooling then 1x1; a ReLU) concatenated, "
                 "then a 1x1 convolution", model, x)


def make_transformer_block(root):
    rng = seed_everything("transformer_block")
    L = keras.layers
    d_model, seq = 16, 4
    inp = keras.Input((seq, d_model), batch_size=BATCH, name="x")
    a = L.MultiHeadAttention(num_heads=2, key_dim=d_model // 2)(inp, inp)
    h = L.LayerNormalization(epsilon=1e-6)(L.Add()([inp, a]))
    f = L.Dense(32, activation="gelu")(h)
    f = L.Dense(d_model)(f)
    out = L.LayerNormalization(epsilon=1e-6)(L.Add()([h, f]))
    model = keras.Model(inp, out, name="transformer_block")
    x = rng.standard_normal((BATCH, seq, d_model)).astype(np.float32)
    export_keras(root, "transformer_block", "Transformer encoder block: "
                 "MultiHeadAttention (2 heads, d_model 16), LayerNorm, GELU "
                 "feed-forward, residuals", model, x)


def make_lstm(root):
    rng = seed_everything("lstm")
    L = keras.layers
    inp = keras.Input((5, 6), batch_size=BATCH, name="x")
    h = L.LSTM(8)(inp)                 # last output only
    out = L.Dense(3)(h)
    model = keras.Model(inp, out, name="lstm")
    x = rng.standard_normal((BATCH, 5, 6)).astype(np.float32)
    export_keras(root, "lstm", "Keras LSTM (8 units, seq 5, last output) + Dense; "
                 "frozen graph keeps While + TensorList ops and a function "
                 "library", model, x)


def make_gru(root):
    rng = seed_everything("gru")
    L = keras.layers
    inp = keras.Input((5, 6), batch_size=BATCH, name="x")
    h = L.GRU(8, return_sequences=True)(inp)   # every step's output
    out = L.Dense(3)(h)
    model = keras.Model(inp, out, name="gru")
    x = rng.standard_normal((BATCH, 5, 6)).astype(np.float32)
    export_keras(root, "gru", "Keras GRU (8 units, seq 5, all outputs) + Dense; "
                 "frozen graph keeps While + TensorList ops", model, x)


def make_simple_rnn(root):
    rng = seed_everything("simple_rnn")
    L = keras.layers
    inp = keras.Input((7, 4), batch_size=BATCH, name="x")
    h = L.SimpleRNN(5)(inp)
    out = L.Dense(2)(h)
    model = keras.Model(inp, out, name="simple_rnn")
    x = rng.standard_normal((BATCH, 7, 4)).astype(np.float32)
    export_keras(root, "simple_rnn", "Keras SimpleRNN (5 units, seq 7, last "
                 "output) + Dense; frozen graph keeps While + TensorList ops",
                 model, x)


# --------------------------------------------------------------------------
# TF1 control flow (v1: Switch/Merge/Enter/Exit/NextIteration/LoopCond)
# --------------------------------------------------------------------------


def save_v1_saved_model(md, sess, inputs, outputs):
    """tf.compat.v1.saved_model.Builder, tag "serve", signature
    "serving_default".  Signature input keys are the placeholder names."""
    builder = tf1.saved_model.Builder(md.path("saved_model"))
    sig = tf1.saved_model.predict_signature_def(inputs=inputs, outputs=outputs)
    builder.add_meta_graph_and_variables(
        sess, [tf1.saved_model.tag_constants.SERVING],
        signature_def_map={"serving_default": sig})
    builder.save()
    md.add_saved_model()


def make_tf1_while(root):
    name = "tf1_while"
    rng = seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF1 while_loop with data-dependent trip count, a nested "
                  "while_loop and a cond inside the body (v1 control flow)")
    with tf1_graph(name) as g:
        n = tf1.placeholder(tf.int32, [], name="n")
        x = tf1.placeholder(tf.float32, [3], name="x")

        def outer_body(i, acc):
            # Inner loop runs i times: a <- 0.5 * a + j * x.
            def inner_body(j, a):
                return j + 1, 0.5 * a + tf.cast(j, tf.float32) * x
            _, inner = tf1.while_loop(lambda j, a: j < i, inner_body,
                                      [tf.constant(0), acc], name="inner")
            # Cond on the loop counter: even -> +1, odd -> *(-1.5).
            acc2 = tf1.cond(tf.equal(tf.math.floormod(i, 2), 0),
                            lambda: inner + 1.0,
                            lambda: inner * -1.5, name="parity")
            return i + 1, acc2

        i_final, acc_final = tf1.while_loop(
            lambda i, acc: i < n, outer_body,
            [tf.constant(0), tf.zeros_like(x)], name="outer")
        result = tf.identity(acc_final, name="result")
        iterations = tf.identity(i_final, name="iterations")

        feeds = {"n:0": np.array(5, np.int32),
                 "x:0": rng.standard_normal(3).astype(np.float32)}
        for t, v in feeds.items():
            md.add_feed(t, v)
        with tf1.Session(graph=g, config=session_config()) as sess:
            vals = sess.run([result, iterations], feeds)
            for t, v in zip([result, iterations], vals):
                md.add_fetch(t.name, v)
            # No variables: the text and the "frozen" graph are the same.
            gd = g.as_graph_def()
            md.write_text(gd)
            md.write_frozen(gd)
            save_v1_saved_model(md, sess, {"n": n, "x": x},
                                {"result": result, "iterations": iterations})
    md.verify()
    md.check_saved_model({"result": md.fetch_values[0],
                          "iterations": md.fetch_values[1]}, exact=True)
    md.finish()


def make_tf1_while_swap(root):
    name = "tf1_while_swap"
    seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF1 while_loop whose body swaps two loop variables "
                  "(a, b) -> (b, a + b) and adds a to a resource variable "
                  "every iteration; data-dependent trip count")
    with tf1_graph(name) as g:
        k = tf1.placeholder(tf.int32, [], name="k")
        a0 = tf1.placeholder(tf.float32, [4], name="a0")
        total = tf1.get_variable("total", initializer=tf.zeros([4]),
                                 use_resource=True)

        def body(i, a, b):
            update = total.assign_add(a)
            with tf.control_dependencies([update]):
                return i + 1, tf.identity(b), a + b

        i_final, a_final, b_final = tf1.while_loop(
            lambda i, a, b: i < k, body, [tf.constant(0), a0, a0 * 0.5],
            name="fib")
        with tf.control_dependencies([a_final, b_final]):
            total_value = tf.identity(total.read_value(), name="total_value")
        a_out = tf.identity(a_final, name="a")
        b_out = tf.identity(b_final, name="b")
        init = tf1.variables_initializer([total], name="init")

        feeds = {"k:0": np.array(6, np.int32),
                 "a0:0": np.array([1.0, -2.0, 0.5, 3.0], np.float32)}
        for t, v in feeds.items():
            md.add_feed(t, v)
        md.manifest.update(init=["init"])
        fetches = [a_out, b_out, total_value]
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            for t, v in zip(fetches, sess.run(fetches, feeds)):
                md.add_fetch(t.name, v)
            # No iteration at all: the variables leave as they entered.
            other = {"k:0": np.array(0, np.int32), "a0:0": feeds["a0:0"]}
            sess.run(init)
            np.save(md.path("inputs", "other_k.npy"), other["k:0"], allow_pickle=False)
            for i, v in enumerate(sess.run(fetches, other)):
                np.save(md.path("outputs", "other_%d.npy" % i), v, allow_pickle=False)
            md.manifest["other_run"] = {
                "feeds": ["inputs/other_k.npy", "inputs/1.npy"],
                "fetches": ["outputs/other_%d.npy" % i for i in range(3)]}
            md.write_text(g.as_graph_def())
    md.verify()
    md.finish()


def make_queue_training(root):
    """TF1 training fed from a queue: the init fills a FIFOQueue with 22
    examples (features, a label, a string tag) and closes it; each step
    dequeues 4 (QueueDequeueManyV2) and takes an SGD step on them, so the
    sixth step finds 2 left and ends the input (OutOfRangeError). A
    PaddingFIFOQueue gives 4 of its 24 ids a step beside them. The
    manifest's outputs are those of the fifth step, the last whole one
    (as `steps` 4 and a fetch run); `input_ends_after` says when the
    sixth ends it."""
    name = "queue_training"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 linear regression fed from a FIFOQueue that the init "
                  "fills with 22 examples and closes; SGD on 4 per step")
    with tf1_graph(name) as g:
        features = rng.standard_normal((22, 3)).astype(np.float32)
        labels = (features @ np.array([1.5, -2.0, 0.5], np.float32)
                  + 0.25).astype(np.float32)
        tags = np.array([b"example-%d" % i for i in range(22)])
        queue = tf1.FIFOQueue(32, [tf.float32, tf.float32, tf.string],
                              shapes=[[3], [], []], shared_name="examples",
                              name="examples")
        fill = queue.enqueue_many([features, labels, tags], name="fill")
        with tf.control_dependencies([fill]):
            close = queue.close(name="close")
        # Ids from a padding queue (every shape known: a FIFO queue), 24 of
        # them, so that the examples end the input first.
        id_queue = tf1.PaddingFIFOQueue(24, [tf.int32], shapes=[[]],
                                        shared_name="ids", name="id_queue")
        fill_ids = id_queue.enqueue_many([np.arange(24, dtype=np.int32)],
                                         name="fill_ids")
        with tf.control_dependencies([fill_ids]):
            close_ids = id_queue.close(name="close_ids")
        ids = tf.identity(id_queue.dequeue_many(4, name="id_batch"), name="ids")
        x, y, tag = queue.dequeue_many(4, name="batch")
        w = tf1.get_variable("w", initializer=tf.zeros([3]), use_resource=True)
        b = tf1.get_variable("b", initializer=tf.zeros([]), use_resource=True)
        prediction = tf.linalg.matvec(x, w) + b
        loss = tf.reduce_mean(tf.square(prediction - y), name="loss")
        sgd = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="sgd")
        # (The ids are taken with each step, fetched or not.)
        train_op = tf.group(sgd, ids, name="train_op")
        with tf.control_dependencies([train_op]):
            w_after = tf.identity(w.read_value(), name="w_after")
        with tf.control_dependencies([x]):
            left = queue.size(name="left")
        closed = queue.is_closed(name="closed")
        tags_out = tf.identity(tag, name="tags")
        init = tf.group(tf1.variables_initializer([w, b], name="init_variables"),
                        close, close_ids, name="init")
        assert init.name == "init", init.name

        fetches = [loss, w_after, tags_out, left, closed, ids]
        md.manifest.update(targets=["train_op"], init=["init"], steps=4)
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            losses, last, whole = [], None, 0
            while True:
                try:
                    last = sess.run(fetches + [train_op])[:-1]
                except tf.errors.OutOfRangeError:
                    break
                losses.append(last[0])
                whole += 1
        assert whole == 5, whole
        for t, v in zip(fetches, last):
            # (Strings as fixed-width bytes: .npy holds no objects.)
            md.add_fetch(t.name, v.astype(bytes) if v.dtype == object else v)
        np.save(md.path("outputs", "step_losses.npy"),
                np.array(losses, np.float32), allow_pickle=False)
        md.manifest["step_losses"] = "outputs/step_losses.npy"
        md.manifest["input_ends_after"] = whole
        md.write_text(g.as_graph_def())
    md.verify()
    md.finish()


def record_fourth_step(md, g, init, train, fetches):
    """Runs `init` and 3 steps of `train` in TensorFlow, then records in
    `md` the fetches of a fourth step, the graph, and the manifest's target
    "train", init "init" and 3 steps before the fetch run."""
    with tf1.Session(graph=g, config=session_config()) as sess:
        sess.run(init)
        for _ in range(3):
            sess.run(train)
        last = sess.run(fetches + [train])[:-1]
    for t, v in zip(fetches, last):
        md.add_fetch(t.name, v)
    md.manifest.update(targets=["train"], init=["init"], steps=3)
    md.write_text(g.as_graph_def())


def make_accumulators(root):
    """ConditionalAccumulators as synchronous replicas use them (white
    paper 4.4): each step applies two gradients at the step's local step k
    (a variable counting steps) and one at k - 1, which is stale and
    dropped, counts them, and takes their mean from a
    ResourceConditionalAccumulator (MEAN, shape [3]), whose global step the
    take advances; a ConditionalAccumulator of the ref form (SUM, shape
    [2, 2], shared_name "sums") has its global step set to k before one
    gradient is applied and taken, and a resource one (SUM, shape [2])
    takes the one gradient applied. The outputs are the fourth step's."""
    name = "accumulators"
    seed_everything(name)
    md = ModelDir(root, name, "training",
                  "Conditional accumulators (MEAN resource form, SUM ref "
                  "form): applies, a stale gradient dropped, takes")
    with tf1_graph(name) as g:
        k = tf1.get_variable("k", initializer=tf.constant(0, tf.int64),
                             use_resource=True)
        step = k.read_value()
        means = tf1.ConditionalAccumulator(tf.float32, shape=[3],
                                           reduction_type="MEAN",
                                           shared_name="means", name="means")
        scale = tf.cast(step + 1, tf.float32)
        a1 = means.apply_grad(tf.constant([1.0, 2.0, 3.0]) * scale,
                              local_step=step, name="apply_1")
        a2 = means.apply_grad(tf.constant([3.0, -2.0, 0.5]), local_step=step,
                              name="apply_2")
        stale = means.apply_grad(tf.constant([100.0, 100.0, 100.0]),
                                 local_step=step - 1, name="apply_stale")
        with tf.control_dependencies([a1, a2, stale]):
            count = means.num_accumulated(name="count")
        with tf.control_dependencies([count]):
            mean = means.take_grad(2, name="take_mean")
        sums = gen_data_flow_ops.conditional_accumulator(
            dtype=tf.float32, shape=[2, 2], shared_name="sums",
            reduction_type="SUM", name="sums")
        set_step = gen_data_flow_ops.accumulator_set_global_step(
            sums, step, name="set_step")
        with tf.control_dependencies([set_step]):
            s1 = gen_data_flow_ops.accumulator_apply_gradient(
                sums, step, tf.constant([[1.0, 2.0], [3.0, 4.0]]) * scale,
                name="apply_sum")
        with tf.control_dependencies([s1]):
            total = gen_data_flow_ops.accumulator_take_gradient(
                sums, 1, dtype=tf.float32, name="take_sum")
        totals = tf1.ConditionalAccumulator(tf.float32, shape=[2],
                                            reduction_type="SUM",
                                            shared_name="totals", name="totals")
        t1 = totals.apply_grad(tf.constant([0.5, -1.0]) * scale,
                               local_step=step, name="apply_total")
        with tf.control_dependencies([t1]):
            pair = totals.take_grad(1, name="take_pair")
        with tf.control_dependencies([mean, total, pair]):
            advance = k.assign_add(1, name="advance")
        fetches = [tf.identity(mean, name="mean"), tf.identity(total, name="total"),
                   tf.identity(count, name="counted"),
                   tf.identity(pair, name="pair")]
        train = tf.group(advance, name="train")
        init = tf1.variables_initializer([k], name="init")
        record_fourth_step(md, g, init, train, fetches)
    md.verify()
    md.finish()


def make_sparse_accumulators(root):
    """SparseConditionalAccumulators as synchronous replicas use them for
    the sparse gradients of embeddings: each step applies, in this order,
    a gradient of unsorted rows with a repeated index (the first apply
    keeps them as they come), one of sorted rows (merged into them as
    TensorFlow merges, as if both were sorted: equal indices summed, each
    row counting its gradients) and one a step older (stale, dropped), at
    the step's local step k (a variable counting steps); counts them, takes
    their mean (MEAN divides each row by its own count) and subtracts half
    of it from a table's rows (ScatterSub, a ref variable). A second
    accumulator (SUM, rows of unknown number, has_known_shape false) takes
    the one gradient applied. The outputs are the fourth step's."""
    name = "sparse_accumulators"
    seed_everything(name)
    md = ModelDir(root, name, "training",
                  "Sparse conditional accumulators (MEAN with a known shape, "
                  "SUM with an unknown first dimension): unsorted and repeated "
                  "indices, a stale gradient dropped, takes, a ScatterSub of "
                  "the mean")
    with tf1_graph(name) as g:
        k = tf1.get_variable("k", initializer=tf.constant(0, tf.int64),
                             use_resource=True)
        step = k.read_value()
        scale = tf.cast(step + 1, tf.float32)
        rows = tf1.SparseConditionalAccumulator(
            tf.float32, shape=[10, 3], reduction_type="MEAN",
            shared_name="rows", name="rows")
        i64 = lambda v: tf.constant(v, tf.int64)
        a1 = rows.apply_grad(
            i64([4, 1, 4]),
            tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [-1.0, 0.5, 2.0]]) * scale,
            grad_shape=i64([10, 3]), local_step=step, name="apply_1")
        with tf.control_dependencies([a1]):
            a2 = rows.apply_grad(
                i64([1, 2, 4, 7]),
                tf.constant([[0.5, 0.5, 0.5], [1.0, -1.0, 2.0],
                             [3.0, 3.0, 3.0], [-2.0, 4.0, 1.0]]),
                grad_shape=i64([10, 3]), local_step=step, name="apply_2")
        with tf.control_dependencies([a2]):
            stale = rows.apply_grad(
                i64([0]), tf.constant([[100.0, 100.0, 100.0]]),
                grad_shape=i64([10, 3]), local_step=step - 1,
                name="apply_stale")
        with tf.control_dependencies([stale]):
            count = rows.num_accumulated(name="count")
        with tf.control_dependencies([count]):
            mean = rows.take_grad(1, name="take_mean")
        table = tf1.get_variable(
            "table", initializer=tf.reshape(tf.range(30, dtype=tf.float32),
                                            [10, 3]), use_resource=False)
        update = tf1.scatter_sub(table, mean.indices, mean.values * 0.5,
                                 name="update")
        sums = tf1.SparseConditionalAccumulator(
            tf.float32, shape=[None, 2], reduction_type="SUM",
            shared_name="sums", name="sums")
        s1 = sums.apply_grad(i64([5, 3]),
                             tf.constant([[1.0, 2.0], [3.0, 4.0]]) * scale,
                             local_step=step, name="apply_sum")
        with tf.control_dependencies([s1]):
            total = sums.take_grad(1, name="take_sum")
        with tf.control_dependencies([update, total.indices]):
            advance = k.assign_add(1, name="advance")
        fetches = [tf.identity(mean.indices, name="indices"),
                   tf.identity(mean.values, name="values"),
                   tf.identity(mean.shape, name="shape"),
                   tf.identity(count, name="counted"),
                   tf.identity(update, name="updated"),
                   tf.identity(total.indices, name="sum_indices"),
                   tf.identity(total.values, name="sum_values"),
                   tf.identity(total.shape, name="sum_shape")]
        train = tf.group(advance, name="train")
        init = tf.group(tf1.variables_initializer([k, table]), name="init")
        record_fourth_step(md, g, init, train, fetches)
    md.verify()
    md.finish()


def make_summaries(root):
    """TensorBoard summaries of a small regression's training: a scalar (the
    loss), histograms of a fed float tensor with zeros and a tiny value, of
    fed int32s and of the weights the step reads, images (fed RGB floats
    with negative values and a NaN; the gray magnitudes of x), a text and
    the weights as a tensor (TensorSummaryV2), merged (merge_all). TF1
    graph, resource variables, SGD with global_step. TensorFlow's FileWriter
    records the merged summary of each of 3 steps (as global steps 1 to 3)
    in outputs/events.out.tfevents.tensorflow; the loss is the fourth step's.
    """
    name = "summaries"
    seed_everything(name)
    rng = np.random.default_rng(model_seed(name))
    md = ModelDir(root, name, "training",
                  "ScalarSummary, HistogramSummary (float and int32), "
                  "ImageSummary, TensorSummaryV2 (text, weights), MergeSummary "
                  "over 3 SGD steps, TensorFlow's event file")
    with tf1_graph(name) as g:
        x = tf1.placeholder(tf.float32, [4, 6], name="x")
        n = tf1.placeholder(tf.int32, [5], name="n")
        y = tf.constant(rng.standard_normal((4, 1)).astype(np.float32), name="y")
        w = tf1.get_variable("w", initializer=tf.constant(
            rng.standard_normal((6, 1)).astype(np.float32)), use_resource=True)
        step = tf1.train.get_or_create_global_step()
        weights = w.read_value()
        loss = tf.reduce_mean(tf.square(tf.matmul(x, weights) - y), name="loss")
        train = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=step, name="train")
        tf1.summary.scalar("loss", loss)
        tf1.summary.histogram("x", x)
        tf1.summary.histogram("ints", n)
        tf1.summary.histogram("w", weights)
        # Two float RGB images with negative values and a NaN pixel (blue,
        # not the default red), and one gray image of the magnitudes of x
        # (nonnegative).
        images = tf1.placeholder(tf.float32, [2, 3, 4, 3], name="images")
        tf1.add_to_collection(tf1.GraphKeys.SUMMARIES, gen_logging_ops.image_summary(
            "pictures", images, max_images=2,
            bad_color=tf.make_tensor_proto([0, 0, 255, 255], tf.uint8),
            name="pictures"))
        tf1.summary.image("magnitudes", tf.reshape(tf.abs(x), [1, 4, 6, 1]),
                          max_outputs=1)
        # A text summary (TensorSummaryV2 of strings, the text plugin's
        # metadata) and the weights as a tensor summary.
        tf1.summary.text("notes", tf.constant(["first", "second line"]))
        tf1.summary.tensor_summary("weights", weights)
        merged = tf1.summary.merge_all(name="merged")
        init = tf1.global_variables_initializer()
        x_value = rng.standard_normal((4, 6)).astype(np.float32)
        x_value[0, :2] = 0.0
        x_value[1, 3] = 1e-13
        n_value = np.array([0, -3, 7, 7, 120000], np.int32)
        images_value = rng.standard_normal((2, 3, 4, 3)).astype(np.float32)
        images_value[1, 2, 3, 1] = np.nan
        md.add_feed("x:0", x_value)
        md.add_feed("n:0", n_value)
        md.add_feed("images:0", images_value)
        feeds = {x: x_value, n: n_value, images: images_value}
        events = md.path("outputs", "events")
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            writer = tf1.summary.FileWriter(events)
            for k in range(3):
                summary, _ = sess.run([merged, train], feeds)
                writer.add_summary(summary, k + 1)
            writer.close()
            md.add_fetch("loss:0", sess.run(loss, feeds))
        (written,) = os.listdir(events)
        os.rename(os.path.join(events, written),
                  md.path("outputs", "events.out.tfevents.tensorflow"))
        os.rmdir(events)
        md.manifest.update(targets=[train.name], init=[init.name], steps=3,
                           summary_fetch=merged.name,
                           summary_events="outputs/events.out.tfevents.tensorflow")
        md.write_text(g.as_graph_def())
    md.verify()
    md.finish()


def make_summaries_v2(root):
    """TF2's summary writer ops in a TF1 training graph: a writer made by
    tf.summary.create_file_writer (SummaryWriter, CreateSummaryFileWriter in
    the init, logdir "logs_v2" relative to the working directory), and at
    each step, before the step's update, at the global step it reads:
    tf.summary.scalar of the loss, tf.summary.histogram of the weights (its
    buckets computed in the graph, in a cond), tf.summary.text,
    tf.summary.image of the first 2 of 3 fed float images (EncodePng; all
    WriteSummary), WriteScalarSummary of a constant and
    WriteHistogramSummary of the fed x (the legacy ops), then
    FlushSummaryWriter. TensorFlow's
    writer's events of 3 steps (global steps 0 to 2) are
    outputs/events.out.tfevents.tensorflow; the loss is the fourth step's."""
    name = "summaries_v2"
    seed_everything(name)
    rng = np.random.default_rng(model_seed(name))
    md = ModelDir(root, name, "training",
                  "WriteSummary (scalar, histogram, text, image), WriteScalarSummary, "
                  "WriteHistogramSummary, CreateSummaryFileWriter, "
                  "FlushSummaryWriter over 3 SGD steps, TensorFlow's event file")
    # The writer's logdir is relative: TensorFlow runs in a scratch
    # directory, which also takes the verification run's events.
    scratch = tempfile.mkdtemp()
    cwd = os.getcwd()
    os.chdir(scratch)
    try:
        with tf1_graph(name) as g:
            x = tf1.placeholder(tf.float32, [4, 6], name="x")
            images = tf1.placeholder(tf.float32, [3, 3, 4, 3], name="images")
            y = tf.constant(rng.standard_normal((4, 1)).astype(np.float32), name="y")
            w = tf1.get_variable("w", initializer=tf.constant(
                rng.standard_normal((6, 1)).astype(np.float32)), use_resource=True)
            global_step = tf1.train.get_or_create_global_step()
            weights = w.read_value()
            loss = tf.reduce_mean(tf.square(tf.matmul(x, weights) - y), name="loss")
            writer = tf.summary.create_file_writer("logs_v2", name="writer")
            step = global_step.read_value()
            with writer.as_default(step=step):
                written = [
                    tf.summary.scalar("loss", loss),
                    tf.summary.histogram("weights", weights),
                    tf.summary.text("note", tf.constant("a step of SGD")),
                    tf.summary.image("pictures", images, max_outputs=2),
                    gen_summary_ops.write_scalar_summary(
                        writer._resource, step, "learning_rate",
                        tf.constant(0.1), name="learning_rate"),
                    gen_summary_ops.write_histogram_summary(
                        writer._resource, step, "x", x, name="x_histogram"),
                ]
            with tf.control_dependencies(written):
                update = tf1.train.GradientDescentOptimizer(0.1).minimize(
                    loss, global_step=global_step)
            with tf.control_dependencies([update]):
                flush = writer.flush()
            train = tf.group(update, flush, name="train")
            init = tf.group(tf1.variables_initializer(tf1.global_variables(),
                                                      name="variables"),
                            writer.init(), name="init")
            x_value = rng.standard_normal((4, 6)).astype(np.float32)
            images_value = rng.random((3, 3, 4, 3)).astype(np.float32)
            md.add_feed("x:0", x_value)
            md.add_feed("images:0", images_value)
            feeds = {x: x_value, images: images_value}
            with tf1.Session(graph=g, config=session_config()) as sess:
                sess.run(init)
                for _ in range(3):
                    sess.run(train, feeds)
                md.add_fetch("loss:0", sess.run(loss, feeds))
            (events,) = os.listdir("logs_v2")
            shutil.move(os.path.join("logs_v2", events),
                        md.path("outputs", "events.out.tfevents.tensorflow"))
            md.manifest.update(targets=["train"], init=["init"], steps=3,
                               summary_events="outputs/events.out.tfevents.tensorflow")
            md.write_text(g.as_graph_def())
        md.verify()
    finally:
        os.chdir(cwd)
        shutil.rmtree(scratch)
    md.finish()


def make_queue_shuffle(root):
    """Shuffle queues (RandomShuffleQueueV2) with the graph's seeds, whose
    order tfc must draw as TensorFlow does: the init fills `pool` with 24
    examples (features, an id, a tag) and leaves it open with
    min_after_dequeue 8, and fills `closed_pool` with 14 ids and closes it
    (its min_after_dequeue of 20 then no longer holds; shared_name
    "pool_ids"). Each step takes 3
    ids from `closed_pool` and then 4 examples from `pool`; the fifth step
    finds 2 ids and ends the input before `pool` would have to wait. The
    outputs are the fourth step's, whose elements depend on every draw
    before them."""
    name = "queue_shuffle"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "RandomShuffleQueues filled by the init, one open with "
                  "min_after_dequeue 8 and one closed; 4 steps draw from both")
    with tf1_graph(name) as g:
        features = rng.standard_normal((24, 2)).astype(np.float32)
        ids = np.arange(100, 124, dtype=np.int32)
        tags = np.array([b"example-%d" % i for i in range(24)])
        pool = tf1.RandomShuffleQueue(30, 8, [tf.float32, tf.int32, tf.string],
                                      shapes=[[2], [], []], name="pool")
        fill = pool.enqueue_many([features, ids, tags], name="fill")
        closed_pool = tf1.RandomShuffleQueue(30, 20, [tf.int32], shapes=[[]],
                                             shared_name="pool_ids",
                                             name="closed_pool")
        fill_closed = closed_pool.enqueue_many(
            [np.arange(14, dtype=np.int32)], name="fill_closed")
        with tf.control_dependencies([fill_closed]):
            close = closed_pool.close(name="close")
        init = tf.group(fill, close, name="init")
        picked = closed_pool.dequeue_many(3, name="pick")
        with tf.control_dependencies([picked]):
            x, example_id, tag = pool.dequeue_many(4, name="draw")
        with tf.control_dependencies([x]):
            left = pool.size(name="left")
        fetches = [tf.identity(picked, name="picked"), tf.identity(x, name="x"),
                   tf.identity(example_id, name="ids"),
                   tf.identity(tag, name="tags"), left]
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            last, whole = None, 0
            while True:
                try:
                    last = sess.run(fetches)
                except tf.errors.OutOfRangeError:
                    break
                whole += 1
        assert whole == 4, whole
        for t, v in zip(fetches, last):
            md.add_fetch(t.name, v.astype(bytes) if v.dtype == object else v)
        md.manifest.update(init=["init"], input_ends_after=whole)
        md.write_text(g.as_graph_def())
    md.finish()


def run_with_queue_runners(g, init, fetches, train_op):
    """Runs `init`, starts the graph's queue runners and runs steps (the
    fetches and `train_op`) until the input ends; returns the outputs of
    the last whole step and every step's first fetch."""
    with tf1.Session(graph=g, config=session_config()) as sess:
        sess.run(init)
        coord = tf1.train.Coordinator()
        threads = tf1.train.start_queue_runners(sess, coord)
        losses, last = [], None
        try:
            while True:
                last = sess.run(fetches + [train_op])[:-1]
                losses.append(last[0])
        except tf.errors.OutOfRangeError:
            pass
        coord.request_stop()
        coord.join(threads)
    return last, losses


def regression_rows(rng, count):
    """`count` examples of 3 features and their labels, y = x . (0.5, 1,
    -1.5) - 0.75: the linear regression of the queue-fed models."""
    features = rng.standard_normal((count, 3)).astype(np.float32)
    labels = (features @ np.array([0.5, 1.0, -1.5], np.float32)
              - 0.75).astype(np.float32)
    return features, labels


def linear_regression_sgd(xb, yb):
    """The queue-fed models' training on batches xb, yb: resource variables
    w and b (zeros), their mean squared error "loss", an SGD step of 0.1
    "sgd" and w after it ("w_after")."""
    w = tf1.get_variable("w", initializer=tf.zeros([3]), use_resource=True)
    b = tf1.get_variable("b", initializer=tf.zeros([]), use_resource=True)
    loss = tf.reduce_mean(tf.square(tf.linalg.matvec(xb, w) + b - yb),
                          name="loss")
    sgd = tf1.train.GradientDescentOptimizer(0.1).minimize(loss, name="sgd")
    with tf.control_dependencies([sgd]):
        w_after = tf.identity(w.read_value(), name="w_after")
    return loss, sgd, w_after


def init_all_variables():
    """"init": of the global and the local variables (those of the input's
    epoch counter)."""
    init = tf.group(
        tf1.variables_initializer(tf1.global_variables(), name="globals"),
        tf1.variables_initializer(tf1.local_variables(), name="locals"),
        name="init")
    assert init.name == "init", init.name
    return init


def record_queue_training(md, g, init, fetches, sgd, steps):
    """Trains `g` with its queue runners until the input ends, which must
    take `steps` whole steps, and records in `md` the fetches of the last
    whole step, the loss before each step, the runners' enqueue nodes (the
    graph's collection) and the graph. Returns the fetched values."""
    runners = [[op.name for op in qr.enqueue_ops]
               for qr in g.get_collection(tf1.GraphKeys.QUEUE_RUNNERS)]
    last, losses = run_with_queue_runners(g, init, fetches, sgd)
    assert len(losses) == steps, losses
    for t, v in zip(fetches, last):
        md.add_fetch(t.name, v.astype(bytes) if v.dtype == object else v)
    np.save(md.path("outputs", "step_losses.npy"),
            np.array(losses, np.float32), allow_pickle=False)
    md.manifest.update(targets=["sgd"], init=["init"],
                       queue_runners=runners,
                       step_losses="outputs/step_losses.npy",
                       input_ends_after=len(losses))
    md.write_text(g.as_graph_def())
    return last


def make_queue_runners(root):
    """TF1 training fed by queue runners, as tf.compat.v1's input pipelines
    build it: slice_input_producer (two epochs of 10 examples in order, a
    ResourceCountUpTo ending them) feeds tf.train.batch, one thread each,
    and each step takes a batch of 4 for an SGD step, so the sixth step
    finds the input ended. The manifest lists the runners' enqueue nodes
    (`queue_runners`, from the graph's collection) and the outputs of the
    last whole step."""
    name = "queue_runners"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 linear regression fed by queue runners: "
                  "slice_input_producer (2 epochs of 10) into tf.train.batch "
                  "of 4, SGD per step")
    with tf1_graph(name) as g:
        features, labels = regression_rows(rng, 10)
        tags = np.array([b"row-%d" % i for i in range(10)])
        x, y, tag = tf1.train.slice_input_producer(
            [features, labels, tags], num_epochs=2, shuffle=False, capacity=8)
        xb, yb, tagb = tf1.train.batch([x, y, tag], batch_size=4, capacity=6,
                                       num_threads=1)
        loss, sgd, w_after = linear_regression_sgd(xb, yb)
        tags_out = tf.identity(tagb, name="tags")
        init = init_all_variables()
        fetches = [loss, w_after, tags_out]
        last = record_queue_training(md, g, init, fetches, sgd, 5)
        # Queue runners on one thread each: the order is TensorFlow's.
        again, _ = run_with_queue_runners(g, init, fetches, sgd)
        assert all(identical(a, b) for a, b in zip(last, again))
        # The MetaGraphDef a TF1 user keeps (Saver.save writes it beside
        # the checkpoint), whose queue_runners collection names the runners.
        tf1.train.export_meta_graph(filename=md.path("model.meta"), graph=g)
        md.manifest["meta_graph"] = "model.meta"
    md.finish()


def make_queue_smaller_batch(root):
    """TF1 training whose last batch is smaller: slice_input_producer (one
    epoch of 10 examples in order) feeds tf.train.batch of 4 with
    allow_smaller_final_batch, whose QueueDequeueUpToV2 gives 4, 4, then
    the 2 left once the input is closed; a fourth step finds it ended. The
    loss is the mean over the batch's rows, and SGD's gradient sums over
    them: the last step's are of 2 rows. The manifest lists the runners'
    enqueue nodes and the outputs of the last (smaller) step."""
    name = "queue_smaller_batch"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 linear regression fed by queue runners: "
                  "slice_input_producer (1 epoch of 10) into tf.train.batch "
                  "of 4 with allow_smaller_final_batch (4, 4, 2), SGD")
    with tf1_graph(name) as g:
        features, labels = regression_rows(rng, 10)
        x, y = tf1.train.slice_input_producer(
            [features, labels], num_epochs=1, shuffle=False, capacity=8)
        xb, yb = tf1.train.batch([x, y], batch_size=4, capacity=6,
                                 num_threads=1, allow_smaller_final_batch=True)
        assert any(op.type == "QueueDequeueUpToV2" for op in g.get_operations())
        loss, sgd, w_after = linear_regression_sgd(xb, yb)
        init = init_all_variables()
        record_queue_training(md, g, init, [loss, w_after], sgd, 3)
    md.finish()


def worker0_replica_setter():
    """TF1's replica_device_setter for worker 0 of a job with one ps task:
    the graph between-graph replication takes as its template."""
    return tf1.train.replica_device_setter(
        ps_tasks=1, worker_device="/job:worker/task:0")


def replica_mlp(output_bias):
    """The MLP regression 8->6->1 of the ps_* models, with ref variables
    and a global_step, built under a replica device setter: its global step
    and loss (feeds x and y)."""
    global_step = tf1.train.get_or_create_global_step()
    x = tf1.placeholder(tf.float32, [4, 8], name="x")
    y = tf1.placeholder(tf.float32, [4, 1], name="y")
    with tf1.variable_scope("model"):
        w1 = tf1.get_variable(
            "w1", [8, 6], use_resource=False,
            initializer=tf1.glorot_uniform_initializer())
        b1 = tf1.get_variable("b1", [6], use_resource=False,
                              initializer=tf1.zeros_initializer())
        w2 = tf1.get_variable(
            "w2", [6, 1], use_resource=False,
            initializer=tf1.truncated_normal_initializer(stddev=0.5))
        b2 = tf1.get_variable("b2", [1], use_resource=False,
                              initializer=tf1.constant_initializer(0.1)) \
            if output_bias else None
    h = tf.tanh(tf.nn.bias_add(tf.matmul(x, w1), b1))
    out = tf.matmul(h, w2)
    if output_bias:
        out = tf.nn.bias_add(out, b2)
    loss = tf.identity(tf.reduce_mean(tf.square(out - y)), name="loss")
    return global_step, loss


def model_parallel_lstm_graph(name, rng, train):
    """The graph of make_model_parallel_lstm: a two-layer LSTM over 6 time
    steps, a layer per task. Inference: constant weights, fetches y (every
    step's output) and state. Training (`train`): resource variables, a
    target to regress on, loss and plain SGD whose gradients are colocated
    with their forward ops (colocate_gradients_with_ops), so that the
    gradient loop spans the tasks too."""
    steps, batch, features, units = 6, 2, 4, 8
    first, second = "/job:worker/task:0", "/job:worker/task:1"
    with tf1_graph(name) as g:
        with tf1.device(first):
            x = tf1.placeholder(tf.float32, [steps, batch, features], name="x")
            inputs = tf1.TensorArray(tf.float32, size=steps,
                                     name="inputs").unstack(x)
            outputs = tf1.TensorArray(tf.float32, size=steps, name="outputs")

        def weights(layer, fan_in):
            w = (rng.standard_normal((fan_in + units, 4 * units)) * 0.4
                 ).astype(np.float32)
            b = (rng.standard_normal(4 * units) * 0.1).astype(np.float32)
            if train:
                return (tf1.get_variable(layer + "/kernel", initializer=w,
                                         use_resource=True),
                        tf1.get_variable(layer + "/bias", initializer=b,
                                         use_resource=True))
            return (tf.constant(w, name=layer + "/kernel"),
                    tf.constant(b, name=layer + "/bias"))

        with tf1.device(first):
            layer1_weights = weights("layer1", features)
        with tf1.device(second):
            layer2_weights = weights("layer2", units)

        def cell(params, inp, h, c):
            # Keras's form: the input's and the state's products added.
            kernel, bias = params
            fan_in = int(inp.shape[1])
            z = (tf.matmul(inp, kernel[:fan_in]) +
                 tf.matmul(h, kernel[fan_in:]) + bias)
            i, j, f, o = tf.split(z, 4, axis=1)
            c = tf.sigmoid(f + 1.0) * c + tf.sigmoid(i) * tf.tanh(j)
            return tf.sigmoid(o) * tf.tanh(c), c

        def body(t, h1, c1, h2, c2, out):
            with tf1.device(first):
                h1, c1 = cell(layer1_weights, inputs.read(t), h1, c1)
            with tf1.device(second):
                h2, c2 = cell(layer2_weights, h1, h2, c2)
            with tf1.device(first):
                out = out.write(t, h2)
                t = t + 1
            return t, h1, c1, h2, c2, out

        zeros = tf.zeros([batch, units])
        with tf1.device(first):
            loop = tf1.while_loop(lambda t, *_: t < steps, body,
                                  [tf.constant(0), zeros, zeros, zeros, zeros,
                                   outputs], name="rnn")
            y = tf.identity(loop[5].stack(), name="y")
        with tf1.device(second):
            tf.identity(loop[4], name="state")
        if train:
            with tf1.device(first):
                target = tf1.placeholder(tf.float32, [steps, batch, units],
                                         name="target")
                loss = tf.reduce_mean(tf.square(y - target), name="loss")
                tf1.train.GradientDescentOptimizer(0.5).minimize(
                    loss, colocate_gradients_with_ops=True, name="train")
            with tf1.device(second):
                tf.identity(layer2_weights[0], name="layer2_kernel")
            tf.group(tf1.global_variables_initializer(), name="init")
        devices = sorted({op.device for op in g.get_operations() if op.device})
        assert devices == [first, second], devices
    feeds = {"x:0": rng.standard_normal((steps, batch, features)).astype(np.float32)}
    if train:
        feeds["target:0"] = (rng.standard_normal((steps, batch, units)) *
                             0.3).astype(np.float32)
    return g.as_graph_def(), feeds


def make_model_parallel_lstm(root):
    """The classic model-parallel RNN (white paper §4.4): a two-layer LSTM
    unrolled by a TF1 while_loop (as dynamic_rnn builds it: TensorArrays
    for the time steps), the first layer on /job:worker/task:0 and the
    second on /job:worker/task:1, each iteration's hidden state crossing
    from one task to the other. The loop's counter, condition and input
    are the first task's. Weights are constants (an inference graph)."""
    name = "model_parallel_lstm"
    rng = seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF1 while_loop over 6 time steps of a two-layer LSTM "
                  "(8 units each), one layer per task (model parallelism)")
    gd, feeds = model_parallel_lstm_graph(name, rng, train=False)
    md.write_text(gd)
    md.write_frozen(gd)
    for tensor, value in feeds.items():
        md.add_feed(tensor, value)
    values = run_graph_def(without_devices(gd), md.feed_values,
                           ["y:0", "state:0"])
    for tensor, value in zip(["y:0", "state:0"], values):
        md.add_fetch(tensor, value)
    md.manifest["roundtrip_flags"] = "--soft-placement"
    md.finish()


def make_model_parallel_lstm_train(root):
    """make_model_parallel_lstm's LSTM trained: 3 steps of SGD on one
    batch, the gradient loop (TensorFlow's while-loop gradients, with
    stacks of the forward values) also a layer per task. TensorFlow runs
    it in one process (devices dropped; its own two-task run gives the
    same losses). Fetches after the steps: the loss and layer 2's kernel;
    the loss before each step in step_losses.npy."""
    name = "model_parallel_lstm_train"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "the two-layer LSTM of model_parallel_lstm with variables, "
                  "trained by SGD (3 steps), forward and gradient loops a "
                  "layer per task")
    gd, feeds = model_parallel_lstm_graph(name, rng, train=True)
    md.write_text(gd)
    for tensor, value in feeds.items():
        md.add_feed(tensor, value)
    train_in_one_process(md, gd, 3, "train", ["loss:0", "layer2_kernel:0"])
    md.finish()


def train_in_one_process(md, graph_def, steps, target, fetches):
    """TensorFlow trains `graph_def` (which runs `init`, and whose fetches
    begin with loss:0) in one process, devices dropped, on md's feeds:
    the loss before each of `steps` runs of `target` and after them
    (outputs/step_losses.npy), and `fetches` after them (the model's
    fetches). Returns those fetched values."""
    with tf.Graph().as_default() as run:
        tf1.import_graph_def(without_devices(graph_def), name="")
        with tf1.Session(graph=run, config=session_config()) as sess:
            sess.run("init")
            losses = []
            for _ in range(steps):
                losses.append(sess.run("loss:0", md.feed_values))
                sess.run(target, md.feed_values)
            values = sess.run(fetches, md.feed_values)
    losses.append(values[0])
    for tensor, value in zip(fetches, values):
        md.add_fetch(tensor, value)
    np.save(md.path("outputs", "step_losses.npy"),
            np.array(losses, np.float32), allow_pickle=False)
    md.manifest.update(targets=[target], init=["init"], steps=steps,
                       step_losses="outputs/step_losses.npy",
                       roundtrip_flags="--soft-placement")
    return values


def without_devices(graph_def):
    """A copy of `graph_def` without device requests, for TensorFlow to run
    in one process."""
    local = type(graph_def)()
    local.CopyFrom(graph_def)
    for node in local.node:
        node.device = ""
    return local


def make_ps_async_mlp(root):
    """Between-graph asynchronous training (white paper §4.4, OSDI §4.2): the
    graph of worker 0 as TF1's replica_device_setter builds it, its
    variables and their updates (and global_step) on /job:ps/task:0, the
    rest on /job:worker/task:0, trained with SGD. Worker 0 feeds inputs
    0-1, worker 1 inputs 2-3 (the manifest's `workers`). Each worker also
    counts its own steps in a local variable (LOCAL_VARIABLES, on the
    worker, set to 0 by the `local_init` entry each worker runs). The step
    losses are TensorFlow's for worker 0's 3 steps followed by worker 1's 3
    (one session, in that order, the local init run again where worker 1
    starts): what a job gives when worker 1 starts after worker 0's steps;
    the fetches are worker 1's last loss and its count."""
    name = "ps_async_mlp"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 MLP regression 8->6->1 for between-graph replication "
                  "(replica_device_setter over 1 ps task), ref variables, "
                  "SGD with global_step")
    steps = 3
    with tf1_graph(name) as g:
        with tf1.device(worker0_replica_setter()):
            global_step, loss = replica_mlp(output_bias=True)
            train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
                loss, global_step=global_step, name="train_op")
            init = tf1.variables_initializer(tf1.global_variables(),
                                             name="init")
        with tf1.device("/job:worker/task:0"):
            local_steps = tf1.get_variable(
                "local_steps", initializer=tf.constant(0, tf.int64),
                use_resource=True, trainable=False,
                collections=[tf1.GraphKeys.LOCAL_VARIABLES])
            with tf.control_dependencies([train_op]):
                tf.identity(local_steps.assign_add(1), name="local_count")
            tf1.variables_initializer(tf1.local_variables(), name="local_init")
        devices = {op.device for op in g.get_operations() if op.device}
        assert devices == {"/job:ps/task:0", "/job:worker/task:0"}, devices
        assert train_op.name == "train_op"
        feeds = []
        for _ in range(2):
            feeds.append({"x:0": rng.standard_normal((4, 8)).astype(np.float32),
                          "y:0": rng.standard_normal((4, 1)).astype(np.float32)})
        # The manifest's feeds are worker 0's; worker 1's files follow.
        for t, v in feeds[0].items():
            md.add_feed(t, v)
        for i, v in enumerate(feeds[1].values()):
            np.save(md.path("inputs", "%d.npy" % (2 + i)), v,
                    allow_pickle=False)
        md.write_text(g.as_graph_def())
    # TensorFlow runs it in one process, its device requests dropped.
    with tf.Graph().as_default() as run:
        tf1.import_graph_def(without_devices(g.as_graph_def()), name="")
        with tf1.Session(graph=run, config=session_config()) as sess:
            sess.run("init")
            losses, counts = [], []
            for worker in feeds:
                # Each worker's local variables are its own.
                sess.run("local_init")
                for _ in range(steps):
                    loss_value, count = sess.run(["loss:0", "local_count:0"],
                                                 worker)
                    losses.append(loss_value)
                counts.append(count)
            final = sess.run(["loss:0", "global_step/Read/ReadVariableOp:0"],
                             feeds[1])
        assert final[1] == 2 * steps, final
        assert counts == [steps, steps], counts
        md.add_fetch("loss:0", losses[-1])
        md.add_fetch("local_count:0", counts[-1])
        np.save(md.path("outputs", "step_losses.npy"),
                np.array(losses, np.float32), allow_pickle=False)
        md.manifest.update(targets=["train_op"], init=["init"], steps=steps,
                           local_init=["local_init"],
                           step_losses="outputs/step_losses.npy",
                           workers=[["inputs/0.npy", "inputs/1.npy"],
                                    ["inputs/2.npy", "inputs/3.npy"]],
                           # Compiled for one process, the ps and worker
                           # requests give way (tf.ConfigProto's
                           # allow_soft_placement).
                           roundtrip_flags="--soft-placement")
    md.finish()


def make_ps_sync_mlp(root):
    """Synchronous replicas (OSDI §4.4): the MLP of ps_async_mlp built for
    worker 0 by replica_device_setter with SyncReplicasOptimizer(SGD,
    replicas_to_aggregate=2, total_num_replicas=2), no initial tokens
    (get_init_tokens_op(0)): every update is the mean of one gradient of
    each worker at the same weights, and a worker's next step waits for it,
    so the steps are TensorFlow's in lockstep whatever the timing. The
    manifest names the optimizer's parts as TensorFlow's session hook runs
    them: the local step's init (every worker), the chief's init, its
    tokens, the chief queue runner. The step losses are TensorFlow's, each
    worker a thread of one session with the chief queue runner on another,
    worker 0's then worker 1's."""
    name = "ps_sync_mlp"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 MLP regression 8->6->1 for synchronous replicas "
                  "(SyncReplicasOptimizer over SGD, 2 of 2 replicas, "
                  "replica_device_setter over 1 ps task), ref variables")
    with tf1_graph(name) as g:
        with tf1.device(worker0_replica_setter()):
            global_step, loss = replica_mlp(output_bias=False)
            parts = sync_replicas_train_op(loss, global_step, 0.1)
        md.write_text(g.as_graph_def())
    feeds = [{"x:0": rng.standard_normal((4, 8)).astype(np.float32),
              "y:0": rng.standard_normal((4, 1)).astype(np.float32)}
             for _ in range(2)]
    record_sync_lockstep(md, g, parts, feeds, steps=4)


def make_ps_sync_embedding(root):
    """Synchronous replicas of an embedding model (OSDI §4.2 and §4.4): a
    20x4 table and a 4x1 weight (ref variables, replica_device_setter over
    one ps task) regress y on the sum of each example's two rows; under
    SyncReplicasOptimizer(SGD, 2 of 2 replicas, no initial tokens) the
    table's gradient is rows (IndexedSlices) and goes through a
    SparseConditionalAccumulator, whose take the chief's update subtracts
    from the table's rows (ScatterSub), the weight's through a dense one.
    Each worker's ids repeat within its batch and share ids with the
    other's, so the take merges rows of both. In lockstep, as ps_sync_mlp;
    the step losses are TensorFlow's, worker 0's then worker 1's."""
    name = "ps_sync_embedding"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 embedding regression (20x4 table) for synchronous "
                  "replicas: SyncReplicasOptimizer over SGD, 2 of 2 replicas, "
                  "sparse and dense accumulators on 1 ps task, ref variables")
    with tf1_graph(name) as g:
        with tf1.device(worker0_replica_setter()):
            global_step = tf1.train.get_or_create_global_step()
            ids = tf1.placeholder(tf.int64, [6], name="ids")
            y = tf1.placeholder(tf.float32, [3, 1], name="y")
            table = tf1.get_variable(
                "emb", [20, 4], use_resource=False,
                initializer=tf1.random_normal_initializer(stddev=0.5))
            w = tf1.get_variable("w", [4, 1], use_resource=False,
                                 initializer=tf1.glorot_uniform_initializer())
            rows = tf1.nn.embedding_lookup(table, ids)
            examples = tf.reduce_sum(tf.reshape(rows, [3, 2, 4]), axis=1)
            loss = tf.identity(
                tf.reduce_mean(tf.square(tf.matmul(examples, w) - y)),
                name="loss")
            parts = sync_replicas_train_op(loss, global_step, 0.2)
        md.write_text(g.as_graph_def())
    assert any(op.type == "SparseConditionalAccumulator"
               for op in g.get_operations())
    feeds = [{"ids:0": np.array(i, np.int64),
              "y:0": rng.standard_normal((3, 1)).astype(np.float32)}
             for i in ([5, 2, 5, 11, 0, 5], [11, 3, 2, 2, 19, 7])]
    record_sync_lockstep(md, g, parts, feeds, steps=4)


def sync_replicas_train_op(loss, global_step, rate):
    """train_op: SyncReplicasOptimizer over SGD at `rate`, 2 of 2 replicas,
    and init; returns the optimizer's parts by the names TensorFlow gives
    them."""
    opt = tf1.train.SyncReplicasOptimizer(
        tf1.train.GradientDescentOptimizer(rate),
        replicas_to_aggregate=2, total_num_replicas=2)
    tf.group(opt.minimize(loss, global_step=global_step), name="train_op")
    runner = opt.get_chief_queue_runner()
    tokens = opt.get_init_tokens_op(0)
    tf.group(tf1.global_variables_initializer(), name="init")
    return {"local_init": opt.local_step_init_op.name,
            "chief_init": opt.chief_init_op.name,
            "init_tokens": tokens.name,
            "chief_queue_runner": runner.enqueue_ops[0].name}


def record_sync_lockstep(md, g, parts, feeds, steps):
    """Runs the sync replicas graph `g` in TensorFlow, each of two workers
    `steps` steps on its batch (`feeds`, by tensor name), and records worker
    0's batch as the feeds, worker 1's as inputs 2 and on, the losses of
    every step (worker 0's then worker 1's), the last one as the fetch, and
    the optimizer's `parts` as the session hook runs them."""
    for t, v in feeds[0].items():
        md.add_feed(t, v)
    for i, v in enumerate(feeds[1].values()):
        np.save(md.path("inputs", "%d.npy" % (len(feeds[0]) + i)), v,
                allow_pickle=False)
    # TensorFlow in one process, devices dropped: the chief's inits, the
    # chief queue runner on a thread, each worker on a thread.
    import threading
    with tf.Graph().as_default() as run:
        tf1.import_graph_def(without_devices(g.as_graph_def()), name="")
        sess = tf1.Session(graph=run, config=session_config())
        for op in ("init", parts["local_init"], parts["chief_init"],
                   parts["init_tokens"]):
            sess.run(op)

        def chief_runner():
            try:
                while True:
                    sess.run(parts["chief_queue_runner"])
            except tf.errors.CancelledError:
                pass

        losses = [[], []]

        def worker(k):
            for _ in range(steps):
                losses[k].append(sess.run(["loss:0", "train_op"], feeds[k])[0])

        threads = [threading.Thread(target=chief_runner)]
        threads += [threading.Thread(target=worker, args=(k,)) for k in range(2)]
        for t in threads[1:] + threads[:1]:
            t.start()
        for t in threads[1:]:
            t.join()
        final = sess.run("global_step/Read/ReadVariableOp:0")
        sess.close()
        threads[0].join()
    assert final == steps, final
    md.add_fetch("loss:0", losses[1][-1])
    np.save(md.path("outputs", "step_losses.npy"),
            np.array(losses[0] + losses[1], np.float32), allow_pickle=False)
    inputs = lambda first: ["inputs/%d.npy" % (first + i)
                            for i in range(len(feeds[0]))]
    md.manifest.update(targets=["train_op"], init=["init"], steps=steps,
                       local_init=[parts["local_init"]],
                       chief_init=[parts["chief_init"], parts["init_tokens"]],
                       queue_runners=[[parts["chief_queue_runner"]]],
                       step_losses="outputs/step_losses.npy",
                       workers=[inputs(0), inputs(len(feeds[0]))],
                       roundtrip_flags="--soft-placement")
    md.finish()


def make_ps_sync_backup_linear(root):
    """Synchronous replicas with a backup worker (OSDI §4.4): a linear
    regression 8->1 (one weight matrix) under SyncReplicasOptimizer(SGD,
    replicas_to_aggregate=2, total_num_replicas=3), replica_device_setter
    over one ps task, kept as TF1 users keep it, a MetaGraphDef
    (model.meta) exported before any session ran: without the initial
    tokens op, which TensorFlow's session hook makes (replicas_to_aggregate
    tokens) and tfc makes in its place.

    Every worker feeds the same batch. With one variable, and so one
    accumulator, a gradient the take counts was computed from exactly the
    weights the update starts from: the take comes before the apply, and a
    gradient of weights read after the take is stale and dropped. So
    whichever workers' gradients make an update, and however many, the
    weights after k updates are those of k steps of plain SGD on that
    batch. (With several variables each applies as soon as its own take is
    done, and a worker holding a spare token may read half-updated weights
    whose gradient still counts for a variable not yet taken: then no order
    is the right one, in TensorFlow either.) The step losses are
    TensorFlow's for that SGD, loss(W_0) ... loss(W_K), from the same
    graph's session."""
    name = "ps_sync_backup_linear"
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 linear regression 8->1 for synchronous replicas with "
                  "a backup worker (SyncReplicasOptimizer over SGD, 2 of 3 "
                  "replicas), as a MetaGraphDef without initial tokens")
    trajectory, rate = 600, 0.01
    with tf1_graph(name) as g:
        with tf1.device(worker0_replica_setter()):
            global_step = tf1.train.get_or_create_global_step()
            x = tf1.placeholder(tf.float32, [4, 8], name="x")
            y = tf1.placeholder(tf.float32, [4, 1], name="y")
            with tf1.variable_scope("model"):
                w = tf1.get_variable(
                    "w", [8, 1], use_resource=False,
                    initializer=tf1.glorot_uniform_initializer())
            loss = tf.identity(tf.reduce_mean(tf.square(tf.matmul(x, w) - y)),
                               name="loss")
            opt = tf1.train.SyncReplicasOptimizer(
                tf1.train.GradientDescentOptimizer(rate),
                replicas_to_aggregate=2, total_num_replicas=3)
            tf.group(opt.minimize(loss, global_step=global_step),
                     name="train_op")
            runner = opt.get_chief_queue_runner()
            tf.group(tf1.global_variables_initializer(), name="init")
        parts = {"local_init": opt.local_step_init_op.name,
                 "chief_init": opt.chief_init_op.name,
                 "chief_queue_runner": runner.enqueue_ops[0].name}
        md.write_text(g.as_graph_def())
        tf1.train.export_meta_graph(filename=md.path("model.meta"), graph=g)
        md.manifest["meta_graph"] = "model.meta"
    feeds = {"x:0": rng.standard_normal((4, 8)).astype(np.float32),
             "y:0": rng.standard_normal((4, 1)).astype(np.float32)}
    for t, v in feeds.items():
        md.add_feed(t, v)
    # TensorFlow, devices dropped: plain SGD on the batch from the graph's
    # initial weights, the loss before each step.
    with tf.Graph().as_default() as run:
        tf1.import_graph_def(without_devices(g.as_graph_def()), name="")
        weight = run.get_tensor_by_name("model/w:0")
        loss_t = run.get_tensor_by_name("loss:0")
        (grad,) = tf1.gradients(loss_t, [weight])
        sgd = tf1.assign_sub(weight, rate * grad)
        with tf1.Session(graph=run, config=session_config()) as sess:
            sess.run("init")
            losses = []
            for _ in range(trajectory):
                losses.append(sess.run(loss_t, feeds))
                sess.run(sgd, feeds)
            losses.append(sess.run(loss_t, feeds))
    # Each step's loss tells its weights from the next's (rtol 1e-4).
    assert all(a > b * (1 + 1e-3) for a, b in zip(losses, losses[1:]))
    md.add_fetch("loss:0", losses[0])
    np.save(md.path("outputs", "step_losses.npy"),
            np.array(losses, np.float32), allow_pickle=False)
    md.manifest.update(targets=["train_op"], init=["init"],
                       step_losses="outputs/step_losses.npy",
                       replicas_to_aggregate=2, total_num_replicas=3,
                       sync_parts=parts,
                       roundtrip_flags="--soft-placement")
    md.finish()


def make_ps_embedding(root, strategy, partitioner="fixed"):
    """Sharded embeddings (OSDI §4.2, Figure 3): a table of 1000 rows of 8
    split over two ps tasks (ref variables, as replica_device_setter places
    them, round-robin: part_0 on /job:ps/task:0, part_1 on task 1, part_2
    on task 0), by fixed_size_partitioner(2) or, with `partitioner`
    "minmax", by min_max_variable_partitioner into 3 uneven parts (334,
    333, 333 rows), looked up with embedding_lookup's partition_strategy
    `strategy` ("mod": id % parts picks the shard; "div": contiguous
    ranges):
    DynamicPartition of the ids, a Gather on each shard's own task,
    ParallelDynamicStitch of the rows. The sum of each example's rows times
    w is regressed on y; SGD's sparse update applies each shard's rows of
    the gradient there (ScatterSub), so that only the rows a step touches
    cross the network. Ids repeat within a batch (their gradients add up).
    Fetches after 3 steps: the loss and the rows the batch touches."""
    name = "ps_embedding_" + (strategy if partitioner == "fixed"
                              else partitioner)
    rng = seed_everything(name)
    md = ModelDir(root, name, "training",
                  "TF1 embedding regression, a 1000x8 table partitioned over "
                  "2 ps tasks (%s), embedding_lookup partition_strategy=%s, "
                  "SGD (sparse updates)" % (
                      "fixed_size_partitioner(2)" if partitioner == "fixed"
                      else "min_max_variable_partitioner, 3 parts", strategy))
    steps = 3
    with tf1_graph(name) as g:
        with tf1.device(tf1.train.replica_device_setter(
                ps_tasks=2, worker_device="/job:worker/task:0")):
            global_step = tf1.train.get_or_create_global_step()
            ids = tf1.placeholder(tf.int64, [6], name="ids")
            y = tf1.placeholder(tf.float32, [3, 1], name="y")
            table = tf1.get_variable(
                "emb", [1000, 8], use_resource=False,
                partitioner=tf1.fixed_size_partitioner(2)
                if partitioner == "fixed" else
                tf1.min_max_variable_partitioner(max_partitions=3,
                                                 min_slice_size=1 << 10),
                initializer=tf1.random_normal_initializer(stddev=0.5))
            w = tf1.get_variable("w", [8, 1], use_resource=False,
                                 initializer=tf1.glorot_uniform_initializer())
            rows = tf1.nn.embedding_lookup(table, ids,
                                           partition_strategy=strategy)
            # Two ids per example, summed.
            examples = tf.reduce_sum(tf.reshape(rows, [3, 2, 8]), axis=1)
            loss = tf.identity(
                tf.reduce_mean(tf.square(tf.matmul(examples, w) - y)),
                name="loss")
            tf1.train.GradientDescentOptimizer(0.2).minimize(
                loss, global_step=global_step, name="train_op")
            touched = tf.identity(
                tf1.nn.embedding_lookup(table, ids, partition_strategy=strategy),
                name="touched")
            tf.group(tf1.global_variables_initializer(), name="init")
        devices = sorted({op.device for op in g.get_operations() if op.device})
        assert devices == ["/job:ps/task:0", "/job:ps/task:1",
                           "/job:worker/task:0"], devices
        md.write_text(g.as_graph_def())
    # Ids in both shards, with repeats, under either strategy.
    id_values = np.array([3, 998, 3, 500, 499, 7], np.int64)
    md.add_feed("ids:0", id_values)
    md.add_feed("y:0", rng.standard_normal((3, 1)).astype(np.float32))
    values = train_in_one_process(md, g.as_graph_def(), steps, "train_op",
                                  ["loss:0", "touched:0"])
    if strategy == "mod" and partitioner == "fixed":
        save_partitioned(md, g, steps, values[0])
    md.finish()


def save_partitioned(md, g, steps, loss_after):
    """A TF1 user's files of a partitioned model: the MetaGraph
    (model.meta), whose variables collections say how the table is
    partitioned (each part's save_slice_info_def), with a sharded Saver,
    and that Saver's checkpoint after `steps` steps
    (checkpoint/model.ckpt-STEPS: the table saved as two slices of one
    [1000, 8] tensor). The manifest gives the checkpoint and the loss
    after one more step from it (the loss before the step after that)."""
    with g.as_default():
        saver = tf1.train.Saver(sharded=True, save_relative_paths=True)
        tf1.train.export_meta_graph(filename=md.path("model.meta"), graph=g,
                                    saver_def=saver.as_saver_def())
    # TensorFlow in one process: the MetaGraph imported without its
    # devices keeps its collections, and so its saver saves the parts as
    # slices (one shard, all on one device).
    with tf.Graph().as_default() as run, \
            tf1.Session(graph=run, config=session_config()) as sess:
        saver = tf1.train.import_meta_graph(md.path("model.meta"),
                                            clear_devices=True)
        sess.run("init")
        for _ in range(steps):
            sess.run("train_op", md.feed_values)
        loss = sess.run("loss:0", md.feed_values)
        assert np.allclose(loss, loss_after, rtol=1e-6), (loss, loss_after)
        os.makedirs(md.path("checkpoint"), exist_ok=True)
        saver.save(sess, md.path("checkpoint", "model.ckpt"), global_step=steps,
                   write_meta_graph=False)
        # The state file as a relative Saver writes it (this one's are
        # absolute paths of this machine).
        with open(md.path("checkpoint", "checkpoint"), "w") as f:
            f.write('model_checkpoint_path: "model.ckpt-%d"\n'
                    'all_model_checkpoint_paths: "model.ckpt-%d"\n' % (steps, steps))
        sess.run("train_op", md.feed_values)
        next_loss = sess.run("loss:0", md.feed_values)
    np.save(md.path("outputs", "loss_after_checkpoint_step.npy"),
            np.float32(next_loss), allow_pickle=False)
    md.manifest.update(meta_graph="model.meta",
                       checkpoint="checkpoint/model.ckpt-%d" % steps,
                       loss_after_checkpoint_step="outputs/loss_after_checkpoint_step.npy")


def ps_shared_queue_graph(name, placed):
    """The graph of make_ps_shared_queue, with its device requests or, for
    TensorFlow's run in one process, without."""
    rng = seed_everything(name)
    features, labels = regression_rows(rng, 16)

    def on(device):
        return tf1.device(device if placed else None)

    g = tf.Graph()
    with g.as_default():
        tf1.set_random_seed(model_seed(name))
        with on("/job:ps/task:0"):
            x, y = tf1.train.slice_input_producer(
                [features, labels], num_epochs=2, shuffle=False, capacity=8)
            xb, yb = tf1.train.batch([x, y], batch_size=4, capacity=8,
                                     num_threads=1)
        with on(worker0_replica_setter()):
            global_step = tf1.train.get_or_create_global_step()
            w = tf1.get_variable("w", initializer=tf.zeros([3]),
                                 use_resource=True)
            b = tf1.get_variable("b", initializer=tf.zeros([]),
                                 use_resource=True)
            loss = tf.reduce_mean(tf.square(tf.linalg.matvec(xb, w) + b - yb),
                                  name="loss")
            train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
                loss, global_step=global_step, name="train_op")
        init = tf.group(
            tf1.variables_initializer(tf1.global_variables(), name="globals"),
            tf1.variables_initializer(tf1.local_variables(), name="locals"),
            name="init")
    return g, loss, train_op, init


def make_ps_shared_queue(root):
    """Between-graph replication whose input is on the ps: slice_input_producer
    (2 epochs of 16 examples, in order) into tf.train.batch of 4, both queues
    and their runners on /job:ps/task:0, shared by every worker's steps; the
    model as replica_device_setter places it (variables on the ps, the rest
    on worker 0). Each step dequeues the next batch, so the 9th finds the
    input ended. The step losses are TensorFlow's in one session, in order:
    what the job gives when its steps run one after another, whichever
    worker runs them."""
    name = "ps_shared_queue"
    md = ModelDir(root, name, "training",
                  "TF1 linear regression for between-graph replication, fed "
                  "by queue runners on the ps task (slice_input_producer of "
                  "2 epochs of 16 into tf.train.batch of 4), SGD with "
                  "global_step")
    g, loss, train_op, init = ps_shared_queue_graph(name, placed=True)
    runners = [[op.name for op in qr.enqueue_ops]
               for qr in g.get_collection(tf1.GraphKeys.QUEUE_RUNNERS)]
    md.write_text(g.as_graph_def())
    local, local_loss, local_train, local_init = ps_shared_queue_graph(
        name, placed=False)
    last, losses = run_with_queue_runners(local, local_init, [local_loss],
                                          local_train)
    assert len(losses) == 8, losses
    md.add_fetch("loss:0", last[0])
    np.save(md.path("outputs", "step_losses.npy"),
            np.array(losses, np.float32), allow_pickle=False)
    md.manifest.update(targets=["train_op"], init=["init"],
                       queue_runners=runners,
                       step_losses="outputs/step_losses.npy",
                       input_ends_after=len(losses),
                       roundtrip_flags="--soft-placement")
    md.finish()


def save_tf_function(md, f):
    """Saves tf.function `f` as the SavedModel's serving_default signature;
    returns the signature's description and the loaded signature."""
    module = tf.Module()
    module.f = f
    tf.saved_model.save(module, md.path("saved_model"),
                        signatures={"serving_default": f.get_concrete_function()})
    md.add_saved_model()
    loaded = tf.saved_model.load(md.path("saved_model")).signatures["serving_default"]
    return md.manifest["saved_model_signature"], loaded


def make_tf2_case(root):
    """tf.switch_case in a tf.function: a Case node over three branch
    functions, run with every index and with indices out of range (which
    take the last branch)."""
    name = "tf2_case"
    seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF2 tf.switch_case over three branches (Case node); runs "
                  "with indices 0, 1, 2, 7 and -1")

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="index"),
                                  tf.TensorSpec([3], tf.float32, name="x")])
    def f(index, x):
        return {"y": tf.switch_case(index, [lambda: x * 2.0,
                                            lambda: x + tf.constant(1.0),
                                            lambda: tf.sin(x)])}

    sig, loaded = save_tf_function(md, f)
    x = np.array([0.5, -1.0, 2.0], np.float32)
    md.add_feed(sig["inputs"]["index"], np.array(0, np.int32))
    md.add_feed(sig["inputs"]["x"], x)
    md.add_fetch(sig["outputs"]["y"], loaded(index=tf.constant(0), x=tf.constant(x))["y"].numpy())
    runs = []
    for index in (1, 2, 7, -1):
        np.save(md.path("inputs", "index_%d.npy" % index), np.array(index, np.int32),
                allow_pickle=False)
        np.save(md.path("outputs", "index_%d.npy" % index),
                loaded(index=tf.constant(index), x=tf.constant(x))["y"].numpy(),
                allow_pickle=False)
        runs.append({"feeds": ["inputs/index_%d.npy" % index, "inputs/1.npy"],
                     "fetches": ["outputs/index_%d.npy" % index]})
    md.manifest["other_runs"] = runs
    md.finish()


def make_tf1_loop_in_cond(root):
    name = "tf1_loop_in_cond"
    seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF1 while_loop inside one branch of a cond: the loop runs "
                  "only when its branch is taken")
    with tf1_graph(name) as g:
        x = tf1.placeholder(tf.float32, [3], name="x")
        pred = tf1.placeholder(tf.bool, [], name="pred")

        def looping():
            _, a = tf1.while_loop(lambda i, a: i < 3,
                                  lambda i, a: (i + 1, a * 2.0 + x),
                                  [tf.constant(0), x], name="loop")
            return a

        y = tf.identity(tf1.cond(pred, looping, lambda: x - 1.0, name="branch"),
                        name="y")
        feeds = {"x:0": np.array([1.0, -0.5, 2.0], np.float32),
                 "pred:0": np.array(True)}
        for t, v in feeds.items():
            md.add_feed(t, v)
        with tf1.Session(graph=g, config=session_config()) as sess:
            md.add_fetch(y.name, sess.run(y, feeds))
            other = sess.run(y, {"x:0": feeds["x:0"], "pred:0": np.array(False)})
            np.save(md.path("inputs", "other_pred.npy"), np.array(False),
                    allow_pickle=False)
            np.save(md.path("outputs", "other_0.npy"), other, allow_pickle=False)
            md.manifest["other_run"] = {
                "feeds": ["inputs/0.npy", "inputs/other_pred.npy"],
                "fetches": ["outputs/other_0.npy"]}
            md.write_text(g.as_graph_def())
    md.verify()
    md.finish()


def make_tf2_control_flow(root):
    """A tf.function whose Python while loop over a tensor and if on a
    tensor become While and If (StatelessWhile/StatelessIf) over functions
    of the SavedModel's library."""
    name = "tf2_control_flow"
    seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF2 tf.function: a while loop over a tensor (trip count n) "
                  "with an if on the data inside, as functional While/If")

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="n"),
                                  tf.TensorSpec([3], tf.float32, name="x")])
    def f(n, x):
        acc = tf.zeros([3])
        i = tf.constant(0)
        while i < n:
            if tf.reduce_sum(acc) > 2.0:
                acc = acc * 0.5 + x
            else:
                acc = acc + x * tf.cast(i, tf.float32)
            i += 1
        return {"acc": acc, "i": i}

    sig, loaded = save_tf_function(md, f)
    feeds = {"n": np.array(5, np.int32),
             "x": np.array([0.5, -0.25, 1.0], np.float32)}
    for key in ("n", "x"):
        md.add_feed(sig["inputs"][key], feeds[key])
    out = loaded(**{k: tf.constant(v) for k, v in feeds.items()})
    for key in ("acc", "i"):
        md.add_fetch(sig["outputs"][key], out[key].numpy())
    # No iteration: the loop's variables leave as they entered.
    other = loaded(n=tf.constant(0), x=tf.constant(feeds["x"]))
    np.save(md.path("inputs", "other_n.npy"), np.array(0, np.int32), allow_pickle=False)
    for k, key in enumerate(("acc", "i")):
        np.save(md.path("outputs", "other_%d.npy" % k), other[key].numpy(),
                allow_pickle=False)
    md.manifest["other_run"] = {"feeds": ["inputs/other_n.npy", "inputs/1.npy"],
                                "fetches": ["outputs/other_0.npy", "outputs/other_1.npy"]}
    md.finish()


def make_tf2_loop_gradients(root):
    """The gradients of a tf.function while loop (control flow v2): a
    recurrence h <- tanh(h @ w + b + x[t]) over a TensorArray of the input,
    each step's h written to another; the loss is the sum of squares of
    every h. The gradient loop pops the accumulators the forward loop
    pushed (each step's h, the weight read, the counter; of unknown
    capacity, as the loop has no maximum_iterations), and the input's
    gradient is a list made and summed in every iteration (the pushed
    element shapes and lengths are constants)."""
    name = "tf2_loop_gradients"
    rng = seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF2 tf.function: gradients (w, b, x) of a 5-step tanh "
                  "recurrence over TensorArrays (While + its gradient While, "
                  "TensorList accumulators)")
    module = tf.Module()
    module.w = tf.Variable(rng.standard_normal((3, 3)).astype(np.float32) * 0.5, name="w")
    module.b = tf.Variable(rng.standard_normal((3,)).astype(np.float32) * 0.1, name="b")

    @tf.function(input_signature=[tf.TensorSpec([5, 2, 3], tf.float32, name="x")])
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            xs = tf.TensorArray(tf.float32, size=5).unstack(x)
            # (No element_shape: the writes decide it.)
            hs = tf.TensorArray(tf.float32, size=5)

            def body(t, h, hs):
                h = tf.tanh(tf.matmul(h, module.w) + module.b + xs.read(t))
                return t + 1, h, hs.write(t, h)

            # No maximum_iterations: the accumulators' capacity is
            # unknown, so they become the runtime's stacks.
            _, _, hs = tf.while_loop(lambda t, h, hs: t < 5, body,
                                     [tf.constant(0), tf.zeros([2, 3]), hs])
            loss = tf.reduce_sum(tf.square(hs.stack()))
        dw, db, dx = tape.gradient(loss, [module.w, module.b, x])
        return {"loss": loss, "dw": dw, "db": db, "dx": dx}

    module.f = f
    tf.saved_model.save(module, md.path("saved_model"),
                        signatures={"serving_default": f.get_concrete_function()})
    md.add_saved_model()
    sig = md.manifest["saved_model_signature"]
    x = rng.standard_normal((5, 2, 3)).astype(np.float32)
    md.add_feed(sig["inputs"]["x"], x)
    out = tf.saved_model.load(md.path("saved_model")).signatures["serving_default"](
        x=tf.constant(x))
    for key in ("db", "dw", "dx", "loss"):
        md.add_fetch(sig["outputs"][key], out[key].numpy())
    md.finish()


def make_tf2_cond_gradients(root):
    """The gradients of a tf.cond in a tf.function (control flow v2): the
    forward If hands the intermediates of the branch that ran to the
    gradient If as Optionals (OptionalFromValue, OptionalNone for the
    other branch's, OptionalGetValue in the gradient). other_run negates x,
    which takes the other branch."""
    name = "tf2_cond_gradients"
    rng = seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF2 tf.function: gradients (w, x) through a tf.cond on the "
                  "data (If + its gradient If, Optional intermediates); "
                  "other_run takes the other branch")
    module = tf.Module()
    module.w = tf.Variable(rng.standard_normal((3, 3)).astype(np.float32) * 0.5, name="w")

    @tf.function(input_signature=[tf.TensorSpec([2, 3], tf.float32, name="x")])
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            pre = tf.matmul(x, module.w)
            h = tf.cond(tf.reduce_sum(pre) > 0.0, lambda: tf.tanh(pre) * 2.0,
                        lambda: tf.sigmoid(pre) * tf.exp(pre))
            loss = tf.reduce_sum(h * h)
        dw, dx = tape.gradient(loss, [module.w, x])
        return {"loss": loss, "dw": dw, "dx": dx}

    module.f = f
    tf.saved_model.save(module, md.path("saved_model"),
                        signatures={"serving_default": f.get_concrete_function()})
    md.add_saved_model()
    sig = md.manifest["saved_model_signature"]
    loaded = tf.saved_model.load(md.path("saved_model")).signatures["serving_default"]
    x = rng.standard_normal((2, 3)).astype(np.float32)
    # The run and the other run take different branches.
    sums = [float(tf.reduce_sum(tf.matmul(v, module.w))) for v in (x, -x)]
    assert sums[0] * sums[1] < 0, sums
    md.add_feed(sig["inputs"]["x"], x)
    out = loaded(x=tf.constant(x))
    keys = ("dw", "dx", "loss")
    for key in keys:
        md.add_fetch(sig["outputs"][key], out[key].numpy())
    other = loaded(x=tf.constant(-x))
    np.save(md.path("inputs", "other_x.npy"), -x, allow_pickle=False)
    for k, key in enumerate(keys):
        np.save(md.path("outputs", "other_%d.npy" % k), other[key].numpy(),
                allow_pickle=False)
    md.manifest["other_run"] = {"feeds": ["inputs/other_x.npy"],
                                "fetches": ["outputs/other_%d.npy" % k
                                            for k in range(len(keys))]}
    md.finish()


def make_tf2_tensor_arrays(root):
    """TF2 TensorArrays beyond read and write, as TensorList ops: scatter
    (TensorListScatterIntoExistingList), gather (TensorListGather), split
    and concat (TensorListSplit, TensorListConcatV2), stack, and a loop that
    reads one array and writes another."""
    name = "tf2_tensor_arrays"
    rng = seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF2 tf.function: TensorArray scatter, gather, split, concat "
                  "and stack, and a while loop reading one array and writing "
                  "another (TensorList ops)")

    @tf.function(input_signature=[tf.TensorSpec([6, 2, 3], tf.float32, name="x")])
    def f(x):
        ta = tf.TensorArray(tf.float32, size=6, element_shape=[2, 3])
        ta = ta.scatter([5, 0, 2, 1, 4, 3], x)
        gathered = ta.gather([1, 3])
        parts = tf.TensorArray(tf.float32, size=3, element_shape=[4, 3]).split(
            tf.reshape(x, [12, 3]), [4, 4, 4])

        def body(i, acc, out):
            return i + 1, acc + ta.read(i), out.write(i, ta.read(i) * 2.0)
        _, acc, out = tf.while_loop(
            lambda i, a, o: i < 6, body,
            [0, tf.zeros([2, 3]), tf.TensorArray(tf.float32, size=6)])
        return {"gathered": gathered, "parts": parts.concat(), "acc": acc,
                "doubled": out.concat(), "stacked": ta.stack()}

    sig, loaded = save_tf_function(md, f)
    x = rng.standard_normal((6, 2, 3)).astype(np.float32)
    md.add_feed(sig["inputs"]["x"], x)
    out = loaded(x=tf.constant(x))
    for key in ("acc", "doubled", "gathered", "parts", "stacked"):
        md.add_fetch(sig["outputs"][key], out[key].numpy())
    md.finish()


def make_tf1_ref_cond(root):
    """A TF1 cond whose branches update a ref variable (assign_add in one,
    assign_sub in the other): the branches switch the variable's ref
    (RefSwitch) and merge the updated refs (RefMerge). other_run takes the
    other branch; each run starts from the init op."""
    name = "tf1_ref_cond"
    seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF1 cond updating a ref variable in each branch (RefSwitch, "
                  "RefMerge); other_run takes the other branch")
    with tf1_graph(name) as g:
        pred = tf1.placeholder(tf.bool, [], name="pred")
        w = tf1.get_variable("w", initializer=np.array([1.0, 2.0], np.float32),
                             use_resource=False)
        out = tf1.cond(pred, lambda: tf1.assign_add(w, [1.0, 2.0]),
                       lambda: tf1.assign_sub(w, [0.5, 0.25]))
        out = tf.identity(out, name="out")
        init = tf1.variables_initializer([w], name="init")
        ops = {n.op for n in g.as_graph_def().node}
        assert {"RefSwitch", "RefMerge"} <= ops, ops
        md.add_feed("pred:0", np.array(True))
        md.manifest["init"] = ["init"]
        with tf1.Session(graph=g) as sess:
            sess.run(init)
            md.add_fetch("out:0", sess.run(out, {pred: True}))
            sess.run(init)
            other = sess.run(out, {pred: False})
        np.save(md.path("inputs", "other_pred.npy"), np.array(False), allow_pickle=False)
        np.save(md.path("outputs", "other_0.npy"), other, allow_pickle=False)
        md.manifest["other_run"] = {"feeds": ["inputs/other_pred.npy"],
                                    "fetches": ["outputs/other_0.npy"]}
        md.write_text(g.as_graph_def())
    md.finish()


def make_tf1_cond(root):
    name = "tf1_cond"
    rng = seed_everything(name)
    md = ModelDir(root, name, "control_flow",
                  "TF1 cond (Switch/Merge) on a bool placeholder, a second cond "
                  "on its negation, and a cond on a data-dependent predicate")
    with tf1_graph(name) as g:
        x = tf1.placeholder(tf.float32, [2, 3], name="x")
        pred = tf1.placeholder(tf.bool, [], name="pred")
        w = tf.constant(rng.standard_normal((3, 3)).astype(np.float32), name="w")
        # pred=True takes the first branch here and the second branch of `z`,
        # so one run executes both kinds of branch.
        y = tf1.cond(pred, lambda: tf.nn.relu(tf.matmul(x, w)) * 2.0,
                     lambda: tf.exp(-x) + tf.sin(x), name="cond_y")
        z = tf1.cond(tf.logical_not(pred), lambda: tf.reduce_sum(x, axis=1),
                     lambda: tf.reduce_max(x, axis=1) - 1.0, name="cond_z")
        # Predicate computed from the data.
        s = tf1.cond(tf.reduce_sum(x) > 0.0, lambda: tf.tanh(y),
                     lambda: tf.sigmoid(y), name="cond_s")
        out_y = tf.identity(y, name="y")
        out_z = tf.identity(z, name="z")
        out_s = tf.identity(s, name="s")

        # Positive x, so that the ReLU branch and tanh(y) are not all zero.
        feeds = {"x:0": np.abs(rng.standard_normal((2, 3))).astype(np.float32),
                 "pred:0": np.array(True)}
        for t, v in feeds.items():
            md.add_feed(t, v)
        with tf1.Session(graph=g, config=session_config()) as sess:
            fetches = [out_y, out_z, out_s]
            for t, v in zip(fetches, sess.run(fetches, feeds)):
                md.add_fetch(t.name, v)
            # The other branch of every cond: pred=False, and -x, which
            # flips the data-dependent predicate.
            other = {"x:0": -feeds["x:0"], "pred:0": np.array(False)}
            np.save(md.path("inputs", "other_x.npy"), other["x:0"], allow_pickle=False)
            np.save(md.path("inputs", "other_pred.npy"), other["pred:0"],
                    allow_pickle=False)
            for i, v in enumerate(sess.run(fetches, other)):
                np.save(md.path("outputs", "other_%d.npy" % i), v, allow_pickle=False)
            md.manifest["other_run"] = {
                "feeds": ["inputs/other_x.npy", "inputs/other_pred.npy"],
                "fetches": ["outputs/other_%d.npy" % i for i in range(3)]}
            gd = g.as_graph_def()
            md.write_text(gd)
            md.write_frozen(gd)
            save_v1_saved_model(md, sess, {"x": x, "pred": pred},
                                {"y": out_y, "z": out_z, "s": out_s})
    md.verify()
    md.check_saved_model(dict(zip("yzs", md.fetch_values)), exact=True)
    md.finish()


# --------------------------------------------------------------------------
# TF1 training graphs (one per optimizer) and the embedding model
# --------------------------------------------------------------------------

TRAIN_STEPS = 3

# name, optimizer factory, resource variables?, task
OPTIMIZERS = [
    ("train_sgd", lambda: tf1.train.GradientDescentOptimizer(0.1),
     False, "regression"),
    ("train_momentum", lambda: tf1.train.MomentumOptimizer(
        0.05, 0.9, use_nesterov=True), False, "classifier"),
    ("train_adagrad", lambda: tf1.train.AdagradOptimizer(0.1),
     False, "regression"),
    ("train_rmsprop", lambda: tf1.train.RMSPropOptimizer(
        0.01, decay=0.9, momentum=0.5), False, "classifier"),
    ("train_adam", lambda: tf1.train.AdamOptimizer(0.01), True, "classifier"),
    ("train_adadelta", lambda: tf1.train.AdadeltaOptimizer(1.0),
     True, "regression"),
    ("train_ftrl", lambda: tf1.train.FtrlOptimizer(
        0.1, l1_regularization_strength=0.001,
        l2_regularization_strength=0.001), True, "classifier"),
]


def check_variable_kind(g, resource):
    """Makes sure the graph really uses the intended kind of variable."""
    ops = {n.type for n in g.get_operations()}
    want, other = (("VarHandleOp", "VariableV2") if resource
                   else ("VariableV2", "VarHandleOp"))
    assert want in ops and other not in ops, (want, sorted(ops))


def mlp_graph(name, resource, task, rng):
    """The MLP of the train_* models: its loss, the fetched weight and the
    feeds."""
    x = tf1.placeholder(tf.float32, [4, 8], name="x")
    if task == "regression":
        y = tf1.placeholder(tf.float32, [4, 1], name="y")
    else:
        y = tf1.placeholder(tf.int32, [4], name="labels")
    n_out = 1 if task == "regression" else 3
    with tf1.variable_scope("model"):
        # Seeded initializers: the random ops keep seed/seed2 attributes,
        # so re-running "init" from the file gives the same values.
        w1 = tf1.get_variable("w1", [8, 6], use_resource=resource,
                              initializer=tf1.glorot_uniform_initializer())
        b1 = tf1.get_variable("b1", [6], use_resource=resource,
                              initializer=tf1.zeros_initializer())
        w2 = tf1.get_variable("w2", [6, n_out], use_resource=resource,
                              initializer=tf1.truncated_normal_initializer(
                                  stddev=0.5))
        b2 = tf1.get_variable("b2", [n_out], use_resource=resource,
                              initializer=tf1.constant_initializer(0.1))
    h = tf.tanh(tf.nn.bias_add(tf.matmul(x, w1), b1))
    out = tf.nn.bias_add(tf.matmul(h, w2), b2)
    if task == "regression":
        loss = tf.reduce_mean(tf.square(out - y))
    else:
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                           logits=out))
    feeds = {"x:0": rng.standard_normal((4, 8)).astype(np.float32)}
    if task == "regression":
        feeds["y:0"] = rng.standard_normal((4, 1)).astype(np.float32)
    else:
        feeds["labels:0"] = rng.integers(0, 3, 4).astype(np.int32)
    return loss, [tf.identity(w1, name="w1_value")], feeds


def cond_graph(name, resource, task, rng):
    """An MLP regression whose hidden layer goes through a v1 cond on the
    data (ReLU or tanh, by the sign of the mean pre-activation): its
    gradient graph switches and merges the gradients the same way."""
    x = tf1.placeholder(tf.float32, [4, 8], name="x")
    y = tf1.placeholder(tf.float32, [4, 1], name="y")
    with tf1.variable_scope("model"):
        w1 = tf1.get_variable("w1", [8, 6], use_resource=resource,
                              initializer=tf1.glorot_uniform_initializer())
        w2 = tf1.get_variable("w2", [6, 1], use_resource=resource,
                              initializer=tf1.glorot_uniform_initializer())
    pre = tf.matmul(x, w1)
    h = tf1.cond(tf.reduce_mean(pre) > 0.0, lambda: tf.nn.relu(pre) * 2.0,
                 lambda: tf.tanh(pre) - 0.5, name="branch")
    loss = tf.reduce_mean(tf.square(tf.matmul(h, w2) - y))
    feeds = {"x:0": rng.standard_normal((4, 8)).astype(np.float32),
             "y:0": rng.standard_normal((4, 1)).astype(np.float32)}
    return loss, [tf.identity(w1, name="w1_value")], feeds


def while_graph(name, resource, task, rng):
    """A recurrence in a v1 while_loop whose trip count is fed (n): each
    iteration h <- tanh(h @ w + x[t]), or its sigmoid when h sums negative
    (a cond in the body), then a nested loop that runs t times adding
    0.1 * h @ u. Its gradient is a second frame that runs the iterations
    in reverse and pops what the forward loop pushed on stacks (StackV2:
    the activations, the weights read, the cond's predicate, the inner
    loop's trip counts)."""
    x = tf1.placeholder(tf.float32, [6, 4, 3], name="x")
    n = tf1.placeholder(tf.int32, [], name="n")
    y = tf1.placeholder(tf.float32, [4, 1], name="y")
    with tf1.variable_scope("model"):
        w = tf1.get_variable("w", [3, 3], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())
        u = tf1.get_variable("u", [3, 3], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())
        v = tf1.get_variable("v", [3, 1], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())

    def body(t, h):
        pre = tf.matmul(h, w) + tf.gather(x, t)
        h = tf1.cond(tf.reduce_sum(h) >= 0.0, lambda: tf.tanh(pre),
                     lambda: tf.sigmoid(pre), name="activation")

        def inner(j, g):
            return j + 1, g + 0.1 * tf.matmul(g, u)
        _, h = tf1.while_loop(lambda j, g: j < t, inner, [tf.constant(0), h],
                              name="inner")
        return t + 1, h

    _, h = tf1.while_loop(lambda t, h: t < n, body,
                          [tf.constant(0), tf.zeros([4, 3])], name="outer")
    loss = tf.reduce_mean(tf.square(tf.matmul(h, v) - y))
    feeds = {"x:0": rng.standard_normal((6, 4, 3)).astype(np.float32),
             "n:0": np.array(5, np.int32),
             "y:0": rng.standard_normal((4, 1)).astype(np.float32)}
    return loss, [tf.identity(w, name="w_value"), tf.identity(u, name="u_value")], feeds


def tensor_array_graph(name, resource, task, rng):
    """An RNN as tf.compat.v1.nn.dynamic_rnn builds it: the projected input
    sequence unstacked into a TensorArray (TensorArrayV3, ScatterV3), read
    in a v1 while_loop whose trip count is fed, each step's output written
    to another TensorArray and stacked after the loop (GatherV3). Its
    gradient makes gradient arrays (TensorArrayGradV3): the outputs'
    gradient scattered in, read back in the gradient loop; the reads'
    gradients written (added up) and gathered for the projection. The
    projection also goes through a split and a concat (SplitV3,
    ConcatV3)."""
    x = tf1.placeholder(tf.float32, [5, 4, 3], name="x")
    n = tf1.placeholder(tf.int32, [], name="n")
    y = tf1.placeholder(tf.float32, [4, 2], name="y")
    with tf1.variable_scope("model"):
        p = tf1.get_variable("p", [3, 3], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())
        w = tf1.get_variable("w", [3, 6], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())
        u = tf1.get_variable("u", [6, 6], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())
        v = tf1.get_variable("v", [6, 2], use_resource=resource,
                             initializer=tf1.glorot_uniform_initializer())
    projected = tf.matmul(tf.reshape(x, [20, 3]), p)
    xs = tf.TensorArray(tf.float32, size=5).unstack(tf.reshape(projected, [5, 4, 3]))
    # The projection split into an array and concatenated back (SplitV3,
    # ConcatV3; each the other's gradient), as a penalty on it.
    parts = tf.TensorArray(tf.float32, size=5).split(projected, [4] * 5)
    penalty = 0.01 * tf.reduce_sum(tf.square(parts.concat()))
    ys = tf.TensorArray(tf.float32, size=5)

    def body(t, h, ys):
        h = tf.tanh(tf.matmul(xs.read(t), w) + tf.matmul(h, u))
        return t + 1, h, ys.write(t, h)

    _, _, ys = tf1.while_loop(lambda t, h, ys: t < n, body,
                              [tf.constant(0), tf.zeros([4, 6]), ys])
    out = tf.reduce_mean(ys.stack(), 0)
    loss = tf.reduce_mean(tf.square(tf.matmul(out, v) - y)) + penalty
    feeds = {"x:0": rng.standard_normal((5, 4, 3)).astype(np.float32),
             "n:0": np.array(5, np.int32),
             "y:0": rng.standard_normal((4, 2)).astype(np.float32)}
    return loss, [tf.identity(p, name="p_value"), tf.identity(u, name="u_value")], feeds


def cnn_graph(name, resource, task, rng):
    """A small CNN classifier whose gradient graph holds every window and
    batch-norm gradient: Conv2D+BiasAdd+Relu, FusedBatchNormV3 in training
    mode (its moving statistics updated by AssignSub, as tf.layers does),
    MaxPool, DepthwiseConv2dNative+Relu6, a strided SAME Conv2D, AvgPool
    (SAME: padded windows), then a dense layer."""
    x = tf1.placeholder(tf.float32, [4, 8, 8, 3], name="x")
    labels = tf1.placeholder(tf.int32, [4], name="labels")

    def variable(name, shape, init):
        return tf1.get_variable(name, shape, use_resource=resource,
                                initializer=init)
    glorot = tf1.glorot_uniform_initializer
    with tf1.variable_scope("model"):
        k1 = variable("conv1/kernel", [3, 3, 3, 8], glorot())
        b1 = variable("conv1/bias", [8], tf1.constant_initializer(0.05))
        gamma = variable("bn/gamma", [8], tf1.ones_initializer())
        beta = variable("bn/beta", [8], tf1.zeros_initializer())
        moving_mean = tf1.get_variable(
            "bn/moving_mean", [8], use_resource=resource, trainable=False,
            initializer=tf1.zeros_initializer())
        moving_variance = tf1.get_variable(
            "bn/moving_variance", [8], use_resource=resource, trainable=False,
            initializer=tf1.ones_initializer())
        depthwise = variable("depthwise/kernel", [3, 3, 8, 2], glorot())
        k2 = variable("conv2/kernel", [3, 3, 16, 8], glorot())
        w = variable("dense/kernel", [32, 3],
                     tf1.truncated_normal_initializer(stddev=0.3))
        b = variable("dense/bias", [3], tf1.zeros_initializer())
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k1, 1, "SAME"), b1))
    h, mean, variance = tf1.nn.fused_batch_norm(h, gamma, beta, epsilon=1e-3,
                                                is_training=True)
    for stat, batch in ((moving_mean, mean), (moving_variance, variance)):
        tf1.add_to_collection(tf1.GraphKeys.UPDATE_OPS,
                              tf1.assign_sub(stat, (stat - batch) * 0.1))
    h = tf.nn.max_pool2d(h, 2, 2, "VALID")
    h = tf.nn.relu6(tf.nn.depthwise_conv2d(h, depthwise, [1, 1, 1, 1], "SAME"))
    h = tf.nn.conv2d(h, k2, 2, "SAME")
    h = tf.nn.avg_pool2d(h, 3, 1, "SAME")
    logits = tf.nn.bias_add(tf.matmul(tf.reshape(h, [4, 32]), w), b)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits))
    feeds = {"x:0": rng.standard_normal((4, 8, 8, 3)).astype(np.float32),
             "labels:0": rng.integers(0, 3, 4).astype(np.int32)}
    return loss, [tf.identity(k1, name="conv1_value"),
                  tf.identity(moving_variance, name="moving_variance_value")], \
        feeds


def winograd_cnn_graph(name, resource, task, rng):
    """A CNN whose 3x3 stride-1 convolutions have 16 channels in and out
    and enough 4x4 output tiles (64 per call) for tfc's kernels to compute
    them, and their gradients, by Winograd's F(4x4, 3x3): Conv2D SAME +
    BiasAdd + Relu, Conv2D VALID + Relu, MaxPool, a dense layer."""
    x = tf1.placeholder(tf.float32, [4, 16, 16, 16], name="x")
    labels = tf1.placeholder(tf.int32, [4], name="labels")
    glorot = tf1.glorot_uniform_initializer
    with tf1.variable_scope("model"):
        k1 = tf1.get_variable("conv1/kernel", [3, 3, 16, 16], initializer=glorot(),
                              use_resource=resource)
        b1 = tf1.get_variable("conv1/bias", [16], use_resource=resource,
                              initializer=tf1.constant_initializer(0.05))
        k2 = tf1.get_variable("conv2/kernel", [3, 3, 16, 16], initializer=glorot(),
                              use_resource=resource)
        w = tf1.get_variable("dense/kernel", [7 * 7 * 16, 3], use_resource=resource,
                             initializer=tf1.truncated_normal_initializer(stddev=0.05))
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k1, 1, "SAME"), b1))
    h = tf.nn.relu(tf.nn.conv2d(h, k2, 1, "VALID"))        # 14x14
    h = tf.nn.max_pool2d(h, 2, 2, "VALID")                 # 7x7
    logits = tf.matmul(tf.reshape(h, [4, 7 * 7 * 16]), w)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits))
    feeds = {"x:0": rng.standard_normal((4, 16, 16, 16)).astype(np.float32),
             "labels:0": rng.integers(0, 3, 4).astype(np.int32)}
    return loss, [tf.identity(k1, name="conv1_value"),
                  tf.identity(k2, name="conv2_value")], feeds


def bias_bn_cnn_graph(name, resource, task, rng):
    """A CNN whose convolutions add a bias before a batch norm (tfc folds
    each batch norm gradient's BiasAddGrad into its kernel): Conv2D +
    BiasAdd, FusedBatchNormV3 in training mode, ReLU, MaxPool 3x3 stride 2
    SAME (overlapping windows, folded into the batch norm's kernel); then
    Conv2D + BiasAdd, FusedBatchNormV3 in inference mode (moving
    statistics, so the bias gradient is not zero), ReLU6, MaxPool 2x2
    VALID; a dense layer."""
    x = tf1.placeholder(tf.float32, [4, 8, 8, 3], name="x")
    labels = tf1.placeholder(tf.int32, [4], name="labels")

    def variable(name, shape, init, trainable=True):
        return tf1.get_variable(name, shape, use_resource=resource,
                                initializer=init, trainable=trainable)
    glorot = tf1.glorot_uniform_initializer
    with tf1.variable_scope("model"):
        k1 = variable("conv1/kernel", [3, 3, 3, 8], glorot())
        b1 = variable("conv1/bias", [8], tf1.constant_initializer(0.05))
        gamma1 = variable("bn1/gamma", [8], tf1.ones_initializer())
        beta1 = variable("bn1/beta", [8], tf1.constant_initializer(0.1))
        k2 = variable("conv2/kernel", [3, 3, 8, 8], glorot())
        b2 = variable("conv2/bias", [8], tf1.constant_initializer(-0.05))
        gamma2 = variable("bn2/gamma", [8], tf1.constant_initializer(1.2))
        beta2 = variable("bn2/beta", [8], tf1.zeros_initializer())
        mean2 = variable("bn2/moving_mean", [8], tf1.constant_initializer(0.1),
                         trainable=False)
        variance2 = variable("bn2/moving_variance", [8],
                             tf1.constant_initializer(1.5), trainable=False)
        w = variable("dense/kernel", [32, 3],
                     tf1.truncated_normal_initializer(stddev=0.3))
    h = tf.nn.bias_add(tf.nn.conv2d(x, k1, 1, "SAME"), b1)
    h, _, _ = tf1.nn.fused_batch_norm(h, gamma1, beta1, epsilon=1e-3,
                                      is_training=True)
    h = tf.nn.max_pool2d(tf.nn.relu(h), 3, 2, "SAME")      # 4x4
    h = tf.nn.bias_add(tf.nn.conv2d(h, k2, 1, "SAME"), b2)
    h, _, _ = tf1.nn.fused_batch_norm(h, gamma2, beta2, mean2, variance2,
                                      epsilon=1e-3, is_training=False)
    h = tf.nn.max_pool2d(tf.nn.relu6(h), 2, 2, "VALID")    # 2x2
    logits = tf.matmul(tf.reshape(h, [4, 32]), w)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits))
    feeds = {"x:0": rng.standard_normal((4, 8, 8, 3)).astype(np.float32),
             "labels:0": rng.integers(0, 3, 4).astype(np.int32)}
    return loss, [tf.identity(b1, name="conv1_bias_value"),
                  tf.identity(b2, name="conv2_bias_value"),
                  tf.identity(gamma1, name="bn1_gamma_value")], feeds


def make_train(root, name, make_opt, resource, task, graph=mlp_graph):
    rng = seed_everything(name)
    opt_name = make_opt().get_name()
    what = ("CNN classifier (conv, batch norm, pooling, depthwise)"
            if graph is cnn_graph else
            "CNN with 16-channel 3x3 convolutions (Winograd in tfc)"
            if graph is winograd_cnn_graph else
            "CNN whose biases precede batch norms (training and inference"
            " mode) and whose max poolings follow them"
            if graph is bias_bn_cnn_graph else
            "recurrence in a while_loop (fed trip count, a cond and a "
            "nested loop in the body)" if graph is while_graph else
            "RNN over TensorArrays (TensorArrayV3) in a while_loop, as "
            "dynamic_rnn builds it" if graph is tensor_array_graph else
            "MLP regression through a v1 cond (ReLU or tanh by the data)"
            if graph is cond_graph else
            "MLP regression (MSE) 8->6->1" if task == "regression"
            else "MLP softmax classifier 8->6->3")
    md = ModelDir(root, name, "training",
                  "TF1 %s trained with %s, %s variables, with Saver" % (
                      what, opt_name, "resource" if resource else "ref"))
    with tf1_graph(name) as g:
        loss, values, feeds = graph(name, resource, task, rng)
        loss = tf.identity(loss, name="loss")
        # Updates of non-trained state (batch norm's moving statistics) run
        # with each step, as tf.layers arranges.
        with tf.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
            train_op = make_opt().minimize(loss, name="train_op")
        assert train_op.name == "train_op", train_op.name
        init = tf1.variables_initializer(tf1.global_variables(), name="init")
        # The save/restore subgraph (SaveV2/RestoreV2); the MLPs with
        # resource variables save sharded (each device's part to a
        # temporary prefix, then MergeV2Checkpoints).
        saver = tf1.train.Saver(save_relative_paths=True,
                                sharded=resource and graph is mlp_graph)
        check_variable_kind(g, resource)

        for t, v in feeds.items():
            md.add_feed(t, v)
        md.manifest.update(targets=["train_op"], init=["init"],
                           steps=TRAIN_STEPS)
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            # The initial variables as TensorFlow's Saver writes them
            # (checkpoint/model.ckpt-0.* and the `checkpoint` state file):
            # tfc restores them instead of running init.
            # (A sharded saver wants the directory made.)
            os.makedirs(md.path("checkpoint"), exist_ok=True)
            saver.save(sess, md.path("checkpoint", "model.ckpt"), global_step=0,
                       write_meta_graph=False)
            # The loss of each step (computed before the step's update),
            # then of the step after the last.
            losses = []
            for _ in range(TRAIN_STEPS):
                losses.append(sess.run([loss, train_op], feeds)[0])
            vals = sess.run([loss] + values, feeds)
            losses.append(vals[0])
        for t, v in zip([loss] + values, vals):
            md.add_fetch(t.name, v)
        np.save(md.path("outputs", "step_losses.npy"),
                np.array(losses, np.float32), allow_pickle=False)
        md.manifest["step_losses"] = "outputs/step_losses.npy"
        md.write_text(g.as_graph_def())
    md.verify()
    md.finish()


# Embedding models trained with the optimizers that deduplicate sparse
# gradients (name, optimizer factory).
EMBEDDING_OPTIMIZERS = [
    ("embedding_adam", lambda: tf1.train.AdamOptimizer(0.05)),
    ("embedding_adagrad", lambda: tf1.train.AdagradOptimizer(0.5)),
    ("embedding_momentum", lambda: tf1.train.MomentumOptimizer(0.2, 0.9)),
]

# name, Keras optimizer factory
KERAS_OPTIMIZERS = [
    ("train_keras_sgd", lambda: keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True)),
    ("train_keras_adam", lambda: keras.optimizers.Adam(0.01)),
]


def keras_mlp():
    return ("MLP classifier 8->6->3",
            keras.Sequential([keras.Input((8,)),
                              keras.layers.Dense(6, activation="relu"),
                              keras.layers.Dense(3)]))


def keras_rnn(layer, what):
    """A recurrent classifier: `layer` over sequences of 5 steps of 6
    features, its last output into Dense(3). Its gradient is a second
    While that pops the forward loop's TensorList accumulators."""
    return lambda: ("%s classifier (8 units, seq 5) + Dense 3" % what,
                    keras.Sequential([keras.Input((5, 6)), layer(8),
                                      keras.layers.Dense(3)]))


# Keras recurrent models trained with SGD (name, model factory).
KERAS_RNNS = [
    ("train_lstm", keras_rnn(keras.layers.LSTM, "LSTM")),
    ("train_gru", keras_rnn(keras.layers.GRU, "GRU")),
    ("train_simple_rnn", keras_rnn(keras.layers.SimpleRNN, "SimpleRNN")),
]


def make_keras_train(root, name, make_opt, make_model=keras_mlp):
    """A TF2 training step exported as a SavedModel signature: a Keras
    classifier (make_model: its description and model) and a Keras
    optimizer, `train_step(x, labels)` returning the loss before its
    update. The reference losses come from the SavedModel loaded back
    (tf.saved_model.load), so they are the exported graph's; checkpoint/
    holds the initial variables as tf.train.Checkpoint writes them
    (object-graph keys)."""
    rng = seed_everything(name)
    opt = make_opt()
    what, model = make_model()
    md = ModelDir(root, name, "training",
                  "TF2 Keras %s trained with Keras %s, train_step signature "
                  "of a SavedModel" % (what, type(opt).__name__))
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt.build(model.trainable_variables)
    module = tf.Module()
    module.model = model
    module.opt = opt
    x_shape = [4] + list(model.inputs[0].shape[1:])

    @tf.function(input_signature=[tf.TensorSpec(x_shape, tf.float32, name="x"),
                                  tf.TensorSpec([4], tf.int32, name="labels")])
    def train_step(x, labels):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return {"loss": loss}

    module.train_step = train_step
    tf.saved_model.save(module, md.path("saved_model"),
                        signatures={"train_step": train_step.get_concrete_function()})
    md.add_saved_model("train_step")
    sig = md.manifest["saved_model_signature"]
    feeds = {"x": rng.standard_normal(x_shape).astype(np.float32),
             "labels": rng.integers(0, 3, 4).astype(np.int32)}
    for key in ("x", "labels"):
        md.add_feed(sig["inputs"][key], feeds[key])

    loaded = tf.saved_model.load(md.path("saved_model"))
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(root=loaded),
                                         md.path("checkpoint"), max_to_keep=1,
                                         checkpoint_name="model.ckpt")
    manager.save(checkpoint_number=0)
    # The state file without the save times CheckpointManager adds, so
    # that regenerating gives identical files.
    state = md.path("checkpoint", "checkpoint")
    with open(state) as f:
        lines = [l for l in f if "timestamp" not in l]
    with open(state, "w") as f:
        f.writelines(lines)
    step = loaded.signatures["train_step"]
    losses = [step(**{k: tf.constant(v) for k, v in feeds.items()})["loss"].numpy()
              for _ in range(TRAIN_STEPS + 1)]
    md.add_fetch(sig["outputs"]["loss"], losses[-1])
    np.save(md.path("outputs", "step_losses.npy"),
            np.array(losses, np.float32), allow_pickle=False)
    md.manifest.update(steps=TRAIN_STEPS, step_losses="outputs/step_losses.npy")
    md.finish()


def make_embedding(root, name="embedding", make_opt=None):
    """The embedding model; with SGD (make_opt None) also its frozen and
    SavedModel forms. Other optimizers first add up the sparse gradient's
    rows of each id (Unique + UnsortedSegmentSum)."""
    rng = seed_everything(name)
    if make_opt is None:
        description = ("Embedding lookup (resource var, ResourceGather) + mean + "
                       "dense softmax, SGD steps (sparse ResourceScatterAdd "
                       "update); frozen.pb = lookup model frozen after the steps")
    else:
        description = ("Embedding lookup + mean + dense softmax trained with "
                       "%s: the embedding's sparse gradient deduplicated by "
                       "Unique + UnsortedSegmentSum" % make_opt().get_name())
    md = ModelDir(root, name, "training", description)
    steps = TRAIN_STEPS
    with tf1_graph(name) as g:
        ids = tf1.placeholder(tf.int32, [2, 3], name="ids")
        labels = tf1.placeholder(tf.int32, [2], name="labels")
        emb = tf1.get_variable("embedding", [10, 4], use_resource=True,
                               initializer=tf1.random_uniform_initializer(-1, 1))
        w = tf1.get_variable("dense/kernel", [4, 3], use_resource=True,
                             initializer=tf1.glorot_uniform_initializer())
        b = tf1.get_variable("dense/bias", [3], use_resource=True,
                             initializer=tf1.zeros_initializer())
        looked = tf.nn.embedding_lookup(emb, ids)       # [2, 3, 4]
        pooled = tf.reduce_mean(looked, axis=1)          # [2, 4]
        logits = tf.identity(tf.matmul(pooled, w) + b, name="logits")
        loss = tf.identity(tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits)), name="loss")
        opt = (make_opt() if make_opt else
               tf1.train.GradientDescentOptimizer(0.5))
        train_op = opt.minimize(loss, name="train_op")
        assert train_op.name == "train_op", train_op.name
        emb_value = tf.identity(emb, name="embedding_value")
        init = tf1.variables_initializer(tf1.global_variables(), name="init")
        saver = tf1.train.Saver(save_relative_paths=True)
        ops = {o.type for o in g.get_operations()}
        assert "ResourceGather" in ops, sorted(ops)
        assert ("Unique" in ops) == (make_opt is not None), sorted(ops)

        # Duplicate ids exercise the sparse update's accumulation.
        feeds = {"ids:0": np.array([[1, 4, 4], [7, 0, 1]], np.int32),
                 "labels:0": rng.integers(0, 3, 2).astype(np.int32)}
        for t, v in feeds.items():
            md.add_feed(t, v)
        md.manifest.update(targets=["train_op"], init=["init"], steps=steps)
        fetches = [loss, logits, emb_value]
        with tf1.Session(graph=g, config=session_config()) as sess:
            sess.run(init)
            # (A sharded saver wants the directory made.)
            os.makedirs(md.path("checkpoint"), exist_ok=True)
            saver.save(sess, md.path("checkpoint", "model.ckpt"), global_step=0,
                       write_meta_graph=False)
            losses = [sess.run([loss, train_op], feeds)[0] for _ in range(steps)]
            values = sess.run(fetches, feeds)
            losses.append(values[0])
            for t, v in zip(fetches, values):
                md.add_fetch(t.name, v)
            np.save(md.path("outputs", "step_losses.npy"),
                    np.array(losses, np.float32), allow_pickle=False)
            md.manifest["step_losses"] = "outputs/step_losses.npy"
            md.write_text(g.as_graph_def())
            if make_opt is not None:
                md.verify()
                md.finish()
                return
            # Inference form: the trained variables frozen into constants;
            # same feeds and fetches, no init/steps needed.
            frozen = tf1.graph_util.convert_variables_to_constants(
                sess, g.as_graph_def(), [t.op.name for t in fetches])
            md.write_frozen(frozen)
            save_v1_saved_model(md, sess, {"ids": ids}, {"logits": logits})
    md.verify()
    md.check_saved_model({"logits": md.fetch_values[1]}, exact=True)
    md.finish()


# --------------------------------------------------------------------------
# Op inventory
# --------------------------------------------------------------------------


def graph_defs_in(model_dir, manifest):
    """All GraphDefs of one model (SavedModel: every MetaGraph's graph)."""
    for form, rel in sorted(manifest["graphs"].items()):
        path = os.path.join(model_dir, rel)
        if form == "saved_model":
            sm = saved_model_pb2.SavedModel()
            with open(os.path.join(path, "saved_model.pb"), "rb") as f:
                sm.ParseFromString(f.read())
            for mg in sm.meta_graphs:
                yield form, mg.graph_def
        else:
            yield form, load_graph_def(path)


def write_op_types(root):
    """Writes op_types.txt: sorted unique op types across all graphs of all
    models, function library bodies included."""
    ops = set()
    for name in sorted(os.listdir(root)):
        mpath = os.path.join(root, name, "manifest.json")
        if not os.path.isfile(mpath):
            continue
        with open(mpath) as f:
            manifest = json.load(f)
        for _, gd in graph_defs_in(os.path.join(root, name), manifest):
            ops.update(n.op for n in gd.node)
            for fn in gd.library.function:
                ops.update(n.op for n in fn.node_def)
    with open(os.path.join(root, "op_types.txt"), "w") as f:
        for op in sorted(ops):
            f.write(op + "\n")
    print("op_types.txt: %d op types" % len(ops))


# --------------------------------------------------------------------------


def all_models():
    models = [
        ("mlp", make_mlp),
        ("swish_mlp", make_swish_mlp),
        ("cnn", make_cnn),
        ("resnet_block", make_resnet_block),
        ("mobilenet_block", make_mobilenet_block),
        ("mobilenetv2_stem", make_mobilenetv2_stem),
        ("efficientnet_block", make_efficientnet_block),
        ("xception_block", make_xception_block),
        ("xception_entry", make_xception_entry),
        ("densenet_block", make_densenet_block),
        ("inception_block", make_inception_block),
        ("transformer_block", make_transformer_block),
        ("lstm", make_lstm),
        ("gru", make_gru),
        ("simple_rnn", make_simple_rnn),
        ("tf1_while", make_tf1_while),
        ("tf1_cond", make_tf1_cond),
        ("tf1_ref_cond", make_tf1_ref_cond),
        ("tf1_while_swap", make_tf1_while_swap),
        ("tf2_control_flow", make_tf2_control_flow),
        ("tf1_loop_in_cond", make_tf1_loop_in_cond),
        ("tf2_case", make_tf2_case),
        ("tf2_loop_gradients", make_tf2_loop_gradients),
        ("tf2_cond_gradients", make_tf2_cond_gradients),
        ("tf2_tensor_arrays", make_tf2_tensor_arrays),
        ("queue_training", make_queue_training),
        ("queue_runners", make_queue_runners),
        ("queue_smaller_batch", make_queue_smaller_batch),
        ("queue_shuffle", make_queue_shuffle),
        ("accumulators", make_accumulators),
        ("sparse_accumulators", make_sparse_accumulators),
        ("summaries", make_summaries),
        ("summaries_v2", make_summaries_v2),
        ("ps_async_mlp", make_ps_async_mlp),
        ("ps_shared_queue", make_ps_shared_queue),
        ("ps_sync_mlp", make_ps_sync_mlp),
        ("ps_sync_embedding", make_ps_sync_embedding),
        ("ps_sync_backup_linear", make_ps_sync_backup_linear),
        ("ps_embedding_mod", lambda root: make_ps_embedding(root, "mod")),
        ("ps_embedding_div", lambda root: make_ps_embedding(root, "div")),
        ("model_parallel_lstm", make_model_parallel_lstm),
        ("model_parallel_lstm_train", make_model_parallel_lstm_train),
        ("ps_embedding_minmax",
         lambda root: make_ps_embedding(root, "div", "minmax")),
    ]
    for name, make_opt, resource, task in OPTIMIZERS:
        models.append((name, lambda root, n=name, m=make_opt, r=resource, t=task:
                       make_train(root, n, m, r, t)))
    for name, make_opt, resource, _ in OPTIMIZERS:
        cnn = name.replace("train_", "train_cnn_")
        models.append((cnn, lambda root, n=cnn, m=make_opt, r=resource:
                       make_train(root, n, m, r, "classifier", cnn_graph)))
    models.append(("train_cnn_winograd", lambda root: make_train(
        root, "train_cnn_winograd", lambda: tf1.train.MomentumOptimizer(0.05, 0.9),
        True, "classifier", winograd_cnn_graph)))
    models.append(("train_cnn_bias_bn", lambda root: make_train(
        root, "train_cnn_bias_bn", lambda: tf1.train.MomentumOptimizer(0.05, 0.9),
        True, "classifier", bias_bn_cnn_graph)))
    models.append(("train_cond", lambda root: make_train(
        root, "train_cond", lambda: tf1.train.GradientDescentOptimizer(0.1),
        True, "regression", cond_graph)))
    models.append(("train_while", lambda root: make_train(
        root, "train_while", lambda: tf1.train.GradientDescentOptimizer(0.2),
        True, "regression", while_graph)))
    models.append(("train_tensor_array", lambda root: make_train(
        root, "train_tensor_array", lambda: tf1.train.GradientDescentOptimizer(0.3),
        True, "regression", tensor_array_graph)))
    models.append(("embedding", make_embedding))
    for name, make_opt in EMBEDDING_OPTIMIZERS:
        models.append((name, lambda root, n=name, m=make_opt:
                       make_embedding(root, n, m)))
    for name, make_opt in KERAS_OPTIMIZERS:
        models.append((name, lambda root, n=name, m=make_opt:
                       make_keras_train(root, n, m)))
    for name, make_model in KERAS_RNNS:
        models.append((name, lambda root, n=name, m=make_model:
                       make_keras_train(root, n, lambda: keras.optimizers.SGD(0.5), m)))
    return models


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=CORPUS_DIR,
                    help="corpus directory (default: this script's directory)")
    ap.add_argument("--only", default="",
                    help="comma-separated model names to regenerate")
    args = ap.parse_args()

    tf.get_logger().setLevel("ERROR")  # no deprecation chatter
    # One thread for the eager (Keras) side too; must precede any TF op.
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)

    models = all_models()
    wanted = [s for s in args.only.split(",") if s]
    unknown = set(wanted) - {n for n, _ in models}
    if unknown:
        sys.exit("unknown model(s): %s" % ", ".join(sorted(unknown)))
    os.makedirs(args.out, exist_ok=True)
    for name, make in models:
        if wanted and name not in wanted:
            continue
        print("== %s" % name)
        make(args.out)
    write_op_types(args.out)


if __name__ == "__main__":
    main()
