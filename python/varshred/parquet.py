# Licensed under the Apache License, Version 2.0.
"""Parquet files with Variant columns: shredded writes, reconstructing reads,
path projection and row-group pruning.

>>> import varshred as vs
>>> vs.parquet.write_table(table, "events.parquet", shredding={"v": "id bigint, tags array<string>"})
>>> vs.parquet.read_table("events.parquet")                       # Variant columns rebuilt
>>> vs.parquet.read_paths("events.parquet", "v", {"id": "bigint"})  # only the chunks it needs
"""

from __future__ import annotations

import decimal
import math
import numbers
import operator
import re
import warnings
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Iterator, Literal, Mapping, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from varshred import _fs, _kernels, _parquet, _status
from varshred import dataset as _dataset
from varshred._options import choice, names
from varshred.errors import VariantError
from varshred.get import variant_get
from varshred.shredding import ShreddingSchema

__all__ = [
    "ColumnInfo",
    "ParquetWriter",
    "PathCount",
    "inspect",
    "iter_batches",
    "prunable_row_groups",
    "read_paths",
    "read_table",
    "shredding_counts",
    "write_json",
    "write_table",
]


def _shredding(shredding: Mapping[str, Any] | None) -> dict[str, Any]:
    if shredding is not None and not isinstance(shredding, Mapping):
        raise TypeError("shredding: a mapping {column: ShreddingSchema, DDL string or "
                        f"'none'}}, got {type(shredding).__name__} {shredding!r}")
    out = {}
    for column, schema in (shredding or {}).items():
        if isinstance(schema, str):
            try:
                schema = ShreddingSchema.parse(schema)
            except VariantError as e:
                raise VariantError(f"shredding[{column!r}]: {e}") from None
        if not isinstance(schema, ShreddingSchema):
            raise TypeError(f"shredding[{column!r}] must be a ShreddingSchema, a DDL string "
                            f"or 'none', got {type(schema).__name__}")
        out[column] = schema._handle
    return out


class ParquetWriter:
    """Writes record batches to one Parquet file, shredding Variant columns straight
    into column chunks.

    A Variant column is a struct of binary ``metadata`` and ``value`` (either order).
    ``shredding`` maps column names to a :class:`ShreddingSchema`, a DDL string, or
    ``"none"`` (the plain annotated ``{metadata, value}`` group, also used for Variant
    columns not named). The file appears under ``path`` only when :meth:`close`
    succeeds; an error, :meth:`abort` or leaving a ``with`` block by an exception leaves
    nothing behind.

    ``use_threads`` encodes and compresses the column chunks in parallel on Arrow's CPU
    thread pool.

    A row group ends at ``row_group_size`` rows or once it holds ``row_group_bytes``
    (its pages in memory, compressed), whichever comes first, so that wide rows bound
    the writer's memory by bytes (0: no byte bound).

    Every Variant row is validated before it is written, except in ``trusted_columns``:
    columns whose bytes varshred built in this process (``vs.from_json`` output passed
    straight on). Never list columns read from elsewhere.

    ``path`` is a local path or a URI (``s3://``, ``gs://``, ``abfs://``, ``hdfs://``,
    ``file://``), or a path in ``filesystem`` (a ``pyarrow.fs.FileSystem``); see
    docs/storage.md for credentials and what each store guarantees.

    A writer may be shared between threads: calls run one at a time, :meth:`close`
    waits for a running write, and a write after close is a :class:`VariantError`.
    A failed write drops the file and closes the writer: a later :meth:`close` raises
    :class:`VariantError` (nothing was written) rather than return as if it saved.
    """

    def __init__(self, path: str, schema: pa.Schema, *, shredding: Mapping[str, Any] | None = None,
                 compression: str = "zstd", compression_level: int | None = None,
                 row_group_size: int = 1 << 20, row_group_bytes: int = 128 << 20,
                 data_page_size: int = 1 << 20,
                 dictionary: bool = True, statistics: bool = True, annotate: bool = True,
                 numeric: Literal["lenient", "strict"] = "lenient", use_threads: bool = False,
                 trusted_columns: "tuple[str, ...] | list[str]" = (),
                 write_path: str | None = None, filesystem: Any = None):
        if write_path is not None:
            # There is one write path since 0.2: every table takes the same one.
            warnings.warn("ParquetWriter(): write_path= is deprecated and ignored",
                          DeprecationWarning, stacklevel=2)
        if not hasattr(schema, "__arrow_c_schema__"):
            raise TypeError("schema must be a pyarrow Schema (or an Arrow PyCapsule "
                            f"schema), got {type(schema).__name__}")
        self.path, filesystem = _fs.location(path, filesystem)
        self.schema = schema
        self._writer = _parquet.ParquetFileWriter(
            self.path, schema, _shredding(shredding), compression=compression,
            compression_level=compression_level, row_group_size=row_group_size,
            row_group_bytes=row_group_bytes,
            data_page_size=data_page_size, dictionary=dictionary, statistics=statistics,
            annotate=annotate, numeric=choice("numeric", numeric, _kernels.NUMERIC),
            use_threads=use_threads,
            trusted_columns=tuple(trusted_columns), filesystem=filesystem)

    def write_batch(self, batch: pa.RecordBatch) -> None:
        self._writer.write_batch(batch)

    def write_json(self, strings: Any, *, numbers: Literal["decimal", "double"] = "decimal",
                   duplicate_keys: Literal["error", "last"] = "error",
                   errors: Literal["raise", "null"] = "raise") -> int:
        """Writes JSON documents (Arrow string data, or a list of ``str`` / ``None``) as
        rows of this writer's only column, a Variant column: the file that writing
        ``vs.from_json(strings, ...)`` gives, with less work (values the shredding
        schema types go to their columns without being built as Variant first).
        Options and errors as :func:`varshred.from_json`'s; returns the number of
        invalid documents written as NULL (``errors="null"``)."""
        from varshred.core import json_options, json_strings

        return self._writer.write_json(json_strings(strings),
                                       *json_options(numbers, duplicate_keys, errors))

    def write_json_lines(self, text: Any, *, numbers: Literal["decimal", "double"] = "decimal",
                         duplicate_keys: Literal["error", "last"] = "error",
                         errors: Literal["raise", "null"] = "raise") -> int:
        """As :meth:`write_json`, for JSON lines (any bytes-like object): one row per
        line holding more than whitespace, as :func:`varshred.from_json_lines`."""
        from varshred.core import json_options

        return self._writer.write_json_lines(text,
                                             *json_options(numbers, duplicate_keys, errors))

    def types_written(self, column: str) -> frozenset[str] | None:
        """The Variant types of the primitives found anywhere in the values of Variant
        column ``column`` written so far (``"string"``, ``"timestamp_nanos"``...),
        learnt while validating them: a check for types a reader cannot read needs no
        second pass. None for a trusted or unknown column (not validated)."""
        return self._writer.types_written(column)

    def write_table(self, table: "pa.Table | pa.RecordBatch | pa.RecordBatchReader") -> None:
        """Writes a table's rows; a record batch or a reader of batches is taken too.
        A table or batch is one write (:meth:`close` from another thread waits for all
        of it); a reader's batches are written one at a time as it hands them out."""
        if isinstance(table, pa.RecordBatchReader):
            for batch in table:
                self.write_batch(batch)
        else:
            self._writer.write_batches(
                [table] if isinstance(table, pa.RecordBatch) else table.to_batches())

    def write(self, data: pa.Table | pa.RecordBatch) -> None:
        if isinstance(data, pa.Table):
            self.write_table(data)
        else:
            self.write_batch(data)

    def close(self) -> None:
        self._writer.close()

    def abort(self) -> None:
        self._writer.abort()

    @property
    def num_rows(self) -> int:
        """The rows written so far; after :meth:`close`, the rows of the file it saved
        (0 after :meth:`abort` or a failed write, which save nothing)."""
        return self._writer.num_rows

    def __enter__(self) -> "ParquetWriter":
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()

    def __reduce__(self) -> Any:
        # A copy would share the open file and close it twice; a pickle cannot carry it.
        raise TypeError("a ParquetWriter cannot be pickled or copied: it writes an open "
                        "file (open one writer per process or task)")


