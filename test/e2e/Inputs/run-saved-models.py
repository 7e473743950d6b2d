#!/usr/bin/env python3
"""Compiles each named corpus model's SavedModel with `tfc compile`, runs
the program on the manifest's input and compares its output with
TensorFlow's (npy-compare). Prints `MODEL: <npy-compare's line>`.
Standard library only; tfc, npy-compare on PATH.

    run-saved-models.py CORPUS WORKDIR MODEL...
"""

import json
import os
import subprocess
import sys

corpus, work = sys.argv[1], sys.argv[2]
status = 0
for name in sys.argv[3:]:
    model = os.path.join(corpus, name)
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    signature = manifest["saved_model_signature"]
    program = os.path.join(work, name)
    subprocess.run(["tfc", "compile", os.path.join(model, "saved_model"), "-o", program],
                   check=True)
    command = [program]
    for key, feed in zip(sorted(signature["inputs"]), manifest["feeds"]):
        command += ["--input", "%s=%s" % (signature["inputs"][key].split(":")[0],
                                          os.path.join(model, feed["npy"]))]
    outputs = []
    for i, key in enumerate(sorted(signature["outputs"])):
        path = os.path.join(work, "%s_%d.npy" % (name, i))
        command += ["--output", "%s=%s" % (signature["outputs"][key], path)]
        outputs.append(path)
    subprocess.run(command, check=True)
    for path, fetch in zip(outputs, manifest["fetches"]):
        result = subprocess.run(["npy-compare", path, os.path.join(model, fetch["npy"]),
                                 "--rtol", "1e-4", "--atol", "1e-5"],
                                capture_output=True, text=True)
        status |= result.returncode
        print("%s: %s" % (name, result.stdout.strip()))
sys.exit(status)
