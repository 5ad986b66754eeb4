# Licensed under the Apache License, Version 2.0.
"""from_json / to_json options through Python: number modes, duplicates, errors,
time zones. Spark-exact behaviour is checked against real Spark in
test_spark_json.py."""

from __future__ import annotations

import struct

import pyarrow as pa

import varshred as vs


def value_of(text: str, **kwargs) -> bytes:
    return vs.from_json([text], **kwargs).field("value")[0].as_py()


def test_numbers_decimal_first_or_double():
    assert value_of("1.5") == bytes([8 << 2, 1]) + struct.pack("<i", 15)
    assert value_of("1.5", numbers="double") == bytes([7 << 2]) + struct.pack("<d", 1.5)
    # Integers keep the smallest integer width in both modes.
    assert value_of("300") == bytes([4 << 2]) + struct.pack("<h", 300)
    assert value_of("300", numbers="double") == value_of("300")
    # Scientific notation is a double even in decimal mode (as Spark).
    assert value_of("1e2") == bytes([7 << 2]) + struct.pack("<d", 100.0)


def test_integers_beyond_int64_are_decimals_in_decimal_mode():
    (v,) = vs.to_python(vs.from_json(["123456789012345678901234567890"]))
    assert str(v) == "123456789012345678901234567890"


def test_metadata_keys_in_first_seen_order():
    md = vs.from_json(['{"z":{"y":1},"x":2}']).field("metadata")[0].as_py()
    # Header 01 (unsorted, as Spark), 3 keys, offsets 0 1 2 3, then "zyx".
    assert md == bytes.fromhex("0103000102037a7978")


def test_to_json_sorts_keys_and_prints_compactly():
    out = vs.to_json(vs.from_json(['{ "b" : [ 1 , 2 ] , "a" : { } }']))
    assert out.to_pylist() == ['{"a":{},"b":[1,2]}']


def test_to_json_escapes():
    text = '"quote\\" back\\\\ nl\\n tab\\t ctl\\u0001 é 😀"'
    (out,) = vs.to_json(vs.from_json([text])).to_pylist()
    assert out == '"quote\\" back\\\\ nl\\n tab\\t ctl\\u0001 é 😀"'


def test_to_json_time_zone_shifts_timestamps():
    import datetime as dt
    ts = vs.from_python([dt.datetime(2024, 1, 1, 12, tzinfo=dt.timezone.utc)])
    utc, = vs.to_json(ts).to_pylist()
    la, = vs.to_json(ts, timezone="America/Los_Angeles").to_pylist()
    assert utc == '"2024-01-01 12:00:00+00:00"'
    assert la == '"2024-01-01 04:00:00-08:00"'


def test_errors_null_on_chunked_input():
    chunked = pa.chunked_array([["[", "1"], ["{}", "}"]])
    out = vs.from_json(chunked, errors="null")
    assert out.is_null().to_pylist() == [True, False, False, True]
