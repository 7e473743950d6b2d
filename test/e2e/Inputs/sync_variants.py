"""Writes variants of the corpus's ps_sync_backup_linear graph.pbtxt that
tfc's search for SyncReplicasOptimizer's parts must refuse, each named
after what is wrong: a second token queue (two optimizers), a second
dequeue of tokens, a second chief queue runner's enqueue, the dequeued
token assigned to no variable (no local step), and the chief's group
without the local step's init (no chief init).

usage: sync_variants.py GRAPH.pbtxt OUTDIR
"""
import os
import re
import sys


def node_block(text, name):
    """The `node { ... }` block of node `name`, with its span."""
    at = text.index('  name: "%s"\n' % name)
    start = text.rindex("node {", 0, at)
    end = text.index("\n}\n", at) + 3
    return start, end, text[start:end]


def duplicated(text, name):
    """`text` with a copy of node `name` named `name`_copy."""
    _, end, block = node_block(text, name)
    copy = block.replace('  name: "%s"\n' % name, '  name: "%s_copy"\n' % name, 1)
    return text[:end] + copy + text[end:]


def edited(text, name, old, new):
    """`text` with `old` replaced by `new` in node `name`'s block."""
    start, end, block = node_block(text, name)
    assert old in block, (name, old)
    return text[:start] + block.replace(old, new, 1) + text[end:]


def main():
    graph, out = sys.argv[1:3]
    text = open(graph).read()
    variants = {
        "two-queues": duplicated(text, "sync_token_q"),
        "two-dequeues": duplicated(text, "sync_token_q_Dequeue"),
        "two-chief-runners": duplicated(text, "sync_token_q_EnqueueMany"),
        "no-local-step": edited(text, "AssignVariableOp_1",
                                'input: "sync_token_q_Dequeue"',
                                'input: "ReadVariableOp"'),
        "no-chief-init": edited(text, "sync_replicas/group_deps",
                                '  input: "^sync_replicas/group_deps/NoOp_1"\n', ""),
    }
    os.makedirs(out, exist_ok=True)
    for name, variant in variants.items():
        assert variant != text and re.search(r"\bnode \{", variant), name
        with open(os.path.join(out, name + ".pbtxt"), "w") as f:
            f.write(variant)


if __name__ == "__main__":
    main()
