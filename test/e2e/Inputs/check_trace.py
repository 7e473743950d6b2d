"""Checks a program's --trace file against the IR of the same compile.

check_trace.py TRACE.json --ir STEP.mlir --steps N [--processes P]
               [--workers W]

The trace must be a Chrome trace (an object with `traceEvents`): complete
events ("X") with numeric microsecond `ts` and `dur`, integer `pid` and
`tid`, every thread named; metadata ("M"); flow starts ("s") and ends
("f", bound to their enclosing slice). Checked against the IR:

- each step is a "Step" slice of a process that drives steps (a chief,
  a between-graph worker), N of them in each;
- every slice of a node names a node of the IR with its op type (a fused
  group: its root, and the ops of its members, all of the IR);
- every _Send and _Recv of the IR is a slice, once per step of each
  process that drives steps and runs it (a task that serves them, a ps,
  once per step of every driver; in a loop, once per iteration);
- every thread is named after a device of the IR's partitions;
- slices on one thread nest (none overlaps another partly);
- every flow starts inside a _Send slice and ends inside the _Recv slice
  of that transfer (X/_send_K to X/_recv_K) on another thread, no earlier than it started (beyond the clock
  offsets' stated bounds when they are in different processes);
- each other process's clock offset (otherData.clock_offsets) is within
  its stated bound of zero: the processes of a test share one host's
  monotonic clock.

Prints what it counted, for FileCheck; exits 1 naming the first problem.
"""

import argparse
import collections
import json
import re
import sys


def fail(message):
    print("check_trace: " + message, file=sys.stderr)
    sys.exit(1)


