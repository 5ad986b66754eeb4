# Licensed under the Apache License, Version 2.0.
"""Every entry point that reads Variant bytes it did not build checks them as
vs.validate does: metadata with trailing bytes, a value with trailing bytes and a
truncated value are errors naming the row, whatever the function."""

from __future__ import annotations

import pyarrow as pa
import pytest

import varshred as vs
from varshred.spark import MapColumn

GOOD_MD = bytes.fromhex("01 01 00 01 61")        # ["a"]
GOOD_VALUE = bytes.fromhex("02 01 00 00 02 0c 05")  # {"a": 5}
BAD = {
    "metadata with trailing bytes": (GOOD_MD + b"\x00", GOOD_VALUE, "trailing"),
    "value with trailing bytes": (GOOD_MD, GOOD_VALUE + b"\x00", "trailing"),
    "truncated value": (GOOD_MD, GOOD_VALUE[:-1], "past the end"),
}


def column(md: bytes, value: bytes) -> pa.Array:
    # The bad row second: the error must name row 1.
    return pa.StructArray.from_arrays(
        [pa.array([GOOD_MD, md], pa.binary()), pa.array([GOOD_VALUE, value], pa.binary())],
        names=["metadata", "value"])


def _write(arr, tmp_path):
    vs.parquet.write_table(pa.table({"v": arr}), str(tmp_path / "w.parquet"),
                           shredding={"v": "a bigint"})


def _write_unshredded(arr, tmp_path):
    vs.parquet.write_table(pa.table({"v": arr}), str(tmp_path / "u.parquet"))


def _map_shred(arr, tmp_path):
    batch = pa.RecordBatch.from_arrays([arr], names=["v"])
    list(MapColumn("v", "shred", options={"schema": "a bigint"})([batch]))


ENTRY_POINTS = {
    "validate": lambda a, t: vs.validate(a),
    "to_json": lambda a, t: vs.to_json(a),
    "to_python": lambda a, t: vs.to_python(a),
    "variant_get": lambda a, t: vs.variant_get(a, "$.a", "bigint"),
    "variant_get errors=null": lambda a, t: vs.variant_get(a, "$.a", "bigint",
                                                           errors="null"),
    "variant_get variant": lambda a, t: vs.variant_get(a, "$"),
    "shred": lambda a, t: vs.shred(a, "a bigint"),
    "ShreddingStats": lambda a, t: vs.ShreddingStats().add(a),
    "infer_schema": lambda a, t: vs.infer_schema(a),
    "write_table": _write,
    "write_table unshredded": _write_unshredded,
    "mapInArrow shred": _map_shred,
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("case", sorted(BAD))
def test_entry_point_rejects(entry, case, tmp_path):
    md, value, what = BAD[case]
    ENTRY_POINTS[entry](column(GOOD_MD, GOOD_VALUE), tmp_path)  # the good row passes
    with pytest.raises(vs.VariantError, match=f"row 1.*{what}"):
        ENTRY_POINTS[entry](column(md, value), tmp_path)


def shredded_column(md: bytes, value: bytes) -> pa.Array:
    """Shredded by "b bigint": the object {"a": 5} goes to a residual `value`."""
    good = vs.shred(column(GOOD_MD, GOOD_VALUE), "b bigint")
    return pa.StructArray.from_arrays(
        [pa.array([GOOD_MD, md], pa.binary()),
         pa.array([GOOD_VALUE, value], pa.binary()), good.field("typed_value")],
        names=["metadata", "value", "typed_value"])


SHREDDED_ENTRY_POINTS = {
    "unshred": lambda a, t: vs.unshred(a),
    "variant_get": lambda a, t: vs.variant_get(a, "$.a", "bigint"),
    "variant_get variant": lambda a, t: vs.variant_get(a, "$"),
    "ShreddingStats": lambda a, t: vs.ShreddingStats().add(a),
    "write_table": _write,
}


@pytest.mark.parametrize("entry", sorted(SHREDDED_ENTRY_POINTS))
@pytest.mark.parametrize("case", sorted(BAD))
def test_shredded_entry_point_rejects(entry, case, tmp_path):
    md, value, what = BAD[case]
    SHREDDED_ENTRY_POINTS[entry](shredded_column(GOOD_MD, GOOD_VALUE), tmp_path)
    with pytest.raises(vs.VariantError, match=f"row 1.*{what}"):
        SHREDDED_ENTRY_POINTS[entry](shredded_column(md, value), tmp_path)


@pytest.mark.parametrize("case", sorted(BAD))
def test_read_table_rejects(case, tmp_path):
    """A file another writer made: pyarrow writes the shredded struct as is."""
    import pyarrow.parquet as pq

    md, value, what = BAD[case]
    path = str(tmp_path / "bad.parquet")
    pq.write_table(pa.table({"v": shredded_column(md, value)}), path)
    with pytest.raises(vs.VariantError, match=f"row 1.*{what}"):
        vs.parquet.read_table(path)
