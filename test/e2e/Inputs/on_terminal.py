"""Runs a command with a pseudo-terminal as its stdin, stdout and stderr
(as a user's shell would), bounded in time, and prints what it wrote with
each carriage return and escape sequence made visible (\\r, ESC).

usage: on_terminal.py SECONDS COMMAND...
"""
import os
import pty
import signal
import sys
import time


def main():
    seconds, command = float(sys.argv[1]), sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    deadline = time.monotonic() + seconds
    out = b""
    while time.monotonic() < deadline:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    if time.monotonic() >= deadline:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    text = out.decode(errors="replace").replace("\r\n", "\n")
    print(text.replace("\r", "\\r").replace("\x1b", "ESC"))


if __name__ == "__main__":
    main()
