// Licensed under the Apache License, Version 2.0.
//
// Reading the seed draft's shredded layout (Spark common/variant/shredding.md, mid
// 2024; docs/shredding.md#legacy-layout).

#pragma once

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <memory>

namespace varshred {

/// \brief Reconstructs a column in the seed draft layout into an unshredded canonical
/// struct<metadata, value>.
///
/// Each level is a struct with any of `untyped_value` (binary holding metadata‖value,
/// split with the metadata length formula), `object` (a struct of field groups),
/// `array` (a list of element groups) and `typed_value` (a primitive); any group may
/// be nullable. The result has one merged dictionary per row: keys of every residual
/// are re-encoded against it. Reading follows the draft's ConstructVariant: a null
/// field group or all-null field is missing; a null element or a missing top-level
/// value is Variant null (as the final spec reads them); `untyped_value` holding a
/// Variant null next to a typed value is tolerated (typed wins); any other pair of
/// non-null slots is Invalid. Fields named with a leading `_` are ignored, as the
/// draft allows; other unknown names are rejected.
arrow::Result<std::shared_ptr<arrow::Array>> FromLegacyShredded(
    const arrow::Array& legacy, arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
