# Licensed under the Apache License, Version 2.0.
"""Arrow data crosses into varshred only through the PyCapsule protocol: objects that
implement nothing but __arrow_c_array__ or __arrow_c_stream__ work everywhere."""

from __future__ import annotations

import gc

import pyarrow as pa
import pytest

import varshred as vs


class ArrayOnly:
    """Implements only __arrow_c_array__ (like a minimal third-party library)."""

    def __init__(self, array):
        self._array = array
        self.calls = 0

    def __arrow_c_array__(self, requested_schema=None):
        self.calls += 1
        return self._array.__arrow_c_array__(requested_schema)


class StreamOnly:
    """Implements only __arrow_c_stream__."""

    def __init__(self, chunked):
        self._chunked = chunked
        self.calls = 0

    def __arrow_c_stream__(self, requested_schema=None):
        self.calls += 1
        return self._chunked.__arrow_c_stream__(requested_schema)


def test_array_only_object_through_every_function():
    texts = ArrayOnly(pa.array(['{"a":1}', None, "[true]"]))
    variants = vs.from_json(texts)
    assert texts.calls == 1
    assert isinstance(variants, pa.StructArray)
    wrapped = ArrayOnly(variants)
    assert vs.to_json(wrapped).to_pylist() == ['{"a":1}', None, "[true]"]
    assert vs.to_python(wrapped) == [{"a": 1}, None, [True]]
    assert vs.validate(wrapped) is None
    assert vs.to_layout(wrapped, "spark").type == vs.variant_type("spark")
    assert wrapped.calls == 4


def test_stream_only_object_gives_a_chunked_array():
    texts = StreamOnly(pa.chunked_array([["1", "2"], ['"x"']]))
    variants = vs.from_json(texts)
    assert texts.calls == 1
    assert isinstance(variants, pa.ChunkedArray)
    assert [len(c) for c in variants.chunks] == [2, 1]
    wrapped = StreamOnly(variants)
    assert vs.to_json(wrapped).to_pylist() == ["1", "2", '"x"']
    assert vs.to_python(wrapped) == [1, 2, "x"]
    vs.validate(wrapped)


def test_record_batch_is_not_a_variant_column():
    batch = pa.record_batch({"x": [1]})
    with pytest.raises(TypeError, match='found "x"'):
        vs.to_json(batch)


def test_capsules_are_released():
    pool = pa.default_memory_pool()
    gc.collect()
    before = pool.bytes_allocated()
    for _ in range(50):
        texts = pa.array(['{"key": "' + "v" * 1000 + '"}'] * 100)
        out = vs.to_json(vs.from_json(ArrayOnly(texts)))
        assert len(out) == 100
        del texts, out
    # Capsules that are produced and never consumed are released too.
    for _ in range(50):
        schema_capsule, array_capsule = pa.array(["x" * 10000]).__arrow_c_array__()
        del schema_capsule, array_capsule
    gc.collect()
    assert pool.bytes_allocated() - before < 64 * 1024


def test_output_buffers_belong_to_arrow_after_import():
    out = vs.from_json(['{"a":"' + "x" * 100 + '"}'])
    copy = pa.concat_arrays([out, out])
    del out
    gc.collect()
    assert vs.to_python(copy)[1] == {"a": "x" * 100}


def test_the_parquet_writers_take_capsule_objects(tmp_path):
    docs = pa.array(['{"a": 1}', '{"a": 2}'])
    for i, strings in enumerate((ArrayOnly(docs), StreamOnly(pa.chunked_array([docs])))):
        path = str(tmp_path / f"json{i}.parquet")
        assert vs.parquet.write_json(strings, path) == 2
        assert vs.to_python(vs.parquet.read_table(path)["v"]) == [{"a": 1}, {"a": 2}]
    table = pa.table({"v": vs.from_json(docs)})
    for i, data in enumerate((StreamOnly(table), ArrayOnly(table.to_batches()[0]))):
        path = str(tmp_path / f"table{i}.parquet")
        vs.parquet.write_table(data, path)
        assert vs.to_python(vs.parquet.read_table(path)["v"]) == [{"a": 1}, {"a": 2}]
    with pytest.raises(TypeError, match="expected a pyarrow Table"):
        vs.parquet.write_table([1, 2], str(tmp_path / "x.parquet"))
