#!/usr/bin/env python3
"""Writes a synthetic GraphDef of about N nodes for timing the graph pipeline.

The graph is a deterministic mix (fixed seed) of what the optimizer passes
look at: layers of elementwise ops over a few placeholders, with Identity
chains (canonicalization), duplicated subexpressions (CSE), NoOps gathering
control edges, constants, and dead branches that pruning removes. It needs
no TensorFlow: the text GraphDef is written directly.

With --kind products, the graph is instead N small products (4 x 4
MatMuls), each reading two of the 32 values before it: nothing fuses, so
every node is a kernel call with a buffer of its own in the memory plan,
where the elementwise mix fuses into loops of up to 128 nodes.

Usage: gen_synthetic_graph.py N OUT.pbtxt [--kind elementwise|products]
Then:  tfc compile OUT.pbtxt --fetch out -o /dev/null --mlir-timing
"""

import argparse
import random


def node(name, op, inputs=(), attrs=None):
    lines = ['node {', '  name: "%s"' % name, '  op: "%s"' % op]
    lines += ['  input: "%s"' % i for i in inputs]
    for key, value in (attrs or {}).items():
        lines.append('  attr { key: "%s" value { %s } }' % (key, value))
    lines.append('}')
    return "\n".join(lines)


def products(n):
    """N MatMuls of 4 x 4 matrices over one placeholder, and their output."""
    rng = random.Random(42)
    t = 'type: DT_FLOAT'
    nodes = [node("x", "Placeholder", attrs={
        "dtype": t, "shape": "shape { dim { size: 4 } dim { size: 4 } }"})]
    live = ["x"]
    for i in range(n - 3):
        a, b = rng.choice(live[-32:]), rng.choice(live[-32:])
        nodes.append(node("m%d" % i, "MatMul", [a, b], {
            "T": t, "transpose_a": "b: false", "transpose_b": "b: false"}))
        live.append("m%d" % i)
    nodes.append(node("out_n", "AddN", live[-8:], {"N": "i: 8", "T": t}))
    nodes.append(node("out", "Identity", ["out_n"], {"T": t}))
    return nodes


def elementwise(n):
    """The optimizer's mix: elementwise layers, CSE, Identity chains..."""
    rng = random.Random(42)
    t = 'type: DT_FLOAT'
    nodes = []
    live = []
    for i in range(4):
        name = "x%d" % i
        nodes.append(node(name, "Placeholder", attrs={
            "dtype": t, "shape": "shape { dim { size: 8 } }"}))
        live.append(name)
    count = len(nodes)
    i = 0
    while count < n - 2:
        i += 1
        kind = rng.random()
        a, b = rng.choice(live[-64:]), rng.choice(live[-64:])
        if kind < 0.45:
            op = rng.choice(["AddV2", "Mul", "Sub", "Maximum"])
            nodes.append(node("n%d" % i, op, [a, b], {"T": t}))
            live.append("n%d" % i)
            count += 1
        elif kind < 0.6:
            op = rng.choice(["Neg", "Exp", "Tanh", "Relu"])
            nodes.append(node("n%d" % i, op, [a], {"T": t}))
            live.append("n%d" % i)
            count += 1
        elif kind < 0.7:
            # The same expression twice: CSE merges them.
            for k in range(2):
                nodes.append(node("n%d_%d" % (i, k), "Mul", [a, b], {"T": t}))
            nodes.append(node("n%d" % i, "AddV2", ["n%d_0" % i, "n%d_1" % i],
                              {"T": t}))
            live.append("n%d" % i)
            count += 3
        elif kind < 0.8:
            # An Identity chain: canonicalization forwards it.
            nodes.append(node("n%d_i" % i, "Identity", [a], {"T": t}))
            nodes.append(node("n%d" % i, "StopGradient", ["n%d_i" % i],
                              {"T": t}))
            live.append("n%d" % i)
            count += 2
        elif kind < 0.87:
            # A NoOp gathering control edges, then a user.
            nodes.append(node("n%d_g" % i, "NoOp", ["^" + a]))
            nodes.append(node("n%d" % i, "Neg", [b, "^n%d_g" % i], {"T": t}))
            live.append("n%d" % i)
            count += 2
        elif kind < 0.95:
            nodes.append(node("n%d" % i, "Const", attrs={
                "dtype": t,
                "value": "tensor { dtype: DT_FLOAT tensor_shape { dim { size: 8 } } "
                         "float_val: %g }" % rng.random()}))
            live.append("n%d" % i)
            count += 1
        else:
            # A dead branch: nothing fetched depends on it.
            nodes.append(node("dead%d" % i, "Exp", [a], {"T": t}))
            count += 1
    # The output sums the last values, so most of the graph is needed.
    nodes.append(node("out_n", "AddN", live[-8:],
                      {"N": "i: 8", "T": t}))
    nodes.append(node("out", "Identity", ["out_n"], {"T": t}))
    return nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nodes", type=int)
    parser.add_argument("out")
    parser.add_argument("--kind", choices=["elementwise", "products"],
                        default="elementwise")
    args = parser.parse_args()
    if args.nodes < 16:
        parser.error("N: at least 16 nodes")
    nodes = (products if args.kind == "products" else elementwise)(args.nodes)
    with open(args.out, "w") as f:
        f.write("\n".join(nodes))
        f.write('\nversions { producer: 1994 }\n')
    print("wrote %d nodes to %s" % (len(nodes), args.out))


if __name__ == "__main__":
    main()
