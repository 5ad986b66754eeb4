# Licensed under the Apache License, Version 2.0.
"""Shredding schemas, shredding and reconstruction of Variant columns.

>>> import varshred as vs
>>> schema = vs.ShreddingSchema.parse("struct<id: bigint, tags: array<string>>")
>>> shredded = vs.shred(variants, schema)      # struct<metadata, value, typed_value>
>>> vs.unshred(shredded)                       # struct<metadata, value> again
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal

import pyarrow as pa

from varshred import _kernels, _schema
from varshred._options import choice, renamed
from varshred.core import _arrow_input

__all__ = ["ShreddingSchema", "shred", "unshred", "from_legacy_shredded"]


class ShreddingSchema:
    """The typed shape a Variant column is shredded into: typed leaves, objects (named
    fields) and arrays (one element), any of which may be value-only (``variant``).

    Build one from a Spark-style DDL string (:meth:`parse`), from the Arrow type of a
    ``typed_value`` column (:meth:`from_arrow`) or from ``(path, type)`` pairs
    (:meth:`from_paths`). It prints back as DDL, pickles as DDL, and gives the Arrow
    type of the shredded column (:meth:`to_arrow`).
    """

    __slots__ = ("_handle",)

    def __init__(self, handle: _schema.ShreddingSchemaHandle):
        if not isinstance(handle, _schema.ShreddingSchemaHandle):
            raise TypeError("ShreddingSchema() is built by ShreddingSchema.parse(ddl), "
                            ".from_arrow(type) or .from_paths(pairs), got "
                            f"{type(handle).__name__}")
        self._handle = handle

    @classmethod
    def parse(cls, ddl: str) -> "ShreddingSchema":
        """``"struct<id: bigint, name: string, tags: array<string>>"``, the bare form
        ``"id bigint, name string"``, a single type (``"bigint"``) or ``"variant"``."""
        if not isinstance(ddl, str):
            raise TypeError(f"ShreddingSchema.parse takes a DDL str, got {type(ddl).__name__}")
        if ddl.strip().lower() in ("none", "variant"):
            return cls(_schema.value_only())
        return cls(_schema.parse(ddl))

    @classmethod
    def from_arrow(cls, typed_value: pa.DataType) -> "ShreddingSchema":
        """From the Arrow type of a ``typed_value`` column (docs/shredding.md#typed-value-types mapping)."""
        if not hasattr(typed_value, "__arrow_c_schema__"):
            raise TypeError("from_arrow takes an Arrow type (e.g. pa.int64()), got "
                            f"{type(typed_value).__name__}")
        return cls(_schema.from_arrow(typed_value))

    @classmethod
    def from_paths(cls, pairs: Iterable[tuple[str, str]]) -> "ShreddingSchema":
        """``[("id", "bigint"), ("nested.x", "int"), ("tags[]", "string")]``."""
        if isinstance(pairs, (str, bytes)):
            raise TypeError("from_paths takes (path, type) pairs, got a "
                            f"{type(pairs).__name__}")
        checked = []
        for item in pairs:
            if (not isinstance(item, (tuple, list)) or len(item) != 2
                    or not all(isinstance(x, str) for x in item)):
                raise TypeError(f"from_paths takes (path, type) pairs of str, got {item!r}")
            checked.append(tuple(item))
        return cls(_schema.from_paths(checked))

    @classmethod
    def value_only(cls) -> "ShreddingSchema":
        """No typed columns: the plain ``{metadata, value}`` layout."""
        return cls(_schema.value_only())

    def to_ddl(self) -> str:
        return self._handle.to_ddl()

    def to_arrow(self) -> pa.DataType:
        """The Arrow type of the whole shredded column ``struct<metadata, value, typed_value>``."""
        return self._handle.to_arrow()

    def typed_value_type(self) -> pa.DataType | None:
        return self._handle.typed_value_type()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ShreddingSchema) and self._handle.equals(other._handle)

    def __hash__(self) -> int:
        return hash(self.to_ddl())

    def __repr__(self) -> str:
        return f"ShreddingSchema.parse({self.to_ddl()!r})"

    def __str__(self) -> str:
        return self.to_ddl()

    def __reduce__(self) -> tuple[Callable[[str], ShreddingSchema], tuple[str]]:
        return (ShreddingSchema.parse, (self.to_ddl(),))


def as_schema(schema: "ShreddingSchema | str") -> ShreddingSchema:
    """``schema`` as a ShreddingSchema: one already, or its DDL string."""
    if isinstance(schema, ShreddingSchema):
        return schema
    if not isinstance(schema, str):
        raise TypeError("schema must be a ShreddingSchema or a DDL str, got "
                        f"{type(schema).__name__}")
    return ShreddingSchema.parse(schema)


def shred(variants: Any, schema: "ShreddingSchema | str", *,
          numeric: Literal["lenient", "strict"] = "lenient") -> pa.Array | pa.ChunkedArray:
    """Shreds a Variant column into ``struct<metadata, value, typed_value>``.

    ``numeric="lenient"`` (default, as Spark) puts any Exact Numeric value into a
    numeric column when that is lossless; ``"strict"`` (as parquet-java) takes only the
    exact Variant type. The metadata child is shared with the input (zero-copy).
    """
    return _kernels.shred(_arrow_input(variants, "variants"), as_schema(schema)._handle,
                          choice("numeric", numeric, _kernels.NUMERIC))


@renamed(shredded="variants")
def unshred(variants: Any, *, on_conflict: Literal["error", "typed-wins"] = "error",
            layout: Literal["canonical", "spark"] = "canonical") -> pa.Array | pa.ChunkedArray:
    """Rebuilds ``struct<metadata, value>`` from any shredded layout the spec allows.

    Invalid data raises :class:`VariantError` naming the row and path; with
    ``on_conflict="typed-wins"`` it is read as parquet-java reads it instead. (The
    keyword ``shredded=`` is the deprecated spelling of ``variants=``.)
    """
    return _kernels.unshred(_arrow_input(variants, "variants"),
                            choice("on_conflict", on_conflict, _kernels.ON_CONFLICT),
                            choice("layout", layout, _kernels.LAYOUTS))


@renamed(array="variants")
def from_legacy_shredded(variants: Any) -> pa.Array | pa.ChunkedArray:
    """Rebuilds Variants stored in the seed draft's layout (``untyped_value``,
    ``object``, ``array``, ``typed_value``). (The keyword ``array=`` is the deprecated
    spelling of ``variants=``.)"""
    return _kernels.from_legacy_shredded(_arrow_input(variants, "variants"))
