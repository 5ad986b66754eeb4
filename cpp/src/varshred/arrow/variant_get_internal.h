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
#include <string_view>

#include "varshred/arrow/variant_array.h"
#include "varshred/arrow/variant_get.h"

namespace varshred::internal {

/// The metadata child of a Variant-typed VariantGet result: `metadata` itself when it
/// is a binary array without nulls (zero-copy), else a binary copy whose null slots
/// hold empty bytes.
arrow::Result<std::shared_ptr<arrow::Array>> OutputMetadata(const BinaryColumn& metadata,
                                                            int64_t length,
                                                            arrow::MemoryPool* pool);

/// The Variant of row `row` (not SQL NULL; a null value child reads as a Variant null)
/// of an unshredded array, validated when `validate` (ForReading: unsorted ids
/// accepted). Invalid bytes and a null metadata are errors naming the row.
arrow::Status RowView(const VariantArrayView& view, int64_t row, bool validate,
                      VariantView* out);

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
