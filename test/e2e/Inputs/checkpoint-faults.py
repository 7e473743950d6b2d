#!/usr/bin/env python3
"""Fault injection for checkpoints: a training program is killed while it
saves, and every restart must restore a good checkpoint and end where an
uninterrupted run ends (bit for bit, one thread).

    checkpoint-faults.py WORKDIR PROGRAM PROGRAM-ARGS...

1. Every crash point: the program kills itself (TFC_FAULT_AT=k, see
   Checkpoint.h) at the k-th point where a crash could damage a
   checkpoint, for every k a full run reaches.
2. Random kills: SIGKILL after a random delay (fixed seed, 12 runs), most
   of them inside a save, as the program saves after every step.

After each crash the program restarts with --restore (or from its init
entry when no checkpoint was complete yet) for the steps left. Then the
last checkpoint must hold what an uninterrupted run's holds: one more step
from each (on copies) gives the same loss. Prints one summary line per
part.
Standard library only.
"""

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

work, program, args = sys.argv[1], sys.argv[2], sys.argv[3:]
STEPS = 6


def run(directory, steps, restore, output, env=None):
    command = [program] + args + ["--threads", "1", "--steps", str(steps),
                                  "--save-every", "1", "--keep", "2",
                                  "--checkpoint-dir", directory,
                                  "--output", "loss=" + output]
    if restore:
        command.append("--restore")
    return subprocess.run(command, env=env, capture_output=True, text=True)


def saved_step(directory):
    """The step of the latest complete checkpoint, or None."""
    try:
        text = open(os.path.join(directory, "checkpoint")).read()
    except FileNotFoundError:
        return None
    return int(re.search(r'model_checkpoint_path: "model.ckpt-(\d+)"', text).group(1))


def next_loss(directory):
    """The loss of one more step from the latest checkpoint (on a copy)."""
    probe = directory + "-probe"
    shutil.copytree(directory, probe)
    result = run(probe, 1, True, probe + ".npy")
    shutil.rmtree(probe)
    if result.returncode != 0:
        return "restoring the last checkpoint failed: " + result.stderr.strip()
    return open(probe + ".npy", "rb").read()


def finish(directory, total, output):
    """Restarts after a crash until `total` steps are done; then the next
    step's loss from the last checkpoint, or an error message."""
    step = saved_step(directory)
    if step != total:
        result = run(directory, total - (step or 0), step is not None, output)
        if result.returncode != 0:
            return "restart from step %s failed: %s" % (step, result.stderr.strip())
    if saved_step(directory) != total:
        return "the last checkpoint is not step %d" % total
    return next_loss(directory)


def expected(total):
    directory = os.path.join(work, "baseline-%d" % total)
    result = run(directory, total, False, directory + ".npy")
    assert result.returncode == 0, result.stderr
    return next_loss(directory)


failures = 0
baseline = expected(STEPS)
points = 0
for k in range(1, 1000):
    directory = os.path.join(work, "point-%d" % k)
    output = directory + ".npy"
    env = dict(os.environ, TFC_FAULT_AT=str(k))
    crashed = run(directory, STEPS, False, output, env).returncode == -signal.SIGKILL
    if not crashed:
        break  # k is past the last crash point of a full run.
    points += 1
    outcome = finish(directory, STEPS, output)
    if outcome != baseline:
        failures += 1
        print("crash point %d: %s" % (k, outcome if isinstance(outcome, str)
                                      else "the trained variables differ"))
    shutil.rmtree(directory)
print("crash points: %d, each restored and finished: %s" %
      (points, "OK" if failures == 0 and points > 0 else "FAILED"))

rng = random.Random(20261122)
long_run = 300
baseline = expected(long_run)
kills = 0
for attempt in range(12):
    directory = os.path.join(work, "kill-%d" % attempt)
    output = directory + ".npy"
    command = [program] + args + ["--threads", "1", "--steps", str(long_run),
                                  "--save-every", "1", "--keep", "2",
                                  "--checkpoint-dir", directory]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.0, 0.08))
    process.send_signal(signal.SIGKILL)
    process.wait()
    kills += process.returncode == -signal.SIGKILL
    outcome = finish(directory, long_run, output)
    if outcome != baseline:
        failures += 1
        print("kill %d: %s" % (attempt, outcome if isinstance(outcome, str)
                                 else "the trained variables differ"))
print("random kills: %d of 12 landed, each restored and finished: %s" %
      (kills, "OK" if failures == 0 else "FAILED"))
sys.exit(1 if failures else 0)
