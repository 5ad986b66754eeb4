// Licensed under the Apache License, Version 2.0.
//
// The one float/double printer: to_json and the string cast both use it.

#pragma once

#include <string>

namespace varshred::internal {

/// \brief Appends `v` as Java's Double.toString / Float.toString print it (what Spark
/// shows): the shortest decimal that round-trips, with at least two digits (Java 19+'s
/// rule: 4.9E-324, not 5.0E-324), plain for 1e-3 <= |v| < 1e7 (3.0, 0.001, 1234567.0)
/// and d.dddE[-]n otherwise; -0.0; "NaN", "Infinity", "-Infinity" unquoted.
void AppendJavaFloating(double v, std::string* out);
void AppendJavaFloating(float v, std::string* out);

/// The longest text AppendJavaFloating() prints ("-2.2250738585072014E-308" is 24).
inline constexpr int kMaxJavaFloatingSize = 32;

/// As AppendJavaFloating(), into kMaxJavaFloatingSize bytes at `out`; returns the end.
char* PutJavaFloating(double v, char* out);
char* PutJavaFloating(float v, char* out);

}  // namespace varshred::internal
