# Licensed under the Apache License, Version 2.0.
"""vs.from_arrow, to_arrow, schema_of_variant(_agg) and variant_explode against Spark
4.3's own to_variant_object / cast(x as variant), try_cast / cast(v as <type>),
schema_of_variant(_agg) and variant_explode(_outer), on generated inputs covering
every Spark type (a few hundred values each). Spark's results are computed once per
module, in the session's one SparkSession; the vs.spark mapInArrow functions run in
the same queries."""

from __future__ import annotations

import datetime
import decimal
import math
import random

import pyarrow as pa
import pytest
from test_spark_variant_get import _documents
from variant_decode import decode

import varshred as vs

pytestmark = pytest.mark.spark

N = 300


def _typed_table(n=N, seed=20261123) -> pa.Table:
    """A column of every Spark type Arrow carries, nested ones included."""
    rng = random.Random(seed)

    def maybe(v):
        return None if rng.random() < 0.12 else v

    def ts():
        return datetime.datetime(1900, 1, 1) + datetime.timedelta(
            microseconds=rng.randrange(0, 200 * 365 * 86400 * 10**6))

    def dec(p, s):
        return decimal.Decimal(rng.randrange(-10**p + 1, 10**p)).scaleb(-s)

    cols = {
        "i8": (pa.int8(), lambda: rng.randint(-128, 127)),
        "i16": (pa.int16(), lambda: rng.choice([rng.randint(-32768, 32767), 5])),
        "i32": (pa.int32(), lambda: rng.choice([rng.randint(-2**31, 2**31 - 1), 300])),
        "i64": (pa.int64(), lambda: rng.choice([rng.randint(-2**63, 2**63 - 1), 70000])),
        "f32": (pa.float32(), lambda: rng.choice([1.5, -0.25, 3.4e38, float("inf")])),
        "f64": (pa.float64(), lambda: rng.choice([rng.uniform(-1e300, 1e300), 0.1, -0.0])),
        "d5": (pa.decimal128(5, 2), lambda: dec(5, 2)),
        "d18": (pa.decimal128(18, 0), lambda: dec(18, 0)),
        "d38": (pa.decimal128(38, 10), lambda: dec(38, 10)),
        "b": (pa.bool_(), lambda: rng.random() < 0.5),
        "s": (pa.string(), lambda: rng.choice(["", "abc", "é😀", "x" * 80])),
        "bin": (pa.binary(), lambda: bytes(rng.getrandbits(8) for _ in range(rng.randrange(9)))),
        "day": (pa.date32(), lambda: datetime.date(1, 1, 1) + datetime.timedelta(
            days=rng.randrange(3_000_000))),
        "ts": (pa.timestamp("us", "UTC"), lambda: ts().replace(tzinfo=datetime.timezone.utc)),
        "ntz": (pa.timestamp("us"), ts),
        "arr": (pa.list_(pa.int32()), lambda: [maybe(rng.randint(-5, 5))
                                               for _ in range(rng.randrange(4))]),
        "m": (pa.map_(pa.string(), pa.int64()), lambda: [
            (k, maybe(rng.randint(0, 9))) for k in rng.sample(["a", "b", "k 1"], 2)]),
        "st": (pa.struct([("x", pa.float64()), ("y", pa.list_(pa.string()))]),
               lambda: {"x": maybe(rng.random()), "y": maybe(["p", None])}),
    }
    return pa.table({name: pa.array([maybe(gen()) for _ in range(n)], t)
                     for name, (t, gen) in cols.items()})


def _struct_sql(table: pa.Table) -> str:
    # Spark reads a naive Arrow timestamp as TIMESTAMP: make it TIMESTAMP_NTZ again.
    parts = [f"'{c}', " + ("cast(ntz as timestamp_ntz)" if c == "ntz" else c)
             for c in table.column_names]
    return f"named_struct({', '.join(parts)})"


