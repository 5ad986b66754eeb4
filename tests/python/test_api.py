# Licensed under the Apache License, Version 2.0.
"""The Python API's conventions: one name for Variant input (``variants``) with the
old keyword spellings deprecated, type names and the Variant-column test answered by
the C++ library (one parser, one rule), results built through pyarrow's public
PyCapsule importers."""

from __future__ import annotations

import datetime
import decimal

import pyarrow as pa
import pytest

import varshred as vs
from varshred.get import arrow_type


@pytest.fixture
def variants():
    return vs.from_python([{"a": 1, "t": datetime.date(2024, 1, 2)}, {"a": "x"}, None])


def test_variant_get_type_keyword_is_deprecated(variants):
    with pytest.warns(DeprecationWarning, match="type= is deprecated, use target_type="):
        old = vs.variant_get(variants, "$.a", type="bigint")
    assert old.to_pylist() == [1, None, None]
    assert vs.variant_get(variants, "$.a", target_type="bigint").equals(old)
    assert vs.variant_get(variants, "$.a", "bigint").equals(old)
    with pytest.raises(TypeError, match="both type= and target_type="):
        vs.variant_get(variants, "$.a", type="bigint", target_type="bigint")


def test_variant_input_is_named_variants_everywhere(variants):
    shredded = vs.shred(variants, "struct<a: bigint>")
    rebuilt = vs.unshred(variants=shredded)
    assert vs.to_python(rebuilt) == vs.to_python(variants)
    with pytest.warns(DeprecationWarning, match="shredded= is deprecated"):
        assert vs.unshred(shredded=shredded).equals(rebuilt)
    schema = vs.infer_schema(variants=variants)
    with pytest.warns(DeprecationWarning, match="variants_or_batches= is deprecated"):
        assert vs.infer_schema(variants_or_batches=variants) == schema
    merged = vs.schema_of_variant_agg(variants=variants)
    with pytest.warns(DeprecationWarning, match="variants_or_batches= is deprecated"):
        assert vs.schema_of_variant_agg(variants_or_batches=variants) == merged
    # Not the legacy layout: the error shows the argument arrived under either name.
    with pytest.raises(TypeError, match="seed-layout group"):
        vs.from_legacy_shredded(variants=variants)
    with pytest.warns(DeprecationWarning, match="array= is deprecated"), \
            pytest.raises(TypeError, match="seed-layout group"):
        vs.from_legacy_shredded(array=variants)


def test_options_are_checked_with_their_valid_values(variants):
    with pytest.raises(ValueError, match="errors must be 'null' or 'raise', got 'x'"):
        vs.variant_get(variants, "$.a", "bigint", errors="x")
    with pytest.raises(ValueError, match="layout must be 'canonical' or 'spark'"):
        vs.to_layout(variants, "other")
    with pytest.raises(TypeError, match="numeric must be a str"):
        vs.shred(variants, "a bigint", numeric=1)
    with pytest.raises(TypeError):
        vs.shred(variants, "a bigint", "strict")  # options are keyword-only


@pytest.mark.parametrize("name,expected", [
    ("bigint", pa.int64()), ("LONG", pa.int64()), (" int ", pa.int32()),
    ("decimal(9,2)", pa.decimal128(9, 2)), ("dec(5)", pa.decimal128(5, 0)),
    ("numeric", pa.decimal128(10, 0)), ("timestamp", pa.timestamp("us", tz="UTC")),
    ("timestamp_ntz", pa.timestamp("us")), ("string", pa.string()), ("variant", None)])
def test_type_names_are_parsed_by_the_shredding_schema_parser(name, expected):
    assert arrow_type(name) == expected
    if expected is not None:  # the same reading as a shredding schema's leaf
        leaf = vs.ShreddingSchema.parse(name).typed_value_type()
        if pa.types.is_decimal(expected):  # a leaf is as narrow as its precision allows
            assert (leaf.precision, leaf.scale) == (expected.precision, expected.scale)
        else:
            assert leaf == expected


