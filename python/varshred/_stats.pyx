# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, embedsignature=True
# distutils: language = c++
"""Per-path statistics of Variant values and the schemas they suggest (see
varshred.infer for the API)."""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cython.operator cimport dereference as deref
from libc.stdint cimport int64_t
from libcpp.memory cimport shared_ptr, unique_ptr
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.vector cimport vector

import threading as _threading

from varshred._c_arrow cimport CArray, CResult, CStatus, c_default_memory_pool
from varshred._c_core cimport VariantTypeName
from varshred._c_kernels cimport *
from varshred._capsule cimport import_chunks
from varshred._schema cimport ShreddingSchemaHandle, wrap_result
from varshred._status cimport check_status

cdef extern from "varshred_python.h" namespace "varshred::python" nogil:
    CStatus DeserializeStats(string_view bytes, unique_ptr[ShreddingStats]* out)
    CStatus StatsReport(const ShreddingStats& stats, const ShreddingSchema& schema,
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
        cdef JsonToVariantOptions unused
        self._add(data, False, unused)

    def add_json(self, data, int numbers, int duplicate_keys, int errors):
        cdef JsonToVariantOptions options
        options.parse.numbers = <JsonNumbers>numbers
        options.parse.duplicate_keys = <DuplicateKeyPolicy>duplicate_keys
        options.errors = <JsonErrorPolicy>errors
        self._add(data, True, options)

    cdef _add(self, data, bint json, const JsonToVariantOptions& options):
        # Variant columns, or JSON text (`json`) parsed with `options`; errors name the
        # row of the whole input.
        cdef bint chunked = False
        cdef vector[shared_ptr[CArray]] chunks = import_chunks(data, &chunked)
        cdef CStatus status
        cdef int64_t offset = 0
        cdef size_t i
        with self.lock:
            for i in range(chunks.size()):
                with nogil:
                    if json:
                        status = deref(self.stats).AddJson(deref(chunks[i]), options)
                    else:
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
            check_status(DeserializeStats(string_view(data, len(data)), &self.stats))

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
        return wrap_result(result)

    def report(self, ShreddingSchemaHandle schema):
        cdef string out
        with self.lock:
            check_status(StatsReport(deref(self.stats), schema.schema, &out))
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
