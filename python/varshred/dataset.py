# Licensed under the Apache License, Version 2.0.
"""Datasets: a file, a directory, a glob or a list of them, read as one table
(docs/datasets.md).

Listing lives here and only here (:func:`files`): every path argument of
``varshred.parquet`` and of the CLI goes through it. It lists through a
``pyarrow.fs.FileSystem`` (``LocalFileSystem`` for local paths) so that object stores
plug in by passing ``filesystem=`` or a URI.

A scan reads *units*, one row group of one file each, in dataset order: ``threads``
workers decode up to ``readahead`` units ahead of the consumer (the C++ reader runs
without the GIL), so memory is bounded by ``readahead`` row groups, not by the
dataset's size, and rows come out in order.
"""

from __future__ import annotations

import decimal
import json
import math
import numbers
import os
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from fnmatch import fnmatchcase
from typing import Any, Callable, Iterable, Iterator, Sequence
from urllib.parse import unquote

import pyarrow as pa
import pyarrow.fs as pafs

from varshred import _fs
from varshred.errors import VariantError


__all__ = ["files", "Dataset"]

_MAGIC = re.compile(r"[*?[]")
HIVE_NULL = "__HIVE_DEFAULT_PARTITION__"  # Hive's and Spark's name for a null key

def _hidden(name: str) -> bool:
    """Spark's and pyarrow's rule: _SUCCESS, _temporary, .crc files, .staging ..."""
    return name.startswith(("_", "."))


def _filesystem(path: str, filesystem: pafs.FileSystem | None
                ) -> tuple[pafs.FileSystem, str, str]:
    """(filesystem, the path inside it, the prefix that turns a listed path back into
    the string the reader opens)."""
    if filesystem is not None:  # a path in it, or a URI of it (its path part)
        return filesystem, _fs.resolve(path, filesystem)[1], ""
    if path.startswith("file://"):  # read as the local path
        return pafs.LocalFileSystem(), path[len("file://"):], ""
    if _fs.is_uri(path):
        fs, inner = pafs.FileSystem.from_uri(path)
        # The prefix keeps the scheme and any credentials (s3://key:secret@bucket/...).
        scheme_end = path.index("://") + 3
        authority = path[scheme_end:].split("/", 1)[0].split("?", 1)[0]
        user = authority.rpartition("@")[0]
        return fs, inner, path[:scheme_end] + (user + "@" if user else "")
    return pafs.LocalFileSystem(), path, ""


@dataclass(frozen=True)
class _Entry:
    path: str                       # as the reader opens it
    partition: tuple                # ((key, value or None), ...) from key=value directories


def _walk(fs: pafs.FileSystem, base: str) -> list[tuple[str, tuple[str, ...]]]:
    """The visible files below ``base``, sorted, each with its directories below base."""
    root = base.rstrip("/")
    out = []
    for info in fs.get_file_info(pafs.FileSelector(base, recursive=True)):
        if info.type != pafs.FileType.File:
            continue
        parts = info.path[len(root):].lstrip("/").split("/")
        if not any(_hidden(p) for p in parts):
            out.append((info.path, tuple(parts[:-1])))
    return sorted(out)


def _glob(fs: pafs.FileSystem, pattern: str) -> list[str]:
    """Paths matching ``pattern`` (``*``, ``?``, ``[..]`` within one path component, as
    the shell's), hidden names left out unless the pattern component names them."""
    parts = pattern.rstrip("/").split("/")
    first = next(i for i, p in enumerate(parts) if _MAGIC.search(p))
    head, want = parts[:first], parts[first:]
    base = "/".join(head) or ("/" if pattern.startswith("/") else ".")
    if fs.get_file_info(base).type != pafs.FileType.Directory:
        return []
    out = []
    for info in fs.get_file_info(pafs.FileSelector(base, recursive=len(want) > 1)):
        rel = info.path[len(base.rstrip("/")):].lstrip("/").split("/")
        if len(rel) == len(want) and all(fnmatchcase(r, w) and (not _hidden(r) or _hidden(w))
                                         for r, w in zip(rel, want)):
            out.append("/".join(head + rel))  # spelled as the pattern spells its base
    return sorted(out)


