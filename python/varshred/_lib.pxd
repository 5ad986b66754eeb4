# Licensed under the Apache License, Version 2.0.
#
# Declarations mirroring the C++ headers, one block per header (STYLE.md rule 11).
# C++ types keep their names with a C prefix where they would clash with Python ones.

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


# ---- Arrow: status, result, arrays, C Data Interface ------------------------

cdef extern from "arrow/status.h" namespace "arrow" nogil:
    cdef cppclass CStatus "arrow::Status":
        CStatus()
        cbool ok()
        string message()
        string ToString()

cdef extern from "arrow/result.h" namespace "arrow" nogil:
    cdef cppclass CResult "arrow::Result"[T]:
        CResult()
        cbool ok()
        CStatus status()
        T& operator*()

cdef extern from "arrow/type.h" namespace "arrow" nogil:
    cdef cppclass CDataType "arrow::DataType":
        string ToString()
    shared_ptr[CDataType] c_utf8 "arrow::utf8"()

cdef extern from "arrow/array.h" namespace "arrow" nogil:
    cdef cppclass CArray "arrow::Array":
        int64_t length()
        int64_t null_count()
        shared_ptr[CDataType] type()

cdef extern from "arrow/chunked_array.h" namespace "arrow" nogil:
    cdef cppclass CChunkedArray "arrow::ChunkedArray":
        int num_chunks()
        shared_ptr[CArray] chunk(int i)
        shared_ptr[CDataType] type()
        @staticmethod
        CResult[shared_ptr[CChunkedArray]] Make(vector[shared_ptr[CArray]] chunks,
                                                shared_ptr[CDataType] type)

cdef extern from "arrow/memory_pool.h" namespace "arrow" nogil:
    cdef cppclass CMemoryPool "arrow::MemoryPool":
        pass
    CMemoryPool* c_default_memory_pool "arrow::default_memory_pool"()

cdef extern from "arrow/c/abi.h" nogil:
    cdef struct ArrowSchema:
        void (*release)(ArrowSchema*)
    cdef struct ArrowArray:
        void (*release)(ArrowArray*)
    cdef struct ArrowArrayStream:
        void (*release)(ArrowArrayStream*)

cdef extern from "arrow/c/bridge.h" namespace "arrow" nogil:
    CResult[shared_ptr[CArray]] ImportArray(ArrowArray* array, ArrowSchema* schema)
    CResult[shared_ptr[CChunkedArray]] ImportChunkedArray(ArrowArrayStream* stream)
    CStatus ExportArray(const CArray& array, ArrowArray* out, ArrowSchema* out_schema)
    CStatus ExportType(const CDataType& type, ArrowSchema* out)
    CStatus ExportChunkedArray(shared_ptr[CChunkedArray] chunked, ArrowArrayStream* out)


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
        kError
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


# ---- varshred/arrow/variant_array.h -----------------------------------------

cdef extern from "varshred/arrow/variant_array.h" namespace "varshred" nogil:
    cdef enum class VariantLayout "varshred::VariantLayout":
        kCanonical
        kSpark

    shared_ptr[CDataType] VariantStorageType(VariantLayout layout)

    cdef cppclass BinaryColumn:
        cbool IsNull(int64_t i)

    cdef cppclass VariantArrayView:
        @staticmethod
        CResult[VariantArrayView] Make(const shared_ptr[CArray]& array)
        int64_t length()
        cbool IsNull(int64_t i)
        string_view metadata(int64_t i)
        cbool value_is_null(int64_t i)
        string_view value(int64_t i)
        const shared_ptr[CArray]& typed_value()
        const BinaryColumn& metadata_column()

    cdef cppclass VariantArrayBuilder:
        VariantArrayBuilder()
        VariantArrayBuilder(CMemoryPool* pool)
        CStatus Append(string_view metadata, string_view value)
        CStatus AppendNull()
        CStatus Reserve(int64_t rows, int64_t bytes)
        int64_t length()
        CResult[shared_ptr[CArray]] Finish(VariantLayout layout)

    CResult[shared_ptr[CArray]] ToLayout(const shared_ptr[CArray]& array,
                                         VariantLayout layout, CMemoryPool* pool)


