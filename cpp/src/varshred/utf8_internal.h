// UTF-8 validation (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).

#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace varshred::internal {

bool IsValidUtf8(std::string_view s);

/// Appends `bytes` as UTF-8, each invalid sequence replaced by U+FFFD.
void AppendUtf8Lossy(std::string_view bytes, std::string* out);

}  // namespace varshred::internal