@pytest.mark.parametrize("name", ["bool", "bigintt", "array<intt>", "struct<a int, a int>"])
def test_type_names_spark_does_not_know_are_errors(variants, name):
    # "bool" is not a Spark type name (BOOLEAN is); nor are arrays of unknown types and
    # structs naming a field twice.
    with pytest.raises(vs.VariantError, match=f"variant_get type '{name}'"):
        vs.variant_get(variants, "$.a", name)


def test_type_names_take_sqls_spellings_of_time_types():
    # Spark 4.3 takes them as variant_get types (checked on Spark 4.3, 2026-11-30).
    assert arrow_type("time(6)") == arrow_type("time")
    assert arrow_type("timestamp with local time zone") == arrow_type("timestamp")
    assert arrow_type("TIMESTAMP WITHOUT TIME ZONE") == arrow_type("timestamp_ntz")
    docs = vs.from_json(['"12:30"', '"2024-07-01 12:30:00"'])
    assert vs.variant_get(docs, "$", "timestamp without time zone").to_pylist() == \
        vs.variant_get(docs, "$", "timestamp_ntz").to_pylist()
    with pytest.raises(vs.VariantError, match="only TIME\\(6\\)"):
        arrow_type("time(3)")


def test_type_names_take_sparks_field_options_as_spark_does():
    # StructType.toDDL writes NOT NULL and COMMENT, and Spark 4 strings may carry a
    # collation: Spark's variant_get accepts them and its result is nullable all the same
    # (checked on Spark 4.3). A shredding schema refuses NOT NULL.
    docs = vs.from_json(['{"a": 5, "b": "Q"}', '{"b": "x"}'])
    ddl = "struct<a: INT NOT NULL COMMENT 'the id', b: string COLLATE UTF8_LCASE>"
    assert arrow_type(ddl) == pa.struct([("a", pa.int32()), ("b", pa.string())])
    assert vs.variant_get(docs, "$", ddl).to_pylist() == [
        {"a": 5, "b": "Q"}, {"a": None, "b": "x"}]
    assert arrow_type("string collate UTF8_LCASE") == pa.string()
    with pytest.raises(vs.VariantError, match="NOT NULL: a shredded field is always "
                                              "nullable"):
        vs.ShreddingSchema.parse(ddl)
    assert vs.ShreddingSchema.parse("a int comment 'x', b string collate UTF8_LCASE") \
        == vs.ShreddingSchema.parse("a int, b string")


def test_variant_target_type_gives_a_variant_column(variants):
    out = vs.variant_get(variants, "$.a", "variant")
    assert out.type == vs.variant_type()
    assert vs.to_python(out) == [1, "x", None]


@pytest.mark.parametrize("t,expected", [
    (vs.variant_type(), True), (vs.variant_type("spark"), True),
    (vs.ShreddingSchema.parse("a bigint").to_arrow(), True),
    (pa.struct([("metadata", pa.binary()), ("typed_value", pa.int64())]), True),
    (pa.struct([("metadata", pa.binary())]), False),
    (pa.struct([("metadata", pa.binary()), ("value", pa.binary()), ("x", pa.int8())]), False),
    (pa.binary(), False)])
def test_is_variant_type_is_the_writers_rule(t, expected):
    assert vs.parquet.is_variant_type(t) is expected


def test_results_are_plain_pyarrow_objects(variants):
    chunked = pa.chunked_array([variants, variants])
    assert isinstance(vs.to_json(variants), pa.Array)
    assert isinstance(vs.to_json(chunked), pa.ChunkedArray)
    assert vs.to_json(chunked).num_chunks == 2
    assert isinstance(vs.variant_type(), pa.DataType)
    assert vs.variant_get(variants, "$.t", "date").to_pylist()[0] == datetime.date(2024, 1, 2)
    assert vs.variant_get(variants, "$.a", "decimal(4,1)").to_pylist()[0] == decimal.Decimal("1.0")


