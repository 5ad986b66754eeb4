# Licensed under the Apache License, Version 2.0.
"""vs.from_arrow / to_arrow / schema_of_variant(_agg) / variant_explode without Spark:
the round trip to_arrow(from_arrow(x), x.type) == x on random Arrow data (fixed seeds),
and bad input naming row and path. The differential tests against Spark are in
test_spark_arrow_functions.py."""

from __future__ import annotations

import datetime
import decimal
import random
import uuid

import pyarrow as pa
import pytest

import varshred as vs
from variant_extension import VariantExtensionType

# ----------------------------------------------------------------------------
# Random Arrow data

SCALARS = [
    pa.bool_(), pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
    pa.uint32(), pa.uint64(), pa.float32(), pa.float64(), pa.decimal128(9, 2),
    pa.decimal128(38, 10), pa.decimal32(5, 1), pa.decimal64(18, 0), pa.decimal256(30, 5),
    pa.string(), pa.large_string(), pa.string_view(), pa.binary(), pa.large_binary(),
    pa.binary_view(), pa.binary(3), pa.date32(), pa.date64(), pa.timestamp("s"),
    pa.timestamp("ms", "UTC"), pa.timestamp("us"), pa.timestamp("us", "+05:00"),
    pa.timestamp("ns"), pa.timestamp("ns", "UTC"), pa.time32("s"), pa.time32("ms"),
    pa.time64("us"), pa.time64("ns"), pa.uuid(), pa.null(),
]


def random_type(rng: random.Random, depth: int = 0) -> pa.DataType:
    if depth >= 3 or rng.random() < 0.55:
        return rng.choice(SCALARS)
    kind = rng.choice(["struct", "list", "large_list", "fixed", "map"])
    if kind == "struct":
        names = rng.sample(["a", "b", "c d", "é", "", "x.y", "`q"], rng.randrange(1, 4))
        return pa.struct([(n, random_type(rng, depth + 1)) for n in names])
    inner = random_type(rng, depth + 1)
    if kind == "list":
        return pa.list_(inner)
    if kind == "large_list":
        return pa.large_list(inner)
    if kind == "fixed":
        return pa.list_(inner, rng.randrange(1, 3))
    return pa.map_(pa.string(), inner)


def random_value(rng: random.Random, t: pa.DataType):
    if rng.random() < 0.15 or pa.types.is_null(t):
        return None
    if pa.types.is_struct(t):
        return {f.name: random_value(rng, f.type) for f in t}
    if pa.types.is_fixed_size_list(t):
        return [random_value(rng, t.value_type) for _ in range(t.list_size)]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return [random_value(rng, t.value_type) for _ in range(rng.randrange(4))]
    if pa.types.is_map(t):
        # Objects hold keys in key order: maps come back sorted.
        keys = sorted(rng.sample(["k", "j", "", "long key"], rng.randrange(3)))
        return [(k, random_value(rng, t.item_type)) for k in keys]
    if isinstance(t, pa.UuidType):
        return uuid.UUID(int=rng.getrandbits(128))
    if pa.types.is_boolean(t):
        return rng.random() < 0.5
    if pa.types.is_integer(t):
        bits = t.bit_width
        lo, hi = (0, 2**bits - 1) if pa.types.is_unsigned_integer(t) else (
            -(2**(bits - 1)), 2**(bits - 1) - 1)
        return rng.choice([lo, hi, 0, rng.randint(lo, hi)])
    if pa.types.is_floating(t):
        return rng.choice([0.0, -1.5, 3.25e10, rng.uniform(-1e6, 1e6), float("inf")])
    if pa.types.is_decimal(t):
        digits = rng.randrange(1, t.precision + 1)
        unscaled = rng.randrange(10**digits) * rng.choice([1, -1])
        return decimal.Decimal(unscaled).scaleb(-t.scale)
    if pa.types.is_fixed_size_binary(t):
        return bytes(rng.getrandbits(8) for _ in range(t.byte_width))
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(70)))
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return rng.choice(["", "abc", "é😀", "x" * 70])
    if pa.types.is_date32(t):
        return datetime.date(1, 1, 1) + datetime.timedelta(days=rng.randrange(3_000_000))
    if pa.types.is_date64(t):
        return datetime.date(1900, 1, 1) + datetime.timedelta(days=rng.randrange(100_000))
    if pa.types.is_timestamp(t):
        scale = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[t.unit]
        return pa.scalar(rng.randrange(-2 * 10**9, 4 * 10**9) * scale // 1
                         + rng.randrange(scale), pa.int64()).as_py()
    if pa.types.is_time(t):
        scale = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}[t.unit]
        v = rng.randrange(86400 * scale)
        return v - v % 1000 if t.unit == "ns" else v  # Variant time has microseconds
    raise AssertionError(t)


