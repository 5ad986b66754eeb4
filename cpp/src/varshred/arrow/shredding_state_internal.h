// Licensed under the Apache License, Version 2.0.
//
// The layout rule of shredded data in one place: what a {value, typed_value} pair
// holds in one row (docs/shredding.md#pair-semantics). The shredder produces these
// states (shredder_internal.h); Unshred and variant_get read them back.

#pragma once

#include <cstdint>

namespace varshred::internal {

/// \brief The state of one {value, typed_value} pair in one row.
///
/// | value      | typed_value | state          | means |
/// |------------|-------------|----------------|-----------------------------------------|
/// | null       | null        | kMissing       | an absent object field; as a top-level |
/// |            |             |                | value or an array element, Variant null
/// | | bytes      | null        | kValue         | the value, of any type | | null | set
/// | kTyped         | the typed value                         | | object     | object |
/// kPartialObject | an object: the typed fields plus the    | |            | | |
/// residual's (a key in both is invalid)   | | bytes      | set, not an | kConflict |
/// invalid: readers fail, or let the typed | |            | object      | | value win
/// (ConflictPolicy)              |
///
/// The shredder writes kMissing for schema fields an object lacks, kValue for values
/// not of the typed kind, kTyped for values that are, and kPartialObject for objects
/// with fields the schema does not shred. It never writes kConflict.
enum class PairState : uint8_t { kMissing, kValue, kTyped, kPartialObject, kConflict };

/// \brief The state of a pair whose value is (non-)null, whose typed_value is
/// (non-)null, and whose typed_value is an object kind or not.
constexpr PairState StateOf(bool has_value, bool has_typed, bool typed_is_object) {
  if (!has_typed) return has_value ? PairState::kValue : PairState::kMissing;
  if (!has_value) return PairState::kTyped;
  return typed_is_object ? PairState::kPartialObject : PairState::kConflict;
}

}  // namespace varshred::internal