def test_tables_readers_and_batches_are_taken_where_batches_are(tmp_path):
    """infer_schema reads a table or a reader of batches by ``column`` (it took them for
    one Variant column and failed), write_table a record batch or a reader (an
    AttributeError), schema_of_variant_agg the per-row result of schema_of_variant, SQL
    NULL rows included (None was refused)."""
    v = vs.from_json(['{"a":1}', '{"a":"x","b":2}', None])
    t = pa.table({"id": [1, 2, 3], "v": v})
    want = vs.infer_schema(t.to_batches(), column="v")
    for source in (t, t.to_reader(), t.to_batches()[0]):
        assert vs.infer_schema(source, column="v") == want
    for i, source in enumerate((t.to_batches()[0], t.to_reader())):
        vs.parquet.write_table(source, str(tmp_path / f"{i}.parquet"))
        assert vs.parquet.read_table(str(tmp_path / f"{i}.parquet")).equals(t)
    assert vs.schema_of_variant_agg(vs.schema_of_variant(v).to_pylist()) == \
        vs.schema_of_variant_agg(v)


def test_column_lists_refuse_a_lone_string(tmp_path):
    """``columns="ab"`` was read as ["a", "b"], one column per character."""
    p = str(tmp_path / "t.parquet")
    vs.parquet.write_table(pa.table({"ab": [1], "a": [2], "b": [3]}), p)
    for read in (lambda c: vs.parquet.read_table(p, columns=c),
                 lambda c: list(vs.parquet.iter_batches(p, columns=c))):
        with pytest.raises(TypeError, match="columns must be a list of column names"):
            read("ab")
        with pytest.raises(TypeError, match="columns must hold column names"):
            read([1])
    assert vs.parquet.read_table(p, columns=("ab",)).column_names == ["ab"]


def test_shredding_schemas_are_taken_as_objects_or_ddl_everywhere(variants):
    """The Spark adapters parsed a ShreddingSchema as a str (AttributeError 'strip'),
    and bad arguments gave errors that did not say what is accepted."""
    from varshred import spark as vs_spark

    schema = vs.ShreddingSchema.parse("struct<a: bigint>")
    batch = pa.record_batch({"v": variants})
    for s in (schema, schema.to_ddl()):
        out = list(vs_spark.MapColumn("v", "shred", options={"schema": s})(iter([batch])))
        assert out[0].column(0).equals(vs.shred(variants, schema))
    assert vs_spark.spark_shredding(schema, inferred=False) == schema
    with pytest.raises(TypeError, match="schema must be a ShreddingSchema or a DDL str"):
        vs.shred(variants, 42)
    with pytest.raises(TypeError, match="ShreddingSchema.parse takes a DDL str"):
        vs.ShreddingSchema.parse(b"bigint")
    with pytest.raises(TypeError, match=r"built by ShreddingSchema.parse\(ddl\)"):
        vs.ShreddingSchema("struct<a: int>")
    with pytest.raises(TypeError, match="from_arrow takes an Arrow type"):
        vs.ShreddingSchema.from_arrow("bigint")
    with pytest.raises(TypeError, match=r"from_paths takes \(path, type\) pairs"):
        vs.ShreddingSchema.from_paths("a")
    stats = vs.ShreddingStats().add(variants)
    with pytest.raises(TypeError, match="merge takes a ShreddingStats"):
        stats.merge(42)
    with pytest.raises(TypeError, match="schema must be a ShreddingSchema or a DDL str"):
        stats.report(42)
    assert repr(stats) == "<ShreddingStats of 3 rows, 3 paths>"


def test_bad_arguments_name_what_is_accepted(variants, tmp_path):
    with pytest.raises(TypeError, match="path"):
        vs.variant_get(variants, None)
    with pytest.raises(TypeError, match="target_type must be a pyarrow DataType or a Spark"):
        vs.variant_get(variants, "$.a", 42)
    with pytest.raises(TypeError, match="target_type must be"):
        vs.to_arrow(variants, None)
    with pytest.raises(TypeError, match="timezone"):
        vs.to_json(variants, timezone=None)
    with pytest.raises(ValueError, match="max_size must be >= 0"):
        vs.validate(variants, max_size=-1)
    with pytest.raises(TypeError, match="variants must be Arrow data"):
        vs.shred([1], "bigint")
    with pytest.raises(TypeError, match="variants must be Arrow data"):
        vs.variant_get([1], "$")
    with pytest.raises(TypeError, match="schema must be a pyarrow Schema"):
        vs.parquet.ParquetWriter(str(tmp_path / "w.parquet"), None)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        vs.parquet.write_json(['{"a": 1}'], str(tmp_path / "j.parquet"), threads=0)


