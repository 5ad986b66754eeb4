# Licensed under the Apache License, Version 2.0.
"""The varshred data source's path reader on Spark: filters pushed by Spark skip the files
and row groups whose statistics prove no row matches, its partitions are row-group ranges,
and the rows are those of a full scan filtered by Spark."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

import varshred as vs

pytestmark = pytest.mark.spark

ROWS_PER_GROUP = 100


def _write(path, docs, ddl, numbers="decimal"):
    table = pa.table({"v": vs.from_json(pa.array([json.dumps(d) for d in docs]),
                                        numbers=numbers)})
    vs.parquet.write_table(table, str(path), shredding={"v": ddl},
                           row_group_size=ROWS_PER_GROUP)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """Files of 10, 10 and 2 row groups (ids 0-999, 1000-1999, 2000-2199), with traps
    for an unsound pruner: residual string ids in one row group (read as bigint they
    match), and a file whose ids are shredded as double and read as bigint (2000.5 reads
    as 2000: the double statistics do not bound what is read, so it is never pruned)."""
    d = tmp_path_factory.mktemp("pushdown")
    ddl = "id bigint, name string"
    _write(d / "part-0.parquet", [{"id": i, "name": f"n{i:04d}"} for i in range(1000)], ddl)
    docs = [{"id": 1000 + i, "name": f"n{1000 + i:04d}"} for i in range(1000)]
    for i in range(500, 600):  # one row group whose ids are all strings: residual values
        docs[i]["id"] = str(docs[i]["id"] - 500)  # "1000".."1099": they match id = 1042
    _write(d / "part-1.parquet", docs, ddl)
    _write(d / "part-2.parquet",
           [{"id": 2000.5 + i, "name": f"n{2000 + i:04d}"}
            for i in range(200)], "id double, name string", numbers="double")
    return d


def _frame(spark, path, prune="true", **options):
    vs.spark.register(spark)
    reader = (spark.read.format("varshred").option("prune", prune)
              .option("variant_paths", "id:bigint,name:string"))
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load(str(path))


def _truth(spark, path, where):
    """The rows by Spark's own Parquet reader (try_variant_get, as the path reader's
    errors='null'), filtered by Spark."""
    df = spark.read.parquet(str(path)).selectExpr(
        "try_variant_get(v, '$.id', 'bigint') as id",
        "try_variant_get(v, '$.name', 'string') as name")
    return sorted(tuple(r) for r in df.where(where).collect())


# Row groups read: the matching ones, plus always the residual one of part-1 and the two
# of the double file (part-2).
@pytest.mark.parametrize("where, groups", [
    ("id = 42", 1 + 1 + 2),
    ("id = 1042", 1 + 1 + 2),
    ("id = 2000", 0 + 1 + 2),         # 2000.5 reads as 2000; its min 2000.5 would skip it
    ("id in (7, 1999)", 1 + 2 + 2),
    ("id > 1950 and id < 2000", 1 + 1 + 2),
    ("id <= 5", 1 + 1 + 2),
    ("name = 'n0150'", 1),            # part-1's and part-2's names all sort above it
    ("id = 99999", 0 + 1 + 2),
    ("name like 'n01%'", 22),         # not pushed: every row group is read
])
def test_pushdown_prunes_row_groups_and_keeps_rows(spark, dataset, where, groups):
    # One row group per partition, so that the partition count is the row groups read.
    df = _frame(spark, dataset, max_partition_bytes="1")
    assert df.rdd.getNumPartitions() == 22
    filtered = df.where(where)
    got = sorted(tuple(r) for r in filtered.collect())
    assert got == _truth(spark, dataset, where)
    assert filtered.rdd.getNumPartitions() == groups


def test_everything_pruned_reads_nothing(spark, dataset):
    df = _frame(spark, dataset).where("id < -5 and name = 'n0001'")
    assert df.collect() == []


def test_partitions_are_row_group_ranges(spark, dataset):
    # By default a partition holds up to 128 MB of row groups: one per (small) file.
    assert _frame(spark, dataset).rdd.getNumPartitions() == 3
    # Row groups are about 1 KB here: a few per partition, never across files.
    ranges = _frame(spark, dataset, max_partition_bytes="4000")
    assert 3 < ranges.rdd.getNumPartitions() < 22
    assert sorted(tuple(r) for r in ranges.collect()) == _truth(spark, dataset, "true")


def test_without_prune_a_filtered_query_leaves_the_frame_whole(spark, dataset):
    # The default: the same DataFrame queried with, then without a filter reads it all.
    df = _frame(spark, dataset, prune="false", max_partition_bytes="1")
    assert len(df.where("id = 42").collect()) == 1
    assert df.where("id = 42").rdd.getNumPartitions() == 22
    assert df.rdd.getNumPartitions() == 22
    assert df.count() == 2200


def test_spark_reuses_a_pruned_read_for_the_frames_next_query(spark, dataset):
    """Why ``prune`` is opt-in: Spark 4.3 stores the read planned under pushed filters on
    the loaded relation and reuses it for a later query of that DataFrame without filters
    (fixed upstream after 4.3: the read info moved into the scan). When this test fails,
    Spark no longer does: make ``prune`` the default."""
    df = _frame(spark, dataset, max_partition_bytes="1")
    assert len(df.where("id = 42").collect()) == 1
    assert df.rdd.getNumPartitions() == 4  # the pruned read, not 22
    # A fresh load() is whole.
    assert _frame(spark, dataset, max_partition_bytes="1").count() == 2200


def test_bad_prune_option(spark, dataset):
    with pytest.raises(Exception, match="option prune"):
        _frame(spark, dataset, prune="yes").collect()


def test_paths_name_decimal_types_and_keys_with_commas(spark, tmp_path):
    """The paths option is cut at the commas between its items only: ``decimal(9,2)`` and
    ``$['k,q']`` are one item each (a split at every comma refused them), and a decimal
    filter prunes by the statistics of wide decimal leaves (beyond Python's 28 digits)."""
    from varshred.spark import _parse_paths

    assert _parse_paths("id:bigint, a:decimal(9,2),$['k,q']:string") == [
        ("id", "bigint"), ("a", "decimal(9,2)"), ("$['k,q']", "string")]
    path = tmp_path / "wide.parquet"
    _write(path, [{"a": 123456789012345678901234567890, "k,q": "x"}, {"a": 1, "k,q": "y"}],
           "a decimal(38,0), `k,q` string")
    vs.spark.register(spark)
    df = (spark.read.format("varshred").option("prune", "true")
          .option("variant_paths", "a:decimal(38,2),$['k,q']:string").load(str(path)))
    assert [tuple(r) for r in df.where("a = 1").collect()] == [(1, "y")]


def test_paths_read_objects_and_arrays_as_structs_and_arrays(spark, tmp_path):
    """A path's type may be a struct or an array (Spark's variant_get of nested types):
    the option is cut at the colon outside the type's brackets, not at the last one."""
    from varshred.spark import _parse_paths

    assert _parse_paths("n:struct<x: int, y: string>,$['a:b']:array<bigint>") == [
        ("n", "struct<x: int, y: string>"), ("$['a:b']", "array<bigint>")]
    path = tmp_path / "nested.parquet"
    _write(path, [{"n": {"x": 1, "y": "s"}, "a:b": [1, "2"]}, {"n": 5, "a:b": []}],
           "n struct<x: int>")
    vs.spark.register(spark)
    df = (spark.read.format("varshred")
          .option("variant_paths", "n:struct<x: int, y: string>,$['a:b']:array<bigint>")
          .load(str(path)))
    rows = [r.asDict(recursive=True) for r in df.collect()]
    assert rows == [{"n": {"x": 1, "y": "s"}, "$['a:b']": [1, 2]},
                    {"n": None, "$['a:b']": []}]


def test_paths_read_variants_and_maps_as_spark_types_them(spark, tmp_path):
    """A path typed variant (alone or inside a struct or array) comes back in Spark's
    Variant layout, and a map in Spark's map type: the reader reads each path as the Arrow
    type of its Spark column (DATA_SOURCE_RETURN_SCHEMA_MISMATCH and an unknown 'map'
    DDL before). The values are Spark's own try_variant_get's of the same file."""
    path = tmp_path / "variants.parquet"
    _write(path, [{"n": {"x": 1, "k": "s"}, "m": {"x": [1, "a"]}, "arr": [{"a": 1}, 2],
                   "mp": {"k": 1, "j": "2"}},
                  {"n": 5, "m": 7, "arr": [], "mp": None}],
           "n struct<x: int>")
    vs.spark.register(spark)
    paths = "n:variant,m:struct<x: variant>,arr:array<variant>,mp:map<string,bigint>"
    ours = (spark.read.format("varshred").option("variant_paths", paths).load(str(path))
            .selectExpr("to_json(n)", "to_json(m.x)", "transform(arr, e -> to_json(e))",
                        "mp"))
    spark_own = spark.read.parquet(str(path)).selectExpr(
        "to_json(try_variant_get(v, '$.n', 'variant'))",
        "to_json(try_variant_get(v, '$.m', 'struct<x: variant>').x)",
        "transform(try_variant_get(v, '$.arr', 'array<variant>'), e -> to_json(e))",
        "try_variant_get(v, '$.mp', 'map<string,bigint>')")
    assert [tuple(r) for r in ours.collect()] == [tuple(r) for r in spark_own.collect()]
    assert ours.collect()[0][3] == {"k": 1, "j": 2}
