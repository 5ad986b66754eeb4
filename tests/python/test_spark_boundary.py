# Licensed under the Apache License, Version 2.0.
"""What varshred hands to Spark and what Spark 4.3 reads back: decimals of every width
in files (both write paths) and at the Arrow boundary (mapInArrow, the data source);
TIME, nanosecond timestamps and UUID, which Spark cannot read typed (and TIME and
nanoseconds not even residual), kept out of Spark-bound shredding schemas and counted
in the job summary."""

from __future__ import annotations

import json
import uuid
from decimal import Decimal

import pyarrow as pa
import pytest

import varshred as vs
from test_decimals import DECIMALS, SCHEMA, _rows, _table
from varshred.pipeline import JobError, ShredJob

pytestmark = pytest.mark.spark


def _error(fn) -> str:
    with pytest.raises(Exception) as info:
        fn()
    return str(info.value)


# ----------------------------------------------------------------------------
# Decimals


def test_spark_reads_every_decimal_width_beside_a_list_column(spark, tmp_path):
    path = str(tmp_path / "d.parquet")
    vs.parquet.write_table(_table(with_list=True), path, shredding={"v": SCHEMA})
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


# ----------------------------------------------------------------------------
# TIME, nanosecond timestamps, UUID

NS = 1_700_000_000_123_456_789
VALUES = {  # field -> (DDL type, Arrow typed_value array of one value)
    "t": ("time", pa.array([3_723_000_004], pa.time64("us"))),
    "ns": ("timestamp_ns", pa.array([NS], pa.timestamp("ns", tz="UTC"))),
    "ntz": ("timestamp_ntz_ns", pa.array([NS], pa.timestamp("ns"))),
    "u": ("uuid", pa.array([uuid.UUID(int=5).bytes], pa.binary(16))),
}


def _variant(typed: pa.Array) -> pa.Array:
    """One Variant value of the type of `typed` (from_json/from_python cannot build
    nanosecond timestamps): the top-level typed_value rebuilt."""
    n = len(typed)
    return vs.unshred(pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00"] * n, pa.binary()), pa.nulls(n, pa.binary()), typed],
        ["metadata", "value", "typed_value"]))


@pytest.mark.parametrize("field", list(VALUES))
def test_what_spark_reads_of_time_nanos_and_uuid(spark, tmp_path, field):
    ddl, typed = VALUES[field]
    v = pa.table({"v": _variant(typed)})
    typed_file, residual_file = str(tmp_path / "typed.parquet"), str(tmp_path / "res.parquet")
    vs.parquet.write_table(v, typed_file, shredding={"v": ddl})
    vs.parquet.write_table(v, residual_file, shredding={"v": "bigint"})
    # typed: Spark refuses the file
    message = _error(lambda: spark.read.parquet(typed_file).selectExpr("to_json(v)").collect())
    assert ("INVALID_VARIANT_SHREDDING_SCHEMA" if field == "t" else "PARQUET_TYPE_ILLEGAL") \
        in message
    # residual: TIME and nanoseconds still fail once decoded; a UUID reads
    read = lambda: spark.read.parquet(residual_file).selectExpr("to_json(v)").collect()  # noqa
    if field == "u":
        assert json.loads(read()[0][0]) == str(uuid.UUID(int=5))
    else:
        assert "UNKNOWN_PRIMITIVE_TYPE_IN_VARIANT" in _error(read)
        assert spark.read.parquet(residual_file).count() == 1  # not decoded: no error


