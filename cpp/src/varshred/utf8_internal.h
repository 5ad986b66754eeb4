// UTF-8 validation (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).

#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace varshred::internal {

bool IsValidUtf8(std::string_view s);

/// Offset of the first byte not starting a valid sequence, or s.size() if none.
size_t FirstInvalidUtf8(std::string_view s);

/// Appends `bytes` as UTF-8, each invalid sequence replaced by U+FFFD.
void AppendUtf8Lossy(std::string_view bytes, std::string* out);

}  // namespace varshred::internal
