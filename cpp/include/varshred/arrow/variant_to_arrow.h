// Licensed under the Apache License, Version 2.0.
//
// Variant -> typed Arrow arrays (vs.to_arrow), by Spark 4.3's cast(variant as <type>)
// and try_cast rules (docs/interop.md#arrow-types).

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include <memory>

#include "varshred/arrow/variant_get.h"

namespace varshred {

/// \brief Casts every row of a Variant column to `type`, as Spark's
/// `cast(v as <type>)` (options.errors kRaise) or `try_cast` (kNull) does: a SQL NULL
/// row or a Variant null gives null; a failed cast gives null or an Invalid naming the
/// row and the path (`row 4, path $.a[1]: [INVALID_VARIANT_CAST] ...`).
///
///  * scalars follow the casts of variant_get (cast.h): bool, int8..int64, float,
///    double, decimal, string, date32, timestamp[us] (zone: UTC instant), binary;
///    besides Spark's types: uint8..uint64 (range checked), half_float, decimal32 /
///    64 / 256 (precision <= 38), string_view, binary_view, date64, timestamp s / ms
///    (floored) and ns (nanosecond timestamps exact), time32 / time64 (from time),
///    fixed_size_binary and arrow.uuid (from uuid or a binary of that width), null;
///  * struct: from an object, each field looked up by name (missing: null; other
///    keys ignored); list / large_list / fixed_size_list: from an array (of that
///    length for fixed_size_list); map with string keys: from an object. A failed
///    field or element is null in try mode, leaving its container valid (as Spark);
///  * a Variant type (struct of metadata and value, either layout, or the
///    arrow.parquet.variant extension): the sub-value, its row's metadata kept.
///
/// Shredded input (a typed_value child): scalar targets read the typed columns
/// directly (VariantGet at `$`); other targets read the unshredded rows.
/// Unsupported target types are a TypeError naming the path.
arrow::Result<std::shared_ptr<arrow::Array>> VariantToArrow(
    const arrow::Array& variants, const std::shared_ptr<arrow::DataType>& type,
    const VariantGetOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
