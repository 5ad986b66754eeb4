// Licensed under the Apache License, Version 2.0.
//
// Powers of ten for decimal rescaling and precision checks: the one table, and the
// one digit counter. Arrow-free.

#pragma once

#include <array>

#include "varshred/format.h"

namespace varshred::internal {

/// 10^i for i in 0..38 (38 digits: the widest Variant decimal).
inline constexpr std::array<int128_t, 39> kPow10 = [] {
  std::array<int128_t, 39> t{};
  t[0] = 1;
  for (size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1] * 10;
  return t;
}();

inline const int128_t* Pow10Table() { return kPow10.data(); }

/// 10^n. \pre 0 <= n <= 38
inline int128_t Pow10(int n) { return kPow10[static_cast<size_t>(n)]; }

/// Decimal digits of `v` (1 for 0), by comparison with the powers of ten: no 128-bit
/// division. An unsigned 128-bit value has at most 39 digits.
inline int CountDigits(unsigned __int128 v) {
  int digits = 1;
  while (digits <= 38 && v >= static_cast<unsigned __int128>(kPow10[digits])) ++digits;
  return digits;
}

}  // namespace varshred::internal
