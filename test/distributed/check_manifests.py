"""Checks the Kubernetes manifests `tfc compile --k8s-manifests` wrote to
OUTDIR/k8s against their schemas (Inputs/k8s: Kubernetes 1.30's strict
JSON schemas of core/v1 Pod and Service, and the TFJob of kubeflow.org/v1
around a core/v1 PodTemplateSpec) and the rules a schema does not say
(DNS-1123 names, selectors that meet their Pods, the operator's container
and port names, volumes that match, TF_CONFIG naming the Services), then
runs the plain Pods' manifest as Kubernetes
would, on this machine: each Pod's command and args with its TF_CONFIG,
the Services' names given 127.0.0.1 ports picked free now and the volume a
directory here. Prints what it checked and how the job ended, for
FileCheck; a broken rule is a line starting with "error:".

usage: check_manifests.py OUTDIR JOB_TASKS WORKDIR [PROGRAM FLAGS...|--check-only]

JOB_TASKS is the compiled cluster ("worker=2,ps=1"). Bounded in time; every
process started is killed at the end.
"""
import json
import os
import re
import subprocess
import sys

import yaml
from ports import free_port

DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
REPLICA_TYPES = {"Chief": "chief", "Worker": "worker", "PS": "ps",
                 "Evaluator": "evaluator", "Master": "master"}
errors = []


def need(condition, message):
    if not condition:
        errors.append(message)
    return condition


def check_container(container, where):
    need(isinstance(container.get("name"), str) and DNS_LABEL.match(container["name"]),
         "%s: a container needs a DNS-1123 name" % where)
    need(isinstance(container.get("image"), str) and container["image"],
         "%s: a container needs an image" % where)
    for field in ("command", "args"):
        if field in container:
            need(isinstance(container[field], list) and
                 all(isinstance(a, str) for a in container[field]),
                 "%s: %s must be a list of strings" % (where, field))
    for port in container.get("ports", []):
        need(isinstance(port.get("containerPort"), int) and
             0 < port["containerPort"] < 65536,
             "%s: containerPort must be a port number" % where)
        need(len(port.get("name", "")) <= 15, "%s: a port name has 15 characters at most" % where)
    for env in container.get("env", []):
        need(isinstance(env.get("name"), str) and isinstance(env.get("value"), str),
             "%s: env entries need a name and a string value" % where)


def check_pod_spec(spec, where, restart_policies):
    containers = spec.get("containers")
    if not need(isinstance(containers, list) and containers,
                "%s: a pod spec needs containers" % where):
        return
    for container in containers:
        check_container(container, where)
    volumes = {v["name"] for v in spec.get("volumes", [])}
    for volume in spec.get("volumes", []):
        need(isinstance(volume.get("persistentVolumeClaim", {}).get("claimName"), str),
             "%s: volume %s needs a claimName" % (where, volume.get("name")))
    for container in containers:
        for mount in container.get("volumeMounts", []):
            need(mount.get("name") in volumes,
                 "%s: volumeMount %s names no volume" % (where, mount.get("name")))
            need(str(mount.get("mountPath", "")).startswith("/"),
                 "%s: a mountPath is absolute" % where)
    if "restartPolicy" in spec:
        need(spec["restartPolicy"] in restart_policies,
             "%s: restartPolicy %s" % (where, spec["restartPolicy"]))


SCHEMAS = os.path.join(os.path.dirname(__file__), "Inputs", "k8s")


def schema_errors(document, schema_file, definition=None):
    """What the JSON schema (draft 2020-12) finds wrong in `document`:
    `schema_file`'s schema, or one of the Kubernetes definitions."""
    import jsonschema
    with open(os.path.join(SCHEMAS, "kubernetes-v1.30-strict.json")) as f:
        kubernetes = json.load(f)
    if definition:
        schema = {"$ref": "#/$defs/" + definition}
    else:
        with open(os.path.join(SCHEMAS, schema_file)) as f:
            schema = json.load(f)
    schema["$defs"] = kubernetes["$defs"]
    validator = jsonschema.Draft202012Validator(schema)
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message)
            for e in validator.iter_errors(document)]


def check_tfjob(path, tasks):
    with open(path) as f:
        job = yaml.safe_load(f)
    for error in schema_errors(job, "tfjob-v1.json"):
        need(False, "tfjob: schema: " + error)
    need(job.get("apiVersion") == "kubeflow.org/v1", "tfjob: apiVersion")
    need(job.get("kind") == "TFJob", "tfjob: kind")
    need(DNS_LABEL.match(job.get("metadata", {}).get("name", "")), "tfjob: metadata.name")
    specs = job.get("spec", {}).get("tfReplicaSpecs", {})
    for kind, spec in specs.items():
        if not need(kind in REPLICA_TYPES, "tfjob: replica type %s" % kind):
            continue
        need(spec.get("replicas") == tasks.get(REPLICA_TYPES[kind]),
             "tfjob: %s replicas" % kind)
        need(spec.get("restartPolicy") in ("Always", "OnFailure", "Never", "ExitCode"),
             "tfjob: %s restartPolicy" % kind)
        pod = spec.get("template", {}).get("spec", {})
        check_pod_spec(pod, "tfjob " + kind, ("Always", "OnFailure", "Never"))
        # The operator finds the task's container by this name and port.
        names = [c.get("name") for c in pod.get("containers", [])]
        need("tensorflow" in names, "tfjob: %s has no container named tensorflow" % kind)
        ports = [p.get("name") for c in pod.get("containers", []) for p in c.get("ports", [])]
        need("tfjob-port" in ports, "tfjob: %s has no port named tfjob-port" % kind)
    need({REPLICA_TYPES.get(k) for k in specs} == set(tasks), "tfjob: the jobs")
    print("tfjob: %s, replicas %s" % (job["metadata"]["name"],
                                      ", ".join("%s=%d" % (k, s["replicas"])
                                                for k, s in specs.items())))


