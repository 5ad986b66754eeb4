// Licensed under the Apache License, Version 2.0.
//
// The path syntax of ShreddingSchema::FromPaths() and ShreddingStats (`a.b`, `tags[]`,
// `e[].k`, backquoted names): the one parser and its inverse.

#pragma once

#include <arrow/result.h>

#include <string>
#include <string_view>
#include <vector>

namespace varshred::internal {

/// One step of a path: an object field, or every element of an array ("[]").
struct PathSegment {
  bool element = false;
  std::string name;  // the field name, unquoted (empty for elements)
};

/// \brief Parses a path: names separated by '.', "[]" after a name or at the start,
/// names in backquotes when they hold '.' or '[' (a backquote doubled inside). An empty
/// name must be quoted (``). Errors name the path and the column.
arrow::Result<std::vector<PathSegment>> ParsePath(std::string_view path);

/// \brief A field name in DDL and Spark type strings: as it is when it matches
/// [A-Za-z_][A-Za-z0-9_]*, else in backquotes (a backquote doubled).
std::string QuoteName(const std::string& name);

/// \brief A field name as a path segment: backquoted unless it is a plain name.
std::string QuotePathSegment(std::string_view name);

}  // namespace varshred::internal
