"""Reading the test corpus, without TensorFlow: manifests, and the
`tfc compile` flags that give a graph its manifest's interface."""

import glob
import json
import os


def manifests(corpus_dir):
    """(model directory, manifest) for every model, sorted by name."""
    for path in sorted(glob.glob(os.path.join(corpus_dir, "*/manifest.json"))):
        with open(path) as f:
            yield os.path.dirname(path), json.load(f)


def compile_flags(manifest, form):
    """The feeds, fetches, targets and init of `form` ("frozen", "text" or
    "saved_model") as `tfc compile` flags. SavedModels use their signature;
    only the text form of a training model has targets and init (frozen
    forms are inference-only)."""
    if form == "saved_model":
        return []
    flags = ["--feed=" + feed["tensor"] for feed in manifest["feeds"]]
    flags += ["--fetch=" + fetch["tensor"] for fetch in manifest["fetches"]]
    if form == "text":
        flags += ["--target=" + t for t in manifest.get("targets", [])]
        flags += ["--init=" + t for t in manifest.get("init", [])]
    return flags