def check_pods(path, tasks):
    with open(path) as f:
        documents = [d for d in yaml.safe_load_all(f) if d]
    services = {d["metadata"]["name"]: d for d in documents if d.get("kind") == "Service"}
    pods = [d for d in documents if d.get("kind") == "Pod"]
    for document in documents:
        kind = document.get("kind")
        if need(kind in ("Service", "Pod"), "pods: kind %s" % kind):
            for error in schema_errors(document, None, "io.k8s.api.core.v1." + kind):
                need(False, "pods: %s %s: schema: %s" % (
                    kind, document.get("metadata", {}).get("name"), error))
        need(document.get("apiVersion") == "v1", "pods: apiVersion")
        need(DNS_LABEL.match(document.get("metadata", {}).get("name", "")),
             "pods: metadata.name %s" % document.get("metadata", {}).get("name"))
    for name, service in services.items():
        spec = service.get("spec", {})
        need(spec.get("clusterIP") == "None", "service %s: headless" % name)
        selector = spec.get("selector", {})
        matched = [p for p in pods
                   if all(p["metadata"].get("labels", {}).get(k) == v for k, v in selector.items())]
        need(len(matched) == 1, "service %s selects %d pods" % (name, len(matched)))
        for port in spec.get("ports", []):
            need(isinstance(port.get("port"), int), "service %s: port" % name)
    seen = set()
    for pod in pods:
        check_pod_spec(pod.get("spec", {}), "pod " + pod["metadata"]["name"],
                       ("Always", "OnFailure", "Never"))
        env = {e["name"]: e["value"] for c in pod["spec"]["containers"] for e in c.get("env", [])}
        config = json.loads(env.get("TF_CONFIG", "{}"))
        task = config.get("task", {})
        seen.add((task.get("type"), task.get("index")))
        for job, addresses in config.get("cluster", {}).items():
            need(len(addresses) == tasks.get(job), "pod TF_CONFIG: job %s" % job)
            for address in addresses:
                host, _, port = address.rpartition(":")
                need(host in services, "pod TF_CONFIG: %s is no service" % address)
    need(seen == {(j, i) for j, n in tasks.items() for i in range(n)}, "pods: one per task")
    print("pods: %d services, %d pods" % (len(services), len(pods)))
    return pods


def simulate(out_dir, pods, work, flags):
    """Runs each Pod's container here: its command from OUTDIR, its args,
    its TF_CONFIG with the services at 127.0.0.1, its volume in WORK."""
    volume = os.path.join(work, "checkpoints")
    os.makedirs(volume, exist_ok=True)
    ports = {p["metadata"]["name"]: free_port() for p in pods}
    processes = []
    try:
        for pod in pods:
            container = pod["spec"]["containers"][0]
            env = {e["name"]: e["value"] for e in container.get("env", [])}
            config = json.loads(env["TF_CONFIG"])
            for job, addresses in config["cluster"].items():
                config["cluster"][job] = ["127.0.0.1:%d" % ports[a.rpartition(":")[0]]
                                          for a in addresses]
            command = [os.path.join(out_dir, os.path.basename(container["command"][0]))]
            args = [volume if a == "/checkpoints" else a for a in container.get("args", [])]
            processes.append((pod["metadata"]["name"], subprocess.Popen(
                command + args + flags, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                env=dict(os.environ, TF_CONFIG=json.dumps(config)))))
        for name, process in processes:
            try:
                output, _ = process.communicate(timeout=120)
            except subprocess.TimeoutExpired:
                process.kill()
                output, _ = process.communicate()
            for line in output.decode(errors="replace").splitlines():
                print("%s: %s" % (name, line))
            print("%s: exit %d" % (name, process.returncode))
    finally:
        for _, process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
    return sorted(os.listdir(volume))


def main():
    out_dir, cluster, work = sys.argv[1:4]
    flags = sys.argv[4:]
    check_only = flags == ["--check-only"]
    tasks = {job: int(n) for job, n in (part.split("=") for part in cluster.split(","))}
    check_tfjob(os.path.join(out_dir, "k8s", "tfjob.yaml"), tasks)
    pods = check_pods(os.path.join(out_dir, "k8s", "pods.yaml"), tasks)
    for error in errors:
        print("error: " + error)
    if errors:
        sys.exit(1)
    if check_only:
        return
    print("checkpoints: " + " ".join(simulate(out_dir, pods, work, flags)))


if __name__ == "__main__":
    main()
