#!/usr/bin/env python3
"""Asynchronous parameter-server training (between-graph replication), tfc
against TensorFlow 2.21's own distributed runtime, in one run, on loopback.

    python bench/ps_train.py [--tfc build/bin/tfc] [--model mlp|cnn]
                             [--workers 2] [--steps 200] [--rounds 3]
                             [--batch 64] [--sync R] [--threads N]
                             [--work DIR]

The models, built by TF1's replica_device_setter for one ps task, trained
with SGD and a global_step: every step each worker reads every variable
from the ps and sends every gradient back.
  mlp  a classifier 256-512-512-10 (about 400k parameters, 1.6 MB of
       float32);
  cnn  bench/train.py's CNN: 32x32x3 images, Conv2D 3x3x32 + bias,
       FusedBatchNormV3 in training mode + ReLU, MaxPool 2x2, Conv2D
       3x3x64 + bias + ReLU, MaxPool 2x2, dense 10 (about 60k parameters). N workers and one ps, each its
own process on 127.0.0.1, every worker feeding its own batch:
  * tfc: `tfc compile --cluster worker=N,ps=1` (between-graph replication:
    each worker its own client) and `tfc run-cluster`; every worker's
    `--bench S` times S steps after warm-up, all workers at once.
  * TensorFlow: a `tf.distribute.Server` per task and, per worker, a client
    process with a `tf.compat.v1.Session("grpc://worker-k")` on the graph
    built for worker k; the chief initializes, then every client times S
    steps after warm-up, all at once.
With --sync R, the optimizer is SyncReplicasOptimizer taking R gradients
per update, without initial tokens (so that no worker runs ahead of an
update: each step waits for it): tfc finds its parts by itself;
TensorFlow's clients run what its session hook would (the chief's init
and the chief queue runner on a thread of the chief's client).
With --threads N, every task of both systems runs N threads (tfc's
`--threads`; each TensorFlow server's intra- and inter-op pools): with
all the tasks on one machine, one thread each keeps the workers from
taking each other's cores. Each worker's median step time gives its rate; the job's rate is their
sum. Prints a markdown table of the medians over --rounds rounds
(alternating tfc and TensorFlow, fresh processes each round) and the
ratio. All the processes share the machine's cores: on a 2-core machine
the figures move by 30% from run to run.

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from cluster import stop, tf_servers, tfc_bench_medians  # noqa: E402  (this directory's)

HIDDEN = 512
INPUTS = 256
CLASSES = 10


# Builds worker k's graph (the same in the benchmark and in TensorFlow's
# client processes): print(graph_def) of build(tf, k, batch).
BUILD = """
def input_shape(model, batch):
    return [batch, INPUTS] if model == "mlp" else [batch, 32, 32, 3]


def mlp(tf, tf1, x):
    h = x
    for i, width in enumerate([HIDDEN, HIDDEN, CLASSES]):
        w = tf1.get_variable("w%d" % i, [h.shape[1], width],
                             use_resource=False)
        b = tf1.get_variable("b%d" % i, [width], use_resource=False,
                             initializer=tf1.zeros_initializer())
        h = tf.nn.bias_add(tf.matmul(h, w), b)
        if width != CLASSES:
            h = tf.nn.relu(h)
    return h


def cnn(tf, tf1, x):
    def variable(name, shape, init=None):
        return tf1.get_variable(name, shape, use_resource=False,
                                initializer=init)

    def conv(h, name, channels):
        k = variable(name + "/kernel", [3, 3, h.shape[3], channels])
        b = variable(name + "/bias", [channels], tf1.zeros_initializer())
        return tf.nn.bias_add(tf.nn.conv2d(h, k, 1, "SAME"), b)
    h = conv(x, "conv1", 32)
    gamma = variable("bn/gamma", [32], tf1.ones_initializer())
    beta = variable("bn/beta", [32], tf1.zeros_initializer())
    h, _, _ = tf1.nn.fused_batch_norm(h, gamma, beta, is_training=True)
    h = tf.nn.max_pool2d(tf.nn.relu(h), 2, 2, "VALID")
    h = tf.nn.max_pool2d(tf.nn.relu(conv(h, "conv2", 64)), 2, 2, "VALID")
    h = tf.reshape(h, [-1, 8 * 8 * 64])
    w = variable("dense/kernel", [8 * 8 * 64, CLASSES])
    b = variable("dense/bias", [CLASSES], tf1.zeros_initializer())
    return tf.nn.bias_add(tf.matmul(h, w), b)


def build(tf, worker, batch, sync=0, workers=1, model="mlp"):
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        tf1.set_random_seed(7)
        with tf1.device(tf1.train.replica_device_setter(
                ps_tasks=1, worker_device="/job:worker/task:%d" % worker)):
            step = tf1.train.get_or_create_global_step()
            x = tf1.placeholder(tf.float32, input_shape(model, batch), name="x")
            labels = tf1.placeholder(tf.int32, [batch], name="labels")
            h = {"mlp": mlp, "cnn": cnn}[model](tf, tf1, x)
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=labels, logits=h), name="loss")
            optimizer = tf1.train.GradientDescentOptimizer(0.01)
            if sync:
                optimizer = tf1.train.SyncReplicasOptimizer(
                    optimizer, replicas_to_aggregate=sync,
                    total_num_replicas=workers)
            tf.group(optimizer.minimize(loss, global_step=step),
                     name="train_op")
            tf.group(tf1.global_variables_initializer(), name="init")
            if sync:
                # What the optimizer's session hook runs.
                graph.sync_parts = (optimizer.local_step_init_op,
                                    optimizer.chief_init_op,
                                    optimizer.get_init_tokens_op(0),
                                    optimizer.get_chief_queue_runner())
    return graph
