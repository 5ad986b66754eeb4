# Licensed under the Apache License, Version 2.0.
"""User-facing conversions between JSON text, Python values and Variant columns.

A Variant column is a pyarrow ``StructArray`` with binary ``metadata`` and ``value``
children (matched by name, so both the canonical layout and Spark's value-first layout
are accepted). A null struct slot is a SQL NULL and stays null through every
function here. A ``ChunkedArray`` (or any object with ``__arrow_c_stream__``) gives a
``ChunkedArray`` back, one output chunk per input chunk; error messages then count
rows across chunks.

Inputs are taken through the Arrow PyCapsule protocol: a pyarrow ``Array`` or
``ChunkedArray``, or any object implementing ``__arrow_c_array__`` or
``__arrow_c_stream__`` (nanoarrow, polars, ...).
"""

from __future__ import annotations

from typing import Any, Iterable, Literal

import pyarrow as pa

from varshred import _kernels, _pyobject
from varshred._options import choice

__all__ = ["from_json", "from_json_lines", "to_json", "from_python", "to_python", "from_arrow", "to_arrow",
           "validate", "to_layout", "variant_type"]

Layout = Literal["canonical", "spark"]


def _is_arrow(data: Any) -> bool:
    return hasattr(data, "__arrow_c_array__") or hasattr(data, "__arrow_c_stream__")


def _arrow_input(data: Any, what: str) -> Any:
    if _is_arrow(data):
        return data
    raise TypeError(
        f"{what} must be Arrow data (pyarrow Array/ChunkedArray or an object with "
        f"__arrow_c_array__ / __arrow_c_stream__), got {type(data).__name__}")


def variant_type(layout: Layout = "canonical") -> pa.DataType:
    """The pyarrow type of an unshredded Variant column.

    ``"canonical"``: ``struct<metadata: binary not null, value: binary not null>``;
    ``"spark"``: ``struct<value, metadata>``, as Spark's ``mapInArrow`` expects for
    ``VariantType``. Both tag the metadata field ``variant=true``, which tells
    :func:`from_arrow` the struct is a Variant.
    """
    return _kernels.variant_type(choice("layout", layout, _kernels.LAYOUTS))


def from_json(strings: Any, *, numbers: Literal["decimal", "double"] = "decimal",
              duplicate_keys: Literal["error", "last"] = "error",
              errors: Literal["raise", "null"] = "raise",
              layout: Layout = "canonical") -> pa.Array | pa.ChunkedArray:
    """Parses JSON text into Variant values, byte for byte as Spark's ``parse_json``.

    Args:
        strings: Arrow string data (string, large_string or string_view, also
            dictionary-encoded or as pyarrow's ``arrow.json`` type), or a Python list
            of ``str`` / ``None``. A null string gives a SQL NULL row.
        numbers: ``"decimal"`` (Spark): a number with a fraction becomes the smallest
            exact decimal, falling back to double; ``"double"``: always double.
        duplicate_keys: ``"error"`` (Spark's default) or ``"last"`` (last value wins).
        errors: ``"raise"``: invalid JSON raises :class:`VariantError` naming the row;
            ``"null"``: invalid rows become SQL NULL (as ``try_parse_json``).
        layout: ``"canonical"`` or ``"spark"`` (see :func:`variant_type`).
    """
    return _kernels.from_json(json_strings(strings),
                              *json_options(numbers, duplicate_keys, errors),
                              choice("layout", layout, _kernels.LAYOUTS))


def json_strings(strings: Any) -> Any:
    """The Arrow data of JSON documents given to :func:`from_json` (a list of ``str`` /
    ``None`` becomes a string array)."""
    if isinstance(strings, (list, tuple)):
        strings = pa.array(strings, type=pa.string())
    return _arrow_input(strings, "strings")


def json_options(numbers: str, duplicate_keys: str, errors: str) -> tuple[int, int, int]:
    """The checked ``numbers``, ``duplicate_keys`` and ``errors`` of the JSON readers,
    as their C++ values."""
    return (choice("numbers", numbers, _kernels.JSON_NUMBERS),
            choice("duplicate_keys", duplicate_keys, _kernels.DUPLICATE_KEYS),
            choice("errors", errors, _kernels.JSON_ERRORS))


