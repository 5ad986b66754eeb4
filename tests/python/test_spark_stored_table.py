# Licensed under the Apache License, Version 2.0.
"""vs.spark.write and sample_stats on a Parquet table as stored (spark.read.parquet with,
at most, columns selected, renamed or reordered): the files are sampled on the driver and
read by the tasks themselves. The tables here are written by a real Spark; the results
are compared with the path through Spark (the same DataFrame behind a filter that keeps
every row), read back by Spark."""

from __future__ import annotations

import datetime
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs
from varshred import _stored_table

pytestmark = pytest.mark.spark

DOCS = [
    '{"id": 1, "name": "a", "score": 8.5, "tags": ["x", "y"], "nested": {"x": 3}}',
    '{"id": "two", "tags": [], "nested": {"x": 1.5, "extra": [1, {"k": null}]}}',
    "[1, 2, 3]",
    '{"id": 4, "tags": ["p", null, 7], "when": "2024-01-02"}',
    "null",
    '{"nested": "flat", "tags": "not an array"}',
    '{"id": 9223372036854775807, "score": 123456.78, "s": "caf\\u00e9 \\"q\\""}',
    '"just a string"',
]


@pytest.fixture(scope="module", params=["unshredded", "shredded"])
def source(spark, tmp_path_factory, request):
    """A table Spark wrote: three files of several row groups each; a Variant column
    (a SQL NULL in every ninth row), stored unshredded or shredded by Spark's own
    inference; a JSON string column, a key, a timestamp (as TIMESTAMP_MICROS: Spark's
    default INT96 is left to Spark)."""
    path = str(tmp_path_factory.mktemp(f"stored-{request.param}") / "source")
    shredded = request.param == "shredded"
    # Spark's inference shreds nothing when the documents' roots differ in type.
    docs = [d for d in DOCS if d.startswith("{")] if shredded else DOCS
    rows = [(k, docs[k % len(docs)] if k % 9 else None, f'{{"j": {k}}}')
            for k in range(3000)]
    df = spark.createDataFrame(rows, "k long, doc string, j string").selectExpr(
        "k", "parse_json(doc) AS v", "j", "timestamp_micros(k * 1000003) AS t")
    writer = (df.repartition(3, "k").sortWithinPartitions("k").write
              .option("parquet.block.size", 16 << 10).mode("overwrite"))
    spark.conf.set("spark.sql.variant.writeShredding.enabled", str(shredded).lower())
    spark.conf.set("spark.sql.variant.inferShreddingSchema", str(shredded).lower())
    spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    try:
        writer.parquet(path)
    finally:
        for key in ("variant.writeShredding.enabled", "variant.inferShreddingSchema",
                    "parquet.outputTimestampType"):
            spark.conf.unset(f"spark.sql.{key}")
    first = sorted(f for f in os.listdir(path) if f.endswith(".parquet"))[0]
    layout = {c.name: c.layout for c in vs.parquet.inspect(os.path.join(path, first))}
    assert layout["v"] == request.param
    return path


def _widthless(stats):
    """Type counts with the exact numeric widths (int8..int64, decimal4..16) merged."""
    out = {}
    for path, counts in stats.type_counts().items():
        merged = out.setdefault(path, {})
        for t, n in counts.items():
            t = "integer" if t.startswith("int") else "decimal" if t.startswith("decimal") else t
            merged[t] = merged.get(t, 0) + n
    return out


def through_spark(df):
    """``df`` as Spark reads it: behind a filter that keeps every row, no longer a table
    as stored."""
    return df.filter("true")


def _rows(spark, path):
    return sorted(spark.read.parquet(path).selectExpr(
        "k", "to_json(v) AS v", "to_json(j) AS j", "CAST(t AS STRING) AS t").collect())


