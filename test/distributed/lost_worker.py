"""A between-graph worker lost in the middle of training (OSDI §4.4:
backup workers exist for this): the job goes on with the others, and a new
process of the lost worker may join again. Real processes on 127.0.0.1,
ports picked free at run time. A worker is killed with SIGKILL at a point
drawn with a fixed seed after it joined; the chief is stopped (SIGSTOP)
around the kill, so that the loss is always noticed while the chief still
has steps to run (the health checks run every 0.2 s). Prints for
FileCheck:

  async: ps_async_mlp, the chief 2000 steps and worker 1 until it is
  killed. The chief names worker 1 lost before its own steps are done and
  says that the job goes on without it; the chief and the ps exit 0, and
  the last checkpoint's global_step counts at least the chief's 2000
  steps. (With 300, on a loaded machine the chief once finished them
  before its health check, 0.2 s after it was let go, named the loss.)

  sync: ps_sync_backup_linear (SyncReplicasOptimizer, 2 of 3 replicas):
  the chief 500 steps, worker 1 150, worker 2 until it is killed. The
  same, and the chief's last checkpoint holds TensorFlow's weights W_U
  for its global_step U (sync_replicas.py says why that is exact).

  rejoined: the same job, longer (the chief 3000 steps, worker 1 1000);
  while the chief is stopped, worker 2 is killed and a new process of it
  started (200 steps). It joins again once the chief has abandoned the
  old one's step on the ps, runs, and every process but the killed one
  exits 0; each worker's last loss is below TensorFlow's first.

  run-cluster: ps_async_mlp under `tfc run-cluster --max-restarts 1`,
  2000 steps each: worker 1 killed, the launcher starts it again alone, it
  joins again, and the job ends well.

usage: lost_worker.py CORPUS WORKDIR SEED

Every process is bounded in time and killed at the end, whatever happens.
"""
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from between_graph import (TIMEOUT, Job, global_step_of,  # noqa: E402
                           read_scalar, report, worker_flags)
from cluster_faults import task_pids  # noqa: E402
from sync_replicas import (backup_job, check_backup_run,  # noqa: E402
                           compile_job)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e", "Inputs"))
from npyfiles import read_float32_vector  # noqa: E402

# Steps of a worker that runs until it is killed.
FOREVER = 1000000


def lose_worker(job, rng, victim, restart=None):
    """Once `victim` (a worker's process) has joined the chief, waits a
    moment drawn from `rng`, stops the chief, kills the victim, starts
    `restart` (task, flags, label) if given, and lets the chief go on."""
    task = "/job:worker/replica:0/task:%s" % victim.split("-")[1]
    joined = job.wait_for_line("worker-0", task + " joined")
    time.sleep(rng.uniform(0.02, 0.2))
    if job.processes["worker-0"].poll() is not None:
        # The chief has nothing left to stop: say why, in one line.
        last = (job.log(victim).strip().splitlines() or ["nothing"])[-1]
        sys.exit("lost_worker.py: the chief ended before %s could be killed "
                 "(%s joined: %s; %s's last line: %s)" % (victim, task, joined, victim, last))
    chief = job.processes["worker-0"].pid
    os.kill(chief, signal.SIGSTOP)
    try:
        os.kill(job.processes[victim].pid, signal.SIGKILL)
        job.processes[victim].wait()
        if restart:
            job.start(*restart)
        time.sleep(0.5)
    finally:
        os.kill(chief, signal.SIGCONT)
    return joined


def chief_lines(job, task):
    """What the chief said of `task`: its loss (before or after its own
    steps were done) and the job's end without it."""
    log = job.log("worker-0")
    lost = [line for line in log.splitlines()
            if task in line and "the job goes on without" in line]
    done = log.find("its steps are done")
    lost_at = log.find(lost[0]) if lost else -1
    return lost, 0 <= lost_at < done, [
        line.split(": ", 1)[1] for line in log.splitlines()
        if "the job went on without " + task in line]


def async_job(corpus, work):
    """ps_async_mlp compiled for worker=2,ps=1: the model's directory, its
    manifest, the programs' directory."""
    model = os.path.join(corpus, "ps_async_mlp")
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    programs = os.path.join(work, "async-job")
    compile_job(model, "graph.pbtxt", 2, programs)
    return model, manifest, programs


def start_backup_job(jobs, programs, work, label, backup, steps):
    """backup_job's job, in `jobs` (which the end kills), its ps and its
    workers started (the chief last)."""
    job, flags = backup_job(programs, work, label, backup, steps)
    jobs.append(job)
    job.start("ps-0")
    for worker in (2, 1, 0):
        job.start("worker-%d" % worker, flags[worker])
    return job, flags


