# Licensed under the Apache License, Version 2.0.
"""What varshred hands to Spark and what Spark 4.3 reads back: decimals of every width
in files (both write paths) and at the Arrow boundary (mapInArrow, the data source)."""

from __future__ import annotations

import json
from decimal import Decimal

import pyarrow as pa
import pytest

import varshred as vs
from test_decimals import DECIMALS, SCHEMA, _rows, _table

pytestmark = pytest.mark.spark


# ----------------------------------------------------------------------------
# Decimals


@pytest.mark.parametrize("write_path", ["direct", "arrow"])
def test_spark_reads_every_decimal_width_beside_a_list_column(spark, tmp_path, write_path):
    path = str(tmp_path / "d.parquet")
    vs.parquet.write_table(_table(with_list=True), path, shredding={"v": SCHEMA},
                           write_path=write_path)
    exprs = [f"try_variant_get(v, '$.{k}', '{t}') as {k}" for k, (t, _) in DECIMALS.items()]
    rows = spark.read.parquet(path).selectExpr(*exprs, "l").collect()
    for i, row in enumerate(rows[:len(_rows()) - 2]):
        assert [row[k] for k in DECIMALS] == [Decimal(v[i]) for _, v in DECIMALS.values()]
        assert row["l"] == [i, i + 1]


def test_data_source_writes_every_decimal_width_beside_a_list_column(spark, tmp_path):
    docs = ["{" + ", ".join(f'"{k}": {v[i]}' for k, (_, v) in DECIMALS.items()) + "}"
            for i in range(len(_rows()) - 2)]
    df = spark.createDataFrame([(d, [i, i + 1]) for i, d in enumerate(docs)],
                               "j string, l array<int>")
    out = str(tmp_path / "out")
    vs.spark.write(df, out, shredding=SCHEMA, json_columns=["j"])
    exprs = [f"variant_get(j, '$.{k}', '{t}') as {k}" for k, (t, _) in DECIMALS.items()]
    rows = spark.read.parquet(out).selectExpr(*exprs, "l").orderBy("l").collect()
    for i, row in enumerate(rows):
        assert [row[k] for k in DECIMALS] == [Decimal(v[i]) for _, v in DECIMALS.values()]


def test_spark_shred_hands_spark_decimal128(spark):
    docs = ['{"p": 123.45, "q": -12345678901234.5678}', '{"p": -0.01, "q": 99999999999999.9999}',
            '{"p": "text", "q": 1}']
    df = vs.spark.parse_json(spark.createDataFrame([(d,) for d in docs], "j string"), "j",
                             output="v")
    shredded = vs.spark.shred(df, "v", "struct<p: decimal(5,2), q: decimal(18,4)>", output="s")
    rows = shredded.selectExpr("s.typed_value.p.typed_value as p",
                               "s.typed_value.q.typed_value as q").collect()
    assert [(r.p, r.q) for r in rows] == [
        (Decimal("123.45"), Decimal("-12345678901234.5678")),
        (Decimal("-0.01"), Decimal("99999999999999.9999")), (None, Decimal("1.0000"))]
    back = vs.spark.unshred(shredded, "s", output="u").selectExpr("to_json(u)").collect()
    assert [json.loads(r[0]) for r in back] == [json.loads(d) for d in docs]


def test_for_spark_makes_every_decimal_decimal128():
    # Spark's Arrow reader takes decimal128 only; field metadata (variant=true) stays.
    tagged = pa.field("metadata", pa.binary(), False, metadata={"variant": "true"})
    typed = pa.struct([("a", pa.decimal32(5, 2)),
                       ("b", pa.list_(pa.struct([("c", pa.decimal64(18, 4))])))])
    batch = pa.RecordBatch.from_arrays(
        [pa.array([{"a": Decimal("1.25"), "b": [{"c": Decimal("-2.5")}]}], typed),
         pa.array([b"\x01\x00\x00"], pa.binary())],
        schema=pa.schema([pa.field("t", typed), tagged]))
    out = vs.spark.for_spark(batch)
    assert out.schema.field("t").type == pa.struct(
        [("a", pa.decimal128(5, 2)),
         ("b", pa.list_(pa.struct([("c", pa.decimal128(18, 4))])))])
    assert out.schema.field("metadata").metadata == {b"variant": b"true"}
    assert out.column(0).to_pylist() == batch.column(0).to_pylist()
    plain = pa.RecordBatch.from_arrays([pa.array([1])], names=["x"])
    assert vs.spark.for_spark(plain) is plain
