// Licensed under the Apache License, Version 2.0.
//
// The one check of a shredded column's shape, shared by Unshred and variant_get.

#pragma once

#include <arrow/status.h>

#include "varshred/arrow/variant_array.h"

namespace varshred::internal {

/// \brief Checks the shape of a shredded column everywhere below the top: every group a
/// struct of `value` and/or `typed_value` (each at most once), no duplicate object
/// fields, supported typed_value types, nesting within kMaxNestingDepth. Unshred() and
/// variant_get apply the same rules (shredded_plan.cc). No value is read (dictionary
/// indices are bounds-checked): each reader checks the values it reads (typed strings'
/// UTF-8, decimals' precision).
arrow::Status CheckShreddedLayout(const VariantArrayView& view);

}  // namespace varshred::internal
