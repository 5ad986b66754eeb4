# Licensed under the Apache License, Version 2.0.
"""from_python / to_python, one Python type at a time, with exact Variant bytes."""

from __future__ import annotations

import datetime as dt
import decimal
import struct
import uuid

import pyarrow as pa
import pytest

import varshred as vs

D = decimal.Decimal
UTC = dt.timezone.utc


def value_bytes(obj) -> bytes:
    return vs.from_python([obj]).field("value")[0].as_py()


def hdr(type_id: int) -> bytes:
    return bytes([type_id << 2])


@pytest.mark.parametrize("obj, expected", [
    (True, hdr(1)),
    (False, hdr(2)),
    (0, hdr(3) + b"\x00"),
    (-128, hdr(3) + b"\x80"),
    (128, hdr(4) + struct.pack("<h", 128)),
    (-32769, hdr(5) + struct.pack("<i", -32769)),
    (2 ** 31, hdr(6) + struct.pack("<q", 2 ** 31)),
    (-2 ** 63, hdr(6) + struct.pack("<q", -2 ** 63)),
    (1.5, hdr(7) + struct.pack("<d", 1.5)),
    (D("1.5"), hdr(8) + b"\x01" + struct.pack("<i", 15)),
    (D("-0.001"), hdr(8) + b"\x03" + struct.pack("<i", -1)),
    (D("1234567890.5"), hdr(9) + b"\x01" + struct.pack("<q", 12345678905)),
    (D("1E+3"), hdr(8) + b"\x00" + struct.pack("<i", 1000)),
    (dt.date(1970, 1, 2), hdr(11) + struct.pack("<i", 1)),
    (dt.date(1969, 12, 31), hdr(11) + struct.pack("<i", -1)),
    (dt.datetime(1970, 1, 1, 0, 0, 1, 5, tzinfo=UTC), hdr(12) + struct.pack("<q", 1000005)),
    (dt.datetime(1970, 1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=1))),
     hdr(12) + struct.pack("<q", 0)),
    (dt.datetime(1969, 12, 31, 23, 59, 59, 999999), hdr(13) + struct.pack("<q", -1)),
    (dt.time(0, 0, 1, 2), hdr(17) + struct.pack("<q", 1000002)),
    (b"\x00\xff", hdr(15) + struct.pack("<i", 2) + b"\x00\xff"),
    (bytearray(b"ab"), hdr(15) + struct.pack("<i", 2) + b"ab"),
    (memoryview(b"ab"), hdr(15) + struct.pack("<i", 2) + b"ab"),
    ("", b"\x01"),
    ("é", bytes([(2 << 2) | 1]) + "é".encode()),
    ("x" * 64, hdr(16) + struct.pack("<i", 64) + b"x" * 64),
    (uuid.UUID("f24f9b64-81fa-49d1-b74e-8c09a6e31c56"),
     hdr(20) + bytes.fromhex("f24f9b6481fa49d1b74e8c09a6e31c56")),
    ([], bytes.fromhex("030000")),
    ({}, bytes.fromhex("020000")),
    ([None], bytes.fromhex("0301000100")),
])
def test_scalar_bytes(obj, expected):
    assert value_bytes(obj) == expected


def test_big_integers_become_integral_decimals():
    assert value_bytes(2 ** 63) == hdr(10) + b"\x00" + (2 ** 63).to_bytes(16, "little")
    neg = -(10 ** 38 - 1)
    assert value_bytes(neg) == hdr(10) + b"\x00" + neg.to_bytes(16, "little", signed=True)
    assert vs.to_python(vs.from_python([2 ** 63, neg])) == [D(2 ** 63), D(neg)]


def test_top_level_none_is_sql_null_nested_none_is_variant_null():
    arr = vs.from_python([None, [None], {"a": None}])
    assert arr.is_null().to_pylist() == [True, False, False]
    assert vs.to_json(arr).to_pylist() == [None, "[null]", '{"a":null}']
    assert vs.to_python(arr) == [None, [None], {"a": None}]


