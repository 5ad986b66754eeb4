# Licensed under the Apache License, Version 2.0.
"""Objects whose field ids are not in key-byte order, as real engines write them:
DuckDB 2.0 keeps insertion order (`'{"b":1,"a":2}'::JSON::VARIANT`) and Spark's
parse_json orders keys by UTF-16 code units (differs from byte order past the BMP).
Every reader and kernel must accept them and agree with to_python; everything varshred
writes from them must be in spec order (vs.validate's strict check passes)."""

from __future__ import annotations

import json

import duckdb
import pyarrow as pa
import pytest

import varshred as vs
from varshred import spark as _unused  # noqa: F401  (the mapInArrow functions)
from varshred.spark import MapColumn

# 45 keys in reverse order: past Spark's 32-field binary-search threshold, so a lookup
# that assumed sorted ids would miss most of them.
WIDE_KEYS = [f"k{i:02d}" for i in range(45)][::-1]
WIDE = "{" + ",".join(f'"{k}":{i}' for i, k in enumerate(WIDE_KEYS)) + "}"
DOCS = [
    WIDE,
    '{"b":1,"a":{"z":"zz","y":[{"q":1,"p":2},3]},"c":"x"}',
    '{"zeta":{"k10":1,"k02":2},"alpha":null}',
    '[{"b":2,"a":1}]',
    '7',
]
SCHEMA = "k03 bigint, k40 bigint, a struct<y array<struct<p bigint>>>, b bigint"
PATHS = ["$.k00", "$.k03", "$.k22", "$.k44", "$.b", "$.a.z", "$.a.y[0].p", "$.a.y[0].q",
         "$.a.y[1]", "$.zeta.k02", "$.zeta.k10", "$[0].a", "$.c", "$.missing"]


def duckdb_variants(docs: list[str]) -> pa.Array:
    """DuckDB's own Variant bytes (struct<metadata, value>) for JSON documents."""
    values = ", ".join(f"({i}, '{d}')" for i, d in enumerate(docs))
    table = duckdb.sql(
        f"select variant_to_parquet_variant(j::JSON::VARIANT) as v "
        f"from (values {values}) t(i, j) order by i").arrow()
    if hasattr(table, "read_all"):
        table = table.read_all()
    return table.column("v").combine_chunks()


def strictly_valid(arr) -> None:
    """Spec order everywhere: the strict validator (no unsorted ids) accepts it."""
    vs.validate(arr)


def lookup(obj, path: str):
    """The oracle: the path evaluated on to_python's dicts and lists."""
    cur = obj
    for part in path[1:].replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("["):
            idx = int(part[1:-1])
            if not isinstance(cur, list) or idx >= len(cur):
                return None
            cur = cur[idx]
        else:
            if not isinstance(cur, dict) or part not in cur:
                return None
            cur = cur[part]
    return cur


@pytest.fixture(scope="module")
def foreign():
    v = duckdb_variants(DOCS)
    # The fixture is really what the brief says: unsorted ids, rejected by the strict
    # validator, accepted by the readers.
    with pytest.raises(vs.VariantError, match="not in key-byte order"):
        vs.validate(v)
    vs.validate(v, allow_unsorted_keys=True)
    return v


def test_to_python_and_to_json_agree_with_the_documents(foreign):
    assert vs.to_python(foreign) == [json.loads(d) for d in DOCS]


@pytest.mark.parametrize("errors", ["null", "raise"])
def test_variant_get_finds_every_key(foreign, errors):
    rows = vs.to_python(foreign)
    for path in PATHS:
        got = vs.variant_get(foreign, path, errors=errors)
        assert vs.to_python(got) == [lookup(r, path) for r in rows], path
    for path in ["$.k00", "$.k03", "$.k22", "$.k44", "$.a.y[0].p"]:
        got = vs.variant_get(foreign, path, "bigint", errors=errors).to_pylist()
        assert got == [lookup(r, path) for r in rows], path


def test_variant_get_on_shredded_foreign(foreign):
    shredded = vs.shred(foreign, SCHEMA)
    rows = vs.to_python(foreign)
    for path in PATHS:
        got = vs.variant_get(shredded, path)
        assert vs.to_python(got) == [lookup(r, path) for r in rows], path


