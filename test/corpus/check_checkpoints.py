#!/usr/bin/env python3
"""Checks that checkpoints move between tfc and TensorFlow both ways, for
every training graph of the corpus.

Needs TensorFlow (like generate.py) and a built tfc:

    /path/to/venv/bin/python test/corpus/check_checkpoints.py --tfc build/bin/tfc

For each model: tfc compiles the graph without its init entry, restores
TensorFlow's initial checkpoint (checkpoint/model.ckpt-0, TensorFlow ->
tfc), trains K steps and saves model.ckpt-K. TensorFlow then restores that
checkpoint with the graph's own Saver subgraph (tfc -> TensorFlow) and
computes the loss of the next step, which must match the loss tfc computes
in its step K+1 (rtol 1e-5); so must every variable TensorFlow reads
back from tfc's checkpoint with tf.train.load_checkpoint against TensorFlow
training the same K steps from the same start.

With --cluster SPEC the TF1 models train as cluster jobs (their variables
on the ps tasks, tfc run-cluster), each task writing its shard of
TensorFlow's sharded layout, which TensorFlow reads the same way.

The TF2 Keras models go the same way with their SavedModel's train_step
signature and object-based checkpoints: tfc restores what
tf.train.Checkpoint wrote, and tf.train.Checkpoint restores tfc's
checkpoint into the loaded SavedModel through the object graph.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from google.protobuf import text_format  # noqa: E402

tf1 = tf.compat.v1
HERE = os.path.dirname(os.path.abspath(__file__))
OPTIMIZERS = ["sgd", "momentum", "adagrad", "rmsprop", "adam", "adadelta",
              "ftrl"]
MODELS = (["train_" + o for o in OPTIMIZERS] +
          ["train_cnn_" + o for o in OPTIMIZERS] +
          ["embedding", "embedding_adam", "embedding_adagrad", "embedding_momentum"] +
          ["train_keras_sgd", "train_keras_adam", "train_cond"] +
          ["train_lstm", "train_gru", "train_simple_rnn", "train_while",
           "train_tensor_array"])
K = 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", required=True)
    parser.add_argument("--cluster", help="e.g. worker=1,ps=2: the TF1 models "
                        "train as cluster jobs (variables on the ps tasks, "
                        "--placement parameter-server; tfc run-cluster), "
                        "whose checkpoints are sharded")
    args = parser.parse_args()
    failures = 0
    work = tempfile.mkdtemp(prefix="tfc-checkpoints-")
    for name in MODELS:
        model = os.path.join(HERE, name)
        manifest = json.load(open(os.path.join(model, "manifest.json")))
        feeds = {f["tensor"]: np.load(os.path.join(model, f["npy"]))
                 for f in manifest["feeds"]}
        program = os.path.join(work, name)
        tf2 = "text" not in manifest["graphs"]
        if args.cluster and tf2:
            continue
        loss_name = manifest["fetches"][0]["tensor"] if tf2 else "loss"
        if tf2:
            command = [args.tfc, "compile", os.path.join(model, "saved_model"),
                       "--signature", "train_step", "-o", program]
        else:
            command = [args.tfc, "compile", os.path.join(model, "graph.pbtxt"),
                       "-o", program, "--fetch", "loss", "--target", "train_op"]
            for tensor in feeds:
                command += ["--feed", tensor]
            if args.cluster:
                command += ["--cluster", args.cluster, "--placement", "parameter-server"]
        subprocess.run(command, check=True)
        launch = [args.tfc, "run-cluster", program] if args.cluster else [program]
        checkpoints = os.path.join(work, name + "-checkpoints")
        shutil.copytree(os.path.join(model, "checkpoint"), checkpoints)
        inputs = []
        for i, tensor in enumerate(feeds):
            inputs += ["--input", "%s=%s" % (tensor, os.path.join(model, "inputs", "%d.npy" % i))]
        subprocess.run(launch + ["--checkpoint-dir", checkpoints] + inputs +
                       ["--restore", "--steps", str(K)], check=True)
        out = os.path.join(work, name + "-loss.npy")
        # Step K+1 from tfc's checkpoint, in tfc (without saving over it).
        probe = os.path.join(work, name + "-probe")
        shutil.copytree(checkpoints, probe)
        subprocess.run(launch + ["--checkpoint-dir", probe] + inputs +
                       ["--restore", "--steps", "1", "--output", loss_name + "=" + out],
                       check=True)
        tfc_loss = float(np.load(out))

        if tf2:
            tf_loss, names, worst = check_tf2(model, manifest, feeds, checkpoints, work)
        else:
            tf_loss, names, worst = check_tf1(model, name, feeds, checkpoints, work)
        ok = np.isclose(tfc_loss, tf_loss, rtol=1e-5) and worst < 1e-5
        failures += not ok
        print("%-16s next-step loss tfc %.7g TensorFlow %.7g; %d variables, "
              "max |tfc - TF| %.2g: %s" % (name, tfc_loss, tf_loss,
                                            len(names), worst,
                                            "OK" if ok else "MISMATCH"))
    shutil.rmtree(work)
    sys.exit(1 if failures else 0)


def compare_checkpoints(ours, theirs):
    """The variables both checkpoints hold (the same set) and the largest
    difference between them."""
    skip = {"_CHECKPOINTABLE_OBJECT_GRAPH", "save_counter/.ATTRIBUTES/VARIABLE_VALUE"}
    names = sorted(v for v, _ in tf.train.list_variables(theirs) if v not in skip)
    assert names == sorted(v for v, _ in tf.train.list_variables(ours) if v not in skip)
    reader = tf.train.load_checkpoint(ours)
    expected = tf.train.load_checkpoint(theirs)
    worst = max(float(np.max(np.abs(reader.get_tensor(v) - expected.get_tensor(v))))
                for v in names)
    return names, worst


def check_tf2(model, manifest, feeds, checkpoints, work):
    """The next-step loss of the loaded SavedModel after restoring tfc's
    checkpoint, and tfc's variables against TensorFlow's after K steps."""
    signature = manifest["saved_model_signature"]
    args = {key: tf.constant(feeds[tensor])
            for key, tensor in signature["inputs"].items()}
    prefix = os.path.join(checkpoints, "model.ckpt-%d" % K)
    loaded = tf.saved_model.load(os.path.join(model, "saved_model"))
    status = tf.train.Checkpoint(root=loaded).restore(prefix)
    status.assert_nontrivial_match()
    tf_loss = float(loaded.signatures["train_step"](**args)["loss"])
    # TensorFlow training the same K steps from its own start.
    loaded = tf.saved_model.load(os.path.join(model, "saved_model"))
    checkpoint = tf.train.Checkpoint(root=loaded)
    checkpoint.restore(os.path.join(model, "checkpoint", "model.ckpt-0")).assert_consumed()
    for _ in range(K):
        loaded.signatures["train_step"](**args)
    theirs = checkpoint.write(os.path.join(work, os.path.basename(model) + "-tf", "model.ckpt"))
    names, worst = compare_checkpoints(prefix, theirs)
    return tf_loss, names, worst


def check_tf1(model, name, feeds, checkpoints, work):
    """The same for a TF1 graph, through its own Saver subgraph."""
    graph_def = tf1.GraphDef()
    text_format.Parse(open(os.path.join(model, "graph.pbtxt")).read(), graph_def)
    graph = tf.Graph()
    with graph.as_default():
        tf1.import_graph_def(graph_def, name="")
    prefix = os.path.join(checkpoints, "model.ckpt-%d" % K)
    with tf1.Session(graph=graph) as sess:
        # The graph's Saver: its filename tensor and restore op.
        sess.run("save/restore_all", {"save/Const:0": prefix})
        tf_loss = float(sess.run("loss:0", feeds))
    # TensorFlow training the same K steps from its own start.
    with tf1.Session(graph=graph) as sess:
        sess.run("save/restore_all",
                 {"save/Const:0": os.path.join(model, "checkpoint", "model.ckpt-0")})
        for _ in range(K):
            sess.run("train_op", feeds)
        # Saved by the graph's Saver, to read both the same way (a sharded
        # Saver's save tensor is save/Identity, after the merge).
        theirs = os.path.join(work, name + "-tf", "model.ckpt")
        os.makedirs(os.path.dirname(theirs), exist_ok=True)
        sharded = any(n.op == "MergeV2Checkpoints" for n in graph_def.node)
        sess.run("save/Identity:0" if sharded else "save/control_dependency:0",
                 {"save/Const:0": theirs})
    names, worst = compare_checkpoints(prefix, theirs)
    return tf_loss, names, worst


if __name__ == "__main__":
    main()
