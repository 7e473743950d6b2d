"""Between-graph replication of the corpus model ps_async_mlp (TF1's
replica_device_setter over one ps task): compiled with --cluster
worker=2,ps=1, every worker runs worker 0's graph as its own client with its
own flags, and ps-0 serves the steps of both. Each task is a real process
on 127.0.0.1, ports picked free at run time. Prints for FileCheck:

  sequential: worker 0 runs its 3 steps, then worker 1 starts and runs its
  3: each worker's last loss must match TensorFlow's for that step of one
  session running worker 0's steps then worker 1's (rtol 1e-5), and each
  worker's count of its steps, a local variable its --local-init entry
  sets to 0, TensorFlow's (3);

  concurrent: both workers run 40 steps at once (asynchronous training);
  each counts its own 40; the chief's last checkpoint, written when both
  are done, must hold global_step 80 (every increment counted), read back
  by a program that restores it;

  run-cluster: the launcher gives each worker its own flags ("{index}"),
  the checkpoint flags only to the chief;

  failing: worker 1 refuses its input; the chief names it and fails.

  checkpoint flag: worker 1 given --checkpoint-dir refuses it, naming the
  chief as the one to give it to; the chief names worker 1 and fails.

  never joined: worker 1 never starts; once the chief's steps are done it
  waits --connect-timeout for it, then names it and ends the job (138).

Then the corpus model ps_shared_queue, whose input queues and their queue
runners are on the ps, shared by the workers' steps:

  queue sequential: worker 0 runs 3 steps, then worker 1 runs until the
  input ends (a dequeue on the ps from a closed queue ends its run of
  steps): worker 1 runs the 5 steps left, and each worker's last loss
  matches TensorFlow's for that step of the steps in order;

  queue concurrent: both workers run until the input ends; the 8 steps
  there are are shared between them (global_step 8 in the last
  checkpoint).

Then ps_embedding_mod, a table sharded over two ps tasks:

  embedding: worker 0 runs 2 steps, then worker 1 runs 2 on the same
  batch: their last losses are TensorFlow's for steps 1 and 3 of 4.

(Synchronous replicas: sync_replicas.py; a worker lost mid-training:
lost_worker.py.)

usage: between_graph.py CORPUS WORKDIR

Every process is bounded in time and killed at the end, whatever happens.
"""
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "e2e", "Inputs"))
from npyfiles import compare, read_float32_vector, write_float32_scalar  # noqa: E402
from corpus_cluster import run  # noqa: E402
from ports import free_port  # noqa: E402  (this directory's)

TIMEOUT = 120  # seconds a job may take
STEPS = 40


def read_scalar(path, descr, code):
    """The value of a 0-d .npy file of type `descr` (struct's `code`)."""
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<H", data[8:10])
    header = data[10:10 + length].decode("latin1")
    assert descr in header and "'shape': ()" in header, (path, header)
    return struct.unpack(code, data[10 + length:10 + length + struct.calcsize(code)])[0]


class Job:
    """The tasks of one run, each a process with its stderr in a file."""

    def __init__(self, programs, work, name, workers=2, ps=1):
        self.programs = programs
        self.work = os.path.join(work, name)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.cluster = os.path.join(self.work, "cluster.json")
        with open(self.cluster, "w") as f:
            json.dump({"worker": ["127.0.0.1:%d" % free_port()
                                  for _ in range(workers)],
                       "ps": ["127.0.0.1:%d" % free_port() for _ in range(ps)]},
                      f)
        self.processes = {}
        self.deadline = time.time() + TIMEOUT
        self.env = dict(os.environ)
        self.env.pop("TF_CONFIG", None)

    def start(self, task, flags=(), label=None):
        """Starts the executable of `task`; `label` (default: the task)
        names its process and log (a second process of a task)."""
        label = label or task
        log = open(os.path.join(self.work, label + ".log"), "wb")
        self.processes[label] = subprocess.Popen(
            [os.path.join(self.programs, task), "--cluster", self.cluster,
             "--connect-timeout", "30", "--health-interval", "0.2",
             "--health-timeout", "5"] + list(flags),
            stdout=log, stderr=subprocess.STDOUT, env=self.env,
            start_new_session=True)

    def log(self, task):
        with open(os.path.join(self.work, task + ".log"), "rb") as f:
            return f.read().decode(errors="replace")

    def wait_for_line(self, task, text):
        while time.time() < self.deadline:
            if text in self.log(task):
                return True
            if self.processes[task].poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def finish(self):
        """Every task's exit status (None: killed when time ran out)."""
        statuses = {}
        for task, process in self.processes.items():
            try:
                statuses[task] = process.wait(max(0.1, self.deadline - time.time()))
            except subprocess.TimeoutExpired:
                statuses[task] = None
        self.kill()
        return statuses

    def kill(self):
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def worker_flags(model, manifest, worker, steps, output, count=True):
    """A worker's flags: its steps and inputs (the manifest's feeds, from
    the worker's files), its last loss to `output`
    and, with `count`, the count of its steps (a local variable) beside
    it."""
    flags = ["--steps", str(steps)]
    for feed, npy in zip(manifest["feeds"], manifest["workers"][worker]):
        flags += ["--input", feed["tensor"] + "=" + os.path.join(model, npy)]
    flags += ["--output", "loss:0=" + output]
    if count:
        flags += ["--output",
                  "local_count:0=" + output.replace(".npy", "-count.npy")]
    return flags