def random_array(rng: random.Random, t: pa.DataType, n: int) -> pa.Array:
    values = [random_value(rng, t) for _ in range(n)]
    if pa.types.is_timestamp(t) or pa.types.is_time(t):
        return pa.array(values, pa.int64() if t.bit_width == 64 else pa.int32()).cast(t)
    return pa.array(values, t)


@pytest.mark.parametrize("seed", range(60))
def test_round_trip_on_random_arrow_data(seed):
    rng = random.Random(seed)
    t = random_type(rng)
    x = random_array(rng, t, 40)
    v = vs.from_arrow(x)
    vs.validate(v)
    back = vs.to_arrow(v, t, errors="raise")
    assert back.type == x.type
    assert back.to_pylist() == x.to_pylist(), t


def test_round_trip_of_every_scalar_type_in_one_struct():
    rng = random.Random(7)
    columns = [random_array(rng, s, 200) for s in SCALARS]
    x = pa.StructArray.from_arrays(columns, [f"c{i}" for i in range(len(SCALARS))],
                                   mask=pa.array([rng.random() < 0.1 for _ in range(200)]))
    t = x.type
    back = vs.to_arrow(vs.from_arrow(x), t, errors="raise")
    assert back.to_pylist() == x.to_pylist()


def test_other_inputs_give_the_same_variants():
    x = pa.array([[1, None], [], None], pa.list_(pa.int32()))
    expected = vs.to_json(vs.from_arrow(x)).to_pylist()
    for other in [pa.array([[1, None], [], None], pa.list_view(pa.int32())),
                  pa.array([[1, None], [], None], pa.large_list_view(pa.int32())),
                  pa.array([[1, None], [], None], pa.list_(pa.int64()))]:
        assert vs.to_json(vs.from_arrow(other)).to_pylist() == expected
    d = pa.array(["a", "b", None, "a"]).dictionary_encode()
    assert vs.to_json(vs.from_arrow(d)).to_pylist() == ['"a"', '"b"', None, '"a"']
    table = pa.table({"a": [1, 2], "b": ["x", None]})
    assert vs.to_json(vs.from_arrow(table)).to_pylist() == ['{"a":1,"b":"x"}',
                                                           '{"a":2,"b":null}']


def test_from_arrow_bad_input_names_the_path():
    t = pa.struct([("a", pa.list_(pa.duration("s")))])
    with pytest.raises(TypeError, match=r"\$\.a\[0\].*duration"):
        vs.from_arrow(pa.array([{"a": [1]}], t))
    big = pa.array([{"x": [decimal.Decimal(1)]}, {"x": [decimal.Decimal(10**39)]}],
                   pa.struct([("x", pa.list_(pa.decimal256(40, 0)))]))
    with pytest.raises(vs.VariantError, match=r"^row 2: \$\.x\[0\]: "):
        vs.from_arrow(pa.chunked_array([big.slice(0, 1), big]))  # rows count across chunks
    dup = pa.array([[("k", 1), ("k", 2)]], pa.map_(pa.string(), pa.int8()))
    with pytest.raises(vs.VariantError, match="row 0"):
        vs.from_arrow(dup)


def test_to_arrow_raise_names_row_and_path_and_null_keeps_containers():
    v = vs.from_json(['{"a": [1, 2]}', '{"a": [3, "x"]}', '{"a": 5}'])
    t = pa.struct([("a", pa.list_(pa.int8()))])
    with pytest.raises(vs.VariantError, match=r"row 1, path \$\.a\[1\]: \[INVALID_VARIANT_CAST\]"):
        vs.to_arrow(v, t, errors="raise")
    assert vs.to_arrow(v, t).to_pylist() == [{"a": [1, 2]}, {"a": [3, None]}, {"a": None}]
    with pytest.raises(TypeError, match=r"\$\.a"):
        vs.to_arrow(v, pa.struct([("a", pa.duration("s"))]))
    assert vs.to_arrow(v, "string").to_pylist() == ['{"a":[1,2]}', '{"a":[3,"x"]}',
                                                    '{"a":5}']


