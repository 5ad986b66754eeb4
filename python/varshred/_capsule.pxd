# Licensed under the Apache License, Version 2.0.

from libcpp.memory cimport shared_ptr
from libcpp.vector cimport vector

from varshred._c_arrow cimport (
    CArray, CDataType, CRecordBatch, CRecordBatchReader, CSchema)

cdef vector[shared_ptr[CArray]] import_chunks(object obj, bint* chunked,
                                              shared_ptr[CDataType]* chunk_type=*) except *
cdef shared_ptr[CDataType] import_type(object obj) except *
cdef shared_ptr[CSchema] import_schema(object obj) except *
cdef shared_ptr[CRecordBatch] import_batch(object obj) except *

cdef object export_array(const shared_ptr[CArray]& array)
cdef object export_chunked(const vector[shared_ptr[CArray]]& chunks,
                           const shared_ptr[CDataType]& type)
cdef object export_chunks(const vector[shared_ptr[CArray]]& chunks, bint chunked,
                          const shared_ptr[CDataType]& type)
cdef object export_type(const shared_ptr[CDataType]& type)
cdef object export_reader(const shared_ptr[CRecordBatchReader]& reader)
