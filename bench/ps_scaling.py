#!/usr/bin/env python3
"""OSDI Figure 7 in miniature: steps per second of synthetic parameter-server
steps against the number of workers and ps tasks, tfc and TensorFlow 2.21's
distributed runtime side by side, in one run, on loopback.

    python bench/ps_scaling.py [--tfc build/bin/tfc] [--kinds null,dense,sparse]
                               [--workers 1,2,4] [--ps 1,2] [--steps 50]
                               [--rounds 2] [--dense-mb 100] [--sparse-mb 256]
                               [--link RATE,DELAY] [--work DIR]

The three steps of the paper's figure, each a graph built for worker 0 by
TF1's replica_device_setter over P ps tasks and run by W workers at once
(between-graph replication, each worker its own client):
  null    each worker fetches a scalar variable from every ps task;
  dense   each worker fetches --dense-mb of variables (one per ps task,
          split evenly) and takes their first elements;
  sparse  each worker gathers 32 rows (random, fixed per run) of a
          --sparse-mb embedding of 64 floats a row, partitioned over the
          ps tasks (fixed_size_partitioner), and sums them.
tfc: `tfc compile --cluster worker=W,ps=P` and `tfc run-cluster --bench S`
(every worker times S steps after warm-up). TensorFlow: a
`tf.distribute.Server` per task and, per worker, a client process with a
`tf.compat.v1.Session` on the graph built for that worker, all timing S
steps at once. The job's rate is the sum over workers of 1 / median step.
Prints the processor, then a markdown table per step kind: the median
rate over --rounds rounds (alternating tfc and TensorFlow, fresh
processes each round) and the ratio. On a 2-core machine every task
shares the same cores: this shows the systems' overheads, not scaling.

--link RATE,DELAY (root only; e.g. 1gbit,1ms) runs every task on a test
host of its own instead of loopback: a network namespace per task on one
bridge, each host's link shaped by `tc netem` to RATE and DELAY (or by
`tc tbf` to RATE alone where the kernel has no netem; the output says
which). Then the network, not the processes, bounds the steps: the
paper's communication-bound regime. (tfc's tasks then talk TCP over the
links, as between machines; none is local to another.)

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from cluster import SERVER, TestHosts, stop, tf_servers, tfc_bench_medians  # noqa: E402  (this directory's)
import machine  # noqa: E402

ROWS_GATHERED = 32
WIDTH = 64  # floats per embedding row

# Builds worker k's graph: build(tf, kind, ps, worker, dense_floats, rows).
BUILD = """
def build(tf, kind, ps, worker, dense_floats, rows):
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        with tf1.device(tf1.train.replica_device_setter(
                ps_tasks=ps, worker_device="/job:worker/task:%d" % worker)):
            zeros = tf1.zeros_initializer()
            if kind == "null":
                parts = [tf1.get_variable("v%d" % k, [], initializer=zeros,
                                          use_resource=False)
                         for k in range(ps)]
                out = tf.add_n([tf.identity(v) for v in parts])
            elif kind == "dense":
                parts = [tf1.get_variable("v%d" % k, [dense_floats // ps],
                                          initializer=zeros, use_resource=False)
                         for k in range(ps)]
                out = tf.add_n([tf.slice(tf.identity(v), [0], [1]) for v in parts])
            else:
                table = tf1.get_variable(
                    "emb", [rows, WIDTH], initializer=zeros, use_resource=False,
                    partitioner=tf1.fixed_size_partitioner(ps))
                ids = tf1.placeholder(tf.int64, [ROWS], name="ids")
                out = tf.reduce_sum(tf1.nn.embedding_lookup(table, ids))
            tf.identity(out, name="out")
            tf.group(tf1.global_variables_initializer(), name="init")
    return graph
""".replace("WIDTH", str(WIDTH)).replace("ROWS", str(ROWS_GATHERED))

# A TensorFlow worker's client: the chief initializes, the others wait for
# its marker file; each times its steps and prints the median in seconds.
CLIENT = BUILD + """
import os, statistics, sys, time
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import numpy as np
import tensorflow as tf
(target, kind, ps, worker, dense_floats, rows, steps, ready,
 ids_path) = sys.argv[1:10]
ps, worker, dense_floats, rows, steps = (int(ps), int(worker),
                                         int(dense_floats), int(rows), int(steps))
graph = build(tf, kind, ps, worker, dense_floats, rows)
feed = {"ids:0": np.load(ids_path)} if kind == "sparse" else {}
with tf.compat.v1.Session(target, graph=graph) as session:
    if worker == 0:
        session.run("init")
        open(ready, "w").close()
    else:
        while not os.path.exists(ready):
            time.sleep(0.01)
    for _ in range(min(steps, 10)):
        session.run("out:0", feed)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        session.run("out:0", feed)
        times.append(time.perf_counter() - start)
print(statistics.median(times), flush=True)
os._exit(0)
"""

def time_tf(kind, ps, workers, dense_floats, rows, steps, work):
    """Each worker's median step time, in seconds."""
    cluster, servers = tf_servers(workers, ps)
    try:
        return tf_clients(
            lambda k, args: subprocess.Popen(args, stdout=subprocess.PIPE, text=True),
            kind, ps, workers, dense_floats, rows, steps, work, cluster["worker"])
    finally:
        stop(servers)


def tf_clients(start, kind, ps, workers, dense_floats, rows, steps, work, targets):
    """Runs a TensorFlow client per worker (start(k, args) starts worker
    k's): each worker's median step time, in seconds."""
    ready = os.path.join(work, "tf-ready")
    if os.path.exists(ready):
        os.remove(ready)
    clients = []
    try:
        for k in range(workers):
            clients.append(start(k, [
                sys.executable, "-c", CLIENT, "grpc://" + targets[k], kind, str(ps),
                str(k), str(dense_floats), str(rows), str(steps), ready,
                os.path.join(work, "ids.npy")]))
        medians = []
        for client in clients:
            out, _ = client.communicate(timeout=900)
            if client.returncode != 0:
                sys.exit("a TensorFlow client failed")
            medians.append(float(out.strip().splitlines()[-1]))
        return medians
    finally:
        stop(clients)


def cluster_on(hosts, workers, ps, port):
    return {"worker": ["%s:%d" % (hosts.address("worker-%d" % k), port)
                       for k in range(workers)],
            "ps": ["%s:%d" % (hosts.address("ps-%d" % k), port) for k in range(ps)]}


def time_tf_on_hosts(hosts, port, kind, ps, workers, dense_floats, rows, steps, work):
    """time_tf with each task on its test host."""
    cluster = cluster_on(hosts, workers, ps, port)
    spec = json.dumps(cluster)
    servers = [hosts.popen("%s-%d" % (job, k),
                           [sys.executable, "-c", SERVER, spec, job, str(k)])
               for job, count in (("ps", ps), ("worker", workers))
               for k in range(count)]
    try:
        return tf_clients(
            lambda k, args: hosts.popen("worker-%d" % k, args, stdout=subprocess.PIPE,
                                        text=True),
            kind, ps, workers, dense_floats, rows, steps, work, cluster["worker"])
    finally:
        stop(servers)


def time_tfc_on_hosts(hosts, port, program, kind, ps, workers, steps, work):
    """time_tfc with each task's program on its test host."""
    path = os.path.join(work, "hosts-cluster.json")
    with open(path, "w") as f:
        json.dump(cluster_on(hosts, workers, ps, port), f)
    common = ["--cluster", path, "--connect-timeout", "120"]
    flags = ["--steps", "1", "--bench", str(steps)]
    if kind == "sparse":
        flags += ["--input", "ids:0=%s/ids.npy" % work]
    tasks = [("ps-%d" % k, common) for k in range(ps)] + \
            [("worker-%d" % k, common + flags) for k in range(workers)]
    processes = [hosts.popen(task, [os.path.join(program, task)] + task_flags,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
                 for task, task_flags in tasks]
    try:
        outputs = [process.communicate(timeout=900)[0] for process in processes]
    finally:
        stop(processes)
    medians = [float(m) * 1e-6 for text in outputs[ps:]
               for m in re.findall(r"bench: .*median ([0-9.]+) us", text)]
    if any(p.returncode != 0 for p in processes) or len(medians) != workers:
        sys.exit("tfc run failed: " + "".join(outputs))
    return medians


def time_tfc(tfc, program, kind, workers, steps, work):
    """Each worker's median step time, in seconds."""
    return tfc_bench_medians(
        tfc, program, workers, steps,
        ["--input", "ids:0=%s/ids.npy" % work] if kind == "sparse" else [])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", default="build/bin/tfc")
    parser.add_argument("--kinds", default="null,dense,sparse")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--ps", default="1,2")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--dense-mb", type=float, default=100)
    parser.add_argument("--sparse-mb", type=float, default=256)
    parser.add_argument("--link", help="RATE,DELAY: each task on a test host "
                        "whose link tc shapes so (root only), e.g. 1gbit,1ms")
    parser.add_argument("--work")
    args = parser.parse_args()
    import numpy as np
    import tensorflow as tf

    kinds = args.kinds.split(",")
    worker_counts = [int(w) for w in args.workers.split(",")]
    ps_counts = [int(p) for p in args.ps.split(",")]
    dense_floats = int(args.dense_mb * (1 << 20) / 4)
    rows = int(args.sparse_mb * (1 << 20) / (4 * WIDTH))
    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="tfc-bench-scaling-"))
    os.makedirs(work, exist_ok=True)
    tfc = os.path.abspath(args.tfc)
    np.save(os.path.join(work, "ids.npy"),
            np.random.default_rng(7).integers(0, rows, ROWS_GATHERED).astype(np.int64))
    scope = {}
    exec(BUILD, scope)

    results = {}
    for kind in kinds:
        for ps in ps_counts:
            graph = scope["build"](tf, kind, ps, 0, dense_floats, rows)
            path = os.path.join(work, "%s-%d.pbtxt" % (kind, ps))
            with open(path, "w") as f:
                f.write(str(graph.as_graph_def()))
            for workers in worker_counts:
                program = os.path.join(work, "tfc-%s-%d-%d" % (kind, ps, workers))
                feeds = ["--feed", "ids"] if kind == "sparse" else []
                subprocess.run([tfc, "compile", path, "--fetch", "out", "--init",
                                "init", "--cluster", "worker=%d,ps=%d" % (workers, ps),
                                "-o", program] + feeds, check=True)
                ours, theirs = [], []
                if args.link:
                    tasks = (["worker-%d" % k for k in range(workers)] +
                             ["ps-%d" % k for k in range(ps)])
                    with TestHosts(tasks, *args.link.split(",")) as hosts:
                        shaping = hosts.shaping
                        for round in range(args.rounds):
                            port = 23000 + 2 * round
                            ours.append(sum(1 / m for m in time_tfc_on_hosts(
                                hosts, port, program, kind, ps, workers,
                                args.steps, work)))
                            theirs.append(sum(1 / m for m in time_tf_on_hosts(
                                hosts, port + 1, kind, ps, workers, dense_floats,
                                rows, args.steps, work)))
                else:
                    for _ in range(args.rounds):
                        ours.append(sum(1 / m for m in time_tfc(
                            tfc, program, kind, workers, args.steps, work)))
                        theirs.append(sum(1 / m for m in time_tf(
                            kind, ps, workers, dense_floats, rows, args.steps, work)))
                results[kind, ps, workers] = (statistics.median(ours),
                                              statistics.median(theirs))

    print(machine.line(os.cpu_count() or 1))
    if args.link:
        print("each task on a test host of its own, links shaped by tc %s" % shaping)
    sizes = {"null": "a scalar from each ps task",
             "dense": "%g MB of variables" % args.dense_mb,
             "sparse": "%d rows of a %g MB embedding" % (ROWS_GATHERED, args.sparse_mb)}
    for kind in kinds:
        print()
        print("%s step (%s), steps/s of the job, median of %d rounds" % (
            kind, sizes[kind], args.rounds))
        print()
        print("| ps tasks | workers | tfc steps/s | TensorFlow steps/s | tfc / TensorFlow |")
        print("| --- | --- | --- | --- | --- |")
        for ps in ps_counts:
            for workers in worker_counts:
                ours, theirs = results[kind, ps, workers]
                print("| %d | %d | %.1f | %.1f | %.2fx |" % (
                    ps, workers, ours, theirs, ours / theirs))


if __name__ == "__main__":
    main()
