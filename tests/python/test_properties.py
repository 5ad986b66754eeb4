# Licensed under the Apache License, Version 2.0.
"""Property tests (hypothesis, derandomized by conftest): Python round trips of random
nested values of every type, and JSON -> Variant -> JSON -> Variant stability."""

from __future__ import annotations

import decimal
import json
import math

import pyarrow as pa
from hypothesis import given
from hypothesis import strategies as st

import varshred as vs
from fuzz_util import values  # shared with the fuzz tests


@given(st.lists(values, max_size=8))
def test_python_round_trip(rows):
    arr = vs.from_python(rows)
    assert len(arr) == len(rows)
    vs.validate(arr)
    assert vs.to_python(arr) == rows
    # Decoded objects come out in key order, so after one re-encoding (keys then
    # first seen in sorted order) the bytes are a fixed point.
    again = vs.from_python(vs.to_python(arr))
    assert vs.from_python(vs.to_python(again)).equals(again)


@given(st.lists(values, min_size=1, max_size=4), st.sampled_from(["canonical", "spark"]))
def test_layouts_hold_the_same_values(rows, layout):
    arr = vs.from_python(rows, layout=layout)
    assert arr.type == vs.variant_type(layout)
    assert vs.to_python(vs.to_layout(arr, "canonical")) == rows


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 30, 10 ** 30)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=30)


def _same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


@given(st.lists(json_values, max_size=8), st.sampled_from(["decimal", "double"]),
       st.booleans())
def test_json_variant_json_is_stable(docs, numbers, ascii_only):
    texts = [json.dumps(d, ensure_ascii=ascii_only) for d in docs]
    v1 = vs.from_json(texts, numbers=numbers)
    t1 = vs.to_json(v1)
    v2 = vs.from_json(t1, numbers=numbers)
    t2 = vs.to_json(v2)
    assert t1.equals(t2)
    assert vs.to_python(v1) == vs.to_python(v2)
    # Values agree with Python's own JSON reading (decimals compare numerically).
    for doc, got in zip(docs, vs.to_python(v1)):
        assert _loose_equal(doc, got), (doc, got)


def _loose_equal(expected, got):
    if isinstance(expected, dict):
        return (isinstance(got, dict) and expected.keys() == got.keys()
                and all(_loose_equal(expected[k], got[k]) for k in expected))
    if isinstance(expected, list):
        return (isinstance(got, list) and len(expected) == len(got)
                and all(_loose_equal(a, b) for a, b in zip(expected, got)))
    if isinstance(expected, float) and isinstance(got, decimal.Decimal):
        return decimal.Decimal(repr(expected)) == got
    if type(expected) is int and isinstance(got, decimal.Decimal):
        return decimal.Decimal(expected) == got
    if type(expected) is int and isinstance(got, float):
        # numbers="double": integers beyond int64 become doubles.
        return not -2 ** 63 <= expected < 2 ** 63 and float(expected) == got
    return type(expected) is type(got) and expected == got


@given(st.lists(st.text(), max_size=10))
def test_any_text_parses_or_fails_with_a_row(texts):
    arr = pa.array(texts, pa.string())
    out = vs.from_json(arr, errors="null")
    assert len(out) == len(texts)
    for i, (text, valid) in enumerate(zip(texts, out.is_valid().to_pylist())):
        if valid:
            continue
        try:
            vs.from_json([text])
        except vs.VariantError as e:
            assert str(e).startswith("row 0: ")
        else:
            raise AssertionError(f"row {i} became NULL but parses alone: {text!r}")
