# Licensed under the Apache License, Version 2.0.
"""variant_get: values at a path, cast by Spark's variant_get rules."""

from __future__ import annotations

import re
from typing import Any, Literal

import pyarrow as pa

from varshred import _kernels, _schema
from varshred._options import choice, renamed
from varshred.core import _arrow_input
from varshred.errors import VariantError

__all__ = ["variant_get", "arrow_type"]


def arrow_type(type_name: str | pa.DataType) -> pa.DataType | None:
    """The Arrow type of a Spark SQL type name (``"bigint"``, ``"decimal(9,2)"``,
    ``"timestamp_ntz"``, ``"struct<a: int, b: array<string>>"``,
    ``"map<string, int>"`` ...), read by the shredding-schema DDL parser (the names of
    :meth:`ShreddingSchema.parse`; decimals are ``decimal128``, as Spark's); ``None``
    for ``"variant"``. A pyarrow type is returned as it is."""
    if isinstance(type_name, pa.DataType):
        return type_name
    if not isinstance(type_name, str):
        raise TypeError("target_type must be a pyarrow DataType or a Spark type name "
                        f"(str), got {type(type_name).__name__}")
    # Shredding schemas have no maps (an object's keys are its fields): the DDL parser
    # reads each map<K, V> as a list of entries of two fields named by a token the text
    # does not hold (so no struct of the user's has them), turned back into a map after.
    n = 0
    while f"__varshred_map{n}_" in type_name:
        n += 1
    entry = (f"__varshred_map{n}_key", f"__varshred_map{n}_value")
    try:
        parsed = _schema.sql_type(_maps_as_entry_lists(type_name, entry))
    except VariantError as e:
        raise VariantError(f"variant_get type {type_name!r}: {e}") from None
    return None if parsed is None else _entry_lists_as_maps(parsed, entry)


def _maps_as_entry_lists(ddl: str, entry: tuple[str, str]) -> str:
    """``ddl`` with every ``map<K, V>`` outside backquoted names spelled as a list of
    structs of the two fields ``entry``."""
    out, i, quoted = [], 0, False
    while i < len(ddl):
        c = ddl[i]
        quoted ^= c == "`"  # a doubled `` inside a name toggles twice
        word = None if quoted else re.match(r"map\s*<", ddl[i:], re.IGNORECASE)
        if word and (i == 0 or not (ddl[i - 1].isalnum() or ddl[i - 1] == "_")):
            start = end = i + word.end()
            depth = 1
            while end < len(ddl) and depth:
                quoted ^= ddl[end] == "`"
                depth += 0 if quoted else {"<": 1, ">": -1}.get(ddl[end], 0)
                end += 1
            parts = split_top_level(ddl[start:end - 1])
            if depth or len(parts) != 2:
                raise VariantError("map takes two types, <key, value>")
            key, value = (_maps_as_entry_lists(p, entry) for p in parts)
            out.append(f"array<struct<{entry[0]}: {key}, {entry[1]}: {value}>>")
            i = end
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _entry_lists_as_maps(t: pa.DataType, entry: tuple[str, str]) -> pa.DataType:
    if pa.types.is_list(t):
        item = t.value_type
        if pa.types.is_struct(item) and tuple(f.name for f in item) == entry:
            return pa.map_(_entry_lists_as_maps(item.field(0).type, entry),
                           _entry_lists_as_maps(item.field(1).type, entry))
        return pa.list_(t.value_field.with_type(_entry_lists_as_maps(item, entry)))
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_entry_lists_as_maps(f.type, entry)) for f in t])
    return t


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """``text`` cut at each ``sep`` outside quotes (``'``, ``"``, backquotes) and
    brackets: a path may name any key (``$['a,b']``), a type hold commas and colons
    (``decimal(9,2)``, ``struct<`a,b`: int>``)."""
    items, start, depth, quote = [], 0, 0, ""
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"`":
            quote = c
        elif c in "([<":
            depth += 1
        elif c in ")]>":
            depth -= 1
        elif c == sep and depth == 0:
            items.append(text[start:i])
            start = i + 1
    return items + [text[start:]]


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
    Bytes written elsewhere are checked where they are read: the metadata of each
    row answered from Variant bytes (not of one answered from a typed column), the
    objects and arrays on the path and the whole value found (invalid bytes there
    raise :class:`VariantError` naming row and path, whatever ``errors`` is).
    """
    target = None if target_type is None else arrow_type(target_type)
    return _kernels.variant_get(_arrow_input(variants, "variants"), path, target,
                                choice("errors", errors, _kernels.GET_ERRORS), timezone)
