// Licensed under the Apache License, Version 2.0.
//
// Whether a Variant value belongs in a typed_value column of a given primitive type,
// and its value there (docs/shredding.md writer rule 1 and
// docs/shredding.md#writer-rules). Shared by every shredding sink (Arrow arrays, Parquet
// column chunks).

#pragma once

#include <cstdint>
#include <limits>

#include "varshred/decimal_internal.h"
#include "varshred/format.h"
#include "varshred/value.h"

namespace varshred::internal {

/// The Exact Numeric value of `v` as (unscaled, scale); false for other types.
inline bool ExactNumericValue(const VariantView& v, int128_t* unscaled, int* scale) {
  if (IsInteger(v.type())) {
    *unscaled = v.GetInteger();
    *scale = 0;
    return true;
  }
  if (IsDecimal(v.type())) {
    const Decimal d = v.GetDecimal();
    *unscaled = d.unscaled;
    *scale = d.scale;
    return true;
  }
  return false;
}

/// Rescales `u` from `from_scale` to `to_scale` exactly, within `precision` digits.
/// False when that would lose digits or overflow.
inline bool RescaleExact(int128_t u, int from_scale, int to_scale, int precision,
                         int128_t* out) {
  const int128_t* p10 = Pow10Table();
  if (to_scale >= from_scale) {
    const int up = to_scale - from_scale;
    const int128_t limit = p10[38 - up];
    if (u >= limit || u <= -limit) return false;
    u *= p10[up];
  } else {
    const int128_t div = p10[from_scale - to_scale];
    if (u % div != 0) return false;
    u /= div;
  }
  if (u >= p10[precision] || u <= -p10[precision]) return false;
  *out = u;
  return true;
}

/// An integer column of Variant type `target` (int8..int64). Strict: the exact type
/// only (parquet-java). Lenient: any Exact Numeric value that is an integer in range
/// (Spark).
inline bool MatchInteger(const VariantView& v, VariantType target, bool lenient,
                         int64_t* out) {
  int128_t x;
  if (v.type() == target) {
    *out = v.GetInteger();
    return true;
  }
  if (!lenient) return false;
  int128_t u;
  int s;
  if (!ExactNumericValue(v, &u, &s) || !RescaleExact(u, s, 0, 38, &x)) return false;
  int64_t lo, hi;
  switch (target) {
    case VariantType::kInt8:
      lo = std::numeric_limits<int8_t>::min(), hi = std::numeric_limits<int8_t>::max();
      break;
    case VariantType::kInt16:
      lo = std::numeric_limits<int16_t>::min(), hi = std::numeric_limits<int16_t>::max();
      break;
    case VariantType::kInt32:
      lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
      break;
    default:
      lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  }
  if (x < lo || x > hi) return false;
  *out = static_cast<int64_t>(x);
  return true;
}

/// A decimal(precision, scale) column stored as Variant type `target`
/// (decimal4/8/16). Strict: same width and scale, enough precision (parquet-java).
/// Lenient: any Exact Numeric value that rescales exactly (Spark).
inline bool MatchDecimal(const VariantView& v, VariantType target, int precision,
                         int scale, bool lenient, int128_t* out) {
  int128_t u;
  int s;
  if (!ExactNumericValue(v, &u, &s)) return false;
  if (!lenient) {
    if (v.type() != target || s != scale || DecimalPrecision(u) > precision) return false;
    *out = u;
    return true;
  }
  return RescaleExact(u, s, scale, precision, out);
}

}  // namespace varshred::internal
