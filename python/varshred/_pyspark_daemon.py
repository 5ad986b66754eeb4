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
"""

from __future__ import annotations

import os
import sys
import zipfile
from importlib.machinery import PathFinder

_SPARK_ZIPS = ("pyspark.zip", "py4j-")


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


if __name__ == "__main__":
    sys.path[:] = prefer_installed_pyspark(sys.path)
    from pyspark import daemon

    daemon.manager()