def test_variant_get_checks_the_bytes_it_reads_not_the_rest_of_the_row():
    # {"a": 1, "b": "\xff"}: b is not UTF-8, which validate reports.
    arr = pa.StructArray.from_arrays(
        [pa.array([bytes.fromhex("01020001026162")], pa.binary()),
         pa.array([bytes.fromhex("020200010002040c0105ff")], pa.binary())],
        names=["metadata", "value"])
    with pytest.raises(vs.VariantError, match=r"row 0: \$\.b: string is not valid UTF-8"):
        vs.validate(arr)
    assert vs.variant_get(arr, "$.a", "bigint").to_pylist() == [1]
    assert vs.to_python(vs.variant_get(arr, "$.a")) == [1]
    for errors in ("null", "raise"):
        with pytest.raises(vs.VariantError, match=r"row 0: \$\.b: string is not valid UTF-8"):
            vs.variant_get(arr, "$.b", "string", errors=errors)


def test_to_arrow_on_shredded_input_matches_unshredded():
    v = vs.from_json(['{"a": 1, "b": "x"}', '{"a": "2"}', "3", None])
    s = vs.shred(v, vs.ShreddingSchema.parse("a bigint, b string"))
    for t in [pa.struct([("a", pa.int32()), ("b", pa.string())]), pa.int64(), pa.string()]:
        assert vs.to_arrow(s, t).equals(vs.to_arrow(v, t))


def test_schema_of_variant_and_agg():
    v = vs.from_json(['{"b": 1, "a": [1, 2.5]}', "1.50", None, "null", "[]",
                      '{"a b": 1, "A": 2, "`q": 3, "": 4}'])
    assert vs.schema_of_variant(v).to_pylist() == [
        "OBJECT<a: ARRAY<DECIMAL(21,1)>, b: BIGINT>", "DECIMAL(2,1)", None, "VOID",
        "ARRAY<VOID>", "OBJECT<``: BIGINT, A: BIGINT, ```q`: BIGINT, `a b`: BIGINT>"]
    a = vs.from_json(['{"a": 1}', '{"b": 1.5, "a": null}'])
    assert vs.schema_of_variant_agg(a) == "OBJECT<a: BIGINT, b: DECIMAL(2,1)>"
    # Partial results merge like the whole.
    parts = [vs.schema_of_variant_agg(a.slice(0, 1)), vs.schema_of_variant_agg(a.slice(1))]
    assert vs.schema_of_variant_agg(parts) == vs.schema_of_variant_agg(a)
    assert vs.schema_of_variant_agg(vs.from_json([None])) == "VOID"
    with pytest.raises(vs.VariantError, match="cannot read the type"):
        vs.schema_of_variant_agg(["OBJECT<a BIGINT>"])


def test_schema_of_variant_agg_takes_what_schema_of_variant_returns():
    """A string column of types (schema_of_variant's result, SQL NULLs included) merges
    as its strings do; it used to be refused as "not a struct array"."""
    v = vs.from_json(['{"a": 1}', None, '{"b": "x"}', '{"a": 2.5}'])
    types = vs.schema_of_variant(v)
    expected = "OBJECT<a: DECIMAL(21,1), b: STRING>"
    assert vs.schema_of_variant_agg(v) == expected
    assert vs.schema_of_variant_agg(types) == expected
    assert vs.schema_of_variant_agg(pa.chunked_array([types, types])) == expected
    assert vs.schema_of_variant_agg([types.cast(pa.large_string()), v]) == expected


