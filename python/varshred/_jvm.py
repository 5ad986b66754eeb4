# Licensed under the Apache License, Version 2.0.
"""A faster start for the Spark driver of varshred's own JSON-lines job, whose JVM does
little work (the tasks parse and write in Python; docs/cluster.md#start-up):

* ``-XX:TieredStopAtLevel=1 -XX:+UseSerialGC``: no C2 compiler threads and no G1
  background threads competing with the start-up for the cores;
* application class-data sharing: the classes Spark loads at start-up, archived by the
  first run's JVM at its exit (``-XX:ArchiveClassesAtExit``) and mapped by later runs
  (``-XX:SharedArchiveFile``). The archive lives in ``$XDG_CACHE_HOME/varshred/jvm``
  (``~/.cache`` by default), one per pyspark and Java installation; a JVM whose class
  path differs from the archive's ignores it.

Measured on 2 cores (a local[2] session and its first job): 18.3 s without these
options, 14.4 s with the first two, 8.5 s with the archive; the run that writes the
archive takes 7 s longer, once. ``VARSHRED_JVM_FAST_START=0`` turns all of it off.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import sys
import time

# A finished run's archive is adopted once it has not changed for this long.
_SETTLED_SECONDS = 2


def enabled() -> bool:
    return os.environ.get("VARSHRED_JVM_FAST_START", "1") not in ("0", "false", "no")


def driver_options() -> list[str]:
    """JVM options for the driver of a job whose work runs in Python tasks."""
    options = ["-XX:+IgnoreUnrecognizedVMOptions", "-XX:TieredStopAtLevel=1",
               "-XX:+UseSerialGC"]
    try:
        archive, ours = _archive()
    except OSError:  # no writable cache: start without sharing
        return options
    if archive is not None:
        options.append(f"-XX:SharedArchiveFile={archive}")
    elif ours is not None:
        # The dump at exit warns once per class it skips (signed jars...): hundreds of
        # lines on the user's terminal at the end of a first run.
        options += [f"-XX:ArchiveClassesAtExit={ours}", "-Xlog:cds=off"]
    return options


def writes_archive(options: list[str]) -> bool:
    """Whether a JVM started with ``options`` (driver_options()'s) writes the archive."""
    return any(o.startswith("-XX:ArchiveClassesAtExit=") for o in options)


def _archive() -> tuple[str | None, str | None]:
    """(the archive to map, or None; the name this run's JVM is to write one to, or
    None)."""
    import pyspark

    home = os.environ.get("JAVA_HOME")  # what pyspark's launcher runs, else PATH's
    java = (shutil.which("java", path=os.path.join(home, "bin")) if home else None) \
        or shutil.which("java") or "java"
    java = os.path.realpath(java)
    stamp = f"{pyspark.__version__} {os.path.dirname(pyspark.__file__)} {java} " \
            f"{os.stat(java).st_mtime_ns if os.path.exists(java) else 0}"
    key = hashlib.sha1(stamp.encode()).hexdigest()[:16]
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or
                         os.path.join(os.path.expanduser("~"), ".cache"), "varshred", "jvm")
    os.makedirs(cache, exist_ok=True)
    final = os.path.join(cache, f"spark-{key}.jsa")
    # A run's archive carries its process id. Its JVM writes it at exit, which comes
    # after that process has ended (the JVM shuts down once its standard input closes):
    # the archive is complete once neither is alive and it has not changed for a while.
    # The first one is adopted; any other ended run's archive (two runs that started
    # together) would lie in the cache for good, about 150 MB each: removed.
    writing = False
    for candidate in glob.glob(os.path.join(cache, f"spark-{key}.*.jsa")):
        st = os.stat(candidate)
        if _alive(int(candidate.rsplit(".", 2)[-2])) or _dumping(candidate) or \
                time.time() - st.st_mtime < _SETTLED_SECONDS:
            writing = True
        elif st.st_size > 0 and not os.path.exists(final):
            os.replace(candidate, final)
        else:
            os.remove(candidate)
    if os.path.exists(final):
        return final, None
    if writing:  # another run is writing it: start without sharing this time
        return None, None
    return None, os.path.join(cache, f"spark-{key}.{os.getpid()}.jsa")


def _dumping(archive: str) -> bool:
    """Whether a process started with ``-XX:ArchiveClassesAtExit=archive`` (a JVM that
    writes it at exit) is alive; False where /proc does not tell."""
    needle = f"-XX:ArchiveClassesAtExit={archive}".encode()
    for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(cmdline, "rb") as f:
                if needle in f.read():
                    return True
        except OSError:  # the process ended meanwhile
            continue
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


if __name__ == "__main__":  # prints the options, for a look at the cache
    print(" ".join(driver_options()), file=sys.stdout)
