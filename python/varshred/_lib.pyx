# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
# distutils: language = c++
"""Low-level bindings: Arrow data in through the PyCapsule protocol, C++ kernels with
the GIL released, Arrow data out as capsules that pyarrow imports.

Only marshalling lives here; argument coercion and chunked fan-out live in
``varshred.core``. Every C++ status goes through :func:`check_status`.
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid, PyCapsule_New
from cpython.unicode cimport PyUnicode_DecodeUTF8
from cython.operator cimport dereference as deref
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libcpp.memory cimport shared_ptr, unique_ptr
from libcpp.map cimport map as cmap
from libcpp.utility cimport move, pair
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector

import datetime as _dt
import decimal as _decimal
import re as _re
import threading as _threading
import uuid as _uuid

import pyarrow as _pa

from varshred.errors import VariantError

cdef extern from *:
    """
    #include <cstdint>
    #include <arrow/status.h>
    #include "varshred/value.h"

    static inline int vs_status_code(const arrow::Status& s) {
      return static_cast<int>(s.code());
    }
    static inline int64_t vs_decimal_hi(const varshred::Decimal& d) {
      return static_cast<int64_t>(d.unscaled >> 64);
    }
    static inline uint64_t vs_decimal_lo(const varshred::Decimal& d) {
      return static_cast<uint64_t>(d.unscaled);
    }
    static inline varshred::Decimal vs_make_decimal(int64_t hi, uint64_t lo,
                                                    uint8_t scale) {
      varshred::Decimal d;
      d.unscaled = static_cast<varshred::int128_t>(
          (static_cast<unsigned __int128>(static_cast<uint64_t>(hi)) << 64) | lo);
      d.scale = scale;
      return d;
    }
    """
    int vs_status_code(const CStatus& s)
    int64_t vs_decimal_hi(const Decimal& d)
    uint64_t vs_decimal_lo(const Decimal& d)
    Decimal vs_make_decimal(int64_t hi, uint64_t lo, uint8_t scale)


# ----------------------------------------------------------------------------
# Status -> exception: the single translation point (STYLE.md rule 12)

# arrow::StatusCode values (arrow/status.h).
_EXCEPTIONS = {
    1: MemoryError,          # OutOfMemory
    2: KeyError,             # KeyError
    3: TypeError,            # TypeError
    4: VariantError,         # Invalid
    5: OSError,              # IOError
    6: VariantError,         # CapacityError
    7: IndexError,           # IndexError
    10: NotImplementedError,  # NotImplemented
}

_ROW_PREFIX = _re.compile(r"^row (\d+)")


cdef int check_status(const CStatus& status, int64_t row_offset=0) except -1:
    """Raises the exception for a failed status. ``row_offset`` is added to a leading
    ``row N`` so that rows count across the chunks of a chunked array."""
    if status.ok():
        return 0
    message = status.message().decode("utf-8", "replace")
    if row_offset:
        message = _ROW_PREFIX.sub(lambda m: f"row {int(m.group(1)) + row_offset}",
                                  message, count=1)
    raise _EXCEPTIONS.get(vs_status_code(status), RuntimeError)(message)


# ----------------------------------------------------------------------------
# Arrow C Data Interface: import from and export to PyCapsules

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


cdef vector[shared_ptr[CArray]] _import_chunks(object obj, bint* chunked) except *:
    """The chunks of any object implementing the Arrow PyCapsule protocol: one for
    ``__arrow_c_array__``, all of them for ``__arrow_c_stream__``."""
    cdef vector[shared_ptr[CArray]] chunks
    cdef shared_ptr[CChunkedArray] stream
    cdef int i
    if hasattr(obj, "__arrow_c_array__"):
        chunked[0] = False
        chunks.push_back(_import_array(obj))
    elif hasattr(obj, "__arrow_c_stream__"):
        chunked[0] = True
        stream = _import_stream(obj)
        for i in range(deref(stream).num_chunks()):
            chunks.push_back(deref(stream).chunk(i))
    else:
        raise TypeError(
            f"expected Arrow data (an object with __arrow_c_array__ or "
            f"__arrow_c_stream__), got {type(obj).__name__}")
    return chunks


cdef object _export_array(const shared_ptr[CArray]& array):
    cdef ArrowSchema* schema = <ArrowSchema*>malloc(sizeof(ArrowSchema))
    cdef ArrowArray* c_array = <ArrowArray*>malloc(sizeof(ArrowArray))
    if schema == NULL or c_array == NULL:
        free(schema)
        free(c_array)
        raise MemoryError()
    schema.release = NULL
    c_array.release = NULL
    # The capsules own the structs from here on, whatever happens next.
    schema_capsule = PyCapsule_New(schema, "arrow_schema", _release_schema_capsule)
    array_capsule = PyCapsule_New(c_array, "arrow_array", _release_array_capsule)
    check_status(ExportArray(deref(array), c_array, schema))
    return _pa.Array._import_from_c_capsule(schema_capsule, array_capsule)


cdef object _export_chunked(const vector[shared_ptr[CArray]]& chunks,
                            const shared_ptr[CDataType]& type):
    cdef CResult[shared_ptr[CChunkedArray]] made = CChunkedArray.Make(chunks, type)
    check_status(made.status())
    cdef ArrowArrayStream* stream = <ArrowArrayStream*>malloc(sizeof(ArrowArrayStream))
    if stream == NULL:
        raise MemoryError()
    stream.release = NULL
    capsule = PyCapsule_New(stream, "arrow_array_stream", _release_stream_capsule)
    check_status(ExportChunkedArray(deref(made), stream))
    return _pa.ChunkedArray._import_from_c_capsule(capsule)


cdef object _export_type(const shared_ptr[CDataType]& type):
    cdef ArrowSchema* schema = <ArrowSchema*>malloc(sizeof(ArrowSchema))
    if schema == NULL:
        raise MemoryError()
    schema.release = NULL
    capsule = PyCapsule_New(schema, "arrow_schema", _release_schema_capsule)
    check_status(ExportType(deref(type), schema))
    return _pa.DataType._import_from_c_capsule(capsule)


cdef object _export_result(const vector[shared_ptr[CArray]]& chunks, bint chunked,
                           const shared_ptr[CDataType]& type):
    if chunked:
        return _export_chunked(chunks, type)
    return _export_array(chunks[0])


# ----------------------------------------------------------------------------
# Array kernels, run chunk by chunk

ctypedef CResult[shared_ptr[CArray]] _ArrayResult


cdef class _Kernel:
    """A C++ array -> array kernel with its options bound; ``run`` is called once per
    chunk without the GIL. Subclasses override ``run``."""

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        cdef _ArrayResult unset
        return unset


cdef object _run_chunks(_Kernel kernel, object data, const shared_ptr[CDataType]& out_type):
    """``kernel`` over every chunk of ``data`` (an array, or a chunked array / stream:
    the result has the same shape, of type ``out_type``); errors count rows across
    chunks."""
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = _import_chunks(data, &chunked)
    cdef vector[shared_ptr[CArray]] out
    cdef _ArrayResult result
    cdef int64_t offset = 0
    cdef size_t i
    for i in range(chunks.size()):
        with nogil:
            result = kernel.run(chunks[i])
        check_status(result.status(), offset)
        out.push_back(deref(result))
        offset += deref(chunks[i]).length()
    return _export_result(out, chunked, out_type)


cdef class _FromJson(_Kernel):
    cdef JsonToVariantOptions options

    cdef _ArrayResult run(self, const shared_ptr[CArray]& chunk) noexcept nogil:
        return JsonToVariant(deref(chunk), self.options, c_default_memory_pool())


cdef class _ToJson(_Kernel):
    cdef JsonWriteOptions options

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


# ----------------------------------------------------------------------------
# Option parsing

cdef VariantLayout _layout(str layout) except *:
    if layout == "canonical":
        return VariantLayout.kCanonical
    if layout == "spark":
        return VariantLayout.kSpark
    raise ValueError(f"layout must be 'canonical' or 'spark', got {layout!r}")


def variant_type(str layout="canonical"):
    """The pyarrow type of an unshredded Variant column in ``layout``."""
    return _export_type(VariantStorageType(_layout(layout)))


# ----------------------------------------------------------------------------
# Kernels over Arrow arrays

def from_json(data, *, str numbers="decimal", str duplicate_keys="error",
              str errors="raise", str layout="canonical"):
    """JSON strings (Arrow string/large_string/string_view data) -> Variant."""
    cdef _FromJson kernel = _FromJson()
    if numbers == "decimal":
        kernel.options.parse.numbers = JsonNumbers.kDecimal
    elif numbers == "double":
        kernel.options.parse.numbers = JsonNumbers.kDouble
    else:
        raise ValueError(f"numbers must be 'decimal' or 'double', got {numbers!r}")
    if duplicate_keys == "error":
        kernel.options.parse.duplicate_keys = DuplicateKeyPolicy.kError
    elif duplicate_keys == "last":
        kernel.options.parse.duplicate_keys = DuplicateKeyPolicy.kLastWins
    else:
        raise ValueError(f"duplicate_keys must be 'error' or 'last', got {duplicate_keys!r}")
    if errors == "raise":
        kernel.options.errors = JsonErrorPolicy.kRaise
    elif errors == "null":
        kernel.options.errors = JsonErrorPolicy.kNull
    else:
        raise ValueError(f"errors must be 'raise' or 'null', got {errors!r}")
    kernel.options.layout = _layout(layout)
    return _run_chunks(kernel, data, VariantStorageType(kernel.options.layout))


def to_json(data, *, str timezone="UTC"):
    """Variant (canonical or Spark layout) -> JSON strings."""
    cdef _ToJson kernel = _ToJson()
    kernel.options.timezone = timezone.encode("utf-8")
    return _run_chunks(kernel, data, c_utf8())


def validate(data, *, int max_depth=500, uint64_t max_size=128 << 20,
             bint allow_unsorted_keys=False):
    """Raises VariantError naming the first bad row and path; returns None."""
    cdef ValidateOptions options
    options.max_depth = max_depth
    options.max_size = max_size
    options.allow_unsorted_keys = allow_unsorted_keys
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = _import_chunks(data, &chunked)
    cdef CStatus status
    cdef int64_t offset = 0
    cdef size_t i
    for i in range(chunks.size()):
        with nogil:
            status = ValidateVariants(deref(chunks[i]), options)
        check_status(status, offset)
        offset += deref(chunks[i]).length()


def to_layout(data, str layout="canonical"):
    """An unshredded Variant column in ``layout`` (zero-copy where possible)."""
    cdef _ToLayout kernel = _ToLayout()
    kernel.layout = _layout(layout)
    return _run_chunks(kernel, data, VariantStorageType(kernel.layout))


# ----------------------------------------------------------------------------
# Python objects -> Variant

class _ConvertError(Exception):
    """Internal: carries an error out of a nested value, collecting the path on the
    way up (so the happy path pays nothing for path tracking)."""

    def __init__(self, exc_type, message, deep=None):
        self.exc_type = exc_type
        self.message = message
        self.path = []
        self.deep = deep  # the container found too deep (see _too_deep)

    def render(self, row):
        path = "$" + "".join(reversed(self.path))
        return self.exc_type(f"row {row}: {path}: {self.message}")


cdef object _EPOCH_NAIVE = _dt.datetime(1970, 1, 1)
cdef object _EPOCH_UTC = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
cdef object _ONE_MICRO = _dt.timedelta(microseconds=1)
cdef object _INT128_LIMIT = 10 ** 38
cdef int64_t _EPOCH_ORDINAL = 719163  # date(1970, 1, 1).toordinal()
cdef ValidateOptions _VALIDATE_DEFAULTS
# Readers reject deeper values, and deeper recursion would overflow the C stack.
cdef Py_ssize_t _MAX_DEPTH = _VALIDATE_DEFAULTS.max_depth


cdef int _too_deep(object container) except -1:
    """Raises the depth error for ``container`` (nested _MAX_DEPTH deep). A container
    that contains itself always ends here: the frames it passes on the way up find
    the cycle (_in_path), so the happy path pays nothing for cycle detection."""
    raise _ConvertError(VariantError, f"nesting deeper than the limit of {_MAX_DEPTH}",
                        container)


cdef int _in_path(object e, object container, str segment) except -1:
    """Adds ``segment`` (the step from ``container`` to its failed child) to the error
    path, unless ``container`` is the one found too deep: then it contains itself, and
    the path restarts so that it ends at the outermost occurrence."""
    if e.deep is container:
        e.message = "the value contains itself (a reference cycle)"
        e.path.clear()
    else:
        e.path.append(segment)
    return 0


cdef inline bytes _utf8(object s):
    """The UTF-8 bytes of ``s``. The caller keeps them in a variable for as long as
    it uses a string_view of them (see _view)."""
    try:
        return (<str>s).encode("utf-8")
    except UnicodeEncodeError as e:
        raise _ConvertError(VariantError, f"string is not valid UTF-8: {e.reason}")


cdef inline string_view _view(bytes data):
    """A view of ``data``, valid while ``data`` lives: never pass a temporary."""
    return string_view(<const char*>data, len(data))


cdef int _append_decimal(VariantBuilder* b, object value) except -1:
    sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):
        raise _ConvertError(VariantError, f"{value} cannot be stored as a Variant decimal")
    cdef int scale
    if exponent > 0:
        unscaled = int(value)
        scale = 0
    else:
        unscaled = int("".join(map(str, digits)) or "0")
        if sign:
            unscaled = -unscaled
        scale = -exponent
    if scale > 38 or abs(unscaled) >= _INT128_LIMIT:
        raise _ConvertError(
            VariantError, f"decimal {value} needs precision > 38 (the Variant maximum)")
    b.AppendDecimal(vs_make_decimal(unscaled >> 64, unscaled & 0xFFFFFFFFFFFFFFFF,
                                    <uint8_t>scale))
    return 0


cdef int _append_int(VariantBuilder* b, object value) except -1:
    if -(1 << 63) <= value < (1 << 63):
        b.AppendInt(<int64_t>value)
        return 0
    if -_INT128_LIMIT < value < _INT128_LIMIT:
        # Larger than int64: an integral decimal, as Spark stores a BigInteger.
        b.AppendDecimal(vs_make_decimal(value >> 64, value & 0xFFFFFFFFFFFFFFFF, 0))
        return 0
    raise _ConvertError(VariantError,
                        f"integer {value} has more than 38 digits (the Variant maximum)")


cdef int _append_object(VariantBuilder* b, object value, int depth) except -1:
    cdef CStatus status
    if depth >= _MAX_DEPTH:
        _too_deep(value)
    b.StartObject()
    for key, item in (<dict>value).items():
        if type(key) is not str and not isinstance(key, str):
            raise _ConvertError(
                TypeError, f"object keys must be str, got {type(key).__name__}")
        key_bytes = _utf8(key)
        b.AddKey(_view(key_bytes))
        try:
            _append(b, item, depth + 1)
        except _ConvertError as e:
            _in_path(e, value,
                     "." + key if key.isidentifier() else "[" + repr(key) + "]")
            raise
    status = b.EndObject()
    if not status.ok():
        raise _ConvertError(VariantError, status.message().decode("utf-8", "replace"))
    return 0


cdef int _append_array(VariantBuilder* b, object value, int depth) except -1:
    cdef Py_ssize_t i = 0
    if depth >= _MAX_DEPTH:
        _too_deep(value)
    b.StartArray()
    for item in value:
        try:
            _append(b, item, depth + 1)
        except _ConvertError as e:
            _in_path(e, value, f"[{i}]")
            raise
        i += 1
    b.EndArray()
    return 0


cdef int _append(VariantBuilder* b, object value, int depth) except -1:
    """Appends ``value``, nested ``depth`` containers deep."""
    cdef type t = type(value)
    cdef int64_t micros
    if value is None:
        b.AppendNull()
    elif t is bool:
        b.AppendBool(value is True)
    elif t is int:
        _append_int(b, value)
    elif t is float:
        b.AppendDouble(<double>value)
    elif t is str:
        data = _utf8(value)
        b.AppendString(_view(data))
    elif t is dict:
        _append_object(b, value, depth)
    elif t is list or t is tuple:
        _append_array(b, value, depth)
    elif t is bytes:
        b.AppendBinary(_view(value))
    # Subclasses and the less common types.
    elif isinstance(value, bool):
        b.AppendBool(bool(value))
    elif isinstance(value, int):
        _append_int(b, int(value))
    elif isinstance(value, float):
        b.AppendDouble(float(value))
    elif isinstance(value, str):
        data = _utf8(str(value))
        b.AppendString(_view(data))
    elif isinstance(value, _decimal.Decimal):
        _append_decimal(b, value)
    elif isinstance(value, _dt.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            micros = (value - _EPOCH_NAIVE) // _ONE_MICRO
            b.AppendTimestampNtzMicros(micros)
        else:
            micros = (value - _EPOCH_UTC) // _ONE_MICRO
            b.AppendTimestampMicros(micros)
    elif isinstance(value, _dt.date):
        b.AppendDate(<int32_t>(value.toordinal() - _EPOCH_ORDINAL))
    elif isinstance(value, _dt.time):
        if value.tzinfo is not None:
            raise _ConvertError(TypeError, "a time with tzinfo cannot be a Variant "
                                "(Variant time has no time zone)")
        micros = ((value.hour * 60 + value.minute) * 60 + value.second) * 1000000
        b.AppendTimeMicros(micros + value.microsecond)
    elif isinstance(value, _uuid.UUID):
        data = value.bytes
        b.AppendUuid(_view(data))
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        b.AppendBinary(_view(data))
    elif isinstance(value, dict):
        _append_object(b, value, depth)
    elif isinstance(value, (list, tuple)):
        _append_array(b, value, depth)
    else:
        raise _ConvertError(TypeError,
                            f"cannot convert {t.__name__} to a Variant value")
    return 0


def from_python(objects, str layout="canonical"):
    """Python values -> one Variant array. A top-level None is a SQL NULL row."""
    cdef VariantLayout c_layout = _layout(layout)
    cdef VariantBuilder builder
    cdef VariantArrayBuilder out
    cdef string metadata
    cdef string value
    cdef Py_ssize_t row = 0
    cdef CStatus finished
    for obj in objects:
        if obj is None:
            check_status(out.AppendNull())
            row += 1
            continue
        try:
            _append(&builder, obj, 0)
        except _ConvertError as e:
            builder.Reset()
            raise e.render(row) from None
        except RecursionError:
            builder.Reset()
            raise VariantError(f"row {row}: value nested too deeply") from None
        metadata.clear()
        value.clear()
        finished = builder.Finish(&metadata, &value)
        if not finished.ok():  # past the limits readers accept (format.h)
            builder.Reset()
            raise VariantError(f"row {row}: " + finished.message().decode("utf-8", "replace"))
        check_status(out.Append(string_view(metadata.data(), metadata.size()),
                                string_view(value.data(), value.size())))
        row += 1
    cdef CResult[shared_ptr[CArray]] result = out.Finish(c_layout)
    check_status(result.status())
    return _export_array(deref(result))


# ----------------------------------------------------------------------------
# Variant -> Python objects

cdef inline object _bytes(string_view v):
    return PyBytes_FromStringAndSize(v.data(), v.size())


cdef object _decimal_to_py(const Decimal& d):
    unscaled = (<object>vs_decimal_hi(d) << 64) | <object>vs_decimal_lo(d)
    # The string constructor is exact (no context rounding).
    return _decimal.Decimal(f"{unscaled}E-{d.scale}")


cdef object _to_py(const VariantView& v):
    cdef VariantType t = v.type()
    cdef ObjectView obj
    cdef ArrayView arr
    cdef uint32_t i
    cdef string_view s
    cdef int64_t x
    if t == VariantType.kNull:
        return None
    if t == VariantType.kBoolean:
        return v.GetBool()
    if (t == VariantType.kInt8 or t == VariantType.kInt16 or t == VariantType.kInt32
            or t == VariantType.kInt64):
        return v.GetInteger()
    if t == VariantType.kString:
        s = v.GetString()
        return PyUnicode_DecodeUTF8(s.data(), s.size(), NULL)
    if t == VariantType.kObject:
        obj = v.GetObject()
        result = {}
        for i in range(obj.num_fields()):
            s = obj.key(i)
            key = PyUnicode_DecodeUTF8(s.data(), s.size(), NULL)
            try:
                result[key] = _to_py(obj.value(i))
            except _ConvertError as e:
                e.path.append("." + key if key.isidentifier() else "[" + repr(key) + "]")
                raise
        return result
    if t == VariantType.kArray:
        arr = v.GetArray()
        items = []
        for i in range(arr.size()):
            try:
                items.append(_to_py(arr.element(i)))
            except _ConvertError as e:
                e.path.append(f"[{i}]")
                raise
        return items
    if t == VariantType.kDouble:
        return v.GetDouble()
    if t == VariantType.kFloat:
        return <double>v.GetFloat()
    if t == VariantType.kDecimal4 or t == VariantType.kDecimal8 or t == VariantType.kDecimal16:
        return _decimal_to_py(v.GetDecimal())
    if t == VariantType.kBinary:
        return _bytes(v.GetBinary())
    if t == VariantType.kUuid:
        return _uuid.UUID(bytes=_bytes(v.GetUuid()))
    try:
        if t == VariantType.kDate:
            return _dt.date.fromordinal(v.GetDate() + _EPOCH_ORDINAL)
        x = v.GetTimeValue()
        if t == VariantType.kTimestampNanos or t == VariantType.kTimestampNtzNanos:
            # Python datetimes hold microseconds: nanoseconds are truncated (floor).
            x = x // 1000 if x >= 0 else -((-x + 999) // 1000)
        if t == VariantType.kTimestampMicros or t == VariantType.kTimestampNanos:
            return _EPOCH_UTC + _dt.timedelta(microseconds=x)
        if t == VariantType.kTimestampNtzMicros or t == VariantType.kTimestampNtzNanos:
            return _EPOCH_NAIVE + _dt.timedelta(microseconds=x)
        if t == VariantType.kTimeNtzMicros:
            if x < 0 or x >= 86400000000:
                raise ValueError(f"time of {x} microseconds is outside one day")
            return _dt.time(x // 3600000000, x // 60000000 % 60, x // 1000000 % 60,
                            x % 1000000)
    except (ValueError, OverflowError) as e:
        type_name = VariantTypeName(t)
        raise _ConvertError(
            VariantError,
            f"{type_name.data()[:type_name.size()].decode()} value out of Python's "
            f"range: {e}")
    raise _ConvertError(NotImplementedError, "unsupported Variant type")


def to_python(data):
    """Variant array (canonical or Spark layout) -> list of Python values."""
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = _import_chunks(data, &chunked)
    cdef CResult[VariantArrayView] made
    cdef VariantArrayView view
    cdef ValidateOptions options
    cdef CStatus status
    cdef string_view metadata
    cdef string_view value
    cdef int64_t offset = 0
    cdef int64_t row
    cdef size_t c
    # Readers accept unsorted field ids (SPEC.md 1.5; DuckDB, Spark's UTF-16 order).
    options.allow_unsorted_keys = True
    out = []
    for c in range(chunks.size()):
        made = VariantArrayView.Make(chunks[c])
        check_status(made.status())
        view = deref(made)
        if view.typed_value().get() != NULL:
            raise VariantError("to_python: the Variant column is shredded (it has a "
                               "typed_value child); unshred it first")
        for row in range(view.length()):
            if view.IsNull(row):
                out.append(None)
                continue
            if view.metadata_column().IsNull(row):
                raise VariantError(f"row {offset + row}: metadata is null in a "
                                   f"non-null row")
            metadata = view.metadata(row)
            if view.value_is_null(row):
                out.append(None)  # a missing value reads as Variant null
                continue
            value = view.value(row)
            # Untrusted bytes: validate before walking them.
            status = Validate(metadata, value, options)
            if not status.ok():
                raise VariantError(f"row {offset + row}: "
                                   + status.message().decode("utf-8", "replace"))
            try:
                out.append(_to_py(VariantView.MakeUnchecked(
                    MetadataView.MakeUnchecked(metadata), value)))
            except _ConvertError as e:
                raise e.render(offset + row) from None
        offset += view.length()
    return out


# ----------------------------------------------------------------------------
# Shredding schemas, shred / unshred, legacy layout

cdef class ShreddingSchemaHandle:
    """Holds one C++ ShreddingSchema; the Python class ``vs.ShreddingSchema`` wraps it."""
    cdef ShreddingSchema schema

    def to_ddl(self):
        return self.schema.ToDdl().decode("utf-8")

    def to_arrow(self):
        if not self.schema.has_typed_value():
            return _export_type(VariantStorageType(VariantLayout.kCanonical))
        return _export_type(self.schema.ToArrow())

    def typed_value_type(self):
        if not self.schema.has_typed_value():
            return None
        return _export_type(self.schema.TypedValueArrowType())

    def equals(self, ShreddingSchemaHandle other):
        return self.schema.Equals(other.schema)


cdef ShreddingSchemaHandle _handle(CResult[ShreddingSchema]& result):
    check_status(result.status())
    cdef ShreddingSchemaHandle h = ShreddingSchemaHandle.__new__(ShreddingSchemaHandle)
    h.schema = deref(result)
    return h


def schema_parse(str ddl):
    cdef string text = ddl.encode("utf-8")
    cdef CResult[ShreddingSchema] result = ShreddingSchema.Parse(string_view(text.data(), text.size()))
    return _handle(result)


def schema_value_only():
    cdef ShreddingSchemaHandle h = ShreddingSchemaHandle.__new__(ShreddingSchemaHandle)
    h.schema = ShreddingSchema.ValueOnly()
    return h


def schema_from_paths(pairs):
    cdef vector[pair[string, string]] paths
    for path, type_name in pairs:
        paths.push_back(pair[string, string](str(path).encode("utf-8"),
                                             str(type_name).encode("utf-8")))
    cdef CResult[ShreddingSchema] result = ShreddingSchema.FromPaths(paths)
    return _handle(result)


cdef shared_ptr[CDataType] _import_type(object type_obj) except *:
    capsule = type_obj.__arrow_c_schema__()
    cdef ArrowSchema* schema = <ArrowSchema*>PyCapsule_GetPointer(capsule, "arrow_schema")
    cdef CResult[shared_ptr[CDataType]] result = ImportType(schema)
    check_status(result.status())
    return deref(result)


def schema_from_arrow(type_obj):
    cdef shared_ptr[CDataType] t = _import_type(type_obj)
    cdef CResult[ShreddingSchema] result = ShreddingSchema.FromArrow(deref(t))
    return _handle(result)


cdef NumericShredding _numeric(str numeric) except *:
    if numeric == "lenient":
        return NumericShredding.kLenient
    if numeric == "strict":
        return NumericShredding.kStrict
    raise ValueError(f"numeric must be 'lenient' or 'strict', got {numeric!r}")


cdef ConflictPolicy _conflict(str on_conflict) except *:
    if on_conflict == "error":
        return ConflictPolicy.kError
    if on_conflict == "typed-wins":
        return ConflictPolicy.kTypedWins
    raise ValueError(f"on_conflict must be 'error' or 'typed-wins', got {on_conflict!r}")


def shred(data, ShreddingSchemaHandle schema, *, str numeric="lenient"):
    """Variant -> struct<metadata, value, typed_value> per ``schema``."""
    cdef _Shred kernel = _Shred()
    kernel.schema = schema.schema
    kernel.options.numeric = _numeric(numeric)
    return _run_chunks(kernel, data, schema.schema.ToArrow())


def unshred(data, *, str on_conflict="error", str layout="canonical"):
    """Shredded Variant (any layout the spec allows) -> struct<metadata, value>."""
    cdef _Unshred kernel = _Unshred()
    kernel.options.on_conflict = _conflict(on_conflict)
    kernel.options.layout = _layout(layout)
    return _run_chunks(kernel, data, VariantStorageType(kernel.options.layout))


def from_legacy_shredded(data):
    """The seed draft's shredded layout -> struct<metadata, value>."""
    return _run_chunks(_FromLegacy(), data, VariantStorageType(VariantLayout.kCanonical))