def test_only_a_table_as_stored_is_read_directly(spark, source, tmp_path):
    table = _stored_table.stored_table(spark.read.parquet(source))
    assert table is not None
    assert len(table.paths) == 3 and len(table.row_groups) > 3
    assert table.schema.names == ["k", "v", "j", "t"]
    df = spark.read.parquet(source)
    df.createOrReplaceTempView("stored_view")
    # Computed, filtered, limited or combined rows are Spark's to read; so is a column
    # selected twice, a file's metadata column or a cast.
    for changed in (df.filter("k > 3"), df.limit(10), df.union(df), through_spark(df),
                    df.selectExpr("k + 1 AS k", "v", "j", "t"), df.select("v", df.v.alias("w")),
                    df.select("v", "_metadata"), df.select(df.j.cast("string")),
                    spark.sql("SELECT CAST(k AS STRING) AS k, v FROM stored_view")):
        assert _stored_table.stored_table(changed) is None
    # Columns selected, renamed or reordered, through aliases and views: still the files.
    for projected, names, sources in [
            (df.select("*"), ["k", "v", "j", "t"], ()),
            (df.drop("j"), ["k", "v", "t"], ()),
            (df.withColumnRenamed("k", "key"), ["key", "v", "j", "t"], ("k", "v", "j", "t")),
            (df.alias("a").select("a.t", "a.v").select("v", "t"), ["v", "t"], ()),
            (spark.table("stored_view"), ["k", "v", "j", "t"], ()),
            (spark.sql("SELECT v AS w, k FROM stored_view"), ["w", "k"], ("v", "k"))]:
        table = _stored_table.stored_table(projected)
        assert table is not None and len(table.paths) == 3
        assert (table.schema.names, table.sources) == (names, sources)
    # Spark's default timestamps, INT96: read as Spark reads them (microseconds, UTC).
    int96 = str(tmp_path / "int96")
    df.write.parquet(int96)
    assert _stored_table.stored_table(spark.read.parquet(int96)).schema.field("t").type == \
        pa.timestamp("us", tz="UTC")
    # INT96 from another writer: Spark may rebase or refuse old values; Spark reads it.
    import pyarrow.parquet as pq

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    pq.write_table(pa.table({"t": pa.array([0], pa.timestamp("us"))}),
                   str(foreign / "part-0.parquet"), use_deprecated_int96_timestamps=True)
    assert _stored_table.stored_table(spark.read.parquet(str(foreign))) is None
    parted = str(tmp_path / "parted")
    df.selectExpr("k % 2 AS p", "v").write.partitionBy("p").parquet(parted)
    assert _stored_table.stored_table(spark.read.parquet(parted)) is None
    # Another session time zone labels the same instants: still read directly.
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    try:
        table = _stored_table.stored_table(spark.read.parquet(source))
        assert table.schema.field("t").type == pa.timestamp("us", tz="America/New_York")
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")


