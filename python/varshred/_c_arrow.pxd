# Licensed under the Apache License, Version 2.0.
#
# Declarations of the Arrow C++ API varshred uses (status, result, types, arrays,
# the C Data Interface). Mirrors the headers, one block per header.

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

# ---- status, result, arrays, C Data Interface ---------------------------------

cdef extern from "arrow/status.h" namespace "arrow" nogil:
    cdef enum CStatusCode "arrow::StatusCode":
        kOutOfMemory "arrow::StatusCode::OutOfMemory"
        kKeyError "arrow::StatusCode::KeyError"
        kTypeError "arrow::StatusCode::TypeError"
        kInvalid "arrow::StatusCode::Invalid"
        kIOError "arrow::StatusCode::IOError"
        kCapacityError "arrow::StatusCode::CapacityError"
        kIndexError "arrow::StatusCode::IndexError"
        kNotImplemented "arrow::StatusCode::NotImplemented"

    cdef cppclass CStatusDetail "arrow::StatusDetail":
        string ToString()

    cdef cppclass CStatus "arrow::Status":
        CStatus()
        cbool ok()
        CStatusCode code()
        string message()
        const shared_ptr[CStatusDetail]& detail()
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
    shared_ptr[CDataType] c_decimal128 "arrow::decimal128"(int32_t precision, int32_t scale)

cdef extern from "arrow/array.h" namespace "arrow" nogil:
    cdef cppclass CArray "arrow::Array":
        int64_t length()
        int64_t null_count()
        shared_ptr[CDataType] type()

cdef extern from "arrow/array/util.h" namespace "arrow" nogil:
    CResult[shared_ptr[CArray]] MakeEmptyArray(shared_ptr[CDataType] type)

cdef extern from "arrow/chunked_array.h" namespace "arrow" nogil:
    cdef cppclass CChunkedArray "arrow::ChunkedArray":
        int num_chunks()
        shared_ptr[CArray] chunk(int i)
        shared_ptr[CDataType] type()
        @staticmethod
        CResult[shared_ptr[CChunkedArray]] Make(vector[shared_ptr[CArray]] chunks,
                                                shared_ptr[CDataType] type)

cdef extern from "arrow/buffer.h" namespace "arrow" nogil:
    cdef cppclass CBuffer "arrow::Buffer":
        const uint8_t* data()
        int64_t size()

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


# ---- schemas, record batches, readers -----------------------------------------

cdef extern from "arrow/api.h" namespace "arrow" nogil:
    cdef cppclass CSchema "arrow::Schema":
        pass
    cdef cppclass CRecordBatch "arrow::RecordBatch":
        int64_t num_rows()
    cdef cppclass CRecordBatchReader "arrow::RecordBatchReader":
        pass
    cdef enum CCompressionType "arrow::Compression::type":
        pass

cdef extern from "arrow/filesystem/filesystem.h" namespace "arrow::fs" nogil:
    cdef cppclass CFileSystem "arrow::fs::FileSystem":
        pass

cdef extern from "arrow/c/bridge.h" namespace "arrow" nogil:
    CResult[shared_ptr[CSchema]] ImportSchema(ArrowSchema* schema)
    CResult[shared_ptr[CDataType]] ImportType(ArrowSchema* schema)
    CResult[shared_ptr[CRecordBatch]] ImportRecordBatch(ArrowArray* array,
                                                       ArrowSchema* schema)
    CStatus ExportRecordBatchReader(shared_ptr[CRecordBatchReader] reader,
                                    ArrowArrayStream* out)


