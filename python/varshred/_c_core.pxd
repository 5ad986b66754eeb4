# Licensed under the Apache License, Version 2.0.
#
# Declarations of the varshred core headers (cpp/include/varshred/*.h), one block per
# header (docs/architecture.md#python-boundary).

# distutils: language = c++

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libcpp cimport bool as cbool
from libcpp.map cimport map as cmap
from libcpp.memory cimport shared_ptr, unique_ptr
from libcpp.optional cimport optional
from libcpp.utility cimport pair
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector

from varshred._c_arrow cimport CStatus, CResult


# ---- varshred/format.h -------------------------------------------------------

cdef extern from "varshred/format.h" namespace "varshred" nogil:
    cdef enum class VariantType "varshred::VariantType":
        kNull
        kBoolean
        kInt8
        kInt16
        kInt32
        kInt64
        kFloat
        kDouble
        kDecimal4
        kDecimal8
        kDecimal16
        kDate
        kTimestampMicros
        kTimestampNtzMicros
        kTimeNtzMicros
        kTimestampNanos
        kTimestampNtzNanos
        kBinary
        kString
        kUuid
        kObject
        kArray
    string_view VariantTypeName(VariantType type)
    const uint8_t kMaxPrimitiveTypeId
    const int kMaxParquetSchemaDepth

cdef extern from "varshred/value.h" namespace "varshred" nogil:
    VariantType TypeFromHeader(uint8_t header)


# ---- varshred/metadata.h -----------------------------------------------------

cdef extern from "varshred/metadata.h" namespace "varshred" nogil:
    cdef cppclass MetadataView:
        MetadataView()
        @staticmethod
        MetadataView MakeUnchecked(string_view bytes)
        uint32_t size()
        string_view key(uint32_t id)


# ---- varshred/value.h --------------------------------------------------------

cdef extern from "varshred/value.h" namespace "varshred" nogil:
    cdef cppclass Decimal:
        uint8_t scale

    cdef cppclass ValidateOptions:
        int max_depth
        uint64_t max_size
        cbool allow_unsorted_keys

    cdef cppclass ObjectView
    cdef cppclass ArrayView

    cdef cppclass VariantView:
        VariantView()
        @staticmethod
        VariantView MakeUnchecked(MetadataView metadata, string_view value)
        VariantType type()
        cbool GetBool()
        int64_t GetInteger()
        float GetFloat()
        double GetDouble()
        Decimal GetDecimal()
        int32_t GetDate()
        int64_t GetTimeValue()
        string_view GetString()
        string_view GetBinary()
        string_view GetUuid()
        ObjectView GetObject()
        ArrayView GetArray()

    cdef cppclass ObjectView:
        uint32_t num_fields()
        string_view key(uint32_t i)
        VariantView value(uint32_t i)

    cdef cppclass ArrayView:
        uint32_t size()
        VariantView element(uint32_t i)


# ---- varshred/builder.h ------------------------------------------------------

cdef extern from "varshred/builder.h" namespace "varshred" nogil:
    cdef enum class DuplicateKeyPolicy "varshred::DuplicateKeyPolicy":
        kRaise
        kLastWins

    cdef cppclass VariantBuilder:
        VariantBuilder()
        VariantBuilder(DuplicateKeyPolicy duplicates)
        void AppendNull()
        void AppendBool(cbool v)
        void AppendInt(int64_t v)
        void AppendDouble(double v)
        void AppendDecimal(Decimal d)
        void AppendDate(int32_t days)
        void AppendTimestampMicros(int64_t v)
        void AppendTimestampNtzMicros(int64_t v)
        void AppendTimeMicros(int64_t v)
        void AppendString(string_view v)
        void AppendBinary(string_view v)
        void AppendUuid(string_view bytes16)
        void StartObject()
        void AddKey(string_view key)
        CStatus EndObject()
        void StartArray()
        void EndArray()
        CStatus Finish(string* metadata, string* value)
        void Reset()


# ---- varshred/validate.h -----------------------------------------------------

cdef extern from "varshred/validate.h" namespace "varshred" nogil:
    CStatus Validate(string_view metadata, string_view value,
                     const ValidateOptions& options)


# ---- varshred/json.h ---------------------------------------------------------

cdef extern from "varshred/json.h" namespace "varshred" nogil:
    cdef enum class JsonNumbers "varshred::JsonNumbers":
        kDecimal
        kDouble

    cdef cppclass JsonParseOptions:
        JsonNumbers numbers
        DuplicateKeyPolicy duplicate_keys
        int max_depth

    cdef cppclass JsonWriteOptions:
        string timezone


# ---- varshred/path.h ---------------------------------------------------------

cdef extern from "varshred/path.h" namespace "varshred" nogil:
    cdef cppclass PathSegment:
        string key
        int32_t index
        cbool is_key()

    cdef cppclass VariantPath:
        VariantPath()
        const vector[PathSegment]& segments()
        @staticmethod
        CResult[VariantPath] Parse(string_view path)
        string ToString()

