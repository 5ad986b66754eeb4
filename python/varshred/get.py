# Licensed under the Apache License, Version 2.0.
"""variant_get: values at a path, cast by Spark's variant_get rules."""

from __future__ import annotations

import re
from typing import Any, Literal

import pyarrow as pa

from varshred import _lib

__all__ = ["variant_get", "arrow_type"]

_TYPES = {
    "boolean": pa.bool_(), "bool": pa.bool_(),
    "tinyint": pa.int8(), "byte": pa.int8(),
    "smallint": pa.int16(), "short": pa.int16(),
    "int": pa.int32(), "integer": pa.int32(),
    "bigint": pa.int64(), "long": pa.int64(),
    "float": pa.float32(), "real": pa.float32(),
    "double": pa.float64(),
    "string": pa.string(), "varchar": pa.string(),
    "binary": pa.binary(),
    "date": pa.date32(),
    "timestamp": pa.timestamp("us", tz="UTC"),
    "timestamp_ntz": pa.timestamp("us"),
}
_DECIMAL = re.compile(r"^\s*(?:decimal|numeric|dec)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$",
                      re.IGNORECASE)


def arrow_type(type_name: "str | pa.DataType") -> pa.DataType:
    """The Arrow type of a Spark SQL type name (``"bigint"``, ``"decimal(9,2)"``, ...)."""
    if isinstance(type_name, pa.DataType):
        return type_name
    key = type_name.strip().lower()
    if key in _TYPES:
        return _TYPES[key]
    m = _DECIMAL.match(key)
    if m:
        return pa.decimal128(int(m.group(1) or 10), int(m.group(2) or 0))
    raise ValueError(f"unknown type {type_name!r} for variant_get")


def variant_get(variants: Any, path: str, type: "str | pa.DataType | None" = None, *,
                errors: Literal["null", "raise"] = "null", timezone: str = "UTC"):
    """The value at ``path`` (``$.a.b``, ``$.a[0]``, ``$['key with space']``) of each row.

    With ``type`` (a pyarrow type or a Spark type name) values are cast by Spark's
    ``variant_get`` rules; ``errors="null"`` behaves as ``try_variant_get``, ``"raise"``
    raises :class:`VariantError` naming the row. Without ``type`` the result is a
    Variant column. On shredded input (``{metadata, value, typed_value}``) the typed
    columns along the path are read directly; only rows whose value sits in a residual
    ``value`` are decoded.
    """
    target = None if type is None else arrow_type(type)
    return _lib.variant_get(variants, path, target, errors=errors, timezone=timezone)
