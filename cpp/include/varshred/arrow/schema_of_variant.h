// Licensed under the Apache License, Version 2.0.
//
// schema_of_variant and schema_of_variant_agg outside Spark: the SQL type of Variant
// values, printed and merged exactly as Spark 4.3 does
// (docs/interop.md#schema-of-variant).

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>
#include <arrow/status.h>

#include <memory>
#include <string>
#include <string_view>

#include "varshred/value.h"

namespace varshred {

/// \brief How object types with field names that differ only in case merge.
struct SchemaOfVariantOptions {
  /// Spark's spark.sql.caseSensitive. When false (Spark's default), two object types
  /// whose fields pair up by name ignoring case (Java's rule: "K", the Kelvin sign,
  /// equals "k") merge into the first one's names when every pair merges without
  /// widening anything but VOID, BIGINT < FLOAT < DOUBLE, a DECIMAL(p,s) with p-s >=
  /// 20 over BIGINT, or DATE < TIMESTAMP_NTZ < TIMESTAMP. Otherwise, and when true,
  /// fields merge by exact name.
  bool case_sensitive = false;
};

/// \brief Spark's schema_of_variant of every row: a string array, null for SQL NULL
/// rows. Types print as Spark prints them: BOOLEAN, BIGINT (every integer width),
/// FLOAT, DOUBLE, DECIMAL(p,s) (trailing zeros stripped), STRING, BINARY, DATE,
/// TIMESTAMP, TIMESTAMP_NTZ, UUID, VOID (Variant null), ARRAY<T> (T the merged element
/// type), OBJECT<a: T, `b c`: U> (keys sorted, quoted as Spark quotes them) and VARIANT
/// where types do not merge. Types Spark 4.3 cannot read print as TIME,
/// TIMESTAMP_NS and TIMESTAMP_NTZ_NS. Unshredded input; rows are validated.
arrow::Result<std::shared_ptr<arrow::Array>> SchemaOfVariant(
    const arrow::Array& variants, const SchemaOfVariantOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief Spark's schema_of_variant_agg, mergeable across batches and tasks: Add()
/// batches, Merge() the ToString() of other accumulators (a task's result), read
/// ToString(). Spark's merge rules: VOID gives way to anything; BIGINT, DECIMAL,
/// FLOAT and DOUBLE widen (BIGINT as DECIMAL(20,0), decimals past 38 digits and
/// FLOAT with DECIMAL to DOUBLE); DATE < TIMESTAMP_NTZ < TIMESTAMP; objects merge
/// field by field (names as SchemaOfVariantOptions says), arrays element-wise;
/// anything else is VARIANT. With no rows (or only SQL NULLs) the result is VOID.
class VariantSchemaAccumulator {
 public:
  explicit VariantSchemaAccumulator(SchemaOfVariantOptions options = {});
  ~VariantSchemaAccumulator();
  VariantSchemaAccumulator(VariantSchemaAccumulator&&) noexcept;
  VariantSchemaAccumulator& operator=(VariantSchemaAccumulator&&) noexcept;

  /// \brief Merges in every non-null row of a Variant column (errors name the row).
  arrow::Status Add(const arrow::Array& variants);
  /// \brief Merges in one value.
  void Add(const VariantView& value);
  /// \brief Merges in a type string (a ToString() result); Invalid when unparsable.
  arrow::Status Merge(std::string_view type);
  std::string ToString() const;

  struct Type;

 private:
  SchemaOfVariantOptions options_;
  std::unique_ptr<Type> type_;
};

}  // namespace varshred
