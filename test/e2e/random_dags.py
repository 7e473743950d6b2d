#!/usr/bin/env python3
"""Property test: partitioning a graph does not change what it computes.

    random_dags.py --tfc TFC --npy-compare NPY_COMPARE --work DIR
                   [--count N] [--seed S]

Generates N random DAGs (fixed seed) of float32 [8,8] tensors: one or two
Placeholders, then 6 to 16 nodes, each an elementwise op, a MatMul or an
AddN over random earlier tensors, some with control inputs from random
earlier nodes, and about half with a device request (/cpu:0 or /cpu:1), so
that edges, control edges included, are cut in every pattern. Every sink is
fetched. Each graph is compiled for one CPU (soft placement ignoring the
requests) and for /cpu:0,/cpu:1 (the cost placer honouring the requests,
and round-robin with --soft-placement), run
on the same random inputs, and the partitioned programs' outputs must equal
the unpartitioned one's (same kernels: rtol 1e-6). Needs only the standard
library.
"""

import argparse
import os
import random
import struct
import subprocess
import sys

UNARY = ["Neg", "Tanh", "Relu", "Abs", "Sigmoid"]
BINARY = ["AddV2", "Mul", "Sub", "Maximum", "Minimum"]


def write_npy(path, values, shape):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d, " % d for d in shape))
    header += " " * (118 - len(header)) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def make_graph(rng):
    """Returns (pbtxt text, feed names, fetch names)."""
    nodes, tensors, consumed = [], [], set()
    feeds = ["in%d" % i for i in range(rng.randint(1, 2))]
    for name in feeds:
        nodes.append('node { name: "%s" op: "Placeholder" attr { key: "dtype" '
                     'value { type: DT_FLOAT } } attr { key: "shape" value { '
                     'shape { dim { size: 8 } dim { size: 8 } } } } }' % name)
        tensors.append(name)
    for i in range(rng.randint(6, 16)):
        name = "n%d" % i
        kind = rng.random()
        if kind < 0.35:
            op, inputs = rng.choice(UNARY), [rng.choice(tensors)]
        elif kind < 0.8:
            op, inputs = rng.choice(BINARY), [rng.choice(tensors), rng.choice(tensors)]
        elif kind < 0.9:
            op, inputs = "MatMul", [rng.choice(tensors), rng.choice(tensors)]
        else:
            op, inputs = "AddN", rng.sample(tensors, min(len(tensors), rng.randint(2, 3)))
        consumed.update(inputs)
        controls = []
        if rng.random() < 0.2:
            controls = ["^" + rng.choice(tensors)]
        text = 'node { name: "%s" op: "%s"' % (name, op)
        for x in inputs + controls:
            text += ' input: "%s"' % x
        if rng.random() < 0.5:
            text += ' device: "/cpu:%d"' % rng.randint(0, 1)
        text += ' attr { key: "T" value { type: DT_FLOAT } }'
        if op == "AddN":
            text += ' attr { key: "N" value { i: %d } }' % len(inputs)
        if op == "MatMul":
            text += (' attr { key: "transpose_a" value { b: false } }'
                     ' attr { key: "transpose_b" value { b: false } }')
        nodes.append(text + " }")
        tensors.append(name)
    fetches = [t for t in tensors if t not in consumed and t not in feeds]
    return "\n".join(nodes) + "\nversions { producer: 1 }\n", feeds, fetches


def run(cmd):
    # A deadlocked partition schedule must fail the test, not hang it.
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        sys.exit("timed out (deadlock?): " + " ".join(cmd))
    if p.returncode:
        sys.exit("failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout, p.stderr))
    return p.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfc", required=True)
    parser.add_argument("--npy-compare", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--count", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    rng = random.Random(args.seed)
    variants = {
        "one": ["--soft-placement"],
        "cost": ["--devices", "/cpu:0,/cpu:1"],
        "rr": ["--devices", "/cpu:0,/cpu:1", "--placement", "round-robin",
               "--soft-placement"],
    }
    compared = 0
    for g in range(args.count):
        text, feeds, fetches = make_graph(rng)
        base = os.path.join(args.work, "g%d" % g)
        with open(base + ".pbtxt", "w") as f:
            f.write(text)
        inputs = []
        for name in feeds:
            path = "%s.%s.npy" % (base, name)
            write_npy(path, [rng.uniform(-1, 1) for _ in range(64)], (8, 8))
            inputs += ["--input", "%s=%s" % (name, path)]
        flags = sum((["--feed", x] for x in feeds), []) + sum((["--fetch", x] for x in fetches), [])
        for variant, extra in variants.items():
            program = "%s.%s" % (base, variant)
            run([args.tfc, "compile", base + ".pbtxt", "-o", program] + flags + extra)
            outputs = sum((["--output", "%s=%s.%s.npy" % (x, program, x)] for x in fetches), [])
            run([program] + inputs + outputs)
        for variant in ("cost", "rr"):
            for x in fetches:
                out = run([args.npy_compare, "%s.%s.%s.npy" % (base, variant, x),
                           "%s.one.%s.npy" % (base, x), "--rtol", "1e-6", "--atol", "1e-6"])
                if not out.startswith("MATCH"):
                    sys.exit("graph %d (%s.pbtxt), %s placement, fetch %s: %s"
                             % (g, base, variant, x, out.strip()))
                compared += 1
    print("%d graphs, %d partitioned outputs: all match the unpartitioned program"
          % (args.count, compared))


if __name__ == "__main__":
    main()