def _expand(path: str, filesystem: pafs.FileSystem | None) -> list[_Entry]:
    fs, inner, prefix = _filesystem(path, filesystem)
    # A URI's query (endpoint_override=...) is kept on every file listed from it.
    query = "?" + path.partition("?")[2] if prefix and "?" in path else ""
    # A name with glob characters that exists is that file or directory (`[x].parquet`
    # is not `x.parquet`); only one that does not is a pattern.
    if _MAGIC.search(inner) and fs.get_file_info(inner).type == pafs.FileType.NotFound:
        matches = [prefix + m for m in _glob(fs, inner)]
        if not matches:
            raise _fs.not_found(f"{path}: no file or directory matches")
    else:
        matches = [prefix + inner]
    out = []
    for m in matches:
        inside = m[len(prefix):]
        info = fs.get_file_info(inside)
        if info.type == pafs.FileType.NotFound:
            raise _fs.not_found(f"{m}: no such file or directory")
        if info.type == pafs.FileType.Directory:
            out += [_Entry(prefix + p + query, _partition(dirs))
                    for p, dirs in _walk(fs, inside)]
        else:  # a file named (or matched) is read whatever its name
            out.append(_Entry(m + query, ()))
    return out


def hive_partitioned(root: str, files: Sequence[str]) -> bool:
    """Whether any of ``files`` lies below the directory ``root`` in Hive-style
    ``key=value`` directories: columns a read of ``root`` adds (Spark's, and
    varshred's), which the files themselves do not hold."""
    prefix = root.rstrip("/") + "/"
    return any(_partition(tuple(f[len(prefix):].split("/")[:-1]))
               for f in files if f.startswith(prefix))


def _partition(dirs: tuple[str, ...]) -> tuple:
    """Hive-style ``key=value`` directories -> ((key, value), ...); values URL-decoded
    as Spark writes them, Hive's default partition name meaning null."""
    out = []
    for d in dirs:
        key, sep, value = d.partition("=")
        if sep and key:
            value = unquote(value)
            out.append((unquote(key), None if value == HIVE_NULL else value))
    return tuple(out)


def _sources(source: Any) -> list[str]:
    if isinstance(source, (str, os.PathLike)):
        return [os.fspath(source)]
    items = [os.fspath(s) for s in source]
    if not items:
        raise ValueError("no paths given: an empty list")
    return items


def _entries(source: Any, filesystem: pafs.FileSystem | None) -> list[_Entry]:
    return [e for s in _sources(source) for e in _expand(s, filesystem)]


def files(source: Any, *, filesystem: pafs.FileSystem | None = None) -> list[str]:
    """The data files of ``source``: a file (returned as named, whatever its name), a
    directory (every file below it, recursively, in sorted order, skipping names that
    start with ``_`` or ``.`` at any level, as Spark and pyarrow do), a glob (``*``,
    ``?``, ``[...]`` within a path component; matched directories are listed as
    directories are), or a list of these (in the list's order). A path that matches
    nothing is a :class:`FileNotFoundError`; a directory without data files gives an
    empty list."""
    return [e.path for e in _entries(source, filesystem)]


def is_single_file(source: Any, filesystem: pafs.FileSystem | None = None) -> bool:
    """True when ``source`` names one existing file (not a directory, glob or list; a
    file whose name holds glob characters is that file, as in :func:`files`)."""
    if not isinstance(source, (str, os.PathLike)):
        return False
    path = os.fspath(source)
    fs, inner, _ = _filesystem(path, filesystem)
    return fs.get_file_info(inner).type == pafs.FileType.File


# ----------------------------------------------------------------------------
# Filters

