#!/usr/bin/env python3
"""Checks that graphs optimized by `tfc compile` still compute TensorFlow's
outputs, by running them in TensorFlow.

For every model and graph form of the corpus: compile with the manifest's
interface (`tfc compile --emit mlir`), export the step entry (and the init
entry) with `tfc-translate --mlir-to-graphdef --entry`, and run the result
in TensorFlow the way generate.py made the reference outputs:

  * `_Arg` nodes become Placeholders (fed with the manifest's inputs by
    index) and `_Retval` nodes Identities (fetched by index);
  * the init entry is merged into the same graph (both entries come from
    one graph, so shared nodes have the same names) and run once;
  * SavedModels are compiled with `--init <restore op>`; the init entry keeps
    the saver's filename Placeholder, which is fed the variables prefix.

Frozen and text forms must reproduce the committed outputs bit for bit;
SavedModel forms must match the original SavedModel run the same way.
Writes a markdown report and exits 1 on any difference.

Usage: check_optimized.py [--tfc build/bin/tfc] [--out test/corpus/OPTIMIZED.md]
(with tensorflow-cpu==2.21.0 installed, as for generate.py)
"""

import argparse
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"  # the kernels of generate.py

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402

from corpus import compile_flags, manifests  # noqa: E402
from tfsession import (identical, run_saved_model_graph,  # noqa: E402
                       session_config)

tf1 = tf.compat.v1

# When outputs are not bit-identical: the float32 tolerance of a match.
RTOL, ATOL = 1e-5, 1e-6


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip().splitlines()[0])


def make_runnable(graph_def):
    """_Arg -> Placeholder, _Retval -> Identity. Returns the names of the
    args and retvals in index order."""
    args, rets = {}, {}
    for node in graph_def.node:
        if node.op == "_Arg":
            index, dtype = node.attr["index"].i, node.attr["T"].type
            node.op = "Placeholder"
            node.ClearField("attr")
            node.attr["dtype"].type = dtype
            args[index] = node.name
        elif node.op == "_Retval":
            rets[node.attr["index"].i] = node.name
            node.op = "Identity"
            del node.attr["index"]
    return ([args[i] for i in sorted(args)], [rets[i] for i in sorted(rets)])


def merge(step, init):
    """Adds the init entry's nodes and functions that the step lacks."""
    names = {n.name for n in step.node}
    step.node.extend(n for n in init.node if n.name not in names)
    functions = {f.signature.name for f in step.library.function}
    step.library.function.extend(
        f for f in init.library.function if f.signature.name not in functions)


def load(path):
    gd = tf1.GraphDef()
    with open(path, "rb") as f:
        gd.ParseFromString(f.read())
    return gd


