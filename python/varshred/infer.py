# Licensed under the Apache License, Version 2.0.
"""Shredding schema inference from per-path statistics.

>>> stats = vs.ShreddingStats()
>>> for batch in batches: stats.add(batch.column("v"))
>>> schema = stats.derive_schema()          # or vs.infer_schema(batches_or_arrays)
>>> print(stats.report(schema))             # per path: typed / residual / missing
"""

from __future__ import annotations

from typing import Any, Callable, Literal

import pyarrow as pa

from varshred import _stats
from varshred._options import renamed
from varshred.shredding import ShreddingSchema, as_schema

__all__ = ["ShreddingStats", "infer_schema"]


class ShreddingStats:
    """Per-path statistics of Variant values: type counts, nulls, missing fields,
    numeric ranges, decimal digits and scales, string lengths. Mergeable across
    batches and Spark tasks, and serializable (``bytes(stats)`` / ``from_bytes``).
    May be shared between threads (calls run one at a time)."""

    def __init__(self) -> None:
        self._h = _stats.ShreddingStatsHandle()

    def add(self, variants: Any) -> "ShreddingStats":
        self._h.add(variants)
        return self

    def add_json(self, strings: Any, *, numbers: Literal["decimal", "double"] = "decimal",
                 duplicate_keys: Literal["error", "last"] = "error",
                 errors: Literal["raise", "null"] = "raise") -> "ShreddingStats":
        """Adds JSON documents (Arrow string data, or a list of ``str`` / ``None``) as
        ``add(vs.from_json(strings, ...))`` would, without building the Variant column:
        each document is parsed and counted in turn. Options as
        :func:`varshred.from_json`'s; a null string, and an invalid document under
        ``errors="null"``, count as a SQL NULL row."""
        from varshred.core import json_options, json_strings

        self._h.add_json(json_strings(strings), *json_options(numbers, duplicate_keys, errors))
        return self

    def merge(self, other: "ShreddingStats") -> "ShreddingStats":
        if not isinstance(other, ShreddingStats):
            raise TypeError(f"merge takes a ShreddingStats, got {type(other).__name__}")
        self._h.merge(other._h)
        return self

    def __bytes__(self) -> bytes:
        return self._h.serialize()

    @classmethod
    def from_bytes(cls, data: bytes) -> "ShreddingStats":
        s = cls()
        s._h.load(bytes(data))
        return s

    def __reduce__(self) -> tuple[Callable[[bytes], ShreddingStats], tuple[bytes]]:
        return (ShreddingStats.from_bytes, (bytes(self),))

    @property
    def rows(self) -> int:
        return self._h.rows

    def __repr__(self) -> str:
        return f"<ShreddingStats of {self.rows} rows, {len(self.type_counts())} paths>"

    def type_counts(self) -> dict[str, dict[str, int]]:
        """Per path (``"$"`` for the top level, ``a.b``, ``tags[]``), how many values of
        each Variant type were seen there: ``{"a": {"int8": 3, "string": 1}}`` (type
        names "null", "boolean", "int8".."int64", "decimal4", "time",
        "timestamp_nanos", "uuid", "object", "array", ...)."""
        return self._h.type_counts()

    def derive_schema(self, *, min_fraction: float = 0.1, max_fields: int = 300,
                      max_depth: int = 31, min_typed_fraction: float = 0.5,
                      narrow_integers: bool = False) -> ShreddingSchema:
        """The shredding schema these statistics suggest (see vs.infer_schema)."""
        return ShreddingSchema(self._h.derive(min_fraction, max_fields, max_depth,
                                              min_typed_fraction, narrow_integers))

    def report(self, schema: "ShreddingSchema | str") -> str:
        """Per path, the share of values that would be typed, residual or missing."""
        return self._h.report(as_schema(schema)._handle)


@renamed(variants_or_batches="variants")
def infer_schema(variants: Any, *, column: str | None = None,
                 min_fraction: float = 0.1, max_fields: int = 300,
                 max_depth: int = 31) -> ShreddingSchema:
    """Infers a shredding schema from a Variant array, a chunked array, a table, a
    record batch reader, or an iterable of arrays / record batches (``column`` names the
    Variant column of tables and batches, the first by default).

    Fields present in at least ``min_fraction`` of their parent objects are kept; per
    path the type covering the most values under lossless widening wins; the whole
    sample counts, so a few top-level non-objects do not stop an object schema. The
    schema is at most ``max_fields`` Parquet columns wide besides ``metadata``, counted
    as Spark counts ``maxSchemaWidth`` (a ``value`` column per shredded path, a
    ``typed_value`` column more for a primitive), the most frequent fields first. At most
    ``max_depth`` (31 at the most) levels of objects and arrays are typed: deeper
    shredded layouts exceed what Arrow and Parquet readers take. (The keyword
    ``variants_or_batches=`` is the deprecated spelling of ``variants=``.)"""
    stats = ShreddingStats()
    if isinstance(variants, (pa.Table, pa.RecordBatch)):
        variants = variants.column(column if column is not None else 0)
    elif column is not None and hasattr(variants, "__arrow_c_stream__") and \
            not isinstance(variants, pa.ChunkedArray):
        variants = pa.RecordBatchReader.from_stream(variants)  # a stream of batches
    items = [variants] if not isinstance(variants, pa.RecordBatchReader) and (
        hasattr(variants, "__arrow_c_array__") or hasattr(variants, "__arrow_c_stream__")) \
        else variants
    for item in items:
        if isinstance(item, pa.RecordBatch):
            names = [f.name for f in item.schema]
            item = item.column(column if column is not None else names[0])
        stats.add(item)
    return stats.derive_schema(min_fraction=min_fraction, max_fields=max_fields,
                               max_depth=max_depth)
