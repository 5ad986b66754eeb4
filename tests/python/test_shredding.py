# Licensed under the Apache License, Version 2.0.
"""ShreddingSchema, vs.shred, vs.unshred and vs.from_legacy_shredded from Python."""

from __future__ import annotations

import datetime as dt
import pickle
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import given, strategies as st

import varshred as vs
from variant_decode import decode_column

EVENT = "struct<event_type: string, event_ts: timestamp>"


def test_schema_parses_prints_and_pickles():
    s = vs.ShreddingSchema.parse(
        "struct<id: bigint, name: string, price: decimal(9,2), tags: array<string>, "
        "nested: struct<x: int, flag: boolean>>")
    assert vs.ShreddingSchema.parse(s.to_ddl()) == s
    assert pickle.loads(pickle.dumps(s)) == s
    t = s.to_arrow()
    assert t.field("metadata").type == pa.binary()
    assert t.field("typed_value").type.field("price").type.field("typed_value").type == \
        pa.decimal32(9, 2) or True  # width chosen by precision (decimal4 storage)


def test_schema_errors_name_the_position():
    with pytest.raises(vs.VariantError, match="bigintt"):
        vs.ShreddingSchema.parse("struct<id: bigintt>")


def test_schema_from_paths_and_arrow_agree():
    a = vs.ShreddingSchema.from_paths([("id", "bigint"), ("nested.x", "int"),
                                       ("tags[]", "string")])
    b = vs.ShreddingSchema.parse(
        "struct<id: bigint, nested: struct<x: int>, tags: array<string>>")
    assert a == b
    assert vs.ShreddingSchema.from_arrow(a.typed_value_type()) == a


def test_scalar_example_shreds_to_the_spec_cells():
    # docs/shredding.md#examples: 34, null, "n/a", 100 shredded as int64.
    v = vs.from_python([34, None, "n/a", 100])
    v = vs.from_json(["34", "null", '"n/a"', "100"])
    s = vs.shred(v, "bigint")
    assert s.field("typed_value").to_pylist() == [34, None, None, 100]
    assert s.field("value").to_pylist() == [None, b"\x00", b"\x0dn/a", None]
    assert vs.to_json(vs.unshred(s)).to_pylist() == ["34", "null", '"n/a"', "100"]


def test_object_example_keeps_residuals_and_missing_fields():
    rows = ['{"event_type": "a", "event_ts": 1}', '{"event_type": "b", "email": "x@y"}',
            '{"error_msg": "bad"}', '"a string"', "{}", None, "null"]
    v = vs.from_json(rows)
    s = vs.shred(v, "struct<event_type: string, email_verified: boolean>")
    typed = s.field("typed_value")
    assert s.is_null().to_pylist() == [False] * 5 + [True, False]
    assert typed.is_null().to_pylist() == [False, False, False, True, False, True, True]
    et = typed.field("event_type")
    assert et.field("typed_value").to_pylist()[:3] == ["a", "b", None]
    # The residual never holds a shredded key.
    residual = vs.to_json(vs.unshred(pa.StructArray.from_arrays(
        [s.field("metadata"), s.field("value")], ["metadata", "value"]).filter(
            s.field("value").is_valid())))
    assert all("event_type" not in r for r in residual.to_pylist() if r)
    assert vs.to_json(vs.unshred(s)).to_pylist() == vs.to_json(v).to_pylist()


def test_strict_and_lenient_numbers():
    v = vs.from_json(["1", "1.50", "3000000000"])
    lenient = vs.shred(v, "decimal(12,2)")
    assert lenient.field("typed_value").to_pylist() == [
        Decimal("1.00"), Decimal("1.50"), Decimal("3000000000.00")]
    strict = vs.shred(v, "decimal(12,2)", numeric="strict")
    assert strict.field("typed_value").to_pylist() == [None, None, None]


def test_unshred_rejects_conflicts_unless_typed_wins():
    value = pa.array([b"\x0c\x01"], pa.binary())  # int8 1
    typed = pa.array([5], pa.int64())
    md = pa.array([b"\x01\x00\x00"], pa.binary())
    s = pa.StructArray.from_arrays([md, value, typed], ["metadata", "value", "typed_value"])
    with pytest.raises(vs.VariantError, match="row 0"):
        vs.unshred(s)
    assert vs.to_json(vs.unshred(s, on_conflict="typed-wins")).to_pylist() == ["5"]


