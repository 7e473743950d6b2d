#!/usr/bin/env python3
"""Writes the Kubernetes schemas the manifest test validates against
(test/distributed/Inputs/k8s/kubernetes-v1.30-strict.json): the
definitions that core/v1 Pod, Service and PodTemplateSpec reach, from the
"local-strict" JSON schemas of Kubernetes 1.30 (generated from its OpenAPI
document; strict: no properties beyond the API's), descriptions dropped.
They come from the kubernetes-validate wheel on PyPI:

    pip download --no-deps kubernetes-validate==1.37.0
    python3 scripts/extract-k8s-schemas.py kubernetes_validate-1.37.0-py3-none-any.whl
"""
import json
import os
import sys
import zipfile

VERSION = "v1.30.0-local-strict"
ROOTS = ["io.k8s.api.core.v1.Pod", "io.k8s.api.core.v1.Service",
         "io.k8s.api.core.v1.PodTemplateSpec"]
PREFIX = "/api/_definitions.json#/$defs/"
OUT = os.path.join(os.path.dirname(__file__), "..", "test", "distributed", "Inputs",
                   "k8s", "kubernetes-v1.30-strict.json")


def references(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            else:
                yield from references(value)
    elif isinstance(node, list):
        for value in node:
            yield from references(value)


def stripped(node):
    """Without prose, its references local to the file."""
    if isinstance(node, dict):
        return {k: stripped(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [stripped(v) for v in node]
    if isinstance(node, str) and node.startswith(PREFIX):
        return "#/$defs/" + node[len(PREFIX):]
    return node


def main():
    with zipfile.ZipFile(sys.argv[1]) as wheel:
        path = "kubernetes_validate/kubernetes-json-schema/%s/_definitions.json" % VERSION
        definitions = json.loads(wheel.read(path))["$defs"]
    reached, work = set(), list(ROOTS)
    while work:
        name = work.pop()
        if name not in reached:
            reached.add(name)
            work.extend(references(definitions[name]))
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$comment": "Kubernetes %s definitions reached from %s "
                          "(scripts/extract-k8s-schemas.py)" % (VERSION, ", ".join(ROOTS)),
              "$defs": {name: stripped(definitions[name]) for name in sorted(reached)}}
    with open(OUT, "w") as f:
        json.dump(schema, f, sort_keys=True, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
