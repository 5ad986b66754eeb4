# Licensed under the Apache License, Version 2.0.
"""from_json / to_json options through Python: number modes, duplicates, errors,
time zones. Spark-exact behaviour is checked against real Spark in
test_spark_json.py."""

from __future__ import annotations

import struct

import pyarrow as pa
import pytest

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


def _non_blank(text: bytes) -> list[str]:
    return [line.decode() for line in text.split(b"\n") if line.strip()]


@pytest.mark.parametrize("text, rows", [
    (b"", []), (b"\n", []), (b'{"a":1}', ['{"a":1}']), (b'{"a":1}\n', ['{"a":1}']),
    (b'\n\n{"a":1}\n \n{"b":2}', ['{"a":1}', '{"b":2}']),
    (b' \x0b\n{"a":1}\r\n\x0c\n\t\n', ['{"a":1}']),
    (b'1\n"x"\n[true, null]', ["1", '"x"', "[true,null]"]),
])
def test_json_lines_give_a_row_per_non_blank_line(text, rows):
    assert vs.to_json(vs.from_json_lines(text)).to_pylist() == rows


def test_json_lines_parse_as_the_same_lines_in_a_string_array(rng):
    """Random documents, blank lines and line ends, read from bytes, from a slice of a
    larger Arrow buffer (rows parsed in place up to the slice's end) and from a
    memoryview: the same rows as from_json of the non-blank lines, byte for byte."""
    pieces = ['{"id": %d, "s": "%s"}', "[%d, 1.50, {}]", '"%d\\u00e9"', "%d", "  ", "", "\t"]
    for trial in range(200):
        lines = [rng.choice(pieces).replace("%d", str(rng.randrange(-10**20, 10**20)))
                 .replace("%s", "x" * rng.randrange(100)) for _ in range(rng.randrange(30))]
        text = ("\n".join(rng.choice(["", "\r"]) + line for line in lines)
                + rng.choice(["", "\n", "\r\n"])).encode()
        expected = vs.from_json(_non_blank(text))
        host = pa.py_buffer(b"[" * 7 + text + b"{" * rng.randrange(80))
        for source in (text, host.slice(7, len(text)), memoryview(text)):
            assert vs.from_json_lines(source).equals(expected), trial


def test_rows_back_to_back_read_as_each_row_alone(rng):
    """Rows lying back to back in one Arrow buffer are indexed a window at a time: rows
    whose quotes, escapes or UTF-8 would change how later rows read as one text, and
    rows cut from valid documents at random, give what each row gives alone (errors as
    nulls), as a string array, as a slice of one and as JSON lines."""
    hostile = ['{"a":', "1}", '["a', '[" [3]', '{"s":"x\\"}', '{"t":"u"}', '["\\',
               '"]"', '{"c":"\u00e9', '{"x":1} {"y":2}', "[5]", "\t{}\r", '"s"', "8"]
    docs = ['{"id": 7, "name": "n\\"", "tags": ["a", "é"], "more": {"x": [1, 2.5]}}',
            '[{"k": null}, true, "x", -0.0, 12345678901234567890]']
    for trial in range(150):
        rows = [rng.choice(hostile) if rng.random() < 0.3 else
                rng.choice(docs)[:rng.randrange(200)] if rng.random() < 0.3 else
                rng.choice(docs) for _ in range(rng.randrange(1, 40))]
        alone = [vs.to_json(vs.from_json([r], errors="null"))[0].as_py() for r in rows]
        strings = pa.array(["[0]"] + rows)
        for array in (strings.slice(1), pa.array(rows)):
            assert vs.to_json(vs.from_json(array, errors="null")).to_pylist() == alone, trial
        lines = [(r, a) for r, a in zip(rows, alone) if r.strip() and "\n" not in r]
        text = "\n".join(r for r, _ in lines).encode()
        got = vs.to_json(vs.from_json_lines(text, errors="null")).to_pylist()
        assert got == [a for _, a in lines], trial


def test_json_lines_errors_count_non_blank_lines():
    with pytest.raises(vs.VariantError, match=r"^row 2: invalid JSON at byte 5"):
        vs.from_json_lines(b'{}\n\n[1]\n  \n{"a":}\n{}')
    v = vs.from_json_lines(b'{}\n\n{"a":}\n[1]\n', errors="null")
    assert v.is_null().to_pylist() == [False, True, False]
    with pytest.raises(ValueError, match="errors"):
        vs.from_json_lines(b"{}", errors="skip")
    with pytest.raises(TypeError, match="bytes-like"):
        vs.from_json_lines('{"a": 1}')  # text, not bytes: encode it first


@pytest.mark.parametrize("next_row", ["}" * 100, "]" * 100, "x" * 100, None],
                         ids=["braces", "brackets", "letters", "last"])
def test_a_rows_error_does_not_depend_on_the_row_after_it(next_row):
    # A row followed by enough bytes is parsed where it lies in the buffer; simdjson looks
    # at the byte after a document to decide whether its containers close: that was the
    # next row's first byte.
    rows = ['{"a": [1}'] + ([next_row] if next_row is not None else [])
    expected = r"row 0: invalid JSON at byte 8: unexpected character"
    with pytest.raises(vs.VariantError, match=expected):
        vs.from_json(pa.array(rows))
    with pytest.raises(vs.VariantError, match=expected):
        vs.from_json_lines("\n".join(rows).encode())


def test_arrow_json_and_dictionary_encoded_text_are_json_input(tmp_path):
    # Found by probing from outside: pyarrow's canonical JSON type (arrow.json) and
    # dictionary-encoded strings, which Parquet readers give for repeated text, were
    # refused as JSON input.
    docs = ['{"a":1}', None, "[2]", '{"a":1}']
    expected = vs.from_json(pa.array(docs))
    for text in (pa.array(docs, pa.json_()), pa.array(docs).dictionary_encode(),
                 pa.chunked_array([pa.array(docs, pa.json_())])):
        got = vs.from_json(text)
        got = got.combine_chunks() if isinstance(got, pa.ChunkedArray) else got
        assert got.equals(expected)
        path = str(tmp_path / "out.parquet")
        assert vs.parquet.write_json(text, path) == 4
        assert vs.to_json(vs.parquet.read_table(path)["v"]).to_pylist() == docs
        stats = vs.ShreddingStats()
        stats.add_json(text)
        assert stats.rows == 4
