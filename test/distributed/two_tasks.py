"""Runs the two programs `tfc compile --cluster worker=1,ps=1` wrote, ps-0
and worker-0 (the chief), as processes on 127.0.0.1 with flags of their
own, and prints for FileCheck each one's stderr and exit status (ports
shown as PS_PORT and CHIEF_PORT). Ports are picked free at run time; each
process is bounded in time and killed at the end, whatever happens.

usage: two_tasks.py OUTDIR "PS FLAGS" "CHIEF FLAGS"
"""
import os
import shlex
import subprocess
import sys
import tempfile
from ports import free_port

TIMEOUT = 60


def main():
    out_dir, ps_flags, chief_flags = sys.argv[1:4]
    chief_port, ps_port = free_port(), free_port()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write('{"worker": ["127.0.0.1:%d"], "ps": ["127.0.0.1:%d"]}' % (chief_port, ps_port))
        cluster = f.name
    env = dict(os.environ)
    env.pop("TF_CONFIG", None)
    processes = []
    try:
        for name, flags in (("ps-0", ps_flags), ("worker-0", chief_flags)):
            processes.append((name, subprocess.Popen(
                [os.path.join(out_dir, name), "--cluster", cluster] + shlex.split(flags),
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)))
        for name, process in reversed(processes):
            try:
                _, err = process.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                _, err = process.communicate()
                print("%s: timed out" % name)
            text = err.decode(errors="replace")
            text = text.replace(str(chief_port), "CHIEF_PORT").replace(str(ps_port), "PS_PORT")
            for line in text.splitlines():
                print("%s stderr: %s" % (name, line.replace(os.path.join(out_dir, ""), "")))
            print("%s exit %d" % (name, process.returncode))
    finally:
        for _, process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        os.unlink(cluster)


if __name__ == "__main__":
    main()