def _tabular(data: Any) -> Any:
    """``data`` as a pyarrow table, batch or reader: an object of the Arrow PyCapsule
    protocol (``__arrow_c_stream__`` or ``__arrow_c_array__``) is imported."""
    if isinstance(data, (pa.Table, pa.RecordBatch, pa.RecordBatchReader)):
        return data
    if isinstance(data, (pa.Array, pa.ChunkedArray)):
        # Its capsule would import as a batch of the struct's children: a Variant column
        # would be written as two plain binary columns.
        raise TypeError("expected a table, not one column: wrap it in a table, e.g. "
                        f"pa.table({{'v': column}}) (got {type(data).__name__})")
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data)
    if hasattr(data, "__arrow_c_array__"):
        return pa.record_batch(data)
    raise TypeError("expected a pyarrow Table, RecordBatch or RecordBatchReader, or an "
                    f"Arrow PyCapsule object, got {type(data).__name__}")


def write_table(table: pa.Table, path: str, *, shredding: Mapping[str, Any] | None = None,
                **options: Any) -> None:
    """Writes ``table`` (a table, a record batch, a reader of batches, or an Arrow
    PyCapsule object of one) to ``path`` (see :class:`ParquetWriter` for the
    options)."""
    table = _tabular(table)
    with ParquetWriter(path, table.schema, shredding=shredding, **options) as w:
        w.write_table(table)


def _write_empty_part(directory: str, schema: pa.Schema, compression: str) -> str:
    """A part file of no rows in ``directory`` (returned), for a write whose input held
    none: Spark and DuckDB read the output's schema from it, as from Spark's own write
    of no rows (an output of ``_SUCCESS`` alone is an error to them)."""
    target = _fs.join(directory, "part-00000-empty.parquet")
    ParquetWriter(target, schema, compression=compression).close()
    return target


def _documents(strings: Any) -> Iterator[str | None]:
    """``strings``, each checked to be JSON text (or None, a null row)."""
    for row, s in enumerate(strings):
        if s is not None and not isinstance(s, str):
            raise TypeError(f"write_json expects JSON text, one string per row: row {row} "
                            f"is {type(s).__name__}")
        yield s