def test_the_files_tell_the_schema_spark_reads_or_say_they_cannot(spark, source, tmp_path):
    # The pipeline skips Spark's read.parquet of local Parquet input when the files
    # alone tell the schema Spark would read; whenever they tell one, Spark agrees.
    import pyarrow.parquet as pq

    def told(path, zone="UTC"):
        files = sorted(os.path.join(path, f) for f in os.listdir(path)
                       if f.endswith(".parquet"))
        table = _stored_table.file_table(files)
        return table and _stored_table.as_spark_reads(table, zone)

    def spark_reads(path):
        return _stored_table.stored_table(spark.read.parquet(path)).schema

    assert told(source).schema.equals(spark_reads(source))
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    try:
        assert told(source, "America/New_York").schema.equals(spark_reads(source))
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")

    variant = vs.from_json(pa.array(['{"a": 1}', "[2]", None]))
    plain = {"i8": pa.array([1, -2, None], pa.int8()), "i16": pa.array([1, 2, 3], pa.int16()),
             "f": pa.array([1.5, None, 2], pa.float32()), "b": pa.array([True, False, None]),
             "s": pa.array(["x", None, "z"]), "d": pa.array([1, 2, 3], pa.date32()),
             "dec": pa.array([1, 2, None], pa.decimal128(20, 3)),
             "ntz": pa.array([1, 2, 3], pa.timestamp("us"))}

    def write(name, columns, annotated=True):
        path = tmp_path / name
        path.mkdir()
        for k, cols in enumerate(columns if isinstance(columns, list) else [columns]):
            f = str(path / f"part-{k}.parquet")
            if annotated:  # varshred's writer annotates Variant columns VARIANT
                vs.parquet.write_table(pa.table(cols), f)
            else:  # pyarrow writes the (metadata, value) pair as a plain struct
                pq.write_table(pa.table(cols), f)
        return str(path)

    both = write("plain", [{**plain, "v": variant}, {**plain, "v": variant}])
    assert told(both).schema.equals(spark_reads(both))
    # A large string is stored as a string (the writer keeps no Arrow schema).
    large = write("large", {"n": pa.array(["x"], pa.large_string()), "v": variant[:1]})
    assert told(large).schema.equals(spark_reads(large))
    # Spark reads each of these otherwise than varshred, or refuses them: not told.
    for name, columns, annotated in [
            ("pair", {"v": variant}, False),                       # Spark: a struct
            ("unsigned", {"n": pa.array([1], pa.uint32()), "v": variant[:1]}, True),
            ("bytes", {"n": pa.array([b"x"]), "v": variant[:1]}, True),  # Spark: maybe strings
            ("millis", {"n": pa.array([1], pa.timestamp("ms", "UTC")), "v": variant[:1]},
             True),
            ("cases", {"n": pa.array([1]), "N": pa.array([2]), "v": variant[:1]}, True),
            ("differ", [{"v": variant}, {"v": variant, "n": pa.array([1, 2, 3])}], True)]:
        assert told(write(name, columns, annotated)) is None, name
    int96 = str(tmp_path / "int96")
    spark.read.parquet(source).write.parquet(int96)  # Spark's default timestamps: INT96
    assert told(int96).schema.equals(spark_reads(int96))
    # Local timestamps are TIMESTAMP_NTZ unless the session infers them as TIMESTAMP.
    key = _stored_table.INFER_TIMESTAMP_NTZ
    ntz = write("ntz", {"t": plain["ntz"], "v": variant})
    assert told(ntz).schema.field("t").type == pa.timestamp("us")
    table = _stored_table.file_table([os.path.join(ntz, "part-0.parquet")])
    assert _stored_table.as_spark_reads(table, "UTC", {key: "false"}.get) is None
    spark.conf.set(key, "false")
    try:
        assert _stored_table.stored_table(spark.read.parquet(ntz)) is None
    finally:
        spark.conf.unset(key)


@pytest.mark.parametrize("shredding", [
    "infer", "per-file", {"v": "struct<id: bigint, tags: array<string>>",
                          "j": "struct<j: bigint>"}])
def test_write_equals_the_path_through_spark(spark, source, tmp_path, monkeypatch, shredding):
    direct_runs = []
    real_write = _stored_table.write
    monkeypatch.setattr(_stored_table, "write",
                        lambda *a: direct_runs.append(1) or real_write(*a))
    df = spark.read.parquet(source)
    direct = vs.spark.write(df, str(tmp_path / "direct"), shredding=shredding,
                            json_columns=["j"], collect_stats=True)
    assert direct_runs == [1]
    through = vs.spark.write(through_spark(df), str(tmp_path / "through"), shredding=shredding,
                             json_columns=["j"], collect_stats=True)
    assert direct_runs == [1]
    assert direct.rows == through.rows == 3000
    # From shredded files, varshred rebuilds a number with its typed column's width (the
    # spec's rule: decimal8 from DECIMAL(18, s)) where Spark narrows it (decimal4): the
    # same values, whose widths may steer inference to another decimal type.
    rebuilt = "stored-shredded" in source
    if shredding != "per-file" and not rebuilt:  # per-file: each task's first rows decide
        assert direct.schemas == through.schemas
    assert _widthless(direct.stats["v"]) == _widthless(through.stats["v"])
    if not rebuilt:
        assert direct.stats["v"].type_counts() == through.stats["v"].type_counts()
    assert _rows(spark, str(tmp_path / "direct")) == _rows(spark, str(tmp_path / "through"))
    # The files are varshred's: shredded, and read back by varshred as written.
    back = vs.parquet.read_table(str(tmp_path / "direct")).sort_by("k")
    assert back.column("k").to_pylist() == list(range(3000))
    assert vs.to_json(back.column("j")).to_pylist()[:2] == ['{"j":0}', '{"j":1}']


