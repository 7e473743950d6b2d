"""Runs the two tasks of a hand-written cluster model (FakeTaskModel.cpp) as
real processes on 127.0.0.1, in one of a few scenarios, and prints what
happened for FileCheck: each task's exit status and stderr, and the chief's
output. Ports are picked free at run time; every process is bounded in
time and killed at the end, whatever happens.

usage: run_tasks.py SCENARIO CHIEF_EXE PS_EXE WORKDIR
"""
import os
import signal
import struct
import subprocess
import sys
import time
from ports import free_port

TIMEOUT = 60  # seconds any one scenario may take


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    (length,) = struct.unpack("<H", data[8:10])
    body = data[10 + length:]
    return list(struct.unpack("<%df" % (len(body) // 4), body))


def main():
    scenario, chief_exe, ps_exe, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    chief_port, ps_port = free_port(), free_port()
    cluster = os.path.join(work, "cluster.json")
    with open(cluster, "w") as f:
        f.write('{"chief": ["127.0.0.1:%d"], "ps": ["127.0.0.1:%d"]}' % (chief_port, ps_port))
    x = os.path.join(work, "x.npy")
    y = os.path.join(work, "y.npy")
    write_npy(x, [0.5, -1.0, 2.0, 3.25])
    if os.path.exists(y):
        os.remove(y)
    common = ["--cluster", cluster, "--health-interval", "0.2", "--health-timeout", "2"]
    processes = {}
    env = dict(os.environ)
    env.pop("TF_CONFIG", None)

    def start(name, exe, args, extra_env=None):
        processes[name] = subprocess.Popen(
            [exe] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=dict(env, **(extra_env or {})))

    def wait(name, seconds=TIMEOUT):
        process = processes[name]
        try:
            out, err = process.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            print("%s: timed out" % name)
        text = err.decode(errors="replace").replace(str(chief_port), "CHIEF_PORT")
        text = text.replace(str(ps_port), "PS_PORT")
        for line in text.splitlines():
            print("%s stderr: %s" % (name, line.replace(exe_of(name), name)))
        print("%s exit %d" % (name, process.returncode))

    def exe_of(name):
        return chief_exe if name == "chief" else ps_exe

    try:
        chief_args = common + ["--input", "x=" + x, "--output", "y=" + y]
        if scenario == "job":
            start("ps", ps_exe, common)
            start("chief", chief_exe, chief_args + ["--steps", "3"])
            wait("chief")
            wait("ps")
        elif scenario == "late-ps":
            start("chief", chief_exe, chief_args)
            time.sleep(1.5)
            start("ps", ps_exe, common)
            wait("chief")
            wait("ps")
        elif scenario == "no-ps":
            start("chief", chief_exe, chief_args + ["--connect-timeout", "1"])
            wait("chief")
        elif scenario in ("kill-ps", "kill-chief"):
            # A long job; one task is killed in the middle of it, and the
            # survivor reports first.
            start("ps", ps_exe, common)
            start("chief", chief_exe, chief_args + ["--steps", "100000000"])
            time.sleep(1.5)
            victim = scenario[len("kill-"):]
            survivor = "chief" if victim == "ps" else "ps"
            processes[victim].send_signal(signal.SIGKILL)
            wait(survivor)
            wait(victim)
        elif scenario == "wrong-task":
            start("ps", ps_exe, [], {"TF_CONFIG": '{"cluster": {"chief": ["127.0.0.1:%d"], '
                                     '"ps": ["127.0.0.1:%d"]}, "task": {"type": "chief", '
                                     '"index": 0}}' % (chief_port, ps_port)})
            wait("ps")
        elif scenario == "ps-flag":
            start("ps", ps_exe, common + ["--input", "x=" + x])
            wait("ps")
        elif scenario == "no-chief":
            start("ps", ps_exe, common + ["--connect-timeout", "1"])
            wait("ps")
        elif scenario == "bad-flags":
            for flags in (["--health-interval", "soon"], ["--threads", "-2"],
                          ["--shared-memory", "maybe"],
                          ["--cluster", "worker=2"]):
                start("ps", ps_exe, flags)
                wait("ps")
        else:
            sys.exit("unknown scenario " + scenario)
        if os.path.exists(y):
            print("y: " + " ".join("%g" % v for v in read_npy(y)))
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()


if __name__ == "__main__":
    main()
