# Licensed under the Apache License, Version 2.0.
"""vs.parquet without Spark: round trips of every type, projection, pruning, legacy
files, errors and atomic writes."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import string
import subprocess
import sys
import uuid
from decimal import Decimal

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs
from variant_decode import decode_column

EVERY_TYPE = [
    {"b": True, "i8": 7, "i64": 2**40, "f": 1.5, "d": Decimal("12.345"),
     "dt": dt.date(2024, 2, 29), "ts": dt.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=dt.timezone.utc),
     "ntz": dt.datetime(2024, 1, 2, 3, 4, 5), "t": dt.time(12, 30, 1, 5), "s": "text",
     "bin": b"\x00\x01", "u": uuid.UUID(int=42), "arr": [1, "x", None, {"k": [2]}],
     "obj": {"x": 1, "y": {"z": "deep"}}},
    {"b": "not bool", "i8": None, "i64": "big", "f": 2, "d": 3, "s": 5, "arr": "scalar"},
    None,
    [1, 2, 3],
    "top-level string",
    {},
]
SCHEMA = ("struct<b: boolean, i8: tinyint, i64: bigint, f: double, d: decimal(10,3), dt: date, "
          "ts: timestamp, ntz: timestamp_ntz, t: time, s: string, bin: binary, u: uuid, "
          "arr: array<variant>, obj: struct<x: int, y: struct<z: string>>>")


@pytest.mark.parametrize("neighbours", [False, True])
def test_every_type_round_trips_through_files(tmp_path, neighbours):
    v = vs.from_python(EVERY_TYPE * 50)
    columns = {"v": v}
    if neighbours:  # nested columns written by Arrow's writer into the same row groups
        n = len(v)
        columns = {"l": pa.array([[i] * (i % 3) for i in range(n)]), "v": v,
                   "s": pa.array([{"a": str(i), "b": [i]} for i in range(n)])}
    table = pa.table(columns)
    path = str(tmp_path / "all.parquet")
    vs.parquet.write_table(table, path, shredding={"v": SCHEMA}, row_group_size=64,
                           data_page_size=1024, numeric="strict")
    assert pq.ParquetFile(path).metadata.num_row_groups == 5
    read = vs.parquet.read_table(path)
    back = read["v"].combine_chunks()
    assert decode_column(back) == decode_column(v)  # strict: exact types survive
    for name in set(columns) - {"v"}:
        assert read[name].to_pylist() == table[name].to_pylist()
    batches = list(vs.parquet.iter_batches(path, batch_size=37))
    assert max(b.num_rows for b in batches) == 37
    got = pa.concat_arrays([b.column(b.schema.get_field_index("v")) for b in batches])
    assert decode_column(got) == decode_column(v)


def _ints_file(tmp_path):
    docs = ([json.dumps({"id": i}) for i in range(10)] +            # rg 0: 0..9 typed
            [json.dumps({"id": i}) for i in range(100, 110)] +      # rg 1: 100..109 typed
            [json.dumps({"id": i}) for i in range(9)] + ['{"id": "500"}'])  # rg 2: a string
    path = str(tmp_path / "ids.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(docs)}), path,
                           shredding={"v": "struct<id: bigint>"}, row_group_size=10)
    return path, docs


@pytest.mark.parametrize("op,literal", [("==", 5), ("==", 500), (">", 50), ("<", 3),
                                        (">=", 109), ("<=", 0)])
def test_pruning_never_skips_a_matching_row(tmp_path, op, literal):
    path, docs = _ints_file(tmp_path)
    skipped = vs.parquet.prunable_row_groups(path, "v", "id", op, literal)
    ids = vs.variant_get(vs.from_json(docs), "$.id", "bigint").to_pylist()  # "500" -> 500
    import operator
    cmp = {"==": operator.eq, ">": operator.gt, "<": operator.lt, ">=": operator.ge,
           "<=": operator.le}[op]
    for g in skipped:
        assert not any(x is not None and cmp(x, literal) for x in ids[g * 10:(g + 1) * 10])
    # Row group 2 holds a value outside the typed column: never skipped.
    assert 2 not in skipped


def test_pruning_skips_what_statistics_exclude(tmp_path):
    path, _ = _ints_file(tmp_path)
    assert vs.parquet.prunable_row_groups(path, "v", "id", "==", 500) == [0, 1]
    assert vs.parquet.prunable_row_groups(path, "v", "id", ">", 50) == [0]


@pytest.mark.parametrize("typed", ["date", "timestamp", "timestamp_ntz"])
def test_pruning_keeps_row_groups_whose_bounds_python_cannot_hold(tmp_path, typed):
    """Statistics of years outside 1-9999 (which Spark and DuckDB write) made every
    filter on the path fail with OverflowError: such a row group is kept."""
    day = 86_400_000_000
    arrow_type, far, near, literal, before = {
        "date": (pa.date32(), 2_932_897, 1, dt.date(2000, 1, 1), 2),  # +10000-01-01
        "timestamp": (pa.timestamp("us", "UTC"), -62_167_219_200_000_000, day,
                      dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc), 3),  # year 0
        "timestamp_ntz": (pa.timestamp("us"), 2_932_897 * day, day, dt.datetime(2000, 1, 1),
                          2),
    }[typed]
    v = vs.from_arrow(pa.table({"d": pa.array([far, near, near], arrow_type)}))
    path = str(tmp_path / "far.parquet")
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": f"struct<d: {typed}>"},
                           row_group_size=2)
    assert vs.parquet.prunable_row_groups(path, "v", "$.d", "<", literal) == []
    got = vs.parquet.read_table(path, filter=("$.d", "<", literal))
    assert got.num_rows == before


def test_read_paths_reads_only_its_chunks(tmp_path):
    path = str(tmp_path / "p.parquet")
    v = vs.from_python(EVERY_TYPE * 3)
    vs.parquet.write_table(pa.table({"v": v}), path, shredding={"v": SCHEMA})
    cols = vs.parquet._path_columns(path, "v", ["obj", "y", "z"])
    names = [pq.ParquetFile(path).schema.column(i).path for i in cols.leaves]
    assert names == ["v.metadata", "v.value", "v.typed_value.obj.value",
                     "v.typed_value.obj.typed_value.y.value",
                     "v.typed_value.obj.typed_value.y.typed_value.z.value",
                     "v.typed_value.obj.typed_value.y.typed_value.z.typed_value"]
    out = vs.parquet.read_paths(path, "v", {"obj.y.z": "string", "i64": "bigint",
                                            "b": "boolean"})
    assert out["obj.y.z"].to_pylist()[:6] == ["deep", None, None, None, None, None]
    assert out["b"].to_pylist()[:2] == [True, None]
    full = vs.variant_get(v, "$.i64", "bigint").to_pylist()
    assert out["i64"].to_pylist() == full


def test_legacy_files_are_read(tmp_path):
    md = b"\x01\x00\x00"
    a_group = pa.StructArray.from_arrays(
        [pa.array([None, md + b"\x0d1.2"], pa.binary()), pa.array([123, None], pa.int64())],
        ["untyped_value", "typed_value"])
    col = pa.StructArray.from_arrays(
        [pa.array([None, None], pa.binary()), pa.StructArray.from_arrays([a_group], ["a"])],
        ["untyped_value", "object"])
    path = str(tmp_path / "legacy.parquet")
    pq.write_table(pa.table({"v": col}), path)
    assert vs.parquet.inspect(path)[0].layout == "legacy"
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == [
        '{"a":123}', '{"a":"1.2"}']
    got = vs.parquet.read_paths(path, "v", {"a": "bigint", "$.a": "string", "b": None})
    assert got.column(0).to_pylist() == [123, None]
    assert got.column(1).to_pylist() == ["123", "1.2"]
    assert got.column(2).to_pylist() == [None, None]


def test_bad_files_give_clear_errors(tmp_path):
    text = tmp_path / "text.parquet"
    text.write_text("not parquet")
    with pytest.raises(vs.VariantError, match="text.parquet"):
        vs.parquet.read_table(str(text))
    # Corrupt Variant bytes inside a valid Parquet file.
    bad = pa.StructArray.from_arrays([pa.array([b"\x01\x00\x00"]), pa.array([b"\x02\x05"])],
                                     ["metadata", "value"])
    path = str(tmp_path / "corrupt.parquet")
    pq.write_table(pa.table({"v": bad}), path)
    with pytest.raises(vs.VariantError, match="row 0"):
        vs.parquet.read_table(path)
    # An unsupported typed_value type (unsigned) in a shredded file.
    unsigned = pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00"]), pa.array([None], pa.binary()), pa.array([1], pa.uint32())],
        ["metadata", "value", "typed_value"])
    path = str(tmp_path / "unsigned.parquet")
    pq.write_table(pa.table({"v": unsigned}), path)
    with pytest.raises((vs.VariantError, TypeError)):
        vs.parquet.read_table(path)


def test_failed_write_leaves_nothing(tmp_path):
    bad = pa.StructArray.from_arrays([pa.array([b"\x01\x00\x00"] * 2),
                                      pa.array([b"\x00", b"\x02\x05"])], ["metadata", "value"])
    with pytest.raises(vs.VariantError, match="row 1"):
        vs.parquet.write_table(pa.table({"v": bad}), str(tmp_path / "x.parquet"),
                               shredding={"v": "struct<a: int>"})
    assert os.listdir(tmp_path) == []
    with pytest.raises(RuntimeError):
        with vs.parquet.ParquetWriter(str(tmp_path / "y.parquet"),
                                      pa.schema({"v": vs.variant_type()})) as w:
            w.write_batch(pa.record_batch({"v": vs.from_json(["1"])}))
            raise RuntimeError("stop")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("shredding", [None, "struct<a: int>"])
def test_null_rows_of_a_non_nullable_variant_field_are_refused(tmp_path, shredding):
    # pyarrow does not check the flag; the required group it asks for crashed the
    # writer in Parquet C++'s encoder until 2026-11-30.
    v = vs.from_json(pa.array(['{"a": 1}', None, "[3]"]))
    table = pa.table({"v": v}, schema=pa.schema([pa.field("v", v.type, nullable=False)]))
    path = str(tmp_path / "x.parquet")
    with pytest.raises(vs.VariantError, match='column "v", row 1: SQL NULL'):
        vs.parquet.write_table(table, path, shredding={"v": shredding} if shredding else None)
    assert os.listdir(tmp_path) == []
    vs.parquet.write_table(table.slice(2), path, shredding={"v": shredding} if shredding else None)
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == ["[3]"]


@pytest.mark.parametrize("batch_size", [0, -1])
def test_iter_batches_needs_a_positive_batch_size(tmp_path, batch_size):
    # 0 read no rows at all (no error), -1 called the file corrupt, until 2026-11-30.
    path = str(tmp_path / "x.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(["1", "2"])}), path)
    with pytest.raises(ValueError, match="batch_size must be positive"):
        list(vs.parquet.iter_batches(path, batch_size=batch_size))


def test_a_corrupt_value_count_in_the_footer_is_an_error_not_fewer_rows(tmp_path):
    # One flipped bit made a column chunk's value count negative: Parquet C++ then read
    # that row group as empty, and read_table returned 20 of 30 rows, until 2026-11-30.
    import struct

    path, bad = str(tmp_path / "ok.parquet"), str(tmp_path / "bad.parquet")
    table = pa.table({"k": pa.array(range(30), pa.int64()),
                      "v": vs.from_json(pa.array([f'{{"a": {i}}}' for i in range(30)]))})
    vs.parquet.write_table(table, path, shredding={"v": "struct<a: bigint>"},
                           row_group_size=10, compression="none")
    data = open(path, "rb").read()
    footer = struct.unpack("<I", data[-8:-4])[0]
    for at in range(len(data) - 8 - footer, len(data) - 8):
        flipped = bytearray(data)
        flipped[at] ^= 1
        open(bad, "wb").write(flipped)
        try:
            if pq.ParquetFile(bad).metadata.row_group(1).column(0).num_values < 0:
                break
        except Exception:
            continue
    else:
        pytest.fail("no flip of the footer makes a negative value count")
    for read in (lambda: vs.parquet.read_table(bad),
                 lambda: vs.parquet.read_table(bad, columns=["k"], threads=2),
                 lambda: vs.parquet.read_paths(bad, "v", {"a": "bigint"})):
        with pytest.raises(vs.VariantError, match="bad.parquet: corrupt footer: row group 1"):
            read()


def test_a_column_name_that_is_not_utf8_is_a_clear_error(tmp_path):
    # pyarrow's metadata raised a bare UnicodeDecodeError, until 2026-11-30.
    import struct

    path = str(tmp_path / "x.parquet")
    vs.parquet.write_table(pa.table({"colname": [1], "v": vs.from_json(["1"])}), path)
    data = bytearray(open(path, "rb").read())
    footer = struct.unpack("<I", data[-8:-4])[0]
    data[data.find(b"colname", len(data) - 8 - footer) + 1] = 0x9A
    open(path, "wb").write(data)
    for read in (vs.parquet.read_table, vs.parquet.inspect, vs.parquet.shredding_counts):
        with pytest.raises(vs.VariantError, match="x.parquet: column name is not UTF-8"):
            read(path)


def test_close_after_a_failed_write_says_nothing_was_written(tmp_path):
    # A caller who caught the failed write and went on had close() return quietly,
    # with no file written, until 2026-11-30.
    path = str(tmp_path / "x.parquet")
    w = vs.parquet.ParquetWriter(path, pa.schema([("v", vs.variant_type())]))
    w.write_json([f'{{"a": {i}}}' for i in range(1000)])
    with pytest.raises(vs.VariantError):
        w.write_json(['{"a": 1}', "{bad json"])
    with pytest.raises(vs.VariantError, match="nothing was written"):
        w.close()
    assert os.listdir(tmp_path) == []
    w = vs.parquet.ParquetWriter(path, pa.schema([("v", vs.variant_type())]))
    w.abort()
    w.close()  # the caller's own abort: nothing to report


def test_num_rows_counts_what_the_file_holds_after_close(tmp_path):
    table = pa.table({"v": vs.from_json(["1", "2", "3"])})
    w = vs.parquet.ParquetWriter(str(tmp_path / "a.parquet"), table.schema)
    w.write_table(table)
    assert w.num_rows == 3
    w.close()
    assert w.num_rows == 3 == pq.read_metadata(str(tmp_path / "a.parquet")).num_rows
    w = vs.parquet.ParquetWriter(str(tmp_path / "b.parquet"), table.schema)
    w.write_table(table)
    w.abort()
    assert w.num_rows == 0


def test_a_shredded_column_name_must_be_unique(tmp_path):
    v = vs.from_json(['{"a": 1}'])
    table = pa.Table.from_arrays([v, v], names=["v", "v"])
    with pytest.raises(vs.VariantError, match='"v", which the table has 2 times'):
        vs.parquet.write_table(table, str(tmp_path / "t.parquet"),
                               shredding={"v": "struct<a: bigint>"})
    assert os.listdir(tmp_path) == []


def test_the_writer_reports_the_types_it_validated(tmp_path):
    schema = pa.schema({"v": vs.variant_type(), "j": vs.variant_type()})
    plain = vs.from_python([{"a": 1, "b": [2.5, "x"]}, None])
    timed = vs.from_python([{"a": dt.time(1, 2), "b": dt.date(2024, 1, 2)}, {"a": b"\x00"}])
    with vs.parquet.ParquetWriter(str(tmp_path / "t.parquet"), schema,
                                  shredding={"v": "struct<a: bigint>"},
                                  trusted_columns=["j"]) as w:
        assert w.types_written("v") == frozenset()
        w.write_batch(pa.record_batch([plain, plain], schema=schema))
        assert w.types_written("v") == {"int8", "double", "string"}
        w.write_batch(pa.record_batch([timed, timed], schema=schema))
        # shredded or residual alike, and merged over the batches
        assert w.types_written("v") == {"int8", "double", "string", "time", "date",
                                        "binary"}
        assert w.types_written("j") is None  # trusted: never walked
        assert w.types_written("nope") is None


def test_read_paths_takes_spark_path_syntax(tmp_path):
    docs = ['{"k sp": {"x.y": [10, 20]}, "a": 1}', '{"k sp": {"x.y": "no"}}', '{"a": 2}']
    path = str(tmp_path / "p.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_json(docs)}), path,
                           shredding={"v": "struct<`k sp`: struct<`x.y`: array<bigint>>>"})
    got = vs.parquet.read_paths(path, "v", {"$['k sp'][\"x.y\"][1]": "bigint",
                                            "$['k sp']": None, "a": "int"})
    assert got.column(0).to_pylist() == [20, None, None]
    assert vs.to_json(got.column(1)).to_pylist() == ['{"x.y":[10,20]}', '{"x.y":"no"}', None]
    assert got.column(2).to_pylist() == [1, None, 2]


def test_shredding_counts_come_from_footers(tmp_path):
    docs = ['{"a": 1, "t": [1, "x", 3]}', '{"a": "s", "t": []}', None, '[1]',
            '{"o": {"b": 2}}'] * 4
    path = str(tmp_path / "c.parquet")
    table = pa.table({"v": vs.from_json(docs)})
    schema = "struct<a: bigint, t: array<bigint>, o: struct<b: int>>"
    vs.parquet.write_table(table, path, shredding={"v": schema}, row_group_size=7)
    counts = {c.path: c for c in vs.parquet.shredding_counts([path, path])}
    got = {p: (c.typed_type, c.typed, c.residual) for p, c in counts.items()}
    assert got == {"$": ("object", 0, 2 * 4), "a": ("int64", 2 * 4, 2 * 4),
                   "t": ("array", 0, 0), "t[]": ("int64", 2 * 8, 2 * 4),
                   "o": ("object", 0, 0), "o.b": ("int32", 2 * 4, 0)}
    assert counts["a"].typed_share == 0.5 and counts["o"].typed_share is None
    # Without statistics nothing can be counted from the footer.
    bare = str(tmp_path / "bare.parquet")
    vs.parquet.write_table(table, bare, shredding={"v": schema}, statistics=False)
    assert vs.parquet.shredding_counts(bare) == []


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_write_json_one_call_json_to_shredded_file(tmp_path, threads):
    docs = [json.dumps({"id": i, "tags": ["a"] * (i % 3), "s": "x" * (i % 70)})
            for i in range(5000)] + ["[1]", "null"]
    path = str(tmp_path / "j.parquet")
    n = vs.parquet.write_json(pa.array(docs), path, column="doc", chunk_rows=700,
                              threads=threads)
    assert n == len(docs)
    assert [c.layout for c in vs.parquet.inspect(path)] == ["shredded"]
    back = vs.parquet.read_table(path)["doc"]
    assert vs.to_json(back).to_pylist() == vs.to_json(vs.from_json(docs)).to_pylist()
    counts = {c.path: c for c in vs.parquet.shredding_counts(path)}
    assert counts["id"].typed == 5000


def test_write_json_keeps_each_rows_keys(tmp_path):
    """A row took the previous row's metadata dictionary when both encodings had the
    same size: {"id":1,"o":1,"A":1} came back as {"id":1,"n":1,"o":1}, in DuckDB too."""
    docs = ['{"A":1}', '{"n":1}'] * 3 + ['{"id":1,"o":1,"A":1,"n":1}',
                                         '{"id":1,"o":1,"n":1}', '{"id":1,"o":1,"A":1}']
    path = str(tmp_path / "k.parquet")
    with vs.parquet.ParquetWriter(path, pa.schema([("v", vs.variant_type())]),
                                  shredding={"v": "struct<o: bigint>"}) as w:
        w.write_json(docs)
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == \
        vs.to_json(vs.from_json(docs)).to_pylist()


def test_write_json_calls_with_other_options_keep_each_rows_fields(tmp_path):
    """A call with other parse options makes a new JSON reader, whose dictionary epochs
    restarted at those of the first: the schema's per-key-id cache then sent "a" to
    o's column and "o" to a's, or wrote a file the reader refused (JSON writer probe)."""
    for ddl, options in [("struct<o: bigint, a: bigint>", {"numbers": "double"}),
                         ("struct<o: bigint>", {"duplicate_keys": "last"})]:
        path = str(tmp_path / "o.parquet")
        first, second = ['{"o":1,"a":2}', '{"o":3,"a":4}'], ['{"a":10,"o":20}',
                                                             '{"a":30,"o":40}']
        with vs.parquet.ParquetWriter(path, pa.schema([("v", vs.variant_type())]),
                                      shredding={"v": ddl}) as w:
            w.write_json(first)
            w.write_json(second, **options)
        assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == \
            ['{"a":2,"o":1}', '{"a":4,"o":3}', '{"a":10,"o":20}', '{"a":30,"o":40}']


def test_write_json_errors_and_empty_input(tmp_path):
    path = str(tmp_path / "e.parquet")
    with pytest.raises(vs.VariantError, match="row 1"):
        vs.parquet.write_json(iter(['{"a": 1}', "{oops", '{"a": 2}']), path, chunk_rows=1,
                              shredding="a int")
    assert not os.path.exists(path)
    n = vs.parquet.write_json(iter(['{"a": 1}', "{oops", '{"a": 2}']), path,
                              shredding="a int", errors="null")
    assert n == 3
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == [
        '{"a":1}', None, '{"a":2}']
    empty = str(tmp_path / "empty.parquet")
    assert vs.parquet.write_json([], empty) == 0
    assert vs.parquet.read_table(empty).num_rows == 0


def test_each_typed_leaf_gets_the_encoding_its_values_favour(tmp_path):
    # docs/shredding.md#storage: sequential ids and times take deltas, few distinct
    # counts and codes a dictionary, unique strings PLAIN. Every reader reads them.
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    rng = random.Random(7)
    prices = [Decimal("1.25"), Decimal("9.99"), Decimal("19.50")]
    docs = [{"id": i, "t": start + dt.timedelta(seconds=i), "p": rng.choice(prices),
             "n": rng.choice([3, 70, 900, 12000]), "r": rng.randrange(1 << 40),
             "s": "x", "u": f"user-{rng.randrange(1 << 60)}", "f": 0.5}
            for i in range(5000)]
    path = str(tmp_path / "enc.parquet")
    vs.parquet.write_table(pa.table({"v": vs.from_python(docs)}), path,
                           shredding={"v": "struct<id: bigint, t: timestamp, p: decimal(5,2), "
                                           "n: bigint, r: bigint, s: string, u: string, "
                                           "f: double>"})
    md = pq.ParquetFile(path).metadata.row_group(0)
    enc = {md.column(c).path_in_schema: md.column(c).encodings for c in range(md.num_columns)}
    for leaf in ("id", "t", "r"):
        assert enc[f"v.typed_value.{leaf}.typed_value"] == ("RLE", "DELTA_BINARY_PACKED"), enc
    for leaf in ("p", "n", "s", "f"):
        assert "RLE_DICTIONARY" in enc[f"v.typed_value.{leaf}.typed_value"], enc
    assert "RLE_DICTIONARY" not in enc["v.typed_value.u.typed_value"], enc
    back = vs.to_python(vs.parquet.read_table(path)["v"].combine_chunks())
    assert back == docs
    duckdb = pytest.importorskip("duckdb")
    assert duckdb.sql(f"SELECT sum(v.id::BIGINT), sum(v.n::BIGINT), count(DISTINCT v.u) "
                      f"FROM read_parquet('{path}')").fetchall()[0] \
        == (sum(range(5000)), sum(d["n"] for d in docs), 5000)


def test_write_json_infers_from_the_whole_input_not_its_head(tmp_path):
    # The first chunk has integer ids, the three after it string ids: the sample spread
    # over the input sees the majority (it types strings), the head alone would not.
    docs = pa.array([json.dumps({"id": i if i < 100 else f"s{i}"}) for i in range(400)])
    path = str(tmp_path / "w.parquet")
    vs.parquet.write_json(docs, path, chunk_rows=100)
    typed = pq.read_table(path)["v"].combine_chunks().field("typed_value").field("id")
    assert typed.type.field("typed_value").type == pa.string()
    assert typed.field("typed_value").null_count == 100


def test_write_json_spreads_its_sample_over_every_chunk_of_a_chunked_array(tmp_path):
    # A chunked input is sampled chunk by chunk (a take on the whole would concatenate
    # it first): the chunks after the first, with string ids, carry the inference.
    parts = [[json.dumps({"id": i if c == 0 else f"s{i}"}) for i in range(100)]
             for c in range(4)]
    docs = pa.chunked_array([pa.array(p) for p in parts])
    path = str(tmp_path / "c.parquet")
    vs.parquet.write_json(docs, path, chunk_rows=100)
    typed = pq.read_table(path)["v"].combine_chunks().field("typed_value").field("id")
    assert typed.type.field("typed_value").type == pa.string()
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == [
        d for p in parts for d in vs.to_json(vs.from_json(p)).to_pylist()]


def test_write_json_samples_an_arrow_input_without_importing_pandas(tmp_path):
    # The inference sample of an Arrow input is cut in runs, not taken by an index array
    # built from Python integers: pa.array() on those imports pandas (a fresh process
    # paid about 0.2 s for it on its first write_json).
    pytest.importorskip("pandas")
    script = f"""
