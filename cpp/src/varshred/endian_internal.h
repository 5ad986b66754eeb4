// Little-endian reads and writes of 1-8 byte integers. The Variant format is
// little-endian throughout (docs/format.md), as is every target we build for.

#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace varshred::internal {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "varshred assumes a little-endian host");

/// Reads an unsigned `size`-byte (1-4) little-endian integer.
inline uint32_t ReadUnsigned(const uint8_t* p, int size) {
  switch (size) {
    case 1:
      return p[0];
    case 2:
      return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8);
    case 3:
      return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
             (static_cast<uint32_t>(p[2]) << 16);
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

template <typename T>
inline T ReadLE(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

/// Writes the low `size` (1-4) bytes of `value`.
inline void WriteUnsigned(uint8_t* p, uint32_t value, int size) {
  std::memcpy(p, &value, size);
}

inline void AppendUnsigned(std::string* out, uint32_t value, int size) {
  out->append(reinterpret_cast<const char*>(&value), size);
}

template <typename T>
inline void AppendLE(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof(T));
}

}  // namespace varshred::internal
