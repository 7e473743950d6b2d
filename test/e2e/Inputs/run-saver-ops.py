#!/usr/bin/env python3
"""Trains a corpus TF1 training graph with its own Saver ops: SaveV2 and
RestoreV2 (and, for a sharded Saver, StringJoin, ShardedFilename,
StaticRegexFullMatch and MergeV2Checkpoints) compiled into the program,
instead of the program's --checkpoint-dir flags.

The program's init entry is the Saver's restore op (`save/restore_all`),
which reads the checkpoint at the graph's default prefix, `model` in the
working directory; its step runs the train op, fetches the loss and the
Saver's save tensor, and saves to the prefix fed as `save/Const` (a
string .npy). For each model:

1. TensorFlow's initial checkpoint is copied to `model`; two steps run,
   saving to `saved/first`: the loss of the last step must be
   TensorFlow's loss of step 1, and the fetched save tensor the prefix.
2. That checkpoint is copied to `model` in a fresh directory, and one step
   runs: it must start where step 1 did (TensorFlow's loss of step 1),
   since a save in a step sees the variables before the step's update.

Prints `MODEL CHECK: ...` lines. Standard library only; tfc and
npy-compare on PATH.

    run-saver-ops.py CORPUS WORKDIR RTOL ATOL MODEL...
"""

import json
import os
import shutil
import subprocess
import sys

from npyfiles import (compare, read_bytes_scalar, read_float32_vector,
                      write_bytes_scalar, write_float32_scalar)

corpus, work, rtol, atol = sys.argv[1:5]
status = 0


def copy_checkpoint(prefix, directory):
    """Copies the checkpoint `prefix` to DIRECTORY/model (index, shard)."""
    os.makedirs(directory)
    shutil.copy(prefix + ".index", os.path.join(directory, "model.index"))
    shutil.copy(prefix + ".data-00000-of-00001",
                os.path.join(directory, "model.data-00000-of-00001"))


for name in sys.argv[5:]:
    model = os.path.join(corpus, name)
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    save_tensor = ("save/Identity" if "MergeV2Checkpoints" in
                   open(os.path.join(model, "graph.pbtxt")).read()
                   else "save/control_dependency")
    program = os.path.abspath(os.path.join(work, name))
    command = ["tfc", "compile", os.path.join(model, "graph.pbtxt"), "-o", program,
               "--feed", "save/Const", "--fetch", manifest["fetches"][0]["tensor"],
               "--fetch", save_tensor, "--init", "save/restore_all"]
    for feed in manifest["feeds"]:
        command += ["--feed", feed["tensor"]]
    for target in manifest["targets"]:
        command += ["--target", target]
    subprocess.run(command, check=True)
    step_losses = read_float32_vector(os.path.join(model, manifest["step_losses"]))

    def run(directory, steps, prefix):
        """Runs `steps` steps in `directory`, saving to `prefix`; returns
        the paths of the fetched loss and save tensor."""
        write_bytes_scalar(os.path.join(directory, "prefix.npy"), prefix)
        loss = os.path.join(directory, "loss.npy")
        saved = os.path.join(directory, "saved.npy")
        command = [program, "--steps", str(steps), "--input", "save/Const=prefix.npy",
                   "--output", manifest["fetches"][0]["tensor"] + "=loss.npy",
                   "--output", save_tensor + "=saved.npy"]
        for feed in manifest["feeds"]:
            command += ["--input", "%s=%s" % (feed["tensor"],
                                              os.path.abspath(os.path.join(model, feed["npy"])))]
        subprocess.run(command, check=True, cwd=directory)
        return loss, saved

    def check(what, loss, step):
        global status
        want = loss + ".want.npy"
        write_float32_scalar(want, step_losses[step])
        code, line = compare(loss, want, rtol, atol)
        status |= code
        print("%s %s: %s" % (name, what, line))

    first = os.path.join(work, name + "-first")
    copy_checkpoint(os.path.join(model, "checkpoint", "model.ckpt-0"), first)
    loss, saved = run(first, 2, b"saved/first")
    check("restored from TensorFlow, step 1 loss", loss, 1)
    prefix = read_bytes_scalar(saved)
    print("%s save tensor: %s" % (name, prefix.decode()))
    # A sharded save leaves no temporary directory behind.
    print("%s saved: %s" % (name, " ".join(sorted(os.listdir(os.path.join(first, "saved"))))))

    second = os.path.join(work, name + "-second")
    copy_checkpoint(os.path.join(first, "saved", "first"), second)
    loss, _ = run(second, 1, b"saved/second")
    check("restored from its own save, loss", loss, 1)
sys.exit(status)
