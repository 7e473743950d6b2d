"""Summarizes a DOT graph `tfc viz` wrote: its nodes, edges (solid data,
dashed control, dotted transfers), device boxes, name-scope boxes and
fusion-group boxes; and,
given the IR `tfc compile --emit mlir` wrote for the same flags, whether
the picture has exactly the IR's step nodes and its _Send/_Recv pairs.

usage: dot_structure.py GRAPH.dot [STEP.mlir]
"""
import re
import sys


def main():
    dot = open(sys.argv[1]).read()
    nodes = re.findall(r"^\s*(n\d+) \[label=", dot, re.M)
    edges = re.findall(r"^\s*n\d+ -> n\d+( \[style=(\w+))?", dot, re.M)
    kinds = {"data": 0, "control": 0, "transfer": 0}
    for _, style in edges:
        kinds[{"": "data", "dashed": "control", "dotted": "transfer"}[style]] += 1
    devices = re.findall(r'subgraph cluster_device_\d+ \{\n\s*label="([^"]*)"', dot)
    scopes = len(re.findall(r"subgraph cluster_scope_", dot))
    fused = len(re.findall(r"subgraph cluster_fused_", dot))
    print("nodes %d; edges: data %d, control %d, transfers %d; scope boxes %d; "
          "fused boxes %d" % (len(nodes), kinds["data"], kinds["control"],
                              kinds["transfer"], scopes, fused))
    for device in devices:
        print("device box: " + device)
    if len(sys.argv) > 2:
        ir = open(sys.argv[2]).read()
        # The step's partitions: every tfg.graph but the init entry's.
        graphs = re.findall(r"tfg\.graph[^\n]*\{\n(.*?)\n  \}", ir, re.S)
        heads = re.findall(r"(tfg\.graph[^\n]*)\{\n", ir)
        step = [body for head, body in zip(heads, graphs) if '"init"' not in head]
        names = sum(len(re.findall(r' name\("', body)) for body in step)
        groups = sum(body.count("tfc.fusion_group") for body in step)
        sends = sum(body.count("_Send(") for body in step)
        print("the IR's step nodes: %s" % ("all drawn" if names == len(nodes)
                                           else "%d, drawn %d" % (names, len(nodes))))
        print("the IR's fusion groups: %s" % ("all drawn" if groups == fused
                                              else "%d, drawn %d" % (groups, fused)))
        print("the IR's transfers: %s" % ("all drawn" if sends == kinds["transfer"]
                                          else "%d, drawn %d" % (sends, kinds["transfer"])))


if __name__ == "__main__":
    main()
