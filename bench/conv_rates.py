#!/usr/bin/env python3
"""How close each system's convolutions run to the machine's peak.

    python bench/conv_rates.py DIR [--tfc build/bin/tfc] [--threads 2]
                                   [--steps 4] [--micro-batch-bytes N]
                                   [--nodes N]

DIR is a model directory of bench/run.py (`--work DIR` keeps them:
frozen.pb, x.npy, model.json). Issue 21 lets a model whose time is one
library's kernels at more than 90% of the machine's peak in both systems
meet a lower target; this prints that fraction, for tfc and for
TensorFlow, by class of convolution (1x1, 3x3, ..., depthwise 3x3, ...):

  - tfc: compiles the frozen graph (the program and `--emit mlir`, whose
    nodes give each convolution's shapes, micro-batches included) and
    runs the program with `--trace`; a node's time is its fastest over the
    steps after the first. A fused group's time counts for the classes of
    all the convolutions in it (a depthwise convolution and the 1x1 after
    it: "depthwise 3x3 + 1x1").
  - TensorFlow: session.run on the frozen graph with a full trace
    (RunMetadata's step stats), each node's fastest time over the steps
    after the first; a convolution's FLOPs from its filter's shape (a
    constant of the frozen graph) and its output's (the step stats').

TensorFlow runs independent nodes at once (inter-op threads, as many as
--threads): on a model of parallel branches (NASNet's cells) its nodes'
times overlap, and their sum exceeds its step; on a chain of layers
(Xception, ResNet) they are comparable with tfc's.

A convolution's FLOPs are direct convolution's (2 x outputs x window x
input channels, without the window's input channels for a depthwise one),
whatever algorithm computes it: Winograd's show as more than the peak.
The peak is bench/machine.py's, measured. With --nodes N, each
system's N slowest convolution nodes follow its table, with their shapes
(tfc's: input, filter and output of each convolution of the group) and
rates: where one system's layer is slower than the other's. Needs
tensorflow-cpu==2.21.0 and numpy for the TensorFlow side; tfc itself
never does.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import machine  # noqa: E402
import trace_compare  # noqa: E402

CONVOLUTIONS = ("Conv2D", "DepthwiseConv2dNative")


def conv_class(kind, kh, kw):
    """A convolution's class: "1x1", "3x3", "depthwise 3x3", ..."""
    window = "%dx%d" % (kh, kw)
    return "depthwise " + window if "Depthwise" in kind else window


def conv_flops(kind, kh, kw, in_channels, out_shape):
    outputs = 1
    for d in out_shape:
        outputs *= d
    per_output = kh * kw * (1 if "Depthwise" in kind else in_channels)
    return 2 * outputs * per_output


# One node of `tfc compile --emit mlir`: its result, op, name and the
# types of its operands and results.
NODE = re.compile(r'= (Conv2D|DepthwiseConv2dNative)\(.*? name\("([^"]+)"\).*'
                  r': \(tensor<([0-9x]+)xf32>, tensor<([0-9x]+)xf32>\) -> '
                  r'tensor<([0-9x]+)xf32>')


def tfc_convolutions(mlir):
    """name -> (class, FLOPs, shapes) of every convolution in a graph's IR."""
    convs = {}
    with open(mlir) as f:
        for line in f:
            m = NODE.search(line)
            if not m:
                continue
            kind, name = m.group(1), m.group(2)
            shape_in, window, out = ([int(d) for d in m.group(i).split("x")]
                                     for i in (3, 4, 5))
            kh, kw = window[0], window[1]
            cls = conv_class(kind, kh, kw)
            convs[name] = (cls, conv_flops(kind, kh, kw, shape_in[-1], out),
                           "%s %s, %s -> %s" % (cls, m.group(3), m.group(4), m.group(5)))
    return convs


def fastest_per_node(samples):
    """{node: fastest} over (node, seconds) samples."""
    best = {}
    for name, seconds in samples:
        best[name] = min(best.get(name, seconds), seconds)
    return best