def compare_loss(job, worker, output, value):
    """npy-compare's verdict on a worker's loss at `output` against
    TensorFlow's `value` (rtol 1e-5, atol 1e-6): (status, line)."""
    want = os.path.join(job.work, "want%d.npy" % worker)
    write_float32_scalar(want, value)
    return compare(output, want, "1e-5", "1e-6")


def run_workers_at_once(job, flags, checkpoints):
    """Starts the job's ps task, then every worker with its `flags[k]`
    (the last first, so that the others wait for the chief), the chief
    saving to `checkpoints`; waits for all and prints their exits."""
    job.start("ps-0")
    for worker in reversed(range(len(flags))):
        extra = ["--checkpoint-dir", checkpoints] if worker == 0 else []
        job.start("worker-%d" % worker, flags[worker] + extra)
    report(job, job.finish())


def finish_failing(label, job, task):
    """Waits for the job, prints every task's exit status, and returns the
    last error line of `task`."""
    statuses = job.finish()
    for name in sorted(statuses):
        print("%s: %s exit %s" % (label, name, statuses[name]))
    return [line for line in job.log(task).splitlines() if "error" in line][-1]


def report(job, statuses):
    for task in sorted(statuses):
        print("%s exit %s" % (task, statuses[task]))
        if statuses[task] != 0:
            print("  " + job.log(task).strip().replace("\n", "\n  "))