# ----------------------------------------------------------------------------
# variant_get

def variant_get(data, str path, type_obj=None, *, str errors="null", str timezone="UTC"):
    """The value at ``path``, cast to ``type_obj`` (a pyarrow type) or as a Variant."""
    cdef string path_text = path.encode("utf-8")
    cdef CResult[VariantPath] parsed = VariantPath.Parse(
        string_view(path_text.data(), path_text.size()))
    check_status(parsed.status())
    cdef _VariantGet kernel = _VariantGet()
    kernel.path = deref(parsed)
    if type_obj is not None:
        kernel.type = _import_type(type_obj)
    if errors == "null":
        kernel.options.errors = VariantGetErrors.kNull
    elif errors == "raise":
        kernel.options.errors = VariantGetErrors.kRaise
    else:
        raise ValueError(f"errors must be 'null' or 'raise', got {errors!r}")
    kernel.options.timezone = timezone.encode("utf-8")
    return _run_chunks(kernel, data, kernel.type if type_obj is not None
                       else VariantStorageType(VariantLayout.kCanonical))


# ----------------------------------------------------------------------------
# Parquet

cdef class ParquetFileWriter:
    """One Parquet file being written by varshred's C++ writer (see varshred.parquet).

    Safe to share between threads: ``lock`` serializes the calls (the C++ writer is
    not thread-safe and runs without the GIL), so ``close`` waits for a running
    ``write_batch``, and a call after ``close`` or ``abort`` is an error."""
    cdef unique_ptr[ParquetWriter] writer
    cdef object lock

    def __cinit__(self, *args, **kwargs):
        self.lock = _threading.Lock()

    def __init__(self, str path, schema, dict shredding, *, str compression="zstd",
                 compression_level=None, int64_t row_group_size=1 << 20,
                 int64_t data_page_size=1 << 20, bint dictionary=True,
                 bint statistics=True, bint annotate=True, str numeric="lenient",
                 str write_path="direct", trusted_columns=()):
        cdef ParquetWriteOptions options
        cdef string c_compression = compression.encode("utf-8")
        cdef CResult[CCompressionType] codec = ParseCompression(
            string_view(c_compression.data(), c_compression.size()))
        check_status(codec.status())
        options.compression = deref(codec)
        if compression_level is not None:
            options.compression_level = <int>compression_level
        options.row_group_size = row_group_size
        options.data_page_size = data_page_size
        options.dictionary = dictionary
        options.statistics = statistics
        options.annotate = annotate
        options.numeric = _numeric(numeric)
        for name in trusted_columns:
            options.trusted_columns.push_back(name.encode("utf-8"))
        if write_path == "direct":
            options.path = ParquetWritePath.kDirect
        elif write_path == "arrow":
            options.path = ParquetWritePath.kArrow
        else:
            raise ValueError(f"write_path must be 'direct' or 'arrow', got {write_path!r}")
        cdef cmap[string, ShreddingSchema] c_shredding
        cdef ShreddingSchemaHandle h
        for name, handle in shredding.items():
            h = handle
            c_shredding[name.encode("utf-8")] = h.schema
        capsule = schema.__arrow_c_schema__()
        cdef ArrowSchema* c_schema = <ArrowSchema*>PyCapsule_GetPointer(capsule, "arrow_schema")
        cdef CResult[shared_ptr[CSchema]] imported = ImportSchema(c_schema)
        check_status(imported.status())
        cdef string c_path = path.encode("utf-8")
        cdef CResult[unique_ptr[ParquetWriter]] opened
        with nogil:
            opened = ParquetWriter.Open(c_path, deref(imported), c_shredding, options,
                                        c_default_memory_pool())
        check_status(opened.status())
        self.writer = move(deref(opened))

    def write_batch(self, batch):
        # Acquiring a threading.Lock releases the GIL while it waits, so a thread
        # holding the lock can take the GIL back when its C++ call returns.
        with self.lock:
            self._write_batch(batch)

    def _write_batch(self, batch):
        if not self.writer:
            raise VariantError("the ParquetWriter is closed (by close(), abort() or a "
                               "failed write)")
        schema_capsule, array_capsule = batch.__arrow_c_array__()
        cdef ArrowSchema* c_schema = <ArrowSchema*>PyCapsule_GetPointer(
            schema_capsule, "arrow_schema")
        cdef ArrowArray* c_array = <ArrowArray*>PyCapsule_GetPointer(array_capsule,
                                                                     "arrow_array")
        cdef CResult[shared_ptr[CRecordBatch]] imported = ImportRecordBatch(c_array, c_schema)
        check_status(imported.status())
        cdef CStatus status
        with nogil:
            status = deref(self.writer).Write(deref(deref(imported)))
        if not status.ok():
            self.writer.reset()
        check_status(status)

    def close(self):
        cdef CStatus status
        with self.lock:
            if not self.writer:
                return
            with nogil:
                status = deref(self.writer).Close()
            self.writer.reset()
        check_status(status)

    def abort(self):
        with self.lock:
            if self.writer:
                deref(self.writer).Abort()
                self.writer.reset()

    @property
    def num_rows(self):
        with self.lock:
            return deref(self.writer).num_rows() if self.writer else 0

    def __dealloc__(self):
        # An unclosed writer removes its temporary file (no partial output).
        self.writer.reset()


