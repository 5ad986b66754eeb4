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
