#!/usr/bin/env python3
"""tfc against TensorFlow 2.21 on a processor the compiling machine lacks.

    python bench/on_target.py pack --out DIR --target-cpu CPU
                              [--training cnn-sgd,cnn-adam] [--batch 64]
                              [--models transformer] [--batches 1,32]
                              [--tfc build/bin/tfc]
                              [--npy-compare build/bin/npy-compare]
    python bench/on_target.py run DIR [--threads 2] [--rounds 3]
                              [--runners session,function|session|function]

run.py and train.py compile and time on one machine. To measure on a
machine where tfc is not built (an AVX-512 host, from an AVX2 development
machine), `pack` does the compiling side here: it builds train.py's
training graphs (each a model-optimizer pair, at --batch) and models.py's
models (at each of --batches) with TensorFlow, compiles each with `tfc
compile --target-cpu CPU` (and runs none: this processor may lack the
target's instructions), and copies the programs, their inputs,
TensorFlow's outputs, npy-compare and the shared libraries they load
(glibc's aside, as scripts/check_on_target.py packs them) into DIR, with
DIR/bench.json naming them.

`run`, on the target with this repository, tensorflow-cpu==2.21.0 and
numpy (no tfc), checks every program against TensorFlow's outputs and
times it against TensorFlow through train.py's and run.py's own checks,
alternating rounds and workers, and prints their two tables. Pin it to
the cores you mean: `taskset -c 0,1 ... --threads 2` for the 2-core
tables of docs/benchmarks.md. The compile times in the models' table are
the packing machine's.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import catalog  # noqa: E402
import run as models_bench  # noqa: E402
import train as training_bench  # noqa: E402
from check_on_target import copy_libraries, environment_with_libraries  # noqa: E402

TRAINING_MODELS = ("mlp", "cnn")
OPTIMIZERS = ("sgd", "momentum", "adam")


def fail(message):
    sys.exit("on_target.py: " + message)


def parse_training(value):
    """--training's model-optimizer pairs."""
    pairs = []
    for name in filter(None, value.split(",")):
        model, _, optimizer = name.partition("-")
        if model not in TRAINING_MODELS or optimizer not in OPTIMIZERS:
            fail("--training: %s is not a model-optimizer pair (models %s, optimizers %s)"
                 % (name, ", ".join(TRAINING_MODELS), ", ".join(OPTIMIZERS)))
        pairs.append((model, optimizer))
    return pairs


def pack(args):
    training = parse_training(args.training)
    models = [m for m in args.models.split(",") if m]
    unknown = [m for m in models if m not in catalog.BY_NAME]
    if unknown:
        fail("--models: unknown model %s (see bench/catalog.py)" % unknown[0])
    if not training and not models:
        fail("nothing to pack: give --training, --models or both")
    for flag in ("tfc", "npy_compare"):
        found = shutil.which(getattr(args, flag))
        if not found:
            fail("--%s %s: no such program" % (flag.replace("_", "-"), getattr(args, flag)))
        setattr(args, flag, found)
    if os.path.exists(args.out):
        fail("%s exists; give a new folder" % args.out)
    out = os.path.abspath(args.out)
    os.makedirs(out)
    try:
        pack_into(args, out, training, models)
    except (subprocess.CalledProcessError, OSError, ImportError) as error:
        # Nothing half-written: the folder goes with what was in it.
        shutil.rmtree(out, ignore_errors=True)
        if isinstance(error, subprocess.CalledProcessError):
            why = "%s exited %d" % (os.path.basename(error.cmd[0]), error.returncode)
        elif isinstance(error, ImportError):
            why = "pack builds the models with numpy and TensorFlow 2.21: %s" % error
        else:
            why = "%s: %s" % (error.filename, error.strerror)
        fail("%s; %s not written" % (why, args.out))


