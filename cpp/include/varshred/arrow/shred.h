// Licensed under the Apache License, Version 2.0.
//
// Shredding a Variant column into a shredded one (docs/shredding.md, writer rules).

#pragma once

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <cstdint>
#include <memory>

#include "varshred/arrow/shredding_schema.h"
#include "varshred/value.h"

namespace varshred {

/// \brief Which Variant numbers go into a numeric typed_value column
/// (docs/shredding.md#writer-rules rule 7).
enum class NumericShredding : uint8_t {
  /// Lossless conversion inside Exact Numeric, as Spark's VariantShreddingWriter with
  /// allowNumericScaleChanges: any integer into any integer column it fits, an
  /// integer into a decimal column when exact, decimal rescaling when exact and within
  /// the column precision, a decimal into an integer column when its fraction is 0.
  kLenient,
  /// The exact Variant type only, as parquet-java: int8 only into int8, a decimal only
  /// into a decimal column of its own width and scale with enough precision.
  kStrict,
};

struct ShredOptions {
  NumericShredding numeric = NumericShredding::kLenient;
  /// Limits for validating the input values (every row is validated). Unsorted field
  /// ids are accepted; the output is in spec order.
  ValidateOptions validate = ValidateOptions::ForReading();
};

/// \brief Shreds an unshredded Variant column (canonical or Spark layout; an already
/// shredded column is unshredded first) into struct<metadata, value, typed_value>
/// following `schema` (docs/shredding.md#writer-rules).
///
/// - A value of a leaf's type goes to typed_value, anything else whole to value.
/// - Objects always get a non-null typed_value; schema fields missing from the object
///   are null/null, present nulls are value = 00; the other fields form a residual
///   object in value (null when there are none), encoded against the row's metadata.
/// - Arrays shred every element; a null element is value = 00.
/// - SQL NULL rows stay null; a Variant null is value = 00.
/// The metadata child is passed through zero-copy (same buffers, same type). Invalid
/// input fails with the row and path.
arrow::Result<std::shared_ptr<arrow::Array>> Shred(
    const arrow::Array& variants, const ShreddingSchema& schema,
    const ShredOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