TO_ARROW_TYPES = {
    "struct<a: bigint, b: string, n: struct<x: double, y: decimal(9,3)>, arr: array<string>>":
        pa.struct([("a", pa.int64()), ("b", pa.string()),
                   ("n", pa.struct([("x", pa.float64()), ("y", pa.decimal128(9, 3))])),
                   ("arr", pa.list_(pa.string()))]),
    "struct<arr: array<int>, `k sp`: date, n: map<string, string>>":
        pa.struct([("arr", pa.list_(pa.int32())), ("k sp", pa.date32()),
                   ("n", pa.map_(pa.string(), pa.string()))]),
    "map<string, boolean>": pa.map_(pa.string(), pa.bool_()),
    "array<timestamp>": pa.list_(pa.timestamp("us", "UTC")),
    "bigint": pa.int64(),
    "string": pa.string(),
}


@pytest.fixture(scope="module")
def spark_results(spark):
    """Every Spark result of this module, computed in one go."""
    table = _typed_table()
    df = spark.createDataFrame(table).coalesce(1)
    df.createOrReplaceTempView("typed")
    cols = table.column_names
    exprs = [f"to_variant_object({_struct_sql(table)}) as whole"] + [
        (f"to_variant_object({c}) as {c}" if c in ("arr", "m", "st") else
         f"cast({'cast(ntz as timestamp_ntz)' if c == 'ntz' else c} as variant) as {c}")
        for c in cols]
    variant_rows = spark.sql(f"select {', '.join(exprs)} from typed").collect()

    docs = _documents(n=N)
    spark.createDataFrame([(i, d) for i, d in enumerate(docs)], "i int, j string") \
        .coalesce(1).createOrReplaceTempView("docs")
    spark.sql("select i, parse_json(j) as v from docs").createOrReplaceTempView("dv")
    try_casts = spark.sql(
        "select " + ", ".join(f"try_cast(v as {t}) as c{k}"
                              for k, t in enumerate(TO_ARROW_TYPES)) + " from dv order by i"
    ).toArrow()
    schemas = [r[0] for r in spark.sql("select schema_of_variant(v) from dv order by i")
               .collect()]
    typed_schemas = [r[0] for r in spark.sql(
        f"select schema_of_variant(to_variant_object({_struct_sql(table)})) from typed")
        .collect()]
    aggs = {r[0]: r[1] for r in spark.sql(
        "select i % 7, schema_of_variant_agg(v) from dv group by i % 7").collect()}
    agg_all = spark.sql("select schema_of_variant_agg(v) from dv").collect()[0][0]
    # Columns named as the exploded ones (the README's parse_json keeps `value`).
    spark.sql("select i as key, to_json(v) as value, v from dv").createOrReplaceTempView("clash")
    clash = spark.sql("select c.key, c.value, e.pos, e.key, to_json(e.value) from clash c, "
                      "lateral variant_explode(c.v) e")
    explode = {outer: [tuple(r) for r in spark.sql(
        f"select i, e.pos, e.key, to_json(e.value) from dv, "
        f"lateral variant_explode{'_outer' if outer else ''}(v) e order by i, e.pos")
        .collect()] for outer in (False, True)}

    # The vs.spark mapInArrow functions, in the same session.
    mine = {
        "from_arrow": vs.spark.from_arrow(df.select("i64", "st"), "st", output="v")
        .selectExpr("to_json(v)").collect(),
        "spark_to_json": spark.sql("select to_json(to_variant_object(st)) from typed")
        .collect(),
        "to_arrow": vs.spark.to_arrow(spark.table("dv"), "v",
                                      TO_ARROW_TYPES["map<string, boolean>"])
        .orderBy("i").select("v").toArrow().column(0).to_pylist(),
        "schema_of_variant": [r[0] for r in vs.spark.schema_of_variant(
            spark.table("dv"), "v", output="s").orderBy("i").select("s").collect()],
        "schema_of_variant_agg": vs.spark.schema_of_variant_agg(
            spark.table("dv").repartition(3), "v"),
        "variant_explode": sorted(
            tuple(r) for r in vs.spark.variant_explode(spark.table("dv"), "v", outer=True)
            .selectExpr("i", "pos", "key", "to_json(value)").collect()),
        "variant_explode_clash": vs.spark.variant_explode(spark.table("clash"), "v"),
    }
    clashed = mine["variant_explode_clash"]
    mine["variant_explode_clash"] = (clashed.columns, sorted(
        tuple(r) for r in clashed.toDF("a", "b", "pos", "k", "val")
        .selectExpr("a", "b", "pos", "k", "to_json(val)").collect()))
    return {"table": table, "variant_rows": variant_rows, "docs": docs,
            "try_casts": try_casts, "schemas": schemas, "typed_schemas": typed_schemas,
            "aggs": aggs, "agg_all": agg_all, "explode": explode, "mine": mine,
            "clash": sorted(tuple(r) for r in clash.collect())}


