// Licensed under the Apache License, Version 2.0.
//
// Reconstructing Variant values from a shredded column (docs/shredding.md, reader
// rules and reconstruction).

#pragma once

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <cstdint>
#include <memory>

#include "varshred/arrow/variant_array.h"
#include "varshred/value.h"

namespace varshred {

/// \brief What to do with data the spec calls invalid but that has an obvious reading.
enum class ConflictPolicy : uint8_t {
  /// Fail with Invalid naming the row and path (arrow-rs; the spec's "should fail").
  kRaise,
  /// Read as parquet-java does: a typed value wins over a conflicting non-object
  /// value, and a shredded key repeated in a residual object is dropped from the
  /// residual (the typed side wins, even when the typed field is missing).
  kTypedWins,
};

struct UnshredOptions {
  ConflictPolicy on_conflict = ConflictPolicy::kRaise;
  /// Field order of the result.
  VariantLayout layout = VariantLayout::kCanonical;
  /// Limits for validating metadata and `value` cells. Residual objects from other
  /// writers may carry unsorted field ids, so they are accepted by default.
  ValidateOptions validate = ValidateOptions::ForReading();
  /// Whether the values of an unshredded binary column (no typed_value, no value
  /// missing) are validated before the column is returned as it is. False only for a
  /// caller that validates every value next, such as ParquetWriter (which names the
  /// row, and puts unsorted object ids in order): the values then come back
  /// unchecked, possibly invalid or with ids out of spec order.
  bool check_unshredded_values = true;
};

/// \brief Rebuilds struct<metadata, value> from a shredded (or unshredded) Variant
/// column: canonical or Spark layout, an arrow.parquet.variant extension array, or
/// the plain struct a Parquet reader returns.
///
/// Accepted: typed_value absent; value absent anywhere (read as all-null, as Spark,
/// parquet-java and arrow-rs do); nullable field groups (a null group is a missing
/// field); object fields in any order; list / large_list; binary, large_binary and
/// binary_view; decimal32/64/128 (decimal128 maps to decimal4/8/16 by precision, as
/// the Parquet physical type does); timestamps in us/ns with or without zone;
/// time64(us); fixed_size_binary(16) or arrow.uuid for uuid.
///
/// A missing value at top level or in an array element is Variant null 00. Invalid
/// data fails with Invalid naming the row and path (see ConflictPolicy); typed_value
/// types outside docs/shredding.md#typed-value-types fail with TypeError. Output objects
/// have ids ordered by key bytes and reuse the row's metadata: the metadata column is
/// passed through zero-copy (cast to binary if it was not). An unshredded binary column
/// whose values are valid, present and already in that order (Spark's, DuckDB's,
/// varshred's) keeps its value column too: it is validated (unless
/// options.check_unshredded_values is false), not copied.
arrow::Result<std::shared_ptr<arrow::Array>> Unshred(
    const arrow::Array& shredded, const UnshredOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
