#!/usr/bin/env python3
"""Prints a markdown table of node counts before and after the graph
pipeline for every model of the test corpus.

Each graph is compiled with the feeds, fetches, targets and init nodes of
its manifest (SavedModels with their signature). "before" counts the nodes
of the graph and its function library; "after" counts the nodes of every
entry (step, and init where there is one) and of the functions that remain.
No TensorFlow is needed.

Usage: corpus_node_counts.py [--tfc build/bin/tfc] [--corpus test/corpus]
"""

import argparse
import glob
import json
import os
import re
import subprocess
import tempfile


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
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfc", default=os.path.join(root, "build/bin/tfc"))
    parser.add_argument("--corpus", default=os.path.join(root, "test/corpus"))
    args = parser.parse_args()
    translate = os.path.join(os.path.dirname(args.tfc), "tfc-translate")

    print("| model | form | nodes before | nodes after | functions before | functions after |")
    print("|---|---|---:|---:|---:|---:|")
    for manifest_path in sorted(glob.glob(os.path.join(args.corpus, "*/manifest.json"))):
        model_dir = os.path.dirname(manifest_path)
        with open(manifest_path) as f:
            manifest = json.load(f)
        for form, rel in sorted(manifest["graphs"].items()):
            path = os.path.join(model_dir, rel)
            flags = []
            if form != "saved_model":
                flags += ["--feed=" + feed["tensor"] for feed in manifest["feeds"]]
                flags += ["--fetch=" + fetch["tensor"] for fetch in manifest["fetches"]]
            if form == "text":
                # Training graphs: frozen forms are inference-only.
                flags += ["--target=" + t for t in manifest.get("targets", [])]
                flags += ["--init=" + t for t in manifest.get("init", [])]
            before = run([translate, "--graphdef-to-mlir", path])
            with tempfile.NamedTemporaryFile(suffix=".mlir") as out:
                run([args.tfc, "compile", path, "-o", out.name] + flags)
                after = open(out.name).read()
            print("| %s | %s | %d | %d | %d | %d |" % (
                manifest["name"], form, count_nodes(before), count_nodes(after),
                before.count("tfg.func @"), after.count("tfg.func @")))


if __name__ == "__main__":
    main()
