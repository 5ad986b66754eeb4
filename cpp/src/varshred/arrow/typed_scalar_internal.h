// Licensed under the Apache License, Version 2.0.
//
// A shredded typed_value column of a scalar Arrow type read back as Variant values:
// the reverse of SPEC.md §2.3 (table in §2.5). Unshred and the shredded VariantGet
// both read typed leaves through this one reader, so that a cast of a typed value and
// of its rebuilt Variant cannot differ by a byte.

#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <arrow/array.h>
#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/type_fwd.h>

#include "varshred/arrow/variant_array.h"

namespace varshred::internal {

/// A scalar typed_value column with its Variant encoder chosen once per array, from
/// the Arrow type, so that reading a row never dispatches on types.
///
/// Accepted types: bool, int8/16/32/64, float, double, decimal32/64/128 (decimal128
/// written at the width its precision implies, SPEC.md §2.5), date32, time64[us],
/// timestamp[us|ns] with or without zone, string / large_string / string_view,
/// binary / large_binary / binary_view, fixed_size_binary(16) (uuid). Extension
/// arrays are read as their storage (arrow.uuid as fixed_size_binary(16)).
class TypedScalarColumn {
 public:
  TypedScalarColumn() = default;

  /// TypeError naming `path` when `typed` has no Variant equivalent.
  static arrow::Result<TypedScalarColumn> Make(const std::shared_ptr<arrow::Array>& typed,
                                               const std::string& path);

  /// Appends the Variant value of row `i` (which must not be null) to `out`.
  void Append(int64_t i, std::string* out) const { encode_(*this, i, out); }

  bool IsNull(int64_t i) const { return array_->IsNull(i); }
  /// The column read (the storage of an extension array).
  const std::shared_ptr<arrow::Array>& array() const { return array_; }

 private:
  struct Encoders;  // the encode functions, in the .cc
  using EncodeFn = void (*)(const TypedScalarColumn&, int64_t, std::string*);

  std::shared_ptr<arrow::Array> array_;
  const uint8_t* values_ = nullptr;  // fixed-width values, offset applied
  BinaryColumn binary_;              // string and binary types
  uint8_t scale_ = 0;                // decimals
  EncodeFn encode_ = nullptr;
};

/// The error for a shredded column (typed_value, or a value column that is not
/// binary) whose Arrow type cannot be read, at `path`.
arrow::Status UnsupportedShreddedType(const arrow::DataType& type,
                                      const std::string& path);

}  // namespace varshred::internal
