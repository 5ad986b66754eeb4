// Licensed under the Apache License, Version 2.0.
//
// Pieces of VariantGet shared by its unshredded (variant_get.cc) and shredded
// (variant_get_shredded.cc) readers.

#pragma once

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/path.h"
#include "varshred/validate.h"

namespace varshred::internal {

/// The metadata child of a Variant-typed VariantGet result: `metadata` itself when it
/// is a binary array without nulls (zero-copy), else a binary copy whose null slots
/// hold empty bytes.
arrow::Result<std::shared_ptr<arrow::Array>> OutputMetadata(const BinaryColumn& metadata,
                                                            int64_t length,
                                                            arrow::MemoryPool* pool);

/// \brief The rows of an unshredded array as Variant views, validated when asked
/// (ForReading: unsorted ids accepted): each distinct dictionary once (consecutive rows
/// mostly share one) and each value in full.
class RowViews {
 public:
  RowViews(const VariantArrayView& view, bool validate)
      : view_(view), validate_(validate) {}

  /// The Variant of row `row` (not SQL NULL; a null value child reads as a Variant
  /// null). Invalid bytes and a null metadata are errors naming the row.
  arrow::Status Get(int64_t row, VariantView* out);
  /// Lookup(Get(row), path), checking only what the lookup reads
  /// (internal::ValidatePath()): a row's other fields may be large.
  arrow::Status Find(int64_t row, const VariantPath& path,
                     std::optional<VariantView>* found);

 private:
  // The row's dictionary (validated when asked) and value bytes.
  arrow::Status Row(int64_t row, MetadataView* metadata, std::string_view* value);

  const VariantArrayView& view_;
  const bool validate_;
  MetadataCache metadata_;
  const ValidateOptions options_ = ValidateOptions::ForReading();
};

/// The storage of a Variant column (an extension array's storage), unshredded
/// (Unshred, conflicts an error) when it has a typed_value child.
arrow::Result<std::shared_ptr<arrow::Array>> UnshreddedStorage(
    const arrow::Array& variants, arrow::MemoryPool* pool);

/// VariantGet over a shredded column (view.typed_value() != nullptr).
arrow::Result<std::shared_ptr<arrow::Array>> VariantGetShredded(
    const VariantArrayView& view, const VariantPath& path,
    const std::shared_ptr<arrow::DataType>& type, const VariantGetOptions& options,
    arrow::MemoryPool* pool);

/// Why a decimal type cannot be a cast target (a negative scale, more than 38 digits,
/// a scale above the precision), or empty when it can.
std::string_view DecimalTargetProblem(const arrow::DecimalType& type);

/// VariantToArrow() of values found at `at`: errors name the path from the row's
/// top (`at` and the steps inside the value) and, in raise mode, `try_name` as the
/// call that would give NULL instead. VariantGet's nested targets read through it.
arrow::Result<std::shared_ptr<arrow::Array>> CastVariants(
    const arrow::Array& variants, const std::shared_ptr<arrow::DataType>& type,
    const VariantGetOptions& options, const VariantPath& at, std::string_view try_name,
    arrow::MemoryPool* pool);

}  // namespace varshred::internal
