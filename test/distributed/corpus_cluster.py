"""Compiles corpus models for clusters of two tasks (one executable per
task) and runs each as a job of separate processes on 127.0.0.1 with
`tfc run-cluster`, comparing the chief's fetches with TensorFlow's outputs
in the corpus. Prints one line per run for FileCheck:

  MODEL CLUSTER PLACEMENT: transfers N, MATCH: ...

usage: corpus_cluster.py CORPUS WORKDIR MODEL...

Each model is an inference model of the corpus (manifest.json: its feeds and
fetches). Every compile and run is bounded in time; run-cluster stops the
tasks it started, and a run that overstays is killed with them.
"""
import json
import os
import re
import shutil
import subprocess
import sys

CLUSTERS = ["worker=1,ps=1", "worker=2"]
PLACEMENTS = ["round-robin", "cost"]
COMPILE_SECONDS = 300
RUN_SECONDS = 120


def run(args, seconds):
    # A new session, so that a run that overstays is killed with its tasks.
    process = subprocess.Popen(args, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        out, _ = process.communicate()
        return 124, out.decode(errors="replace") + "\ntimed out"
    return process.returncode, out.decode(errors="replace")


def manifest_flags(manifest):
    """tfc compile's --feed, --fetch, --target and --init for a corpus model,
    from its manifest."""
    flags = []
    for feed in manifest["feeds"]:
        flags += ["--feed", feed["tensor"]]
    for fetch in manifest["fetches"]:
        flags += ["--fetch", fetch["tensor"]]
    for target in manifest.get("targets", []):
        flags += ["--target", target]
    for init in manifest.get("init", []):
        flags += ["--init", init]
    return flags


def name_of(tensor):
    return tensor[:-2] if tensor.endswith(":0") else tensor


def main():
    corpus, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    for model in sys.argv[3:]:
        manifest = json.load(open(os.path.join(corpus, model, "manifest.json")))
        graph = os.path.join(corpus, model, "frozen.pb")
        for cluster in CLUSTERS:
            for placement in PLACEMENTS:
                label = "%s %s %s" % (model, cluster, placement)
                out = os.path.join(work, "%s-%s-%s" % (model, cluster.replace(",", "-").replace("=", ""), placement))
                shutil.rmtree(out, ignore_errors=True)
                args = ["tfc", "compile", graph, "--cluster", cluster,
                        "--placement", placement, "--mlir-pass-statistics", "-o", out]
                for feed in manifest["feeds"]:
                    args += ["--feed", name_of(feed["tensor"])]
                for fetch in manifest["fetches"]:
                    args += ["--fetch", name_of(fetch["tensor"])]
                status, text = run(args, COMPILE_SECONDS)
                if status != 0:
                    print("%s: compile failed (%d): %s" % (label, status, text))
                    continue
                transfers = re.search(r"(\d+) transfers", text)
                args = ["tfc", "run-cluster", out, "--connect-timeout", "30"]
                for feed in manifest["feeds"]:
                    args += ["--input", "%s=%s" % (name_of(feed["tensor"]),
                                                   os.path.join(corpus, model, feed["npy"]))]
                results = []
                for i, fetch in enumerate(manifest["fetches"]):
                    result = os.path.join(out, "out%d.npy" % i)
                    results.append((result, os.path.join(corpus, model, fetch["npy"])))
                    args += ["--output", "%s=%s" % (name_of(fetch["tensor"]), result)]
                status, text = run(args, RUN_SECONDS)
                if status != 0:
                    print("%s: run failed (%d): %s" % (label, status, text))
                    continue
                verdicts = []
                for result, expected in results:
                    _, verdict = run(["npy-compare", result, expected,
                                      "--rtol", "1e-4", "--atol", "1e-5"], 30)
                    verdicts.append(verdict.strip())
                print("%s: transfers %s, %s" % (label, transfers.group(1) if transfers else "?",
                                                "; ".join(verdicts)))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
