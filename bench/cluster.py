#!/usr/bin/env python3
"""Distributed execution, tfc against TensorFlow 2.21's own distributed
runtime, in one run, on loopback.

    python bench/cluster.py [--tfc build/bin/tfc] [--sizes 4K,64K,1M,16M,256M]
                            [--steps 200] [--rounds 3] [--work DIR]

Two tasks, worker 0 and ps 0, each its own process on 127.0.0.1:
  * tfc: `tfc compile --cluster worker=1,ps=1` writes worker-0 and ps-0,
    and `tfc run-cluster` runs them; the chief's `--bench N` times N steps
    after warm-up (median). Twice: as it runs by default, where tensors
    over 64 KiB between tasks on one host go through shared memory, and
    with `--shared-memory off`, over loopback TCP as between hosts.
  * TensorFlow: two `tf.distribute.Server` processes (job worker and job ps)
    and a `tf.compat.v1.Session("grpc://worker")` in this process running
    the same graph, N runs after warm-up (median).
The graphs, built here with TensorFlow (device requests on each node):
  null    OSDI §6.2's null step: a scalar variable on the ps, read and
          fetched at the worker;
  S bytes a float32 variable of S bytes on the ps; the worker takes its
          first element (tf.slice), so each step moves the S bytes from the
          ps to the worker. Throughput: S / median step time.
Prints a markdown table: each median over --rounds rounds (alternating
tfc and TensorFlow, fresh processes each round), and the ratios.

Needs tensorflow-cpu==2.21.0 and numpy; tfc itself never does.
"""

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def free_ports(count):
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def build_graph(tf, size):
    """The benchmark's graph for a variable of `size` bytes (0: the null
    step's scalar); returns the GraphDef."""
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        with tf.device("/job:ps/task:0"):
            shape = [] if size == 0 else [size // 4]
            v = tf1.Variable(tf.fill(shape, 1.5) if shape else 1.5, name="v")
            read = v.read_value()
        with tf.device("/job:worker/task:0"):
            value = read if size == 0 else tf.slice(read, [0], [1])
            tf.identity(value, name="y")
        tf1.variables_initializer([v], name="init")
    return graph.as_graph_def()


def compile_tfc(tfc, graph_path, work):
    out = os.path.join(work, "tfc-program")
    subprocess.run([tfc, "compile", graph_path, "--fetch", "y", "--init", "init",
                    "--cluster", "worker=1,ps=1", "-o", out], check=True)
    return out


def time_tfc(tfc, program, steps, shared_memory):
    result = subprocess.run([tfc, "run-cluster", program, "--shared-memory",
                             "on" if shared_memory else "off",
                             "--bench", str(steps)],
                            capture_output=True, text=True, timeout=600)
    match = re.search(r"median ([0-9.]+) us", result.stdout)
    if result.returncode != 0 or not match:
        sys.exit("tfc run failed: " + result.stdout + result.stderr)
    return float(match.group(1)) * 1e-6


# A task's tf.distribute.Server: the cluster (JSON), its job and index.
SERVER = """
import os, sys, json
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "2"
import tensorflow as tf
cluster = tf.train.ClusterSpec(json.loads(sys.argv[1]))
threads = int(sys.argv[4]) if len(sys.argv) > 4 else 0
config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=threads,
                                  inter_op_parallelism_threads=threads)
tf.distribute.Server(cluster, job_name=sys.argv[2], task_index=int(sys.argv[3]),
                     config=config).join()
"""


def tf_servers(workers, ps, threads=0):
    """TensorFlow's servers of a cluster of `workers` workers and `ps` ps
    tasks on free loopback ports: the cluster ({"worker": [...], "ps":
    [...]}, without "ps" when there is none) and the server processes, the
    ps tasks' first. `threads`, unless 0 (TensorFlow's choice), sizes each
    server's intra- and inter-op thread pools."""
    ports = free_ports(workers + ps)
    cluster = {"worker": ["127.0.0.1:%d" % p for p in ports[:workers]]}
    if ps:
        cluster["ps"] = ["127.0.0.1:%d" % p for p in ports[workers:]]
    spec = json.dumps(cluster)
    servers = [subprocess.Popen([sys.executable, "-c", SERVER, spec, job, str(k),
                                 str(threads)])
               for job, count in (("ps", ps), ("worker", workers))
               for k in range(count)]
    return cluster, servers


class TestHosts:
    """A test host per task of a cluster: a network namespace each, joined
    to one bridge (in a namespace of its own) by a veth pair whose host end
    shapes what the host sends: `tc netem` with the rate and the delay, or,
    on a kernel without netem, `tc tbf` with the rate alone (`shaping` says
    which). Link-local addresses 169.254.78.N, which never leave the links.
    Root only; every namespace goes on exit, whatever happened.

        with TestHosts(["worker-0", "ps-0"], "1gbit", "1ms") as hosts:
            hosts.address("ps-0"); hosts.popen("ps-0", [...])
    """

    def __init__(self, tasks, rate, delay):
        self.tasks, self.rate, self.delay = list(tasks), rate, delay
        tag = str(os.getpid())
        self.switch = "tfc-switch-" + tag
        self.namespaces = {task: "tfc-%s-%s" % (task, tag) for task in self.tasks}
        self.shaping = None

    @staticmethod
    def ip(*args):
        subprocess.run(["ip"] + list(args), check=True, timeout=30,
                       capture_output=True)

    def address(self, task):
        return "169.254.78.%d" % (10 + self.tasks.index(task))

    def __enter__(self):
        try:
            self.ip("netns", "add", self.switch)
            self.ip("-n", self.switch, "link", "add", "bridge0", "type", "bridge")
            self.ip("-n", self.switch, "link", "set", "bridge0", "up")
            for i, task in enumerate(self.tasks):
                namespace = self.namespaces[task]
                # Interface names have at most 15 characters.
                host, port = "tfch%d" % i, "tfcs%d" % i
                self.ip("netns", "add", namespace)
                self.ip("-n", namespace, "link", "set", "lo", "up")
                self.ip("link", "add", host, "netns", namespace, "type", "veth",
                        "peer", "name", port, "netns", self.switch)
                self.ip("-n", namespace, "addr", "add", self.address(task) + "/24",
                        "dev", host)
                self.ip("-n", namespace, "link", "set", host, "up")
                self.ip("-n", self.switch, "link", "set", port, "master", "bridge0")
                self.ip("-n", self.switch, "link", "set", port, "up")
                self.shape(namespace, host)
        except BaseException:
            self.__exit__()
            raise
        return self

    def shape(self, namespace, link):
        tc = ["ip", "netns", "exec", namespace, "tc", "qdisc", "add", "dev", link, "root"]
        netem = subprocess.run(tc + ["netem", "rate", self.rate, "delay", self.delay],
                               capture_output=True, timeout=30)
        if netem.returncode == 0:
            self.shaping = "netem rate %s delay %s" % (self.rate, self.delay)
            return
        subprocess.run(tc + ["tbf", "rate", self.rate, "burst", "256kb",
                             "latency", "50ms"], check=True, capture_output=True,
                       timeout=30)
        self.shaping = ("tbf rate %s (this kernel has no netem: no delay)"
                        % self.rate)

    def __exit__(self, *_):
        # Deleting a namespace deletes its ends of the veths.
        for namespace in list(self.namespaces.values()) + [self.switch]:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True,
                           timeout=30)

    def popen(self, task, args, **kwargs):
        return subprocess.Popen(["ip", "netns", "exec", self.namespaces[task]] + args,
                                **kwargs)