def from_json_lines(text: Any, *, numbers: Literal["decimal", "double"] = "decimal",
                    duplicate_keys: Literal["error", "last"] = "error",
                    errors: Literal["raise", "null"] = "raise",
                    layout: Layout = "canonical") -> pa.Array:
    """Parses JSON lines into Variant values: one row per line of ``text`` that holds
    more than ASCII whitespace, as :func:`from_json` parses a string array of those
    lines (errors name the row: ``row 0`` is the first non-blank line). ``text`` is
    any bytes-like object (``bytes``, ``pyarrow.Buffer``, ``memoryview``), read where
    it lies: no line array is built or copied first.
    """
    return _kernels.from_json_lines(text, *json_options(numbers, duplicate_keys, errors),
                                    choice("layout", layout, _kernels.LAYOUTS))


def to_json(variants: Any, *, timezone: str = "UTC",
            on_conflict: Literal["error", "typed-wins"] = "error") -> pa.Array | pa.ChunkedArray:
    """Prints Variant values as JSON text, as Spark's ``to_json`` does (keys in the
    order the object stores them, which the format requires to be sorted; decimals
    without trailing zeros, timestamps in ``timezone``). SQL NULL rows give
    null strings. Shredded input prints straight from its typed columns, without
    rebuilding Variant values, exactly as its unshredded values would.

    Args:
        timezone: zone for timestamps with time zone: ``"UTC"``, a fixed offset such
            as ``"+05:30"``, an IANA name (``"America/Los_Angeles"``) or a Java short
            id (``"PST"``), as Spark's session zone.
        on_conflict: shredded input the spec calls invalid, as in :func:`unshred`.
    """
    return _kernels.to_json(_arrow_input(variants, "variants"), timezone,
                            choice("on_conflict", on_conflict, _kernels.ON_CONFLICT))


def from_python(objects: Iterable[Any], *, layout: Layout = "canonical") -> pa.Array:
    """Builds a Variant column from Python values, one row per item.

    ========================================  =========================================
    Python                                    Variant
    ========================================  =========================================
    ``None`` (top level)                      SQL NULL row
    ``None`` (nested)                         null
    ``bool``                                  boolean
    ``int`` in int64 range                    int8/16/32/64, the smallest that fits
    larger ``int`` (up to 38 digits)          decimal, scale 0
    ``float``                                 double
    ``decimal.Decimal``                       smallest decimal (precision <= 38)
    ``str``                                   string
    ``bytes`` / ``bytearray`` / ``memoryview``  binary
    ``datetime.date``                         date
    ``datetime.datetime`` (naive)             timestamp_ntz, microseconds
    ``datetime.datetime`` (aware)             timestamp (UTC), microseconds
    ``datetime.time`` (naive)                 time, microseconds
    ``uuid.UUID``                             uuid
    ``list`` / ``tuple``                      array
    ``dict`` with ``str`` keys                object
    ========================================  =========================================

    Anything else raises :class:`TypeError`; values out of range, nesting deeper than
    500 containers (the limit of validation) and values that contain themselves raise
    :class:`VariantError`. Both name the row and the path (``row 2: $.a[1]: ...``).
    """
    if isinstance(objects, (str, bytes)) or _is_arrow(objects):
        raise TypeError("from_python expects an iterable of Python values, one per row, "
                        f"got {type(objects).__name__}")
    return _pyobject.from_python(objects, choice("layout", layout, _kernels.LAYOUTS))


def from_arrow(data: Any, *, layout: Layout = "canonical") -> pa.Array | pa.ChunkedArray:
    """Converts typed Arrow data into Variant values, one per row, as Spark's
    ``to_variant_object`` and ``cast(x as variant)`` do wherever Spark has the type.

    ``data`` is any Arrow array, chunked array or capsule object (a ``RecordBatch`` or
    ``Table`` gives one object per row). A null row is a SQL NULL; a null nested in a
    row (struct field, list element, map value) is a Variant null.

    ==========================================  =======================================
    Arrow                                       Variant
    ==========================================  =======================================
    struct, map with string keys                object (fields by name)
    list, large_list, fixed_size_list, views    array
    int8..int64, uint8..uint64                  smallest of int8..int64 (as Spark);
                                                uint64 above INT64_MAX: decimal(20,0)
    half_float, float / double                  float / double
    decimal32/64/128/256                        decimal, scale kept (at most 38 digits)
    bool, string kinds, binary kinds            boolean, string, binary
    date32, date64                              date (date64 floored to the day)
    timestamp s/ms/us, ns                       timestamp micros, nanos (no zone: ntz)
    time32, time64                              time (microseconds)
    arrow.uuid, dictionary, null                uuid, the value, Variant null
    arrow.parquet.variant, a Variant struct     copied in (a plain struct of metadata
    tagged variant=true (varshred's results)    and value is an ordinary struct)
    ==========================================  =======================================

    Other types raise :class:`TypeError` naming the column path (``$.a[0]``); values
    that cannot be represented (a decimal256 past 38 digits, a repeated map key,
    time64[ns] below a microsecond) raise :class:`VariantError` naming the row and path.
    """
    data = _arrow_input(data, "data")
    if _is_variant_extension(getattr(data, "type", None)):
        # A pyarrow type Arrow C++ may not know: handed over as its storage, the plain
        # struct would read as an object of two binaries. Spark's tagged layout says
        # what it is.
        data = to_layout(data, "spark")
    return _kernels.from_arrow(data, choice("layout", layout, _kernels.LAYOUTS))


