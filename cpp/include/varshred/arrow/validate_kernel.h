// Licensed under the Apache License, Version 2.0.
//
// Validation of a whole Variant column.

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/status.h>

#include "varshred/value.h"

namespace varshred {

/// \brief Validates every non-null row of a Variant struct array (canonical, Spark or
/// shredded layout; children are matched by name, see VariantArrayView).
///
/// Each row's metadata and value bytes are checked as Validate() does (validate.h).
/// A non-null row whose metadata is null is an error; a null `value` is the Variant
/// null (or, in a shredded column, the typed_value's value), as readers take it. A
/// shredded column is then checked below its top level as Unshred() checks it:
/// residual bytes at every level, typed_value types, value and typed_value both set
/// where only an object may have both.
///
/// Stops at the first bad row. The message names the row and the path inside the
/// value, e.g. `Invalid: row 3: $.a[2]: short string of 9 bytes runs past the end of
/// the value`. A type error (not a Variant struct) is reported as TypeError.
arrow::Status ValidateVariants(const arrow::Array& variants,
                               const ValidateOptions& options = {});

}  // namespace varshred
