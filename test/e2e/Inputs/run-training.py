#!/usr/bin/env python3
"""Trains each named corpus training graph in tfc and compares it with
TensorFlow, step by step.

Compiles the graph with `tfc compile` (the manifest's feeds and fetches,
--target and --init from the manifest), then runs the program once per
step with `--steps 1`, each run restoring the checkpoint the previous one
saved: the loss fetched by each run (computed before the step's update)
must match TensorFlow's loss for that step (manifest["step_losses"]), and
after the manifest's steps, one more run's fetches must match TensorFlow's
fetches from the trained variables. Every variable thus goes through a
checkpoint between steps. Prints `MODEL step N loss: <line>` and
`MODEL FETCH: <line>` (npy-compare's verdicts).

Without --restore the first run starts from the init entry; with
--restore, the program is compiled without one and the first run restores
the initial variables from the checkpoint TensorFlow's Saver wrote (a copy
of the model's checkpoint/ directory, where the program then saves its
own). A TF2 model is a SavedModel whose signature is the train step: its
program starts from the SavedModel's variables, and with --restore from
the checkpoint tf.train.Checkpoint wrote (object-graph keys).
Standard library only; tfc, npy-compare on PATH.

    run-training.py [--restore] CORPUS WORKDIR RTOL ATOL MODEL...
"""

import json
import os
import shutil
import subprocess
import sys

from npyfiles import compare, read_float32_vector, write_float32_scalar


args = sys.argv[1:]
restore = args[0] == "--restore"
if restore:
    args = args[1:]
corpus, work, rtol, atol = args[:4]
status = 0
for name in args[4:]:
    model = os.path.join(corpus, name)
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    program = os.path.join(work, name)
    if "text" not in manifest["graphs"]:
        # A TF2 train step: the SavedModel's variables are the initial ones.
        compile_command = ["tfc", "compile", os.path.join(model, "saved_model"),
                           "--signature", manifest["saved_model_signature"]["key"],
                           "-o", program]
    else:
        compile_command = ["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                           "-o", program]
    for feed in manifest["feeds"]:
        compile_command += ["--feed", feed["tensor"]]
    for fetch in manifest["fetches"]:
        compile_command += ["--fetch", fetch["tensor"]]
    for target in manifest.get("targets", []):
        compile_command += ["--target", target]
    if not restore:
        for init in manifest.get("init", []):
            compile_command += ["--init", init]
    subprocess.run(compile_command, check=True)

    checkpoints = os.path.join(work, name + "-checkpoints")
    if restore:
        shutil.copytree(os.path.join(model, "checkpoint"), checkpoints)
    step_losses = read_float32_vector(os.path.join(model, manifest["step_losses"]))
    loss_fetch = manifest["fetches"][0]["tensor"]
    for step in range(manifest["steps"] + 1):
        command = [program, "--steps", "1", "--checkpoint-dir", checkpoints]
        if restore or step > 0:
            command.append("--restore")
        for feed in manifest["feeds"]:
            command += ["--input", "%s=%s" % (feed["tensor"], os.path.join(model, feed["npy"]))]
        outputs = []
        for i, fetch in enumerate(manifest["fetches"]):
            path = os.path.join(work, "%s_step%d_%d.npy" % (name, step, i))
            command += ["--output", "%s=%s" % (fetch["tensor"], path)]
            outputs.append(path)
        subprocess.run(command, check=True)
        want = os.path.join(work, "%s_step%d_loss.npy" % (name, step))
        write_float32_scalar(want, step_losses[step])
        code, line = compare(outputs[0], want, rtol, atol)
        status |= code
        print("%s step %d %s: %s" % (name, step, loss_fetch, line))
    # The last run's fetches, from the trained variables.
    for path, fetch in zip(outputs, manifest["fetches"]):
        code, line = compare(path, os.path.join(model, fetch["npy"]), rtol, atol)
        status |= code
        print("%s %s: %s" % (name, fetch["tensor"], line))
sys.exit(status)