def tfc_side(args, d, meta, work):
    """(per class: [seconds, FLOPs, nodes], all nodes' seconds)."""
    graph = os.path.join(d, "frozen.pb")
    program, mlir = os.path.join(work, "program"), os.path.join(work, "graph.mlir")
    flags = ["--feed", meta["feed"], "--fetch", meta["fetch"]]
    if args.micro_batch_bytes is not None:
        flags += ["--micro-batch-bytes", str(args.micro_batch_bytes)]
    for extra, out in ((["--emit", "mlir"], mlir), ([], program)):
        try:
            failed = subprocess.run([args.tfc, "compile", graph] + flags + extra
                                    + ["-o", out]).returncode
        except OSError as e:
            sys.exit("conv_rates.py: --tfc %s: %s" % (args.tfc, e.strerror))
        if failed:
            sys.exit("conv_rates.py: %s: tfc compile failed (its error above)" % graph)
    feed = "%s=%s" % (meta["feed"], os.path.join(d, "x.npy"))
    steps = [events for _, events in trace_compare.traced_steps(
                 program, [feed], args.steps, args.threads, os.path.join(work, "trace.json"))]
    members = {e["name"]: e.get("args", {}).get("fused", e["name"]).split(",")
               for events in steps for e in events}
    # A node in a loop (tfc-split-batch's micro-batches) runs, and counts
    # its FLOPs, once an iteration.
    runs = collections.Counter(e["name"] for e in steps[0])
    best = fastest_per_node((name, us / 1e6) for events in steps
                            for name, us in trace_compare.step_times(events).items())
    convs = tfc_convolutions(mlir)
    classes = collections.defaultdict(lambda: [0.0, 0, 0])
    slowest = []
    for name, seconds in best.items():
        inside = [m for m in members[name] if m in convs]
        if not inside:
            continue
        row = classes[" + ".join(convs[m][0] for m in inside)]
        flops = sum(convs[m][1] for m in inside) * runs[name]
        row[0] += seconds
        row[1] += flops
        row[2] += 1
        slowest.append((seconds, flops, name, " + ".join(convs[m][2] for m in inside)))
    return classes, sum(best.values()), sorted(slowest, reverse=True)


