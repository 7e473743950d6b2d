"""Fault injection: a training job of three processes on 127.0.0.1 (worker 0
and two ps tasks holding the variables) is killed with SIGKILL, one task at
a time, at points drawn with a fixed seed; tfc run-cluster --max-restarts
restarts it from the latest checkpoint each time. The job must still end
well, and its final checkpoint must equal, byte for byte, the one of an
uninterrupted run of the same number of steps. Prints for FileCheck what
happened: each kill, run-cluster's lines (which task was lost, each
restart), and the comparison.

usage: cluster_faults.py CORPUS WORKDIR SEED

Bounded: at most KILLS kills, each run within RUN_SECONDS; every process
is killed at the end whatever happens.
"""
import filecmp
import json
import os
import random
import signal
import subprocess
import sys
import time

from corpus_cluster import manifest_flags

MODEL = "train_cnn_adam"
STEPS = 400
SAVE_EVERY = 25
KILLS = 2
RUN_SECONDS = 240


def task_pids(launcher, program):
    """The task processes run-cluster started: its children running an
    executable of `program`."""
    pids = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            exe = os.readlink("/proc/%s/exe" % entry)
        except OSError:
            continue
        if parent == launcher and os.path.dirname(exe) == program:
            pids[os.path.basename(exe)] = int(entry)
    return pids


def main():
    corpus, work, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    model = os.path.join(corpus, MODEL)
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    program = os.path.realpath(os.path.join(work, "program"))
    compile_command = ["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                       "--cluster", "worker=1,ps=2", "--placement", "parameter-server",
                       "-o", program] + manifest_flags(manifest)
    subprocess.run(compile_command, check=True, timeout=300)

    def job(checkpoints, extra):
        command = ["tfc", "run-cluster", program, "--steps", str(STEPS),
                   "--checkpoint-dir", checkpoints, "--save-every", str(SAVE_EVERY),
                   "--threads", "1", "--health-interval", "0.2", "--health-timeout", "2"]
        for feed in manifest["feeds"]:
            command += ["--input", "%s=%s" % (feed["tensor"], os.path.join(model, feed["npy"]))]
        return subprocess.Popen(command + extra, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)

    launched = []
    try:
        reference = os.path.join(work, "reference")
        run = job(reference, [])
        launched.append(run)
        _, err = run.communicate(timeout=RUN_SECONDS)
        print("reference run: exit %d" % run.returncode)

        faulty = os.path.join(work, "faulty")
        run = job(faulty, ["--max-restarts", str(KILLS)])
        launched.append(run)
        deadline = time.time() + RUN_SECONDS
        for kill in range(KILLS):
            # Wait for the job's tasks (after a restart, the new ones), let
            # it train a while, then kill one of them.
            pids = {}
            while time.time() < deadline and run.poll() is None:
                pids = task_pids(run.pid, program)
                if len(pids) == 3:
                    break
                time.sleep(0.02)
            if len(pids) != 3:
                break
            time.sleep(rng.uniform(0.2, 0.8))
            victim = rng.choice(sorted(pids))
            try:
                os.kill(pids[victim], signal.SIGKILL)
                print("kill %d: %s" % (kill + 1, victim))
            except ProcessLookupError:
                break
            # The next restart's tasks are new processes.
            while time.time() < deadline and run.poll() is None and \
                    pids[victim] in task_pids(run.pid, program).values():
                time.sleep(0.02)
        _, err = run.communicate(timeout=max(1, deadline - time.time()))
        for line in err.decode(errors="replace").splitlines():
            if line.startswith("[run-cluster]"):
                print(line)
        print("faulty run: exit %d" % run.returncode)

        # The last checkpoint of both: every file equal.
        name = "model.ckpt-%d" % STEPS
        files = sorted(f for f in os.listdir(reference) if f.startswith(name + "."))
        same = files and all(filecmp.cmp(os.path.join(reference, f),
                                         os.path.join(faulty, f), shallow=False)
                             for f in files)
        print("final checkpoint (%s): %s" % (", ".join(files),
                                             "EQUAL" if same else "DIFFERENT"))
    finally:
        for process in launched:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


if __name__ == "__main__":
    main()
