# Licensed under the Apache License, Version 2.0.
"""Errors: the exception class and the message (row, path) for each failure kind."""

from __future__ import annotations

import datetime as dt
import decimal
import os

import pyarrow as pa
import pytest

import varshred as vs


def bad_bytes_array(metadata: bytes, value: bytes, rows_before: int = 0):
    good = vs.from_python([1] * rows_before)
    md = good.field("metadata").to_pylist() + [metadata]
    val = good.field("value").to_pylist() + [value]
    return pa.StructArray.from_arrays([pa.array(md, pa.binary()), pa.array(val, pa.binary())],
                                      names=["metadata", "value"])


def test_invalid_json_names_the_row():
    with pytest.raises(vs.VariantError, match=r"^row 2: ") as info:
        vs.from_json(["1", "[2]", '{"a": }', "3"])
    assert isinstance(info.value, ValueError)


def test_invalid_json_row_counts_across_chunks():
    chunked = pa.chunked_array([["1", "2"], ["3", "{"]])
    with pytest.raises(vs.VariantError, match=r"^row 3: "):
        vs.from_json(chunked)


def test_duplicate_keys_error_or_last_wins():
    with pytest.raises(vs.VariantError, match=r"^row 0: .*duplicate") as info:
        vs.from_json(['{"a":1,"a":2}'])
    assert "a" in str(info.value)
    assert vs.to_python(vs.from_json(['{"a":1,"a":2}'], duplicate_keys="last")) == [{"a": 2}]


def test_errors_null_turns_bad_rows_into_sql_nulls():
    out = vs.from_json(["1", "{bad", None, '{"a":1,"a":2}', "[]"], errors="null")
    assert out.is_null().to_pylist() == [False, True, True, True, False]
    assert vs.to_python(out) == [1, None, None, None, []]


def test_bad_option_values_raise_value_error():
    with pytest.raises(ValueError, match="numbers must be 'decimal' or 'double'"):
        vs.from_json(["1"], numbers="float")
    with pytest.raises(ValueError, match="duplicate_keys must be 'error' or 'last'"):
        vs.from_json(["1"], duplicate_keys="first")
    with pytest.raises(ValueError, match="errors must be 'raise' or 'null'"):
        vs.from_json(["1"], errors="ignore")
    with pytest.raises(ValueError, match="layout must be"):
        vs.from_json(["1"], layout="parquet")


def test_non_string_input_to_from_json_is_a_type_error():
    with pytest.raises(TypeError, match="string, large_string or string_view"):
        vs.from_json(pa.array([1, 2]))


def test_non_variant_input_is_a_type_error():
    with pytest.raises(TypeError, match="must be a struct array"):
        vs.to_json(pa.array(["x"]))
    with pytest.raises(TypeError, match=r'needs a binary "metadata" child'):
        vs.validate(pa.array([{"value": b"\x00"}]))
    with pytest.raises(TypeError, match=r'found "x"'):
        vs.to_python(pa.array([{"metadata": b"", "value": b"", "x": 1}]))


def test_shredding_given_as_one_string_to_the_writer_is_a_type_error(tmp_path):
    # It was an AttributeError ('str' object has no attribute 'items').
    table = pa.table({"v": vs.from_json(pa.array(['{"a": 1}']))})
    for wrong in ("none", "struct<a: bigint>"):
        with pytest.raises(TypeError, match=r"shredding: a mapping \{column"):
            vs.parquet.write_table(table, str(tmp_path / "t.parquet"), shredding=wrong)
    assert not os.listdir(tmp_path)


def test_validate_names_row_and_path():
    # {"a": [1, <short string of 2 bytes with 1 left>]}
    bad = bad_bytes_array(bytes.fromhex("0101000161"),
                          bytes.fromhex("020100000903020002040c010978"),
                          rows_before=3)
    with pytest.raises(vs.VariantError, match=r"^row 3: \$\.a\[1\]: "):
        vs.validate(bad)
    # The same bytes make to_json and to_python fail the same way, never crash.
    with pytest.raises(vs.VariantError, match=r"^row 3: \$\.a\[1\]: "):
        vs.to_json(bad)
    with pytest.raises(vs.VariantError, match=r"^row 3: \$\.a\[1\]: "):
        vs.to_python(bad)


def test_validate_bad_metadata():
    with pytest.raises(vs.VariantError, match=r"^row 0: metadata: unsupported version"):
        vs.validate(bad_bytes_array(bytes.fromhex("020000"), b"\x00"))


def test_validate_takes_a_null_value_as_the_variant_null():
    # Every reader reads it so (docs/shredding.md); validate agrees.
    md = vs.from_python([1]).field("metadata")
    column = pa.StructArray.from_arrays([md, pa.array([None], pa.binary())],
                                        names=["metadata", "value"])
    vs.validate(column)
    assert vs.to_python(column) == [None]


