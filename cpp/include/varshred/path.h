// Licensed under the Apache License, Version 2.0.
//
// Variant extraction paths ("$.a.b[3]") as Spark's variant_get accepts them, and their
// lookup on Variant views.

#pragma once

#include <arrow/result.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "varshred/value.h"

namespace varshred {

/// \brief One step of a VariantPath: an object key or an array index.
struct PathSegment {
  enum class Kind : uint8_t { kKey, kIndex };

  Kind kind = Kind::kKey;
  /// The key, for kKey (may be empty: `$['']`).
  std::string key;
  /// The element index, for kIndex (0 <= index <= INT32_MAX, as Spark's Int).
  int32_t index = 0;

  static PathSegment Key(std::string key) {
    return PathSegment{Kind::kKey, std::move(key), 0};
  }
  static PathSegment Index(int32_t index) { return PathSegment{Kind::kIndex, {}, index}; }
  bool is_key() const { return kind == Kind::kKey; }
  bool is_index() const { return kind == Kind::kIndex; }
  bool operator==(const PathSegment& other) const = default;
};

/// \brief A parsed extraction path: `$` followed by zero or more segments.
///
/// The grammar is Spark's (VariantPathParser, Spark 4.3): `$` then any number of
///  * `.name`: one or more characters up to the next `.` or `[` (anything else is part of
///    the name, including spaces, quotes and `]`);
///  * `['name']` / `["name"]`: any characters but the closing quote, possibly none;
///    there are no escapes;
///  * `[123]`: ASCII digits (leading zeros allowed) whose value fits a 32-bit int.
/// There is no whitespace skipping, no negative index, no wildcard.
class VariantPath {
 public:
  /// The root path `$`.
  VariantPath() = default;
  explicit VariantPath(std::vector<PathSegment> segments)
      : segments_(std::move(segments)) {}

  /// \brief Parses `path`. Invalid paths give Invalid with Spark's error class
  /// INVALID_VARIANT_GET_PATH and the position of the first unparsable character.
  static arrow::Result<VariantPath> Parse(std::string_view path);

  const std::vector<PathSegment>& segments() const { return segments_; }
  size_t size() const { return segments_.size(); }
  bool is_root() const { return segments_.empty(); }
  const PathSegment& operator[](size_t i) const { return segments_[i]; }

  /// \brief This path with one more segment.
  VariantPath Child(std::string key) const;
  VariantPath Element(int32_t index) const;

  /// \brief Canonical text: `$`, `.name` for keys made of [A-Za-z0-9_] characters,
  /// `['name']` otherwise (`["name"]` when the key holds `'`), `[i]` for indexes.
  /// Parse(ToString()) gives the same path back.
  std::string ToString() const;

  bool operator==(const VariantPath& other) const = default;

 private:
  std::vector<PathSegment> segments_;
};

/// \brief Follows `path` from `value`: a key step needs an object holding the key
/// (ObjectView::Find), an index step an array longer than the index. Any other case
/// (key on a non-object, index on a non-array, missing key, index out of range) gives
/// std::nullopt. The result views the same bytes as `value` (same lifetime).
/// \pre `value` is valid.
std::optional<VariantView> Lookup(const VariantView& value, const VariantPath& path);

}  // namespace varshred
