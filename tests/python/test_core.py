# Licensed under the Apache License, Version 2.0.
"""The public API: types, layouts, SQL NULLs, chunked input, exact bytes."""

from __future__ import annotations

import subprocess
import sys

import pyarrow as pa
import pytest

import varshred as vs

EMPTY_MD = bytes.fromhex("010000")


def rows(array):
    """(metadata, value) bytes per row, None for SQL NULL; children read by name."""
    md = array.field("metadata").to_pylist()
    val = array.field("value").to_pylist()
    return [None if not valid else (m, v)
            for valid, m, v in zip(array.is_valid().to_pylist(), md, val)]


def test_version_and_exports():
    assert isinstance(vs.__version__, str) and vs.__version__
    for name in ["from_json", "to_json", "from_python", "to_python", "validate",
                 "VariantError"]:
        assert name in vs.__all__
    assert issubclass(vs.VariantError, ValueError)


def test_variant_type_of_each_layout():
    canonical = vs.variant_type()
    assert canonical == pa.struct([pa.field("metadata", pa.binary(), nullable=False),
                                   pa.field("value", pa.binary(), nullable=False)])
    spark = vs.variant_type("spark")
    assert [f.name for f in spark] == ["value", "metadata"]
    assert spark.field("metadata").metadata == {b"variant": b"true"}
    with pytest.raises(ValueError, match="layout must be 'canonical' or 'spark'"):
        vs.variant_type("other")


def test_from_json_exact_bytes_and_sql_nulls():
    out = vs.from_json(['{"b":1,"a":null}', None, "null", "[]", '"hi"'])
    assert isinstance(out, pa.StructArray)
    assert out.type == vs.variant_type()
    assert out.null_count == 1
    r = rows(out)
    # Keys in first-seen order in the metadata (unsorted header 01); field ids sorted
    # by key bytes in the object.
    assert r[0] == (bytes.fromhex("01020001026261"),
                    bytes.fromhex("02020100020003" "0c0100"))
    assert r[1] is None
    assert r[2] == (EMPTY_MD, b"\x00")
    assert r[3] == (EMPTY_MD, bytes.fromhex("030000"))
    assert r[4] == (EMPTY_MD, bytes.fromhex("096869"))


def test_from_json_spark_layout():
    out = vs.from_json(['{"a":1}', None], layout="spark")
    assert out.type == vs.variant_type("spark")
    assert out.is_null().to_pylist() == [False, True]
    assert vs.to_json(out).to_pylist() == ['{"a":1}', None]


def test_to_json_round_trip_keeps_nulls():
    texts = ['{"a":[1,2.5,"x",true,null],"b":{}}', None, "-7", '"\\u00e9"']
    out = vs.to_json(vs.from_json(texts))
    assert out.type == pa.string()
    assert out.to_pylist() == ['{"a":[1,2.5,"x",true,null],"b":{}}', None, "-7", '"é"']


def test_chunked_array_in_chunked_array_out():
    chunked = pa.chunked_array([["1", None], [], ['{"k":"v"}']], type=pa.string())
    variants = vs.from_json(chunked)
    assert isinstance(variants, pa.ChunkedArray)
    assert variants.num_chunks == 3
    assert [len(c) for c in variants.chunks] == [2, 0, 1]
    assert variants.type == vs.variant_type()
    text = vs.to_json(variants)
    assert isinstance(text, pa.ChunkedArray)
    assert text.to_pylist() == ["1", None, '{"k":"v"}']
    assert vs.to_python(variants) == [1, None, {"k": "v"}]
    vs.validate(variants)


def test_empty_chunked_array_keeps_the_output_type():
    empty = pa.chunked_array([], type=pa.string())
    out = vs.from_json(empty, layout="spark")
    assert isinstance(out, pa.ChunkedArray)
    assert out.num_chunks == 0
    assert out.type == vs.variant_type("spark")
    assert vs.to_json(out).type == pa.string()


def test_string_flavours_are_accepted():
    for typ in [pa.string(), pa.large_string(), pa.string_view()]:
        arr = pa.array(['{"a":1}', None], type=typ)
        assert vs.to_json(vs.from_json(arr)).to_pylist() == ['{"a":1}', None]


def test_variants_with_large_and_view_children():
    base = vs.from_python([{"x": [1, "two"]}, None])
    for typ in [pa.large_binary(), pa.binary_view()]:
        arr = pa.StructArray.from_arrays(
            [base.field("value").cast(typ), base.field("metadata").cast(typ)],
            names=["value", "metadata"], mask=base.is_null())
        assert vs.to_python(arr) == [{"x": [1, "two"]}, None]
        assert vs.to_json(arr).to_pylist() == ['{"x":[1,"two"]}', None]
        vs.validate(arr)


def test_sliced_input():
    arr = vs.from_python([1, None, "a", [2]])
    assert vs.to_python(arr.slice(1, 3)) == [None, "a", [2]]
    assert vs.to_json(arr.slice(2)).to_pylist() == ['"a"', "[2]"]


def test_to_layout_switches_field_order():
    canonical = vs.from_python([{"a": 1}, None])
    spark = vs.to_layout(canonical, "spark")
    assert spark.type == vs.variant_type("spark")
    assert spark.is_null().to_pylist() == [False, True]
    assert vs.to_layout(spark, "canonical").equals(canonical)


def test_validate_passes_good_data_and_returns_none():
    assert vs.validate(vs.from_json(['{"a":[1,{"b":2}]}', None])) is None


def test_from_python_output_layouts():
    assert vs.from_python([1], layout="spark").type == vs.variant_type("spark")
    assert vs.from_python([]).type == vs.variant_type()
    assert len(vs.from_python(iter([1, 2, 3]))) == 3


def test_inputs_that_are_not_arrow_are_rejected():
    with pytest.raises(TypeError, match="variants must be Arrow data"):
        vs.to_json(["{}"])
    with pytest.raises(TypeError, match="from_python expects an iterable"):
        vs.from_python("abc")
    with pytest.raises(TypeError, match="from_python expects an iterable"):
        vs.from_python(pa.array([1]))


def test_importing_varshred_leaves_out_what_only_some_calls_need():
    # Every Spark Python worker and every command imports varshred: its version (read
    # through importlib.metadata, about 30 ms), pyspark and pyarrow.compute (about 25
    # ms, for filters and the CLI) load when asked for.
    script = """
import sys
import varshred as vs
print("importlib.metadata" in sys.modules, "pyspark" in sys.modules,
      "pyarrow.compute" in sys.modules)
print(vs.__version__ == vs.__version__ and bool(vs.__version__))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "False", "False", "True"]