def main():
    corpus, work = sys.argv[1:3]
    model = os.path.join(corpus, "ps_async_mlp")
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    os.makedirs(work, exist_ok=True)
    programs = os.path.join(work, "job")
    shutil.rmtree(programs, ignore_errors=True)
    code, text = run(["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                      "--feed", "x", "--feed", "y", "--fetch", "loss",
                      "--fetch", "local_count", "--local-init", "local_init",
                      "--target", "train_op", "--init", "init",
                      "--cluster", "worker=2,ps=1", "-o", programs], 300)
    if code != 0:
        sys.exit("compile failed (%d): %s" % (code, text))
    print("programs: " + " ".join(sorted(os.listdir(programs))))
    losses = read_float32_vector(os.path.join(model, manifest["step_losses"]))
    steps = manifest["steps"]
    status = 0
    jobs = []
    try:
        # Worker 1 starts once worker 0's steps are done.
        job = Job(programs, work, "sequential")
        jobs.append(job)
        outputs = [os.path.join(job.work, "loss%d.npy" % w) for w in range(2)]
        job.start("ps-0")
        job.start("worker-0", worker_flags(model, manifest, 0, steps, outputs[0]))
        print("sequential: worker 0 done first: %s" %
              job.wait_for_line("worker-0", "its steps are done"))
        job.start("worker-1", worker_flags(model, manifest, 1, steps, outputs[1]))
        statuses = job.finish()
        report(job, statuses)
        for worker, step in ((0, steps - 1), (1, 2 * steps - 1)):
            code, line = compare_loss(job, worker, outputs[worker], losses[step])
            status |= code
            print("sequential: worker %d loss of step %d: %s" % (worker, step, line))
            # Each worker counts its own steps, from its own local init.
            code, line = compare(outputs[worker].replace(".npy", "-count.npy"),
                                 os.path.join(model, "outputs", "1.npy"), "0", "0")
            status |= code
            print("sequential: worker %d local count: %s" % (worker, line))

        # Both workers at once; the chief's last checkpoint comes after both.
        job = Job(programs, work, "concurrent")
        jobs.append(job)
        checkpoints = os.path.join(job.work, "checkpoints")
        run_workers_at_once(job, [
            worker_flags(model, manifest, worker, STEPS,
                         os.path.join(job.work, "loss%d.npy" % worker))
            for worker in range(2)], checkpoints)
        # Each worker's last loss is below the first TensorFlow's sequential
        # run gives on its data (worker 1's: after worker 0's 3 steps).
        for worker in range(2):
            loss = read_scalar(os.path.join(job.work, "loss%d.npy" % worker), "<f4", "<f")
            print("concurrent: worker %d trained: %s" %
                  (worker, loss < losses[worker * steps]))
            print("concurrent: worker %d counted %d" % (worker, read_scalar(
                os.path.join(job.work, "loss%d-count.npy" % worker), "<i8", "<q")))
        print("concurrent: global_step %d" %
              global_step_of(model, work, checkpoints, "probe"))

        # tfc run-cluster: the program flags go to every worker, "{index}"
        # its index; the checkpoint flags to the chief.
        launched = os.path.join(work, "launched")
        shutil.rmtree(launched, ignore_errors=True)
        os.makedirs(launched)
        for worker, files in enumerate(manifest["workers"]):
            for name, npy in zip("xy", files):
                shutil.copy(os.path.join(model, npy),
                            os.path.join(launched, "%s-%d.npy" % (name, worker)))
        code, text = run(["tfc", "run-cluster", programs, "--connect-timeout", "30",
                          "--steps", "5",
                          "--input", "x:0=%s/x-{index}.npy" % launched,
                          "--input", "y:0=%s/y-{index}.npy" % launched,
                          "--output", "loss:0=%s/loss-{index}.npy" % launched,
                          "--checkpoint-dir", os.path.join(launched, "checkpoints")],
                         TIMEOUT)
        print("run-cluster: exit %d" % code)
        if code != 0:
            print(text)
        print("run-cluster: " + " ".join(sorted(
            f for f in os.listdir(launched) if f.startswith("loss"))))
        print("run-cluster: checkpoint " + " ".join(sorted(
            f for f in os.listdir(os.path.join(launched, "checkpoints"))
            if f.startswith("model.ckpt-5"))))

        # Worker 1's input has the wrong shape.
        job = Job(programs, work, "failing")
        jobs.append(job)
        job.start("ps-0")
        job.start("worker-0", worker_flags(model, manifest, 0, steps,
                                           os.path.join(job.work, "loss0.npy")))
        job.start("worker-1", ["--steps", "1", "--input",
                               "x:0=" + os.path.join(model, "inputs", "1.npy"),
                               "--input", "y:0=" + os.path.join(model, "inputs", "1.npy")])
        print("failing: chief says: " + finish_failing("failing", job, "worker-0"))
        # A worker other than the chief given a checkpoint flag refuses it
        # (the chief saves and restores the job's variables).
        job = Job(programs, work, "checkpoint-flag")
        jobs.append(job)
        job.start("ps-0")
        job.start("worker-0", worker_flags(model, manifest, 0, steps,
                                           os.path.join(job.work, "loss0.npy")))
        job.start("worker-1", worker_flags(model, manifest, 1, steps,
                                           os.path.join(job.work, "loss1.npy")) +
                  ["--checkpoint-dir", os.path.join(job.work, "checkpoints")])
        print("checkpoint flag: worker 1 says: " + finish_failing("checkpoint flag", job, "worker-1"))

        # A worker that never joins: once its steps are done, the chief
        # waits --connect-timeout for it, then names it and ends the job.
        job = Job(programs, work, "never-joined")
        jobs.append(job)
        job.start("ps-0")
        job.start("worker-0", worker_flags(model, manifest, 0, steps,
                                           os.path.join(job.work, "loss0.npy")) +
                  ["--connect-timeout", "1"])
        print("never joined: chief says: " + finish_failing("never joined", job, "worker-0"))
        status |= shared_queue(corpus, work, jobs)
        status |= sharded_embedding(corpus, work, jobs)
    finally:
        for job in jobs:
            job.kill()
    sys.exit(status)


def restored_values(model, work, checkpoints, name, fetches, inputs=()):
    """The values of `fetches` (tensor name, .npy descr, struct code) after
    one step of a program of the same graph that restores a copy of the
    latest checkpoint of `checkpoints`, fed `inputs` (TENSOR=FILE)."""
    probe = os.path.join(work, name)
    shutil.rmtree(probe, ignore_errors=True)
    compile_flags = []
    for tensor, _, _ in fetches:
        compile_flags += ["--fetch", tensor.split(":")[0]]
    for flag in inputs:
        compile_flags += ["--feed", flag.split(":")[0]]
    code, text = run(["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                      "--init", "init", "--cluster", "worker=1,ps=1",
                      "-o", probe] + compile_flags, 300)
    if code != 0:
        sys.exit("probe compile failed (%d): %s" % (code, text))
    copy = os.path.join(probe, "checkpoints")
    shutil.copytree(checkpoints, copy)
    flags = []
    for flag in inputs:
        flags += ["--input", flag]
    for i, (tensor, _, _) in enumerate(fetches):
        flags += ["--output", "%s=%s/%d.npy" % (tensor, probe, i)]
    code, text = run(["tfc", "run-cluster", probe, "--connect-timeout", "30",
                      "--checkpoint-dir", copy, "--restore", "--steps", "1"]
                     + flags, TIMEOUT)
    if code != 0:
        sys.exit("probe failed (%d): %s" % (code, text))
    return [read_scalar("%s/%d.npy" % (probe, i), descr, code)
            for i, (_, descr, code) in enumerate(fetches)]


