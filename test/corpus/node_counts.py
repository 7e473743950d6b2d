#!/usr/bin/env python3
"""Prints a markdown table of node counts before and after the graph
pipeline for every model of the test corpus.

Each graph is compiled with the feeds, fetches, targets and init nodes of
its manifest (SavedModels with their signature). "before" counts the nodes
of the graph and its function library; "after" counts the nodes of every
entry (step, and init where there is one) and of the functions that remain.
No TensorFlow is needed.

Usage: node_counts.py [--tfc build/bin/tfc] [--corpus test/corpus]
"""

import argparse
import os
import re
import subprocess
import tempfile

from corpus import compile_flags, manifests


def count_nodes(text):
    """Node operations in printed IR: each carries a name("...")."""
    return len(re.findall(r'\bname\("', text))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), p.stderr.strip()))
    return p.stdout


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfc", default=os.path.join(root, "build/bin/tfc"))
    parser.add_argument("--corpus", default=os.path.join(root, "test/corpus"))
    args = parser.parse_args()
    translate = os.path.join(os.path.dirname(args.tfc), "tfc-translate")

    print("| model | form | nodes before | nodes after | functions before | functions after |")
    print("|---|---|---:|---:|---:|---:|")
    for model_dir, manifest in manifests(args.corpus):
        for form, rel in sorted(manifest["graphs"].items()):
            path = os.path.join(model_dir, rel)
            flags = compile_flags(manifest, form)
            before = run([translate, "--graphdef-to-mlir", path])
            with tempfile.NamedTemporaryFile(suffix=".mlir") as out:
                run([args.tfc, "compile", path, "--emit", "mlir", "-o", out.name] + flags)
                after = open(out.name).read()
            print("| %s | %s | %d | %d | %d | %d |" % (
                manifest["name"], form, count_nodes(before), count_nodes(after),
                before.count("tfg.func @"), after.count("tfg.func @")))


if __name__ == "__main__":
    main()
