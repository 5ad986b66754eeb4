# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, embedsignature=True
# distutils: language = c++
"""Arrow data across the boundary through the Arrow C Data Interface (PyCapsule
protocol): any object implementing ``__arrow_c_array__``, ``__arrow_c_stream__`` or
``__arrow_c_schema__`` comes in; results go out as capsules that pyarrow imports
through its public constructors (``pa.array``, ``pa.chunked_array``, ``pa.field``,
``pa.RecordBatchReader.from_stream``), so neither side needs the other's internals.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_New
from cython.operator cimport dereference as deref
from libc.stdlib cimport free, malloc
from libcpp.memory cimport shared_ptr
from libcpp.vector cimport vector

import pyarrow as _pa

from varshred._c_arrow cimport *
from varshred._status cimport check_status


# ----------------------------------------------------------------------------
# Capsules own the C structs: their destructors release what was not moved out.

cdef void _release_schema_capsule(object capsule) noexcept:
    cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(capsule, "arrow_schema")
    if schema != NULL:
        if schema.release != NULL:
            schema.release(schema)
        free(schema)


cdef void _release_array_capsule(object capsule) noexcept:
    cdef ArrowArray* array = <ArrowArray*>PyCapsule_GetPointer(capsule, "arrow_array")
    if array != NULL:
        if array.release != NULL:
            array.release(array)
        free(array)


cdef void _release_stream_capsule(object capsule) noexcept:
    cdef ArrowArrayStream* stream = <ArrowArrayStream*>PyCapsule_GetPointer(
        capsule, "arrow_array_stream")
    if stream != NULL:
        if stream.release != NULL:
            stream.release(stream)
        free(stream)


cdef object _new_schema_capsule(ArrowSchema** out):
    out[0] = <ArrowSchema*>malloc(sizeof(ArrowSchema))
    if out[0] == NULL:
        raise MemoryError()
    out[0].release = NULL
    return PyCapsule_New(out[0], "arrow_schema", _release_schema_capsule)


cdef object _new_array_capsule(ArrowArray** out):
    out[0] = <ArrowArray*>malloc(sizeof(ArrowArray))
    if out[0] == NULL:
        raise MemoryError()
    out[0].release = NULL
    return PyCapsule_New(out[0], "arrow_array", _release_array_capsule)


cdef object _new_stream_capsule(ArrowArrayStream** out):
    out[0] = <ArrowArrayStream*>malloc(sizeof(ArrowArrayStream))
    if out[0] == NULL:
        raise MemoryError()
    out[0].release = NULL
    return PyCapsule_New(out[0], "arrow_array_stream", _release_stream_capsule)


class _Exported:
    """Capsules made by varshred, offered to pyarrow's public importers through the
    PyCapsule protocol. Each capsule can be consumed once."""

    __slots__ = ("schema", "array", "stream")

    def __init__(self, schema=None, array=None, stream=None):
        self.schema = schema
        self.array = array
        self.stream = stream

    def __arrow_c_schema__(self):
        return self.schema

    def __arrow_c_array__(self, requested_schema=None):
        return self.schema, self.array

    def __arrow_c_stream__(self, requested_schema=None):
        return self.stream


# ----------------------------------------------------------------------------
# Import

cdef shared_ptr[CArray] _import_array(object obj) except *:
    schema_capsule, array_capsule = obj.__arrow_c_array__()
    cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(
        schema_capsule, "arrow_schema")
    cdef ArrowArray* array = <ArrowArray*>PyCapsule_GetPointer(array_capsule, "arrow_array")
    cdef CResult[shared_ptr[CArray]] result
    # Moves the array out of its capsule and releases the schema (the capsules'
    # destructors then see release == NULL).
    with nogil:
        result = ImportArray(array, schema)
    check_status(result.status())
    return deref(result)


cdef shared_ptr[CChunkedArray] _import_stream(object obj) except *:
    capsule = obj.__arrow_c_stream__()
    cdef ArrowArrayStream* stream = <ArrowArrayStream*>PyCapsule_GetPointer(
        capsule, "arrow_array_stream")
    cdef CResult[shared_ptr[CChunkedArray]] result
    with nogil:
        result = ImportChunkedArray(stream)
    check_status(result.status())
    return deref(result)


cdef vector[shared_ptr[CArray]] import_chunks(object obj, bint* chunked,
                                              shared_ptr[CDataType]* chunk_type=NULL
                                              ) except *:
    """The chunks of any object implementing the Arrow PyCapsule protocol: one for
    ``__arrow_c_array__``, all of them for ``__arrow_c_stream__``; ``chunk_type``, if
    given, receives their type (known for a stream of no chunks too)."""
    cdef vector[shared_ptr[CArray]] chunks
    cdef shared_ptr[CChunkedArray] stream
    cdef int i
    if hasattr(obj, "__arrow_c_array__"):
        chunked[0] = False
        chunks.push_back(_import_array(obj))
        if chunk_type != NULL:
            chunk_type[0] = deref(chunks[0]).type()
    elif hasattr(obj, "__arrow_c_stream__"):
        chunked[0] = True
        stream = _import_stream(obj)
        for i in range(deref(stream).num_chunks()):
            chunks.push_back(deref(stream).chunk(i))
        if chunk_type != NULL:
            chunk_type[0] = deref(stream).type()
    else:
        raise TypeError(
            f"expected Arrow data (an object with __arrow_c_array__ or "
            f"__arrow_c_stream__), got {type(obj).__name__}")
    return chunks


cdef shared_ptr[CDataType] import_type(object obj) except *:
    """The type of any object implementing ``__arrow_c_schema__`` (a pyarrow type)."""
    capsule = obj.__arrow_c_schema__()
    cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(capsule, "arrow_schema")
    cdef CResult[shared_ptr[CDataType]] result = ImportType(schema)
    check_status(result.status())
    return deref(result)


cdef shared_ptr[CSchema] import_schema(object obj) except *:
    capsule = obj.__arrow_c_schema__()
    cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(capsule, "arrow_schema")
    cdef CResult[shared_ptr[CSchema]] result = ImportSchema(schema)
    check_status(result.status())
    return deref(result)


cdef shared_ptr[CRecordBatch] import_batch(object obj) except *:
    schema_capsule, array_capsule = obj.__arrow_c_array__()
    cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(
        schema_capsule, "arrow_schema")
    cdef ArrowArray* array = <ArrowArray*>PyCapsule_GetPointer(array_capsule, "arrow_array")
    cdef CResult[shared_ptr[CRecordBatch]] result = ImportRecordBatch(array, schema)
    check_status(result.status())
    return deref(result)


# ----------------------------------------------------------------------------
# Export

cdef object export_array(const shared_ptr[CArray]& array):
    """``array`` as a pyarrow Array."""
    cdef ArrowSchema* schema
    cdef ArrowArray* c_array
    # The capsules own the structs from here on, whatever happens next.
    schema_capsule = _new_schema_capsule(&schema)
    array_capsule = _new_array_capsule(&c_array)
    check_status(ExportArray(deref(array), c_array, schema))
    return _pa.array(_Exported(schema=schema_capsule, array=array_capsule))


cdef object export_chunked(const vector[shared_ptr[CArray]]& chunks,
                           const shared_ptr[CDataType]& type):
    """``chunks`` as a pyarrow ChunkedArray: of their type, which may follow the input's
    (shred shares a ``large_binary`` metadata child as it is); of ``type`` when there
    are none."""
    cdef CResult[shared_ptr[CChunkedArray]] made = CChunkedArray.Make(
        chunks, type if chunks.empty() else deref(chunks[0]).type())
    check_status(made.status())
    cdef ArrowArrayStream* stream
    capsule = _new_stream_capsule(&stream)
    check_status(ExportChunkedArray(deref(made), stream))
    return _pa.chunked_array(_Exported(stream=capsule))


cdef object export_chunks(const vector[shared_ptr[CArray]]& chunks, bint chunked,
                          const shared_ptr[CDataType]& type):
    """A ChunkedArray when the input was chunked (see import_chunks), else an Array."""
    if chunked:
        return export_chunked(chunks, type)
    return export_array(chunks[0])


cdef object export_type(const shared_ptr[CDataType]& type):
    """``type`` as a pyarrow DataType."""
    cdef ArrowSchema* schema
    capsule = _new_schema_capsule(&schema)
    check_status(ExportType(deref(type), schema))
    return _pa.field(_Exported(schema=capsule)).type


cdef object export_reader(const shared_ptr[CRecordBatchReader]& reader):
    """``reader`` as a pyarrow RecordBatchReader (batches are pulled lazily)."""
    cdef ArrowArrayStream* stream
    capsule = _new_stream_capsule(&stream)
    check_status(ExportRecordBatchReader(reader, stream))
    return _pa.RecordBatchReader.from_stream(_Exported(stream=capsule))
