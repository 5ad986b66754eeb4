# Licensed under the Apache License, Version 2.0.
"""The module varshred's local Spark sessions start as their Python daemon
(``spark.python.daemon.module``): see ``__main__``. A package of its own, so that
starting it imports nothing of varshred's (``python -m varshred.x`` imports varshred,
and with it pyarrow, first)."""

# The socket of the daemon the driver started ahead (varshred._pyspark_daemon), named in
# the environment the JVM passes on to the daemon it starts.
AHEAD_ENV = "VARSHRED_DAEMON_AHEAD"


def receive_exactly(conn, size: int) -> bytes:
    """``size`` bytes of the hand-over from ``conn``; ConnectionError if it ends first."""
    data = bytearray()
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the daemon's hand-over ended early")
        data += chunk
    return bytes(data)
