// Licensed under the Apache License, Version 2.0.
//
// UTF-8 (RFC 3629): the one validator (every check of untrusted text goes through
// SequenceLength below, or for long text through simdjson's vectorized validator of
// the same rules), and the lossy conversion of binary to text.

#include <simdjson.h>

#include <cstring>

#include "varshred/utf8_internal.h"

namespace varshred::internal {

namespace {

// Length of the valid non-ASCII sequence at p (2-4), or 0: no overlongs, no
// surrogates, at most U+10FFFF. \pre p < end, *p >= 0x80.
inline int SequenceLength(const uint8_t* p, const uint8_t* end) {
  const uint8_t c = *p;
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
    return 0;
  }
  if (end - p <= n) return 0;
  for (int i = 1; i <= n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n + 1;
}

}  // namespace

size_t FirstInvalidUtf8(std::string_view s) {
  const auto* begin = reinterpret_cast<const uint8_t*>(s.data());
  const uint8_t* p = begin;
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
    if (*p < 0x80) {
      ++p;
      continue;
    }
    const int len = SequenceLength(p, end);
    if (len == 0) return static_cast<size_t>(p - begin);
    p += len;
  }
  return s.size();
}

bool IsValidUtf8Slow(std::string_view s) {
  // simdjson's vectorized check (the same rules) pays off past a few words; short
  // keys and strings take the loop above, mostly its ASCII path.
  constexpr size_t kVectorized = 64;
  if (s.size() >= kVectorized) return simdjson::validate_utf8(s.data(), s.size());
  return FirstInvalidUtf8(s) == s.size();
}

void AppendUtf8Lossy(std::string_view bytes, std::string* out) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  size_t i = FirstInvalidUtf8(bytes);
  out->append(bytes.substr(0, i));
  while (i < bytes.size()) {
    const int len = p[i] < 0x80 ? 1 : SequenceLength(p + i, end);
    if (len == 0) {
      out->append("\xEF\xBF\xBD");
      ++i;
    } else {
      out->append(bytes.substr(i, static_cast<size_t>(len)));
      i += static_cast<size_t>(len);
    }
  }
}

}  // namespace varshred::internal
