# Licensed under the Apache License, Version 2.0.

from varshred._c_arrow cimport CResult
from varshred._c_kernels cimport ShreddingSchema

cdef class ShreddingSchemaHandle:
    cdef ShreddingSchema schema


cdef ShreddingSchemaHandle wrap_result(CResult[ShreddingSchema]& result)