def stop(processes):
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait()


def tfc_bench_medians(tfc, program, workers, steps, flags):
    """`tfc run-cluster PROGRAM --bench STEPS FLAGS`: each worker's median
    step time, in seconds."""
    result = subprocess.run([tfc, "run-cluster", program, "--connect-timeout", "120",
                             "--steps", "1", "--bench", str(steps)] + flags,
                            capture_output=True, text=True, timeout=900)
    medians = [float(m) * 1e-6 for m in
               re.findall(r"\[worker-\d+\] bench: .*median ([0-9.]+) us", result.stdout)]
    if result.returncode != 0 or len(medians) != workers:
        sys.exit("tfc run failed: " + result.stdout + result.stderr)
    return medians


def median_seconds(run, steps):
    """The median time of `steps` calls of run() after up to 10 to warm up."""
    for _ in range(min(steps, 10)):
        run()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_tf(tf, graph_def, steps):
    cluster, servers = tf_servers(1, 1)
    worker = cluster["worker"][0]
    try:
        graph = tf.Graph()
        with graph.as_default():
            tf.compat.v1.import_graph_def(graph_def, name="")
        with tf.compat.v1.Session("grpc://" + worker, graph=graph) as session:
            session.run("init")
            return median_seconds(lambda: session.run("y:0"), steps)
    finally:
        stop(servers)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", default="build/bin/tfc")
    parser.add_argument("--sizes", default="4K,64K,1M,16M,256M")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work")
    args = parser.parse_args()
    import tensorflow as tf

    work = os.path.abspath(args.work or tempfile.mkdtemp(prefix="tfc-bench-cluster-"))
    os.makedirs(work, exist_ok=True)
    tfc = os.path.abspath(args.tfc)
    cases = [("null step", 0)] + [(s, parse_size(s)) for s in args.sizes.split(",")]
    print("| graph | tfc median | tfc over TCP | TensorFlow median | "
          "tfc throughput | over TCP | TensorFlow throughput | speedup | "
          "over TCP |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for label, size in cases:
        graph_def = build_graph(tf, size)
        path = os.path.join(work, "graph-%d.pb" % size)
        with open(path, "wb") as f:
            f.write(graph_def.SerializeToString())
        # Fewer steps for the large tensors, to bound the run.
        steps = args.steps if size < (16 << 20) else max(10, args.steps // 10)
        program = compile_tfc(tfc, path, work)
        ours, tcp, theirs = [], [], []
        for _ in range(args.rounds):
            ours.append(time_tfc(tfc, program, steps, True))
            tcp.append(time_tfc(tfc, program, steps, False))
            theirs.append(time_tf(tf, graph_def, steps))
        a, t, b = (statistics.median(x) for x in (ours, tcp, theirs))

        def rate(seconds):
            return "%.2f GB/s" % (size / seconds / 1e9) if size else "-"
        print("| %s | %.3f ms | %.3f ms | %.3f ms | %s | %s | %s | %.1fx | "
              "%.1fx |" % (label, a * 1e3, t * 1e3, b * 1e3, rate(a), rate(t),
                           rate(b), b / a, b / t))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