def test_shred_writes_spec_order_and_round_trips(foreign):
    shredded = vs.shred(foreign, SCHEMA)
    back = vs.unshred(shredded)
    assert vs.to_python(back) == vs.to_python(foreign)
    strictly_valid(back)
    # Residual values themselves are in spec order.
    md, value = shredded.field("metadata"), shredded.field("value")
    keep = [i for i in range(len(shredded)) if value[i].is_valid]
    strictly_valid(pa.StructArray.from_arrays(
        [md.take(keep), value.take(keep)], names=["metadata", "value"]))
    # Value-only shredding: the whole value is stored, in spec order.
    whole = vs.shred(foreign, vs.ShreddingSchema.value_only())
    strictly_valid(pa.StructArray.from_arrays(
        [whole.field("metadata"), whole.field("value")], names=["metadata", "value"]))


def test_shredding_stats_match_sorted_equivalent(foreign):
    sorted_equivalent = vs.from_json(DOCS, numbers="double")
    ours = vs.ShreddingStats().add(foreign)
    want = vs.ShreddingStats().add(sorted_equivalent)
    assert ours.rows == want.rows == len(DOCS)
    assert vs.infer_schema(foreign) == vs.infer_schema(sorted_equivalent)
    assert ours.derive_schema() == want.derive_schema()


@pytest.mark.parametrize("shredding", [None, SCHEMA])
def test_write_table_read_table(foreign, tmp_path, shredding):
    path = str(tmp_path / "f.parquet")
    vs.parquet.write_table(pa.table({"v": foreign}), path,
                           shredding=None if shredding is None else {"v": shredding})
    back = vs.parquet.read_table(path)["v"]
    assert vs.to_python(back) == vs.to_python(foreign)
    strictly_valid(back)
    rows = vs.to_python(foreign)
    got = vs.parquet.read_paths(path, "v", {p: None for p in PATHS})
    for p in PATHS:
        assert vs.to_python(got[p]) == [lookup(r, p) for r in rows], p


@pytest.mark.parametrize("shredding", ["default", "off"])
def test_read_duckdb_written_file(tmp_path, shredding):
    """Files DuckDB itself wrote (shredded by default): read_table and read_paths."""
    path = str(tmp_path / "duck.parquet")
    values = ", ".join(f"({i}, '{d}')" for i, d in enumerate(DOCS))
    option = ", SHREDDING {v: 'NULL'}" if shredding == "off" else ""
    duckdb.sql(f"copy (select i, j::JSON::VARIANT as v from (values {values}) t(i, j) "
               f"order by i) to '{path}' (format parquet{option})")
    rows = [json.loads(d) for d in DOCS]
    back = vs.parquet.read_table(path)["v"]
    assert vs.to_python(back) == rows
    strictly_valid(back)  # rebuilt in spec order, residuals included
    got = vs.parquet.read_paths(path, "v", {p: None for p in PATHS})
    for p in PATHS:
        assert vs.to_python(got[p]) == [lookup(r, p) for r in rows], p
    typed = vs.parquet.read_paths(path, "v", {"$.k03": "bigint", "$.k44": "string"})
    assert typed["$.k03"].to_pylist() == [lookup(r, "$.k03") for r in rows]
    assert typed["$.k44"].to_pylist() == [
        None if lookup(r, "$.k44") is None else str(lookup(r, "$.k44")) for r in rows]


def _spark_layout(arr: pa.Array) -> pa.Array:
    return pa.StructArray.from_arrays([arr.field("value"), arr.field("metadata")],
                                      names=["value", "metadata"])


def test_map_in_arrow_functions(foreign):
    """The vs.spark mapInArrow functions, called directly on Arrow batches."""
    batch = pa.RecordBatch.from_arrays([pa.array(range(len(DOCS))), _spark_layout(foreign)],
                                       names=["id", "v"])
    rows = vs.to_python(foreign)
    [shredded] = list(MapColumn("v", "shred", "s", {"schema": SCHEMA})([batch]))
    [back] = list(MapColumn("s", "unshred", "u")([shredded]))
    assert vs.to_python(back.column("u")) == rows
    strictly_valid(back.column("u"))
    [text] = list(MapColumn("v", "to_json", "j")([batch]))
    assert [json.loads(t) for t in text.column("j").to_pylist()] == rows


