# Licensed under the Apache License, Version 2.0.
"""The 29 parquet-testing variant/ examples through the Python API (docs/shredding.md#raw-encodings).

Expected values are the decoded binaries (data_dictionary.json is lossy, see docs/shredding.md#raw-encodings),
cross-checked with arrow-rs parquet-variant/tests/variant_interop.rs."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pyarrow as pa
import pytest

import varshred as vs

UTC = dt.timezone.utc
LONG = ("This string is for sure and certainly longer than 64 bytes and it also includes "
        "several non ascii characters such as 🐢, 💖, ♥️, 🎣 and 🤦!!")
PRIMITIVE_STRING = ("This string is longer than 64 bytes and therefore does not fit in a "
                    "short_string and it also includes several non ascii characters such "
                    "as 🐢, 💖, ♥️, 🎣 and 🤦!!")

EXPECTED = {
    "array_empty": [],
    "array_nested": [{"id": 1, "thing": {"names": ["Contrarian", "Spider"]}}, None,
                     {"id": 2, "names": ["Apple", "Ray", None], "type": "if"}],
    "array_primitive": [2, 1, 5, 9],
    "long_string": LONG,
    "object_empty": {},
    "object_nested": {
        "id": 1,
        "observation": {"location": "In the Volcano", "time": "12:34:56",
                        "value": {"humidity": 456, "temperature": 123}},
        "species": {"name": "lava monster", "population": 6789}},
    # Spark wrote it from JSON: "double_field" is really a decimal4 (scale 8).
    "object_primitive": {
        "boolean_false_field": False, "boolean_true_field": True,
        "double_field": Decimal("1.23456789"), "int_field": 1, "null_field": None,
        "string_field": "Apache Parquet", "timestamp_field": "2025-04-16T12:34:56.78"},
    "primitive_binary": bytes.fromhex("031337deadbeefcafe"),
    "primitive_boolean_false": False,
    "primitive_boolean_true": True,
    "primitive_date": dt.date(2025, 4, 16),
    "primitive_decimal16": Decimal("12345678912345678.90"),
    "primitive_decimal4": Decimal("12.34"),
    "primitive_decimal8": Decimal("12345678.90"),
    "primitive_double": 1234567890.1234,
    "primitive_float": 1234567936.0,
    "primitive_int16": 1234,
    "primitive_int32": 123456,
    "primitive_int64": 1234567890123456789,
    "primitive_int8": 42,
    "primitive_null": None,
    "primitive_string": PRIMITIVE_STRING,
    "primitive_time": dt.time(12, 33, 54, 123456),
    "primitive_timestamp": dt.datetime(2025, 4, 16, 16, 34, 56, 780000, tzinfo=UTC),
    # Nanoseconds truncate to microseconds in Python (documented loss).
    "primitive_timestamp_nanos": dt.datetime(2024, 11, 7, 12, 33, 54, 123456, tzinfo=UTC),
    "primitive_timestampntz": dt.datetime(2025, 4, 16, 12, 34, 56, 780000),
    "primitive_timestampntz_nanos": dt.datetime(2024, 11, 7, 12, 33, 54, 123456),
    "primitive_uuid": uuid.UUID("f24f9b64-81fa-49d1-b74e-8c09a6e31c56"),
    "short_string": "Less than 64 bytes (❤️ with utf8)",
}
# Types that Python values cannot carry exactly: float32 and nanoseconds (and a
# top-level None, which from_python reads as a SQL NULL).
LOSSY = {"primitive_null", "primitive_float", "primitive_timestamp_nanos", "primitive_timestampntz_nanos"}


@pytest.fixture(scope="module")
def corpus(corpus_dir):
    d = corpus_dir / "variant"
    names = sorted(p.stem for p in d.glob("*.value"))
    assert len(names) == 29, names
    md = [(d / f"{n}.metadata").read_bytes() for n in names]
    val = [(d / f"{n}.value").read_bytes() for n in names]
    arr = pa.StructArray.from_arrays([pa.array(md, pa.binary()), pa.array(val, pa.binary())],
                                     names=["metadata", "value"])
    return names, arr


def test_corpus_names_match_the_expectations(corpus):
    names, _ = corpus
    assert set(names) == set(EXPECTED)


def test_corpus_validates(corpus):
    vs.validate(corpus[1])
    vs.validate(vs.to_layout(corpus[1], "spark"))


def test_corpus_to_python(corpus):
    names, arr = corpus
    for name, got in zip(names, vs.to_python(arr)):
        expected = EXPECTED[name]
        assert got == expected, name
        assert type(got) is type(expected), name
        if name == "object_nested":
            assert list(got) == ["id", "observation", "species"]


def test_corpus_re_encodes_to_the_same_primitive_bytes(corpus):
    names, arr = corpus
    again = vs.from_python(vs.to_python(arr))
    assert vs.to_python(again) == vs.to_python(arr)
    values = arr.field("value").to_pylist()
    for name, before, after in zip(names, values, again.field("value").to_pylist()):
        if name.startswith("primitive_") or name.endswith("string"):
            if name not in LOSSY:
                assert after == before, name


def test_corpus_json_text_round_trips_logically(corpus):
    names, arr = corpus
    text = vs.to_json(arr)
    assert text.null_count == 0
    reparsed = vs.to_python(vs.from_json(text))
    for name, got in zip(names, reparsed):
        if name in {"array_nested", "array_primitive", "array_empty", "object_empty",
                    "object_nested", "primitive_int8", "primitive_int16",
                    "primitive_int32", "primitive_int64", "primitive_boolean_true",
                    "primitive_boolean_false", "primitive_null", "short_string",
                    "long_string", "primitive_string", "primitive_decimal4"}:
            assert got == EXPECTED[name], name