_LAYOUT_NAMES = {0: None, 1: "unshredded", 2: "shredded", 3: "legacy"}


def parquet_check_footer(str path):
    """Raises VariantError naming the file when its footer metadata is corrupt."""
    cdef CStatus status
    cdef string c_path = path.encode("utf-8")
    with nogil:
        status = CheckParquetFooter(c_path)
    check_status(status)


def parquet_inspect(str path):
    cdef CResult[vector[ParquetColumnInfo]] result
    cdef string c_path = path.encode("utf-8")
    with nogil:
        result = InspectParquet(c_path)
    check_status(result.status())
    out = []
    cdef size_t i
    for i in range(deref(result).size()):
        info = deref(result)[i]
        out.append((info.name.decode("utf-8"), _LAYOUT_NAMES[<int>info.layout],
                    bool(info.annotated), list(info.leaves)))
    return out


def parquet_leaf_paths(str path):
    """Every leaf column's path as a tuple of names (names may contain '.')."""
    cdef CResult[vector[vector[string]]] result
    cdef string c_path = path.encode("utf-8")
    with nogil:
        result = ParquetLeafPaths(c_path)
    check_status(result.status())
    return [tuple(n.decode("utf-8") for n in p) for p in deref(result)]


def parquet_reader(str path, columns=None, *, bint shredded=False,
                   int64_t batch_size=65536, str on_conflict="error"):
    cdef ParquetReadOptions options
    for c in (columns or []):
        options.columns.push_back(c.encode("utf-8"))
    options.shredded = shredded
    options.batch_size = batch_size
    options.unshred.on_conflict = _conflict(on_conflict)
    cdef string c_path = path.encode("utf-8")
    cdef CResult[shared_ptr[CRecordBatchReader]] result
    with nogil:
        result = OpenParquetReader(c_path, options, c_default_memory_pool())
    check_status(result.status())
    cdef ArrowArrayStream* stream = <ArrowArrayStream*>malloc(sizeof(ArrowArrayStream))
    if stream == NULL:
        raise MemoryError()
    stream.release = NULL
    capsule = PyCapsule_New(stream, "arrow_array_stream", _release_stream_capsule)
    check_status(ExportRecordBatchReader(deref(result), stream))
    return _pa.RecordBatchReader._import_from_c_capsule(capsule)