import sys
from array import array
import pyarrow as pa
import varshred as vs
lines = [b'{{"id": %d, "s": "x%d"}}' % (i, i) for i in range(5000)]
offsets = array("i", [0])
for line in lines:
    offsets.append(offsets[-1] + len(line))
strings = pa.Array.from_buffers(pa.string(), len(lines),
                                [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(lines))])
assert vs.parquet.write_json(strings, {str(tmp_path / "w.parquet")!r}, chunk_rows=500) == 5000
print("pandas" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


def test_the_sample_of_write_json_comes_from_every_part_of_its_input():
    docs = pa.chunked_array([pa.array([str(i) for i in range(c, c + 250)])
                             for c in range(0, 1000, 250)])
    sample = vs.parquet._spread(docs, 300)
    values = [int(x) for x in sample.to_pylist()]
    assert len(values) == len(set(values)) == 300
    assert all(any(q <= x < q + 100 for x in values) for q in range(0, 1000, 100))
    assert vs.parquet._spread(docs, 5000).to_pylist() == docs.to_pylist()
    assert vs.parquet._spread(docs, 0).to_pylist() == []


@pytest.mark.parametrize("source", ["array", "iterable"])
def test_write_json_bounds_its_memory_by_bytes_not_rows(tmp_path, source):
    # Wide rows: chunks of about chunk_bytes of JSON, row groups of about row_group_bytes
    # (incompressible text, so that the compressed pages are what the rows weigh).
    rng = random.Random(5)
    docs = [json.dumps({"id": i, "text": "".join(rng.choices(string.ascii_letters, k=4000))})
            for i in range(400)]
    path = str(tmp_path / "w.parquet")
    n = vs.parquet.write_json(pa.array(docs) if source == "array" else iter(docs), path,
                              chunk_bytes=100_000, sample_bytes=200_000,
                              row_group_bytes=400_000, threads=2)
    assert n == 400
    md = pq.ParquetFile(path).metadata
    assert 3 <= md.num_row_groups <= 6, md.num_row_groups
    for g in range(md.num_row_groups):
        rg = md.row_group(g)
        assert sum(rg.column(c).total_compressed_size for c in range(rg.num_columns)) < 600_000
    assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == \
        vs.to_json(vs.from_json(docs)).to_pylist()
    counts = {c.path: c for c in vs.parquet.shredding_counts(path)}
    assert counts["text"].typed == 400


def test_write_json_infers_the_same_schema_whatever_its_threads(tmp_path):
    # The sample is parsed and counted in `threads` parts whose statistics merge: the
    # schema is the one a single pass over the same sample infers.
    rng = random.Random(11)
    docs = pa.array([json.dumps({"id": i, "p": rng.choice([1, 2.5, "x", None]),
                                 "o": {"k": rng.randrange(100)} if i % 3 else [i]})
                     for i in range(3000)])
    schemas = []
    for threads in (1, 2, 3):
        path = str(tmp_path / f"t{threads}.parquet")
        vs.parquet.write_json(docs, path, chunk_rows=500, threads=threads)
        schemas.append(pq.read_schema(path))
    sample = vs.parquet._spread(docs, 500)
    expected = vs.infer_schema(vs.from_json(sample)).to_ddl()
    assert schemas[0] == schemas[1] == schemas[2]
    path = str(tmp_path / "expected.parquet")
    vs.parquet.write_json(docs, path, shredding=expected, threads=1)
    assert pq.read_schema(path) == schemas[0]


_VARIANT_EXTENSION_SCRIPT = r"""
import sys
import pyarrow as pa
import varshred as vs
sys.path.insert(0, sys.argv[2])
from variant_extension import VariantExtensionType

pa.register_extension_type(VariantExtensionType(vs.variant_type()))
v = vs.from_json(pa.array(['{"a": 1}', None, '{"a": "x"}']))
column = pa.ExtensionArray.from_storage(VariantExtensionType(v.type), v)
out = sys.argv[1]
vs.parquet.write_table(pa.table({"v": column}), out + "/plain.parquet")
vs.parquet.write_table(pa.table({"v": column}), out + "/shredded.parquet",
                       shredding={"v": "struct<a: bigint>"})
for name in ("plain", "shredded"):
    print(vs.to_json(vs.parquet.read_table(f"{out}/{name}.parquet")["v"]).to_pylist())
nested = pa.StructArray.from_arrays([column], ["v"])
try:
    vs.parquet.write_table(pa.table({"s": nested}), out + "/nested.parquet")
except TypeError as e:
    print("TypeError", e)
"""


def test_the_variant_extension_type_is_written_as_a_variant_column(tmp_path):
    """A pyarrow-registered ``arrow.parquet.variant`` column is a Variant column (Parquet
    C++ took it for its own class and crashed the process); nested in a struct, where
    varshred writes no Variant, it is a TypeError."""
    run = subprocess.run([sys.executable, "-c", _VARIANT_EXTENSION_SCRIPT, str(tmp_path),
                          os.path.dirname(__file__)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert lines[:2] == ["['{\"a\":1}', None, '{\"a\":\"x\"}']"] * 2
    assert lines[2].startswith("TypeError") and "top-level" in lines[2]
    assert not (tmp_path / "nested.parquet").exists()


@pytest.mark.parametrize("shredded", [False, True])
def test_write_errors_name_the_column_and_the_row_of_the_table(tmp_path, shredded):
    # A table of several batches: the row counts from the table's start, whether the
    # input column is shredded (rebuilt before it is written) or not.
    v = vs.from_json(['{"id": 1}', '{"id": 2}', '{"id": 3}', '"ok"', '"bad"', '{"id": 6}'])
    col = vs.shred(v, "struct<id: bigint>") if shredded else v
    values = col.field("value").to_pylist()
    values[4] = b"\x19\x01"  # a short string of 6 bytes with 1 present
    kids = [pa.array(values, pa.binary()) if f.name == "value" else col.field(f.name)
            for f in col.type]
    bad = pa.StructArray.from_arrays(kids, fields=list(col.type))
    table = pa.Table.from_batches([pa.record_batch([bad.slice(0, 3)], names=["v"]),
                                   pa.record_batch([bad.slice(3)], names=["v"])])
    with pytest.raises(vs.VariantError, match='column "v", row 4[:,] '):
        vs.parquet.write_table(table, str(tmp_path / "x.parquet"))
    assert not os.listdir(tmp_path)


def test_pages_too_small_for_parquet_cpp_are_refused(tmp_path):
    # Below about 30 bytes Parquet C++ writes empty pages in repeated columns, which
    # Spark and pyarrow refuse: such a size is refused before any row.
    docs = ["[3]", "[1, 2]"]
    with pytest.raises(vs.VariantError, match="data_page_size must be at least 1024"):
        vs.parquet.write_json(docs, str(tmp_path / "x.parquet"), shredding="array<bigint>",
                              data_page_size=10)
    assert not os.listdir(tmp_path)
    path = str(tmp_path / "y.parquet")
    vs.parquet.write_json(docs * 500, path, shredding="array<bigint>", data_page_size=1024)
    assert pq.read_table(path).num_rows == 1000
    assert vs.to_python(vs.parquet.read_table(path)["v"])[:2] == [[3], [1, 2]]


def test_a_file_whose_column_ends_early_is_refused_not_short(tmp_path):
    # pyarrow writes such a file with tiny DELTA_BINARY_PACKED pages; Parquet C++ then
    # reads the list column as no rows, without an error.
    t = pa.table({"l": pa.array([[3]], pa.list_(pa.int64())), "v": vs.from_json(['{"a": 1}'])})
    path = str(tmp_path / "x.parquet")
    pq.write_table(t, path, data_page_size=10, use_dictionary=False,
                   column_encoding={"l.list.element": "DELTA_BINARY_PACKED"})
    with pytest.raises(vs.VariantError, match="corrupt file: 0 rows read of the 1 its "
                                              "footer lists"):
        vs.parquet.read_table(path)


def test_a_call_refused_before_it_writes_keeps_the_writer(tmp_path):
    schema = pa.schema([("v", vs.variant_type())])
    path = str(tmp_path / "x.parquet")
    with vs.parquet.ParquetWriter(path, schema) as w:
        w.write_json(['{"a": 1}'])
        with pytest.raises(TypeError, match="batch schema"):
            w.write_batch(pa.record_batch([pa.array([1])], names=["n"]))
        w.write_json(['{"a": 2}'])
    assert vs.to_python(vs.parquet.read_table(path)["v"]) == [{"a": 1}, {"a": 2}]


def test_a_signal_handler_may_close_the_writer_during_a_batch_export(tmp_path):
    # The batch is exported before the writer's lock is taken: an export running Python
    # code, interrupted by a handler that closes the writer, does not deadlock.
    schema = pa.schema([("v", vs.variant_type())])
    batch = pa.record_batch([vs.from_json(['{"id": 1}'])], schema=schema)
    w = vs.parquet.ParquetWriter(str(tmp_path / "x.parquet"), schema)
    w.write_batch(batch)

    class Producer:
        def __arrow_c_array__(self, requested_schema=None):
            w.close()  # as a signal handler on this thread would
            return batch.__arrow_c_array__(requested_schema)

    with pytest.raises(vs.VariantError, match="closed"):
        w.write_batch(Producer())
    assert vs.parquet.read_table(str(tmp_path / "x.parquet")).num_rows == 1


@pytest.mark.parametrize("option", ["chunk_rows", "chunk_bytes"])
def test_write_json_chunks_of_no_rows_are_refused(tmp_path, option):
    with pytest.raises(ValueError, match=f"{option} must be at least 1, got 0"):
        vs.parquet.write_json(iter(['{"a": 1}']), str(tmp_path / "x.parquet"), **{option: 0})


@pytest.mark.parametrize("compression,level,message", [
    ("gzip", 20, "compression_level 20 is outside 1..9 for gzip"),
    ("zstd", 100, "compression_level 100 is outside -131072..22 for zstd"),
    ("lz4", 99, "compression_level 99 is outside 1..12 for lz4"),
    ("snappy", 5, "compression snappy takes no compression_level"),
])
def test_compression_levels_are_checked_before_any_row(tmp_path, compression, level,
                                                       message):
    with pytest.raises(vs.VariantError, match=message):
        vs.parquet.write_json(['{"a": 1}'], str(tmp_path / "x.parquet"),
                              compression=compression, compression_level=level)
    assert not os.listdir(tmp_path)
    vs.parquet.write_json(['{"a": 1}'], str(tmp_path / "y.parquet"), compression="zstd",
                          compression_level=22)


@pytest.mark.parametrize("docs", [['{"a": 1, "a": 2}'] * 3,
                                  [json.dumps({"i": i}) for i in range(200)]
                                  + ['{"a": 1, "a": 2}']])
def test_write_json_takes_duplicate_keys(tmp_path, docs):
    path = str(tmp_path / "x.parquet")
    with pytest.raises(vs.VariantError, match="duplicate"):
        vs.parquet.write_json(docs, str(tmp_path / "refused.parquet"), chunk_rows=100)
    vs.parquet.write_json(docs, path, duplicate_keys="last", chunk_rows=100)
    assert vs.to_python(vs.parquet.read_table(path)["v"])[-1] == {"a": 2}
