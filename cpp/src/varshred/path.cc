// Licensed under the Apache License, Version 2.0.

#include "varshred/path.h"

#include <arrow/status.h>

#include <limits>

namespace varshred {

namespace {

arrow::Status InvalidPath(std::string_view path, size_t pos, std::string_view why) {
  return arrow::Status::Invalid(
      "[INVALID_VARIANT_GET_PATH] The path '", path,
      "' is not a valid variant extraction path: ", why, " at offset ", pos,
      ". A valid path starts with `$` followed by segments like `[123]`, `.name`, "
      "`['name']` or `[\"name\"]`.");
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

arrow::Result<VariantPath> VariantPath::Parse(std::string_view path) {
  if (path.empty() || path[0] != '$') {
    return InvalidPath(path, 0, "missing leading '$'");
  }
  std::vector<PathSegment> segments;
  size_t i = 1;
  const size_t n = path.size();
  while (i < n) {
    const char c = path[i];
    if (c == '.') {
      // Spark: '.' ~> "[^\\.\\[]+": one or more characters up to '.' or '['.
      size_t end = i + 1;
      while (end < n && path[end] != '.' && path[end] != '[') ++end;
      if (end == i + 1) return InvalidPath(path, i + 1, "empty key after '.'");
      segments.push_back(PathSegment::Key(std::string(path.substr(i + 1, end - i - 1))));
      i = end;
    } else if (c == '[') {
      if (i + 1 >= n) return InvalidPath(path, i, "unterminated '['");
      const char q = path[i + 1];
      if (q == '\'' || q == '"') {
        // ['name'] / ["name"]: no escapes, the first matching quote ends the key.
        size_t close = path.find(q, i + 2);
        if (close == std::string_view::npos || close + 1 >= n || path[close + 1] != ']') {
          return InvalidPath(path, i, "unterminated quoted key");
        }
        segments.push_back(
            PathSegment::Key(std::string(path.substr(i + 2, close - i - 2))));
        i = close + 2;
      } else {
        size_t end = i + 1;
        int64_t index = 0;
        while (end < n && IsDigit(path[end])) {
          index = index * 10 + (path[end] - '0');
          // Spark converts with String.toInt: a value past Int.MaxValue is invalid.
          if (index > std::numeric_limits<int32_t>::max()) {
            return InvalidPath(path, i + 1, "array index out of the 32-bit range");
          }
          ++end;
        }
        if (end == i + 1) {
          return InvalidPath(path, i + 1, "expected digits or a quoted key after '['");
        }
        if (end >= n || path[end] != ']') return InvalidPath(path, end, "expected ']'");
        segments.push_back(PathSegment::Index(static_cast<int32_t>(index)));
        i = end + 1;
      }
    } else {
      return InvalidPath(path, i, "expected '.' or '['");
    }
  }
  return VariantPath(std::move(segments));
}

VariantPath VariantPath::Child(std::string key) const {
  VariantPath out = *this;
  out.segments_.push_back(PathSegment::Key(std::move(key)));
  return out;
}

VariantPath VariantPath::Element(int32_t index) const {
  VariantPath out = *this;
  out.segments_.push_back(PathSegment::Index(index));
  return out;
}

std::string VariantPath::ToString() const {
  std::string out = "$";
  for (const PathSegment& s : segments_) {
    if (s.is_index()) {
      out += '[';
      out += std::to_string(s.index);
      out += ']';
      continue;
    }
    bool plain = !s.key.empty();
    for (char c : s.key) {
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_')) {
        plain = false;
        break;
      }
    }
    if (plain) {
      out += '.';
      out += s.key;
    } else {
      const char q = s.key.find('\'') == std::string::npos ? '\'' : '"';
      out += '[';
      out += q;
      out += s.key;
      out += q;
      out += ']';
    }
  }
  return out;
}

std::optional<VariantView> Lookup(const VariantView& value, const VariantPath& path) {
  VariantView v = value;
  for (const PathSegment& s : path.segments()) {
    if (s.is_key()) {
      if (v.type() != VariantType::kObject) return std::nullopt;
      std::optional<VariantView> child = v.GetObject().Find(s.key);
      if (!child) return std::nullopt;
      v = *child;
    } else {
      if (v.type() != VariantType::kArray) return std::nullopt;
      ArrayView array = v.GetArray();
      if (static_cast<uint32_t>(s.index) >= array.size()) return std::nullopt;
      v = array.element(static_cast<uint32_t>(s.index));
    }
  }
  return v;
}

}  // namespace varshred