# pyarrow.compute's functions by name: the module is imported only when a filter runs
# (a fifth of varshred's import time, paid by every Spark worker otherwise).
_COMPARE = {"==": "equal", "=": "equal", "<": "less", "<=": "less_equal",
            ">": "greater", ">=": "greater_equal"}


@dataclass(frozen=True)
class Condition:
    """One ``(path, op, value)`` of a filter: ``column`` is the Variant column and
    ``path`` its Spark path, or ``path`` is None and ``column`` a plain (or partition)
    column compared as it is."""

    column: str
    path: str | None
    op: str
    literal: Any

    def __str__(self) -> str:
        where = self.column if self.path is None else f"{self.column} {self.path}"
        return f"{where} {self.op} {self.literal!r}"


def parse_filter(filter: Any, variant_columns: list[str]) -> list[Condition]:
    """``("$.id", "==", 42)`` (a path of the dataset's only Variant column),
    ``("v", "$.id", "==", 42)`` (a path of column v), ``("day", "==", "2026-11-23")``
    (a plain or partition column: the first item does not start with ``$``), or a list
    of these, all of which must hold."""
    if filter is None:
        return []
    items = [filter] if isinstance(filter, tuple) else list(filter)
    out = []
    for item in items:
        if not isinstance(item, tuple) or len(item) not in (3, 4):
            raise ValueError(f"filter: expected (path, op, value), (column, path, op, "
                             f"value) or a list of them, got {item!r}")
        if len(item) == 4:
            column, path, op, literal = item
        elif isinstance(item[0], str) and item[0].startswith("$"):
            if len(variant_columns) != 1:
                raise ValueError(f"filter {item!r}: the dataset has Variant columns "
                                 f"{variant_columns}; name one: (column, path, op, value)")
            column, (path, op, literal) = variant_columns[0], item
        else:
            (column, op, literal), path = item, None
        if op not in _COMPARE:
            raise ValueError(f"filter {item!r}: op must be one of {sorted(_COMPARE)}")
        if literal is None:
            raise ValueError(f"filter {item!r}: comparing with None is never true")
        if path is not None and column not in variant_columns:
            raise ValueError(f"filter {item!r}: {column!r} is not a Variant column of the "
                             f"dataset (Variant columns: {variant_columns})")
        out.append(Condition(column, path, op, filter_literal(literal, item)))
    return out


def filter_literal(literal: Any, where: Any) -> Any:
    """``literal`` as filters compare it: an integer past int64 is the exact decimal it
    names (every BIGINT is below 2**63, and a decimal(38) value may equal it)."""
    if (isinstance(literal, numbers.Integral) and not isinstance(literal, bool)
            and not -2**63 <= literal < 2**63):
        if abs(literal) >= 10**38:
            raise ValueError(f"filter {where!r}: an integer literal has at most 38 digits")
        return decimal.Decimal(int(literal))
    return literal


def compare(values: pa.Array | pa.ChunkedArray, cond: Condition) -> pa.Array:
    """The rows where ``values <op> literal`` is true (null counts as false)."""
    import pyarrow.compute as pc

    if _is_number(cond.literal) and (pa.types.is_integer(values.type)
                                     or pa.types.is_floating(values.type)):
        return pc.fill_null(_compare_numbers(values, cond.op, cond.literal), False)
    try:
        scalar = pa.scalar(cond.literal)
        try:  # numbers of any two types compare as numbers (an int64 column < 1.5)
            mask = pc.call_function(_COMPARE[cond.op], [values, scalar])
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
            # Other types: the literal as the column's type ("2026-11-23" as a date).
            mask = pc.call_function(_COMPARE[cond.op], [values, scalar.cast(values.type)])
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as e:
        raise ValueError(f"filter {cond}: cannot compare {values.type} with "
                         f"{cond.literal!r} ({e})") from None
    return pc.fill_null(mask, False)


def _is_number(x: Any) -> bool:
    return isinstance(x, (numbers.Real, decimal.Decimal)) and not isinstance(x, bool)


