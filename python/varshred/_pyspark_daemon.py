# Licensed under the Apache License, Version 2.0.
"""PySpark's Python daemon for local sessions (``spark.python.daemon.module``, set by
:func:`varshred.pipeline.spark_session`): the same daemon, run from the installed
pyspark rather than from ``pyspark.zip``.

Spark puts ``$SPARK_HOME/python/lib/pyspark.zip`` first on its Python workers' path and
sets ``PYTHONDONTWRITEBYTECODE``; Python keeps no compiled bytecode for modules imported
from a zip, so every daemon compiled pyspark's modules from source before forking its
first worker: 0.57 s against 0.13 s from the installed package (measured on 2 cores),
about half a second before a session's first task starts (docs/cluster.md#start-up).
When the installed pyspark is the zip's own version, the zips move behind it on the
path; otherwise nothing changes.

The daemon can also be started ahead (:func:`start_ahead`): the driver starts a process
that imports what the daemon and its workers import while the JVM starts, and the
module the JVM runs later (``varshred_daemon``, which imports nothing of varshred's)
hands it its standard streams, environment and working directory; it then serves as
the daemon. Without such a process, or should the hand-over fail, the JVM's process
runs the daemon itself.
"""

from __future__ import annotations

import io
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import threading
import zipfile
from importlib.machinery import PathFinder

from varshred_daemon import AHEAD_ENV, receive_exactly

_SPARK_ZIPS = ("pyspark.zip", "py4j-")
_AHEAD_FLAG = "--ahead"
_ahead: "subprocess.Popen | None" = None


def prefer_installed_pyspark(path: list[str]) -> list[str]:
    """``path`` with Spark's ``pyspark.zip`` and py4j zip moved behind the other
    entries, when those hold a pyspark of the zip's version; else ``path`` itself."""
    zips = [p for p in path
            if p.endswith(".zip") and os.path.basename(p).startswith(_SPARK_ZIPS)]
    pyspark_zip = next((p for p in zips if os.path.basename(p) == "pyspark.zip"), None)
    if pyspark_zip is None:
        return path
    rest = [p for p in path if p not in zips]
    spec = PathFinder.find_spec("pyspark", rest)
    if spec is None or not spec.submodule_search_locations:
        return path
    installed = os.path.join(list(spec.submodule_search_locations)[0], "version.py")
    try:
        with zipfile.ZipFile(pyspark_zip) as z, open(installed, "rb") as f:
            if z.read("pyspark/version.py") != f.read():
                return path
    except (OSError, KeyError, zipfile.BadZipFile):
        return path
    return rest + zips


def run() -> None:
    """Runs PySpark's daemon in this process, from the installed pyspark if it can."""
    sys.path[:] = prefer_installed_pyspark(sys.path)
    from pyspark import daemon

    daemon.manager()


def start_ahead() -> None:
    """Starts the daemon ahead of the JVM (unless one started by this process still
    waits) and names its socket in ``os.environ``, which the JVM about to start inherits.
    The process ends with this one if no JVM asks for it."""
    global _ahead
    if _ahead is not None and _ahead.poll() is None and \
            os.path.exists(os.environ.get(AHEAD_ENV, "")):
        return
    path = os.path.join(tempfile.mkdtemp(prefix="varshred-daemon-"), "socket")
    # PySpark runs its workers with a fixed hash seed (PYTHONHASHSEED, default 0):
    # the process that becomes the daemon starts with the seed they would have.
    env = dict(os.environ, PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
    _ahead = subprocess.Popen([sys.executable, "-m", __name__, _AHEAD_FLAG, path], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.environ[AHEAD_ENV] = path


def _serve_ahead(path: str) -> None:
    """The process started by :func:`start_ahead`: imports, then waits for the module
    the JVM starts (or for the driver's end: its pipe on our standard input closes) and
    becomes the daemon with what it hands over."""
    # Listening first: a daemon started by the JVM before the imports end waits for them.
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    try:
        listener.listen(1)
        sys.path[:] = prefer_installed_pyspark(sys.path)
        import pyspark.daemon
        import pyspark.worker  # noqa: F401  (each worker imports it after the fork)

        import varshred.pipeline  # noqa: F401  (what the tasks' functions need)
        import varshred.spark  # noqa: F401

        ready, _, _ = select.select([listener, sys.stdin], [], [])
        if listener not in ready:
            return
        conn, _ = listener.accept()
    finally:
        listener.close()
        os.unlink(path)
        os.rmdir(os.path.dirname(path))
    header, fds, _, _ = socket.recv_fds(conn, 8, 3)
    header += receive_exactly(conn, 8 - len(header))
    state = json.loads(receive_exactly(conn, int.from_bytes(header, "big")))
    seed = os.environ["PYTHONHASHSEED"]
    if threading.active_count() > 1 or state["env"].get("PYTHONHASHSEED", seed) != seed:
        # A fork now would copy a thread's locks, or the workers want another hash
        # seed: the JVM's process runs the daemon itself.
        for fd in fds:
            os.close(fd)
        return
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(state["env"])
    os.chdir(state["cwd"])
    sys.argv = state["argv"]
    # The path the JVM gives its daemon comes first, as at an interpreter's start.
    given = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = prefer_installed_pyspark(given + [p for p in sys.path if p not in given])
    # Unbuffered, as the JVM asks of its daemon (PYTHONUNBUFFERED).
    sys.stdout = io.TextIOWrapper(open(1, "wb", 0, closefd=False), write_through=True)
    sys.stderr = io.TextIOWrapper(open(2, "wb", 0, closefd=False), write_through=True)
    conn.sendall(os.getpid().to_bytes(8, "big"))  # kept open: closes when we end
    pyspark.daemon.manager()


if __name__ == "__main__":
    # Spark starts its daemon with the worker module's name as the argument.
    if sys.argv[1:2] == [_AHEAD_FLAG]:
        _serve_ahead(sys.argv[2])
    else:
        run()
