"""Trains corpus TF1 training graphs as cluster jobs: the variables on the
ps tasks (--placement parameter-server, as TF1's replica_device_setter
places them), the rest on worker 0, each task its own process on
127.0.0.1 (tfc run-cluster). The job run for K steps fetches the loss of
step K-1 (fetches are computed before the step's update), which must match
TensorFlow's loss for that step; after the manifest's steps, the fetches
must match TensorFlow's from the trained variables. Each run starts from
the init entry, so no checkpoint is involved. Prints for FileCheck:

  MODEL CLUSTER step N loss:0: <npy-compare's verdict>
  MODEL CLUSTER FETCH: <verdict>

usage: cluster_training.py CORPUS WORKDIR CLUSTER RTOL ATOL [--placement=P] MODEL...

(--placement=cost keeps the graph's own device requests, as a model-parallel
graph needs; the default is parameter-server.)

Every compile and run is bounded in time; run-cluster stops its tasks, and
a run that overstays is killed with them.
"""
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e", "Inputs"))
from npyfiles import compare, read_float32_vector, write_float32_scalar  # noqa: E402
from corpus_cluster import manifest_flags, run  # noqa: E402


def main():
    corpus, work, cluster, rtol, atol = sys.argv[1:6]
    models = sys.argv[6:]
    placement = "parameter-server"
    if models and models[0].startswith("--placement="):
        placement = models.pop(0).split("=", 1)[1]
    os.makedirs(work, exist_ok=True)
    status = 0
    for name in models:
        model = os.path.join(corpus, name)
        manifest = json.load(open(os.path.join(model, "manifest.json")))
        label = "%s %s" % (name, cluster)
        out = os.path.join(work, "%s-%s" % (name, re.sub("[=,]", "-", cluster)))
        shutil.rmtree(out, ignore_errors=True)
        command = ["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                   "--cluster", cluster, "--placement", placement,
                   "--mlir-pass-statistics", "-o", out] + manifest_flags(manifest)
        code, text = run(command, 300)
        if code != 0:
            print("%s: compile failed (%d): %s" % (label, code, text))
            status = 1
            continue
        transfers = re.search(r"(\d+) transfers", text)
        print("%s: transfers %s" % (label, transfers.group(1) if transfers else "?"))
        step_losses = read_float32_vector(os.path.join(model, manifest["step_losses"]))
        for step in range(manifest["steps"] + 1):
            command = ["tfc", "run-cluster", out, "--connect-timeout", "30",
                       "--steps", str(step + 1)]
            for feed in manifest["feeds"]:
                command += ["--input", "%s=%s" % (feed["tensor"], os.path.join(model, feed["npy"]))]
            outputs = []
            for i, fetch in enumerate(manifest["fetches"]):
                path = os.path.join(out, "step%d_%d.npy" % (step, i))
                command += ["--output", "%s=%s" % (fetch["tensor"], path)]
                outputs.append(path)
            code, text = run(command, 120)
            if code != 0:
                print("%s step %d: run failed (%d): %s" % (label, step, code, text))
                status = 1
                break
            want = os.path.join(out, "step%d_loss.npy" % step)
            write_float32_scalar(want, step_losses[step])
            code, line = compare(outputs[0], want, rtol, atol)
            status |= code
            print("%s step %d %s: %s" % (label, step, manifest["fetches"][0]["tensor"], line))
        else:
            for path, fetch in zip(outputs, manifest["fetches"]):
                code, line = compare(path, os.path.join(model, fetch["npy"]), rtol, atol)
                status |= code
                print("%s %s: %s" % (label, fetch["tensor"], line))
        sys.stdout.flush()
    sys.exit(status)


if __name__ == "__main__":
    main()
