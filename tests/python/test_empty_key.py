# Licensed under the Apache License, Version 2.0.
"""The empty key "" (valid JSON, valid Variant) and other names that need quoting, end
to end: schemas, inference, shredding, Parquet files read back by varshred, DuckDB and
Spark, variant_get."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs

DOCS = [json.dumps({"": i, "a": {"": "x", "b c": i, "x.y": [i], "q`q": True}})
        for i in range(20)] + ['{"a": {"": 5}}', '{"": "text"}', "null", "[1]"]


def _typed_names(path, column="v"):
    """Field names under the typed_value groups of ``column`` in the Parquet schema."""
    out = []

    def walk(field, depth):
        if pa.types.is_struct(field.type):
            for child in field.type:
                if field.name == "typed_value":
                    out.append((depth, child.name))
                walk(child, depth + 1)

    walk(pq.read_schema(path).field(column), 0)
    return out


@pytest.mark.parametrize("ddl", [
    "struct<``: bigint>",
    "struct<``: bigint, a: struct<``: string, `b c`: bigint, `q``q`: boolean, "
    "`x.y`: array<bigint>>>",
    "struct<``: struct<``: struct<``: string>>>",
])
def test_ddl_quotes_the_empty_name_and_round_trips(ddl):
    schema = vs.ShreddingSchema.parse(ddl)
    assert schema.to_ddl() == ddl
    assert vs.ShreddingSchema.parse(schema.to_ddl()) == schema
    assert vs.ShreddingSchema.from_arrow(schema.typed_value_type()) == schema
    assert vs.ShreddingSchema.parse("``: bigint") == vs.ShreddingSchema.parse(
        "struct<``: bigint>")


def test_paths_quote_the_empty_name():
    schema = vs.ShreddingSchema.from_paths([("``", "bigint"), ("a.``", "string")])
    assert schema.to_ddl() == "struct<``: bigint, a: struct<``: string>>"
    with pytest.raises(vs.VariantError, match="empty field name"):
        vs.ShreddingSchema.from_paths([("a..b", "bigint")])
    with pytest.raises(vs.VariantError, match="duplicate field ''"):
        vs.ShreddingSchema.parse("struct<``: bigint, ``: string>")


def test_inference_types_the_empty_key():
    schema = vs.infer_schema(vs.from_json(DOCS))
    assert schema.to_ddl() == ("struct<``: bigint, a: struct<``: string, `b c`: bigint, "
                               "`q``q`: boolean, `x.y`: array<bigint>>>")


def test_shred_and_unshred_keep_the_empty_key():
    v = vs.from_json(DOCS)
    schema = vs.infer_schema(v)
    shredded = vs.shred(v, schema)
    assert shredded.field("typed_value").type.get_field_index("") == 0
    assert vs.to_python(vs.unshred(shredded)) == vs.to_python(v)


def test_write_json_with_empty_keys_reads_back(tmp_path):
    path = str(tmp_path / "empty.parquet")
    assert vs.parquet.write_json(DOCS, path) == len(DOCS)  # shredding="infer"
    assert (1, "") in _typed_names(path) and (3, "") in _typed_names(path)
    back = vs.parquet.read_table(path)["v"]
    assert vs.to_python(back) == [json.loads(d) for d in DOCS]
    for shredded in (False, True):
        v = vs.parquet.read_table(path, shredded=shredded)["v"]
        assert vs.variant_get(v, "$['']", pa.int64()).to_pylist() == \
            list(range(20)) + [None] * 4
        assert vs.variant_get(v, '$.a[""]', pa.string()).to_pylist() == \
            ["x"] * 20 + ["5", None, None, None]
        assert vs.variant_get(v, "$.a['x.y'][0]", pa.int64()).to_pylist() == \
            list(range(20)) + [None] * 4


def test_duckdb_reads_empty_keys(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    path = str(tmp_path / "empty.parquet")
    vs.parquet.write_json(DOCS, path)
    con = duckdb.connect()
    rows = con.sql(f"select v::JSON from '{path}'").fetchall()
    assert [None if r[0] is None else json.loads(r[0]) for r in rows] == \
        [json.loads(d) for d in DOCS]
    assert con.sql(f"select v.a[''] :: VARCHAR from '{path}' limit 1").fetchall() == [("x",)]


@pytest.mark.spark
def test_spark_reads_empty_keys(spark, tmp_path):
    path = str(tmp_path / "empty.parquet")
    vs.parquet.write_json(DOCS, path)
    df = spark.read.parquet(path)
    rows = df.selectExpr("to_json(v) as j",
                         "try_variant_get(v, '$.a[\"\"]', 'string') as e",
                         "try_variant_get(v, '$[\"\"]', 'bigint') as top").collect()
    assert [json.loads(r.j) if r.j is not None else None for r in rows] == \
        [json.loads(d) for d in DOCS]
    assert [r.e for r in rows] == ["x"] * 20 + ["5", None, None, None]
    assert [r.top for r in rows[:20]] == list(range(20))


@pytest.mark.spark
def test_varshred_reads_spark_shredded_empty_keys(spark, tmp_path):
    docs = [json.dumps({"": i, "a": {"": f"s{i}"}}) for i in range(50)]
    df = spark.createDataFrame([(i, d) for i, d in enumerate(docs)], "k long, j string")
    out = str(tmp_path / "spark")
    conf = {"spark.sql.variant.writeShredding.enabled": "true",
            "spark.sql.variant.inferShreddingSchema": "false",
            "spark.sql.variant.forceShreddingSchemaForTest":
                "`` bigint, a struct<``: string>"}
    for key, value in conf.items():
        spark.conf.set(key, value)
    try:
        df.selectExpr("k", "parse_json(j) as v").coalesce(1).write.parquet(out)
    finally:
        for key in conf:
            spark.conf.unset(key)
    (f,) = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".parquet")]
    assert (1, "") in _typed_names(f) and (3, "") in _typed_names(f)  # Spark typed them
    t = vs.parquet.read_table(f)
    assert vs.to_python(t["v"]) == [json.loads(docs[k]) for k in t["k"].to_pylist()]
    assert vs.variant_get(t["v"], "$.a['']", pa.string()).to_pylist() == \
        [f"s{k}" for k in t["k"].to_pylist()]


@pytest.mark.parametrize("docs", [['{"": 1}', '{"": 2}'], ['{"a": {"": "s"}, "b": 1}'],
                                  ['{"A": 1, "a": 2}', '{"A": 3, "a": 4}'],
                                  ['{"a\\u0000b": 1, "c": 2}']])
def test_inferred_files_name_only_fields_every_reader_takes(tmp_path, docs):
    # DuckDB 2.0 refuses a group whose one field is "" and reads "A" beside "a" as
    # "a_1"; pyarrow cuts a name at NUL: inference leaves those keys in the residual.
    duckdb = pytest.importorskip("duckdb")
    path = str(tmp_path / "x.parquet")
    vs.parquet.write_json(docs, path)  # shredding="infer"
    rows = duckdb.connect().sql(f"select v::JSON from '{path}'").fetchall()
    assert [json.loads(r[0]) for r in rows] == [json.loads(d) for d in docs]
    assert vs.to_python(pq.read_table(path)["v"]) == [json.loads(d) for d in docs]
