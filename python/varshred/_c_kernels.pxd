# Licensed under the Apache License, Version 2.0.
#
# Declarations of the Arrow kernels (cpp/include/varshred/arrow/*.h).

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

from varshred._c_arrow cimport *
from varshred._c_core cimport *


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

    cdef cppclass JsonToVariantResult:
        shared_ptr[CArray] variants
        int64_t invalid_rows

    CResult[JsonToVariantResult] JsonLinesToVariant(string_view text,
                                                    const JsonToVariantOptions& options,
                                                    CMemoryPool* pool)


# ---- varshred/arrow/validate_kernel.h ---------------------------------------

cdef extern from "varshred/arrow/validate_kernel.h" namespace "varshred" nogil:
    CStatus ValidateVariants(const CArray& variants, const ValidateOptions& options)


# ---- varshred/arrow/shredding_schema.h --------------------------------------

cdef extern from "varshred/arrow/shredding_schema.h" namespace "varshred" nogil:
    cdef enum class ShreddingKind "varshred::ShreddingSchema::Kind":
        kValueOnly
        kPrimitive
        kObject
        kArray

    cdef cppclass ShreddingSchema:
        ShreddingSchema()
        ShreddingKind kind()
        VariantType type()
        int precision()
        int scale()
        @staticmethod
        CResult[ShreddingSchema] Parse(string_view ddl)
        @staticmethod
        CResult[ShreddingSchema] ParseSqlType(string_view ddl)
        @staticmethod
        CResult[ShreddingSchema] FromArrow(const CDataType& typed_value)
        @staticmethod
        CResult[ShreddingSchema] FromPaths(const vector[pair[string, string]]& paths)
        @staticmethod
        ShreddingSchema ValueOnly()
        string ToDdl()
        shared_ptr[CDataType] ToArrow()
        shared_ptr[CDataType] TypedValueArrowType()
        shared_ptr[CDataType] SqlArrowType()
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
        kRaise
        kTypedWins

    cdef cppclass UnshredOptions:
        ConflictPolicy on_conflict
        VariantLayout layout
        cbool check_unshredded_values

    CResult[shared_ptr[CArray]] Unshred(const CArray& shredded,
                                        const UnshredOptions& options, CMemoryPool* pool)

# Declared after unshred.h: the options name ConflictPolicy.
cdef extern from "varshred/arrow/json_kernels.h" namespace "varshred" nogil:
    cdef cppclass VariantToJsonOptions:
        JsonWriteOptions json
        ConflictPolicy on_conflict
        cbool sort_keys

    CResult[shared_ptr[CArray]] VariantToJson(const CArray& variants,
                                              const VariantToJsonOptions& options,
                                              CMemoryPool* pool)
    CResult[shared_ptr[CBuffer]] VariantToJsonLines(const CArray& variants,
                                                    const VariantToJsonOptions& options)

cdef extern from "varshred/arrow/legacy.h" namespace "varshred" nogil:
    CResult[shared_ptr[CArray]] FromLegacyShredded(const CArray& legacy, CMemoryPool* pool)


# ---- varshred/arrow/variant_get.h ---------------------------------------------

cdef extern from "varshred/arrow/variant_get.h" namespace "varshred" nogil:
    cdef enum class VariantGetErrors "varshred::VariantGetErrors":
        kRaise
        kNull

    cdef cppclass VariantGetOptions:
        VariantGetErrors errors
        string timezone

    CResult[shared_ptr[CArray]] VariantGet(const CArray& variants, const VariantPath& path,
                                           const shared_ptr[CDataType]& type,
                                           const VariantGetOptions& options,
                                           CMemoryPool* pool)


# ---- varshred/arrow/arrow_to_variant.h, variant_to_arrow.h ---------------------

cdef extern from "varshred/arrow/arrow_to_variant.h" namespace "varshred" nogil:
    cdef cppclass ArrowToVariantOptions:
        VariantLayout layout

    CResult[shared_ptr[CArray]] ArrowToVariant(const CArray& array,
                                               const ArrowToVariantOptions& options,
                                               CMemoryPool* pool)

cdef extern from "varshred/arrow/variant_to_arrow.h" namespace "varshred" nogil:
    CResult[shared_ptr[CArray]] VariantToArrow(const CArray& variants,
                                               const shared_ptr[CDataType]& type,
                                               const VariantGetOptions& options,
                                               CMemoryPool* pool)


cdef extern from "varshred/arrow/schema_of_variant.h" namespace "varshred" nogil:
    cdef cppclass SchemaOfVariantOptions:
        cbool case_sensitive

    CResult[shared_ptr[CArray]] SchemaOfVariant(const CArray& variants,
                                                const SchemaOfVariantOptions& options,
                                                CMemoryPool* pool)

    cdef cppclass VariantSchemaAccumulator:
        VariantSchemaAccumulator()
        VariantSchemaAccumulator(SchemaOfVariantOptions options)
        CStatus Add(const CArray& variants)
        CStatus Merge(string_view type)
        string ToString()

cdef extern from "varshred/arrow/variant_explode.h" namespace "varshred" nogil:
    cdef cppclass VariantExplodeOptions:
        cbool outer
        VariantLayout layout

    CResult[shared_ptr[CArray]] VariantExplode(const CArray& variants,
                                               const VariantExplodeOptions& options,
                                               CMemoryPool* pool)


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
        CStatus AddJson(const CArray& strings, const JsonToVariantOptions& options)
        CStatus Merge(const ShreddingStats& other)
        string Serialize()
        CResult[ShreddingSchema] DeriveSchema(const InferOptions& options)
        int64_t rows()
        int64_t sql_null_rows()
