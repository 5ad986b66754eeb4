# Licensed under the Apache License, Version 2.0.
"""Decimal typed values: every width written exactly by both write paths and read back
by varshred, pyarrow and DuckDB."""

from __future__ import annotations

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


@pytest.mark.parametrize("write_path", ["direct", "arrow"])
def test_every_decimal_width_is_stored_exactly_beside_a_list_column(tmp_path, write_path):
    table = _table(with_list=True)
    path = str(tmp_path / "d.parquet")
    vs.parquet.write_table(table, path, shredding={"v": SCHEMA}, write_path=write_path)
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


def test_both_write_paths_store_the_same_decimals(tmp_path):
    table = _table(with_list=False)
    files = {}
    for write_path in ("direct", "arrow"):
        files[write_path] = str(tmp_path / f"{write_path}.parquet")
        vs.parquet.write_table(table, files[write_path], shredding={"v": SCHEMA},
                               write_path=write_path)
    direct, arrow = (pq.read_table(f)["v"].combine_chunks() for f in files.values())
    assert direct.equals(arrow)
    assert (pq.ParquetFile(files["direct"]).schema.to_arrow_schema()
            == pq.ParquetFile(files["arrow"]).schema.to_arrow_schema())
