// Little-endian reads and writes of 1-8 byte integers. The Variant format is
// little-endian throughout (docs/format.md), as is every target we build for.

#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "varshred/format.h"

namespace varshred::internal {

using ::varshred::ReadUnsigned;  // format.h: public, as the views inline it

template <typename T>
inline T ReadLE(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
inline T ReadLE(const char* p) {
  return ReadLE<T>(reinterpret_cast<const uint8_t*>(p));
}

/// Word-at-a-time byte tests: bit 7 of each byte of the result is set where `w` has a
/// byte below `limit` (<= 0x80) / equal to `byte`. Exact where the answer is "none";
/// a borrow may also mark bytes above a marked one.
constexpr uint64_t kEachByte = 0x0101010101010101ULL;
inline uint64_t BytesBelow(uint64_t w, uint8_t limit) {
  return (w - kEachByte * limit) & ~w & (kEachByte * 0x80);
}
inline uint64_t BytesEqual(uint64_t w, uint8_t byte) {
  return BytesBelow(w ^ (kEachByte * byte), 1);
}

/// Writes the low `size` (1-4) bytes of `value`. One fixed-size store per width: a
/// memcpy of a variable size compiles to a byte loop through the stack.
inline void WriteUnsigned(uint8_t* p, uint32_t value, int size) {
  switch (size) {
    case 1:
      p[0] = static_cast<uint8_t>(value);
      return;
    case 2: {
      const auto v = static_cast<uint16_t>(value);
      std::memcpy(p, &v, 2);
      return;
    }
    case 3: {
      const auto v = static_cast<uint16_t>(value);
      std::memcpy(p, &v, 2);
      p[2] = static_cast<uint8_t>(value >> 16);
      return;
    }
    default:
      std::memcpy(p, &value, 4);
  }
}

/// Writes `at(0)`..`at(n - 1)`, `size` (1-4) bytes each, from `p`; returns the end.
/// The width is chosen once for the run, not per value.
template <typename At>
inline uint8_t* WriteUnsignedRun(uint8_t* p, size_t n, int size, At at) {
  auto run = [&](auto width) {
    for (size_t k = 0; k < n; ++k, p += width) WriteUnsigned(p, at(k), width);
  };
  switch (size) {
    case 1:
      run(std::integral_constant<int, 1>{});
      break;
    case 2:
      run(std::integral_constant<int, 2>{});
      break;
    case 3:
      run(std::integral_constant<int, 3>{});
      break;
    default:
      run(std::integral_constant<int, 4>{});
  }
  return p;
}

inline void AppendUnsigned(std::string* out, uint32_t value, int size) {
  out->append(reinterpret_cast<const char*>(&value), size);
}

template <typename T>
inline void AppendLE(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(T));
}

}  // namespace varshred::internal
