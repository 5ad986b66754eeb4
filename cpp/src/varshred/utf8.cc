// Licensed under the Apache License, Version 2.0.

#include "varshred/utf8_internal.h"

#include <cstring>

namespace varshred::internal {

bool IsValidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const uint8_t* end = p + s.size();
  while (p < end) {
    // ASCII fast path, eight bytes at a time.
    if (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        p += 8;
        continue;
      }
    }
    const uint8_t c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int n;
    uint32_t min;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      n = 1, min = 0x80, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2, min = 0x800, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3, min = 0x10000, cp = c & 0x07;
    } else {
      return false;
    }
    if (end - p <= n) return false;
    for (int i = 1; i <= n; ++i) {
      if ((p[i] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    p += n + 1;
  }
  return true;
}

// Longest valid prefix of 1..4 bytes at each position, else one U+FFFD per byte.
void AppendUtf8Lossy(std::string_view bytes, std::string* out) {
  if (IsValidUtf8(bytes)) {
    out->append(bytes);
    return;
  }
  size_t i = 0;
  while (i < bytes.size()) {
    // Longest valid sequence of 1..4 bytes at i.
    size_t len = 0;
    for (size_t n = 1; n <= 4 && i + n <= bytes.size(); ++n) {
      if (IsValidUtf8(bytes.substr(i, n))) {
        len = n;
        break;
      }
    }
    if (len == 0) {
      out->append("\xEF\xBF\xBD");
      ++i;
    } else {
      out->append(bytes.substr(i, len));
      i += len;
    }
  }
}

}  // namespace varshred::internal
