# Licensed under the Apache License, Version 2.0.
#
# cython: language_level=3, embedsignature=True
# distutils: language = c++
"""Shredding schemas (varshred::ShreddingSchema) and the Spark DDL type names they
parse; the Python class ``vs.ShreddingSchema`` wraps a handle."""

from cython.operator cimport dereference as deref
from libcpp.string cimport string
from libcpp.string_view cimport string_view
from libcpp.utility cimport pair
from libcpp.vector cimport vector

from varshred._c_arrow cimport CResult
from varshred._c_kernels cimport (
    ShreddingKind, ShreddingSchema, VariantLayout, VariantStorageType)
from varshred._capsule cimport export_type, import_type
from varshred._status cimport check_status


cdef class ShreddingSchemaHandle:
    """Holds one C++ ShreddingSchema."""

    def to_ddl(self):
        return self.schema.ToDdl().decode("utf-8")

    def to_arrow(self):
        if not self.schema.has_typed_value():
            return export_type(VariantStorageType(VariantLayout.kCanonical))
        return export_type(self.schema.ToArrow())

    def typed_value_type(self):
        if not self.schema.has_typed_value():
            return None
        return export_type(self.schema.TypedValueArrowType())

    def equals(self, ShreddingSchemaHandle other):
        return self.schema.Equals(other.schema)


cdef ShreddingSchemaHandle wrap_result(CResult[ShreddingSchema]& result):
    """A handle holding the schema of ``result``, or the exception for its error."""
    check_status(result.status())
    cdef ShreddingSchemaHandle h = ShreddingSchemaHandle.__new__(ShreddingSchemaHandle)
    h.schema = deref(result)
    return h


cdef CResult[ShreddingSchema] _parse(str ddl):
    cdef string text = ddl.encode("utf-8")
    return ShreddingSchema.Parse(string_view(text.data(), text.size()))


def parse(str ddl not None):
    """The schema of a DDL string (ShreddingSchema::Parse)."""
    cdef CResult[ShreddingSchema] result = _parse(ddl)
    return wrap_result(result)


def value_only():
    cdef ShreddingSchemaHandle h = ShreddingSchemaHandle.__new__(ShreddingSchemaHandle)
    h.schema = ShreddingSchema.ValueOnly()
    return h


def from_paths(pairs):
    cdef vector[pair[string, string]] paths
    for path, type_name in pairs:
        paths.push_back(pair[string, string](str(path).encode("utf-8"),
                                             str(type_name).encode("utf-8")))
    cdef CResult[ShreddingSchema] result = ShreddingSchema.FromPaths(paths)
    return wrap_result(result)


def from_arrow(typed_value):
    cdef CResult[ShreddingSchema] result = ShreddingSchema.FromArrow(
        deref(import_type(typed_value)))
    return wrap_result(result)


def sql_type(str name):
    """The Arrow type of a Spark SQL type name (``bigint``, ``decimal(9,2)``,
    ``struct<a: int, b: array<string>>``), read by the same DDL parser as shredding
    schemas (ShreddingSchema::SqlArrowType: decimals as decimal128, Spark's
    DecimalType); None for ``variant``. A field's ``NOT NULL`` and ``COMMENT``, and
    ``STRING COLLATE``, are dropped as Spark's variant_get drops them
    (ShreddingSchema::ParseSqlType)."""
    cdef string text = name.encode("utf-8")
    cdef CResult[ShreddingSchema] result = ShreddingSchema.ParseSqlType(
        string_view(text.data(), text.size()))
    check_status(result.status())
    cdef ShreddingSchema s = deref(result)
    if s.kind() == ShreddingKind.kValueOnly:
        return None
    return export_type(s.SqlArrowType())