def tf_worker(args):
    """TensorFlow's side, in this process: prints JSON like tfc_side's."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    import models
    meta = json.load(open(os.path.join(args.dir, "model.json")))
    x = np.load(os.path.join(args.dir, "x.npy"))
    sess, graph_def = models.frozen_session(os.path.join(args.dir, "frozen.pb"),
                                            args.threads)
    nodes = {n.name: n for n in graph_def.node}

    def constant_shape(name):
        """The shape of the constant `name` names, through Identity nodes."""
        name = name.split(":")[0].lstrip("^")
        while name in nodes and nodes[name].op == "Identity":
            name = nodes[name].input[0].split(":")[0]
        node = nodes.get(name)
        if node is None or node.op != "Const":
            return None
        return [d.size for d in node.attr["value"].tensor.tensor_shape.dim]

    feeds = {meta["feed"] + ":0": x}
    sess.run(meta["fetch"], feeds)  # Warm-up: grappler's rewrites, primitives.
    options = tf.compat.v1.RunOptions(trace_level=tf.compat.v1.RunOptions.FULL_TRACE)
    samples, labels, shapes = [], {}, {}
    for step in range(args.steps):
        run_metadata = tf.compat.v1.RunMetadata()
        sess.run(meta["fetch"], feeds, options=options, run_metadata=run_metadata)
        for device in run_metadata.step_stats.dev_stats:
            for stats in device.node_stats:
                labels[stats.node_name] = stats.timeline_label
                if stats.output:
                    shapes[stats.node_name] = [
                        d.size for d in stats.output[0].tensor_description.shape.dim]
                if step > 0:
                    samples.append((stats.node_name, stats.all_end_rel_micros / 1e6))
    convs = {}
    for name, text in labels.items():
        # "[allocator ...] name = Op(input, filter, ...)": TensorFlow's own
        # convolutions (Conv2D, _MklNativeConv2D, _MklNativeFusedConv2D,
        # ...), whose filters are constants of the graph or of grappler's
        # rewrites (batch norms folded in), which the step stats show.
        label = re.search(r"(\S+) = (\w+)\(([^)]*)\)", text)
        if not label or not any(c in label.group(2) for c in CONVOLUTIONS):
            continue
        operands = [i.strip() for i in label.group(3).split(",")]
        if len(operands) < 2 or name not in shapes:
            continue
        filter_name = operands[1].split(":")[0]
        window = shapes.get(filter_name) or constant_shape(filter_name)
        if not window or len(window) != 4:
            continue
        kind = "DepthwiseConv2dNative" if "Depthwise" in label.group(2) else "Conv2D"
        cls = conv_class(kind, window[0], window[1])
        convs[name] = (cls, conv_flops(kind, window[0], window[1], window[2], shapes[name]),
                       "%s %s -> %s" % (cls, "x".join(map(str, window)),
                                        "x".join(map(str, shapes[name]))))
    best = fastest_per_node(samples)
    classes = collections.defaultdict(lambda: [0.0, 0, 0])
    slowest = []
    for name, (cls, flops, described) in convs.items():
        row = classes[cls]
        row[0] += best[name]
        row[1] += flops
        row[2] += 1
        slowest.append((best[name], flops, name, described))
    print(json.dumps({"classes": classes, "total": sum(best.values()),
                      "slowest": sorted(slowest, reverse=True)[:args.nodes]}))


def print_rows(title, classes, total, peak):
    print("\n%s: all nodes %.1f ms (fastest of each, summed)\n" % (title, total * 1e3))
    print("| convolutions | nodes | ms | GFLOP | GFLOP/s | of peak |")
    print("|---|---:|---:|---:|---:|---:|")
    rows = sorted(classes.items(), key=lambda kv: -kv[1][0])
    seconds = sum(r[0] for _, r in rows)
    flops = sum(r[1] for _, r in rows)
    for name, (s, f, n) in rows + [("all", (seconds, flops, sum(r[2] for _, r in rows)))]:
        rate = f / s / 1e9 if s else 0.0
        print("| %s | %d | %.1f | %.1f | %.0f | %.0f%% |"
              % (name, n, s * 1e3, f / 1e9, rate, 100 * rate / peak))


def print_slowest(title, slowest, peak):
    """The rows of --nodes: (seconds, FLOPs, node, shapes), slowest first."""
    print("\n%s: the %d slowest convolution nodes\n" % (title, len(slowest)))
    print("| node | convolutions | ms | GFLOP/s | of peak |")
    print("|---|---|---:|---:|---:|")
    for seconds, flops, name, described in slowest:
        rate = flops / seconds / 1e9 if seconds else 0.0
        print("| %s | %s | %.2f | %.0f | %.0f%% |"
              % (name, described, seconds * 1e3, rate, 100 * rate / peak))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="a model directory of bench/run.py --work")
    parser.add_argument("--tfc", default=os.path.join(HERE, "..", "build", "bin", "tfc"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--micro-batch-bytes", type=int, default=None,
                        help="tfc compile's (default: its own)")
    parser.add_argument("--nodes", type=int, default=0,
                        help="also list each system's N slowest convolution nodes")
    parser.add_argument("--tf-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.steps < 2:
        sys.exit("conv_rates.py: --steps must be at least 2 (the first is left out)")
    if args.nodes < 0:
        sys.exit("conv_rates.py: --nodes must be 0 or more")
    d = os.path.abspath(args.dir)
    if args.tf_worker:
        args.dir = d
        tf_worker(args)
        return
    try:
        meta = json.load(open(os.path.join(d, "model.json")))
    except (OSError, ValueError) as e:
        sys.exit("conv_rates.py: %s: not a model directory of bench/run.py (%s)" % (d, e))
    info = machine.describe(args.threads)
    print(machine.line(args.threads, info))
    print("%s at batch %d, %d thread(s), %d steps (the first left out)"
          % (meta["model"], meta["batch"], args.threads, args.steps))
    with tempfile.TemporaryDirectory(prefix="tfc-conv-rates-") as work:
        classes, total, slowest = tfc_side(args, d, meta, work)
    print_rows("tfc", classes, total, info["peak_gflops"])
    if args.nodes:
        print_slowest("tfc", slowest[:args.nodes], info["peak_gflops"])
    tf = subprocess.run([sys.executable, os.path.abspath(__file__), d, "--tf-worker",
                         "--threads", str(args.threads), "--steps", str(args.steps),
                         "--nodes", str(args.nodes)],
                        check=True, capture_output=True, text=True)
    result = json.loads(tf.stdout.strip().splitlines()[-1])
    print_rows("TensorFlow session.run", result["classes"], result["total"], info["peak_gflops"])
    if args.nodes:
        print_slowest("TensorFlow session.run", result["slowest"], info["peak_gflops"])


if __name__ == "__main__":
    main()
