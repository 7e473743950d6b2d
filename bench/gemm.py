#!/usr/bin/env python3
"""Dense products: tfc's MatMul and BatchMatMulV2 against oneDNN's sgemm
called directly, in one run.

    python bench/gemm.py [--threads 2] [--rounds 3] [--only LABEL,...]
                         [--tfc build/bin/tfc] [--work DIR]

The shapes are the products of the benchmark models (bench/models.py: the
MLP's and CNN's dense layers, ResNet-50's logits, the transformer block's
projections, MLP and attention at batch 1 and 32) and square ones from 256
to 2048. For each:
  1. a TF1 graph of one product, made with TensorFlow: MatMul of a fed
     [m, k] by a constant [k, n] (weights, as in the models), or
     BatchMatMulV2 of two fed operands (attention); `tfc compile` makes it
     a program, whose result is checked against NumPy's;
  2. `--rounds` times, alternating, each in its own process with the same
     thread count: the program (`--bench N`, timed inside it), and oneDNN's
     `dnnl_sgemm` from the library tfc links, called through ctypes on the
     same operands (a BatchMatMulV2 as one call per matrix), timed per call
     with the ctypes call in the time (about a microsecond);
  3. a markdown table: GFLOP/s of each (2mnk per matrix over the median
     time, the median over rounds), tfc's rate over oneDNN's, and each as
     a fraction of the machine's peak, printed above the table.

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import ctypes
import ctypes.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import machine  # noqa: E402
from run import measure  # noqa: E402

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


def steps_for(matrices, m, k, n):
    """About a second of products at 50 GFLOP/s, within [10, 5000]."""
    return int(max(10, min(5000, 50e9 / flops(matrices, m, k, n))))


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


def worker(args):
    """oneDNN's sgemm on the operands of --dir, in this process."""
    # OpenMP reads its thread count when oneDNN loads it, below.
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    import numpy as np
    path = ctypes.util.find_library("dnnl") or "libdnnl.so.2"
    sgemm = ctypes.CDLL(path).dnnl_sgemm
    i64, f32, ptr = ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
    sgemm.argtypes = [ctypes.c_char, ctypes.c_char, i64, i64, i64, f32, ptr,
                      i64, ptr, i64, f32, ptr, i64]
    a = np.load(os.path.join(args.dir, "a.npy"))
    b = np.load(os.path.join(args.dir, "b.npy"))
    a3, b3 = a.reshape((-1,) + a.shape[-2:]), b.reshape((-1,) + b.shape[-2:])
    m, k = a3.shape[1:]
    n = b3.shape[2]
    c3 = np.zeros((a3.shape[0], m, n), np.float32)
    calls = [(a3[i].ctypes.data, b3[i].ctypes.data, c3[i].ctypes.data)
             for i in range(a3.shape[0])]

    def step():
        for pa, pb, pc in calls:
            sgemm(b"N", b"N", m, n, k, 1.0, pa, k, pb, n, 0.0, pc, n)

    for _ in range(3):
        step()
    times = []
    for _ in range(args.steps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    want = np.load(os.path.join(args.dir, "want.npy")).reshape(c3.shape)
    error = float(np.max(np.abs(c3 - want))) if c3.size else 0.0
    print(json.dumps({"median_s": statistics.median(times), "error": error}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="")
    parser.add_argument("--tfc", default=os.path.join(ROOT, "build", "bin", "tfc"))
    parser.add_argument("--npy-compare",
                        default=os.path.join(ROOT, "build", "bin", "npy-compare"))
    parser.add_argument("--work")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--dir", help=argparse.SUPPRESS)
    parser.add_argument("--steps", type=int, default=100, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)

    only = set(filter(None, args.only.split(",")))
    shapes = [s for s in SHAPES if not only or s[0] in only]
    work = args.work or tempfile.mkdtemp(prefix="tfc-gemm-")
    info = machine.describe(args.threads)
    rows = []
    for label, matrices, m, k, n in shapes:
        directory = os.path.join(work, label.replace(" ", "_"))
        os.makedirs(directory, exist_ok=True)
        feeds = build(directory, matrices, m, k, n)
        program = os.path.join(directory, "program")
        subprocess.run([args.tfc, "compile", os.path.join(directory, "graph.pb"),
                        "--fetch", "c", "-o", program]
                       + sum((["--feed", f] for f in feeds), []), check=True)
        inputs = sum((["--input", "%s=%s" % (f, os.path.join(directory, f + ".npy"))]
                      for f in feeds), [])
        got = os.path.join(directory, "got.npy")
        subprocess.run([program] + inputs + ["--output", "c=" + got], check=True,
                       capture_output=True)
        check = subprocess.run([args.npy_compare, got, os.path.join(directory, "want.npy"),
                                "--rtol", "1e-4", "--atol", "1e-3"],
                               capture_output=True, text=True)
        if not check.stdout.startswith("MATCH"):
            sys.exit("%s: the program's product differs from NumPy's: %s"
                     % (label, check.stdout.strip()))
        steps = steps_for(matrices, m, k, n)
        times = {"tfc": [], "onednn": []}
        for _ in range(args.rounds):
            times["tfc"].append(measure(
                [program] + inputs + ["--threads", str(args.threads),
                                      "--bench", str(steps)])[0])
            times["onednn"].append(measure(
                [sys.executable, os.path.abspath(__file__), "--worker", "--dir",
                 directory, "--threads", str(args.threads),
                 "--steps", str(steps)])[0])
        rate = {key: flops(matrices, m, k, n) / statistics.median(value) / 1e9
                for key, value in times.items()}
        rows.append((label, matrices, m, k, n, rate["tfc"], rate["onednn"]))
        print("done: %s" % label, file=sys.stderr)

    print(machine.line(args.threads, info))
    print("%d thread(s), %d rounds, median of per-round medians\n"
          % (args.threads, args.rounds))
    print("| shape | matrices x m x k x n | tfc GFLOP/s | oneDNN sgemm GFLOP/s "
          "| tfc / oneDNN | tfc % of peak | oneDNN % of peak |")
    print("|---|---|---:|---:|---:|---:|---:|")
    peak = info["peak_gflops"] or float("nan")
    for label, matrices, m, k, n, mine, theirs in rows:
        print("| %s | %d x %d x %d x %d | %.1f | %.1f | %.2f | %.0f%% | %.0f%% |"
              % (label, matrices, m, k, n, mine, theirs, mine / theirs,
                 100 * mine / peak, 100 * theirs / peak))


if __name__ == "__main__":
    main()
