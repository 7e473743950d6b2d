"""What generate.py and check_roundtrip.py share on the TensorFlow side: the
session configuration of every reference run, bit-exact comparison, and
GraphDef reading. Import after setting TF_ENABLE_ONEDNN_OPTS=0 (both scripts
do), so that every run uses the same kernels."""

import os

import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.core.protobuf import saved_model_pb2

tf1 = tf.compat.v1


def session_config():
    """One thread, no Grappler, graph optimizer level L0: TensorFlow runs
    exactly the nodes in the file, so outputs are reproducible bit for bit."""
    cfg = tf1.ConfigProto(intra_op_parallelism_threads=1,
                          inter_op_parallelism_threads=1)
    cfg.graph_options.rewrite_options.disable_meta_optimizer = True
    opts = cfg.graph_options.optimizer_options
    opts.opt_level = tf1.OptimizerOptions.L0
    opts.do_constant_folding = False
    opts.do_common_subexpression_elimination = False
    opts.do_function_inlining = False
    return cfg


def identical(a, b):
    """Same dtype, same shape, same values (NaN equals NaN). TensorFlow's
    string tensors (object arrays of bytes) compare as the fixed-width
    bytes .npy files hold."""
    a, b = np.asarray(a), np.asarray(b)
    a, b = (x.astype(bytes) if x.dtype == object else x for x in (a, b))
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if np.issubdtype(a.dtype, np.inexact):
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def load_graph_def(path):
    """Reads a binary (.pb) or text (.pbtxt) GraphDef."""
    gd = tf1.GraphDef()
    if path.endswith(".pbtxt"):
        with open(path, "r") as f:
            text_format.Parse(f.read(), gd)
    else:
        with open(path, "rb") as f:
            gd.ParseFromString(f.read())
    return gd

def run_saved_model_graph(sm_dir, signature_key, feeds_by_key):
    """Runs a SavedModel's MetaGraph the "TF1 way" (exactly as
    check_roundtrip.py does): import its graph_def, run the saver_def's
    restore op fed with the variables prefix, then feed/fetch the signature
    tensors.  Returns {output_key: array}."""
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(sm_dir, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    mg = sm.meta_graphs[0]
    sig = mg.signature_def[signature_key]
    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(mg.graph_def, name="")
    out_keys = sorted(sig.outputs)
    with tf1.Session(graph=g, config=session_config()) as sess:
        if mg.HasField("saver_def") and mg.saver_def.restore_op_name:
            prefix = os.path.join(sm_dir, "variables", "variables")
            sess.run(mg.saver_def.restore_op_name,
                     {mg.saver_def.filename_tensor_name: prefix})
        feed = {sig.inputs[k].name: v for k, v in feeds_by_key.items()}
        vals = sess.run([sig.outputs[k].name for k in out_keys], feed)
    return {k: np.asarray(v) for k, v in zip(out_keys, vals)}
