"""Free loopback ports for the tasks a test starts.

A port the kernel gives to bind(("127.0.0.1", 0)) lies in its ephemeral
range (net.ipv4.ip_local_port_range, 32768-60999 by default), the range
it also takes the local ports of outgoing connections from. Between the
test picking such a port and its task listening on it, any connection on
the machine (another test's gRPC channels, under ctest -j2) may take it,
and the task fails with "cannot listen". So ports are drawn at random
below that range, each checked free by binding it, none given twice.
"""
import random
import socket

# Drawn from the operating system's entropy: tests running at once must
# not draw the same sequence.
_random = random.SystemRandom()
_given = set()


def _ephemeral_low():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port(host="127.0.0.1"):
    """A port of `host` that nothing is bound to now, among the 12,000
    below the ephemeral range (from 1024 when it starts lower)."""
    high = _ephemeral_low() - 1
    low = max(1024, high - 12000)
    for _ in range(1000):
        port = _random.randint(low, high)
        if port in _given:
            continue
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
        _given.add(port)
        return port
    raise RuntimeError("no free port on %s between %d and %d" % (host, low, high))


def free_ports(count, host="127.0.0.1"):
    return [free_port(host) for _ in range(count)]