def test_schema_of_variant_names_differing_in_case():
    """Spark's default (spark.sql.caseSensitive=false) merges {"a"} and {"A"} into the
    first spelling, in the order rows come; case_sensitive=True keeps both (both
    checked against Spark in test_spark_arrow_functions.py)."""
    v = vs.from_json(['{"id": 1}', '{"ID": 2}'])
    assert vs.schema_of_variant_agg(v) == "OBJECT<id: BIGINT>"
    assert vs.schema_of_variant_agg(v.take([1, 0])) == "OBJECT<ID: BIGINT>"
    assert vs.schema_of_variant_agg(["OBJECT<ID: BIGINT>", v]) == "OBJECT<ID: BIGINT>"
    assert vs.schema_of_variant_agg(v, case_sensitive=True) == \
        "OBJECT<ID: BIGINT, id: BIGINT>"
    a = vs.from_json(['[{"id": 1}, {"ID": 2}]'])
    assert vs.schema_of_variant(a).to_pylist() == ["ARRAY<OBJECT<id: BIGINT>>"]
    assert vs.schema_of_variant(a, case_sensitive=True).to_pylist() == \
        ["ARRAY<OBJECT<ID: BIGINT, id: BIGINT>>"]


def test_variant_explode():
    v = vs.from_json(['{"b": 1, "a": [2]}', "[1, null]", "7", None, "{}"])
    t = vs.variant_explode(pa.chunked_array([v, v]))
    assert t.column("row").to_pylist() == [0, 0, 1, 1, 5, 5, 6, 6]
    assert t.column("key").to_pylist() == ["a", "b", None, None] * 2
    assert vs.to_json(t.column("value")).to_pylist() == ["[2]", "1", "1", "null"] * 2
    outer = vs.variant_explode(v, outer=True)
    assert outer.column("row").to_pylist() == [0, 0, 1, 1, 2, 3, 4]
    assert outer.column("pos").to_pylist() == [0, 1, 0, 1, None, None, None]


def test_a_null_value_in_a_valid_row_reads_as_variant_null_everywhere():
    """docs/interop.md: a non-null row whose ``value`` is null reads as Variant null, in
    every reader (schema_of_variant and untyped variant_get took it for SQL NULL while
    to_json, unshred and the writer read Variant null); a null ``metadata`` there is the
    same error everywhere (some readers returned NULL for it)."""
    v = vs.from_json(pa.array(['{"a":1}', "null", None]))
    metadata = v.field("metadata")
    value = pa.array([v.field("value")[0].as_py(), None, b""], pa.binary())
    fields = [pa.field("metadata", pa.binary()), pa.field("value", pa.binary())]
    w = pa.StructArray.from_arrays([metadata, value], fields=fields, mask=v.is_null())
    assert vs.to_json(w).to_pylist() == vs.to_json(v).to_pylist() == ['{"a":1}', "null", None]
    assert vs.schema_of_variant(w).to_pylist() == ["OBJECT<a: BIGINT>", "VOID", None]
    assert vs.to_json(vs.variant_get(w, "$")).to_pylist() == ['{"a":1}', "null", None]
    assert vs.variant_get(w, "$.a", "int").to_pylist() == [1, None, None]
    assert vs.to_arrow(w, "string").to_pylist() == ['{"a":1}', None, None]
    assert vs.variant_explode(w, outer=True)["row"].to_pylist() == [0, 1, 2]
    assert vs.schema_of_variant_agg(w) == "OBJECT<a: BIGINT>"

    no_metadata = pa.StructArray.from_arrays(
        [pa.array([None], pa.binary()), pa.array([None], pa.binary())], fields=fields)
    calls = [vs.to_json, vs.schema_of_variant, vs.schema_of_variant_agg,
             lambda x: vs.variant_get(x, "$"), lambda x: vs.variant_get(x, "$", "int"),
             lambda x: vs.to_arrow(x, "string"), vs.variant_explode]
    for call in calls:
        with pytest.raises(vs.VariantError, match="row 0: .*metadata"):
            call(no_metadata)


def test_from_arrow_copies_in_an_unregistered_variant_extension_column():
    """The column and a struct field of that type are Variant values, copied in (they
    read as objects of two base64 binaries). The type is never registered here: Arrow
    C++ receives its storage, the name only in the schema."""
    v = vs.from_json(pa.array(['{"a":1}', None]))
    e = pa.ExtensionArray.from_storage(VariantExtensionType(v.type), v)
    assert vs.to_json(vs.from_arrow(e)).to_pylist() == ['{"a":1}', None]
    assert vs.to_json(vs.from_arrow(pa.chunked_array([e]))).to_pylist() == ['{"a":1}', None]
    nested = vs.from_arrow(pa.StructArray.from_arrays([e], ["x"]))
    assert vs.to_json(nested).to_pylist() == ['{"x":{"a":1}}', '{"x":null}']


