// UTF-8 validation (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace varshred::internal {

/// IsValidUtf8() past the inline check of short ASCII text.
bool IsValidUtf8Slow(std::string_view s);

/// Whether `s` is valid UTF-8. Inline for the most frequent case, keys and short
/// strings of ASCII: at most two overlapping loads within `s` and one test.
inline bool IsValidUtf8(std::string_view s) {
  const char* d = s.data();
  const size_t n = s.size();
  uint64_t high = 0;
  if (n >= 8 && n <= 16) {
    uint64_t head, tail;
    std::memcpy(&head, d, 8);
    std::memcpy(&tail, d + n - 8, 8);
    high = (head | tail) & 0x8080808080808080ULL;
  } else if (n >= 4 && n < 8) {
    uint32_t head, tail;
    std::memcpy(&head, d, 4);
    std::memcpy(&tail, d + n - 4, 4);
    high = (head | tail) & 0x80808080U;
  } else if (n > 0 && n < 4) {  // bytes 0, n / 2 and n - 1 cover 1 to 3 bytes
    high = (static_cast<uint8_t>(d[0]) | static_cast<uint8_t>(d[n / 2]) |
            static_cast<uint8_t>(d[n - 1])) &
           0x80U;
  } else if (n == 0) {
    return true;
  } else {
    return IsValidUtf8Slow(s);
  }
  return high == 0 || IsValidUtf8Slow(s);
}

/// Offset of the first byte not starting a valid sequence, or s.size() if none.
size_t FirstInvalidUtf8(std::string_view s);

/// Appends `bytes` as UTF-8, each invalid sequence replaced by U+FFFD.
void AppendUtf8Lossy(std::string_view bytes, std::string* out);

}  // namespace varshred::internal
