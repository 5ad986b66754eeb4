// Licensed under the Apache License, Version 2.0.
//
// Helpers shared by the files of ShreddingStats (scan, inference, report): integer
// widths, the path text of a node, and how many values a typed column takes.

#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "varshred/arrow/shredding_path_internal.h"
#include "varshred/arrow/shredding_schema.h"
#include "varshred/arrow/shredding_stats.h"
#include "varshred/format.h"

namespace varshred::internal {

/// Integer digits and scales counted by the numeric histograms (the widest decimal).
inline constexpr int kMaxDigits = kMaxDecimal16Precision;
/// Size of each of the two histograms (0..kMaxDigits).
inline constexpr int kHistSize = kMaxDigits + 1;
/// Number of VariantType values (the type counts of a path).
inline constexpr size_t kNumTypes = static_cast<size_t>(VariantType::kArray) + 1;

inline VariantType IntegerTypeOfWidth(int width) {
  static constexpr VariantType kTypes[] = {VariantType::kInt8, VariantType::kInt16,
                                           VariantType::kInt32, VariantType::kInt64};
  return kTypes[width];
}

inline int WidthOfIntegerType(VariantType t) {
  return static_cast<int>(t) - static_cast<int>(VariantType::kInt8);
}

inline std::string JoinField(const std::string& parent, std::string_view name) {
  return parent == "$" ? QuotePathSegment(name) : parent + "." + QuotePathSegment(name);
}

inline std::string JoinElement(const std::string& parent) {
  return parent == "$" ? "[]" : parent + "[]";
}

// How many values a typed column takes under lenient shredding.
struct Coverage {
  int64_t count = 0;
  bool exact = true;
};

// Values of `s` that Shred (NumericShredding::kLenient) puts into a typed column of
// the primitive `schema`.
inline Coverage PrimitiveCoverage(const PathStats& s, const ShreddingSchema& schema) {
  const VariantType t = schema.type();
  if (IsInteger(t)) {
    // Any Exact Numeric value that is a whole number in range.
    Coverage c;
    for (int w = 0; w <= WidthOfIntegerType(t); ++w) c.count += s.integral_by_width(w);
    return c;
  }
  if (IsDecimal(t)) {
    // Fits when integer digits <= p - s and the scale without trailing zeros <= s.
    const int64_t all = s.integers() + s.decimals();
    int64_t fit_digits = 0, fit_scale = 0;
    for (int d = 0; d <= schema.precision() - schema.scale(); ++d) {
      fit_digits += s.integer_digits_histogram(d);
    }
    for (int k = 0; k <= schema.scale(); ++k) fit_scale += s.min_scale_histogram(k);
    if (fit_digits == all) return {fit_scale, true};
    if (fit_scale == all) return {fit_digits, true};
    // Only the marginals are kept: the lower bound of the joint count.
    return {std::max<int64_t>(0, fit_digits + fit_scale - all), false};
  }
  return {s.count(t), true};
}

}  // namespace varshred::internal
