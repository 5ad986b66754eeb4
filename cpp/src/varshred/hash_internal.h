// Licensed under the Apache License, Version 2.0.
//
// The hash of short byte strings (object keys) that the key tables index by.

#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

#include "varshred/endian_internal.h"

namespace varshred::internal {

/// \brief A hash of every byte of `key`, for tables that keep its low bits. Keys are
/// short, and std::hash (a library call with a byte loop for the tail) costs more than
/// the probes it serves. Words of 8 bytes, the last one overlapping the one before;
/// under 8 bytes, the overlapping loads that cover them. Each word is mixed in with a
/// multiply and a rotation, and a final mix spreads every bit into the low bits. Out
/// of line: inlined into MetadataBuilder::Lookup(), it cost the linear scan of small
/// dictionaries (measured).
[[gnu::noinline]] inline uint64_t HashKey(std::string_view key) {
  constexpr uint64_t kOdd = 0x9E3779B97F4A7C15ULL;
  const char* p = key.data();
  const size_t n = key.size();
  uint64_t h = n * kOdd;
  auto mix = [&h](uint64_t word) { h = std::rotl((h ^ word) * kOdd, 29); };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) mix(ReadLE<uint64_t>(p + i));
    mix(ReadLE<uint64_t>(p + n - 8));
  } else if (n >= 4) {
    mix(ReadLE<uint32_t>(p) | uint64_t{ReadLE<uint32_t>(p + n - 4)} << 32);
  } else if (n > 0) {
    mix(uint64_t{static_cast<uint8_t>(p[0])} |
        uint64_t{static_cast<uint8_t>(p[n / 2])} << 8 |
        uint64_t{static_cast<uint8_t>(p[n - 1])} << 16);
  }
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  return h;
}

}  // namespace varshred::internal