def _is_variant_extension(t: Any) -> bool:
    return isinstance(t, pa.BaseExtensionType) and t.extension_name == "arrow.parquet.variant"


def to_arrow(variants: Any, target_type: str | pa.DataType, *,
             errors: Literal["null", "raise"] = "null",
             timezone: str = "UTC") -> pa.Array | pa.ChunkedArray:
    """Casts Variant values to a typed Arrow column by Spark's ``cast(v as <type>)``
    (``errors="raise"``) or ``try_cast`` (``errors="null"``) rules.

    ``target_type`` is a pyarrow type (struct, list, large_list, fixed_size_list and
    map with string keys nest; struct fields are looked up by name) or a Spark type
    name (``"bigint"``, ``"decimal(9,2)"``, ``"struct<a: int, b: array<string>>"``).
    A failed cast is null under ``"null"``, leaving its struct, list or map valid as
    Spark does; under ``"raise"`` it raises :class:`VariantError` naming the row and
    the path. Besides Spark's types, unsigned integers, other timestamp units
    (nanoseconds exact), time, date64, uuid and string and binary views round-trip
    what :func:`from_arrow` makes: ``to_arrow(from_arrow(x), x.type) == x`` (but for
    decimals of negative scale, which Variant lacks, and list views, which
    :func:`from_arrow` reads: a ``TypeError`` as a target). On
    shredded input, scalar targets read the typed columns directly (as
    :func:`variant_get`).
    """
    from varshred.get import arrow_type

    target = arrow_type(target_type)
    if target is None:
        raise TypeError("to_arrow needs a type other than variant")
    return _kernels.to_arrow(_arrow_input(variants, "variants"), target,
                             choice("errors", errors, _kernels.GET_ERRORS), timezone)


def to_python(variants: Any) -> list[Any]:
    """Converts a Variant column to Python values (the inverse of
    :func:`from_python`).

    Both a Variant null and a SQL NULL row give ``None``. Objects with unsorted field
    ids (written by DuckDB, or by Spark for some non-BMP keys) are accepted. Objects become ``dict``,
    arrays ``list``, decimals ``decimal.Decimal``, timestamps aware (UTC) or naive
    ``datetime``, time ``datetime.time``, uuid ``uuid.UUID``, binary ``bytes``, float
    and double ``float``.

    Shredded input (``{metadata, value, typed_value}``) is rebuilt first, as
    :func:`unshred` rebuilds it.

    Lossy: nanosecond timestamps are truncated to microseconds (Python's ``datetime``
    resolution), and dates or timestamps outside years 1-9999 raise
    :class:`VariantError`.
    """
    return _pyobject.to_python(_arrow_input(variants, "variants"))


def validate(variants: Any, *, max_depth: int = 500, max_size: int = 128 << 20,
             allow_unsorted_keys: bool = False) -> None:
    """Checks every row's bytes against the Variant spec.

    Raises :class:`VariantError` for the first bad row, naming it and the path inside
    the value (``row 3: $.a[2]: ...``); :class:`TypeError` if the input is not a
    Variant struct column. A null ``value`` in a non-null row is the Variant null, as
    readers take it. A shredded column is checked at every level as readers check it
    (residual bytes, ``typed_value`` types, a scalar in both ``value`` and
    ``typed_value``).
    """
    if isinstance(max_size, int) and max_size < 0:
        raise ValueError(f"max_size must be >= 0, got {max_size}")
    _kernels.validate(_arrow_input(variants, "variants"), max_depth, max_size,
                      allow_unsorted_keys)


def to_layout(variants: Any, layout: Layout = "canonical") -> pa.Array | pa.ChunkedArray:
    """Returns an unshredded Variant column in ``layout``, sharing buffers when the
    children are already plain binary without nulls."""
    return _kernels.to_layout(_arrow_input(variants, "variants"),
                              choice("layout", layout, _kernels.LAYOUTS))
