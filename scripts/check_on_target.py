#!/usr/bin/env python3
"""Checks tfc's programs on a processor the compiling machine lacks.

`tfc compile --target-cpu CPU` builds a program for another processor (an
AVX-512 one, say, from an AVX2 machine), linking the kernels built for that
ISA level; the test suite runs only what the compiling machine can run. This
script packs, on the compiling machine, what the other one needs to check
those programs against TensorFlow's outputs, and runs the checks there
without tfc, its compiler libraries or TensorFlow:

    check_on_target.py pack --tfc PATH --npy-compare PATH --out DIR
                            [--target-cpu CPU] [--binary PATH]... [--only A,B]
    check_on_target.py run DIR

`pack` compiles every op case of test/ops/cases.json and every corpus model
with TensorFlow's outputs (inference models from their frozen graph, the
single-task training graphs step by step as test/e2e's run-training.py
checks them),
copies their inputs and TensorFlow's outputs, npy-compare and the shared
libraries the programs load (glibc's aside), and writes DIR/checks.json.
Each --binary (a kernel test, say) is copied and run as one more check that
passes when it exits 0. `run` prints one line per check (PASS, or FAIL with
what failed), then `N checks, M failed`, and exits 1 if any failed.

Tolerances: each op case's own; inference models rtol 1e-4 / atol 1e-5 (the
convolutions' in test/e2e); training losses and fetches rtol 1e-5 / atol
1e-6 (test/e2e/training.test's). Standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The end-to-end tests' .npy helpers (the repository travels with the pack's
# runner, so they are there on the other machine too).
sys.path.insert(0, os.path.join(ROOT, "test", "e2e", "Inputs"))
from npyfiles import read_float32_vector, write_float32_scalar  # noqa: E402
OPS = os.path.join(ROOT, "test", "ops")
CORPUS = os.path.join(ROOT, "test", "corpus")

# Loaded from the target machine's own system: glibc's parts.
SYSTEM_LIBRARIES = ("linux-vdso", "ld-linux", "libc.so", "libm.so",
                    "libpthread.so", "libdl.so", "librt.so")


def run_command(cmd, env=None, timeout=600):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % timeout
    return p.returncode, p.stdout.strip()


def copy_libraries(programs, folder):
    """Copies the shared libraries the programs load, glibc's aside, into
    folder (bench/on_target.py packs its programs' with this too)."""
    needed = set()
    for program in programs:
        code, out = run_command(["ldd", program])
        for line in out.splitlines():
            parts = line.split()
            if "=>" in parts and len(parts) > 2 and parts[2].startswith("/"):
                if not os.path.basename(parts[2]).startswith(SYSTEM_LIBRARIES):
                    needed.add(parts[2])
    os.makedirs(folder, exist_ok=True)
    for library in sorted(needed):
        shutil.copy2(os.path.realpath(library), os.path.join(folder, os.path.basename(library)))


def environment_with_libraries(folder):
    """This process's environment with `folder` (copy_libraries') first on
    the library path: for the packed programs, not for other processes."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = folder + (
        ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    return env


def first_line(text):
    return text.splitlines()[0] if text else ""


# ---- pack -----------------------------------------------------------------

class Packer:
    def __init__(self, args):
        self.args = args
        self.out = os.path.abspath(args.out)
        self.checks = []
        self.failures = []

    def copy(self, source, relative):
        """Copies a file or folder into the pack; returns its relative path."""
        target = os.path.join(self.out, relative)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.isdir(source):
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
        return relative

    @staticmethod
    def single_task_training(manifest):
        """The training graphs test/e2e trains step by step in one program:
        not those of several tasks (workers, devices) or fed by queues."""
        return (manifest.get("kind") == "training"
                and "steps" in manifest and "step_losses" in manifest
                and not {"workers", "roundtrip_flags", "input_ends_after"} & set(manifest))

    def compile(self, name, graph, feeds=(), fetches=(), targets=(), inits=(),
                signature=None):
        program = os.path.join("programs", name)
        cmd = [self.args.tfc, "compile", graph, "-o", os.path.join(self.out, program)]
        if signature:
            cmd += ["--signature", signature]
        if self.args.target_cpu:
            cmd += ["--target-cpu", self.args.target_cpu]
        for flag, names in (("--feed", feeds), ("--fetch", fetches),
                            ("--target", targets), ("--init", inits)):
            for n in names:
                cmd += [flag, n]
        code, out = run_command(cmd)
        if code:
            self.failures.append("%s: compile: %s" % (name, first_line(out) or code))
            return None
        return program

    def op_cases(self, only):
        cases = json.load(open(os.path.join(OPS, "cases.json")))
        for name, spec in cases.items():
            if only and name not in only:
                continue
            case = os.path.join(OPS, "cases", name)
            program = self.compile("op-" + name, os.path.join(case, "graph.pbtxt"),
                                   spec["feeds"], spec["fetches"])
            if not program:
                continue
            data = self.copy(case, os.path.join("data", "op-" + name))
            self.checks.append({
                "name": "op " + name, "kind": "inference", "program": program,
                "inputs": [[f, os.path.join(data, "inputs", "%d.npy" % i)]
                           for i, f in enumerate(spec["feeds"])],
                "outputs": [[f, os.path.join(data, "outputs", "%d.npy" % i)]
                            for i, f in enumerate(spec["fetches"])],
                "rtol": spec["rtol"], "atol": spec["atol"]})

    def corpus_models(self, only):
        for name in sorted(os.listdir(CORPUS)):
            path = os.path.join(CORPUS, name, "manifest.json")
            if (only and name not in only) or not os.path.exists(path):
                continue
            manifest = json.load(open(path))
            model = os.path.join(CORPUS, name)
            graphs = manifest.get("graphs", {})
            feeds = [f["tensor"] for f in manifest["feeds"]]
            fetches = [f["tensor"] for f in manifest["fetches"]]
            check = {
                "name": "model " + name,
                "inputs": [[f["tensor"], os.path.join("data", name, f["npy"])]
                           for f in manifest["feeds"]],
                "outputs": [[f["tensor"], os.path.join("data", name, f["npy"])]
                            for f in manifest["fetches"]]}
            if manifest.get("kind") == "inference" and "frozen" in graphs:
                program = self.compile(name, os.path.join(model, graphs["frozen"]),
                                       feeds, fetches)
                check.update(kind="inference", rtol=1e-4, atol=1e-5)
            elif self.single_task_training(manifest):
                if "text" in graphs:
                    program = self.compile(name, os.path.join(model, graphs["text"]),
                                           feeds, fetches, manifest.get("targets", []),
                                           manifest.get("init", []))
                else:  # A TF2 train step: its signature, from its variables.
                    program = self.compile(
                        name, os.path.join(model, graphs["saved_model"]), feeds, fetches,
                        signature=manifest["saved_model_signature"]["key"])
                check.update(kind="training", rtol=1e-5, atol=1e-6,
                             steps=manifest["steps"],
                             step_losses=os.path.join("data", name,
                                                      manifest["step_losses"]))
            else:
                continue
            if not program:
                continue
            for sub in ("inputs", "outputs"):
                self.copy(os.path.join(model, sub), os.path.join("data", name, sub))
            check["program"] = program
            self.checks.append(check)

    def binaries(self):
        for binary in self.args.binary:
            name = os.path.basename(binary)
            self.checks.append({"name": "binary " + name, "kind": "binary",
                                "program": self.copy(binary, os.path.join("programs", name))})

    def libraries(self):
        programs = [c["program"] for c in self.checks] + ["npy-compare"]
        copy_libraries([os.path.join(self.out, p) for p in programs],
                       os.path.join(self.out, "lib"))

    def pack(self):
        if os.path.exists(self.out):
            sys.exit("check_on_target.py: %s exists; give a new folder" % self.args.out)
        for flag in ("tfc", "npy_compare"):
            found = shutil.which(getattr(self.args, flag))
            if not found:
                sys.exit("check_on_target.py: --%s %s: no such program"
                         % (flag.replace("_", "-"), getattr(self.args, flag)))
            setattr(self.args, flag, found)
        for binary in self.args.binary:
            if not os.path.isfile(binary):
                sys.exit("check_on_target.py: --binary %s: no such file" % binary)
        only = set(self.args.only.split(",")) if self.args.only else None
        os.makedirs(os.path.join(self.out, "programs"))
        self.copy(self.args.npy_compare, "npy-compare")
        self.op_cases(only)
        self.corpus_models(only)
        self.binaries()
        self.libraries()
        with open(os.path.join(self.out, "checks.json"), "w") as f:
            json.dump({"target_cpu": self.args.target_cpu or "host",
                       "checks": self.checks}, f, indent=1)
        for failure in self.failures:
            print("FAIL %s" % failure)
        print("packed %d checks for %s in %s, %d failed to compile"
              % (len(self.checks), self.args.target_cpu or "this host",
                 self.args.out, len(self.failures)))
        return 1 if self.failures else 0


# ---- run ------------------------------------------------------------------

class Runner:
    def __init__(self, folder):
        self.folder = os.path.abspath(folder)
        self.work = os.path.join(self.folder, "work")
        os.makedirs(self.work, exist_ok=True)
        self.env = environment_with_libraries(os.path.join(self.folder, "lib"))

    def path(self, relative):
        return os.path.join(self.folder, relative)

    def compare(self, got, want, check):
        code, out = run_command([self.path("npy-compare"), got, want,
                                 "--rtol", str(check["rtol"]),
                                 "--atol", str(check["atol"])], self.env)
        return None if code == 0 else out

    def run_program(self, check, tag, extra=()):
        """Runs the program once; returns (failure or None, output paths)."""
        cmd = [self.path(check["program"])] + list(extra)
        for name, npy in check["inputs"]:
            cmd += ["--input", "%s=%s" % (name, self.path(npy))]
        outputs = []
        for i, (name, _) in enumerate(check["outputs"]):
            outputs.append(os.path.join(self.work, "%s-%s-%d.npy" % (
                check["program"].replace("/", "_"), tag, i)))
            cmd += ["--output", "%s=%s" % (name, outputs[-1])]
        code, out = run_command(cmd, self.env)
        return ("run: exit %d: %s" % (code, first_line(out)) if code else None), outputs

    def compare_outputs(self, outputs, check, label=""):
        """Each output against TensorFlow's; a line for each that differs."""
        failures = []
        for got, (name, want) in zip(outputs, check["outputs"]):
            mismatch = self.compare(got, self.path(want), check)
            if mismatch:
                failures.append("%s%s: %s" % (label, name, mismatch))
        return failures

    def inference(self, check):
        failure, outputs = self.run_program(check, "out")
        return [failure] if failure else self.compare_outputs(outputs, check)

    def training(self, check):
        """One run a step, each restoring the last one's checkpoint: the loss
        each run fetches (before its update) is TensorFlow's for that step,
        and one run after the last step fetches TensorFlow's values."""
        checkpoints = os.path.join(self.work, check["program"].replace("/", "_") + "-ckpt")
        shutil.rmtree(checkpoints, ignore_errors=True)
        losses = read_float32_vector(self.path(check["step_losses"]))
        failures = []
        for step in range(check["steps"] + 1):
            extra = ["--steps", "1", "--checkpoint-dir", checkpoints]
            if step > 0:
                extra.append("--restore")
            failure, outputs = self.run_program(check, "step%d" % step, extra)
            if failure:
                return failures + ["step %d: %s" % (step, failure)]
            want = outputs[0] + ".want.npy"
            write_float32_scalar(want, losses[step])
            mismatch = self.compare(outputs[0], want, check)
            if mismatch:
                failures.append("step %d loss: %s" % (step, mismatch))
        return failures + self.compare_outputs(outputs, check, "trained ")

    def binary(self, check):
        code, out = run_command([self.path(check["program"])], self.env)
        if not code:
            return []
        # A test binary's failed tests (GoogleTest's lines), else its first line.
        failed = [line for line in out.splitlines() if "FAILED" in line]
        return ["exit %d: %s" % (code, " | ".join(failed)[:400] or first_line(out))]

    def run(self):
        manifest = json.load(open(self.path("checks.json")))
        failed = 0
        for check in manifest["checks"]:
            failures = getattr(self, check["kind"])(check)
            if failures:
                failed += 1
                print("FAIL %s: %s" % (check["name"], "; ".join(failures)))
            else:
                print("PASS %s" % check["name"])
            sys.stdout.flush()
        print("%d checks, %d failed (compiled for %s)"
              % (len(manifest["checks"]), failed, manifest["target_cpu"]))
        return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    pack = verbs.add_parser("pack", help="compile and pack the checks here")
    pack.add_argument("--tfc", required=True)
    pack.add_argument("--npy-compare", required=True)
    pack.add_argument("--out", required=True, help="a new folder")
    pack.add_argument("--target-cpu", help="tfc compile's --target-cpu (default: this host)")
    pack.add_argument("--binary", action="append", default=[],
                      help="a program to run there as a check (exit 0 passes)")
    pack.add_argument("--only", help="op cases and corpus models to pack, by name")
    run = verbs.add_parser("run", help="run the packed checks on this machine")
    run.add_argument("folder")
    args = parser.parse_args()
    if args.verb == "pack":
        return Packer(args).pack()
    if not os.path.exists(os.path.join(args.folder, "checks.json")):
        sys.exit("check_on_target.py: %s has no checks.json; pack it first" % args.folder)
    return Runner(args.folder).run()


if __name__ == "__main__":
    sys.exit(main())
