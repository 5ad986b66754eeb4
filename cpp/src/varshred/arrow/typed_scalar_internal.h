// Licensed under the Apache License, Version 2.0.
//
// A shredded typed_value column of a scalar Arrow type read back as Variant values:
// the reverse of docs/shredding.md#typed-value-types (the table in
// docs/shredding.md#reconstruction). Unshred and the shredded VariantGet both read typed
// leaves through this one reader, so that a cast of a typed value and of its rebuilt
// Variant cannot differ by a byte.

#pragma once

#include <arrow/array.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include <cstdint>
#include <memory>
#include <string>

#include "varshred/arrow/variant_array.h"
#include "varshred/format.h"

namespace varshred::internal {

/// A scalar typed_value column with its Variant encoder chosen once per array, from
/// the Arrow type, so that reading a row never dispatches on types.
///
/// Accepted types: bool, int8/16/32/64, float, double, decimal32/64/128 (decimal128
/// written at the width its precision implies, docs/shredding.md#reconstruction), date32,
/// time64[us], timestamp[us|ns] with or without zone, string / large_string /
/// string_view, binary / large_binary / binary_view, fixed_size_binary(16) (uuid).
/// Extension arrays are read as their storage (arrow.uuid as fixed_size_binary(16)).
class TypedScalarColumn {
 public:
  TypedScalarColumn() = default;

  /// TypeError naming `path` when `typed` has no Variant equivalent; Invalid when one
  /// of its values is not what its type says (a string that is not UTF-8): values are
  /// checked here, once, before any row is read.
  static arrow::Result<TypedScalarColumn> Make(const std::shared_ptr<arrow::Array>& typed,
                                               const std::string& path);

  /// Make()'s type check alone, for a check of a column's shape: no value is read,
  /// but a dictionary's indices are bounds-checked (BinaryColumn::Make).
  static arrow::Status CheckType(const std::shared_ptr<arrow::Array>& typed,
                                 const std::string& path);

  /// Appends the Variant value of row `i` (which must not be null) to `out`. Invalid
  /// when the value is outside its Arrow type: a decimal with more digits than its
  /// precision (Parquet readers hand those on unchecked; narrowing would corrupt it).
  arrow::Status Append(int64_t i, std::string* out) const {
    if (first_out_of_range_ >= 0 && !InRange(i)) return OutOfRange(i);
    encode_(*this, i, out);
    return arrow::Status::OK();
  }

  /// Whether every non-null value is within its type, so that it may be copied in bulk
  /// without Append's check.
  bool all_in_range() const { return first_out_of_range_ < 0; }

  bool IsNull(int64_t i) const { return nulls_.IsNull(i); }
  /// Row i of a string column (valid UTF-8, checked by Make).
  std::string_view GetString(int64_t i) const { return binary_.Get(i); }
  /// The fixed-width values (offset applied), for fixed-width columns.
  const uint8_t* values() const { return values_; }
  /// The column read (the storage of an extension array).
  const std::shared_ptr<arrow::Array>& array() const { return array_; }

 private:
  struct Encoders;  // the encode functions, in the .cc
  using EncodeFn = void (*)(const TypedScalarColumn&, int64_t, std::string*);

  // The column with its encoder, its values not yet checked.
  static arrow::Result<TypedScalarColumn> Typed(
      const std::shared_ptr<arrow::Array>& typed, const std::string& path);

  std::shared_ptr<arrow::Array> array_;
  NullMask nulls_;
  const uint8_t* values_ = nullptr;  // fixed-width values, offset applied
  BinaryColumn binary_;              // string and binary types
  uint8_t scale_ = 0;                // decimals
  uint8_t precision_ = 0;            // decimals
  int decimal_width_ = 0;            // decimals: bytes per stored value (4, 8 or 16)
  int64_t first_out_of_range_ = -1;  // first non-null value outside its type, or -1
  EncodeFn encode_ = nullptr;

  int128_t Unscaled(int64_t i) const;  // decimals only
  bool InRange(int64_t i) const;
  arrow::Status OutOfRange(int64_t i) const;
};

/// The error for a shredded column (typed_value, or a value column that is not
/// binary) whose Arrow type cannot be read, at `path`.
arrow::Status UnsupportedShreddedType(const arrow::DataType& type,
                                      const std::string& path);

}  // namespace varshred::internal
