# Licensed under the Apache License, Version 2.0.
"""Decimal typed values: every width written exactly by both write paths and read back
by varshred, pyarrow and DuckDB; decimals beyond their declared precision in a file or
an Arrow array are an error, never a narrowed number."""

from __future__ import annotations

import struct
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs

# field -> (declared type, values: the largest magnitudes, both signs, small ones, zero)
DECIMALS = {
    "d9": ("decimal(9,2)", ["9999999.99", "-9999999.99", "0.01", "-1.5"]),
    "d18": ("decimal(18,3)", ["999999999999999.999", "-999999999999999.999", "0.001", "-2"]),
    "d20": ("decimal(20,2)", ["999999999999999999.99", "-999999999999999999.99",
                              "123456789012345678.12", "-0.01"]),
    "d30": ("decimal(30,5)", ["9999999999999999999999999.99999",
                              "-9999999999999999999999999.99999", "1.5", "-7"]),
    "d37": ("decimal(37,0)", ["9" * 37, "-" + "9" * 37, "1", "-10"]),
    "d38": ("decimal(38,10)", ["9" * 28 + "." + "9" * 10, "-" + "9" * 28 + "." + "9" * 10,
                               "0.0000000001", "0"]),
}
SCHEMA = "struct<" + ", ".join(f"{k}: {t}" for k, (t, _) in DECIMALS.items()) + ">"
N = len(next(iter(DECIMALS.values()))[1])


def _rows():
    rows = [{k: Decimal(vals[i]) for k, (_, vals) in DECIMALS.items()} for i in range(N)]
    rows.append({k: "not a number" for k in DECIMALS})  # residual values beside them
    rows.append(None)
    return rows


def _table(with_list: bool) -> pa.Table:
    rows = _rows()
    columns = {"v": vs.from_python(rows)}
    if with_list:  # a nested non-Variant column: the writer takes its Arrow path
        columns["l"] = pa.array([[i, i + 1] for i in range(len(rows))], pa.list_(pa.int32()))
    return pa.table(columns)


def _typed(path: str, field: str) -> list:
    v = pq.read_table(path)["v"].combine_chunks()
    return v.field("typed_value").field(field).field("typed_value").to_pylist()


def test_every_decimal_width_is_stored_exactly_beside_a_list_column(tmp_path):
    table = _table(with_list=True)
    path = str(tmp_path / "d.parquet")
    vs.parquet.write_table(table, path, shredding={"v": SCHEMA})
    expected = _rows()
    # varshred
    back = vs.to_python(vs.parquet.read_table(path)["v"].combine_chunks())
    assert back == expected
    # pyarrow: the typed_value columns themselves hold the numbers
    for field, (_, vals) in DECIMALS.items():
        assert _typed(path, field) == [Decimal(x) for x in vals] + [None, None], field
    # DuckDB, an independent reader of the same bytes
    duckdb = pytest.importorskip("duckdb")
    got = duckdb.sql(f"SELECT {', '.join(f'v.{k}' for k in DECIMALS)} "
                     f"FROM read_parquet('{path}')").fetchall()
    for i in range(N):
        assert [Decimal(x) for x in got[i]] == [Decimal(v[1][i]) for v in DECIMALS.values()]


def test_file_stores_the_decimals_shred_builds(tmp_path):
    # The shredding core's two sinks (Parquet column chunks, Arrow arrays) agree.
    table = _table(with_list=False)
    path = str(tmp_path / "d.parquet")
    vs.parquet.write_table(table, path, shredding={"v": SCHEMA})
    stored = pq.read_table(path)["v"].combine_chunks()
    built = vs.shred(table["v"].combine_chunks(), SCHEMA)
    assert stored.to_pylist() == built.to_pylist()


# ----------------------------------------------------------------------------
# Decimals beyond their precision

METADATA_A = b"\x01\x01\x00\x01a"  # dictionary ["a"]


def _decimals(values: list, type_: pa.DataType) -> pa.Array:
    """A decimal array holding any unscaled values, in range of its precision or not."""
    width = type_.byte_width
    data = b"".join((v or 0).to_bytes(width, "little", signed=True) for v in values)
    validity = pa.array([v is not None for v in values]).buffers()[1]
    return pa.Array.from_buffers(type_, len(values), [validity, pa.py_buffer(data)])


def _shredded(typed: pa.Array) -> pa.StructArray:
    """{"a": typed} per row, $.a shredded."""
    n = len(typed)
    a = pa.StructArray.from_arrays([pa.nulls(n, pa.binary()), typed], ["value", "typed_value"])
    return pa.StructArray.from_arrays(
        [pa.array([METADATA_A] * n, pa.binary()), pa.nulls(n, pa.binary()),
         pa.StructArray.from_arrays([a], ["a"])], ["metadata", "value", "typed_value"])


