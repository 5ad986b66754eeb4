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

import errno
import os
import re
from typing import Any

__all__ = ["is_uri", "join", "location", "resolve", "without_query"]

_URI = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]+://")


def is_uri(path: str) -> bool:
    """``scheme://...`` (``file://`` included); the C++ rule (parquet/filesystem.cc)."""
    return bool(_URI.match(path))


def without_query(path: str) -> str:
    """A URI without its query parameters (for its name and extension)."""
    return path.partition("?")[0] if is_uri(path) else path


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


# ----------------------------------------------------------------------------
# What the pipeline needs of a store besides the C++ reader and writer: listing, sizes,
# staging directories and the job commit's moves, by path or URI alike.

def _info(path: str):
    fs, inner = resolve(path)
    return fs, inner, fs.get_file_info(inner)


def not_found(message: str) -> FileNotFoundError:
    """A FileNotFoundError with ``errno`` set, as the OS's own carry it (its text is
    ``message`` alone)."""
    e = FileNotFoundError(message)
    e.errno = errno.ENOENT
    return e


def size(path: str) -> int:
    fs, inner, info = _info(path)
    if info.size is None:
        raise not_found(f"{path}: no such file")
    return info.size


def list_files(path: str) -> list[str]:
    """The files under ``path`` (itself when a file), recursively, skipping names that
    start with ``_`` or ``.`` below it, as Spark and pyarrow do; named as ``path`` names
    them (a URI's files as URIs, its query kept). [] when nothing is there."""
    import pyarrow.fs as pafs

    fs, inner, info = _info(path)
    if info.type == pafs.FileType.File:
        return [path]
    if info.type != pafs.FileType.Directory:
        return []
    root = inner.rstrip("/")
    out = []
    for f in fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        rel = f.path[len(root):].lstrip("/")
        if f.type == pafs.FileType.File and not any(
                part.startswith(("_", ".")) for part in rel.split("/")):
            out.append(rel)
    return [join(path, rel) for rel in sorted(out)]


def exists(path: str) -> bool:
    import pyarrow.fs as pafs

    return _info(path)[2].type != pafs.FileType.NotFound


def is_file(path: str) -> bool:
    import pyarrow.fs as pafs

    return _info(path)[2].type == pafs.FileType.File


def has_data(path: str) -> bool:
    """A file, or a directory with anything in it."""
    import pyarrow.fs as pafs

    fs, inner, info = _info(path)
    if info.type == pafs.FileType.File:
        return True
    if info.type != pafs.FileType.Directory:
        return False
    return bool(fs.get_file_info(pafs.FileSelector(inner, recursive=False)))


def makedirs(path: str) -> None:
    """A directory (object stores have none: nothing to do there)."""
    fs, inner = resolve(path)
    if fs.type_name == "local":
        fs.create_dir(inner, recursive=True)


def remove_tree(path: str) -> None:
    """Deletes ``path`` and everything below it; no error when it is not there."""
    fs, inner = resolve(path)
    try:
        fs.delete_dir(inner)
    except (FileNotFoundError, OSError):
        pass


def remove(path: str) -> None:
    fs, inner = resolve(path)
    fs.delete_file(inner)


def move(src: str, dst: str) -> None:
    """A rename where the store has one (local files, HDFS); S3 and GCS copy on the
    server, then delete: the object appears under ``dst`` at once and whole."""
    fs, a = resolve(src)
    _, b = resolve(dst)
    fs.move(a, b)
