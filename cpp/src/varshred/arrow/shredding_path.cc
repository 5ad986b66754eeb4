// Licensed under the Apache License, Version 2.0.
//
// The path syntax of FromPaths() and ShreddingStats (see shredding_path_internal.h).

#include "varshred/arrow/shredding_path_internal.h"

#include <arrow/status.h>

namespace varshred::internal {

arrow::Result<std::vector<PathSegment>> ParsePath(std::string_view path) {
  std::vector<PathSegment> out;
  size_t i = 0;
  auto bad = [&](const std::string& what) {
    return arrow::Status::Invalid("shredding path '", path, "': ", what, " at column ",
                                  i + 1);
  };
  if (path.empty()) return bad("empty path");
  bool expect_name = true;
  while (i < path.size()) {
    if (path[i] == '[') {
      if (i + 1 >= path.size() || path[i + 1] != ']') return bad("expected '[]'");
      if (expect_name && !out.empty()) return bad("'[]' after '.'");
      out.push_back({true, {}});
      i += 2;
      expect_name = false;
      continue;
    }
    if (!expect_name) {
      if (path[i] != '.') return bad("expected '.' or '[]'");
      ++i;
      expect_name = true;
      continue;
    }
    std::string name;
    const bool quoted = path[i] == '`';
    if (quoted) {
      ++i;
      while (true) {
        if (i >= path.size()) return bad("unterminated backquoted name");
        if (path[i] == '`') {
          if (i + 1 < path.size() && path[i + 1] == '`') {
            name.push_back('`');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        name.push_back(path[i++]);
      }
    } else {
      while (i < path.size() && path[i] != '.' && path[i] != '[') name.push_back(path[i++]);
    }
    if (name.empty() && !quoted) return bad("empty field name (write it ``)");
    out.push_back({false, std::move(name)});
    expect_name = false;
  }
  if (expect_name) return bad("path ends with '.'");
  return out;
}

std::string QuotePathSegment(std::string_view name) {
  bool plain = !name.empty();
  for (char c : name) {
    if (c == '.' || c == '[' || c == ']' || c == '`' || c == ' ') plain = false;
  }
  if (plain) return std::string(name);
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  out += '`';
  return out;
}

}  // namespace varshred::internal
