// UTF-8 validation (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).

#pragma once

#include <cstdint>
#include <string_view>

namespace varshred::internal {

bool IsValidUtf8(std::string_view s);

}  // namespace varshred::internal