def test_variant_results_stay_variant_through_from_arrow():
    """Variant columns and fields varshred returns are tagged variant=true, so
    from_arrow copies them in as Spark's to_variant_object(try_variant_get(v, '$',
    'struct<a: variant, n: int>')) does; untagged, they became objects of two base64
    binaries. A struct of two binaries built by hand is still an ordinary struct."""
    v = vs.from_json(['{"a":{"b":1},"n":2}', None])
    got = vs.variant_get(v, "$", "struct<a: variant, n: int>")
    assert vs.to_json(vs.from_arrow(got)).to_pylist() == ['{"a":{"b":1},"n":2}', None]
    as_arrow = vs.to_arrow(v, pa.struct([("a", v.type), ("n", pa.int64())]))
    assert vs.to_json(vs.from_arrow(as_arrow)).to_pylist() == ['{"a":{"b":1},"n":2}', None]
    assert vs.to_json(vs.from_arrow(v)).to_pylist() == ['{"a":{"b":1},"n":2}', None]
    field = vs.variant_get(v, "$.a", "variant")
    assert vs.to_json(vs.from_arrow(field)).to_pylist() == ['{"b":1}', None]
    plain = pa.StructArray.from_arrays([pa.array([b"m"]), pa.array([b"v"])],
                                       ["metadata", "value"])
    assert vs.to_json(vs.from_arrow(plain)).to_pylist() == ['{"metadata":"bQ==","value":"dg=="}']


def test_map_types_and_structs_named_like_their_entries():
    """map<K, V> in a type name is a map; a user's struct whose fields are named as
    varshred's internal map entries once were stays a struct (it was read as a map,
    and every row came back NULL; Spark returns the struct)."""
    v = vs.from_json(['{"m": {"x": 1}, "l": [{"__varshred_map_key__": "k", '
                      '"__varshred_map_value__": 1}]}'])
    assert vs.variant_get(v, "$.m", "map<string, int>").to_pylist() == [[("x", 1)]]
    for key in ["__varshred_map_key__", "__varshred_map0_key"]:
        doc = vs.from_json([f'[{{"{key}": "k", "v": 1}}]'])
        t = f"array<struct<{key}: string, v: int>>"
        assert vs.variant_get(doc, "$", t).to_pylist() == [[{key: "k", "v": 1}]]
    t = "array<struct<__varshred_map_key__: string, __varshred_map_value__: int>>"
    assert vs.variant_get(v, "$.l", t).to_pylist() == \
        [[{"__varshred_map_key__": "k", "__varshred_map_value__": 1}]]
    assert vs.variant_get(v, "$", "struct<__varshred_map0_key: map<string, int>>") \
        .to_pylist() == [{"__varshred_map0_key": None}]


def test_is_variant_null():
    v = vs.from_json(["null", None, "1", '{"a": null}', "[]", '""'])
    assert vs.is_variant_null(v).to_pylist() == [True, False, False, False, False, False]
    assert vs.is_variant_null(vs.variant_get(v, "$.a")).to_pylist() == \
        [False, False, False, True, False, False]
    shredded = vs.shred(v, vs.ShreddingSchema.parse("a bigint"))
    assert vs.is_variant_null(shredded).to_pylist() == vs.is_variant_null(v).to_pylist()
    chunked = vs.is_variant_null(pa.chunked_array([v, v.slice(3)]))
    assert chunked.to_pylist() == [True, False, False, False, False, False] + [False] * 3


def test_session_zones_take_javas_short_ids_as_spark_does():
    """Spark resolves its session zone with java.time's SHORT_IDS (PST, CTT, EST...):
    the writer's and the casts' zones resolve them alike (the writer refused "PST")."""
    instant = vs.from_python([datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)])
    for short, region in [("PST", "America/Los_Angeles"), ("CTT", "Asia/Shanghai"),
                          ("EST", "-05:00")]:
        assert vs.to_json(instant, timezone=short).to_pylist() == \
            vs.to_json(instant, timezone=region).to_pylist()
        assert vs.variant_get(instant, "$", "string", timezone=short).to_pylist() == \
            vs.variant_get(instant, "$", "string", timezone=region).to_pylist()