def main():
    corpus, work, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    jobs = []
    try:
        # Asynchronous: worker 1 lost.
        model, manifest, programs = async_job(corpus, work)
        job = Job(programs, work, "async")
        jobs.append(job)
        checkpoints = os.path.join(job.work, "checkpoints")
        job.start("ps-0")
        job.start("worker-0", worker_flags(model, manifest, 0, 2000,
                                           os.path.join(job.work, "loss0.npy"),
                                           count=False) +
                  ["--checkpoint-dir", checkpoints])
        job.start("worker-1", worker_flags(model, manifest, 1, FOREVER,
                                           os.path.join(job.work, "loss1.npy"),
                                           count=False))
        print("async: worker 1 joined before the kill: %s" %
              lose_worker(job, rng, "worker-1"))
        report(job, job.finish())
        lost, early, ended = chief_lines(job, "/job:worker/replica:0/task:1")
        print("async: the chief says: " + (lost[0].split(": ", 1)[1] if lost else "nothing"))
        print("async: lost while the chief's steps were running: %s" % early)
        print("async: at the end: " + (ended[0] if ended else "nothing"))
        step = global_step_of(model, work, checkpoints, "async-probe")
        print("async: global_step counts the chief's 2000 steps: %s" % (step >= 2000))

        # Synchronous, 2 of 3: worker 2 lost.
        backup = os.path.join(corpus, "ps_sync_backup_linear")
        backup_manifest = json.load(open(os.path.join(backup, "manifest.json")))
        losses = read_float32_vector(
            os.path.join(backup, backup_manifest["step_losses"]))
        programs = os.path.join(work, "backup-job")
        compile_job(backup, "model.meta", 3, programs)
        steps = [500, 150, FOREVER]
        job, flags = start_backup_job(jobs, programs, work, "sync", backup, steps)
        print("sync: worker 2 joined before the kill: %s" %
              lose_worker(job, rng, "worker-2"))
        check_backup_run("sync", job, job.finish(), backup, work, losses,
                         (0, 1), steps)
        lost, early, ended = chief_lines(job, "/job:worker/replica:0/task:2")
        print("sync: the chief says: " + (lost[0].split(": ", 1)[1] if lost else "nothing"))
        print("sync: lost while the chief's steps were running: %s" % early)
        print("sync: at the end: " + (ended[0] if ended else "nothing"))

        # The same, and worker 2 started again. The chief runs enough steps
        # that the new process surely joins while it trains (more updates
        # than TensorFlow's trajectory has: the check is that it trains).
        steps = [3000, 1000, FOREVER]
        job, flags = start_backup_job(jobs, programs, work, "rejoined", backup,
                                      steps)
        again = [flag.replace("loss2.npy", "loss2-again.npy") for flag in flags[2]]
        again[again.index(str(FOREVER))] = "200"
        print("rejoined: worker 2 joined before the kill: %s" % lose_worker(
            job, rng, "worker-2", ("worker-2", again, "worker-2-again")))
        report(job, job.finish())
        log = job.log("worker-0")
        print("rejoined: the chief saw worker 2 join twice: %s" %
              (log.count("/job:worker/replica:0/task:2 joined") == 2))
        for name in ("loss0", "loss1", "loss2-again"):
            path = os.path.join(job.work, name + ".npy")
            trained = os.path.exists(path) and \
                read_scalar(path, "<f4", "<f") < losses[0]
            print("rejoined: %s below TensorFlow's first: %s" % (name, trained))

        # run-cluster starts the lost worker again.
        model, manifest, programs = async_job(corpus, work)
        launched = os.path.join(work, "launched")
        shutil.rmtree(launched, ignore_errors=True)
        os.makedirs(launched)
        for worker, files in enumerate(manifest["workers"]):
            for name, npy in zip("xy", files):
                shutil.copy(os.path.join(model, npy),
                            os.path.join(launched, "%s-%d.npy" % (name, worker)))
        log_path = os.path.join(launched, "run-cluster.log")
        with open(log_path, "wb") as log:
            launcher = subprocess.Popen(
                ["tfc", "run-cluster", programs, "--connect-timeout", "30",
                 "--health-interval", "0.2", "--max-restarts", "1",
                 "--steps", "2000",
                 "--input", "x:0=%s/x-{index}.npy" % launched,
                 "--input", "y:0=%s/y-{index}.npy" % launched,
                 "--output", "loss:0=%s/loss-{index}.npy" % launched],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.time() + TIMEOUT
            program = os.path.realpath(programs)

            def text():
                with open(log_path, "rb") as f:
                    return f.read().decode(errors="replace")

            while time.time() < deadline and launcher.poll() is None and \
                    "/job:worker/replica:0/task:1 joined" not in text():
                time.sleep(0.02)
            time.sleep(rng.uniform(0.02, 0.2))
            pids = task_pids(launcher.pid, program)
            os.kill(pids["worker-0"], signal.SIGSTOP)
            try:
                os.kill(pids["worker-1"], signal.SIGKILL)
                while time.time() < deadline and "starting it again" not in text():
                    time.sleep(0.02)
                time.sleep(0.3)
            finally:
                os.kill(pids["worker-0"], signal.SIGCONT)
            code = launcher.wait(max(1, deadline - time.time()))
        finally:
            if launcher.poll() is None:
                os.killpg(launcher.pid, signal.SIGKILL)
                launcher.wait()
        output = text()
        print("run-cluster: exit %s" % code)
        for line in output.splitlines():
            if line.startswith("[run-cluster]"):
                print("run-cluster: " + line)
        print("run-cluster: the chief saw worker 1 join twice: %s" %
              (output.count("/job:worker/replica:0/task:1 joined") == 2))
        if code != 0:
            print(output)
    finally:
        for job in jobs:
            job.kill()


if __name__ == "__main__":
    main()