def _compare_numbers(values: pa.Array | pa.ChunkedArray, op: str, literal: Any) -> Any:
    """An integer or floating column against any number, exactly: pyarrow's compare
    casts an int64 column to double, and refuses values past 2**53 (and a uint64
    column against a negative number). The literal becomes the bound of the column's
    own kind that selects the same rows (x < 1.5 is x < 2 for integers)."""
    import pyarrow.compute as pc

    fn = _COMPARE[op]
    everything = pc.is_valid(values)
    nothing = pc.and_(everything, pa.scalar(False))
    if isinstance(literal, numbers.Integral):
        literal = int(literal)
    elif not isinstance(literal, decimal.Decimal) or not literal.is_finite():
        literal = float(literal)  # NumPy's floats too: their value exactly
    if isinstance(literal, float) and not math.isfinite(literal):
        if pa.types.is_floating(values.type):
            return pc.call_function(fn, [values.cast(pa.float64()), pa.scalar(literal)])
        if fn == "equal" or math.isnan(literal):
            return nothing
        # Every integer is below +inf and above -inf.
        return everything if (literal > 0) == (fn in ("less", "less_equal")) else nothing
    exact = Fraction(literal)
    if pa.types.is_floating(values.type):
        values = values.cast(pa.float64())  # float32 widens exactly
        try:
            near = float(exact)  # the nearest double: exact, or one of the two around
        except OverflowError:
            near = math.inf if exact > 0 else -math.inf
        if math.isfinite(near) and Fraction(near) == exact:
            return pc.call_function(fn, [values, pa.scalar(near)])
        if fn == "equal":
            return nothing
        if math.isfinite(near):  # the largest double below the literal
            below = near if Fraction(near) < exact else math.nextafter(near, -math.inf)
        else:
            below = sys.float_info.max if near > 0 else -math.inf
        above = math.nextafter(below, math.inf)
        if fn in ("less", "less_equal"):
            return pc.less_equal(values, pa.scalar(below))
        return pc.greater_equal(values, pa.scalar(above))
    # Integers: x < q is x < ceil(q); x <= q is x <= floor(q); and so on.
    bound = {"less": math.ceil, "greater_equal": math.ceil, "less_equal": math.floor,
             "greater": math.floor, "equal": int}[fn](exact)
    if fn == "equal" and bound != exact:
        return nothing
    info = values.type
    lo = 0 if pa.types.is_unsigned_integer(info) else -(2 ** (info.bit_width - 1))
    hi = 2 ** (info.bit_width - (0 if pa.types.is_unsigned_integer(info) else 1)) - 1
    if lo <= bound <= hi:
        return pc.call_function(fn, [values, pa.scalar(bound, info)])
    # Past the type's range every value is on one side of the bound.
    all_below = bound > hi
    if fn == "equal":
        return nothing
    return everything if all_below == (fn in ("less", "less_equal")) else nothing


def path_values(variants: Any, cond: Condition) -> pa.Array | pa.ChunkedArray:
    """``variant_get(column, path, <the literal's type>)``: the rows' values a Variant
    condition compares, cast by variant_get's rules (a value that does not cast is
    null, so never matches)."""
    from varshred.get import variant_get

    target = pa.scalar(cond.literal).type
    return variant_get(variants, cond.path, target, errors="null")


# ----------------------------------------------------------------------------
# Scans


@dataclass
class FileInfo:
    """What a scan needs from a file's footer."""

    schema: pa.Schema          # as the reader returns it (Variant columns rebuilt)
    row_group_rows: list[int]  # rows per row group
    row_group_bytes: list[int]  # uncompressed bytes per row group (all columns)
    variant_columns: set       # names of the file's Variant columns
    # Whether a column nests as deep as Arrow's C data interface imports (64 levels): a
    # column as stored then cannot cross into pyarrow, only rebuilt. Judged from the
    # Parquet leaf paths, which nest lists one level deeper than Arrow: never too low.
    too_deep_to_import: bool = False


