#!/usr/bin/env python3
"""Compiles each named corpus training graph with `tfc compile` (the
manifest's feeds and fetches, --target and --init from the manifest), runs
the init entry and then steps+1 steps (the manifest's steps train; the
last step computes the fetches from the trained variables before it
updates them, as TensorFlow's fetch run after training does), and compares
each fetch with TensorFlow's (npy-compare). Prints `MODEL FETCH: <line>`.
With --restore, the program is compiled without the init entry and
restores the initial variables from the checkpoint TensorFlow's Saver
wrote (a copy of the model's checkpoint/ directory, where the program
then saves its own).
Standard library only; tfc, npy-compare on PATH.

    run-training.py [--restore] CORPUS WORKDIR RTOL ATOL MODEL...
"""

import json
import os
import shutil
import subprocess
import sys

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
    compile_command = ["tfc", "compile", os.path.join(model, "graph.pbtxt"), "-o", program]
    for feed in manifest["feeds"]:
        compile_command += ["--feed", feed["tensor"]]
    for fetch in manifest["fetches"]:
        compile_command += ["--fetch", fetch["tensor"]]
    for target in manifest["targets"]:
        compile_command += ["--target", target]
    if not restore:
        for init in manifest["init"]:
            compile_command += ["--init", init]
    subprocess.run(compile_command, check=True)
    command = [program, "--steps", str(manifest["steps"] + 1)]
    if restore:
        checkpoints = os.path.join(work, name + "-checkpoints")
        shutil.copytree(os.path.join(model, "checkpoint"), checkpoints)
        command += ["--checkpoint-dir", checkpoints, "--restore"]
    for feed in manifest["feeds"]:
        command += ["--input", "%s=%s" % (feed["tensor"], os.path.join(model, feed["npy"]))]
    outputs = []
    for i, fetch in enumerate(manifest["fetches"]):
        path = os.path.join(work, "%s_%d.npy" % (name, i))
        command += ["--output", "%s=%s" % (fetch["tensor"], path)]
        outputs.append(path)
    subprocess.run(command, check=True)
    for path, fetch in zip(outputs, manifest["fetches"]):
        result = subprocess.run(["npy-compare", path, os.path.join(model, fetch["npy"]),
                                 "--rtol", rtol, "--atol", atol],
                                capture_output=True, text=True)
        status |= result.returncode
        print("%s %s: %s" % (name, fetch["tensor"], result.stdout.strip()))
sys.exit(status)
