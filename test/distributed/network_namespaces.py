"""Runs Inputs/square-on-ps.pbtxt (compiled for worker=1,ps=1) on two test
hosts this script makes: network namespaces joined by a veth pair with
link-local addresses (169.254.77.1 and .2, which never leave the link), so
the tensors cross a real interface rather than loopback. Root only; every
namespace and process is removed at the end, whatever happens.

Two runs, each task started with its own --cluster naming both hosts:
  across hosts  three steps; the chief's output must equal -(x*x) exactly,
                no tensor may go through shared memory (the peer is not
                local), and the veth must have carried the tensors' bytes
                each way;
  link cut      a long job whose link goes down after its first steps
                (the ps's end set down: packets are dropped without a
                reset, a silent partition); the chief's health checks and
                the ps's watch of the chief must each name the other and
                exit with the restartable status 138.

Prints lines for FileCheck, with the ports shown as PORT.

usage: network_namespaces.py PROGRAM_DIR WORKDIR
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from shared_memory import N, STEPS, print_run, write_inputs  # noqa: E402

CHIEF_ADDRESS, PS_ADDRESS = "169.254.77.1", "169.254.77.2"
RUN_SECONDS = 60
# Both sides give up on the other after --health-timeout; the job must
# have ended well within this.
CUT_SECONDS = 30


def ip(*args):
    subprocess.run(["ip"] + list(args), check=True, timeout=30)


class Hosts:
    """Two namespaces, chief and ps, and the veth between them."""

    def __init__(self):
        tag = str(os.getpid())
        self.chief, self.ps = "tfc-chief-" + tag, "tfc-ps-" + tag
        # Interface names have at most 15 characters.
        self.chief_link, self.ps_link = "tfcc" + tag, "tfcp" + tag

    def __enter__(self):
        try:
            for namespace in (self.chief, self.ps):
                ip("netns", "add", namespace)
                ip("-n", namespace, "link", "set", "lo", "up")
            ip("link", "add", self.chief_link, "netns", self.chief, "type", "veth",
               "peer", "name", self.ps_link, "netns", self.ps)
            for namespace, link, address in ((self.chief, self.chief_link, CHIEF_ADDRESS),
                                             (self.ps, self.ps_link, PS_ADDRESS)):
                ip("-n", namespace, "addr", "add", address + "/30", "dev", link)
                ip("-n", namespace, "link", "set", link, "up")
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_):
        # Deleting a namespace deletes its end of the veth, and so both.
        for namespace in (self.chief, self.ps):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True, timeout=30)

    def free_port(self, namespace, address):
        code = ("import socket; s = socket.socket(); s.bind((%r, 0)); "
                "print(s.getsockname()[1])" % address)
        return int(subprocess.run(["ip", "netns", "exec", namespace, sys.executable, "-c", code],
                                  capture_output=True, text=True, check=True,
                                  timeout=30).stdout)

    def received_bytes(self, namespace, link):
        """What `link` has received, from the kernel's counters."""
        text = subprocess.run(["ip", "netns", "exec", namespace, "cat",
                               "/sys/class/net/%s/statistics/rx_bytes" % link],
                              capture_output=True, text=True, check=True, timeout=30).stdout
        return int(text)


def start_tasks(hosts, program, work, ps_flags, chief_flags):
    ports = (hosts.free_port(hosts.chief, CHIEF_ADDRESS), hosts.free_port(hosts.ps, PS_ADDRESS))
    cluster = os.path.join(work, "cluster.json")
    with open(cluster, "w") as f:
        json.dump({"worker": ["%s:%d" % (CHIEF_ADDRESS, ports[0])],
                   "ps": ["%s:%d" % (PS_ADDRESS, ports[1])]}, f)
    common = ["--cluster", cluster, "--connect-timeout", "30",
              "--health-interval", "0.2", "--health-timeout", "2"]
    processes = []
    for namespace, name, flags in ((hosts.ps, "ps-0", ps_flags), (hosts.chief, "worker-0", chief_flags)):
        processes.append(subprocess.Popen(
            ["ip", "netns", "exec", namespace, os.path.join(program, name)] + common + flags,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    return processes, ports


def wait_all(processes, seconds):
    """Each process's (status, output); a process that overstays is killed."""
    results = []
    deadline = time.monotonic() + seconds
    for process in processes:
        try:
            text, _ = process.communicate(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            text = process.communicate()[0] + "\ntimed out"
        results.append((process.returncode, text))
    return results


def stop_all(processes):
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()


def across_hosts(hosts, program, work):
    out = os.path.join(work, "z-across-hosts.npy")
    before = (hosts.received_bytes(hosts.ps, hosts.ps_link),
              hosts.received_bytes(hosts.chief, hosts.chief_link))
    processes, _ = start_tasks(hosts, program, work, ["--transfer-stats"], [
        "--transfer-stats", "--steps", str(STEPS), "--input", "x=" + os.path.join(work, "x.npy"),
        "--output", "z=" + out])
    try:
        results = wait_all(processes, RUN_SECONDS)
    finally:
        stop_all(processes)
    status = next((code for code, _ in results if code != 0), 0)
    print_run("across hosts", status, "".join(text for _, text in results), out, work)
    tensor_bytes = STEPS * N * 4
    for label, namespace, link, start in (("to the ps", hosts.ps, hosts.ps_link, before[0]),
                                          ("to the chief", hosts.chief, hosts.chief_link,
                                           before[1])):
        carried = hosts.received_bytes(namespace, link) - start
        print("across hosts: the link carried the tensors %s: %s"
              % (label, "yes" if carried >= tensor_bytes else "no, %d bytes" % carried))


def link_cut(hosts, program, work):
    processes, ports = start_tasks(hosts, program, work, [], [
        "--steps", "100000000", "--input", "x=" + os.path.join(work, "x.npy")])
    try:
        # Let the job connect and run some steps before the cut.
        time.sleep(2)
        if any(process.poll() is not None for process in processes):
            print("link cut: a task ended before the cut")
        ip("-n", hosts.ps, "link", "set", hosts.ps_link, "down")
        results = wait_all(processes, CUT_SECONDS)
    finally:
        stop_all(processes)
    for name, (code, text) in zip(("ps-0", "worker-0"), results):
        print("link cut: %s exit %d" % (name, code))
        for line in text.splitlines():
            line = line.replace(os.path.join(program, ""), "")
            for port in ports:
                line = line.replace(":%d" % port, ":PORT")
            print("link cut: %s: %s" % (name, re.sub(r"\s+", " ", line)))


def main():
    program, work = sys.argv[1:3]
    write_inputs(work)
    with Hosts() as hosts:
        across_hosts(hosts, program, work)
        link_cut(hosts, program, work)


if __name__ == "__main__":
    main()
