// Licensed under the Apache License, Version 2.0.
//
// The pieces of JsonWriter (json_write.cc) that other printers of Variant text reuse,
// so that every printer escapes the same way.

#pragma once

#include <string>
#include <string_view>

namespace varshred::internal {

/// Appends `s` as a quoted JSON string escaped as Jackson's writeString does.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace varshred::internal
