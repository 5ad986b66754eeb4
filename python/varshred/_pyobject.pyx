# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, boundscheck=False, wraparound=False, embedsignature=True
# distutils: language = c++
"""Python objects <-> Variant values (``vs.from_python`` / ``vs.to_python``)."""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals
from cpython.unicode cimport PyUnicode_DecodeUTF8
from cython.operator cimport dereference as deref
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libcpp.memory cimport shared_ptr
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector

import datetime as _dt
import decimal as _decimal
import uuid as _uuid

from varshred._c_arrow cimport CArray, CResult, CStatus, c_default_memory_pool
from varshred._c_core cimport *
from varshred._c_kernels cimport (
    Unshred, UnshredOptions, VariantArrayBuilder, VariantArrayView, VariantLayout)
from varshred._capsule cimport export_array, import_chunks
from varshred._status cimport check_status, check_status_in
from varshred.errors import VariantError

cdef extern from "varshred_python.h" namespace "varshred::python" nogil:
    int64_t DecimalHigh(const Decimal& d)
    uint64_t DecimalLow(const Decimal& d)
    Decimal MakeDecimal(int64_t hi, uint64_t lo, uint8_t scale)


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
    b.AppendDecimal(MakeDecimal(unscaled >> 64, unscaled & 0xFFFFFFFFFFFFFFFF,
                                    <uint8_t>scale))
    return 0


cdef int _append_int(VariantBuilder* b, object value) except -1:
    if -(1 << 63) <= value < (1 << 63):
        b.AppendInt(<int64_t>value)
        return 0
    if -_INT128_LIMIT < value < _INT128_LIMIT:
        # Larger than int64: an integral decimal, as Spark stores a BigInteger.
        b.AppendDecimal(MakeDecimal(value >> 64, value & 0xFFFFFFFFFFFFFFFF, 0))
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
    # Subclasses and the less common types. A subclass's value is its base type's, as
    # json.dumps stores it: not what an overridden __str__, __int__ or __float__ says
    # (a `class Color(str, Enum)` member is its string, not "Color.RED").
    elif isinstance(value, bool):
        b.AppendBool(bool(value))
    elif isinstance(value, int):
        _append_int(b, int.__int__(value))
    elif isinstance(value, float):
        b.AppendDouble(float.__float__(value))
    elif isinstance(value, str):
        data = _utf8(str.__str__(value))
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
        # Qualified: numpy's bool_ is named "bool", which reads as Python's bool.
        name = (t.__qualname__ if t.__module__ == "builtins"
                else f"{t.__module__}.{t.__qualname__}")
        raise _ConvertError(TypeError, f"cannot convert {name} to a Variant value")
    return 0


def from_python(objects, int layout):
    """Python values -> one Variant array in ``layout`` (a VariantLayout value). A
    top-level None is a SQL NULL row."""
    cdef VariantLayout c_layout = <VariantLayout>layout
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
            check_status_in(finished, f"row {row}: ")
        check_status(out.Append(string_view(metadata.data(), metadata.size()),
                                string_view(value.data(), value.size())))
        row += 1
    cdef CResult[shared_ptr[CArray]] result = out.Finish(c_layout)
    check_status(result.status())
    return export_array(deref(result))


# ----------------------------------------------------------------------------
# Variant -> Python objects

cdef inline object _bytes(string_view v):
    return PyBytes_FromStringAndSize(v.data(), v.size())


cdef object _decimal_to_py(const Decimal& d):
    unscaled = (<object>DecimalHigh(d) << 64) | <object>DecimalLow(d)
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
    """Variant array (canonical or Spark layout, shredded or not) -> list of Python
    values."""
    cdef bint chunked = False
    cdef vector[shared_ptr[CArray]] chunks = import_chunks(data, &chunked)
    cdef shared_ptr[CArray] chunk
    cdef CResult[shared_ptr[CArray]] rebuilt
    cdef UnshredOptions unshred_options
    cdef CResult[VariantArrayView] made
    cdef VariantArrayView view
    cdef ValidateOptions options
    cdef CStatus status
    cdef string_view metadata
    cdef string_view value
    cdef int64_t offset = 0
    cdef int64_t row
    cdef size_t c
    # Readers accept unsorted field ids (docs/format.md#key-order; DuckDB, Spark's UTF-16 order).
    options.allow_unsorted_keys = True
    out = []
    for c in range(chunks.size()):
        chunk = chunks[c]
        made = VariantArrayView.Make(chunk)
        check_status(made.status())
        if deref(made).typed_value().get() != NULL:  # shredded: rebuilt as unshred() does
            with nogil:
                rebuilt = Unshred(deref(chunk), unshred_options, c_default_memory_pool())
            check_status(rebuilt.status(), offset)
            chunk = deref(rebuilt)
            made = VariantArrayView.Make(chunk)
            check_status(made.status())
        view = deref(made)
        for row in range(view.length()):
            if row & 0xFFFF == 0xFFFF:
                PyErr_CheckSignals()  # Ctrl-C within a long column, not after it
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


