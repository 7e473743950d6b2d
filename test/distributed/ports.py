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


# The 12,000 ports below the ephemeral range (from 1024 when it starts
# lower).
_HIGH = _ephemeral_low() - 1
_LOW = max(1024, _HIGH - 12000)


def free_port():
    """A port of 127.0.0.1 that nothing is bound to now, in [_LOW, _HIGH]."""
    for _ in range(1000):
        port = _random.randint(_LOW, _HIGH)
        if port in _given:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        _given.add(port)
        return port
    raise RuntimeError("no free port on 127.0.0.1 between %d and %d" % (_LOW, _HIGH))


def free_ports(count):
    return [free_port() for _ in range(count)]