def _nan_safe(v):
    """``v`` with NaN made comparable (NaN != NaN; both sides giving NaN is a match)."""
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, list):
        return [_nan_safe(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_nan_safe(x) for x in v)
    if isinstance(v, dict):
        return {k: _nan_safe(x) for k, x in v.items()}
    return v


def _tagged(variant_val):
    if variant_val is None:
        return None
    return decode(bytes(variant_val.metadata), bytes(variant_val.value))


def _ours_tagged(array) -> list:
    return [None if r is None else decode(r["metadata"], r["value"])
            for r in array.to_pylist()]


def test_from_arrow_matches_to_variant_object(spark_results):
    table, rows = spark_results["table"], spark_results["variant_rows"]
    assert _ours_tagged(vs.from_arrow(table)) == [_tagged(r["whole"]) for r in rows]


@pytest.mark.parametrize("column", [c for c in _typed_table(n=1).column_names])
def test_from_arrow_matches_cast_as_variant_per_type(spark_results, column):
    ours = _ours_tagged(vs.from_arrow(spark_results["table"].column(column)))
    assert ours == [_tagged(r[column]) for r in spark_results["variant_rows"]]


@pytest.mark.parametrize("k", range(len(TO_ARROW_TYPES)))
def test_to_arrow_matches_try_cast(spark_results, k):
    target = list(TO_ARROW_TYPES.values())[k]
    variants = vs.from_json(spark_results["docs"])
    ours = vs.to_arrow(variants, target)
    assert _nan_safe(ours.to_pylist()) == \
        _nan_safe(spark_results["try_casts"].column(k).to_pylist())


def test_to_arrow_raises_exactly_when_cast_does(spark):
    docs = ['{"a": 1, "b": "x"}', '{"a": "nope"}', '[1]', '{"arr": [1, "2", "q"]}',
            '{"n": {"y": "1.23456"}}', 'null', '{"a": 1e30}']
    target_sql = "struct<a: int, b: string, arr: array<int>, n: struct<y: decimal(4,2)>>"
    target = pa.struct([("a", pa.int32()), ("b", pa.string()), ("arr", pa.list_(pa.int32())),
                        ("n", pa.struct([("y", pa.decimal128(4, 2))]))])
    for doc in docs:
        try:
            spark.sql(f"select cast(parse_json('{doc}') as {target_sql})").collect()
            spark_raises = False
        except Exception as e:  # noqa: B902 - pyspark's error classes vary by version
            assert "INVALID_VARIANT_CAST" in str(e)
            spark_raises = True
        try:
            vs.to_arrow(vs.from_json([doc]), target, errors="raise")
            ours_raises = False
        except vs.VariantError as e:
            assert "INVALID_VARIANT_CAST" in str(e) and "row 0, path $" in str(e)
            ours_raises = True
        assert ours_raises == spark_raises, doc


def test_schema_of_variant_matches_spark(spark_results):
    assert vs.schema_of_variant(vs.from_json(spark_results["docs"])).to_pylist() == \
        spark_results["schemas"]
    table = spark_results["table"]
    assert vs.schema_of_variant(vs.from_arrow(table)).to_pylist() == \
        spark_results["typed_schemas"]


def test_schema_of_variant_agg_matches_spark(spark_results):
    variants = vs.from_json(spark_results["docs"])
    assert vs.schema_of_variant_agg(variants) == spark_results["agg_all"]
    groups = {}
    for i in range(len(variants)):
        groups.setdefault(i % 7, []).append(i)
    for g, rows in groups.items():
        assert vs.schema_of_variant_agg(variants.take(rows)) == spark_results["aggs"][g]
    # Merged from partial results, as Spark tasks would.
    parts = [vs.schema_of_variant_agg(variants.take(rows)) for rows in groups.values()]
    assert vs.schema_of_variant_agg(parts) == spark_results["agg_all"]


@pytest.mark.parametrize("outer", [False, True])
def test_variant_explode_matches_spark(spark_results, outer):
    t = vs.variant_explode(vs.from_json(spark_results["docs"]), outer=outer)
    ours = list(zip(t.column("row").to_pylist(), t.column("pos").to_pylist(),
                    t.column("key").to_pylist(), vs.to_json(t.column("value")).to_pylist()))
    assert ours == spark_results["explode"][outer]


def test_spark_map_in_arrow_functions(spark_results):
    mine = spark_results["mine"]
    assert mine["from_arrow"] == mine["spark_to_json"]
    assert mine["to_arrow"] == spark_results["try_casts"].column(2).to_pylist()
    assert mine["schema_of_variant"] == spark_results["schemas"]
    assert mine["schema_of_variant_agg"] == spark_results["agg_all"]
    assert mine["variant_explode"] == sorted(spark_results["explode"][True])
    # Spark's column names, repeats included, though mapInArrow takes no repeats.
    assert mine["variant_explode_clash"] == (["key", "value", "pos", "key", "value"],
                                             spark_results["clash"])


CASE_DOCS = ['[{"a":1},{"A":2}]', '[{"id":1,"name":"x"},{"ID":2,"NAME":"y"}]',
             '[{"a":1},{"A":1.5}]', '[{"a":null},{"A":[1]}]', '[{"\u0130":1},{"i":3}]',
             '[{"k":1},{"\u212a":2}]', '[{"ss":1},{"\u00df":2}]',
             '[{"x":{"a":1},"y":1},{"x":{"A":1},"y":"s"}]', '[{"a":1,"A":2},{"A":3,"a":4}]']
CASE_AGG = [('{"a":1}', '{"A":1}'), ('{"A":1}', '{"a":1}'), ('{"x":{"a":1}}', '{"x":{"A":1}}'),
            ('{"a":1.5}', '{"A":12.5}'), ('{"a":1}', '{"A":"x"}'), ('{"a":1}', '{"A":1e0}')]


@pytest.mark.parametrize("case_sensitive", ["false", "true"])
def test_names_differing_in_case_merge_as_spark(spark, case_sensitive):
    """Spark merges object types whose names differ only in case under its default
    spark.sql.caseSensitive=false (first spelling wins), never under true."""
    spark.conf.set("spark.sql.caseSensitive", case_sensitive)
    try:
        ours = vs.schema_of_variant(vs.from_json(CASE_DOCS),
                                    case_sensitive=case_sensitive == "true")
        spark_types = [spark.sql("select schema_of_variant(parse_json(?))",
                                 args=[d]).first()[0] for d in CASE_DOCS]
        assert ours.to_pylist() == spark_types
        df = vs.spark.parse_json(spark.createDataFrame([(d,) for d in CASE_DOCS], "j string"),
                                 "j", output="v")
        assert [r[0] for r in vs.spark.schema_of_variant(df, "v").select("v").collect()] \
            == spark_types
        for a, b in CASE_AGG:
            spark_agg = spark.sql(
                "select schema_of_variant_agg(v) from (select parse_json(?) v union all "
                "select parse_json(?) v)", args=[a, b]).first()[0]
            assert vs.schema_of_variant_agg(
                vs.from_json([a, b]), case_sensitive=case_sensitive == "true") == spark_agg
            one = vs.spark.parse_json(
                spark.createDataFrame([(a,), (b,)], "j string").coalesce(1), "j")
            assert vs.spark.schema_of_variant_agg(one, "j") == spark_agg
    finally:
        spark.conf.unset("spark.sql.caseSensitive")


def test_is_variant_null_matches_spark(spark):
    docs = ["null", None, "1", '{"a": null}', '{"a": 1}', "[null]", '""']
    rows = spark.sql("select is_variant_null(parse_json(j)), "
                     "is_variant_null(variant_get(parse_json(j), '$.a')) from values " +
                     ", ".join(f"({i}, {'null' if d is None else repr(d)})"
                               for i, d in enumerate(docs)) + " as t(i, j) order by i"
                     ).collect()
    v = vs.from_json(docs)
    assert vs.is_variant_null(v).to_pylist() == [r[0] for r in rows]
    assert vs.is_variant_null(vs.variant_get(v, "$.a")).to_pylist() == [r[1] for r in rows]
