"""Synchronous replicas (OSDI §4.4): the corpus's SyncReplicasOptimizer
graphs, compiled with --cluster and no flag for any of the optimizer's parts
(tfc finds them), each task a real process on 127.0.0.1, ports picked free
at run time. Prints for FileCheck:

  parts: what `tfc info` says tfc found, for each model, against the names
  TensorFlow's optimizer object gives its parts (the manifests'); for the
  MetaGraph without initial tokens, that tfc makes them.

  lockstep: ps_sync_mlp (2 of 2 replicas, no initial tokens): both workers
  run 4 steps, each update the mean of one gradient of each at the same
  weights; each worker's last loss must match TensorFlow's (rtol 1e-5), and
  the 4 updates leave global_step at 4.

  sparse lockstep: ps_sync_embedding likewise, whose table's gradients are
  rows that a SparseConditionalAccumulator on the ps merges (the two
  workers' ids overlap) before the chief's update subtracts them.

  In both, each worker waits for its token in the ps's token queue; a
  worker that overtook the other's wait (took the second token of an
  update) would run a step on stale weights, and its gradient alone would
  make the next update: a loss off TensorFlow's, and the other worker's
  run ending a step short at the closed queue.

Then ps_sync_backup_linear from its model.meta: 2 of 3 replicas (a backup
worker), the session hook's default initial tokens. Every worker feeds the
same batch, so that the weights after k updates are those of k plain SGD
steps whichever workers' gradients made them (a gradient of older weights
is stale and dropped); the manifest's losses are TensorFlow's for that SGD,
loss(W_0) ... loss(W_K). In each run, each checked worker's last loss must
be one of them (if it ran a step: the chief may run alone until the
others join, on the initial tokens), and the weights of the chief's last
checkpoint must be W_U for its global_step U: a program that restores them computes
TensorFlow's loss(W_U) (rtol 1e-4: U steps of rounding apart).

  straggler: worker 2 is stopped (SIGSTOP) from its start; the job (the
  chief's 300 steps, worker 1's 100) trains without it, the chief's steps
  all done while it is stopped; then it resumes, joins, and its run ends at its first
  token (the chief's end stopped the chief queue runner: a worker waiting
  for a token ends its run as at the end of input).

  concurrent: all three at once, the chief 300 steps and the others 100.

Then ps_sync_mlp again:

  chief last: the chief runs 10 steps and worker 1 runs 3; in lockstep,
  the chief's 4th step waits for a gradient worker 1 will not send. Once
  worker 1 is done, the chief queue runner stops, and the chief's run ends
  after its 3 steps (its loss TensorFlow's, global_step 3) rather than
  waiting forever.

usage: sync_replicas.py CORPUS WORKDIR

Every process is bounded in time and killed at the end, whatever happens.
"""
import json
import os
import shutil
import signal
import sys

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e", "Inputs"))
from between_graph import (Job, compare_loss, global_step_of, read_scalar,  # noqa: E402
                           report, restored_values, run_workers_at_once,
                           worker_flags)
from corpus_cluster import run  # noqa: E402
from npyfiles import read_float32_vector  # noqa: E402

RTOL, ATOL = 1e-4, 1e-7


def compile_job(model, source, workers, programs, feeds=("x", "y")):
    shutil.rmtree(programs, ignore_errors=True)
    flags = [flag for feed in feeds for flag in ("--feed", feed)]
    code, text = run(["tfc", "compile", os.path.join(model, source)] + flags +
                     ["--fetch", "loss",
                      "--target", "train_op", "--init", "init",
                      "--cluster", "worker=%d,ps=1" % workers,
                      "-o", programs], 300)
    if code != 0:
        sys.exit("compile of %s failed (%d): %s" % (source, code, text))


def found_parts(path):
    """The parts `tfc info` says it found: {what: node}."""
    code, text = run(["tfc", "info", path], 120)
    if code != 0:
        sys.exit("tfc info %s failed (%d): %s" % (path, code, text))
    parts = {}
    for line in text.splitlines():
        if line.startswith("  sync "):
            what, _, node = line[len("  sync "):].partition(": ")
            parts[what] = node
    return parts


def check_parts(name, path, expected):
    parts = found_parts(path)
    for what in sorted(expected):
        print("parts: %s %s: %s" % (name, what,
                                    "MATCH" if parts.get(what) == expected[what]
                                    else "found %r, TensorFlow's %r" %
                                    (parts.get(what), expected[what])))


def in_trajectory(value, losses):
    return any(abs(value - want) <= ATOL + RTOL * abs(want) for want in losses)


