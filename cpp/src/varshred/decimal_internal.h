// Licensed under the Apache License, Version 2.0.
//
// Powers of ten for decimal rescaling and precision checks, and decimal digits: the
// one table, the one digit counter and the one digit printer. Arrow-free.

#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

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

/// Decimal digits of `v` (1 for 0): its bit length gives the count or one less
/// (1233 / 4096 is just below log10 2), and one comparison settles which. (v | 1 has
/// the digits of v: no power of ten above 1 is odd.)
inline int CountDigits(uint64_t v) {
  const int guess = ((64 - std::countl_zero(v | 1)) * 1233) >> 12;
  return guess + ((v | 1) >= static_cast<uint64_t>(kPow10[static_cast<size_t>(guess)]));
}

/// Decimal digits of `v` (1 for 0). An unsigned 128-bit value has at most 39 digits.
inline int CountDigits(unsigned __int128 v) {
  if (v <= std::numeric_limits<uint64_t>::max()) {
    return CountDigits(static_cast<uint64_t>(v));
  }
  int digits = 20;
  while (digits <= 38 && v >= static_cast<unsigned __int128>(kPow10[digits])) ++digits;
  return digits;
}

/// "00", "01", ..., "99": digits are printed two at a time.
inline constexpr std::array<char, 200> kDigitPairs = [] {
  std::array<char, 200> t{};
  for (size_t i = 0; i < 100; ++i) {
    t[2 * i] = static_cast<char>('0' + i / 10);
    t[2 * i + 1] = static_cast<char>('0' + i % 10);
  }
  return t;
}();

/// Writes the CountDigits(v) decimal digits of `v` so that they end at `end`.
inline void PutDigits(uint64_t v, char* end) {
  for (; v >= 100; v /= 100) {
    end -= 2;
    std::memcpy(end, &kDigitPairs[2 * (v % 100)], 2);
  }
  if (v >= 10) {
    std::memcpy(end - 2, &kDigitPairs[2 * v], 2);
  } else {
    end[-1] = static_cast<char>('0' + v);
  }
}

/// As above for 128 bits: one digit at a time (128-bit division is a library call)
/// until the rest fits in 64 bits.
inline void PutDigits(unsigned __int128 v, char* end) {
  for (; v > std::numeric_limits<uint64_t>::max(); v /= 10) {
    *--end = static_cast<char>('0' + static_cast<int>(v % 10));
  }
  PutDigits(static_cast<uint64_t>(v), end);
}

}  // namespace varshred::internal