def test_validate_checks_a_shredded_column_below_its_top_level():
    shredded = vs.shred(vs.from_python([{"a": 1}, {"a": "x"}]), "struct<a: bigint>")
    typed = shredded.field("typed_value")
    field_a = typed.field("a")
    # Row 1's residual "x" cut to its header: readers refuse it.
    cut = pa.array([v if v is None else v[:1] for v in field_a.field("value").to_pylist()],
                   pa.binary())
    bad_a = pa.StructArray.from_arrays([cut, field_a.field("typed_value")],
                                       names=["value", "typed_value"])
    bad = pa.StructArray.from_arrays(
        [shredded.field("metadata"), shredded.field("value"),
         pa.StructArray.from_arrays([bad_a], names=["a"])],
        names=["metadata", "value", "typed_value"])
    with pytest.raises(vs.VariantError, match=r"^row 1, \$\.a: "):
        vs.validate(bad)
    vs.validate(shredded)


def test_truncated_and_random_bytes_never_crash():
    import random
    r = random.Random(7)
    good = vs.from_python([{"k": [1, "s", {"z": 2.5}], "l": "x" * 70}])
    md = good.field("metadata")[0].as_py()
    val = good.field("value")[0].as_py()
    for _ in range(300):
        v = bytearray(val)
        for _ in range(r.randint(1, 3)):
            v[r.randrange(len(v))] = r.randrange(256)
        v = bytes(v[:r.randint(0, len(v))])
        arr = bad_bytes_array(md, v)
        for fn in (vs.validate, vs.to_json, vs.to_python):
            try:
                fn(arr)
            except vs.VariantError as e:
                assert str(e).startswith("row 0: ")


def test_shredded_input_reads_as_json_and_as_python():
    """to_python asked for unshred() first, where to_json read shredded input itself."""
    shredded = pa.StructArray.from_arrays(
        [pa.array([b"\x01\x00\x00"]), pa.array([None], pa.binary()), pa.array([5])],
        names=["metadata", "value", "typed_value"])
    assert vs.to_json(shredded).to_pylist() == ["5"]
    assert vs.to_python(shredded) == [5]
    assert vs.to_python(pa.chunked_array([shredded])) == [5]


def test_from_python_unsupported_type_names_row_and_path():
    with pytest.raises(TypeError, match=r"^row 1: \$\.a\[2\]: cannot convert set"):
        vs.from_python([1, {"a": [0, 1, {1, 2}]}])
    with pytest.raises(TypeError, match=r"^row 0: \$: cannot convert object"):
        vs.from_python([object()])
    with pytest.raises(TypeError, match=r"^row 0: \$\['a b'\]: cannot convert complex"):
        vs.from_python([{"a b": 1j}])
    # Another module's type is named with its module: numpy's bool_ calls itself
    # "bool", which read as if Python's bool were refused.
    Bool = type("bool", (), {"__module__": "numpy"})
    with pytest.raises(TypeError, match=r"^row 0: \$: cannot convert numpy\.bool to"):
        vs.from_python([Bool()])


def test_from_python_non_string_keys_are_a_type_error():
    with pytest.raises(TypeError, match=r"^row 0: \$\.x: object keys must be str, got int"):
        vs.from_python([{"x": {1: "one"}}])


def test_from_python_out_of_range_numbers():
    with pytest.raises(vs.VariantError, match=r"^row 0: \$\[0\]: integer 1{39} has more "
                       r"than 38 digits"):
        vs.from_python([[int("1" * 39)]])
    with pytest.raises(vs.VariantError, match=r"^row 0: \$: decimal .* precision > 38"):
        vs.from_python([decimal.Decimal("1." + "1" * 38)])
    with pytest.raises(vs.VariantError, match=r"cannot be stored as a Variant decimal"):
        vs.from_python([decimal.Decimal("NaN")])


def test_from_python_bad_strings_and_times():
    with pytest.raises(vs.VariantError, match=r"^row 0: \$: string is not valid UTF-8"):
        vs.from_python(["\ud800"])
    with pytest.raises(TypeError, match="time with tzinfo"):
        vs.from_python([dt.time(1, 2, tzinfo=dt.timezone.utc)])


def test_to_python_out_of_range_date_names_row():
    # date of 10**8 days: beyond year 9999.
    value = bytes([11 << 2]) + (10 ** 8).to_bytes(4, "little", signed=True)
    with pytest.raises(vs.VariantError, match=r"^row 0: \$: date value out of Python's range"):
        vs.to_python(bad_bytes_array(bytes.fromhex("010000"), value))


def test_unknown_timezone_is_an_error():
    with pytest.raises(vs.VariantError, match="Nowhere/Special"):
        vs.to_json(vs.from_python([1]), timezone="Nowhere/Special")