def steps_run(job, task, steps):
    """The steps a worker ran whole: all, or those before its input ended."""
    for line in job.log(task).splitlines():
        if "the input ended after" in line:
            return int(line.split("the input ended after ")[1].split()[0])
    return steps


def restored(model, work, checkpoints, name):
    """(global_step, loss) of the chief's last checkpoint in `checkpoints`:
    the loss, of the weights restored, on the manifest's batch."""
    return restored_values(
        model, work, checkpoints, name,
        [("global_step/Read/ReadVariableOp:0", "<i8", "<q"),
         ("loss:0", "<f4", "<f")],
        ["x:0=" + os.path.join(model, "inputs", "0.npy"),
         "y:0=" + os.path.join(model, "inputs", "1.npy")])


def check_backup_run(label, job, statuses, model, work, losses, checked, steps):
    report(job, statuses)
    # (How many steps a worker other than the chief runs depends on when it
    # joins: the chief may run alone meanwhile, on the initial tokens.)
    for worker in checked:
        task = "worker-%d" % worker
        ran = steps_run(job, task, steps[worker])
        good = ran == 0 or in_trajectory(
            read_scalar(os.path.join(job.work, "loss%d.npy" % worker), "<f4", "<f"),
            losses)
        print("%s: worker %d's last loss, if it ran a step, in TensorFlow's "
              "trajectory: %s" % (label, worker, good))
    step, loss = restored(model, work, os.path.join(job.work, "checkpoints"),
                          label + "-probe")
    print("%s: updates made: %s" % (label, 0 < step < len(losses)))
    if 0 < step < len(losses):
        want = losses[step]
        print("%s: weights after the last update are TensorFlow's W_U: %s" % (
            label, "MATCH" if abs(loss - want) <= ATOL + RTOL * abs(want)
            else "MISMATCH (%.8g, TensorFlow's %.8g at U = %d)" % (loss, want, step)))


def backup_job(programs, work, name, model, steps):
    """A job of ps_sync_backup_linear's 3 workers, the chief checkpointing;
    `steps[k]` for worker k, every worker the manifest's batch."""
    job = Job(programs, work, name, workers=3)
    flags = []
    for worker in range(3):
        flags.append(["--steps", str(steps[worker]),
                      "--input", "x:0=" + os.path.join(model, "inputs", "0.npy"),
                      "--input", "y:0=" + os.path.join(model, "inputs", "1.npy"),
                      "--output", "loss:0=" + os.path.join(job.work, "loss%d.npy" % worker)])
    flags[0] += ["--checkpoint-dir", os.path.join(job.work, "checkpoints")]
    return job, flags