# ---- varshred/arrow/json_kernels.h ------------------------------------------

cdef extern from "varshred/arrow/json_kernels.h" namespace "varshred" nogil:
    cdef enum class JsonErrorPolicy "varshred::JsonErrorPolicy":
        kRaise
        kNull

    cdef cppclass JsonToVariantOptions:
        JsonParseOptions parse
        JsonErrorPolicy errors
        VariantLayout layout

    CResult[shared_ptr[CArray]] JsonToVariant(const CArray& strings,
                                              const JsonToVariantOptions& options,
                                              CMemoryPool* pool)
    CResult[shared_ptr[CArray]] VariantToJson(const CArray& variants,
                                              const JsonWriteOptions& options,
                                              CMemoryPool* pool)


# ---- varshred/arrow/validate_kernel.h ---------------------------------------

cdef extern from "varshred/arrow/validate_kernel.h" namespace "varshred" nogil:
    CStatus ValidateVariants(const CArray& variants, const ValidateOptions& options)


# ---- varshred/arrow/shredding_schema.h --------------------------------------

cdef extern from "varshred/arrow/shredding_schema.h" namespace "varshred" nogil:
    cdef cppclass ShreddingSchema:
        ShreddingSchema()
        @staticmethod
        CResult[ShreddingSchema] Parse(string_view ddl)
        @staticmethod
        CResult[ShreddingSchema] FromArrow(const CDataType& typed_value)
        @staticmethod
        CResult[ShreddingSchema] FromPaths(const vector[pair[string, string]]& paths)
        @staticmethod
        ShreddingSchema ValueOnly()
        string ToDdl()
        shared_ptr[CDataType] ToArrow()
        shared_ptr[CDataType] TypedValueArrowType()
        cbool has_typed_value()
        cbool Equals(const ShreddingSchema& other)


# ---- varshred/arrow/shred.h, unshred.h, legacy.h ----------------------------

cdef extern from "varshred/arrow/shred.h" namespace "varshred" nogil:
    cdef enum class NumericShredding "varshred::NumericShredding":
        kLenient
        kStrict

    cdef cppclass ShredOptions:
        NumericShredding numeric

    CResult[shared_ptr[CArray]] Shred(const CArray& variants, const ShreddingSchema& schema,
                                      const ShredOptions& options, CMemoryPool* pool)

cdef extern from "varshred/arrow/unshred.h" namespace "varshred" nogil:
    cdef enum class ConflictPolicy "varshred::ConflictPolicy":
        kError
        kTypedWins

    cdef cppclass UnshredOptions:
        ConflictPolicy on_conflict
        VariantLayout layout

    CResult[shared_ptr[CArray]] Unshred(const CArray& shredded,
                                        const UnshredOptions& options, CMemoryPool* pool)

cdef extern from "varshred/arrow/legacy.h" namespace "varshred" nogil:
    CResult[shared_ptr[CArray]] FromLegacyShredded(const CArray& legacy, CMemoryPool* pool)


# ---- varshred/path.h, arrow/variant_get.h -----------------------------------

cdef extern from "varshred/path.h" namespace "varshred" nogil:
    cdef cppclass VariantPath:
        VariantPath()
        @staticmethod
        CResult[VariantPath] Parse(string_view path)
        string ToString()

cdef extern from "varshred/arrow/variant_get.h" namespace "varshred" nogil:
    cdef enum class VariantGetErrors "varshred::VariantGetErrors":
        kNull
        kRaise

    cdef cppclass VariantGetOptions:
        VariantGetErrors errors
        string timezone

    CResult[shared_ptr[CArray]] VariantGet(const CArray& variants, const VariantPath& path,
                                           const shared_ptr[CDataType]& type,
                                           const VariantGetOptions& options,
                                           CMemoryPool* pool)


