# Licensed under the Apache License, Version 2.0.
"""Spark SQL's Variant functions outside Spark: ``schema_of_variant``,
``schema_of_variant_agg`` and ``variant_explode`` (docs/interop.md#variant-functions)."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from varshred import _kernels
from varshred._options import choice, renamed
from varshred.core import Layout, _arrow_input, _is_arrow

__all__ = ["is_variant_null", "schema_of_variant", "schema_of_variant_agg",
           "variant_explode"]


def schema_of_variant(variants: Any, *, case_sensitive: bool = False,
                      ) -> pa.Array | pa.ChunkedArray:
    """The SQL type of each row exactly as Spark 4.3's ``schema_of_variant`` prints it
    (``OBJECT<a: BIGINT, b: ARRAY<VARIANT>>``, ``DECIMAL(3,1)``, ``VOID`` for a Variant
    null); null for SQL NULL rows. Values Spark cannot read print as ``TIME``,
    ``TIMESTAMP_NS``, ``TIMESTAMP_NTZ_NS``. Shredded input is unshredded first.

    ``case_sensitive`` is Spark's ``spark.sql.caseSensitive``: by default the elements
    ``{"id": 1}`` and ``{"ID": 2}`` of one array merge into ``OBJECT<id: BIGINT>``,
    the first spelling, as in Spark (docs/interop.md#schema-of-variant)."""
    return _kernels.schema_of_variant(_arrow_input(variants, "variants"), case_sensitive)


def is_variant_null(variants: Any) -> pa.Array | pa.ChunkedArray:
    """Spark's ``is_variant_null``: true where the row is a Variant null, false
    otherwise, SQL NULL rows included. For a path, pass ``variant_get(v, path)``.
    Shredded input is accepted."""
    import pyarrow.compute as pc  # here: not paid by every import of varshred

    from varshred.get import variant_get

    top = variant_get(variants, "$")  # unshredded, one Variant per row
    value = pc.struct_field(top, "value")
    return pc.fill_null(pc.and_(pc.is_valid(top), pc.equal(value, pa.scalar(b"\x00"))),
                        False)


def _is_type_strings(data: Any) -> bool:
    """Whether ``data`` is a string column, such as ``schema_of_variant`` returns."""
    return (isinstance(data, (pa.Array, pa.ChunkedArray))
            and (pa.types.is_string(data.type) or pa.types.is_large_string(data.type)
                 or pa.types.is_string_view(data.type)))


@renamed(variants_or_batches="variants")
def schema_of_variant_agg(variants: Any, *, case_sensitive: bool = False) -> str:
    """The merged type of all rows, as Spark's ``schema_of_variant_agg`` (``VOID`` when
    there are none).

    Accepts a Variant column (array, chunked array, stream), a string column of types
    (what ``schema_of_variant`` returns), or an iterable of them and of type strings
    returned by earlier calls: partial results from batches or Spark tasks merge into
    the type of the whole, as ``ShreddingStats`` do. Object fields whose names differ
    only in case merge as in Spark unless ``case_sensitive`` (``schema_of_variant``).
    (``variants_or_batches=`` is the deprecated spelling of ``variants=``.)
    """
    if _is_arrow(variants) and not _is_type_strings(variants):
        return _kernels.schema_of_variant_agg([], variants, case_sensitive)
    if isinstance(variants, (str, bytes)):
        raise TypeError("schema_of_variant_agg expects Variant data or an iterable of "
                        "Variant data and type strings, got a single string")
    items = [variants] if _is_type_strings(variants) else variants
    # In order: Spark keeps the first spelling of names that differ in case.
    result = "VOID"
    for item in items:
        if item is None:  # a SQL NULL row of schema_of_variant's result adds nothing
            continue
        if isinstance(item, str):
            types = [item]
            item = None
        elif _is_type_strings(item):
            types = [t for t in item.to_pylist() if t is not None]
            item = None
        else:
            types = []
            item = _arrow_input(item, "batch")
        result = _kernels.schema_of_variant_agg([result, *types], item, case_sensitive)
    return result


def variant_explode(variants: Any, *, outer: bool = False,
                    layout: Layout = "canonical") -> pa.Table:
    """One row per field of every object row and per element of every array row, as
    Spark's ``variant_explode`` (``outer=True``: ``variant_explode_outer``).

    Returns a table ``row`` (the input row, counted across chunks), ``pos``, ``key``
    (null for array elements) and ``value`` (Variant, ``layout``). Fields come in the
    order the object stores them (key order, as the format requires). Scalars,
    Variant nulls and SQL NULL rows give nothing, or under ``outer`` one row with null
    ``pos``, ``key`` and ``value``. Shredded input is accepted.
    """
    chunks, lengths = _kernels.variant_explode(_arrow_input(variants, "variants"), outer,
                                               choice("layout", layout, _kernels.LAYOUTS))
    import pyarrow.compute as pc  # here: not paid by every import of varshred

    batches = []
    offset = 0
    for chunk, length in zip(chunks.chunks, lengths):
        batch = pa.RecordBatch.from_struct_array(chunk)
        if offset:
            batch = batch.set_column(0, batch.schema.field(0),
                                    pc.add(batch.column(0), offset))
        batches.append(batch)
        offset += length
    return pa.Table.from_batches(batches, schema=pa.schema(chunks.type))


