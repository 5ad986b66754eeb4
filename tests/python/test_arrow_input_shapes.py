# Licensed under the Apache License, Version 2.0.
"""The same logical Variant data in other physical Arrow shapes (empty slices, chunked
arrays, dictionary children of every index and value type, extension and capsule
wrappers) gives the same results as the plain array."""

from __future__ import annotations

import pyarrow as pa
import pytest

import varshred as vs
from variant_extension import VariantExtensionType

DOCS = ['{"id": 1}', '[1, 2]', None, '"x"', '{"id": 5}']


@pytest.fixture
def variants():
    return vs.from_json(pa.array(DOCS))


def _with_children(v, metadata=None, value=None):
    return pa.StructArray.from_arrays(
        [metadata if metadata is not None else v.field("metadata"),
         value if value is not None else v.field("value")],
        names=["metadata", "value"], mask=v.is_null())


def test_typed_reads_of_an_empty_slice_can_be_concatenated(variants):
    # The typed leaf is handed out without a copy; an empty slice used to keep its
    # offset past the end of the (empty) imported buffer, which pyarrow cannot slice.
    shredded = vs.shred(variants, "struct<id: bigint>")
    empty = vs.variant_get(shredded.slice(2, 0), "$.id", "bigint")
    assert pa.concat_arrays([empty, empty]).to_pylist() == []
    chunked = pa.chunked_array([shredded.slice(0, 2), shredded.slice(2, 0),
                                shredded.slice(2)])
    assert vs.variant_get(chunked, "$.id", "bigint").combine_chunks().to_pylist() == [
        1, None, None, None, 5]
    scalar = vs.shred(vs.from_json(pa.array(["1", "2", "3"])), "double").slice(1, 0)
    assert pa.concat_arrays([vs.to_arrow(scalar, "double")] * 2).to_pylist() == []


@pytest.mark.parametrize("metadata_type", [pa.large_binary(), pa.binary_view(), "dict"])
def test_shred_of_chunks_keeps_the_inputs_metadata_type(variants, metadata_type):
    m = variants.field("metadata")
    m = m.dictionary_encode() if metadata_type == "dict" else m.cast(metadata_type)
    x = _with_children(variants, metadata=m)
    out = vs.shred(pa.chunked_array([x.slice(0, 2), x.slice(2)]), "struct<id: bigint>")
    assert isinstance(out, pa.ChunkedArray)
    assert vs.to_json(vs.unshred(out)).to_pylist() == vs.to_json(variants).to_pylist()


@pytest.mark.parametrize("index_type", [pa.int8(), pa.uint8(), pa.int16(), pa.int32(),
                                        pa.int64(), pa.uint32(), pa.uint64()])
@pytest.mark.parametrize("value_type", [pa.binary(), pa.large_binary(), pa.binary_view(),
                                        pa.large_string()])
def test_dictionary_children_of_any_index_and_value_type(variants, index_type,
                                                         value_type):
    expected = vs.to_json(variants).to_pylist()

    def encode(child):
        d = child.dictionary_encode()
        return pa.DictionaryArray.from_arrays(d.indices.cast(index_type),
                                              d.dictionary.cast(value_type))

    if pa.types.is_large_string(value_type):  # Variant bytes are not text
        variants = vs.from_json(pa.array(['{"id": 1}', None, '"x"']))
        expected = vs.to_json(variants).to_pylist()
        value = variants.field("value")
        x = _with_children(variants, metadata=encode(variants.field("metadata")),
                           value=encode(value.cast(pa.binary())))
    else:
        x = _with_children(variants, metadata=encode(variants.field("metadata")),
                           value=encode(variants.field("value")))
    assert vs.to_json(x).to_pylist() == expected
    assert vs.to_json(vs.shred(x, "struct<id: bigint>")).to_pylist() == expected
    vs.validate(x)


def test_a_dictionary_index_of_a_null_entry_is_a_null_child(variants):
    # pyarrow reads such a slot as null: so does every function, as a null in a plain
    # child (a null value in a valid row is the Variant null; null metadata an error).
    plain = variants.slice(0, 2)
    m, v = plain.field("metadata"), plain.field("value")
    idx = pa.array([0, 1], pa.int32())
    null_value = _with_children(plain, value=pa.DictionaryArray.from_arrays(
        idx, pa.array([v[0].as_py(), None], pa.binary())))
    assert vs.to_json(null_value).to_pylist() == ['{"id":1}', "null"]
    assert vs.to_layout(null_value).field("value").to_pylist()[1] == b"\x00"
    null_metadata = _with_children(plain, metadata=pa.DictionaryArray.from_arrays(
        idx, pa.array([m[0].as_py(), None], pa.binary())))
    for f in (vs.to_layout, vs.to_json, vs.validate):
        with pytest.raises(vs.VariantError, match="row 1: .*metadata is null in a "
                                                  "non-null row"):
            f(null_metadata)


def test_from_arrow_reads_a_null_dictionary_entry_as_a_sql_null():
    d = pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int32()), pa.array(["a", None]))
    out = vs.from_arrow(d)
    assert out.is_null().to_pylist() == [False, True]
    nested = vs.from_arrow(pa.StructArray.from_arrays([d], names=["k"]))
    assert vs.to_json(nested).to_pylist() == ['{"k":"a"}', '{"k":null}']


class _Capsule:
    def __init__(self, array):
        self.array = array

    def __arrow_c_array__(self, requested_schema=None):
        return self.array.__arrow_c_array__(requested_schema)


def test_to_python_rebuilds_shredded_input_in_any_wrapper(variants):
    shredded = vs.shred(variants, "struct<id: bigint>")
    expected = vs.to_python(variants)
    extension = pa.ExtensionArray.from_storage(VariantExtensionType(shredded.type),
                                               shredded)
    for wrapped in (shredded, extension, _Capsule(shredded),
                    pa.chunked_array([shredded.slice(0, 1), shredded.slice(1)])):
        assert vs.to_python(wrapped) == expected
