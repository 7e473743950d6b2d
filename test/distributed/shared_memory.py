"""Runs Inputs/square-on-ps.pbtxt (compiled for worker=1,ps=1) as a job of
two processes on 127.0.0.1 and checks the chief's output against -(x*x)
computed here. Prints each task's --transfer-stats line and one verdict
line per run for FileCheck.

usage: shared_memory.py PROGRAM_DIR WORKDIR
         with `tfc run-cluster`, --shared-memory on, then off;
       shared_memory.py PROGRAM_DIR WORKDIR --other-user
         (root only) the ps as user nobody, started here with its own
         --cluster: it cannot open the chief's region, so the chief's
         tensors go over TCP, while the chief (root) maps the ps's.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from ports import free_ports

N = 262144
STEPS = 3
RUN_SECONDS = 120


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def print_run(label, status, text, out, work):
    print("%s: exit %d" % (label, status))
    if status != 0:
        print(text)
    for line in sorted(l for l in text.splitlines() if " sent " in l):
        print(line.split("] ", 1)[-1].rsplit("/", 1)[-1])
    verdict = subprocess.run(["npy-compare", out, os.path.join(work, "expected.npy"),
                              "--rtol", "0", "--atol", "0"],
                             capture_output=True, text=True, timeout=30)
    print("%s: %s" % (label, verdict.stdout.strip()))
    sys.stdout.flush()


def run_other_user(program, work):
    """The ps as nobody, the chief as this (root) process's user."""
    # A copy every user can read and run, whatever the modes of the build
    # tree and of the test's TMPDIR (lit's is the user's own).
    copy = tempfile.mkdtemp(prefix="tfc-shared-memory-", dir="/tmp")
    os.chmod(copy, 0o755)
    processes = []
    try:
        for name in ("worker-0", "ps-0"):
            shutil.copy(os.path.join(program, name), copy)
        worker, ps = ["127.0.0.1:%d" % p for p in free_ports(2)]
        cluster = os.path.join(copy, "cluster.json")
        with open(cluster, "w") as f:
            json.dump({"worker": [worker], "ps": [ps]}, f)
        os.chmod(cluster, 0o644)
        out = os.path.join(work, "z-other-user.npy")
        common = ["--cluster", cluster, "--transfer-stats", "--connect-timeout", "30"]
        ps_args = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                   os.path.join(copy, "ps-0")] + common
        worker_args = [os.path.join(copy, "worker-0")] + common + [
            "--steps", str(STEPS), "--input", "x=" + os.path.join(work, "x.npy"),
            "--output", "z=" + out]
        text, status = "", 0
        for args in (ps_args, worker_args):
            processes.append(subprocess.Popen(args, stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT, text=True))
        for process in reversed(processes):
            try:
                more, _ = process.communicate(timeout=RUN_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()
                more = process.communicate()[0] + "\ntimed out"
            text += more
            status = status or process.returncode
        print_run("other user", status, text, out, work)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(copy, ignore_errors=True)


def write_inputs(work):
    """WORK/x.npy, the chief's input, and WORK/expected.npy, its output."""
    os.makedirs(work, exist_ok=True)
    # Exact in float32, as are their squares' roundings (struct rounds the
    # exact double product to the nearest float32, as a float32 multiply does).
    x = [(i % 1000) * 0.25 - 100 for i in range(N)]
    write_npy(os.path.join(work, "x.npy"), x)
    write_npy(os.path.join(work, "expected.npy"), [-v * v for v in x])


def main():
    program, work = sys.argv[1:3]
    write_inputs(work)
    if sys.argv[3:] == ["--other-user"]:
        run_other_user(program, work)
        return
    for mode in ("on", "off"):
        out = os.path.join(work, "z-%s.npy" % mode)
        args = ["tfc", "run-cluster", program, "--shared-memory", mode,
                "--transfer-stats", "--steps", str(STEPS),
                "--input", "x=" + os.path.join(work, "x.npy"), "--output", "z=" + out]
        # A new session, so that a run that overstays is killed with its tasks.
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, start_new_session=True)
        try:
            text, _ = process.communicate(timeout=RUN_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            text = process.communicate()[0] + "\ntimed out"
        print_run("shared memory " + mode, process.returncode, text, out, work)


if __name__ == "__main__":
    main()
