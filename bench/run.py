#!/usr/bin/env python3
"""tfc against TensorFlow 2.21 on the benchmark models, in one run.

    python bench/run.py [--models mlp,cnn,resnet50,mobilenetv2,transformer]
                        (those are --models default; the groups are
                        bench/catalog.py's; --models applications: EfficientNetB0,
                        DenseNet121, InceptionV3, Xception, ConvNeXtTiny
                        and MobileNetV3Small; --models other-applications:
                        the other 14 that the broad corpus compiles, from
                        ResNet50V2 to NASNetMobile; --models
                        large-applications: the 18 larger members of those
                        families, EfficientNetB2 to NASNetLarge, hours at
                        batch 32; --models all: every one; groups and
                        models mix: --models applications,resnet50)
                        [--batches 1,32] [--threads 2] [--rounds 3]
                        [--tfc build/bin/tfc] [--work DIR]
                        [--runners session,function|session|function]

For each model and batch size (models.py builds them, fixed seeds):
  1. freeze the Keras model, compile it with `tfc compile` (timed), and
     check the program's output against TensorFlow's (rtol 1e-3, atol
     1e-4 times the largest magnitude of TensorFlow's output, whose scale
     differs by orders between models with random weights: convolutions
     and GEMMs sum in a different order); where they differ beyond that,
     both are compared with the float64 answer (models.py --float64), and
     tfc's error there may be at most FLOAT64_FACTOR times TensorFlow's;
  2. then, `--rounds` times, alternating, each in its own process: the
     compiled program (`--bench N`, timed inside the program), TensorFlow
     `session.run` on the frozen graph, and TensorFlow calling the Keras
     model's concrete function; each reports the median step time of N
     steps after warm-up, and its peak RSS is read from wait4();
     `--runners session` leaves the concrete function out (a step of the
     larger models at batch 32 takes TensorFlow tens of seconds, and
     issue 21's targets are against session.run where it fits);
     `--runners function` leaves session.run out, for a model whose
     frozen graph TensorFlow's session cannot hold beside a batch of 32
     in the machine's memory (ConvNeXtXLarge: the lesser of the two
     runners' peaks was 16 GiB at batch 1 while both held the frozen
     graph; the function, unfrozen, took 2.1 GiB there and 6.7 GiB at
     batch 32);
  3. print a markdown table: median over rounds of each runner's median
     step time, throughput, tfc's speedup, compile time, program size and
     arena size and peak RSS.

A model that fails (its output differs, a step fails, or a process is
killed, most often for memory: models.py --float64 was, before it ran the
float64 model as a tf.function, for EfficientNetV2L at batch 32) is
named on stderr as it fails and the run goes on to the next: a run over
many models takes hours, and one failure should not lose the rows
measured before it. The table then holds the models that passed, and
the run exits 1 after it with one line per failure.

TensorFlow runs with oneDNN on (its default) and the same intra- and
inter-op thread count as the program's --threads. Needs tensorflow-cpu
==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import catalog  # noqa: E402
import machine  # noqa: E402
ROOT = os.path.dirname(HERE)


# TensorFlow's runners, in the table's column order, and how the done
# lines name each.
RUNNER_NAMES = {"session": "session.run", "function": "function"}


def steps_for(model, batch):
    """The catalog's timed steps at batch 1, fewer at larger batches."""
    return max(5, catalog.BY_NAME[model].steps // max(1, batch // 4))


def measure(cmd, env=None):
    """Runs cmd (a worker printing a JSON line or a program printing its
    bench line) and returns (median seconds, peak RSS MiB, the program's
    arena bytes or None)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    if status:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err[-2000:]))
    rss = usage.ru_maxrss / 1024.0
    m = re.search(r"median ([0-9.]+) us.*arena ([0-9]+) bytes", out)
    if m:
        return float(m.group(1)) * 1e-6, rss, int(m.group(2))
    return json.loads(out.strip().splitlines()[-1])["median_s"], rss, None


def worker(args):
    """One TensorFlow measurement in this process (see --worker)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np
    import tensorflow as tf
    sys.path.insert(0, HERE)
    import models
    inter_op = args.inter_op or args.threads
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(inter_op)
    meta = json.load(open(os.path.join(args.dir, "model.json")))
    x = np.load(os.path.join(args.dir, "x.npy"))
    if args.worker == "session":
        sess, _ = models.frozen_session(os.path.join(args.dir, "frozen.pb"), args.threads,
                                         inter_op)
        feeds = {meta["feed"] + ":0": x}
        step = lambda: sess.run(meta["fetch"], feeds)  # noqa: E731
    else:
        # Not frozen: this runner holds the weights as Keras's variables.
        fn = models.concrete_function(meta["model"], meta["batch"])[0]
        xt = tf.constant(x)
        step = lambda: fn(xt)  # noqa: E731
    for _ in range(max(3, args.steps // 10)):
        step()
    samples = []
    for _ in range(args.steps):
        t0 = time.perf_counter()
        step()
        samples.append(time.perf_counter() - t0)
    print(json.dumps({"median_s": float(np.median(samples))}))


def output_scale(path):
    """The largest magnitude in an .npy file (1 when all are 0)."""
    import numpy as np
    largest = float(np.max(np.abs(np.load(path))))
    return largest if largest > 0 else 1.0


# How much larger than TensorFlow's own float32 error tfc's may be, both
# against the float64 answer, when the two float32 outputs differ beyond
# the usual tolerance. tfc's convolutions round differently from
# TensorFlow's (Winograd's transforms lose more bits, up to 7.3e-6 of the
# output's scale: runtime/kernels/cpu/Winograd.h), and a deep network with
# random weights can carry such differences to its logits; the bound on
# tfc is then relative to how far TensorFlow itself is from exact.
FLOAT64_FACTOR = 4


def against_float64(model, batch, d, got, want, mismatch):
    """When tfc's output and TensorFlow's differ beyond the tolerance,
    whether tfc's is as close to the exact (float64) answer as
    TensorFlow's own is, within FLOAT64_FACTOR; exits when it is not."""
    import numpy as np
    subprocess.run([sys.executable, os.path.join(HERE, "models.py"), model, "--batch",
                    str(batch), "--out", d, "--float64"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    exact = np.load(os.path.join(d, "exact.npy"))
    tfc_error = float(np.max(np.abs(np.load(got) - exact)))
    tf_error = float(np.max(np.abs(np.load(want) - exact)))
    verdict = "vs float64: tfc %.3g, TF %.3g" % (tfc_error, tf_error)
    if tfc_error > FLOAT64_FACTOR * tf_error:
        sys.exit("%s batch %d: output differs from TensorFlow's (%s), and %s"
                 % (model, batch, mismatch, verdict))
    return verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=catalog.names("default"))
    parser.add_argument("--batches", default="1,32")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tfc", default=os.path.join(ROOT, "build/bin/tfc"))
    parser.add_argument("--npy-compare", default=os.path.join(ROOT, "build/bin/npy-compare"))
    parser.add_argument("--work")
    parser.add_argument("--worker", choices=["session", "function"])
    parser.add_argument("--dir")
    parser.add_argument("--steps", type=int)
    # A worker's inter-op threads when not --threads (bench/core_scaling.py).
    parser.add_argument("--inter-op", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--runners", default="session,function",
                        choices=["session", "function", "session,function"],
                        metavar="session[,function]|function")
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    runners = args.runners.split(",")

    work = args.work or tempfile.mkdtemp(prefix="tfc-bench-")
    # Groups and models, in any mix: each group's models in its place,
    # each model once (where first named).
    groups = catalog.GROUPS + ("all",)
    models = list(dict.fromkeys(
        name for m in args.models.split(",")
        for name in (catalog.names(m).split(",") if m in groups else [m])))
    unknown = [m for m in models if m not in catalog.BY_NAME]
    if unknown:
        sys.exit("run.py: --models: unknown model %s (see bench/catalog.py)" % unknown[0])
    rows, failures = [], []
    for model in models:
        for batch in map(int, args.batches.split(",")):
            d = os.path.join(work, "%s_b%d" % (model, batch))
            try:
                meta = build_model(model, batch, d)
                program = os.path.join(d, "program")
                compile_s = compile_model(args.tfc, d, meta, program)
                diff = check_output(args.npy_compare, d, meta, program)
                rows.append(time_model(d, meta, program, runners, args.threads,
                                       args.rounds) + (compile_s, diff))
            except (subprocess.CalledProcessError, SystemExit) as e:
                failures.append("%s batch %d: %s" % (model, batch, why_failed(e)))
                print("failed: " + failures[-1], file=sys.stderr, flush=True)
    if rows:
        print_table(rows, runners, args.threads, args.rounds)
    if failures:
        sys.exit("run.py: %d of %d failed:\n%s" % (
            len(failures), len(failures) + len(rows), "\n".join(failures)))


def why_failed(e):
    """One line on a model's failure: SystemExit's message (an output
    that differs, a measurement that failed), or the process that failed
    and how (a signal by its name: SIGKILL is most often memory)."""
    if isinstance(e, SystemExit):
        return str(e.code).splitlines()[0]
    cmd = e.cmd if isinstance(e.cmd, list) else [str(e.cmd)]
    # The script a Python process ran, else the program.
    name = next((os.path.basename(a) for a in cmd if a.endswith(".py")),
                os.path.basename(cmd[0]))
    if e.returncode < 0:
        how = "killed by %s" % signal.Signals(-e.returncode).name
    else:
        how = "exit status %d" % e.returncode
    return "%s %s" % (name, how)


def build_model(model, batch, d):
    """models.py's frozen graph, input and TensorFlow's output in d; the
    model's meta (feed, fetch, batch, model)."""
    subprocess.run([sys.executable, os.path.join(HERE, "models.py"), model,
                    "--batch", str(batch), "--out", d], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    meta = json.load(open(os.path.join(d, "model.json")))
    meta["model"] = model
    json.dump(meta, open(os.path.join(d, "model.json"), "w"))
    return meta


def compile_model(tfc, d, meta, program, target_cpu=None):
    """`tfc compile`s d's frozen graph to program; the seconds it took."""
    t0 = time.perf_counter()
    subprocess.run([tfc, "compile", os.path.join(d, "frozen.pb"), "--feed", meta["feed"],
                    "--fetch", meta["fetch"], "-o", program]
                   + (["--target-cpu", target_cpu] if target_cpu else []), check=True)
    return time.perf_counter() - t0


def check_output(npy_compare, d, meta, program, env=None):
    """The program's output against TensorFlow's (see the module's
    docstring); how they differ, or exits."""
    model, batch = meta["model"], meta["batch"]
    feed = "%s=%s" % (meta["feed"], os.path.join(d, "x.npy"))
    got = os.path.join(d, "got.npy")
    subprocess.run([program, "--input", feed, "--output",
                    "%s=%s" % (meta["fetch"], got)], check=True, env=env)
    want = os.path.join(d, "want.npy")
    atol = 1e-4 * output_scale(want)
    check = subprocess.run([npy_compare, got, want, "--rtol", "1e-3", "--atol", "%.3g" % atol],
                           capture_output=True, text=True, env=env)
    if check.returncode == 0:
        return check.stdout.split(",")[1].strip()
    if check.stdout.startswith("MISMATCH") and "elements" in check.stdout:
        # Values differ; their shapes and types agree.
        return against_float64(model, batch, d, got, want, check.stdout.strip())
    sys.exit("%s batch %d: output differs from TensorFlow's: %s"
             % (model, batch, (check.stdout + check.stderr).strip()))


def time_model(d, meta, program, runners, threads, rounds, env=None):
    """`rounds` alternating rounds of the program (run with env) and each
    TensorFlow runner; (model, batch, median seconds, peak RSS MiB, program
    MiB, arena MiB), the medians and peaks by runner ("tfc" too)."""
    model, batch = meta["model"], meta["batch"]
    feed = "%s=%s" % (meta["feed"], os.path.join(d, "x.npy"))
    steps = steps_for(model, batch)
    results = {name: [] for name in ["tfc"] + runners}
    for _ in range(rounds):
        results["tfc"].append(measure(
            [program, "--input", feed, "--threads", str(threads), "--bench", str(steps)], env))
        for runner in runners:
            results[runner].append(measure(
                [sys.executable, os.path.abspath(__file__), "--worker", runner,
                 "--dir", d, "--threads", str(threads), "--steps", str(steps)]))
    median = {k: sorted(t for t, _, _ in v)[len(v) // 2] for k, v in results.items()}
    rss = {k: max(r for _, r, _ in v) for k, v in results.items()}
    arena = results["tfc"][0][2] / 2**20
    # A run over many models takes hours: show each row as it comes.
    print("done: %s batch %d: tfc %.3g ms%s" % (
        model, batch, 1e3 * median["tfc"],
        "".join(", %.2fx %s" % (median[r] / median["tfc"], RUNNER_NAMES[r])
                for r in runners)), file=sys.stderr, flush=True)
    return (model, batch, median, rss, os.path.getsize(program) / 2**20, arena)


def print_table(rows, runners, threads, rounds):
    """The markdown table of time_model's rows, each with its compile
    seconds and output check appended."""
    print(machine.line(threads))
    print("%d thread(s), %d rounds, median of per-round medians; throughput in "
          "samples/s; peak RSS of each runner's process" % (threads, rounds))
    print()
    print("| model | batch | tfc (ms) | TF session.run (ms) | speedup | TF function (ms) "
          "| speedup | tfc samples/s | TF samples/s | compile (s) | program (MiB) "
          "| arena (MiB) | RSS tfc / TF (MiB) | vs TF output |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for model, batch, m, rss, size, arena, compile_s, diff in rows:
        best_tf = min(m[r] for r in runners)
        tf_columns = " | ".join("%.3g | %.2fx" % (1e3 * m[r], m[r] / m["tfc"])
                                if r in m else "not run | -"
                                for r in RUNNER_NAMES)
        print("| %s | %d | %.3g | %s | %.3g | %.3g | %.1f | %.1f "
              "| %.2f | %.0f / %.0f | %s |" % (
                  model, batch, 1e3 * m["tfc"], tf_columns,
                  batch / m["tfc"], batch / best_tf, compile_s, size, arena,
                  rss["tfc"], min(rss[r] for r in runners), diff))

if __name__ == "__main__":
    main()
