#!/usr/bin/env python3
"""Writes a synthetic GraphDef of about N nodes for timing the graph pipeline.

The graph is a deterministic mix (fixed seed) of what the optimizer passes
look at: layers of elementwise ops over a few placeholders, with Identity
chains (canonicalization), duplicated subexpressions (CSE), NoOps gathering
control edges, constants, and dead branches that pruning removes. It needs
no TensorFlow: the text GraphDef is written directly.

Usage: gen_synthetic_graph.py N OUT.pbtxt
Then:  tfc compile OUT.pbtxt --fetch out -o /dev/null --mlir-timing
"""

import random
import sys


def node(name, op, inputs=(), attrs=None):
    lines = ['node {', '  name: "%s"' % name, '  op: "%s"' % op]
    lines += ['  input: "%s"' % i for i in inputs]
    for key, value in (attrs or {}).items():
        lines.append('  attr { key: "%s" value { %s } }' % (key, value))
    lines.append('}')
    return "\n".join(lines)


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
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
    with open(out, "w") as f:
        f.write("\n".join(nodes))
        f.write('\nversions { producer: 1994 }\n')
    print("wrote %d nodes to %s" % (len(nodes), out))


if __name__ == "__main__":
    main()