@pytest.mark.parametrize("shredding", ["infer", {"doc": "struct<id: bigint>"}])
def test_projected_columns_write_as_through_spark(spark, source, tmp_path, monkeypatch,
                                                   shredding):
    # Renamed, reordered and dropped columns, through a view: the tasks read the files'
    # columns under the DataFrame's names, the sample too (inference, a JSON column).
    direct_runs = []
    real_write = _stored_table.write
    monkeypatch.setattr(_stored_table, "write",
                        lambda *a: direct_runs.append(1) or real_write(*a))
    spark.read.parquet(source).createOrReplaceTempView("projected_source")
    df = spark.sql("SELECT t AS at, j AS js, v AS doc, k AS key FROM projected_source")
    outs = [str(tmp_path / "direct"), str(tmp_path / "through")]
    summaries = [vs.spark.write(d, o, shredding=shredding, json_columns=["js"],
                                collect_stats=True)
                 for d, o in zip((df, through_spark(df)), outs)]
    assert direct_runs == [1]
    assert summaries[0].rows == summaries[1].rows == 3000
    assert _widthless(summaries[0].stats["doc"]) == _widthless(summaries[1].stats["doc"])
    assert summaries[0].stats["js"].type_counts() == summaries[1].stats["js"].type_counts()
    rows = [sorted(spark.read.parquet(o).selectExpr(
        "key", "to_json(doc) AS doc", "to_json(js) AS js", "CAST(at AS STRING) AS at")
        .collect()) for o in outs]
    assert rows[0] == rows[1] and len(rows[0]) == 3000
    assert spark.read.parquet(outs[0]).columns == ["at", "js", "doc", "key"]
    shredded = {c.name: c.layout for c in vs.parquet.inspect(
        next(os.path.join(outs[0], f) for f in os.listdir(outs[0]) if f.endswith(".parquet")))}
    assert shredded["doc"] == "shredded"
    assert shredded["js"] == ("shredded" if shredding == "infer" else "unshredded")


def test_int96_timestamps_are_read_as_spark_reads_them(spark, tmp_path):
    # Spark writes TIMESTAMP as INT96 by default; the direct path reads those as
    # microseconds in UTC, the values Spark hands over, before 1970 and far ahead too.
    times = ["1969-12-31 23:59:59.999999", "1900-01-01 00:00:00.123456",
             "2262-05-01 10:00:00.5", "2026-11-26 08:00:00", None]
    src = str(tmp_path / "int96")
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    try:
        (spark.createDataFrame([(k, times[k % 5], f'{{"k": {k}}}') for k in range(50)],
                               "k long, s string, j string")
         .selectExpr("k", "CAST(s AS TIMESTAMP) AS t", "parse_json(j) AS v")
         .coalesce(1).write.parquet(src))
        df = spark.read.parquet(src)
        assert _stored_table.stored_table(df) is not None
        outs = [str(tmp_path / "direct"), str(tmp_path / "through")]
        vs.spark.write(df, outs[0])
        vs.spark.write(through_spark(df), outs[1])
        rows = [sorted(spark.read.parquet(o).selectExpr(
            "k", "CAST(t AS STRING) AS t", "to_json(v) AS v").collect()) for o in outs]
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")
    assert rows[0] == rows[1] and len(rows[0]) == 50
    assert [r.t for r in rows[0][:5]] == times


def test_a_file_listed_twice_is_left_to_spark(spark, tmp_path):
    # read.parquet(p, p), or a directory and a file in it: Spark reads such a file once
    # per listing; the direct path would read it once, so it leaves the table to Spark.
    src = str(tmp_path / "src")
    (spark.sql("""SELECT id AS k, parse_json(concat('{"a": ', id, '}')) AS v
                  FROM range(10)""").coalesce(1).write.parquet(src))
    part = next(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".parquet"))
    assert _stored_table.stored_table(spark.read.parquet(src)) is not None
    for i, df in enumerate((spark.read.parquet(src, src), spark.read.parquet(src, part))):
        assert _stored_table.stored_table(df) is None
        out = str(tmp_path / f"out{i}")
        vs.spark.write(df, out)
        assert spark.read.parquet(out).count() == df.count() == 20


