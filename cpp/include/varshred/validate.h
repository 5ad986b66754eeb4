// Licensed under the Apache License, Version 2.0.
//
// Full validation of untrusted Variant bytes.

#pragma once

#include <arrow/status.h>

#include <string_view>

#include "varshred/metadata.h"
#include "varshred/value.h"

namespace varshred {

/// \brief What ValidateValue() learns about a valid value besides its validity.
struct ValueFacts {
  /// Whether every object's ids are in key-byte order: false only for values accepted
  /// with options.allow_unsorted_keys, which writers must put back in spec order
  /// (internal::AppendSortedKeys) before storing them.
  bool keys_sorted = true;
  /// Bit `id` is set when the value holds a primitive of PrimitiveType `id` anywhere
  /// (short strings count as kString): lets callers skip a second walk when a type
  /// they look for (e.g. one a reader cannot read) is absent.
  uint32_t primitive_types = 0;
};

namespace internal {
[[gnu::cold]] arrow::Status MaxDepthOutOfRange(int max_depth);
}  // namespace internal

/// \brief Fails unless 0 <= options.max_depth <= kMaxNestingDepth: validation recurses
/// once per level, so a deeper limit could overflow the stack. Inline: checked once
/// per value validated.
inline arrow::Status CheckValidateOptions(const ValidateOptions& options) {
  if (options.max_depth >= 0 && options.max_depth <= kMaxNestingDepth) [[likely]] {
    return arrow::Status::OK();
  }
  return internal::MaxDepthOutOfRange(options.max_depth);
}

/// \brief Checks `value` against `metadata` (already validated) and `options`:
///
/// - every header is a known basic type; primitive ids are 0-20;
/// - counts, ids, offsets and lengths lie inside the buffer (64-bit arithmetic, so
///   4-byte fields cannot overflow a bounds check), and the value fills `value`
///   exactly (no trailing bytes);
/// - field ids are in the dictionary; keys within an object are unique and in
///   key-byte order (unless options.allow_unsorted_keys);
/// - strings and keys are UTF-8; decimal scales are <= 38 and decimal16 precision
///   <= 38;
/// - nesting is at most options.max_depth (see CheckValidateOptions()), the value at
///   most options.max_size bytes.
///
/// The error message names the problem and the path inside the value, e.g.
/// `Invalid: $.a[2]: short string of 9 bytes runs past the end of the value`.
///
/// `*facts` (when given) receives what the walk learned on the way, at no extra pass.
arrow::Status ValidateValue(const MetadataView& metadata, std::string_view value,
                            const ValidateOptions& options = {},
                            ValueFacts* facts = nullptr);

/// \brief Validates metadata bytes, then `value` against them.
arrow::Status Validate(std::string_view metadata, std::string_view value,
                       const ValidateOptions& options = {});

}  // namespace varshred