@dataclass(frozen=True)
class Unit:
    """Row groups of one file, read by one worker."""

    file: int
    row_groups: tuple[int, ...]
    rows: int


class OpenFiles:
    """Each file of a scan opened once (its footer read once) for the units that read
    its row groups, and dropped after its last unit. Reading a file of many row groups
    then parses its footer once, not once per row group, and every unit reads the file
    the scan opened, even if another is renamed over its path meanwhile. The opened
    footer must be the one the scan was planned with (:class:`FileInfo`): else the
    file changed in between, and the scan fails rather than mix the two."""

    def __init__(self, ds: Dataset, infos: list[FileInfo], units: list[Unit]):
        from collections import Counter

        self._ds, self._infos = ds, infos
        self._left = Counter(u.file for u in units)
        self._open: dict[int, list] = {}  # file -> [lock, OpenedFile or None]
        self._lock = threading.Lock()

    def get(self, file: int) -> Any:
        from varshred import _parquet

        with self._lock:
            entry = self._open.setdefault(file, [threading.Lock(), None])
        with entry[0]:  # one opening per file; other files open meanwhile
            if entry[1] is None:
                path = self._ds.paths[file]
                opened = _parquet.open_file(path, self._ds.filesystem)
                if opened.row_group_rows != self._infos[file].row_group_rows:
                    raise VariantError(f"{path}: the file changed during the scan (its "
                                       "row groups differ from those the scan planned)")
                entry[1] = opened
            return entry[1]

    def done(self, file: int) -> None:
        """One unit of ``file`` is read: after its last, the file is closed."""
        with self._lock:
            self._left[file] -= 1
            if self._left[file] <= 0:
                self._open.pop(file, None)


# Consecutive row groups of one file are read as one unit while it holds fewer rows
# and (uncompressed) bytes than these: each unit costs a reader, its batches' Python
# steps and a task (about a millisecond), which files of many small row groups paid per
# row group. The bytes bound what a worker holds of one unit.
UNIT_ROWS = 65536
UNIT_BYTES = 16 << 20


def _group_units(file: int, groups: list[tuple[int, int, int]]) -> list[Unit]:
    """Units of the (row group, rows, bytes) ``groups`` of ``file``, in order:
    consecutive row groups together up to :data:`UNIT_ROWS` rows and
    :data:`UNIT_BYTES` bytes, a larger one alone."""
    units: list[Unit] = []
    run: list[int] = []
    rows = size = 0
    for g, n, b in groups:
        if run and (rows + n > UNIT_ROWS or size + b > UNIT_BYTES or g != run[-1] + 1):
            units.append(Unit(file, tuple(run), rows))
            run, rows, size = [], 0, 0
        run.append(g)
        rows += n
        size += b
    if run:
        units.append(Unit(file, tuple(run), rows))
    return units


def default_threads(threads: int | None) -> int:
    n = (os.cpu_count() or 1) if threads is None else int(threads)
    if n < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    return n


_NONE = object()


def _ahead(pool, fn, items, depth: int):
    """``map(fn, items)`` with up to ``depth`` calls running ahead on ``pool``."""
    from collections import deque
    from itertools import islice

    pid = os.getpid()
    items = iter(items)
    pending = deque((pool.submit(fn, x), x) for x in islice(items, depth))
    while pending:
        if os.getpid() != pid:
            # A forked child: the pool's threads stayed in the parent, and what they
            # had not finished never will be here. The child goes on alone.
            for future, x in pending:
                yield future.result() if future.done() else fn(x)
            yield from map(fn, items)
            return
        result = pending.popleft()[0].result()
        nxt = next(items, _NONE)
        if nxt is not _NONE:
            pending.append((pool.submit(fn, nxt), nxt))
        yield result


