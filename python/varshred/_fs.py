# Licensed under the Apache License, Version 2.0.
"""Where varshred's readers and writers find files: a local path, a URI of any store
Arrow's filesystem layer knows (``file://``, ``s3://``, ``gs://``, ``abfs://``,
``hdfs://``), or a path in a given ``pyarrow.fs.FileSystem`` (docs/storage.md).

The one place that turns a user's path (and optional ``filesystem=``) into what the
C++ reader and writer take (:func:`location`) or into a pyarrow filesystem for Python's
own I/O: listing, footers, JSON lines (:func:`resolve`). Data are always read and
written by Arrow's C++ filesystems, never through Python file objects.
"""

from __future__ import annotations

import os
import re
from typing import Any

__all__ = ["is_uri", "join", "location", "resolve"]

_URI = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+://")


def is_uri(path: str) -> bool:
    """``scheme://...`` (``file://`` included); the C++ rule (parquet/filesystem.cc)."""
    return bool(_URI.match(path))


def _check(filesystem: Any) -> None:
    import pyarrow.fs as pafs

    if filesystem is not None and not isinstance(filesystem, pafs.FileSystem):
        raise TypeError(f"filesystem must be a pyarrow.fs.FileSystem, got "
                        f"{type(filesystem).__name__}")


def location(path: Any, filesystem: Any = None) -> tuple[str, Any]:
    """``(path, filesystem)`` for the C++ reader and writer: with no ``filesystem`` the
    C++ side resolves the path itself (a local path, or a URI with its query
    parameters and the standard environment variables: ``AWS_*``...)."""
    path = os.fspath(path)
    _check(filesystem)
    if filesystem is None and is_uri(path):
        # pyarrow finalizes S3 at exit (pyarrow.fs registers it): varshred's C++ uses
        # the same libarrow, whose S3 client must be shut down before the process ends.
        import pyarrow.fs  # noqa: F401
    return path, filesystem


def resolve(path: Any, filesystem: Any = None) -> tuple[Any, str]:
    """``(pyarrow filesystem, path in it)`` for Python-side I/O."""
    import pyarrow.fs as pafs

    path, filesystem = location(path, filesystem)
    if filesystem is not None:
        if is_uri(path):  # a URI of that filesystem: its path part
            path = path.split("://", 1)[1].split("?", 1)[0]
            path = path if filesystem.type_name != "local" else "/" + path.lstrip("/")
        return filesystem, path
    if is_uri(path):
        return pafs.FileSystem.from_uri(path)
    return pafs.LocalFileSystem(), path


def join(base: str, *names: str) -> str:
    """``base/name...`` for local paths and URIs alike (a URI's query stays at the end)."""
    base, sep, query = base.partition("?")
    out = base.rstrip("/") + "/" + "/".join(names) if is_uri(base) else os.path.join(base, *names)
    return out + sep + query