# ----------------------------------------------------------------------------
# Spark: parse_json orders keys by UTF-16 code units. U+1F600 (surrogates D83D DE00)
# sorts before U+FB01 in UTF-16 but after it in UTF-8 (F0 9F.. > EF AC 81).

NON_BMP_KEYS = [f"\uFB01{i:02d}" for i in range(22)] + [f"\U0001F600{i:02d}" for i in range(22)]
NON_BMP_DOCS = [
    json.dumps({k: i for i, k in enumerate(NON_BMP_KEYS)}),       # 44 keys
    json.dumps({"\uFB01": 1, "\U0001F600": {"\uFB01": [2], "\U0001F600": "x"}}),
    json.dumps([{"\U0001F600": 1, "\uFB01": 2}]),
]
NON_BMP_SCHEMA = "`\uFB0103` bigint, `\U0001F60021` bigint, `\U0001F600` struct<`\uFB01` array<bigint>>"


def _key_path(key: str) -> str:
    return f"$['{key}']"


@pytest.fixture(scope="module")
def spark_variants(spark):
    df = spark.createDataFrame(list(enumerate(NON_BMP_DOCS)), "i int, j string") \
        .selectExpr("i", "parse_json(j) as v").orderBy("i")
    rows = df.collect()
    arr = pa.StructArray.from_arrays(
        [pa.array([bytes(r.v.value) for r in rows]),
         pa.array([bytes(r.v.metadata) for r in rows])], names=["value", "metadata"])
    with pytest.raises(vs.VariantError, match="not in key-byte order"):
        vs.validate(arr)
    return df, arr


@pytest.mark.spark
def test_spark_non_bmp_keys_through_every_kernel(spark_variants, tmp_path):
    _, v = spark_variants
    rows = vs.to_python(v)
    assert rows == [json.loads(d) for d in NON_BMP_DOCS]
    paths = [_key_path(k) for k in NON_BMP_KEYS] + [
        "$['\U0001F600']['\uFB01'][0]", "$['\U0001F600']['\U0001F600']", "$[0]['\uFB01']"]

    def want(p):
        out = []
        for r in rows:
            cur = r
            for part in [s.strip("'") for s in p[2:-1].replace("][", "|").split("|")]:
                if isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
                    cur = cur[int(part)]
                elif isinstance(cur, dict) and part in cur:
                    cur = cur[part]
                else:
                    cur = None
                    break
            out.append(cur)
        return out

    shredded = vs.shred(v, NON_BMP_SCHEMA)
    strictly_valid(vs.unshred(shredded))
    assert vs.to_python(vs.unshred(shredded)) == rows
    path = str(tmp_path / "s.parquet")
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": NON_BMP_SCHEMA})
    back = vs.parquet.read_table(path)["v"]
    strictly_valid(back)
    assert vs.to_python(back) == rows
    from_file = vs.parquet.read_paths(path, "v", {p: None for p in paths})
    for p in paths:
        for source in (v, shredded):
            assert vs.to_python(vs.variant_get(source, p)) == want(p), p
        assert vs.to_python(from_file[p]) == want(p), p
    assert vs.infer_schema(v) == vs.infer_schema(vs.from_json(NON_BMP_DOCS))
    [out] = list(MapColumn("v", "shred", "s", {"schema": NON_BMP_SCHEMA})(
        [pa.RecordBatch.from_arrays([v], names=["v"])]))
    [out] = list(MapColumn("s", "unshred", "u")([out]))
    assert vs.to_python(out.column("u")) == rows


@pytest.mark.spark
def test_spark_map_in_arrow_job_on_non_bmp_keys(spark_variants):
    """One real mapInArrow job: Spark's own unsorted bytes shredded and unshredded by
    the vs.spark functions on the executors."""
    df, _ = spark_variants
    out = vs.spark.unshred(vs.spark.shred(df, "v", NON_BMP_SCHEMA, output="s"), "s",
                           output="u")
    rows = out.selectExpr("i", "to_json(u) as j").orderBy("i").collect()
    assert [json.loads(r.j) for r in rows] == [json.loads(d) for d in NON_BMP_DOCS]