# ---- Arrow: schemas, record batches, readers ---------------------------------

cdef extern from "arrow/api.h" namespace "arrow" nogil:
    cdef cppclass CSchema "arrow::Schema":
        pass
    cdef cppclass CRecordBatch "arrow::RecordBatch":
        int64_t num_rows()
    cdef cppclass CRecordBatchReader "arrow::RecordBatchReader":
        pass
    cdef enum CCompressionType "arrow::Compression::type":
        pass

cdef extern from "arrow/c/bridge.h" namespace "arrow" nogil:
    CResult[shared_ptr[CSchema]] ImportSchema(ArrowSchema* schema)
    CResult[shared_ptr[CDataType]] ImportType(ArrowSchema* schema)
    CResult[shared_ptr[CRecordBatch]] ImportRecordBatch(ArrowArray* array,
                                                       ArrowSchema* schema)
    CStatus ExportRecordBatchReader(shared_ptr[CRecordBatchReader] reader,
                                    ArrowArrayStream* out)


# ---- varshred/parquet/writer.h, reader.h ------------------------------------

cdef extern from "varshred/parquet/writer.h" namespace "varshred" nogil:
    cdef enum class ParquetWritePath "varshred::ParquetWritePath":
        kDirect
        kArrow

    cdef cppclass ParquetWriteOptions:
        CCompressionType compression
        optional[int] compression_level
        int64_t row_group_size
        int64_t data_page_size
        cbool dictionary
        cbool statistics
        cbool annotate
        NumericShredding numeric
        ParquetWritePath path
        vector[string] trusted_columns

    cdef cppclass ParquetWriter:
        @staticmethod
        CResult[unique_ptr[ParquetWriter]] Open(const string& path,
                                                const shared_ptr[CSchema]& schema,
                                                cmap[string, ShreddingSchema] shredding,
                                                const ParquetWriteOptions& options,
                                                CMemoryPool* pool)
        CStatus Write(const CRecordBatch& batch)
        CStatus Close()
        void Abort()
        int64_t num_rows()

    CResult[CCompressionType] ParseCompression(string_view name)

cdef extern from "varshred/parquet/reader.h" namespace "varshred" nogil:
    cdef enum class VariantColumnLayout "varshred::VariantColumnLayout":
        kNone
        kUnshredded
        kShredded
        kLegacy

    cdef cppclass ParquetColumnInfo:
        string name
        VariantColumnLayout layout
        cbool annotated
        vector[int] leaves

    cdef cppclass ParquetReadOptions:
        vector[string] columns
        cbool shredded
        int64_t batch_size
        UnshredOptions unshred

    CResult[vector[ParquetColumnInfo]] InspectParquet(const string& path)
    CResult[vector[vector[string]]] ParquetLeafPaths(const string& path)
    CStatus CheckParquetFooter(const string& path)
    CResult[shared_ptr[CRecordBatchReader]] OpenParquetReader(
        const string& path, const ParquetReadOptions& options, CMemoryPool* pool)
    CResult[shared_ptr[CChunkedArray]] ReadParquetLeaves(
        const string& path, const vector[int]& leaves, CMemoryPool* pool)


# ---- varshred/arrow/shredding_stats.h ---------------------------------------

cdef extern from "varshred/arrow/shredding_stats.h" namespace "varshred" nogil:
    cdef cppclass InferOptions:
        double min_fraction
        int max_fields
        int max_depth
        double min_typed_fraction
        cbool narrow_integers

    cdef cppclass PathTypeCount:
        string path
        VariantType type
        int64_t count

    cdef cppclass ShreddingStats:
        ShreddingStats()
        vector[PathTypeCount] TypeCounts()
        CStatus Add(const CArray& variants, CMemoryPool* pool)
        CStatus Merge(const ShreddingStats& other)
        string Serialize()
        CResult[ShreddingSchema] DeriveSchema(const InferOptions& options)
        int64_t rows()
        int64_t sql_null_rows()
