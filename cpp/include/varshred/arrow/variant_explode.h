// Licensed under the Apache License, Version 2.0.
//
// variant_explode / variant_explode_outer outside Spark
// (docs/interop.md#variant-explode).

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <memory>

#include "varshred/arrow/variant_array.h"

namespace varshred {

struct VariantExplodeOptions {
  /// variant_explode_outer: a row with nothing to explode (SQL NULL, a scalar, an
  /// empty object or array) gives one output row whose pos, key and value are null.
  bool outer = false;
  /// Layout of the `value` column.
  VariantLayout layout = VariantLayout::kCanonical;
};

/// \brief Spark's variant_explode: one output row per field of an object row (in key
/// order, `key` set) or element of an array row (`key` null), as a struct array
/// `struct<row: int64 not null, pos: int32, key: string, value: variant>`, `row`
/// being the input row. Each `value` is the sub-value with its row's metadata, as
/// Spark returns it. Shredded input is unshredded first; rows are validated.
arrow::Result<std::shared_ptr<arrow::Array>> VariantExplode(
    const arrow::Array& variants, const VariantExplodeOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