def ir_nodes(path):
    """name -> op type, and the partitions' devices, of an --emit mlir file."""
    nodes, devices = {}, set()
    node = re.compile(
        r'= ([A-Za-z_][A-Za-z0-9_.]*)(?:\(.*?\))?(?: ?\[.*?\])? name\("([^"]+)"\)')
    for line in open(path):
        m = node.search(line)
        if m:
            nodes[m.group(2)] = m.group(1)
        m = re.search(r'tfc\.device = "([^"]+)"', line)
        if m and "tfg.graph" in line:
            devices.add(m.group(1))
    return nodes, devices


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    parser.add_argument("--ir", required=True)
    parser.add_argument("--steps", type=int, required=True)
    parser.add_argument("--processes", type=int, default=1)
    # Between-graph replication: workers 1.. run worker 0's partitions.
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()

    trace = json.load(open(args.trace))
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents list")
    nodes, devices = ir_nodes(args.ir)
    template = "/job:worker/replica:0/task:0/"
    devices |= {d.replace(template, "/job:worker/replica:0/task:%d/" % k)
                for d in devices if d.startswith(template)
                for k in range(1, args.workers)}
    if not nodes:
        fail("no nodes in " + args.ir)

    threads, processes = {}, {}
    slices = collections.defaultdict(list)  # (pid, tid) -> [(ts, end, event)]
    flows = collections.defaultdict(list)  # id -> [event]
    for e in events:
        ph = e.get("ph")
        if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
            fail("event without integer pid/tid: %r" % e)
        where = (e["pid"], e["tid"])
        if ph == "M":
            if e["name"] == "thread_name":
                threads[where] = e["args"]["name"]
            elif e["name"] == "process_name":
                processes[e["pid"]] = e["args"]["name"]
            continue
        if not isinstance(e.get("ts"), (int, float)):
            fail("event without a numeric ts: %r" % e)
        if ph == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                fail("slice without a duration: %r" % e)
            if not e.get("name") or not e.get("cat"):
                fail("slice without a name or category: %r" % e)
            slices[where].append((e["ts"], e["ts"] + e["dur"], e))
        elif ph in ("s", "f"):
            if ph == "f" and e.get("bp") != "e":
                fail("flow end not bound to its enclosing slice: %r" % e)
            flows[e["id"]].append(e)
        else:
            fail("unexpected phase %r" % ph)

    # Each task's clock offset and its bound: on one host every process
    # reads one monotonic clock, so the estimate must be within its bound
    # of zero.
    offsets = trace.get("otherData", {}).get("clock_offsets", {})
    if len(offsets) != args.processes - 1:
        fail("%d clock offsets for %d processes" % (len(offsets), args.processes))
    within = {}
    for pid, name in processes.items():
        if name in offsets:
            offset = offsets[name]
            if abs(offset["offset_us"]) > offset["within_us"]:
                fail("%s: clock offset %s us, beyond its bound %s us"
                     % (name, offset["offset_us"], offset["within_us"]))
            within[pid] = offset["within_us"]
    if len(processes) != args.processes:
        fail("%d processes named, expected %d" % (len(processes), args.processes))
    for where in slices:
        if where not in threads:
            fail("thread %r has slices but no name" % (where,))
    named = set(threads.values()) - {"driver"}
    if not named <= devices:
        fail("threads named %s, not devices of the IR (%s)"
             % (sorted(named - devices), sorted(devices)))

    steps = collections.Counter()
    ran = collections.Counter()
    fused = 0
    for where, list_ in slices.items():
        list_.sort(key=lambda s: (s[0], -s[1]))
        open_ = []
        for start, end, e in list_:
            while open_ and open_[-1] <= start:
                open_.pop()
            if open_ and end > open_[-1] + 1e-3:
                fail("slice %r overlaps its enclosing one partly" % e["name"])
            open_.append(end)
            if e["cat"] == "Step":
                if e["name"].startswith("step "):
                    steps[where[0]] += 1
                continue
            name, op = e["name"], e["cat"]
            members = e.get("args", {}).get("fused")
            if members:
                fused += 1
                members = members.split(",")
                ops = op.split("+")
                if members[-1] != name or len(ops) != len(members):
                    fail("fused slice %r: members %r, ops %r" % (name, members, ops))
                for member, member_op in zip(members, ops):
                    if nodes.get(member) != member_op:
                        fail("fused member %r (%s) is not a node of the IR"
                             % (member, member_op))
            elif nodes.get(name) != op:
                fail("slice %r (%s) is not a node of the IR (%s)"
                     % (name, op, nodes.get(name)))
            ran[(None, name)] += 1
            ran[(where[0], name)] += 1

    drivers = [pid for pid, n in steps.items() if n]
    for pid in drivers:
        if steps[pid] != args.steps:
            fail("process %d has %d steps, expected %d" % (pid, steps[pid], args.steps))
    if not drivers:
        fail("no step slices")
    # Every transfer runs once per step of each driver that runs it: a
    # task that serves the drivers (a ps) once per step of every driver.
    transfers = [n for n, op in nodes.items() if op in ("_Send", "_Recv")]
    for name in transfers:
        if not ran[(None, name)]:
            fail("%s never ran" % name)
    for (pid, name), count in ran.items():
        if pid is None or nodes.get(name) not in ("_Send", "_Recv"):
            continue
        # (In a loop: once per iteration.)
        expected = args.steps * (1 if pid in drivers else len(drivers))
        if count % expected:
            fail("%s ran %d times in process %d, not a multiple of %d"
                 % (name, count, pid, expected))

    def enclosing(e, op):
        for start, end, s in slices[(e["pid"], e["tid"])]:
            if s["cat"] == op and start <= e["ts"] <= end:
                return s
        fail("flow %s at %s is in no %s slice of its thread" % (e["id"], e["ts"], op))

    for id_, ends in flows.items():
        kinds = sorted(e["ph"] for e in ends)
        if kinds != ["f", "s"]:
            fail("flow %s has ends %r" % (id_, kinds))
        start = next(e for e in ends if e["ph"] == "s")
        finish = next(e for e in ends if e["ph"] == "f")
        send, recv = enclosing(start, "_Send"), enclosing(finish, "_Recv")
        if (start["pid"], start["tid"]) == (finish["pid"], finish["tid"]):
            fail("flow %s starts and ends on one thread" % id_)
        slack = 0 if start["pid"] == finish["pid"] else (
            within.get(start["pid"], 0) + within.get(finish["pid"], 0))
        if finish["ts"] + slack < start["ts"]:
            fail("flow %s from %s ends before it starts" % (id_, send["name"]))
        # The partitioner names a transfer's ends alike: X/_send_K, X/_recv_K.
        if send["name"].replace("/_send", "/_recv") != recv["name"]:
            fail("flow %s goes from %s to %s" % (id_, send["name"], recv["name"]))
    sends = sum(count for (pid, name), count in ran.items()
                if pid is not None and nodes.get(name) == "_Send")
    if len(flows) != sends:
        fail("%d flows, expected %d (one per _Send run)" % (len(flows), sends))

    print("processes: %d, threads: %d" % (len(processes), len(threads)))
    print("steps: %d in each of %d drivers" % (args.steps, len(drivers)))
    print("node slices: %d, fused: %d"
          % (sum(n for (pid, _), n in ran.items() if pid is None), fused))
    print("flows: %d, each from a _Send to a _Recv" % len(flows))


if __name__ == "__main__":
    main()
