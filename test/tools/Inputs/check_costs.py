"""Checks `tfc costs-from-trace` against the trace it read.

check_costs.py TRACE.json COSTS.json

Recomputes, from the trace alone, what the cost file must say: for every
node slice on a device's thread (not the driver's steps, not the runtime's
_Send/_Recv/_Arg/_Retval), the median of its durations per device type; a
fused group's duration shared equally by its members. Every node must be
in the cost file with that time (to the nanosecond the file keeps), and
nothing else. Prints the count for FileCheck; exits 1 naming a mismatch.
"""
import collections
import json
import re
import statistics
import sys

trace = json.load(open(sys.argv[1]))
costs = json.load(open(sys.argv[2]))
types = {}
for e in trace["traceEvents"]:
    if e["ph"] == "M" and e["name"] == "thread_name":
        m = re.search(r"/device:([A-Za-z_]+):\d+$", e["args"]["name"])
        if m:
            types[(e["pid"], e["tid"])] = m.group(1)
samples = collections.defaultdict(lambda: collections.defaultdict(list))
for e in trace["traceEvents"]:
    where = (e.get("pid"), e.get("tid"))
    if e["ph"] != "X" or where not in types or e["cat"] == "Step" \
            or e["cat"].startswith("_"):
        continue
    members = e["args"].get("fused", e["name"]).split(",")
    for member in members:
        samples[member][types[where]].append(e["dur"] / len(members))

nodes = costs["nodes"]
if set(nodes) != set(samples):
    sys.exit("nodes differ: only in the file %s, only in the trace %s"
             % (sorted(set(nodes) - set(samples))[:5],
                sorted(set(samples) - set(nodes))[:5]))
for node, by_type in samples.items():
    for type_, durations in by_type.items():
        expected = statistics.median(durations)
        got = nodes[node].get(type_)
        if got is None or abs(got - expected) > 0.0015:
            sys.exit("%s on %s: %s in the file, median %s" % (node, type_, got, expected))
print("costs: %d nodes, each its median" % len(nodes))
