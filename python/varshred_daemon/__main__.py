# Licensed under the Apache License, Version 2.0.
"""Hands this process's standard streams, environment and working directory to the
daemon started ahead by the driver (varshred._pyspark_daemon.start_ahead), which has
imported pyspark's daemon and worker and varshred while the JVM started, then stays
until that daemon ends, passing on the signals the JVM sends. Without one (or should
it refuse), runs the daemon itself, as ``python -m varshred._pyspark_daemon`` does."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

from varshred_daemon import AHEAD_ENV, receive_exactly


def hand_over(path: str) -> bool:
    """Whether the daemon at ``path`` took over (and has now ended)."""
    try:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(path)
        state = json.dumps({"env": dict(os.environ), "cwd": os.getcwd(),
                            "argv": sys.argv}).encode()
        socket.send_fds(conn, [len(state).to_bytes(8, "big")], [0, 1, 2])
        conn.sendall(state)
        pid = receive_exactly(conn, 8)
    except OSError:  # also ConnectionError: refused before taking over
        return False
    daemon = int.from_bytes(pid, "big")

    def forward(signum, _frame):
        try:
            os.kill(daemon, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(signum, forward)
    # The connection closes when the daemon (and every worker it forked) has ended.
    while conn.recv(1):
        pass
    return True


if __name__ == "__main__":
    path = os.environ.get(AHEAD_ENV)
    if not (path and hand_over(path)):
        from varshred._pyspark_daemon import run

        run()
