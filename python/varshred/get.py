# Licensed under the Apache License, Version 2.0.
"""variant_get: values at a path, cast by Spark's variant_get rules."""

from __future__ import annotations

from typing import Any, Literal

import pyarrow as pa

from varshred import _kernels, _schema
from varshred._options import choice, renamed
from varshred.errors import VariantError

__all__ = ["variant_get", "arrow_type"]


def arrow_type(type_name: str | pa.DataType) -> pa.DataType | None:
    """The Arrow type of a Spark SQL type name (``"bigint"``, ``"decimal(9,2)"``,
    ``"timestamp_ntz"``, ``"struct<a: int, b: array<string>>"`` ...), read by the
    shredding-schema DDL parser (the names of :meth:`ShreddingSchema.parse`; decimals
    are ``decimal128``, as Spark's); ``None`` for ``"variant"``. A pyarrow type is
    returned as it is."""
    if isinstance(type_name, pa.DataType):
        return type_name
    try:
        return _schema.sql_type(type_name)
    except VariantError as e:
        raise VariantError(f"variant_get type {type_name!r}: {e}") from None


@renamed(type="target_type")
def variant_get(variants: Any, path: str, target_type: str | pa.DataType | None = None, *,
                errors: Literal["null", "raise"] = "null",
                timezone: str = "UTC") -> pa.Array | pa.ChunkedArray:
    """The value at ``path`` (``$.a.b``, ``$.a[0]``, ``$['key with space']``) of each row.

    With ``target_type`` (a pyarrow type or a Spark type name; the old keyword
    ``type=`` still works, deprecated) values are cast by Spark's ``variant_get``
    rules; a struct, list or map type casts an object or array as :func:`to_arrow`
    does (Spark's ``variant_get(v, path, 'struct<a: int>')``). ``errors="null"``
    behaves as ``try_variant_get`` and ``"raise"`` raises :class:`VariantError`
    naming the row; the default is ``"null"`` (unlike ``vs.from_json``) because a
    path absent or of another type in some rows is the normal case for
    semi-structured data, not an error in the input. Without
    ``target_type`` the result is a Variant column. On shredded input
    (``{metadata, value, typed_value}``) the typed columns along the path are read
    directly; only rows whose value sits in a residual ``value`` are decoded.
    """
    target = None if target_type is None else arrow_type(target_type)
    return _kernels.variant_get(variants, path, target,
                                choice("errors", errors, _kernels.GET_ERRORS), timezone)