def ordered_map(fn: Callable, items: Iterable, threads: int, readahead: int | None
                ) -> Iterator:
    """``map(fn, items)`` with ``threads`` workers and at most ``readahead`` calls
    (default ``2 * threads``) running or done ahead of the consumer; in order."""
    if threads <= 1:
        yield from map(fn, items)
        return
    depth = max(1, 2 * threads if readahead is None else int(readahead))
    pool = ThreadPoolExecutor(threads, thread_name_prefix="varshred-scan")
    try:
        yield from _ahead(pool, fn, items, depth)
    finally:  # the consumer stopped early or a unit failed: drop what is queued
        pool.shutdown(wait=True, cancel_futures=True)


class Dataset:
    """The files of a source (see :func:`files`) with their partition values."""

    def __init__(self, source: Any, *, filesystem: pafs.FileSystem | None = None):
        self.source = source
        self.filesystem = filesystem
        self.entries = _entries(source, filesystem)
        self.paths = [e.path for e in self.entries]
        self.partition_schema = self._partition_schema()

    def __repr__(self) -> str:
        return f"Dataset({self.source!r}: {len(self.paths)} files)"

    def _partition_schema(self) -> pa.Schema:
        """One field per partition key (in order of appearance): int64 when every
        non-null value of the key parses as an integer that fits it, else string."""
        values: dict[str, list] = {}
        for e in self.entries:
            for k, v in e.partition:
                values.setdefault(k, []).append(v)
        fields = []
        for k, vs in values.items():
            ints = all(v is None or (re.fullmatch(r"[+-]?\d+", v) and -2**63 <= int(v) < 2**63)
                       for v in vs)
            fields.append(pa.field(k, pa.int64() if ints and any(vs) else pa.string()))
        return pa.schema(fields)

    def partition_values(self, i: int) -> dict[str, Any]:
        raw = dict(self.entries[i].partition)
        out = {}
        for f in self.partition_schema:
            v = raw.get(f.name)
            out[f.name] = int(v) if v is not None and pa.types.is_integer(f.type) else v
        return out

    def infos(self, shredded: bool, on_conflict: int, threads: int) -> list[FileInfo]:
        return list(ordered_map(lambda p: _file_info(p, shredded, on_conflict,
                                                     self.filesystem),
                                self.paths, threads, None))

    def schema(self, infos: list[FileInfo], columns: list[str] | None = None) -> pa.Schema:
        """One schema for all files: columns in order of first appearance (restricted
        to ``columns``), then the partition columns. A column missing from some files
        is null there; one of two different types is an error naming both files
        (Variant columns have one type whatever each file's shredding)."""
        # Sets, not lists: a file may have many thousands of columns.
        wanted = None if columns is None else set(columns)
        partitions = set(self.partition_schema.names)
        seen: dict[str, tuple[pa.Field, str]] = {}
        for path, info in zip(self.paths, infos):
            for f in info.schema:
                if wanted is not None and f.name not in wanted:
                    continue
                if f.name not in seen:
                    seen[f.name] = (f, path)
                    continue
                g, first = seen[f.name]
                if g.type == f.type or pa.types.is_null(f.type):
                    if f.nullable and not g.nullable:
                        seen[f.name] = (g.with_nullable(True), first)
                elif pa.types.is_null(g.type):
                    seen[f.name] = (f, path)
                else:
                    raise TypeError(
                        f"column {f.name!r} is {g.type} in {first} but {f.type} in {path}"
                        + ("; shredded=True keeps each file's shredding, read with "
                           "shredded=False for one Variant type"
                           if "typed_value" in str(g.type) + str(f.type) else ""))
        for name in columns or []:
            if name not in seen and name not in partitions:
                raise KeyError(f"{_describe(self.source)}: no column named {name!r}")
        fields = []
        names_of = [set(info.schema.names) for info in infos]
        for name, (f, _) in seen.items():
            if name in partitions:
                raise ValueError(f"{_describe(self.source)}: {name!r} is both a column of "
                                 "the files and a partition directory key")
            missing = any(name not in names for names in names_of)
            fields.append(f.with_nullable(True) if missing else f)
        fields += [f for f in self.partition_schema if wanted is None or f.name in wanted]
        metadata = infos[0].schema.metadata if len(infos) == 1 else None
        return pa.schema(fields, metadata=metadata)

    def units(self, infos: list[FileInfo], conditions: list[Condition],
              threads: int = 1) -> list[Unit]:
        """The row groups left after pruning, in units (:func:`_group_units`): a
        partition condition skips whole files; a Variant one the row groups that
        :func:`varshred.parquet.prunable_row_groups` proves hold no match (footers
        read on ``threads`` threads)."""
        from varshred.parquet import _prunable_file

        def file_units(i: int) -> list[Unit]:
            path, info = self.paths[i], infos[i]
            every = set(range(len(info.row_group_rows)))
            skip: set[int] = set()
            part = self.partition_values(i)
            for c in conditions:
                if c.path is None and c.column in part:
                    value = pa.array([part[c.column]],
                                     self.partition_schema.field(c.column).type)
                    if not compare(value, c)[0].as_py():
                        return []
                elif c.path is not None:
                    if c.column not in info.schema.names:
                        return []  # the column is null in every row: no match
                    skip.update(_prunable_file(path, c.column, c.path, c.op, c.literal,
                                                self.filesystem))
                if skip == every:
                    return []
            return _group_units(i, [(g, n, b) for g, (n, b) in
                                    enumerate(zip(info.row_group_rows, info.row_group_bytes))
                                    if g not in skip])

        return [u for us in ordered_map(file_units, range(len(self.paths)),
                                        threads if conditions else 1, None) for u in us]

    def conform(self, table: pa.Table | None, unit: Unit, schema: pa.Schema,
                as_stored: set[str] = frozenset()) -> pa.Table:
        """``table`` (rows of one unit; None when the file has none of the columns)
        with ``schema``'s columns: missing ones null, partition values repeated. The
        columns named in ``as_stored`` keep the file's type (a Variant column's own
        shredding)."""
        part = self.partition_values(unit.file)
        n = unit.rows if table is None else table.num_rows
        if not schema.names:
            return without_columns(n)
        cols = []
        present = set() if table is None else set(table.column_names)
        for f in schema:
            if f.name in part:
                cols.append(pa.repeat(pa.scalar(part[f.name], f.type), n))
            elif f.name in present:
                c = table[f.name]
                cols.append(c if c.type == f.type or f.name in as_stored else c.cast(f.type))
            else:
                cols.append(pa.nulls(n, f.type))
        if not as_stored:
            return pa.Table.from_arrays(cols, schema=schema)
        return pa.Table.from_arrays(cols, names=schema.names)