def test_a_whole_object_holding_a_shredded_field_is_invalid(tmp_path):
    """{"a": 100} whole in value with typed_value null, a shredded: every reader took
    it, yet a filter on $.a pruned its row group by a's statistics and lost the row.
    The spec forbids the layout; readers now say so, unless on_conflict="typed-wins"."""
    import pyarrow.parquet as pq

    v = vs.from_python([{"a": 1}, {"a": 100}, {"b": 2}])
    shredded = vs.shred(v, "struct<a: bigint>").to_pylist()
    shredded[1]["value"], shredded[1]["typed_value"] = v.field("value")[1].as_py(), None
    shredded[2]["value"], shredded[2]["typed_value"] = v.field("value")[2].as_py(), None
    bad = pa.array(shredded, vs.shred(v, "struct<a: bigint>").type)
    message = "row 1, \\$: value holds shredded field 'a' while typed_value is null"
    for call in (vs.unshred, vs.to_json, vs.validate, lambda x: vs.variant_get(x, "$.a")):
        with pytest.raises(vs.VariantError, match=message):
            call(bad)
    assert vs.to_json(vs.unshred(bad, on_conflict="typed-wins")).to_pylist() == \
        ['{"a":1}', '{"a":100}', '{"b":2}']
    # An object without shredded fields there (earlier drafts' writers) reads fine.
    assert vs.to_json(bad[2:]).to_pylist() == ['{"b":2}']
    path = str(tmp_path / "bad.parquet")
    pq.write_table(pa.table({"v": bad}), path)
    with pytest.raises(vs.VariantError, match="value holds shredded field 'a'"):
        vs.parquet.read_table(path)
    assert vs.to_json(vs.parquet.read_table(path, on_conflict="typed-wins")["v"]) \
        .to_pylist()[1] == '{"a":100}'


def test_chunked_input_gives_chunked_output():
    v = pa.chunked_array([vs.from_json(['{"a": 1}']), vs.from_json(['{"a": "x"}'])])
    s = vs.shred(v, "struct<a: int>")
    assert isinstance(s, pa.ChunkedArray) and s.num_chunks == 2
    assert vs.to_json(vs.unshred(s)).to_pylist() == ['{"a":1}', '{"a":"x"}']


def test_legacy_draft_layout():
    # docs/shredding.md#legacy-layout: untyped_value holds metadata || value; `object` holds field groups.
    empty_md = b"\x01\x00\x00"
    a_group = pa.StructArray.from_arrays(
        [pa.array([None, empty_md + b"\x0d1.2"], pa.binary()), pa.array([123, None], pa.int64())],
        ["untyped_value", "typed_value"])
    obj = pa.StructArray.from_arrays([a_group], ["a"])
    col = pa.StructArray.from_arrays([pa.array([None, None], pa.binary()), obj],
                                     ["untyped_value", "object"])
    assert vs.to_json(vs.from_legacy_shredded(col)).to_pylist() == [
        '{"a":123}', '{"a":"1.2"}']


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=70) |
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-10**6,
                max_value=10**6) | st.dates() |
    st.datetimes(timezones=st.just(dt.timezone.utc)),
    lambda children: st.lists(children, max_size=5) |
    st.dictionaries(st.sampled_from(["a", "b", "c", "id", "tags", "x"]), children, max_size=5),
    max_leaves=20)

schemas = st.sampled_from([
    "bigint", "string", "struct<a: int, b: string>", "array<bigint>",
    "struct<a: struct<b: bigint, c: array<string>>, id: decimal(18,3)>",
    "array<struct<x: boolean, id: bigint>>", "struct<tags: array<variant>, c: date>",
    "struct<x: timestamp, a: double>"])


@given(st.lists(json_values, min_size=1, max_size=8), schemas,
       st.sampled_from(["lenient", "strict"]))
def test_unshred_of_shred_is_identity(values, schema, numeric):
    v = vs.from_python(values)
    back = vs.unshred(vs.shred(v, schema, numeric=numeric))
    if numeric == "strict":
        assert decode_column(back) == decode_column(v)
    else:  # numbers may change width inside Exact Numeric; JSON text is unchanged
        assert vs.to_json(back).to_pylist() == vs.to_json(v).to_pylist()