def pack_into(args, out, training, models):
    """pack's work, into the new folder `out`."""
    manifest = {"target_cpu": args.target_cpu, "batch": args.batch,
                "training": [], "models": []}
    programs = [os.path.join(out, "npy-compare")]
    shutil.copy2(args.npy_compare, programs[0])
    for model, optimizer in training:
        name = "%s-%s" % (model, optimizer)
        directory = os.path.join(out, "training", name)
        os.makedirs(directory)
        training_bench.build(directory, model, optimizer, args.batch)
        programs.append(os.path.join(directory, "train"))
        training_bench.compile_program(args.tfc, directory, programs[-1], args.target_cpu)
        manifest["training"].append(name)
    for model in models:
        for batch in map(int, args.batches.split(",")):
            name = "%s_b%d" % (model, batch)
            d = os.path.join(out, "models", name)
            meta = models_bench.build_model(model, batch, d)
            programs.append(os.path.join(d, "program"))
            compile_s = models_bench.compile_model(args.tfc, d, meta, programs[-1],
                                                   args.target_cpu)
            manifest["models"].append({"name": name, "compile_s": compile_s})
    copy_libraries(programs, os.path.join(out, "lib"))
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print("packed %d training graphs and %d models for %s in %s"
          % (len(manifest["training"]), len(manifest["models"]), args.target_cpu, args.out))


def run(args):
    folder = os.path.abspath(args.folder)
    if not os.path.isfile(os.path.join(folder, "bench.json")):
        fail("%s has no bench.json; pack it first" % args.folder)
    manifest = json.load(open(os.path.join(folder, "bench.json")))
    # The packed libraries are the programs' alone: TensorFlow's workers
    # keep the target's own.
    env = environment_with_libraries(os.path.join(folder, "lib"))
    runners = args.runners.split(",")
    try:
        rows = []
        for name in manifest["training"]:
            directory = os.path.join(folder, "training", name)
            rows.append(tuple(name.split("-")) + training_bench.time_program(
                directory, os.path.join(directory, "train"), args.threads,
                training_bench.STEPS, args.rounds, env))
        if rows:
            training_bench.print_table(rows, manifest["batch"], args.threads)
            print()
        rows = []
        for entry in manifest["models"]:
            d = os.path.join(folder, "models", entry["name"])
            meta = json.load(open(os.path.join(d, "model.json")))
            program = os.path.join(d, "program")
            diff = models_bench.check_output(os.path.join(folder, "npy-compare"), d, meta,
                                             program, env)
            rows.append(models_bench.time_model(d, meta, program, runners, args.threads,
                                                args.rounds, env)
                        + (entry["compile_s"], diff))
        if rows:
            models_bench.print_table(rows, runners, args.threads, args.rounds)
    except ImportError as error:
        fail("run needs numpy and TensorFlow 2.21 here: %s" % error)
    except OSError as error:
        fail("%s: %s (a damaged pack?)" % (error.filename, error.strerror))
    except subprocess.CalledProcessError as error:
        if error.cmd[0] == sys.executable:
            last = (error.stderr or "").strip().splitlines()[-1:]
            fail("TensorFlow's worker exited %d: %s"
                 % (error.returncode, last[0] if last else "no message"))
        fail("%s exited %s (compiled for %s; does this processor have its instructions?)"
             % (os.path.relpath(error.cmd[0], folder), error.returncode,
                manifest["target_cpu"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    p = verbs.add_parser("pack", help="build and compile here, for the target")
    p.add_argument("--out", required=True, help="a new folder")
    p.add_argument("--target-cpu", required=True, help="tfc compile's --target-cpu")
    p.add_argument("--training", default="", help="train.py's model-optimizer pairs")
    p.add_argument("--batch", type=int, default=64, help="the training graphs' batch")
    p.add_argument("--models", default="", help="models.py's models")
    p.add_argument("--batches", default="1,32")
    p.add_argument("--tfc", default=os.path.join(models_bench.ROOT, "build/bin/tfc"))
    p.add_argument("--npy-compare",
                   default=os.path.join(models_bench.ROOT, "build/bin/npy-compare"))
    r = verbs.add_parser("run", help="check and time the pack on the target")
    r.add_argument("folder")
    r.add_argument("--threads", type=int, default=os.cpu_count())
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--runners", default="session,function",
                   choices=["session", "function", "session,function"])
    args = parser.parse_args()
    return pack(args) if args.verb == "pack" else run(args)


if __name__ == "__main__":
    sys.exit(main())
