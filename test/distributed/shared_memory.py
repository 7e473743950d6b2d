"""Runs Inputs/square-on-ps.pbtxt (compiled for worker=1,ps=1) as a job of
two processes on 127.0.0.1, with --shared-memory on and off, and checks the
chief's output against -(x*x) computed here. Prints each task's
--transfer-stats line and one verdict line per mode for FileCheck.

usage: shared_memory.py PROGRAM_DIR WORKDIR
"""
import os
import struct
import subprocess
import sys

N = 262144
STEPS = 3
RUN_SECONDS = 120


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def main():
    program, work = sys.argv[1:3]
    os.makedirs(work, exist_ok=True)
    # Exact in float32, as are their squares' roundings (struct rounds the
    # exact double product to the nearest float32, as a float32 multiply does).
    x = [(i % 1000) * 0.25 - 100 for i in range(N)]
    write_npy(os.path.join(work, "x.npy"), x)
    write_npy(os.path.join(work, "expected.npy"), [-v * v for v in x])
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
        print("shared memory %s: exit %d" % (mode, process.returncode))
        for line in sorted(l for l in text.splitlines() if " sent " in l):
            print(line.split("] ", 1)[1].rsplit("/", 1)[-1])
        verdict = subprocess.run(["npy-compare", out, os.path.join(work, "expected.npy"),
                                  "--rtol", "0", "--atol", "0"],
                                 capture_output=True, text=True, timeout=30)
        print("shared memory %s: %s" % (mode, verdict.stdout.strip()))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
