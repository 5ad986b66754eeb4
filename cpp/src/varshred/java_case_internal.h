// Licensed under the Apache License, Version 2.0.
//
// Java's case-insensitive string equality, which Spark's default name resolution
// (spark.sql.caseSensitive=false) uses.

#pragma once

#include <string_view>

namespace varshred::internal {

/// \brief Java 17's String.equalsIgnoreCase on two valid UTF-8 strings: code point by
/// code point, equal when Character.toLowerCase(Character.toUpperCase(c)) is. So
/// "K" (U+212A KELVIN SIGN) equals "k" and "\u0130" equals "i", but "\u00df" does
/// not equal "SS" (simple case mappings, one code point each).
bool JavaEqualsIgnoreCase(std::string_view a, std::string_view b);

}  // namespace varshred::internal
