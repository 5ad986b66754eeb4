// Licensed under the Apache License, Version 2.0.
//
// Typed Arrow arrays -> Variant (vs.from_arrow), by Spark 4.3's to_variant_object and
// cast(x as variant) wherever Spark has the type (docs/interop.md#arrow-types).

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <memory>

#include "varshred/arrow/variant_array.h"

namespace varshred {

struct ArrowToVariantOptions {
  /// Field order and tagging of the output struct.
  VariantLayout layout = VariantLayout::kCanonical;
};

/// \brief Converts every row of an Arrow array into one Variant value. A null slot at
/// the top is a SQL NULL row; a null nested inside a row (struct field, list element,
/// map value) is a Variant null.
///
///  * struct -> object (fields by name; a null field is a Variant null), map with
///    string keys -> object (a duplicate key is an error), list / large_list /
///    fixed_size_list / list_view / large_list_view -> array;
///  * integers -> the smallest of int8..int64 holding the value (as Spark); unsigned
///    integers widen, uint64 above INT64_MAX -> decimal(20, 0); half_float / float ->
///    float, double -> double; decimal32/64/128/256 -> decimal keeping the scale
///    (decimal256 values wider than 38 digits and negative scales that do not fit
///    are errors);
///  * bool, string / large_string / string_view, binary kinds (fixed_size_binary
///    included), date32, date64 (floored to days), timestamp s/ms/us -> timestamp
///    micros (timestamp_ntz without a zone), timestamp ns -> timestamp nanos,
///    time32 / time64 -> time micros (time64[ns] must be whole microseconds),
///    arrow.uuid -> uuid, dictionary -> its values, null -> Variant null;
///  * a Variant inside (the arrow.parquet.variant extension, or a struct in Spark's
///    layout, metadata tagged variant=true) is copied in.
///
/// Other types (durations, intervals, unions, run-end encoded) are a TypeError naming
/// the column path; values that cannot be represented are Invalid naming the row and
/// the path (`row 3: $.a[2]: ...`).
arrow::Result<std::shared_ptr<arrow::Array>> ArrowToVariant(
    const arrow::Array& array, const ArrowToVariantOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

}  // namespace varshred
