// Licensed under the Apache License, Version 2.0.

#include <algorithm>
#include <bit>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "varshred/parquet/leaf_encoding_internal.h"

namespace varshred::internal {

namespace {

// Bits to tell `n` values apart (the width of a dictionary index).
int IndexBits(uint64_t n) { return n <= 1 ? 1 : std::bit_width(n - 1); }

// DELTA_BINARY_PACKED's payload: per block of 32 differences, 32 times the width of
// (largest - smallest difference). Headers and zigzag details are left out.
template <typename T>
uint64_t DeltaBits(std::span<const T> values) {
  uint64_t bits = 0;
  for (size_t start = 1; start < values.size(); start += 32) {
    const size_t end = std::min(values.size(), start + 32);
    // Differences in 64 bits (int64 wraps: the encoding works modulo 2^64 too).
    uint64_t lo = ~uint64_t{0}, hi = 0;
    for (size_t i = start; i < end; ++i) {
      const uint64_t d =
          static_cast<uint64_t>(values[i]) - static_cast<uint64_t>(values[i - 1]);
      const uint64_t biased = d ^ (uint64_t{1} << 63);  // order signed differences
      lo = std::min(lo, biased);
      hi = std::max(hi, biased);
    }
    bits += (end - start) * static_cast<uint64_t>(std::bit_width(hi - lo));
  }
  return bits;
}

template <typename T>
bool DictionaryBeatsDeltaImpl(std::span<const T> values, double scale) {
  if (values.size() < 2) return false;
  const double n = static_cast<double>(values.size());
  const double delta = static_cast<double>(DeltaBits(values)) * scale;
  std::unordered_map<T, uint32_t> counts;
  T lo = values[0], hi = values[0];
  for (const T v : values) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    ++counts[v];
    // Mostly distinct: the dictionary repeats nearly every value and adds indices.
    if (counts.size() * 2 > values.size() + 64) return false;
  }
  // The chunk's distinct values: Chao1's estimate of how many the values come from,
  // d + f1^2 / 2f2 (f1, f2: values seen once, twice), at most one per value.
  double once = 0, twice = 0;
  for (const auto& [v, c] : counts) {
    once += c == 1;
    twice += c == 2;
  }
  const double d = std::min(n * scale, static_cast<double>(counts.size()) +
                                           once * (once - 1) / (2 * (twice + 1)));
  // The dictionary page is PLAIN, but compression leaves about the bits that tell
  // values in [lo, hi] apart.
  const auto value_bits = static_cast<double>(
      std::bit_width(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo)));
  const double dictionary =
      d * value_bits + n * scale * IndexBits(static_cast<uint64_t>(d));
  return dictionary < delta;
}

}  // namespace

bool DictionaryBeatsDelta(std::span<const int32_t> values, double scale) {
  return DictionaryBeatsDeltaImpl(values, scale);
}
bool DictionaryBeatsDelta(std::span<const int64_t> values, double scale) {
  return DictionaryBeatsDeltaImpl(values, scale);
}

bool DictionaryBeatsPlain(std::span<const parquet::ByteArray> values) {
  if (values.empty()) return true;
  uint64_t plain = 0;  // PLAIN: a 4-byte length and the bytes, per value
  for (const auto& v : values) plain += 4 + v.len;
  std::unordered_set<std::string_view> distinct;
  uint64_t dictionary = 0;
  for (const auto& v : values) {
    const std::string_view s(reinterpret_cast<const char*>(v.ptr), v.len);
    if (distinct.insert(s).second) {
      dictionary += 4 + v.len;
      if (dictionary >= plain) return false;
    }
  }
  return dictionary + values.size() * IndexBits(distinct.size()) / 8 < plain;
}

}  // namespace varshred::internal
