# Licensed under the Apache License, Version 2.0.
#
# Declarations of the Parquet reader and writer (cpp/include/varshred/parquet/*.h).

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
from varshred._c_kernels cimport *


# ---- varshred/parquet/writer.h, reader.h ------------------------------------

cdef extern from "varshred/parquet/writer.h" namespace "varshred" nogil:
    cdef cppclass ParquetWriteOptions:
        CCompressionType compression
        optional[int] compression_level
        int64_t row_group_size
        int64_t row_group_bytes
        int64_t data_page_size
        cbool dictionary
        cbool statistics
        cbool annotate
        NumericShredding numeric
        cbool use_threads
        vector[string] trusted_columns
        shared_ptr[CFileSystem] filesystem

    cdef cppclass ParquetWriter:
        @staticmethod
        CResult[unique_ptr[ParquetWriter]] Open(const string& path,
                                                const shared_ptr[CSchema]& schema,
                                                cmap[string, ShreddingSchema] shredding,
                                                const ParquetWriteOptions& options,
                                                CMemoryPool* pool)
        CStatus Write(const CRecordBatch& batch)
        CResult[int64_t] WriteJson(const CArray& strings,
                                   const JsonToVariantOptions& options)
        CResult[int64_t] WriteJsonLines(string_view text, const JsonToVariantOptions& options)
        CStatus Close()
        void Abort()
        int64_t num_rows()
        cbool closed()
        optional[uint32_t] primitive_types_written(const string& name)

    CResult[CCompressionType] ParseCompression(string_view name)

    cbool IsVariantColumnType(const CDataType& type)

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

    cdef cppclass OpenedParquetFile:
        @staticmethod
        CResult[shared_ptr[const OpenedParquetFile]] Open(
            const string& path, const shared_ptr[CFileSystem]& filesystem)
        vector[int64_t] row_group_rows()

    cdef cppclass ParquetReadOptions:
        vector[string] columns
        cbool shredded
        int64_t batch_size
        vector[int] row_groups
        UnshredOptions unshred
        shared_ptr[CFileSystem] filesystem
        cbool int96_as_micros
        cbool dictionaries
        shared_ptr[const OpenedParquetFile] opened

    CResult[vector[ParquetColumnInfo]] InspectParquet(
        const string& path, const shared_ptr[CFileSystem]& filesystem)
    CResult[vector[vector[string]]] ParquetLeafPaths(
        const string& path, const shared_ptr[CFileSystem]& filesystem)
    CStatus CheckParquetFooter(const string& path,
                               const shared_ptr[CFileSystem]& filesystem)
    CResult[shared_ptr[CRecordBatchReader]] OpenParquetReader(
        const string& path, const ParquetReadOptions& options, CMemoryPool* pool)
    CResult[shared_ptr[CChunkedArray]] ReadParquetLeaves(
        const string& path, const vector[int]& leaves, CMemoryPool* pool,
        const vector[int]& row_groups, const shared_ptr[CFileSystem]& filesystem,
        const shared_ptr[const OpenedParquetFile]& opened)


