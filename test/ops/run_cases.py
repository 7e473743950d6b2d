#!/usr/bin/env python3
"""Runs tfc's op-level tests: compiles each case of cases.json to a program,
runs it on the case's inputs and compares every output with TensorFlow's
(npy-compare, with the case's tolerance). Standard library only.

    run_cases.py --tfc PATH --npy-compare PATH --work DIR [--only A,B] [-j N]

Prints one line per case (PASS, or FAIL with what failed) and exits 1 if
any case failed.
"""

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return p.returncode, p.stdout.strip()


def check(name, spec, args):
    case_dir = os.path.join(HERE, "cases", name)
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    program = os.path.join(work, "program")
    cmd = [args.tfc, "compile", os.path.join(case_dir, "graph.pbtxt"), "-o", program]
    for feed in spec["feeds"]:
        cmd += ["--feed", feed]
    for fetch in spec["fetches"]:
        cmd += ["--fetch", fetch]
    code, out = run(cmd)
    if code:
        return "FAIL %s: compile: %s" % (name, out.splitlines()[0] if out else code)
    cmd = [program]
    for i, feed in enumerate(spec["feeds"]):
        cmd += ["--input", "%s=%s" % (feed, os.path.join(case_dir, "inputs", "%d.npy" % i))]
    for i, fetch in enumerate(spec["fetches"]):
        cmd += ["--output", "%s=%s" % (fetch, os.path.join(work, "%d.npy" % i))]
    code, out = run(cmd)
    if code:
        return "FAIL %s: run: %s" % (name, out)
    failures = []
    for i, fetch in enumerate(spec["fetches"]):
        code, out = run([args.npy_compare, os.path.join(work, "%d.npy" % i),
                         os.path.join(case_dir, "outputs", "%d.npy" % i),
                         "--rtol", str(spec["rtol"]), "--atol", str(spec["atol"])])
        if code:
            failures.append("%s: %s" % (fetch, out))
    if failures:
        return "FAIL %s: %s" % (name, "; ".join(failures))
    return "PASS %s (%d outputs)" % (name, len(spec["fetches"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tfc", required=True)
    parser.add_argument("--npy-compare", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--only")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with open(os.path.join(HERE, "cases.json")) as f:
        manifest = json.load(f)
    names = args.only.split(",") if args.only else sorted(manifest)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda n: check(n, manifest[n], args), names))
    for line in results:
        print(line)
    failed = sum(line.startswith("FAIL") for line in results)
    print("%d cases, %d failed" % (len(results), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