def _mixed_input(tmp_path) -> str:
    """An unshredded varshred file: objects with a TIME, two nanosecond timestamps, a
    UUID and an int per row, which Spark passes through as VariantType."""
    fields = {name: vs.to_python(_variant(typed))[0] for name, (_, typed) in VALUES.items()
              if name in ("t", "u")}
    rows = [dict(fields, n=i) for i in range(20)]
    plain = vs.from_python(rows)
    # nanosecond values: rebuilt from a shredded object (Python has no nanoseconds)
    md = b"\x01\x02\x00\x02\x05nsntz"
    n = len(rows)
    obj = pa.StructArray.from_arrays(
        [pa.StructArray.from_arrays([pa.nulls(n, pa.binary()),
                                     pa.concat_arrays([VALUES[k][1]] * n)],
                                    ["value", "typed_value"]) for k in ("ns", "ntz")],
        ["ns", "ntz"])
    nanos = vs.unshred(pa.StructArray.from_arrays(
        [pa.array([md] * n, pa.binary()), pa.nulls(n, pa.binary()), obj],
        ["metadata", "value", "typed_value"]))
    path = str(tmp_path / "in.parquet")
    vs.parquet.write_table(pa.table({"k": pa.array(range(n)), "v": plain, "w": nanos}),
                           path, shredding={})
    return path


def test_spark_bound_output_never_types_them_and_the_summary_counts_them(spark, tmp_path):
    source = _mixed_input(tmp_path)
    out = str(tmp_path / "out")
    summary = ShredJob(source, out, schema="infer", log=lambda _: None).run(spark)
    for ddl in summary.schemas.values():
        for word in ("time", "timestamp_ns", "timestamp_ntz_ns", "uuid"):
            assert word not in ddl.replace("<", " ").replace(",", " ").split(), ddl
    assert summary.schemas["v"] == "struct<n: bigint, t: variant, u: variant>"
    assert summary.unreadable == {"v": {"t": {"time": 20}},
                                  "w": {"ns": {"timestamp_nanos": 20},
                                        "ntz": {"timestamp_ntz_nanos": 20}}}
    report = summary.report()
    assert "WARNING: column v holds values Spark 4.3 cannot read" in report
    assert "t: 20 time" in report and "ns: 20 timestamp_nanos" in report
    # the files hold every value; Spark reads what it can (the typed ints, the UUIDs)
    back = vs.parquet.read_table(summary.files[0])
    assert sorted(vs.to_python(back["v"]), key=lambda r: r["n"]) == \
        sorted(vs.to_python(vs.parquet.read_table(source)["v"]), key=lambda r: r["n"])
    got = spark.read.parquet(out).selectExpr("variant_get(v, '$.n', 'int') as n",
                                             "variant_get(v, '$.u', 'string') as u").collect()
    assert sorted(r.n for r in got) == list(range(20))
    assert {r.u for r in got} == {str(uuid.UUID(int=5))}


def test_the_summary_counts_them_exactly_when_they_first_appear_in_a_later_batch(
        spark, tmp_path):
    # The writer only gathers statistics from the first batch holding such a type:
    # 30 clean rows, then the 20 mixed ones, in batches of 8 rows.
    mixed = vs.parquet.read_table(_mixed_input(tmp_path))
    clean = vs.from_python([{"n": i} for i in range(30)])
    source = str(tmp_path / "later.parquet")
    vs.parquet.write_table(pa.table({"v": pa.concat_arrays([clean, mixed["v"].combine_chunks()])}),
                           source, shredding={})
    spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "8")
    try:
        summary = vs.spark.write(spark.read.parquet(source).coalesce(1), str(tmp_path / "o"))
    finally:
        spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
    assert summary.unreadable == {"v": {"t": {"time": 20}}}
    assert summary.rows == 50


def test_spark_bound_output_refuses_an_explicit_schema_typing_them(spark, tmp_path):
    source = _mixed_input(tmp_path)
    for ddl, path in [("struct<n: bigint, t: time>", "t"), ("struct<u: uuid>", "u"),
                      ("struct<ns: timestamp_ns>", "ns")]:
        with pytest.raises(JobError, match=f"--schema: shredding schema types {path} as"):
            ShredJob(source, str(tmp_path / "x"), schema=ddl, log=lambda _: None).run(spark)
        df = spark.read.parquet(source)
        with pytest.raises(vs.VariantError, match="Spark 4.3 refuses a whole Parquet file"):
            vs.spark.write(df, str(tmp_path / "y"), shredding={"v": ddl, "w": "none"})
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()