def check(tfc, model_dir, manifest, form, work):
    path = os.path.join(model_dir, manifest["graphs"][form])
    translate = os.path.join(os.path.dirname(tfc), "tfc-translate")
    flags = compile_flags(manifest, form)
    restore = None
    if form == "saved_model":
        sm = saved_model_pb2.SavedModel()
        with open(os.path.join(path, "saved_model.pb"), "rb") as f:
            sm.ParseFromString(f.read())
        saver = sm.meta_graphs[0].saver_def
        if saver.restore_op_name:
            restore = saver
            flags.append("--init=" + saver.restore_op_name)
    mlir = os.path.join(work, "opt.mlir")
    run([tfc, "compile", path, "--emit", "mlir", "-o", mlir] + flags)
    init_names = manifest.get("init", []) if form == "text" else []
    if restore:
        init_names = [restore.restore_op_name]
    step_pb = os.path.join(work, "step.pb")
    run([translate, "--mlir-to-graphdef", mlir, "--entry", "step", "-o", step_pb])
    graph_def = load(step_pb)
    args, rets = make_runnable(graph_def)
    nodes_after = len(graph_def.node)
    if init_names:
        init_pb = os.path.join(work, "init.pb")
        run([translate, "--mlir-to-graphdef", mlir, "--entry", "init", "-o", init_pb])
        merge(graph_def, load(init_pb))

    # Inputs in feed order: the manifest's, or the signature's by key.
    if form == "saved_model":
        sig = manifest["saved_model_signature"]
        by_tensor = {f["tensor"]: np.load(os.path.join(model_dir, f["npy"]))
                     for f in manifest["feeds"]}
        inputs_by_key = {k: by_tensor[k + ":0"] for k in sorted(sig["inputs"])}
        inputs = [inputs_by_key[k] for k in sorted(sig["inputs"])]
        expected_by_key = run_saved_model_graph(path, sig["key"], inputs_by_key)
        expected = [expected_by_key[k] for k in sorted(sig["outputs"])]
    else:
        inputs = [np.load(os.path.join(model_dir, f["npy"])) for f in manifest["feeds"]]
        expected = [np.load(os.path.join(model_dir, f["npy"])) for f in manifest["fetches"]]

    g = tf.Graph()
    with g.as_default():
        tf1.import_graph_def(graph_def, name="")
    feeds = {name + ":0": value for name, value in zip(args, inputs)}
    with tf1.Session(graph=g, config=session_config()) as sess:
        if restore:
            prefix = os.path.join(path, "variables", "variables")
            sess.run(restore.restore_op_name,
                     {restore.filename_tensor_name: prefix})
        elif init_names:
            sess.run(init_names)
        targets = manifest.get("targets", []) if form == "text" else []
        for _ in range(manifest.get("steps", 0) if targets else 0):
            sess.run(targets, feed_dict=feeds)
        got = sess.run([r + ":0" for r in rets], feed_dict=feeds)
    if len(got) != len(expected):
        return nodes_after, "DIFFERENT (number of outputs)"
    if all(identical(a, b) for a, b in zip(got, expected)):
        return nodes_after, "identical"
    # Numeric rewrites (batch norms decomposed and moved onto filters,
    # constants folded by tfc's own code) round differently: within float32
    # rounding is a match, reported with its largest difference.
    worst = 0.0
    for a, b in zip(got, expected):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype != b.dtype or a.shape != b.shape:
            return nodes_after, "DIFFERENT (dtype or shape)"
        if not np.allclose(a, b, rtol=RTOL, atol=ATOL, equal_nan=True):
            return nodes_after, "DIFFERENT"
        if np.issubdtype(a.dtype, np.inexact):
            worst = max(worst, float(np.nanmax(np.abs(a.astype(np.float64) - b))))
    return nodes_after, "close (max abs diff %.2g)" % worst


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfc", default=os.path.join(root, "build/bin/tfc"))
    parser.add_argument("--out", default=os.path.join(here, "OPTIMIZED.md"))
    args = parser.parse_args()

    rows, failures = [], 0
    for model_dir, manifest in manifests(here):
        for form in sorted(manifest["graphs"]):
            with tempfile.TemporaryDirectory() as work:
                try:
                    nodes, result = check(args.tfc, model_dir, manifest, form, work)
                except Exception as e:  # noqa: BLE001 - reported per row
                    nodes, result = "-", "error: %s" % str(e).replace("|", "/")[:160]
            failures += not result.startswith(("identical", "close"))
            rows.append((manifest["name"], form, nodes, result))
            print("%-18s %-12s %s" % (manifest["name"], form, result), flush=True)

    with open(args.out, "w") as f:
        f.write("# TensorFlow runs the optimized corpus graphs\n\n")
        f.write("Generated by `test/corpus/check_optimized.py`: each graph is "
                "compiled by `tfc compile` (the graph-level pipeline: prune, "
                "inline, shape inference, batch norm decomposition, constant "
                "folding, scales moved onto weights, canonicalize, CSE, dead "
                "node removal), its step entry exported as a GraphDef and "
                "run by TensorFlow 2.21; outputs compared with the committed "
                "outputs (frozen/text) or the original SavedModel's: "
                "identical bit for bit, or close (numeric rewrites round "
                "differently; within rtol %g, atol %g).\n\n" % (RTOL, ATOL))
        identical_rows = sum(r[3] == "identical" for r in rows)
        f.write("**%d of %d match: %d identical, %d close.**\n\n" % (
            len(rows) - failures, len(rows), identical_rows,
            len(rows) - failures - identical_rows))
        f.write("| model | form | step nodes | result |\n|---|---|---:|---|\n")
        for row in rows:
            f.write("| %s | %s | %s | %s |\n" % row)
    print("%d of %d match; report written to %s" %
          (len(rows) - failures, len(rows), args.out))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
