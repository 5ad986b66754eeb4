# Licensed under the Apache License, Version 2.0.
"""Parquet files written by varshred, read by a real local Spark, and the reverse; the
varshred data source and the demo pipeline end to end."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pytest

import varshred as vs
from varshred.cli import sample_events

pytestmark = pytest.mark.spark

DOCS = [
    '{"id": 1, "name": "a", "score": 8.5, "tags": ["x", "y"], "nested": {"x": 3, "flag": true}}',
    '{"id": "two", "tags": [], "nested": {"x": 1.5, "extra": [1, {"k": null}]}}',
    None,
    "[1, 2, 3]",
    '{"id": 4, "tags": ["p", null, 7], "when": "2024-01-02"}',
    "null",
    '{"nested": "flat", "tags": "not an array"}',
    "{}",
    '{"id": 9223372036854775807, "score": 123456.78}',
    '"just a string"',
]
SCHEMA = ("struct<id: bigint, name: string, score: decimal(9,2), tags: array<string>, "
          "nested: struct<x: int, flag: boolean>>")


def _table(n_copies=30):
    docs = DOCS * n_copies
    return pa.table({"k": pa.array(range(len(docs)), pa.int64()),
                     "v": vs.from_json(docs)}), docs


def _logical(text):
    return None if text is None else json.loads(text)


@pytest.mark.parametrize("with_list", [False, True])
def test_spark_reads_varshred_files_natively(spark, tmp_path, with_list):
    table, docs = _table()
    if with_list:  # a nested neighbour column, written into the same row groups
        table = table.append_column("l", pa.array([[i, i] for i in range(table.num_rows)]))
    path = str(tmp_path / "v.parquet")
    vs.parquet.write_table(table, path, shredding={"v": SCHEMA}, row_group_size=64)
    df = spark.read.parquet(path)  # no schema hint: the VARIANT(1) annotation suffices
    assert df.schema["v"].dataType.typeName() == "variant"
    rows = df.selectExpr("k", "to_json(v) as j",
                         "try_variant_get(v, '$.id', 'bigint') as id",
                         "try_variant_get(v, '$.nested.x', 'int') as x",
                         "try_variant_get(v, '$.tags[0]', 'string') as t0").orderBy("k").collect()
    expected = vs.to_json(table["v"]).to_pylist()
    assert [_logical(r.j) for r in rows] == [_logical(e) for e in expected]
    # variant_get on the shredded file equals variant_get on the unshredded data.
    for name, path_expr, t in [("id", "$.id", "bigint"), ("x", "$.nested.x", "int"),
                               ("t0", "$.tags[0]", "string")]:
        ours = vs.variant_get(table["v"], path_expr, t).to_pylist()
        assert [getattr(r, name) for r in rows] == ours, name
    # and varshred reads its own file back equal.
    back = vs.parquet.read_table(path)
    assert vs.to_json(back["v"]).to_pylist() == vs.to_json(table["v"]).to_pylist()


@pytest.mark.parametrize("mode", ["infer", "forced"])
def test_varshred_reads_spark_shredded_files(spark, tmp_path, mode):
    # Spark's inference drops shredding for a whole file when a top-level row is not an
    # object (docs/interop.md#files-spark-writes), so the inferred case uses objects only.
    docs = sample_events(600)
    if mode == "forced":
        docs = [d for d in DOCS if d is not None] * 20 + docs
    df = spark.createDataFrame([(i, d) for i, d in enumerate(docs)], "k long, j string")
    out = str(tmp_path / mode)
    conf = {"spark.sql.variant.writeShredding.enabled": "true"}
    if mode == "forced":
        conf.update({"spark.sql.variant.inferShreddingSchema": "false",
                     "spark.sql.variant.forceShreddingSchemaForTest":
                         "id bigint, kind string, tags array<string>"})
    for key, value in conf.items():
        spark.conf.set(key, value)
    try:
        (df.selectExpr("k", "parse_json(j) as v").repartition(2).write.mode("overwrite")
         .parquet(out))
        expected = {r.k: r.j for r in spark.read.parquet(out)
                    .selectExpr("k", "to_json(v) as j").collect()}
    finally:
        for key in conf:
            spark.conf.unset(key)
    files = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".parquet")]
    layouts = set()
    got = {}
    for f in files:
        layouts |= {c.layout for c in vs.parquet.inspect(f) if c.is_variant}
        t = vs.parquet.read_table(f)
        for k, j in zip(t["k"].to_pylist(), vs.to_json(t["v"]).to_pylist()):
            got[k] = j
    assert "shredded" in layouts
    assert got == expected


def test_data_source_writes_and_reads_paths(spark, tmp_path):
    vs.spark.register(spark)
    docs = sample_events(2000)
    lines = spark.createDataFrame([(d,) for d in docs], "json string").repartition(3)
    events = vs.spark.parse_json(lines, "json", output="event").select("event")
    out = str(tmp_path / "ds")
    (events.write.format("varshred").option("shredding", "struct<id: bigint, kind: string>")
     .mode("overwrite").save(out))
    assert not [f for f in os.listdir(out) if f.startswith("_varshred_staging")]
    back = spark.read.parquet(out)
    assert back.schema["event"].dataType.typeName() == "variant"
    got = sorted(_logical(r.j)["id"] if isinstance(_logical(r.j)["id"], int) else -1
                 for r in back.selectExpr("to_json(event) as j").collect())
    want = sorted(json.loads(d)["id"] if isinstance(json.loads(d)["id"], int) else -1
                  for d in docs)
    assert got == want
    projected = (spark.read.format("varshred").option("paths", "id:bigint,kind:string")
                 .option("path", out).load().collect())
    assert len(projected) == len(docs)
    assert {r.kind for r in projected} == {"click", "view", "purchase", "signup"}
    ids = sorted(r.id for r in projected if r.id is not None)
    assert ids == sorted(json.loads(d)["id"] for d in docs
                         if isinstance(json.loads(d)["id"], int))
    again = (spark.read.format("varshred").option("variant_paths", "kind:string")
             .load(out).collect())
    assert len(again) == len(docs)


def test_failed_task_leaves_no_files(spark, tmp_path):
    vs.spark.register(spark)
    good = ['{"id": 1}'] * 50
    lines = spark.createDataFrame([(d,) for d in good] + [("{not json",)], "json string")
    out = str(tmp_path / "fail")
    with pytest.raises(Exception):  # noqa: B017 (a Py4J or Spark error, whichever surfaces)
        (lines.write.format("varshred").option("json_columns", "json")
         .option("shredding", "struct<id: bigint>").mode("overwrite").save(out))
    leftover = [os.path.join(r, f) for r, _, fs in os.walk(out) for f in fs] \
        if os.path.exists(out) else []
    assert leftover == []


def test_a_write_of_no_rows_leaves_a_readable_empty_table(spark, tmp_path):
    # Found by probing from outside: no task wrote a file, so the output held only
    # _SUCCESS, which Spark cannot read ("unable to infer schema"); an overwrite with
    # no rows left nothing readable of the table it replaced.
    empty = spark.sql("SELECT id, parse_json('1') AS v, CAST(id AS STRING) AS j "
                      "FROM range(0)")
    out = str(tmp_path / "empty")
    summary = vs.spark.write(empty, out, json_columns=["j"])
    assert summary.rows == 0 and len(summary.files) == 1
    back = spark.read.parquet(out)
    assert [(f.name, f.dataType.typeName()) for f in back.schema] == [
        ("id", "long"), ("v", "variant"), ("j", "variant")]
    assert back.count() == 0
    vs.spark.write(spark.sql("SELECT 7 AS id, parse_json('2') AS v, '3' AS j"), out,
                   mode="overwrite")
    vs.spark.write(empty, out, json_columns=["j"], mode="overwrite")
    assert spark.read.parquet(out).count() == 0
    # Appending no rows to a table adds no file.
    vs.spark.write(spark.sql("SELECT 7 AS id, parse_json('2') AS v, '3' AS j"), out,
                   json_columns=["j"], mode="overwrite")
    assert vs.spark.write(empty, out, json_columns=["j"], mode="append").files == []
    assert spark.read.parquet(out).count() == 1
    # A table as stored (read by varshred's own tasks) of no rows, and the data source.
    src = str(tmp_path / "src")
    empty.drop("j").write.parquet(src)
    out2 = str(tmp_path / "from_stored")
    assert vs.spark.write(spark.read.parquet(src), out2).rows == 0
    assert spark.read.parquet(out2).schema["v"].dataType.typeName() == "variant"
    out3 = str(tmp_path / "source")
    empty.write.format("varshred").option("json_columns", "j").mode("overwrite").save(out3)
    assert spark.read.parquet(out3).count() == 0


def test_data_source_infers_a_schema_by_default(spark, tmp_path):
    vs.spark.register(spark)
    docs = sample_events(500)
    lines = spark.createDataFrame([(d,) for d in docs], "json string")
    out = str(tmp_path / "inferred")
    lines.write.format("varshred").option("json_columns", "json").mode("overwrite").save(out)
    files = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".parquet")]
    assert files and all(
        [c.layout for c in vs.parquet.inspect(f) if c.is_variant] == ["shredded"] for f in files)
    back = spark.read.parquet(out).selectExpr("to_json(json) as j").collect()
    assert sorted(_logical(r.j)["kind"] for r in back) == sorted(
        json.loads(d)["kind"] for d in docs)


def test_columns_named_with_dots_are_sampled_and_written(spark, tmp_path):
    # Spark reads an unquoted name with a dot as a struct and its field: the sample
    # pass of vs.spark.write, sample_stats and schema_of_variant_agg failed on such a
    # column (UNRESOLVED_COLUMN) until 2026-11-27.
    docs = sample_events(300)
    df = spark.createDataFrame([(k, d) for k, d in enumerate(docs)],
                               "k long, `event.json` string").selectExpr(
        "k", "`event.json`", "parse_json(`event.json`) AS `event.v`")
    stats = vs.spark.sample_stats(df, json_columns=["event.json"])
    assert sorted(stats) == ["event.json", "event.v"]
    assert stats["event.v"].type_counts() == stats["event.json"].type_counts()
    assert vs.spark.schema_of_variant_agg(df, "event.v").startswith("OBJECT<")
    out = str(tmp_path / "dots")
    summary = vs.spark.write(df, out, json_columns=["event.json"])
    assert summary.rows == 300 and sorted(summary.schemas) == ["event.json", "event.v"]
    back = spark.read.parquet(out)
    assert back.columns == ["k", "event.json", "event.v"]
    rows = sorted(back.selectExpr("k", "to_json(`event.v`) AS v").collect())
    assert [_logical(r.v) for r in rows] == [_logical(d) for d in docs]
    # The Arrow functions too: PySpark's mapInArrow resolves every column of its
    # DataFrame by bare name, so theirs cross under plain names.
    parsed = vs.spark.parse_json(df, "event.json", output="event.p")
    assert parsed.columns == ["k", "event.json", "event.v", "event.p"]
    printed = vs.spark.to_json(parsed, "event.p", output="k.text")
    rows = sorted(printed.select("k", "`k.text`").collect())
    assert [_logical(r[1]) for r in rows] == [_logical(d) for d in docs]
    replaced = vs.spark.to_json(df, "event.v")  # in place, between the others
    assert replaced.columns == ["k", "event.json", "event.v"]
    assert dict(replaced.dtypes)["event.v"] == "string"
    exploded = vs.spark.variant_explode(df.filter("k < 5"), "event.v")
    assert exploded.columns == ["k", "event.json", "pos", "key", "value"]
    assert exploded.count() == sum(len(json.loads(d)) for d in docs[:5])


def test_data_source_reads_paths_of_legacy_files(spark, tmp_path):
    import pyarrow.parquet as pq

    vs.spark.register(spark)
    md = b"\x01\x00\x00"
    a_group = pa.StructArray.from_arrays(
        [pa.array([None, md + b"\x0d1.2", None], pa.binary()),
         pa.array([123, None, 7], pa.int64())], ["untyped_value", "typed_value"])
    col = pa.StructArray.from_arrays(
        [pa.array([None, None, None], pa.binary()),
         pa.StructArray.from_arrays([a_group], ["a"])], ["untyped_value", "object"])
    (tmp_path / "legacy").mkdir()
    pq.write_table(pa.table({"v": col}), str(tmp_path / "legacy" / "part-0.parquet"))
    rows = (spark.read.format("varshred").option("variant_paths", "a:bigint,$.a:string")
            .load(str(tmp_path / "legacy")).collect())
    assert sorted((r[0] is None, r[0], r[1]) for r in rows) == [
        (False, 7, "7"), (False, 123, "123"), (True, None, "1.2")]
    with pytest.raises(Exception, match="more than once"):
        (spark.read.format("varshred").option("variant_paths", "a:bigint,a:string")
         .load(str(tmp_path / "legacy")).collect())


def test_path_reader_reads_every_visible_file(spark, tmp_path):
    """Other writers' part files need not end in .parquet: spark.read.parquet reads
    them, and so does format("varshred") (it read only the .parquet ones, silently)."""
    vs.spark.register(spark)
    for name, a in [("part-00000.parquet", 1), ("part-00001", 2), ("part-00002.PARQUET", 3)]:
        vs.parquet.write_table(pa.table({"v": vs.from_python([{"a": a}])}),
                               str(tmp_path / name))
    (tmp_path / "_SUCCESS").write_text("")
    assert spark.read.parquet(str(tmp_path)).count() == 3
    rows = (spark.read.format("varshred").option("variant_paths", "a:bigint")
            .load(str(tmp_path)).collect())
    assert sorted(r.a for r in rows) == [1, 2, 3]


def test_path_reader_names_a_missing_path_and_reads_keys_with_backticks(spark, tmp_path):
    # Found by probing from outside: a mistyped path read as an empty table, and a key
    # holding a backtick made a DDL Spark could not parse.
    vs.spark.register(spark)
    with pytest.raises(Exception, match="not/here: no such file or directory"):
        (spark.read.format("varshred").option("variant_paths", "a:bigint")
         .load(str(tmp_path / "not" / "here")).collect())
    vs.parquet.write_table(pa.table({"v": vs.from_python([{"a`b": 1, "c": 2}])}),
                           str(tmp_path / "t.parquet"))
    rows = (spark.read.format("varshred").option("variant_paths", "$['a`b']:bigint,c:int")
            .load(str(tmp_path / "t.parquet")).collect())
    assert [tuple(r) for r in rows] == [(1, 2)]


def test_codecs_spark_cannot_read_are_refused_before_writing(spark, tmp_path):
    # Found by probing from outside: compression="brotli" wrote files Spark 4.3 then
    # failed to read ("BrotliCodec was not found").
    df = spark.sql("SELECT parse_json('1') AS v")
    for codec in ("brotli", "lzo"):
        with pytest.raises(vs.VariantError, match=f"compression '{codec}' for Spark"):
            vs.spark.write(df, str(tmp_path / "out"), compression=codec)
    assert not os.path.exists(tmp_path / "out")


def test_variants_nested_in_other_types_are_written_with_a_warning(spark, tmp_path):
    # Found by probing from outside: an array, struct or map of Variant values is
    # written as plain (value, metadata) pairs (docs/interop.md#files-spark-reads), and
    # nothing told the user that readers then see binaries. vs.spark.write now warns.
    for expr in ("array(parse_json('1'))", "named_struct('x', parse_json('1'))",
                 "map('k', parse_json('1'))"):
        df = spark.sql(f"SELECT parse_json('2') AS v, {expr} AS n")
        with pytest.warns(UserWarning, match="column 'n' holds Variant values inside"):
            vs.spark.write(df, str(tmp_path / "out"), mode="overwrite")
        assert spark.read.parquet(str(tmp_path / "out")).count() == 1


def test_shredded_dates_in_sparks_legacy_calendar_are_refused_not_shifted(spark, tmp_path):
    """Spark's LEGACY rebase mode stores typed dates before 1582 (and instants before
    1900) in its hybrid Julian calendar and shifts them back when it reads; read as
    stored they came out days off. varshred refuses such files unless their statistics
    put every value past those bounds."""
    def write(out, dates):
        spark.conf.set("spark.sql.parquet.datetimeRebaseModeInWrite", "LEGACY")
        try:
            rows = ", ".join(f"({i}, date'{d}')" for i, d in enumerate(dates))
            spark.sql("select id, to_variant_object(named_struct('d', d, "
                      "'t', cast(d as timestamp))) v "
                      f"from values {rows} as x(id, d)").coalesce(1).write.parquet(out)
        finally:
            spark.conf.unset("spark.sql.parquet.datetimeRebaseModeInWrite")
        return {r.id: r.j for r in spark.read.parquet(out)
                .selectExpr("id", "to_json(v) j").collect()}

    old = str(tmp_path / "old")
    write(old, ["1000-01-01", "2024-01-01"])
    with pytest.raises(vs.VariantError, match="hybrid Julian calendar"):
        vs.parquet.read_table(old)
    with pytest.raises(vs.VariantError, match="hybrid Julian calendar"):
        vs.parquet.read_paths(old, "v", {"$.d": "date"})
    recent = str(tmp_path / "recent")
    expected = write(recent, ["1950-06-01", "2024-01-01"])
    t = vs.parquet.read_table(recent)
    assert dict(zip(t["id"].to_pylist(), vs.to_json(t["v"]).to_pylist())) == expected
