// Licensed under the Apache License, Version 2.0.
//
// The one check of a shredded column's shape, and the words for an invalid value/typed
// pair, shared by Unshred, the shredded JSON printer and variant_get.

#pragma once

#include <arrow/status.h>

#include <string>
#include <string_view>

#include "varshred/arrow/variant_array.h"

namespace varshred::internal {

/// \brief Checks the shape of a shredded column everywhere below the top: every group a
/// struct of `value` and/or `typed_value` (each at most once), no duplicate object
/// fields, supported typed_value types, nesting within kMaxNestingDepth. Unshred() and
/// variant_get apply the same rules (shredded_plan.cc). No value is read (dictionary
/// indices are bounds-checked): each reader checks the values it reads (typed strings'
/// UTF-8, decimals' precision).
arrow::Status CheckShreddedLayout(const VariantArrayView& view);

/// A residual beside shredded fields that is not an object (corpus cases 87 and 128).
inline constexpr std::string_view kNonObjectResidual =
    "non-object value with shredded fields";

/// A whole object (typed_value null) holding the shredded field `key`.
inline std::string HoldsShreddedField(std::string_view key) {
  return "value holds shredded field '" + std::string(key) +
         "' while typed_value is null";
}

}  // namespace varshred::internal
