# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
# distutils: language = c++
"""Array kernels (JSON, validation, layouts, shred / unshred, variant_get) run chunk by
chunk with the GIL released, and Variant paths.

Options arrive as C++ enum values: the name tables below (``LAYOUTS`` ...) map the
Python spellings onto them, and the Python modules (varshred.core ...) check the
names, so that parsing and error messages live in Python.
"""

from cpython.buffer cimport (PyBUF_SIMPLE, PyBuffer_FillInfo, PyBuffer_Release,
                             PyObject_GetBuffer)
from cython.operator cimport dereference as deref
from libc.stdint cimport int64_t, uint64_t
from libcpp.memory cimport shared_ptr
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector

from varshred._c_arrow cimport *
from varshred._c_core cimport *
from varshred._c_kernels cimport *
from varshred._capsule cimport (export_array, export_chunks, export_type, import_chunks,
                               import_type)
from varshred._schema cimport ShreddingSchemaHandle
from varshred._status cimport check_status

LAYOUTS = {"canonical": <int>VariantLayout.kCanonical, "spark": <int>VariantLayout.kSpark}
JSON_NUMBERS = {"decimal": <int>JsonNumbers.kDecimal, "double": <int>JsonNumbers.kDouble}
DUPLICATE_KEYS = {"error": <int>DuplicateKeyPolicy.kRaise,
                  "last": <int>DuplicateKeyPolicy.kLastWins}
JSON_ERRORS = {"raise": <int>JsonErrorPolicy.kRaise, "null": <int>JsonErrorPolicy.kNull}
GET_ERRORS = {"null": <int>VariantGetErrors.kNull, "raise": <int>VariantGetErrors.kRaise}
NUMERIC = {"lenient": <int>NumericShredding.kLenient,
           "strict": <int>NumericShredding.kStrict}
ON_CONFLICT = {"error": <int>ConflictPolicy.kRaise,
               "typed-wins": <int>ConflictPolicy.kTypedWins}


# ----------------------------------------------------------------------------
# Kernels: one C++ array -> array function per class, options bound

ctypedef CResult[shared_ptr[CArray]] _ArrayResult


cdef class _Kernel:
    """A C++ array -> array kernel with its options bound; ``run`` is called once per
    chunk without the GIL. Subclasses override ``run``."""

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        cdef _ArrayResult unset
        return unset


cdef object _run_chunks(_Kernel kernel, object data):
    """``kernel`` over every chunk of ``data`` (an array, or a chunked array / stream:
    the result has the same shape); errors count rows across chunks. A stream of no
    chunks gives the type of the kernel's result on no rows of the input's type: some
    results share a child of the input, and so its type."""
    cdef bint chunked = False
    cdef shared_ptr[CDataType] in_type
    cdef vector[shared_ptr[CArray]] chunks = import_chunks(data, &chunked, &in_type)
    cdef vector[shared_ptr[CArray]] out
    cdef _ArrayResult result
    cdef _ArrayResult empty
    cdef int64_t offset = 0
    cdef size_t i
    if chunks.empty():
        empty = MakeEmptyArray(in_type)
        check_status(empty.status())
        with nogil:
            result = kernel.run(deref(empty))
        check_status(result.status())
        return export_chunks(out, chunked, deref(result).get().type())
    for i in range(chunks.size()):
        with nogil:
            result = kernel.run(chunks[i])
        check_status(result.status(), offset)
        out.push_back(deref(result))
        offset += deref(chunks[i]).length()
    return export_chunks(out, chunked, deref(out[0]).type())


cdef class _FromJson(_Kernel):
    cdef JsonToVariantOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return JsonToVariant(deref(chunk), self.options, c_default_memory_pool())


cdef class _ToJson(_Kernel):
    cdef VariantToJsonOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return VariantToJson(deref(chunk), self.options, c_default_memory_pool())


cdef class _Shred(_Kernel):
    cdef ShreddingSchema schema
    cdef ShredOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return Shred(deref(chunk), self.schema, self.options, c_default_memory_pool())


cdef class _Unshred(_Kernel):
    cdef UnshredOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return Unshred(deref(chunk), self.options, c_default_memory_pool())


cdef class _FromLegacy(_Kernel):
    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return FromLegacyShredded(deref(chunk), c_default_memory_pool())


cdef class _ToLayout(_Kernel):
    cdef VariantLayout layout

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return ToLayout(chunk, self.layout, c_default_memory_pool())


cdef class _VariantGet(_Kernel):
    cdef VariantPath path
    cdef shared_ptr[CDataType] type
    cdef VariantGetOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return VariantGet(deref(chunk), self.path, self.type, self.options,
                          c_default_memory_pool())


cdef class _FromArrow(_Kernel):
    cdef ArrowToVariantOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return ArrowToVariant(deref(chunk), self.options, c_default_memory_pool())


cdef class _ToArrow(_Kernel):
    cdef shared_ptr[CDataType] type
    cdef VariantGetOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return VariantToArrow(deref(chunk), self.type, self.options, c_default_memory_pool())