def without_columns(rows: int) -> pa.Table:
    """A table of ``rows`` rows and no columns (``columns=[]``: a count)."""
    return pa.table({"rows": pa.nulls(rows)}).select([])


def concat(tables: list[pa.Table], schema: pa.Schema) -> pa.Table:
    """The tables one after another; pyarrow's concat_tables drops the rows of tables
    without columns."""
    if not tables:
        return schema.empty_table()
    if not schema.names:
        return without_columns(sum(t.num_rows for t in tables))
    return pa.concat_tables(tables)


# Arrow's C data interface imports types nested at most this deep (pyarrow's import of
# a shredded column goes through it); other writers shred deeper than varshred does.
IMPORT_DEPTH = 64


def _describe(source: Any) -> str:
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else str(
        [os.fspath(s) for s in source])


def spark_version(meta: dict) -> tuple[int, int] | None:
    """(major, minor) of the Spark that wrote a file, by its footer's key-value
    metadata; None when none did; (0, 0) when the version cannot be read (taken as the
    oldest)."""
    if b"org.apache.spark.version" not in meta:
        return None
    version = meta[b"org.apache.spark.version"].decode("ascii", "replace")
    major, _, rest = version.partition(".")
    minor = rest.partition(".")[0]
    return (int(major), int(minor)) if major.isdigit() and minor.isdigit() else (0, 0)


