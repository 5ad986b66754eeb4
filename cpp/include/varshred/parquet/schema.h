// Licensed under the Apache License, Version 2.0.
//
// The Parquet schema of a shredded Variant column (docs/shredding.md#typed-value-types),
// as the writer declares it.

#pragma once

#include <arrow/result.h>
#include <parquet/schema.h>

#include <string>

#include "varshred/arrow/shredding_schema.h"

namespace varshred {

/// \brief The VARIANT(1)-annotated Parquet group for a column `name` shredded as
/// `schema`: metadata, value, and typed_value as docs/shredding.md lays it out.
arrow::Result<parquet::schema::NodePtr> ToParquetSchema(
    const ShreddingSchema& schema, const std::string& name,
    parquet::Repetition::type repetition = parquet::Repetition::OPTIONAL);

}  // namespace varshred