cdef class _SchemaOf(_Kernel):
    cdef SchemaOfVariantOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return SchemaOfVariant(deref(chunk), self.options, c_default_memory_pool())


cdef class _Explode(_Kernel):
    cdef VariantExplodeOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return VariantExplode(deref(chunk), self.options, c_default_memory_pool())


# ----------------------------------------------------------------------------
# Entry points (arguments checked by the caller in varshred.*)

def variant_type(int layout):
    """The pyarrow type of an unshredded Variant column in ``layout``."""
    return export_type(VariantStorageType(<VariantLayout>layout))


def from_json(data, int numbers, int duplicate_keys, int errors, int layout):
    """JSON strings (Arrow string/large_string/string_view data) -> Variant."""
    cdef _FromJson kernel = _FromJson()
    kernel.options.parse.numbers = <JsonNumbers>numbers
    kernel.options.parse.duplicate_keys = <DuplicateKeyPolicy>duplicate_keys
    kernel.options.errors = <JsonErrorPolicy>errors
    kernel.options.layout = <VariantLayout>layout
    return _run_chunks(kernel, data)


def from_json_lines(text, int numbers, int duplicate_keys, int errors, int layout):
    """JSON lines (any bytes-like object) -> Variant: one row per non-blank line."""
    cdef JsonToVariantOptions options
    options.parse.numbers = <JsonNumbers>numbers
    options.parse.duplicate_keys = <DuplicateKeyPolicy>duplicate_keys
    options.errors = <JsonErrorPolicy>errors
    options.layout = <VariantLayout>layout
    cdef Py_buffer buffer
    PyObject_GetBuffer(text, &buffer, PyBUF_SIMPLE)  # any format: read as bytes
    cdef CResult[JsonToVariantResult] result
    try:
        with nogil:
            result = JsonLinesToVariant(
                string_view(<const char*>buffer.buf, <size_t>buffer.len), options,
                c_default_memory_pool())
    finally:
        PyBuffer_Release(&buffer)
    check_status(result.status())
    return export_array(deref(result).variants)


def to_json(data, str timezone not None, int on_conflict, bint sort_keys=False):
    """Variant (any layout, shredded or not) -> JSON strings."""
    cdef _ToJson kernel = _ToJson()
    kernel.options.json.timezone = timezone.encode("utf-8")
    kernel.options.on_conflict = <ConflictPolicy>on_conflict
    kernel.options.sort_keys = sort_keys
    return _run_chunks(kernel, data)


cdef class NativeBuffer:
    """Bytes owned by an Arrow C++ buffer, read through the buffer protocol without a
    copy (``file.write(b)``, ``memoryview(b)``, ``pyarrow.py_buffer(b)``)."""
    cdef shared_ptr[CBuffer] buffer

    def __getbuffer__(self, Py_buffer* view, int flags):
        PyBuffer_FillInfo(view, self, <void*>deref(self.buffer).data(),
                          deref(self.buffer).size(), 1, flags)

    def __len__(self):
        return deref(self.buffer).size()


def to_json_lines(data, str timezone not None, int on_conflict, bint sort_keys=False):
    """Variant -> one NativeBuffer of JSON lines per chunk of ``data``."""
    cdef VariantToJsonOptions options
    options.json.timezone = timezone.encode("utf-8")
    options.on_conflict = <ConflictPolicy>on_conflict
    options.sort_keys = sort_keys
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = import_chunks(data, &chunked)
    cdef CResult[shared_ptr[CBuffer]] result
    cdef NativeBuffer buffer
    cdef int64_t offset = 0
    out = []
    for i in range(chunks.size()):
        with nogil:
            result = VariantToJsonLines(deref(chunks[i]), options)
        check_status(result.status(), offset)
        buffer = NativeBuffer()
        buffer.buffer = deref(result)
        out.append(buffer)
        offset += deref(chunks[i]).length()
    return out


def validate(data, int max_depth, uint64_t max_size, bint allow_unsorted_keys):
    """Raises VariantError naming the first bad row and path; returns None."""
    cdef ValidateOptions options
    options.max_depth = max_depth
    options.max_size = max_size
    options.allow_unsorted_keys = allow_unsorted_keys
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = import_chunks(data, &chunked)
    cdef CStatus status
    cdef int64_t offset = 0
    cdef size_t i
    for i in range(chunks.size()):
        with nogil:
            status = ValidateVariants(deref(chunks[i]), options)
        check_status(status, offset)
        offset += deref(chunks[i]).length()


def to_layout(data, int layout):
    """An unshredded Variant column in ``layout`` (zero-copy where possible)."""
    cdef _ToLayout kernel = _ToLayout()
    kernel.layout = <VariantLayout>layout
    return _run_chunks(kernel, data)


