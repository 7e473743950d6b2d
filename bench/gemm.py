#!/usr/bin/env python3
"""Dense products: tfc's MatMul and BatchMatMulV2 against oneDNN's sgemm
called directly, in one run.

    python bench/gemm.py [--threads 2] [--rounds 15] [--only LABEL,...]
                         [--tfc build/bin/tfc] [--work DIR]

The shapes are the products of the benchmark models (bench/models.py: the
MLP's and CNN's dense layers, ResNet-50's logits, the transformer block's
projections, MLP and attention at batch 1 and 32) and square ones from 256
to 2048. For each:
  1. a TF1 graph of one product, made with TensorFlow: MatMul of a fed
     [m, k] by a constant [k, n] (weights, as in the models), or
     BatchMatMulV2 of two fed operands (attention); `tfc compile --emit
     lib` makes it a C library;
  2. gemm_pair.c, linked with that library and the oneDNN tfc links,
     writes tfc's product and `dnnl_sgemm`'s (a BatchMatMulV2 as one call
     per matrix), which npy-compare checks against NumPy's (rtol 1e-4,
     atol 1e-3), and measures them in turns in that one
     process: `--rounds` rounds, each a block of calls of one and a block
     of the other, the order swapped every round, every call timed;
  3. a markdown table: GFLOP/s of each (2mnk per matrix over the median of
     its blocks' median times), tfc's over oneDNN's (the median over
     rounds of the two blocks' ratio), and each as a fraction of the
     machine's peak, printed above the table.
Turns within one process see the same noise: separate processes, as
bench/run.py's, moved one shape's ratio by 10-20% between runs here.

Needs tensorflow-cpu==2.21.0 and numpy, and a C compiler (CC, default cc);
tfc itself never needs TensorFlow.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import machine  # noqa: E402

# (label, matrices, m, k, n): matrices > 1 is a BatchMatMulV2.
SHAPES = [
    ("mlp b1 dense", 1, 1, 784, 256),
    ("mlp b32 dense", 1, 32, 784, 256),
    ("mlp b32 hidden", 1, 32, 256, 128),
    ("cnn b32 dense", 1, 32, 1600, 128),
    ("resnet50 b1 logits", 1, 1, 2048, 1000),
    ("resnet50 b32 logits", 1, 32, 2048, 1000),
    ("transformer b1 projection", 1, 128, 256, 256),
    ("transformer b1 mlp up", 1, 128, 256, 1024),
    ("transformer b1 mlp down", 1, 128, 1024, 256),
    ("transformer b32 projection", 1, 4096, 256, 256),
    ("transformer b32 mlp up", 1, 4096, 256, 1024),
    ("transformer b32 mlp down", 1, 4096, 1024, 256),
    ("transformer b1 scores", 8, 128, 32, 128),
    ("transformer b1 context", 8, 128, 128, 32),
    ("transformer b32 scores", 256, 128, 32, 128),
    ("square 256", 1, 256, 256, 256),
    ("square 512", 1, 512, 512, 512),
    ("square 1024", 1, 1024, 1024, 1024),
    ("square 2048", 1, 2048, 2048, 2048),
]


def flops(matrices, m, k, n):
    return 2.0 * matrices * m * k * n


def calls_for(matrices, m, k, n):
    """A tenth of a second of products at 50 GFLOP/s, within [10, 2000]:
    a block. Short blocks keep each round's two within one state of the
    machine, whose speed here changes by a third every few seconds."""
    return int(max(10, min(2000, 5e9 / flops(matrices, m, k, n))))


def build(directory, matrices, m, k, n):
    """The graph, its operands (.npy) and NumPy's product."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    tf1 = tf.compat.v1
    rng = np.random.default_rng(20261126)
    graph = tf.Graph()
    with graph.as_default():
        if matrices == 1:
            a = rng.standard_normal((m, k), dtype=np.float32)
            b = rng.standard_normal((k, n), dtype=np.float32)
            x = tf1.placeholder(tf.float32, (m, k), name="a")
            tf.matmul(x, tf.constant(b), name="c")
            feeds = {"a": a}
        else:
            a = rng.standard_normal((matrices, m, k), dtype=np.float32)
            b = rng.standard_normal((matrices, k, n), dtype=np.float32)
            x = tf1.placeholder(tf.float32, a.shape, name="a")
            y = tf1.placeholder(tf.float32, b.shape, name="b")
            tf.linalg.matmul(x, y, name="c")
            feeds = {"a": a, "b": b}
    with open(os.path.join(directory, "graph.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    np.save(os.path.join(directory, "a.npy"), a)
    np.save(os.path.join(directory, "b.npy"), b)
    np.save(os.path.join(directory, "want.npy"), np.matmul(a, b))
    return list(feeds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--only", default="")
    parser.add_argument("--tfc", default=os.path.join(ROOT, "build", "bin", "tfc"))
    parser.add_argument("--npy-compare",
                        default=os.path.join(ROOT, "build", "bin", "npy-compare"))
    parser.add_argument("--work")
    args = parser.parse_args()
    if args.rounds < 1 or args.threads < 1:
        sys.exit("gemm.py: --rounds and --threads must be at least 1")

    only = set(filter(None, args.only.split(",")))
    shapes = [s for s in SHAPES if not only or s[0] in only]
    work = args.work or tempfile.mkdtemp(prefix="tfc-gemm-")
    info = machine.describe(args.threads)
    rows = []
    for label, matrices, m, k, n in shapes:
        directory = os.path.join(work, label.replace(" ", "_"))
        os.makedirs(directory, exist_ok=True)
        feeds = build(directory, matrices, m, k, n)
        library = os.path.join(directory, "libgemm.a")
        subprocess.run([args.tfc, "compile", os.path.join(directory, "graph.pb"),
                        "--fetch", "c", "--emit", "lib", "--lib-name", "gemm",
                        "-o", library] + sum((["--feed", f] for f in feeds), []),
                       check=True)
        pair = os.path.join(directory, "gemm_pair")
        subprocess.run([os.environ.get("CC", "cc"), "-O2", "-std=c11", "-I", directory,
                        "-I", os.path.join(ROOT, "examples", "library"),
                        os.path.join(HERE, "gemm_pair.c"), library,
                        "-ldnnl", "-lgomp", "-lstdc++", "-lpthread", "-lm", "-o", pair],
                       check=True)
        out = subprocess.run([pair, directory] + [str(v) for v in (matrices, m, k, n)]
                             + [str(args.threads), str(args.rounds),
                                str(calls_for(matrices, m, k, n))],
                             check=True, capture_output=True, text=True).stdout
        result = json.loads(out)
        for key in ("tfc", "onednn"):
            check = subprocess.run([args.npy_compare, os.path.join(directory, key + ".npy"),
                                    os.path.join(directory, "want.npy"),
                                    "--rtol", "1e-4", "--atol", "1e-3"],
                                   capture_output=True, text=True)
            if not check.stdout.startswith("MATCH"):
                sys.exit("%s: %s's product differs from NumPy's: %s"
                         % (label, key, check.stdout.strip()))
        times = {key: result[key + "_s"] for key in ("tfc", "onednn")}
        ratio = statistics.median(o / t for t, o in zip(times["tfc"], times["onednn"]))
        rate = {key: flops(matrices, m, k, n) / statistics.median(value) / 1e9
                for key, value in times.items()}
        rows.append((label, matrices, m, k, n, rate["tfc"], rate["onednn"], ratio))
        print("done: %s" % label, file=sys.stderr)

    print(machine.line(args.threads, info))
    print("%d thread(s), %d rounds in one process per shape; rates from the "
          "median of the blocks' medians, tfc / oneDNN the median of the rounds' "
          "ratios\n" % (args.threads, args.rounds))
    print("| shape | matrices x m x k x n | tfc GFLOP/s | oneDNN sgemm GFLOP/s "
          "| tfc / oneDNN | tfc % of peak | oneDNN % of peak |")
    print("|---|---|---:|---:|---:|---:|---:|")
    peak = info["peak_gflops"] or float("nan")
    for label, matrices, m, k, n, mine, theirs, ratio in rows:
        print("| %s | %d x %d x %d x %d | %.1f | %.1f | %.2f | %.0f%% | %.0f%% |"
              % (label, matrices, m, k, n, mine, theirs, ratio,
                 100 * mine / peak, 100 * theirs / peak))


if __name__ == "__main__":
    main()