def parquet_read_leaves(str path, leaves):
    cdef vector[int] c_leaves = leaves
    cdef string c_path = path.encode("utf-8")
    cdef CResult[shared_ptr[CChunkedArray]] result
    with nogil:
        result = ReadParquetLeaves(c_path, c_leaves, c_default_memory_pool())
    check_status(result.status())
    cdef vector[shared_ptr[CArray]] chunks
    cdef int i
    for i in range(deref(deref(result)).num_chunks()):
        chunks.push_back(deref(deref(result)).chunk(i))
    return _export_chunked(chunks, deref(deref(result)).type())


# ----------------------------------------------------------------------------
# Shredding statistics and schema inference

cdef extern from *:
    """
    #include <memory>
    #include "varshred/arrow/shredding_stats.h"

    static inline arrow::Status vs_stats_deserialize(
        std::string_view bytes, std::unique_ptr<varshred::ShreddingStats>* out) {
      auto r = varshred::ShreddingStats::Deserialize(bytes);
      if (!r.ok()) return r.status();
      *out = std::make_unique<varshred::ShreddingStats>(std::move(*r));
      return arrow::Status::OK();
    }
    static inline arrow::Status vs_stats_report(const varshred::ShreddingStats& stats,
                                                const varshred::ShreddingSchema& schema,
                                                std::string* out) {
      auto r = stats.Report(schema);
      if (!r.ok()) return r.status();
      *out = r->ToString();
      return arrow::Status::OK();
    }
    """
    CStatus vs_stats_deserialize(string_view bytes, unique_ptr[ShreddingStats]* out)
    CStatus vs_stats_report(const ShreddingStats& stats, const ShreddingSchema& schema,
                            string* out)