def _hostile_file(path: str, physical: str) -> int:
    """A file whose $.a typed_value is a DECIMAL on `physical` holding 12 at row 0 and a
    value beyond the declared precision at row 1; returns that value."""
    if physical == "INT32":  # pyarrow writes a decimal128(4,0) as INT32 unchecked
        type_, bad, as_int = pa.decimal128(4, 0), 123456, True
    elif physical == "INT64":  # written as DECIMAL(17,0), then relabelled DECIMAL(4,0)
        type_, bad, as_int = pa.decimal128(17, 0), 5_000_000_000, True
    else:  # FIXED_LEN_BYTE_ARRAY(9), DECIMAL(20,0)
        type_, bad, as_int = pa.decimal128(20, 0), 10**21, False
    pq.write_table(pa.table({"v": _shredded(_decimals([12, bad], type_))}), path,
                   store_decimal_as_integer=as_int, store_schema=False)
    if physical == "INT64":
        # Patch the footer: precision 17 (zigzag varint 0x22 after an i32 field header
        # 0x15) -> 4, in the converted type and in the logical type.
        raw = open(path, "rb").read()
        n = struct.unpack("<i", raw[-8:-4])[0]
        start = len(raw) - 8 - n
        footer = raw[start:-8]
        assert footer.count(b"\x15\x22") == 2
        with open(path, "wb") as f:
            f.write(raw[:start] + footer.replace(b"\x15\x22", b"\x15\x08") + raw[-8:])
    leaf = pq.ParquetFile(path).schema.column(3)
    assert leaf.physical_type == ("FIXED_LEN_BYTE_ARRAY" if physical == "FLBA" else physical)
    assert leaf.logical_type.to_json() == (
        '{"Type":"Decimal","precision":20,"scale":0}' if physical == "FLBA"
        else '{"Type":"Decimal","precision":4,"scale":0}')
    return bad


@pytest.mark.parametrize("physical", ["INT32", "INT64", "FLBA"])
def test_decimal_beyond_its_precision_in_a_file_is_an_error(tmp_path, physical):
    path = str(tmp_path / f"{physical}.parquet")
    bad = _hostile_file(path, physical)
    where = rf"{physical}\.parquet: column .v., .*row 1, \$\.a: decimal value {bad} "
    with pytest.raises(vs.VariantError, match=where):
        vs.parquet.read_table(path)
    with pytest.raises(vs.VariantError, match=where):
        list(vs.parquet.iter_batches(path, batch_size=2))
    for type_name in (None, "decimal(38,0)", "bigint", "string"):
        with pytest.raises(vs.VariantError, match=where):
            vs.parquet.read_paths(path, "v", {"$.a": type_name})
    # the raw columns, as pyarrow reads them, in the Arrow functions
    stored = pq.read_table(path)["v"].combine_chunks()
    message = rf"row 1, \$\.a: decimal value {bad} has more than"
    with pytest.raises(vs.VariantError, match=message):
        vs.unshred(stored)
    for type_name in (None, "decimal(4,0)", "bigint", "double", "string"):
        for errors in ("raise", "null"):  # bad data is not a failed cast
            with pytest.raises(vs.VariantError, match=message):
                vs.variant_get(stored, "$.a", type_name, errors=errors)
    # in range, the same file reads as usual
    assert vs.to_python(vs.unshred(stored.slice(0, 1))) == [{"a": 12}]


@pytest.mark.parametrize("type_,bad", [(pa.decimal32(4, 0), 123456),
                                       (pa.decimal64(4, 0), 5_000_000_000),
                                       (pa.decimal128(4, 0), 5_000_000_000),
                                       (pa.decimal128(38, 2), 10**38)])
def test_decimal_beyond_its_precision_in_an_arrow_array_is_an_error(type_, bad):
    shredded = _shredded(_decimals([12, None, bad], type_))
    message = rf"row 2, \$\.a: decimal value .* has more than {type_.precision} digits"
    with pytest.raises(vs.VariantError, match=message):
        vs.unshred(shredded)
    for type_name in (None, f"decimal({type_.precision},{type_.scale})", "bigint",
                      "string"):
        with pytest.raises(vs.VariantError, match=message):
            vs.variant_get(shredded, "$.a", type_name)
    with pytest.raises(vs.VariantError, match=message):
        vs.variant_get(shredded, "$", "string")  # through the rebuilt object