""".replace("INPUTS", str(INPUTS)).replace("HIDDEN", str(HIDDEN)).replace(
    "CLASSES", str(CLASSES))


# A TensorFlow worker's client: initializes (the chief) or waits for the
# chief's marker file, then times its steps; prints the median in seconds.
CLIENT = BUILD + """
import os, statistics, sys, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import numpy as np
import tensorflow as tf
target, worker, batch, steps, ready = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
sync, workers, model = int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
graph = build(tf, worker, batch, sync, workers, model)
coordinator = tf.compat.v1.train.Coordinator()
rng = np.random.default_rng(worker)
feed = {"x:0": rng.standard_normal(input_shape(model, batch)).astype(np.float32),
        "labels:0": rng.integers(0, %d, batch).astype(np.int32)}
with tf.compat.v1.Session(target, graph=graph) as session:
    if worker == 0:
        session.run("init")
        if sync:
            # The hook's chief: its init, the initial tokens, the runner.
            local_init, chief_init, tokens, runner = graph.sync_parts
            session.run(chief_init)
            session.run(tokens)
            threads = runner.create_threads(session, coord=coordinator,
                                            daemon=True, start=True)
        open(ready, "w").close()
    else:
        while not os.path.exists(ready):
            time.sleep(0.01)
        if sync:
            session.run(graph.sync_parts[0])
    for _ in range(min(steps, 10)):
        session.run(["loss:0", "train_op"], feed)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        session.run(["loss:0", "train_op"], feed)
        times.append(time.perf_counter() - start)
    if sync and worker == 0:
        # The others' last steps need their tokens before the runner stops.
        time.sleep(2)
        coordinator.request_stop()
print(statistics.median(times), flush=True)
os._exit(0)
""" % CLASSES

def time_tf(workers, batch, steps, work, sync, model, threads):
    ready = os.path.join(work, "tf-ready")
    if os.path.exists(ready):
        os.remove(ready)
    cluster, servers = tf_servers(workers, 1, threads)
    try:
        clients = [subprocess.Popen(
            [sys.executable, "-c", CLIENT, "grpc://" + cluster["worker"][k], str(k),
             str(batch), str(steps), ready, str(sync), str(workers), model],
            stdout=subprocess.PIPE, text=True)
            for k in range(workers)]
        medians = []
        for client in clients:
            out, _ = client.communicate(timeout=900)
            if client.returncode != 0:
                sys.exit("TensorFlow client failed")
            medians.append(float(out.strip().splitlines()[-1]))
        return medians
    finally:
        stop(servers)


def time_tfc(tfc, program, workers, steps, work, threads):
    return tfc_bench_medians(tfc, program, workers, steps,
                             ["--input", "x:0=%s/x-{index}.npy" % work,
                              "--input", "labels:0=%s/labels-{index}.npy" % work] +
                             (["--threads", str(threads)] if threads else []))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", default="build/bin/tfc")
    parser.add_argument("--model", choices=["mlp", "cnn"], default="mlp")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--sync", type=int, default=0, metavar="R",
                        help="synchronous replicas: SyncReplicasOptimizer "
                             "taking R gradients per update")
    parser.add_argument("--threads", type=int, default=0, metavar="N",
                        help="threads of every task, tfc's and TensorFlow's "
                             "(intra- and inter-op pools); 0 leaves each its "
                             "default (all the cores)")
    parser.add_argument("--work")
    args = parser.parse_args()
    import numpy as np
    import tensorflow as tf

    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="tfc-bench-ps-"))
    os.makedirs(work, exist_ok=True)
    tfc = os.path.abspath(args.tfc)
    scope = {}
    exec(BUILD, scope)
    graph = scope["build"](tf, 0, args.batch, args.sync, args.workers,
                           args.model)
    path = os.path.join(work, "worker0.pbtxt")
    with open(path, "w") as f:
        f.write(str(graph.as_graph_def()))
    for k in range(args.workers):
        rng = np.random.default_rng(k)
        np.save(os.path.join(work, "x-%d.npy" % k),
                rng.standard_normal(scope["input_shape"](args.model, args.batch))
                .astype(np.float32))
        np.save(os.path.join(work, "labels-%d.npy" % k),
                rng.integers(0, CLASSES, args.batch).astype(np.int32))
    program = os.path.join(work, "tfc-job")
    subprocess.run([tfc, "compile", path, "--feed", "x", "--feed", "labels",
                    "--fetch", "loss", "--target", "train_op", "--init", "init",
                    "--cluster", "worker=%d,ps=1" % args.workers, "-o", program],
                   check=True)
    ours, theirs = [], []
    for _ in range(args.rounds):
        ours.append(time_tfc(tfc, program, args.workers, args.steps, work,
                             args.threads))
        theirs.append(time_tf(args.workers, args.batch, args.steps, work,
                              args.sync, args.model, args.threads))

    def rate(rounds):
        # Steps per second of the job: each round's sum over workers.
        return statistics.median(sum(1 / m for m in medians) for medians in rounds)

    def step(rounds):
        return statistics.median(statistics.median(medians) for medians in rounds)

    print("| model | workers | training | batch | threads | tfc step | "
          "TensorFlow step | tfc steps/s | TensorFlow steps/s | speedup |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    a, b = rate(ours), rate(theirs)
    mode = ("sync, %d of %d" % (args.sync, args.workers) if args.sync
            else "async")
    print("| %s | %d | %s | %d | %s | %.2f ms | %.2f ms | %.0f | %.0f | %.2fx |" % (
        args.model, args.workers, mode, args.batch,
        args.threads or "default", step(ours) * 1e3, step(theirs) * 1e3,
        a, b, a / b))


if __name__ == "__main__":
    main()