def test_dates_spark_rebases_are_left_to_spark(spark, tmp_path):
    # Spark rebases dates and timestamps before 1582 (Julian calendar) in files it wrote
    # in LEGACY mode, and in files naming no Spark version when the session reads in
    # LEGACY mode; the direct path reads values as stored, so it leaves those to Spark.
    legacy = str(tmp_path / "legacy")
    spark.conf.set("spark.sql.parquet.datetimeRebaseModeInWrite", "LEGACY")
    spark.conf.set("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    try:
        spark.sql("""SELECT 1 AS k, parse_json('{"a": 1}') AS v, DATE'1000-01-01' AS d,
                     TIMESTAMP'1000-01-01 00:00:00' AS t""").write.parquet(legacy)
    finally:
        spark.conf.unset("spark.sql.parquet.datetimeRebaseModeInWrite")
        spark.conf.unset("spark.sql.parquet.outputTimestampType")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    vs.parquet.write_table(pa.table({
        "k": pa.array([1], pa.int64()), "v": vs.from_json(pa.array(['{"a": 1}'])),
        "d": pa.array([datetime.date(1000, 1, 1)], pa.date32()),
        "t": pa.array([datetime.datetime(1000, 1, 1)], pa.timestamp("us"))}),
        str(foreign / "part-0.parquet"))
    mode = _stored_table.DATETIME_REBASE_MODE
    for i, (path, read_mode) in enumerate([(legacy, "CORRECTED"), (str(foreign), "LEGACY")]):
        out = str(tmp_path / f"out{i}")
        spark.conf.set(mode, read_mode)
        try:
            df = spark.read.parquet(path)
            assert _stored_table.stored_table(df) is None
            spark_read = df.selectExpr("CAST(d AS STRING)", "CAST(t AS STRING)").collect()
            vs.spark.write(df, out)
        finally:
            spark.conf.unset(mode)
        assert spark.read.parquet(out).selectExpr(
            "CAST(d AS STRING)", "CAST(t AS STRING)").collect() == spark_read
    assert spark_read[0][0] != "1000-01-01"  # the foreign file under LEGACY: rebased
    # The pipeline's reading of the files alone follows the same rules.
    assert _stored_table.file_table([os.path.join(legacy, f) for f in os.listdir(legacy)
                                     if f.endswith(".parquet")]) is None
    table = _stored_table.file_table([str(foreign / "part-0.parquet")])
    for mode, told in (("LEGACY", False), ("EXCEPTION", False), ("CORRECTED", True)):
        setting = {_stored_table.DATETIME_REBASE_MODE: mode}.get
        assert (_stored_table.as_spark_reads(table, "UTC", setting) is not None) == told
    assert _stored_table.stored_table(spark.read.parquet(str(foreign))) is not None


def test_append_and_overwrite_through_the_direct_path(spark, source, tmp_path):
    df = spark.read.parquet(source)
    out = str(tmp_path / "o")
    vs.spark.write(df, out, shredding="none")
    vs.spark.write(df, out, shredding="none", mode="append")
    assert spark.read.parquet(out).count() == 6000
    vs.spark.write(df, out, shredding="none", mode="overwrite")
    assert spark.read.parquet(out).count() == 3000
    with pytest.raises(vs.VariantError, match="already exists"):
        vs.spark.write(df, out)


def test_a_failed_direct_write_leaves_nothing(spark, source, tmp_path):
    bad = str(tmp_path / "bad")
    rows = [(k, "{not json" if k == 2500 else f'{{"j": {k}}}') for k in range(3000)]
    spark.createDataFrame(rows, "k long, j string").coalesce(1).write.parquet(bad)
    df = spark.read.parquet(bad)
    assert _stored_table.stored_table(df) is not None
    out = str(tmp_path / "out")
    with pytest.raises(Exception, match="invalid JSON"):  # noqa: B017 (surfaces via Py4J)
        vs.spark.write(df, out, shredding="none", json_columns=["j"])
    leftover = [f for _, _, fs in os.walk(out) for f in fs] if os.path.exists(out) else []
    assert leftover == []


@pytest.mark.parametrize("shredding", ["s string", "infer"])
@pytest.mark.parametrize("layout", ["unshredded", "shredded"])
def test_a_bad_value_in_a_stored_table_is_named_by_file_row_group_and_row(
        spark, tmp_path, layout, shredding):
    # The tasks read unshredded values unchecked and the writer validates them, as the
    # sample pass (which meets the value first when inferring) leaves them to the
    # statistics; a value refused is still named where it lies, and nothing is
    # written. (Shredded files are rebuilt, and checked, by the reader.)
    path = str(tmp_path / "t")
    rows = [(k, '{"s": "%s"}' % ("bad!" if k == 700 else f"ok{k}")) for k in range(1000)]
    spark.conf.set("spark.sql.variant.writeShredding.enabled", str(layout == "shredded").lower())
    try:
        (spark.createDataFrame(rows, "k long, doc string")
         .selectExpr("k", "parse_json(doc) AS v").coalesce(1).write
         .option("compression", "none").option("parquet.block.size", 4 << 10).parquet(path))
    finally:
        spark.conf.unset("spark.sql.variant.writeShredding.enabled")
    [name] = [f for f in os.listdir(path) if f.endswith(".parquet")]
    file = os.path.join(path, name)
    assert vs.parquet.inspect(file)[1].layout == layout
    with open(file, "rb") as f:
        data = f.read()
    assert b"bad!" in data
    with open(file, "wb") as f:
        f.write(data.replace(b"bad!", b"bad\xff"))  # not UTF-8
    os.remove(os.path.join(path, f".{name}.crc"))  # Hadoop's checksum of the old bytes
    meta = pq.ParquetFile(file).metadata
    sizes = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
    group = next(g for g in range(len(sizes)) if sum(sizes[:g + 1]) > 700)
    assert group > 0
    df = spark.read.parquet(path)
    assert _stored_table.stored_table(df) is not None
    out = str(tmp_path / "out")
    where = rf"{name}, row group {group}: .*row 700\b.*UTF-8"  # the file's row
    with pytest.raises(Exception, match=where):  # noqa: B017 (surfaces via Py4J)
        vs.spark.write(df, out, shredding=shredding)
    leftover = [f for _, _, fs in os.walk(out) for f in fs] if os.path.exists(out) else []
    assert leftover == []

def test_the_sample_spreads_over_every_row_group(spark, tmp_path):
    # The first half of the rows types "a" as a number, the second half as a string: a
    # sample from the head would see numbers only.
    path = str(tmp_path / "drift")
    rows = [(k, f'{{"a": {k}}}' if k < 20000 else f'{{"a": "s{k}"}}') for k in range(40000)]
    spark.conf.set("spark.sql.variant.writeShredding.enabled", "false")
    try:
        (spark.createDataFrame(rows, "k long, doc string").coalesce(1)
         .selectExpr("k", "parse_json(doc) AS v").write
         .option("parquet.block.size", 64 << 10).parquet(path))
    finally:
        spark.conf.unset("spark.sql.variant.writeShredding.enabled")
    df = spark.read.parquet(path)
    table = _stored_table.stored_table(df)
    assert table is not None and len(table.row_groups) >= 8
    stats = vs.spark.sample_stats(df, sample_rows=1000)["v"]
    counts = stats.type_counts()["a"]
    assert 600 <= stats.rows <= 1400
    assert counts.get("string", 0) > 200 and sum(counts.values()) - counts["string"] > 200


def test_the_sample_reads_every_file_of_a_few(spark, tmp_path):
    # Two files of one row group each, numbers in the first and strings in the second: a
    # sample of the first file alone (as when whole row groups were read) sees numbers only.
    path = str(tmp_path / "two")
    numbers = [(k, f'{{"a": {k}}}') for k in range(20000)]
    strings = [(k, f'{{"a": "s{k}"}}') for k in range(20000, 40000)]
    spark.conf.set("spark.sql.variant.writeShredding.enabled", "false")
    try:
        for rows in (numbers, strings):  # one file each
            (spark.createDataFrame(rows, "k long, doc string").coalesce(1)
             .selectExpr("k", "parse_json(doc) AS v").write.mode("append").parquet(path))
    finally:
        spark.conf.unset("spark.sql.variant.writeShredding.enabled")
    df = spark.read.parquet(path)
    table = _stored_table.stored_table(df)
    assert table is not None and len(table.paths) == 2 and len(table.row_groups) == 2
    stats = vs.spark.sample_stats(df, sample_rows=1000)["v"]
    counts = stats.type_counts()["a"]
    assert 600 <= stats.rows <= 1400
    assert counts.get("string", 0) > 200 and sum(counts.values()) - counts["string"] > 200


def test_the_lean_start_guess_follows_the_types_spark_reads_alike():
    def table(*types):
        fields = [(f"c{i}", t) for i, t in enumerate(types)]
        return _stored_table.StoredTable([], [], pa.schema(fields), [])

    variant = vs.from_json(pa.array(["1"])).type
    assert _stored_table.likely_stored(table(
        variant, pa.int64(), pa.string(), pa.binary(), pa.timestamp("us", "UTC"),
        pa.timestamp("us"), pa.decimal128(20, 2), pa.date32()))
    for other in (pa.uint32(), pa.timestamp("ns"), pa.large_string(),
                  pa.list_(pa.int64())):
        assert not _stored_table.likely_stored(table(variant, other)), other


def test_task_groups_cut_row_groups_into_runs():
    table = _stored_table.StoredTable(
        ["a", "b"], [(0, 0, 10, 100), (0, 1, 10, 100), (1, 0, 10, 300), (1, 1, 10, 100)],
        pa.schema([("k", pa.int64())]), [])
    assert _stored_table.task_groups(table, 2, 1 << 30) == [[(0, 0), (0, 1)],
                                                             [(1, 0)], [(1, 1)]]
    assert _stored_table.task_groups(table, 1, 250) == [[(0, 0), (0, 1)], [(1, 0)],
                                                         [(1, 1)]]
    assert _stored_table.task_groups(table, 1, 1 << 30) == [[(0, 0), (0, 1), (1, 0),
                                                             (1, 1)]]
    empty = _stored_table.StoredTable([], [], pa.schema([]), [])
    assert _stored_table.task_groups(empty, 2, 100) == []


def test_variants_nested_in_other_columns_pass_through_unchanged(spark, tmp_path):
    # Spark stores a Variant inside a struct, an array or a map as its (value, metadata)
    # pair; varshred reads such a column with the type Spark hands over, and writes it as
    # the path through Spark does. Only the top-level Variant column is shredded. Through
    # Spark, a NULL nested Variant failed the write ("declared non-nullable but contains
    # nulls") before the data source made its children valid (in maps: until the third
    # session of 2026-11-26).
    src = str(tmp_path / "nested")
    docs = ['{"a": 1}', "[2, 3]", '"s"', None]
    table = (spark.createDataFrame([(k, docs[k % 4]) for k in range(400)], "k long, j string")
             .selectExpr("k", "named_struct('x', parse_json(j)) AS s",
                         "array(parse_json(j)) AS l", "map('m', parse_json(j)) AS m",
                         "parse_json(j) AS v"))
    spark.conf.set("spark.sql.variant.writeShredding.enabled", "false")
    try:
        table.write.parquet(src)
    finally:
        spark.conf.unset("spark.sql.variant.writeShredding.enabled")
    # Shredded, the nested Variants are groups varshred reads otherwise: through Spark.
    table.write.parquet(str(tmp_path / "shredded"))
    assert _stored_table.stored_table(spark.read.parquet(str(tmp_path / "shredded"))) is None
    df = spark.read.parquet(src)
    assert _stored_table.stored_table(df) is not None
    outs = [str(tmp_path / "direct"), str(tmp_path / "through")]
    # Nested Variants are written as their (value, metadata) pairs, unannotated
    # (docs/interop.md#files-spark-reads), which vs.spark.write says: read back with the
    # schema that says so.
    with pytest.warns(UserWarning, match="column 's' holds Variant values inside"):
        vs.spark.write(df, outs[0], shredding={"v": "struct<a: bigint>"})
    with pytest.warns(UserWarning, match="column 's' holds Variant values inside"):
        vs.spark.write(through_spark(df), outs[1], shredding={"v": "struct<a: bigint>"})
    schema = "k long, s struct<x: variant>, l array<variant>, m map<string, variant>, v variant"
    rows = [sorted(spark.read.schema(schema).parquet(o).selectExpr(
        "k", "to_json(s.x) AS s", "to_json(l[0]) AS l", "to_json(m['m']) AS m",
        "to_json(v) AS v").collect())
        for o in outs]
    assert rows[0] == rows[1] and len(rows[0]) == 400
    assert rows[0][:4] == [(0, '{"a":1}', '{"a":1}', '{"a":1}', '{"a":1}'),
                           (1, "[2,3]", "[2,3]", "[2,3]", "[2,3]"),
                           (2, '"s"', '"s"', '"s"', '"s"'), (3, None, None, None, None)]


def test_null_nested_variants_get_valid_children_in_sliced_batches():
    # Spark's Arrow shape of a NULL Variant nested in a struct, a list and a map: the
    # required value / metadata are null too. The writer's batches make those slots
    # valid, also in a slice (an offset into every buffer), and keep the rows' nulls.
    from varshred.spark import _valid_children

    required = pa.struct([pa.field("value", pa.binary(), nullable=False),
                          pa.field("metadata", pa.binary(), nullable=False)])
    null = [False, True, False, True, False, False]
    variants = pa.StructArray.from_arrays(
        [pa.array([b"v0", None, b"v2", None, b"v4", b"v5"]),
         pa.array([b"m0", None, b"m2", None, b"m4", b"m5"])],
        fields=list(required), mask=pa.array(null))
    offsets = pa.array([0, 1, 2, 3, 4, 5, 6], pa.int32())
    columns = {
        "struct": pa.StructArray.from_arrays([variants], names=["x"]),
        "list": pa.ListArray.from_arrays(offsets, variants),
        "map": pa.MapArray.from_arrays(offsets, pa.array(list("abcdef")), variants),
    }
    for name, column in columns.items():
        for part in (column, column.slice(1, 4)):
            fixed = _valid_children(part)
            assert fixed.to_pylist() == part.to_pylist(), name
            fixed.validate(full=True)
            inner = (fixed.field(0) if name == "struct"
                     else fixed.items if name == "map" else fixed.values)
            assert inner.null_count == sum(null)
            assert inner.field(0).null_count == inner.field(1).null_count == 0, name
    plain = pa.array([{"x": 1}, None])
    assert _valid_children(plain) is plain


@pytest.mark.parametrize("sample_rows, rows, groups_read", [
    (0, 1200, 12),      # the whole table: every row group
    (200, 200, 8),      # a read of 800 rows: 8 of the 12 groups of 100, spread
    (5000, 1200, 12),   # more than the table
])
def test_the_sample_of_small_row_groups_reads_as_many_as_its_budget(
        tmp_path, sample_rows, rows, groups_read):
    # Row group g holds documents {"k<g>": 1}: the keys seen tell the groups read.
    docs = [f'{{"k{i // 100}": 1}}' for i in range(1200)]
    path = str(tmp_path / "small.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(pa.array(docs))}), path,
                           row_group_size=100)
    table = _stored_table.file_table([path])
    assert table is not None and len(table.row_groups) == 12
    stats = _stored_table.sample_stats(table, ["v"], [], sample_rows, 0)["v"]
    assert stats.rows == rows
    assert len([p for p in stats.type_counts() if p != "$"]) == groups_read


def test_the_sample_read_in_threads_counts_what_one_thread_counts(tmp_path, monkeypatch):
    # Runs of row groups are sampled side by side and merged in file order.
    docs = [f'{{"k{i % 7}": {i}, "g{i // 100}": "{"x" * (i % 5)}"}}' for i in range(1200)]
    path = str(tmp_path / "groups.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(pa.array(docs))}), path,
                           row_group_size=100)
    table = _stored_table.file_table([path])
    counted = {}
    for cpus in (1, 2, 5):
        monkeypatch.setattr(_stored_table.os, "cpu_count", lambda c=cpus: c)
        stats = _stored_table.sample_stats(table, ["v"], [], 0, 0)["v"]
        counted[cpus] = (stats.rows, stats.type_counts(), stats.derive_schema().to_ddl())
    assert counted[1][0] == 1200
    assert counted[1] == counted[2] == counted[5]