def main():
    corpus, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    lockstep = os.path.join(corpus, "ps_sync_mlp")
    backup = os.path.join(corpus, "ps_sync_backup_linear")
    lockstep_manifest = json.load(open(os.path.join(lockstep, "manifest.json")))
    backup_manifest = json.load(open(os.path.join(backup, "manifest.json")))

    # The parts tfc finds, named as TensorFlow names them.
    check_parts("ps_sync_mlp", os.path.join(lockstep, "graph.pbtxt"), {
        "local init": lockstep_manifest["local_init"][0],
        "chief init": lockstep_manifest["chief_init"][0],
        "initial tokens": lockstep_manifest["chief_init"][1],
        "chief queue runner": lockstep_manifest["queue_runners"][0][0]})
    tf_parts = backup_manifest["sync_parts"]
    check_parts("ps_sync_backup_linear", os.path.join(backup, "model.meta"), {
        "local init": tf_parts["local_init"],
        "chief init": tf_parts["chief_init"],
        "chief queue runner": tf_parts["chief_queue_runner"]})
    made = found_parts(os.path.join(backup, "model.meta")).get("initial tokens", "")
    print("parts: ps_sync_backup_linear initial tokens: " + made)

    status = 0
    jobs = []
    try:
        # 2 of 2, no initial tokens: the steps are TensorFlow's in lockstep.
        programs = os.path.join(work, "lockstep-job")
        compile_job(lockstep, "graph.pbtxt", 2, programs)
        manifest = lockstep_manifest
        losses = read_float32_vector(os.path.join(lockstep, manifest["step_losses"]))
        steps = manifest["steps"]
        job = Job(programs, work, "lockstep")
        jobs.append(job)
        checkpoints = os.path.join(job.work, "checkpoints")
        outputs = [os.path.join(job.work, "loss%d.npy" % w) for w in range(2)]
        run_workers_at_once(job, [
            worker_flags(lockstep, manifest, worker, steps, outputs[worker],
                         count=False)
            for worker in range(2)], checkpoints)
        for worker in range(2):
            step = (worker + 1) * steps - 1
            code, line = compare_loss(job, worker, outputs[worker], losses[step])
            status |= code
            print("lockstep: worker %d loss of its step %d: %s" % (worker, steps - 1, line))
        print("lockstep: global_step %d" %
              global_step_of(lockstep, work, checkpoints, "lockstep-probe"))

        # The same with sparse gradients.
        sparse = os.path.join(corpus, "ps_sync_embedding")
        programs = os.path.join(work, "sparse-job")
        compile_job(sparse, "graph.pbtxt", 2, programs, feeds=("ids", "y"))
        manifest = json.load(open(os.path.join(sparse, "manifest.json")))
        losses = read_float32_vector(os.path.join(sparse, manifest["step_losses"]))
        steps = manifest["steps"]
        job = Job(programs, work, "sparse")
        jobs.append(job)
        outputs = [os.path.join(job.work, "loss%d.npy" % w) for w in range(2)]
        run_workers_at_once(job, [
            worker_flags(sparse, manifest, worker, steps, outputs[worker],
                         count=False)
            for worker in range(2)], os.path.join(job.work, "checkpoints"))
        for worker in range(2):
            step = (worker + 1) * steps - 1
            code, line = compare_loss(job, worker, outputs[worker], losses[step])
            status |= code
            print("sparse lockstep: worker %d loss of its step %d: %s" %
                  (worker, steps - 1, line))

        # 2 of 3 from the MetaGraph.
        programs = os.path.join(work, "backup-job")
        compile_job(backup, "model.meta", 3, programs)
        losses = read_float32_vector(
            os.path.join(backup, backup_manifest["step_losses"]))

        # Worker 2 straggles: stopped from its start until the chief's steps
        # are done. The chief runs the most steps, so that worker 1 joins
        # while it runs (a worker joins within 50 ms of the chief's init;
        # a step takes about a millisecond).
        steps = [300, 100, 100]
        job, flags = backup_job(programs, work, "straggler", backup, steps)
        jobs.append(job)
        job.start("ps-0")
        job.start("worker-2", flags[2])
        os.kill(job.processes["worker-2"].pid, signal.SIGSTOP)
        for worker in (0, 1):
            job.start("worker-%d" % worker, flags[worker])
        done = job.wait_for_line("worker-0", "its steps are done")
        print("straggler: the chief's steps done while worker 2 is stopped: %s"
              % (done and job.processes["worker-2"].poll() is None))
        os.kill(job.processes["worker-2"].pid, signal.SIGCONT)
        check_backup_run("straggler", job, job.finish(), backup, work, losses,
                         (0, 1), steps)
        print("straggler: worker 2 says: " + [
            line for line in job.log("worker-2").splitlines()
            if "input ended" in line][-1])

        # All three at once.
        steps = [300, 100, 100]
        job, flags = backup_job(programs, work, "concurrent", backup, steps)
        jobs.append(job)
        job.start("ps-0")
        for worker in (0, 1, 2):
            job.start("worker-%d" % worker, flags[worker])
        check_backup_run("concurrent", job, job.finish(), backup, work, losses,
                         (0, 1, 2), steps)

        # The chief last: in lockstep, its 4th step waits for a gradient of
        # worker 1, whose 3 steps are done; once worker 1 says so, the chief
        # queue runner stops and the chief's run ends after its 3 steps.
        programs = os.path.join(work, "lockstep-job")
        manifest = lockstep_manifest
        losses = read_float32_vector(os.path.join(lockstep, manifest["step_losses"]))
        job = Job(programs, work, "chief-last")
        jobs.append(job)
        checkpoints = os.path.join(job.work, "checkpoints")
        outputs = [os.path.join(job.work, "loss%d.npy" % w) for w in range(2)]
        job.start("ps-0")
        job.start("worker-0", worker_flags(lockstep, manifest, 0, 10, outputs[0],
                                           count=False) +
                  ["--checkpoint-dir", checkpoints])
        job.start("worker-1", worker_flags(lockstep, manifest, 1, 3, outputs[1],
                                           count=False))
        statuses = job.finish()
        report(job, statuses)
        print("chief last: the chief says: " + [
            line for line in job.log("worker-0").splitlines()
            if "input ended" in line][-1])
        code, line = compare_loss(job, 0, outputs[0], losses[2])
        status |= code
        print("chief last: worker 0 loss of its step 2: %s" % line)
        print("chief last: global_step %d" %
              global_step_of(lockstep, work, checkpoints, "chief-last-probe"))
    finally:
        for job in jobs:
            job.kill()
    sys.exit(status)


if __name__ == "__main__":
    main()