def julian_calendar(meta: dict) -> bool:
    """Whether Spark wrote the file's dates and instants in its hybrid Julian calendar
    (see below): Spark before 3.0, or datetimeRebaseModeInWrite=LEGACY."""
    version = spark_version(meta)
    return version is not None and (
        version < (3, 0) or b"org.apache.spark.legacyDateTime" in meta)


# Spark before 3.0, or with datetimeRebaseModeInWrite=LEGACY, stores dates before
# 1582-10-15 and instants before 1900 (in any zone) in its hybrid Julian calendar, and
# shifts them back when it reads them; timestamp_ntz is stored as it is. The bounds:
_JULIAN_DAYS_BEFORE = -141_427  # 1582-10-15, days since the epoch
_JULIAN_SECONDS_BEFORE = -2_208_988_800 + 86_400  # 1900-01-02T00:00:00Z
_UNIT_PER_SECOND = {"milliseconds": 10**3, "microseconds": 10**6, "nanoseconds": 10**9}


def _check_calendar(path: str, md: Any, variants: set[str]) -> None:
    """Refuses a Spark file whose shredded dates or instants may be in Spark's hybrid
    Julian calendar: varshred reads values as stored, and would return them shifted
    by days. A row group is fine when its statistics put every value past the bounds."""
    if not julian_calendar(md.metadata or {}):
        return
    for i in range(md.num_columns):
        column = md.schema.column(i)
        # Paths join names with '.', which a column's own name may hold.
        variant = next((v for v in variants if column.path.startswith(v + ".")), None)
        if variant is None or ".typed_value" not in column.path[len(variant):]:
            continue
        kind = json.loads(column.logical_type.to_json())
        if kind.get("Type") == "Date":
            bound = _JULIAN_DAYS_BEFORE
        elif kind.get("Type") == "Timestamp" and kind.get("isAdjustedToUTC"):
            bound = _JULIAN_SECONDS_BEFORE * _UNIT_PER_SECOND[kind["timeUnit"]]
        else:
            continue
        for g in range(md.num_row_groups):
            chunk = md.row_group(g).column(i)
            stats = chunk.statistics
            if stats is not None and stats.null_count == chunk.num_values:
                continue
            if stats is None or not stats.has_min_max or stats.min_raw < bound:
                raise VariantError(
                    f"{path}: column {variant!r} ({column.path}) may hold dates or "
                    "timestamps in Spark's hybrid Julian calendar (the file was written "
                    "with spark.sql.parquet.datetimeRebaseModeInWrite=LEGACY or by Spark "
                    "2), which varshred does not convert: read it with Spark, or have "
                    "Spark rewrite it in CORRECTED mode")


def _file_info(path: str, shredded: bool, on_conflict: int,
               filesystem: pafs.FileSystem | None = None) -> FileInfo:
    from varshred import _parquet, _status
    from varshred.parquet import _parquet_file

    md = _parquet_file(path, filesystem).metadata  # the footer checked by varshred first
    too_deep = any(len(md.schema.column(i).path.split(".")) >= IMPORT_DEPTH - 1
                   for i in range(md.num_columns))  # a batch's struct adds a level
    try:
        reader = _parquet.reader(path, None, shredded, 1, on_conflict, None, filesystem)
    except pa.ArrowException as e:
        if shredded and too_deep:
            raise VariantError(f"{path}: its shredded columns nest deeper than pyarrow "
                               f"imports ({IMPORT_DEPTH} levels, Arrow's C data "
                               f"interface): read them with shredded=False") from None
        raise _status.from_arrow_error(e) from None
    schema = reader.schema  # Variant columns are Variant structs here, in every layout
    variants = {f.name for f in schema if _parquet.is_variant_type(f.type)}
    _check_calendar(path, md, variants)
    groups = [md.row_group(g) for g in range(md.num_row_groups)]
    return FileInfo(schema, [g.num_rows for g in groups],
                    [g.total_byte_size for g in groups], variants, too_deep)