def write_json(strings: Any, path: str, *, column: str = "v",
               shredding: ShreddingSchema | str = "infer",
               errors: Literal["raise", "null"] = "raise",
               numbers: Literal["decimal", "double"] = "decimal",
               duplicate_keys: Literal["error", "last"] = "error", chunk_rows: int = 65536,
               chunk_bytes: int = 4 << 20, sample_bytes: int = 16 << 20, threads: int = 2,
               **options: Any) -> int:
    """JSON documents (a string array, chunked array or any iterable of strings) ->
    one Parquet file with the shredded Variant column ``column``; returns the rows
    written.

    Documents go straight into the shredded columns (:meth:`ParquetWriter.write_json`:
    values the schema types are never built as Variant bytes), in chunks of at most
    ``chunk_rows`` rows and about ``chunk_bytes`` bytes of JSON; with ``threads`` > 1
    each chunk's halves are shredded at once and the columns encoded in parallel on
    Arrow's CPU thread pool (the GIL is released). Memory stays bounded by bytes,
    whatever the rows' width: a chunk, and a row group of at most ``row_group_bytes``
    (see :class:`ParquetWriter`).

    ``shredding="infer"`` infers the schema from up to ``chunk_rows`` documents and
    about ``sample_bytes`` of JSON, spread evenly over the whole input when it is an
    Arrow array (later rows fit as well as the first ones), the first ones otherwise;
    ``errors="null"`` writes invalid documents as NULL; ``numbers`` and
    ``duplicate_keys`` are :func:`varshred.from_json`'s. Other options are
    :class:`ParquetWriter`'s.
    """
    from concurrent.futures import ThreadPoolExecutor

    from varshred.core import from_json, variant_type
    from varshred.infer import ShreddingStats, infer_schema
    from varshred.jsonlines import _bounded

    infer = isinstance(shredding, str) and shredding == "infer"
    if not isinstance(strings, (pa.Array, pa.ChunkedArray)):
        if hasattr(strings, "__arrow_c_array__"):  # the Arrow PyCapsule protocol
            strings = pa.array(strings)
        elif hasattr(strings, "__arrow_c_stream__"):
            strings = pa.chunked_array(strings)
    is_arrow = isinstance(strings, (pa.Array, pa.ChunkedArray))
    if isinstance(strings, (str, bytes, bytearray)):
        # An iterable of characters: never meant as one document per character.
        raise TypeError("write_json expects JSON documents, one per row (a string array "
                        f"or an iterable of strings), got {type(strings).__name__}")
    for name, value in (("chunk_rows", chunk_rows), ("chunk_bytes", chunk_bytes),
                        ("threads", threads)):
        if value < 1:
            raise ValueError(f"{name} must be at least 1, got {value}")

    def rows_within(nbytes: int, rows: int) -> int:  # of the Arrow input, by its average row
        total = max(1, strings.nbytes)
        return max(1, min(rows, nbytes * len(strings) // total))

    def chunks():  # (first row, strings)
        if is_arrow:
            step = rows_within(chunk_bytes, chunk_rows)
            for start in range(0, len(strings), step):
                yield start, strings.slice(start, step)
            return
        it = _documents(strings)
        start = 0
        # Inferring from the first chunk: it may take up to the sample's bytes.
        bound = sample_bytes if infer else chunk_bytes
        while chunk := list(_bounded(it, chunk_rows, bound)):
            yield start, pa.array(chunk, pa.string())
            start += len(chunk)
            bound = chunk_bytes

    def parse(chunk):
        v = from_json(chunk, numbers=numbers, duplicate_keys=duplicate_keys, errors=errors)
        return v.combine_chunks() if isinstance(v, pa.ChunkedArray) else v

    def in_input(start: int, e: VariantError) -> VariantError:
        # Errors name the row of the whole input, not of the chunk.
        return VariantError(_status.shift_rows(str(e), start))

    if infer and is_arrow and len(strings) > rows_within(chunk_bytes, chunk_rows):
        # More than one chunk (else that chunk is the sample): a sample spread over the
        # input, parsed and counted in `threads` parts at once. Bad documents are
        # reported by the write below, with their real row numbers.
        sample = _spread(strings, rows_within(sample_bytes, chunk_rows))
        step = -(-len(sample) // max(threads, 1))
        parts = [sample.slice(i, step) for i in range(0, len(sample), step)]

        def count(part):
            return ShreddingStats().add_json(part, numbers=numbers,
                                             duplicate_keys=duplicate_keys, errors="null")

        with ThreadPoolExecutor(max(threads - 1, 1)) as pool:
            others = [pool.submit(count, part) for part in parts[1:]]
            stats = count(parts[0])
            for other in others:
                stats.merge(other.result())
        shredding = stats.derive_schema()

    schema = pa.schema([(column, variant_type())])
    options.setdefault("use_threads", threads > 1)
    rows = 0
    writer = None
    try:
        for start, chunk in chunks():
            try:
                if writer is None and isinstance(shredding, str) and shredding == "infer":
                    # Inferred from the first chunk, which is then written as parsed.
                    variants = parse(chunk)
                    shredding = infer_schema(variants)
                    writer = ParquetWriter(path, schema, shredding={column: shredding},
                                           trusted_columns=[column], **options)
                    writer.write_batch(pa.record_batch([variants], schema=schema))
                else:
                    if writer is None:
                        writer = ParquetWriter(path, schema, shredding={column: shredding},
                                               **options)
                    writer.write_json(chunk, numbers=numbers, duplicate_keys=duplicate_keys,
                                      errors=errors)
            except VariantError as e:
                raise in_input(start, e) from None
            rows += len(chunk)
        if writer is None:  # no documents: an empty file with a plain Variant column
            writer = ParquetWriter(path, schema, **options)
        writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    return rows


def _spread(strings: pa.Array | pa.ChunkedArray, n: int) -> pa.Array:
    """``n`` rows of ``strings`` in up to 256 runs spread evenly over it: every part of
    the input is sampled, and only the sampled rows are copied (no index array, no take,
    nothing built from Python integers)."""
    total = len(strings)
    n = min(n, total)
    runs = min(n, 256)
    parts = []
    for r in range(runs):
        piece = strings.slice(r * total // runs, (r + 1) * n // runs - r * n // runs)
        parts += piece.chunks if isinstance(piece, pa.ChunkedArray) else [piece]
    return pa.concat_arrays(parts) if parts else pa.array([], strings.type)


@dataclass(frozen=True)
class ColumnInfo:
    """A top-level column of a Parquet file as varshred sees it."""

    name: str
    layout: str | None  # None, "unshredded", "shredded" or "legacy"
    annotated: bool
    leaves: tuple[int, ...]

    @property
    def is_variant(self) -> bool:
        return self.layout is not None


def _parquet_file(path: str, filesystem: Any = None) -> pq.ParquetFile:
    """pyarrow's view of a file whose footer varshred checked first: pyarrow's metadata
    accessors abort the process on a corrupt footer instead of raising."""
    _parquet.check_footer(*_fs.location(path, filesystem))
    fs, inner = _fs.resolve(path, filesystem)
    return pq.ParquetFile(inner, filesystem=fs, schema_depth_limit=_parquet.SCHEMA_DEPTH_LIMIT)


def inspect(path: Any, *, filesystem: Any = None
            ) -> "list[ColumnInfo] | dict[str, list[ColumnInfo]]":
    """The top-level columns of ``path`` with their Variant layout; for a dataset (a
    directory, glob or list: docs/datasets.md), ``{file: columns}`` per file."""
    if _dataset.is_single_file(path, filesystem):
        return _inspect_file(str(path), filesystem)
    return {f: _inspect_file(f, filesystem)
            for f in _dataset.files(path, filesystem=filesystem)}


def _inspect_file(path: str, filesystem: Any = None) -> list[ColumnInfo]:
    return [ColumnInfo(n, layout, annotated, tuple(leaves))
            for n, layout, annotated, leaves in
            _parquet.inspect(*_fs.location(path, filesystem))]


@dataclass
class PathCount:
    """How many values of one path of a shredded Variant column sit in its typed column
    and how many in its residual ``value`` column (per element for array paths)."""

    column: str
    path: str                # "$", "user.name", "tags[]", "['user.id']" (a key with a dot)
    typed_type: str          # the typed_value's Arrow type, "object", "array" or "variant"
    typed: int
    residual: int

    @property
    def is_leaf(self) -> bool:
        """A scalar typed column (objects and arrays count their values below)."""
        return self.typed_type not in ("object", "array", "variant")

    @property
    def typed_share(self) -> float | None:
        total = self.typed + self.residual
        return self.typed / total if total and self.is_leaf else None


def shredding_counts(paths: Any, *, filesystem: Any = None) -> list[PathCount]:
    """Per Variant column and path, the typed and residual value counts of Parquet
    files, summed over row groups and files, from the footers' statistics alone (no
    data is read): a leaf's non-null count is its value count minus its null count.
    Paths whose statistics are missing are left out.

    ``PathCount.path`` is a Spark path without its leading ``$.``, with ``[]`` for every
    element (``"$"``, ``"user.name"``, ``"tags[]"``); keys other than plain names are
    quoted, so the key "user.id" is ``"['user.id']"`` and never meets ``"user.id"``.
    ``paths`` is a file, directory, glob or list (docs/datasets.md)."""
    counts: dict = {}
    for path in _dataset.files(paths, filesystem=filesystem):
        f = _parquet_file(path, filesystem)
        md = f.metadata
        arrow_schema = f.schema_arrow  # converted once per file, not per leaf
        variant_columns = {c.name for c in _inspect_file(path, filesystem) if c.layout == "shredded"}
        for i, parts in enumerate(_parquet.leaf_paths(str(path), filesystem)):
            if parts[0] not in variant_columns or parts[-1] not in ("value", "typed_value"):
                continue
            try:
                variant_path, group = _variant_path(parts, arrow_schema)
            except VariantError as e:
                raise VariantError(f"{path}: column {e}") from None
            nonnull = 0
            for g in range(md.num_row_groups):
                chunk = md.row_group(g).column(i)
                if chunk.statistics is None or not chunk.statistics.has_null_count:
                    nonnull = None
                    break
                nonnull += chunk.num_values - chunk.statistics.null_count
            if nonnull is None:
                continue
            key = (parts[0], variant_path)
            entry = counts.setdefault(key, PathCount(parts[0], variant_path,
                                                     _typed_kind(group), 0, 0))
            if parts[-1] == "typed_value":
                entry.typed += nonnull
            else:
                entry.residual += nonnull
    return list(counts.values())


def _variant_path(parts: tuple, schema: pa.Schema) -> tuple[str, pa.DataType]:
    """("v", "typed_value", "tags", "typed_value", "list", "element", "typed_value") ->
    ("tags[]", the Arrow type of the {value, typed_value} group the leaf belongs to).
    Raises VariantError where the schema is not the shredded layout it claims."""
    def group(t: pa.DataType, at: int) -> pa.DataType:
        if not pa.types.is_struct(t) or (t.get_field_index("value") < 0 and
                                         t.get_field_index("typed_value") < 0):
            raise VariantError(f"{'.'.join(parts[:at])}: not a shredded Variant group "
                               f"{{value, typed_value}} but {t}")
        return t

    t = group(schema.field(parts[0]).type, 1)
    segments: list = []
    i = 1
    while i < len(parts) - 1:  # parts[i] == "typed_value" of a group with more below
        if t.get_field_index("typed_value") < 0:
            raise VariantError(f"{'.'.join(parts[:i])}: has no typed_value")
        t = t.field("typed_value").type
        if pa.types.is_list(t) or pa.types.is_large_list(t):
            segments.append(None)
            t = t.value_type
            i += 3  # "typed_value", "list", "element"
        elif pa.types.is_struct(t) and t.get_field_index(parts[i + 1]) >= 0:
            segments.append(parts[i + 1])
            t = t.field(parts[i + 1]).type
            i += 2  # "typed_value", field name
        else:
            raise VariantError(f"{'.'.join(parts[:i + 1])}: a shredded object or array "
                               f"expected, found {t}")
        t = group(t, i)
    path = _spark_path(segments)
    return (path[2:] if path.startswith("$.") else path[1:] or "$"), t


def _typed_kind(group: pa.DataType) -> str:
    if group.get_field_index("typed_value") < 0:
        return "variant"
    t = group.field("typed_value").type
    if pa.types.is_struct(t):
        return "object"
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return "array"
    return str(t)


def counts_table(counts: list[PathCount]) -> str:
    """``shredding_counts`` as a text table, one block per column."""
    lines = []
    for column in dict.fromkeys(c.column for c in counts):
        rows = [c for c in counts if c.column == column]
        width = max(len("path"), *(len(c.path) for c in rows))
        lines.append(f"column {column}: values in typed columns / residual values")
        lines.append(f"  {'path':<{width}}  {'typed type':<18} {'typed':>10} {'residual':>10}"
                     f"  typed share")
        for c in rows:
            share = "" if c.typed_share is None else f"{c.typed_share:6.1%}"
            typed = str(c.typed) if c.is_leaf else ""
            lines.append(f"  {c.path:<{width}}  {c.typed_type:<18} {typed:>10} "
                         f"{c.residual:>10}  {share}")
    return "\n".join(lines)


def iter_batches(path: Any, *, columns: list[str] | None = None, batch_size: int = 65536,
                 shredded: bool = False,
                 on_conflict: Literal["error", "typed-wins"] = "error", filter: Any = None,
                 threads: int | None = None, readahead: int | None = None,
                 filesystem: Any = None) -> Iterator[pa.RecordBatch]:
    """Streams record batches, reconstructing Variant columns batch by batch, from a
    file, a directory, a glob or a list of them (docs/datasets.md): one schema over
    all files, rows in dataset order. ``filter`` skips the files and row groups whose
    statistics prove that no row matches, then keeps the matching rows. ``threads``
    (default: the CPU count) decode up to ``readahead`` row groups (default
    ``2 * threads``) ahead of the consumer; with ``threads=1`` the batches stream
    from the reader one at a time (a row group larger than memory is fine)."""
    if batch_size < 1:  # Parquet C++ would read no rows at all
        raise ValueError(f"batch_size must be positive, not {batch_size}")
    schema, tables = _scan(path, columns, batch_size, shredded, on_conflict, filter, threads,
                           readahead, filesystem)
    for table in tables:
        for batch in table.to_batches():
            if batch.num_rows:
                yield batch


def read_table(path: Any, columns: list[str] | None = None, *, shredded: bool = False,
               on_conflict: Literal["error", "typed-wins"] = "error", filter: Any = None,
               threads: int | None = None, readahead: int | None = None,
               filesystem: Any = None) -> pa.Table:
    """Reads a file, a directory, a glob or a list of them (docs/datasets.md); Variant
    columns in any layout (varshred's, Spark's, DuckDB's, un-annotated shredded
    structs, the legacy draft) come back as ``struct<metadata, value>``, whatever
    each file's shredding. ``shredded=True`` returns shredded columns as stored (all
    files must then share one shredding). ``filter``, ``threads`` and ``readahead`` as
    :func:`iter_batches`'."""
    schema, tables = _scan(path, columns, 65536, shredded, on_conflict, filter, threads,
                           readahead, filesystem)
    return _dataset.concat([t for t in tables if t.num_rows], schema)


def _scan(source: Any, columns: list[str] | None, batch_size: int, shredded: bool,
          on_conflict: str, filter: Any, threads: int | None, readahead: int | None,
          filesystem: Any, transform: Any = None,
          as_stored: bool = False) -> tuple[pa.Schema, Iterator[Any]]:
    """The result schema and the tables of the dataset's units, in order: each unit
    read by the C++ reader (without the GIL), given the result schema and filtered,
    then passed through ``transform(table, schema)`` (on the worker: e.g. the CLI's
    JSON text). ``as_stored`` leaves Variant columns as each file stores them
    (shredded or not) for a transform that reads any shredding, their
    dictionary-encoded binary leaves as dictionary arrays; ``schema`` still names them
    as Variant."""
    conflict = choice("on_conflict", on_conflict, _kernels.ON_CONFLICT)
    columns = names("columns", columns)
    threads = _dataset.default_threads(threads)
    ds = _dataset.Dataset(source, filesystem=filesystem)
    infos = ds.infos(shredded, conflict, threads)
    conditions = _conditions(ds, infos, filter)
    needed = None if columns is None else list(dict.fromkeys(
        list(columns) + [c.column for c in conditions]))
    read_schema = ds.schema(infos, needed)
    out_schema = ds.schema(infos, columns)
    units = ds.units(infos, conditions, threads)
    files = _dataset.OpenFiles(ds, infos, units)

    stored = set(_variant_columns(infos)) if as_stored else set()

    def finish(table: pa.Table | None, unit: _dataset.Unit) -> pa.Table:
        table = ds.conform(table, unit, read_schema, stored)
        if conditions:
            table = table.filter(_row_mask(table, conditions))
        if read_schema.names != out_schema.names:
            table = table.select(out_schema.names)
        if out_schema.names:  # (pyarrow drops the rows of a table without columns)
            table = table.replace_schema_metadata(out_schema.metadata)
        if transform is None:
            return table
        try:
            return transform(table, out_schema)
        except VariantError as e:  # bad bytes the transform read: say in which file
            raise VariantError(f"{ds.paths[unit.file]}: {e}") from None

    def open_unit(unit: _dataset.Unit):
        path = ds.paths[unit.file]
        in_file = set(infos[unit.file].schema.names)
        names = [n for n in read_schema.names if n in in_file]
        if not names:
            return None
        # A column too deep to import as stored is rebuilt: the transform reads either.
        stored = as_stored and not infos[unit.file].too_deep_to_import
        return _parquet.reader(path, names, shredded or stored, batch_size, conflict,
                               list(unit.row_groups), ds.filesystem, dictionaries=stored,
                               opened=files.get(unit.file))

    def read_unit(unit: _dataset.Unit) -> list:  # on a worker thread
        # Batch by batch, as the one-thread stream: the decoded columns of one batch at a
        # time, not of the whole row group, so that memory is reused rather than faulted
        # in fresh (two threads faulting pages in one process slow each other down).
        reader = open_unit(unit)
        if reader is None:
            return [finish(None, unit)]
        try:
            parts = [finish(pa.Table.from_batches([b]), unit) for b in reader]
            return parts or [finish(reader.schema.empty_table(), unit)]
        except pa.ArrowException as e:
            raise _status.from_arrow_error(e) from None
        finally:
            files.done(unit.file)

    def stream() -> Iterator[pa.Table]:  # one thread: batch by batch
        for unit in units:
            reader = open_unit(unit)
            if reader is None:
                yield finish(None, unit)
                continue
            try:
                for batch in reader:
                    yield finish(pa.Table.from_batches([batch]), unit)
            except pa.ArrowException as e:
                raise _status.from_arrow_error(e) from None
            finally:
                files.done(unit.file)

    tables = stream() if threads == 1 else (
        part for parts in _dataset.ordered_map(read_unit, units, threads, readahead)
        for part in parts)
    return out_schema, tables


def _variant_columns(infos: list) -> list[str]:
    return list(dict.fromkeys(n for i in infos for n in i.schema.names
                              if n in i.variant_columns))


def _conditions(ds: _dataset.Dataset, infos: list, filter: Any) -> list:
    """The scan's filter conditions; none for a dataset without files, whose columns
    are unknown and which has no row to filter (an empty partition of a job)."""
    return _dataset.parse_filter(filter, _variant_columns(infos)) if ds.paths else []


def _row_mask(table: pa.Table, conditions: list) -> pa.Array:
    """Rows for which every condition holds (``table`` holds the conditions' columns)."""
    import pyarrow.compute as pc  # here: not paid by every import of varshred

    mask = None
    for c in conditions:
        values = table[c.column]
        m = _dataset.compare(values if c.path is None else _dataset.path_values(values, c), c)
        mask = m if mask is None else pc.and_(mask, m)
    return mask


# ----------------------------------------------------------------------------
# Projection: a path reads only its own column chunks

def _full_path(path: str) -> str:
    """``path`` with its leading ``$``: ``"a.b"`` is ``"$.a.b"``, ``"[0]"`` ``"$[0]"``."""
    if path.startswith("$"):
        return path
    return "$" + path if path.startswith("[") or not path else "$." + path


def _segments(path: str) -> list[str | int]:
    """The segments of a Spark path (``$`` optional), parsed by the C++ parser that
    variant_get uses: ``"$.a[2]"`` -> ["a", 2], ``"$['key with space'].b"`` ->
    ["key with space", "b"]. A ``[]`` (every element) is a shredding-schema form, not
    a path: it names the path in the error."""
    try:
        return _kernels.parse_path(_full_path(path))
    except VariantError:
        if "[]" in path:
            raise VariantError(f"path {path!r}: '[]' is for shredding schemas; use an "
                               "index") from None
        raise


def _spark_path(segments: list) -> str:
    """Segments -> a Spark path (None, every element, as "[]"); a key other than a plain
    name is quoted: ["user.id"] -> "$['user.id']", ["user", "id"] -> "$.user.id"."""
    out = "$"
    for s in segments:
        out += ("[]" if s is None else f"[{s}]" if isinstance(s, int)
                else f".{s}" if s.isidentifier()
                else f"['{s}']" if "'" not in s else f'["{s}"]')
    return out


@dataclass
class _PathColumns:
    leaves: list[int]           # metadata, value columns on the way, the typed subtree
    leaf_value: int | None      # the value column paired with the last level (for pruning)
    typed_leaf: int | None      # the typed_value leaf at the end, when the path is shredded


def _leaf_index(path: str, filesystem: Any = None) -> dict:
    """Leaf path (a tuple of names, never a dotted string: names may contain '.') ->
    leaf column index, from the file's footer."""
    return {p: i for i, p in enumerate(_parquet.leaf_paths(path, filesystem))}


def _path_columns(path: str, column: str, segments: list,
                  index: dict | None = None, filesystem: Any = None) -> _PathColumns:
    index = _leaf_index(path, filesystem) if index is None else index
    if (column, "metadata") not in index:
        raise VariantError(f"{path}: column {column!r} is not a Variant column")

    def below(group: tuple) -> list[int]:
        return [i for p, i in index.items() if p[:len(group)] == group]

    leaves = [index[(column, "metadata")]]
    group = (column,)
    for seg in segments:
        leaves += below(group + ("value",))
        # An object field, or an array element (the 3-level LIST form); either is a
        # {value, typed_value} group.
        nxt = group + (("typed_value", seg) if isinstance(seg, str)
                       else ("typed_value", "list", "element"))
        if not below(nxt + ("value",)) and not below(nxt + ("typed_value",)):
            group = None  # not shredded below here: the residual values on the way suffice
            break
        group = nxt
    if group is None:
        return _PathColumns(sorted(set(leaves)), None, None)
    leaves += below(group + ("value",)) + below(group + ("typed_value",))
    return _PathColumns(sorted(set(leaves)), index.get(group + ("value",)),
                        index.get(group + ("typed_value",)))


def read_paths(path: Any, column: str, paths: Mapping[str, Any], *,
               errors: Literal["null", "raise"] = "null", filter: Any = None,
               threads: int | None = None, readahead: int | None = None,
               filesystem: Any = None, row_groups: Sequence[int] | None = None,
               timezone: str = "UTC") -> pa.Table:
    """One Arrow column per ``{path: type}`` entry (types as Spark names or pyarrow
    types; ``None`` for Variant), reading only the column chunks each path needs: its
    typed_value leaf and the value columns on the way. Rows whose value did not land in
    the typed column are read from the residual values. Columns in the legacy draft
    layout are rebuilt whole first (their leaves do not map onto paths). Paths are
    read as :func:`variant_get` reads them (``$`` may be left out: ``"a.b"``), and
    ``errors`` and ``timezone`` (the session zone of casts between timestamps, dates
    and strings) are variant_get's, ``errors`` with its default ``"null"`` for the
    same reason.

    ``path`` may be a file, directory, glob or list (docs/datasets.md); files without
    ``column`` give nulls. ``filter``, ``threads`` and ``readahead`` as
    :func:`iter_batches`'. ``row_groups`` reads only those row groups of a single file,
    in order, on the calling thread (a Spark task's partition)."""
    from varshred.core import variant_type
    from varshred.get import arrow_type

    if not isinstance(paths, Mapping):
        raise TypeError("paths must be a mapping {path: type or None}, got "
                        f"{type(paths).__name__}")
    types = {p: variant_type() if t is None else arrow_type(t) for p, t in paths.items()}
    if row_groups is not None:
        files = _dataset.Dataset(path, filesystem=filesystem).paths
        if len(files) != 1:
            raise ValueError(f"row_groups= reads one file; {_dataset._describe(path)} "
                             f"has {len(files)}")
        if not row_groups:  # every row group pruned
            return pa.schema(list(types.items())).empty_table()
        return pa.table(_paths_of_file(files[0], column, paths, errors, timezone,
                                       list(row_groups), filesystem=filesystem))
    threads = _dataset.default_threads(threads)
    ds = _dataset.Dataset(path, filesystem=filesystem)
    infos = ds.infos(False, _kernels.ON_CONFLICT["error"], threads)
    if not any(column in i.schema.names for i in infos) and ds.paths:
        raise KeyError(f"{_dataset._describe(path)}: no column named {column!r}")
    conditions = _conditions(ds, infos, filter)
    for c in conditions:
        if c.path is None and c.column not in ds.partition_schema.names:
            ds.schema(infos, [c.column])  # a plain column: check that it exists
    footers: dict = {}  # file -> its columns and leaf index, read once

    import pyarrow.compute as pc  # here: not paid by every import of varshred

    units = ds.units(infos, conditions, threads)
    files = _dataset.OpenFiles(ds, infos, units)

    def read_unit(unit: _dataset.Unit) -> pa.Table:
        try:
            return read_paths_of_unit(unit)
        finally:
            files.done(unit.file)

    def read_paths_of_unit(unit: _dataset.Unit) -> pa.Table:
        file = ds.paths[unit.file]
        names = infos[unit.file].schema.names
        rgs = list(unit.row_groups)
        opened = files.get(unit.file) if column in names else None
        if column in names:
            out = _paths_of_file(file, column, paths, errors, timezone, rgs, footers,
                                 ds.filesystem, opened)
        else:
            out = {p: pa.nulls(unit.rows, t) for p, t in types.items()}
        table = pa.table(out) if out else None
        if not conditions:
            return table if table is not None else pa.table({})
        mask = None
        part = ds.partition_values(unit.file)
        for c in conditions:
            if c.path is not None:  # the path alone, by projection
                if c.column not in names:
                    m = pa.repeat(False, unit.rows)
                else:
                    values = _paths_of_file(file, c.column, {c.path: pa.scalar(c.literal).type},
                                            "null", timezone, rgs, footers,
                                            ds.filesystem, files.get(unit.file))[c.path]
                    m = _dataset.compare(values, c)
            elif c.column in part:
                value = pa.scalar(part[c.column], ds.partition_schema.field(c.column).type)
                m = _dataset.compare(pa.repeat(value, unit.rows), c)
            elif c.column in names:
                m = _dataset.compare(_parquet.reader(file, [c.column], False, 65536,
                                                     _kernels.ON_CONFLICT["error"],
                                                     rgs, ds.filesystem).read_all()[c.column], c)
            else:
                m = pa.repeat(False, unit.rows)
            mask = m if mask is None else pc.and_(mask, m)
        return table.filter(mask)

    tables = [t for t in _dataset.ordered_map(read_unit, units, threads, readahead)
              if t.num_rows]
    return _dataset.concat(tables, pa.schema([(p, t) for p, t in types.items()]))


def _paths_of_file(path: str, column: str, paths: Mapping[str, Any], errors: str,
                   timezone: str, row_groups: list[int] | None = None,
                   footers: dict | None = None,
                   filesystem: Any = None, opened: Any = None) -> dict:
    """read_paths of one file (of ``row_groups`` when given): {path: values}.
    ``footers`` keeps each file's columns and leaf index for the scan's next units;
    ``opened``: the file as the scan opened it (dataset.OpenFiles)."""
    out = {}
    footers = {} if footers is None else footers
    if path not in footers:  # two threads may both read it: the same value
        footers[path] = (_inspect_file(path, filesystem), _leaf_index(path, filesystem))
    infos, leaf_index = footers[path]
    leaves: list[int] = []
    if not any(c.name == column and c.layout == "legacy" for c in infos):
        # One read of the leaves every path needs: the metadata and the value columns
        # the paths share are decoded once.
        leaves = sorted({leaf for p in paths for leaf in
                         _path_columns(path, column, _segments(p), leaf_index).leaves})
    by_leaf = {i: p for p, i in leaf_index.items()}
    if (not leaves or max(len(by_leaf[i]) for i in leaves) >= _dataset.IMPORT_DEPTH
            or any("\0" in name for i in leaves for name in by_leaf[i])):
        # The legacy draft's leaves do not map onto paths, and a partial column deeper
        # than pyarrow imports, or with a field named with a NUL byte (the Arrow C data
        # interface's names end at the first), cannot cross into Python: the column,
        # rebuilt, can.
        reader = _parquet.reader(path, [column], False, 65536, _kernels.ON_CONFLICT["error"],
                                 row_groups, filesystem, opened=opened)
        whole = reader.read_all()[column]
        return {p: variant_get(whole, _full_path(p), t, errors=errors, timezone=timezone)
                for p, t in paths.items()}
    if (path, column) not in footers:  # once per file, whatever the paths
        _check_layout(path, column, filesystem)
        footers[(path, column)] = True
    partial = _parquet.read_leaves(path, leaves, row_groups, filesystem, opened)
    for p, type_name in paths.items():
        # Shredded or not, variant_get reads the typed leaf directly and decodes the
        # residual values only for rows that need them.
        try:
            out[p] = variant_get(partial, _full_path(p), type_name, errors=errors,
                                 timezone=timezone)
        except VariantError as e:  # bad data in the file ("row 3, $.a: ..."): say where
            message = _renumber_file_row(str(e), path, row_groups, filesystem)
            raise VariantError(f"{path}: column {column!r}, {message}") from None
    return out


def _renumber_file_row(message: str, path: str, row_groups: list[int] | None,
                       filesystem: Any) -> str:
    """``message`` naming, for the row of a read of ``row_groups`` it starts with, that
    row's number in the file (the C++ reader's RenumberRow, for the rows read here)."""
    m = re.match(r"row (\d+)", message)
    if m is None or row_groups is None:
        return message
    md = _parquet_file(path, filesystem).metadata  # an error's path only
    sizes = [md.row_group(i).num_rows for i in range(md.num_row_groups)]
    row = int(m.group(1))
    for g in row_groups:
        if row < sizes[g]:
            return f"row {sum(sizes[:g]) + row}{message[m.end():]}"
        row -= sizes[g]
    return message


def _check_layout(path: str, column: str, filesystem: Any) -> None:
    """Raises as variant_get does on a column whose shape the spec forbids (a typed_value
    of a type it does not allow, a field that is no value/typed_value pair), judged on
    the whole column as stored and no rows: a read of some of its leaves would see only
    their part of the shape. The check does not depend on the path read."""
    reader = _parquet.reader(path, [column], True, 1, _kernels.ON_CONFLICT["error"], None,
                             filesystem)
    stored = pa.array([], reader.schema.field(column).type)
    try:
        variant_get(stored, "$", "variant")
    except (TypeError, VariantError) as e:
        raise type(e)(f"{path}: column {column!r}, {e}") from None


# ----------------------------------------------------------------------------
# Row-group pruning (docs/shredding.md#data-skipping)

_OPS = {"==": operator.eq, "=": operator.eq, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}


def prunable_row_groups(path: Any, column: str, variant_path: str, op: str, literal: Any, *,
                        filesystem: Any = None) -> "list[int] | dict[str, list[int]]":
    """Row groups in which no row can satisfy ``variant_get(column, variant_path) <op>
    literal``, so a reader may skip them. For a dataset (a directory, glob or list:
    docs/datasets.md), ``{file: row groups}``; a file without ``column`` is all
    prunable (its rows are null there).

    Sound for valid data (docs/shredding.md#data-skipping, #pair-semantics): a residual
    ``value`` at an object level on the way never holds the path (one beside a null
    typed_value holds no shredded field, and a partially shredded object's residual
    never repeats a shredded key: readers refuse both), so only the ``value`` column
    paired with the typed leaf matters: the leaf's statistics are used only where it is
    all-null (or absent) in the row group, since a residual there holds a value of
    another type that a cast could match.
    ``op`` is one of ``== < <= > >=``; the literal is compared with the statistics in
    Python, and a row group is kept whenever they are not comparable.
    """
    if _dataset.is_single_file(path, filesystem):
        return _prunable_file(str(path), column, variant_path, op, literal, filesystem)
    out = {}
    for f in _dataset.files(path, filesystem=filesystem):
        if any(c.name == column for c in _inspect_file(f, filesystem)):
            out[f] = _prunable_file(f, column, variant_path, op, literal, filesystem)
        else:
            out[f] = list(range(_parquet_file(f, filesystem).metadata.num_row_groups))
    return out


def _prunable_file(path: str, column: str, variant_path: str, op: str,
                   literal: Any, filesystem: Any = None) -> list[int]:
    """prunable_row_groups of one file: the one pruning rule (dataset scans use it)."""
    if op not in _OPS:
        raise ValueError(f"op must be one of {sorted(_OPS)}, got {op!r}")
    path, filesystem = _fs.location(path, filesystem)
    try:
        segments = _segments(variant_path)
    except VariantError:
        if "[]" in variant_path:
            return []  # every element: statistics do not bound a single element
        raise
    if any(isinstance(s, int) for s in segments):
        return []  # statistics of list elements do not bound a single element
    if any(c.name == column and c.layout == "legacy" for c in _inspect_file(path, filesystem)):
        return []  # the legacy draft's leaves do not map onto paths
    literal = _dataset.filter_literal(literal, (variant_path, op, literal))
    if pa.types.is_boolean(pa.scalar(literal).type):
        literal = bool(literal)  # NumPy's bool_ is no bool, and would compare as 1 or 0
    cols = _path_columns(path, column, segments, filesystem=filesystem)
    if cols.typed_leaf is None:
        return []  # not shredded that far, or an object at the end: no single typed leaf
    md = _parquet_file(path, filesystem).metadata
    # NaN is left out of float statistics, yet sorts above every number (Spark).
    floating = md.schema.column(cols.typed_leaf).physical_type in ("FLOAT", "DOUBLE")
    out = []
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        if cols.leaf_value is not None and not _all_null(rg.column(cols.leaf_value)):
            continue
        typed = rg.column(cols.typed_leaf)
        if _all_null(typed):
            out.append(g)  # every row is missing or SQL NULL: the comparison is never true
            continue
        stats = typed.statistics
        if stats is None or not stats.has_min_max or (floating and op in (">", ">=")):
            continue
        try:
            lo, hi = stats.min, stats.max
        except (OverflowError, ValueError):
            continue  # dates or times Python cannot hold (years outside 1-9999): kept
        if _excludes(op, lo, hi, literal):
            out.append(g)
    return out


def _all_null(chunk) -> bool:
    stats = chunk.statistics
    return (stats is not None and stats.null_count is not None
            and stats.null_count == chunk.num_values)


def _excludes(op: str, lo: Any, hi: Any, literal: Any) -> bool:
    if isinstance(literal, bool) != isinstance(lo, bool):
        return False  # True == 1 in Python, not for a typed leaf
    lo, hi = _as_literal_type(lo, literal), _as_literal_type(hi, literal)
    if lo is None or hi is None:
        return False
    try:
        if op in ("==", "="):
            return literal < lo or literal > hi
        if op == "<":
            return lo >= literal
        if op == "<=":
            return lo > literal
        if op == ">":
            return hi <= literal
        return hi < literal  # ">="
    except TypeError:
        return False  # incomparable types: never skip


# Casts of statistics bounds to a Decimal literal's scale, exact at any width: a
# decimal(38) bound at scale 38 needs 76 digits, Python's default context holds 28.
_EXACT_DECIMALS = decimal.Context(prec=80, Emax=999, Emin=-999)


def _as_literal_type(bound: Any, literal: Any) -> Any:
    """A statistics bound cast as variant_get casts a value to the literal's type (a
    decimal 42.5 to bigint is 42; to decimal(3,0), 43), so that the bounds still bound
    the cast values (the casts are monotone); None when the cast is not known here.
    NumPy's integers are integers (pa.scalar types them so); its narrower floats are
    not modelled (a cast to float32 rounds where a double bound does not)."""
    if isinstance(literal, bool) or isinstance(bound, bool):
        return bound
    if hasattr(bound, "nanosecond") and not hasattr(literal, "nanosecond"):
        # A nanosecond bound (a pandas Timestamp) and a datetime literal: variant_get
        # floors the values to microseconds.
        return bound.floor("us").to_pydatetime()
    if isinstance(literal, numbers.Integral) and isinstance(bound, (float, decimal.Decimal)):
        return math.trunc(bound) if math.isfinite(bound) else None
    if isinstance(literal, numbers.Real) and not isinstance(literal, (float, numbers.Integral)):
        return None
    if isinstance(literal, float) and isinstance(bound, (int, decimal.Decimal)):
        return float(bound)
    if isinstance(literal, decimal.Decimal) and isinstance(bound, float):
        return None
    if isinstance(literal, decimal.Decimal) and isinstance(bound, (int, decimal.Decimal)):
        scale = max(0, -int(literal.as_tuple().exponent))
        return decimal.Decimal(bound).quantize(decimal.Decimal(1).scaleb(-scale),
                                               rounding=decimal.ROUND_HALF_UP,
                                               context=_EXACT_DECIMALS)
    return bound


def is_variant_type(t: pa.DataType) -> bool:
    """True for a Variant struct (``metadata`` plus ``value`` and/or ``typed_value``,
    nothing else): the C++ writer's own test (varshred::IsVariantType)."""
    return bool(_parquet.is_variant_type(t))