def test_subclasses_are_accepted():
    class MyInt(int):
        pass

    class MyStr(str):
        pass

    class MyDict(dict):
        pass

    assert value_bytes(MyInt(5)) == value_bytes(5)
    assert value_bytes(MyStr("s")) == value_bytes("s")
    assert value_bytes(MyDict(a=1)) == value_bytes({"a": 1})
    assert value_bytes((1, 2)) == value_bytes([1, 2])


def test_subclasses_are_stored_by_their_value_not_their_str():
    # Found by probing from outside: subclasses went through str() / int() / float(),
    # so a `class Color(str, Enum)` member was stored as "Color.RED" (its keys, though,
    # as "red"). json.dumps stores the base type's value, and so does varshred now.
    import enum
    import json

    class Color(str, enum.Enum):
        RED = "red"

    class Seven(int):
        def __int__(self):
            return 7

        __index__ = __int__

        def __lt__(self, other):  # comparisons are not how the value is read either
            return True

    class Shown(float):
        def __float__(self):
            return 0.0

    class Loud(str):
        def __str__(self):
            return "LOUD"

    values = [{"c": Color.RED}, {Color.RED: 1}, Seven(3), Seven(2 ** 70), Shown(1.5),
              Loud("quiet"), [Loud("x"), Seven(-4)]]
    expected = [json.dumps(v, separators=(",", ":")) for v in values]
    assert vs.to_json(vs.from_python(values)).to_pylist() == expected
    for v in values:
        assert value_bytes(v) == value_bytes(json.loads(json.dumps(v)))


def test_round_trip_of_every_type():
    values = [
        True, 7, -300, 70000, 2 ** 40, 2.25, float("inf"), D("3.14"), D("-0.000001"),
        D("12345678901234567890.123456789012345678"), "text", "long " * 30, b"\x01\x02",
        dt.date(2024, 2, 29), dt.datetime(2024, 1, 2, 3, 4, 5, 6),
        dt.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=UTC), dt.time(23, 59, 59, 999999),
        uuid.UUID(int=12345), [1, [2, [3]]], {"k": {"n": [None, {"deep": "x"}]}},
    ]
    back = vs.to_python(vs.from_python(values))
    assert back == values
    for a, b in zip(back, values):
        assert type(a) is type(b) or (isinstance(b, (bytearray, tuple)))
    # Aware datetimes come back in UTC.
    tokyo = dt.datetime(2024, 1, 1, 9, tzinfo=dt.timezone(dt.timedelta(hours=9)))
    (out,) = vs.to_python(vs.from_python([tokyo]))
    assert out == tokyo and out.tzinfo == UTC


def test_float_nan_round_trips():
    (out,) = vs.to_python(vs.from_python([float("nan")]))
    assert out != out


def test_objects_are_dicts_with_sorted_fields():
    (obj,) = vs.to_python(vs.from_python([{"b": 1, "a": 2, "é": 3, "A": 4}]))
    assert obj == {"b": 1, "a": 2, "é": 3, "A": 4}
    assert list(obj) == ["A", "a", "b", "é"]  # Variant field order: key bytes


def _single(type_id: int, payload: bytes):
    return pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00"]), pa.array([bytes([type_id << 2]) + payload])],
        names=["metadata", "value"])


def test_nanosecond_timestamps_truncate_to_microseconds():
    ns = 1_700_000_000_123_456_789
    (aware,) = vs.to_python(_single(18, struct.pack("<q", ns)))
    assert aware == dt.datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=UTC)
    (naive,) = vs.to_python(_single(19, struct.pack("<q", ns)))
    assert naive == dt.datetime(2023, 11, 14, 22, 13, 20, 123456)
    # Before the epoch the truncation floors: -1 ns is 1969-12-31 23:59:59.999999.
    (before,) = vs.to_python(_single(19, struct.pack("<q", -1)))
    assert before == dt.datetime(1969, 12, 31, 23, 59, 59, 999999)


def test_float32_reads_as_python_float():
    (f,) = vs.to_python(_single(14, struct.pack("<f", 1.5)))
    assert f == 1.5 and type(f) is float