cdef class ShreddingStatsHandle:
    """Per-path statistics of Variant values (varshred::ShreddingStats). Safe to
    share between threads: ``lock`` serializes the calls (``add`` runs without the
    GIL)."""
    cdef unique_ptr[ShreddingStats] stats
    cdef object lock

    def __cinit__(self):
        self.stats.reset(new ShreddingStats())
        self.lock = _threading.Lock()

    def add(self, data):
        cdef bint chunked = False
        cdef vector[shared_ptr[CArray]] chunks = _import_chunks(data, &chunked)
        cdef CStatus status
        cdef int64_t offset = 0
        cdef size_t i
        with self.lock:
            for i in range(chunks.size()):
                with nogil:
                    status = deref(self.stats).Add(deref(chunks[i]),
                                                   c_default_memory_pool())
                check_status(status, offset)
                offset += deref(chunks[i]).length()

    def merge(self, ShreddingStatsHandle other):
        if other is self:
            with self.lock:
                check_status(deref(self.stats).Merge(deref(other.stats)))
            return
        # Both locks, always in the same order (a.merge(b) may race b.merge(a)).
        cdef ShreddingStatsHandle first = self if id(self) < id(other) else other
        cdef ShreddingStatsHandle second = other if first is self else self
        with first.lock, second.lock:
            check_status(deref(self.stats).Merge(deref(other.stats)))

    def serialize(self):
        cdef string s
        with self.lock:
            s = deref(self.stats).Serialize()
        return PyBytes_FromStringAndSize(s.data(), s.size())

    def load(self, bytes data):
        with self.lock:
            check_status(vs_stats_deserialize(string_view(data, len(data)), &self.stats))

    def derive(self, double min_fraction, int max_fields, int max_depth,
               double min_typed_fraction, bint narrow_integers):
        cdef InferOptions options
        options.min_fraction = min_fraction
        options.max_fields = max_fields
        options.max_depth = max_depth
        options.min_typed_fraction = min_typed_fraction
        options.narrow_integers = narrow_integers
        cdef CResult[ShreddingSchema] result
        with self.lock:
            result = deref(self.stats).DeriveSchema(options)
        return _handle(result)

    def report(self, ShreddingSchemaHandle schema):
        cdef string out
        with self.lock:
            check_status(vs_stats_report(deref(self.stats), schema.schema, &out))
        return out.decode("utf-8")

    @property
    def rows(self):
        with self.lock:
            return deref(self.stats).rows()

    @property
    def sql_null_rows(self):
        with self.lock:
            return deref(self.stats).sql_null_rows()

    def type_counts(self):
        cdef vector[PathTypeCount] counts
        cdef string_view name
        with self.lock:
            counts = deref(self.stats).TypeCounts()
        out = {}
        for c in counts:
            name = VariantTypeName(c.type)
            out.setdefault(c.path.decode("utf-8", "replace"), {})[
                name.data()[:name.size()].decode()] = c.count
        return out