def global_step_of(model, work, checkpoints, name):
    """global_step in the latest checkpoint of `checkpoints`."""
    return restored_values(model, work, checkpoints, name, [
        ("global_step/Read/ReadVariableOp:0", "<i8", "<q")])[0]


def sharded_embedding(corpus, work, jobs):
    """ps_embedding_mod's table over two ps tasks, between-graph: worker 0
    runs 2 steps, then worker 1 runs 2 on the same batch; their last losses
    are TensorFlow's for steps 1 and 3 of one run of 4."""
    model = os.path.join(corpus, "ps_embedding_mod")
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    programs = os.path.join(work, "embedding-job")
    shutil.rmtree(programs, ignore_errors=True)
    code, text = run(["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                      "--feed", "ids", "--feed", "y", "--fetch", "loss",
                      "--target", "train_op", "--init", "init",
                      "--cluster", "worker=2,ps=2", "-o", programs], 300)
    if code != 0:
        sys.exit("compile failed (%d): %s" % (code, text))
    losses = read_float32_vector(os.path.join(model, manifest["step_losses"]))
    job = Job(programs, work, "embedding", ps=2)
    jobs.append(job)
    outputs = [os.path.join(job.work, "loss%d.npy" % w) for w in range(2)]
    flags = ["--steps", "2"]
    for feed in manifest["feeds"]:
        flags += ["--input", "%s=%s" % (feed["tensor"],
                                        os.path.join(model, feed["npy"]))]
    job.start("ps-0")
    job.start("ps-1")
    job.start("worker-0", flags + ["--output", "loss:0=" + outputs[0]])
    print("embedding: worker 0 done first: %s" %
          job.wait_for_line("worker-0", "its steps are done"))
    job.start("worker-1", flags + ["--output", "loss:0=" + outputs[1]])
    statuses = job.finish()
    report(job, statuses)
    status = 0
    for worker, step in ((0, 1), (1, 3)):
        code, line = compare_loss(job, worker, outputs[worker], losses[step])
        status |= code
        print("embedding: worker %d loss of step %d: %s" % (worker, step, line))
    return status


def shared_queue(corpus, work, jobs):
    model = os.path.join(corpus, "ps_shared_queue")
    manifest = json.load(open(os.path.join(model, "manifest.json")))
    programs = os.path.join(work, "queue-job")
    shutil.rmtree(programs, ignore_errors=True)
    runners = []
    for nodes in manifest["queue_runners"]:
        runners += ["--queue-runner", ",".join(nodes)]
    code, text = run(["tfc", "compile", os.path.join(model, "graph.pbtxt"),
                      "--fetch", "loss", "--target", "train_op", "--init", "init",
                      "--cluster", "worker=2,ps=1", "-o", programs] + runners, 300)
    if code != 0:
        sys.exit("compile failed (%d): %s" % (code, text))
    losses = read_float32_vector(os.path.join(model, manifest["step_losses"]))
    status = 0

    job = Job(programs, work, "queue-sequential")
    jobs.append(job)
    outputs = [os.path.join(job.work, "loss%d.npy" % w) for w in range(2)]
    job.start("ps-0")
    job.start("worker-0", ["--steps", "3", "--output", "loss:0=" + outputs[0]])
    print("queue sequential: worker 0 done first: %s" %
          job.wait_for_line("worker-0", "its steps are done"))
    job.start("worker-1", ["--steps", "100", "--output", "loss:0=" + outputs[1]])
    statuses = job.finish()
    report(job, statuses)
    print("queue sequential: worker 1 says: " +
          [line for line in job.log("worker-1").splitlines()
           if "input ended" in line][-1])
    for worker, step in ((0, 2), (1, len(losses) - 1)):
        code, line = compare_loss(job, worker, outputs[worker], losses[step])
        status |= code
        print("queue sequential: worker %d loss of step %d: %s" % (worker, step, line))

    job = Job(programs, work, "queue-concurrent")
    jobs.append(job)
    checkpoints = os.path.join(job.work, "checkpoints")
    job.start("ps-0")
    job.start("worker-1", ["--steps", "100"])
    job.start("worker-0", ["--steps", "100", "--checkpoint-dir", checkpoints])
    statuses = job.finish()
    report(job, statuses)
    for worker in range(2):
        print("queue concurrent: worker %d input ended: %s" % (
            worker, "input ended after" in job.log("worker-%d" % worker)))
    print("queue concurrent: global_step %d" %
          global_step_of(model, work, checkpoints, "queue-probe"))
    return status


if __name__ == "__main__":
    main()
