# Licensed under the Apache License, Version 2.0.
"""Typed string leaves read from files are UTF-8 checked as residual strings are: a
hostile file (a STRING typed_value column holding invalid bytes, written by pyarrow,
which does not check) fails with an error naming the file, column, row and path, in
read_table, read_paths, iter_batches, unshred and variant_get alike."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import varshred as vs

MD = bytes.fromhex("01 01 00 01 61")  # ["a"]
STRINGS = [b"ok", b"\xff\xfe", b"also ok"]  # row 1 is not UTF-8


def shredded(strings: list[bytes]) -> pa.StructArray:
    """v: {metadata, value, typed_value: {a: {value, typed_value: string}}}."""
    n = len(strings)
    # view(): the Parquet writer stores STRING without checking UTF-8.
    a_typed = pa.array(strings, pa.binary()).view(pa.string())
    a = pa.StructArray.from_arrays([pa.nulls(n, pa.binary()), a_typed],
                                   names=["value", "typed_value"])
    typed = pa.StructArray.from_arrays([a], names=["a"])
    return pa.StructArray.from_arrays(
        [pa.array([MD] * n, pa.binary()), pa.nulls(n, pa.binary()), typed],
        names=["metadata", "value", "typed_value"])


@pytest.fixture
def hostile(tmp_path) -> str:
    path = str(tmp_path / "hostile.parquet")
    pq.write_table(pa.table({"v": shredded(STRINGS)}), path)
    assert str(pq.ParquetFile(path).schema.column(3).logical_type) == "String"
    return path


def test_read_table_names_file_column_row_and_path(hostile):
    with pytest.raises(vs.VariantError) as e:
        vs.parquet.read_table(hostile)
    msg = str(e.value)
    for part in [hostile, 'column "v"', "row 1", "$.a", "not valid UTF-8"]:
        assert part in msg, msg
    with pytest.raises(vs.VariantError, match="row 1, \\$.a: typed string is not valid"):
        list(vs.parquet.iter_batches(hostile))


@pytest.mark.parametrize("type_name", [None, "string", "binary"])
def test_read_paths_names_file_column_row_and_path(hostile, type_name):
    # Before: a raw UnicodeDecodeError from the zero-copy string column.
    with pytest.raises(vs.VariantError) as e:
        vs.parquet.read_paths(hostile, "v", {"$.a": type_name}).to_pylist()
    msg = str(e.value)
    for part in [hostile, "'v'", "row 1", "$.a", "not valid UTF-8"]:
        assert part in msg, msg


def test_kernels_on_the_shredded_array(hostile):
    arr = pq.read_table(hostile)["v"].combine_chunks()
    for fn in [vs.unshred, lambda a: vs.variant_get(a, "$.a", "string"),
               lambda a: vs.variant_get(a, "$.a", "string", errors="null"),
               lambda a: vs.variant_get(a, "$"), lambda a: vs.ShreddingStats().add(a)]:
        with pytest.raises(vs.VariantError, match="row 1, \\$.a: typed string is not valid"):
            fn(arr)


def test_valid_strings_still_read(tmp_path):
    path = str(tmp_path / "good.parquet")
    pq.write_table(pa.table({"v": shredded([b"ok", "\u00e9\U0001F600".encode()])}), path)
    assert vs.to_python(vs.parquet.read_table(path)["v"]) == [
        {"a": "ok"}, {"a": "\u00e9\U0001F600"}]
    assert vs.parquet.read_paths(path, "v", {"$.a": "string"})["$.a"].to_pylist() == [
        "ok", "\u00e9\U0001F600"]


@pytest.mark.parametrize("strings, bad_row", [
    # Each value must be UTF-8 on its own: a character split across two values, whose
    # concatenation is valid, is two invalid values.
    ([b"caf\xc3", b"\xa9 au lait", b"ok"], 0),
    ([b"ok", b"x" * 70 + b"\xed\xa0\x80" + b"y" * 70, b"ok"], 1),  # a surrogate, long
    ([b"ok", b"x" * 70, b"\xf4\x90\x80\x80" + b"z" * 80], 2),  # past U+10FFFF, long
    ([b"ok", b"\xc0\xaf" + b"w" * 100, b"ok"], 1),  # overlong, long
])
def test_each_typed_string_is_checked_on_its_own(strings, bad_row):
    with pytest.raises(vs.VariantError, match=f"row {bad_row}, \\$.a: typed string is not"):
        vs.unshred(shredded(strings))
    good = [s.decode("utf-8", "replace").encode() for s in strings]
    assert len(vs.unshred(shredded(good))) == len(strings)