def shred(data, ShreddingSchemaHandle schema, int numeric):
    """Variant -> struct<metadata, value, typed_value> per ``schema``."""
    cdef _Shred kernel = _Shred()
    kernel.schema = schema.schema
    kernel.options.numeric = <NumericShredding>numeric
    return _run_chunks(kernel, data)


def unshred(data, int on_conflict, int layout):
    """Shredded Variant (any layout the spec allows) -> struct<metadata, value>."""
    cdef _Unshred kernel = _Unshred()
    kernel.options.on_conflict = <ConflictPolicy>on_conflict
    kernel.options.layout = <VariantLayout>layout
    return _run_chunks(kernel, data)


def from_legacy_shredded(data):
    """The seed draft's shredded layout -> struct<metadata, value>."""
    return _run_chunks(_FromLegacy(), data)


cdef VariantPath _parse_path(str path) except *:
    cdef string text = path.encode("utf-8")
    cdef CResult[VariantPath] parsed = VariantPath.Parse(
        string_view(text.data(), text.size()))
    check_status(parsed.status())
    return deref(parsed)


def parse_path(str path not None):
    """The segments of a Spark path (VariantPath::Parse): a str per key, an int per
    index. Raises VariantError (INVALID_VARIANT_GET_PATH) for an invalid path."""
    cdef VariantPath parsed = _parse_path(path)
    cdef const PathSegment* segment
    cdef size_t i
    out = []
    for i in range(parsed.segments().size()):
        segment = &parsed.segments()[i]
        out.append(segment.key.decode("utf-8") if segment.is_key() else segment.index)
    return out


def variant_get(data, str path not None, target_type, int errors,
                str timezone not None):
    """The value at ``path``, cast to ``target_type`` (a pyarrow type) or, for None, as
    a Variant."""
    cdef _VariantGet kernel = _VariantGet()
    kernel.path = _parse_path(path)
    if target_type is not None:
        kernel.type = import_type(target_type)
    kernel.options.errors = <VariantGetErrors>errors
    kernel.options.timezone = timezone.encode("utf-8")
    return _run_chunks(kernel, data)


def from_arrow(data, int layout):
    """Typed Arrow data -> Variant (ArrowToVariant)."""
    cdef _FromArrow kernel = _FromArrow()
    kernel.options.layout = <VariantLayout>layout
    return _run_chunks(kernel, data)


def to_arrow(data, target_type, int errors, str timezone not None):
    """Variant -> ``target_type`` by Spark's cast / try_cast rules (VariantToArrow)."""
    cdef _ToArrow kernel = _ToArrow()
    kernel.type = import_type(target_type)
    kernel.options.errors = <VariantGetErrors>errors
    kernel.options.timezone = timezone.encode("utf-8")
    return _run_chunks(kernel, data)


def schema_of_variant(data, bint case_sensitive):
    """Spark's schema_of_variant of every row (SchemaOfVariant)."""
    cdef _SchemaOf kernel = _SchemaOf()
    kernel.options.case_sensitive = case_sensitive
    return _run_chunks(kernel, data)


def schema_of_variant_agg(types, data, bint case_sensitive):
    """Spark's schema_of_variant_agg of the type strings ``types``, then every chunk
    of ``data`` (None for none), merged in that order (VariantSchemaAccumulator)."""
    cdef SchemaOfVariantOptions options
    options.case_sensitive = case_sensitive
    cdef VariantSchemaAccumulator acc = VariantSchemaAccumulator(options)
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks
    cdef CStatus status
    cdef string text
    cdef int64_t offset = 0
    cdef size_t i
    for t in types:
        text = t.encode("utf-8")
        check_status(acc.Merge(string_view(text.data(), text.size())))
    if data is not None:
        chunks = import_chunks(data, &chunked)
    for i in range(chunks.size()):
        with nogil:
            status = acc.Add(deref(chunks[i]))
        check_status(status, offset)
        offset += deref(chunks[i]).length()
    return acc.ToString().decode("utf-8")


def variant_explode(data, bint outer, int layout):
    """struct<row, pos, key, value> per input chunk (VariantExplode); ``row`` counts
    within the chunk."""
    cdef _Explode kernel = _Explode()
    kernel.options.outer = outer
    kernel.options.layout = <VariantLayout>layout
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = import_chunks(data, &chunked)
    cdef vector[shared_ptr[CArray]] out
    cdef _ArrayResult result
    cdef int64_t offset = 0
    cdef size_t i
    lengths = []
    for i in range(chunks.size()):
        with nogil:
            result = kernel.run(chunks[i])
        check_status(result.status(), offset)
        out.push_back(deref(result))
        lengths.append(deref(chunks[i]).length())
        offset += deref(chunks[i]).length()
    return export_chunks(out, True, _explode_type(kernel.options.layout)), lengths


cdef shared_ptr[CDataType] _explode_type(VariantLayout layout) except *:
    import pyarrow as pa
    t = pa.struct([pa.field("row", pa.int64(), False), ("pos", pa.int32()),
                   ("key", pa.string()), ("value", export_type(VariantStorageType(layout)))])
    return import_type(t)