def test_an_unknown_time_zone_is_a_variant_error_everywhere(variants, tmp_path):
    """variant_get and read_paths raised NotImplementedError where to_json and to_arrow
    raised VariantError for the same zone."""
    ts = vs.from_python([datetime.datetime(2024, 1, 2, tzinfo=datetime.timezone.utc)])
    p = str(tmp_path / "tz.parquet")
    vs.parquet.write_table(pa.table({"v": ts}), p)
    calls = [lambda: vs.to_json(ts, timezone="Nope/Zone"),
             lambda: vs.to_arrow(ts, "string", timezone="Nope/Zone"),
             lambda: vs.variant_get(ts, "$", "string", timezone="Nope/Zone"),
             lambda: vs.variant_get(vs.shred(ts, "timestamp"), "$", "string",
                                    timezone="Nope/Zone"),
             lambda: vs.parquet.read_paths(p, "v", {"$": "string"}, timezone="Nope/Zone")]
    for call in calls:
        with pytest.raises(vs.VariantError, match="Nope/Zone"):
            call()


def test_write_table_refuses_a_single_column(tmp_path):
    """A Variant StructArray was written as two plain binary columns."""
    v = vs.from_json(['{"a": 1}'])
    for column in (v, pa.chunked_array([v])):
        with pytest.raises(TypeError, match="expected a table, not one column"):
            vs.parquet.write_table(column, str(tmp_path / "x.parquet"))
    assert not (tmp_path / "x.parquet").exists()


def test_writers_refuse_to_be_pickled_or_copied(tmp_path):
    """copy.copy aliased the native writer: closing the copy closed the original."""
    import copy
    import pickle

    with vs.parquet.ParquetWriter(str(tmp_path / "w.parquet"),
                                  pa.schema([("a", pa.int64())])) as w:
        for clone in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="cannot be pickled or copied"):
                clone(w)
        w.write_table(pa.table({"a": [1]}))
    assert vs.parquet.read_table(str(tmp_path / "w.parquet")).num_rows == 1


def test_no_chunks_give_the_type_of_some_chunks():
    """shred of a stream of no chunks typed its metadata binary where a chunk of
    large_binary metadata kept large_binary: results of batches would not concatenate."""
    v = vs.from_json(['{"a": 1}'])
    large = pa.StructArray.from_arrays(
        [v.field("metadata").cast(pa.large_binary()), v.field("value")],
        ["metadata", "value"])
    some = vs.shred(pa.chunked_array([large]), "struct<a: bigint>")
    none = vs.shred(pa.chunked_array([], type=large.type), "struct<a: bigint>")
    assert none.num_chunks == 0 and none.type == some.type
    assert vs.unshred(pa.chunked_array([], type=some.type)).type == \
        vs.unshred(some).type


def test_variant_get_on_shredded_rows_without_metadata_is_an_error():
    """A non-null shredded row with a null metadata gave a Variant of empty metadata
    (refused by every reader), and is_variant_null answered for it."""
    v = vs.from_json(['{"id": 1}', '{"id": 2}'])
    sh = vs.shred(v, "struct<id: bigint>")
    tv = sh.field("typed_value")
    tv_null = pa.StructArray.from_arrays([tv.field(0)], fields=[tv.type.field(0)],
                                         mask=pa.array([False, True]))
    bad = pa.StructArray.from_arrays(
        [pa.array([sh.field("metadata")[0].as_py(), None], pa.binary()),
         sh.field("value"), tv_null],
        fields=[pa.field("metadata", pa.binary()), sh.type.field(1), sh.type.field(2)])
    for call in (lambda: vs.variant_get(bad, "$"), lambda: vs.is_variant_null(bad),
                 lambda: vs.validate(bad), lambda: vs.unshred(bad)):
        with pytest.raises(vs.VariantError, match="row 1: metadata is null in a non-null row"):
            call()
    # A typed value needs no dictionary: taken as before.
    assert vs.variant_get(bad, "$.id", "bigint").to_pylist() == [1, None]
