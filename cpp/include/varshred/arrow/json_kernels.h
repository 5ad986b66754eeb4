// Licensed under the Apache License, Version 2.0.
//
// JSON text columns <-> Variant columns, one flat function each.

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/buffer.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

#include <cstdint>
#include <memory>
#include <string_view>

#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/json.h"

namespace varshred {

/// \brief What JsonToVariant() does with a row that is not valid JSON.
enum class JsonErrorPolicy : uint8_t {
  kRaise,  ///< fail the call, naming the row (Spark's parse_json)
  kNull,   ///< make the row a SQL NULL (Spark's try_parse_json)
};

struct JsonToVariantOptions {
  /// Number encoding, duplicate keys, depth limit (json.h).
  JsonParseOptions parse;
  JsonErrorPolicy errors = JsonErrorPolicy::kRaise;
  /// Field order and tagging of the output struct.
  VariantLayout layout = VariantLayout::kCanonical;
};

/// \brief The output of JsonToVariantWithStats().
struct JsonToVariantResult {
  std::shared_ptr<arrow::Array> variants;
  /// Rows that failed to parse and became SQL NULL (JsonErrorPolicy::kNull only).
  int64_t invalid_rows = 0;
};

/// \brief Parses a string, large_string or string_view array of JSON documents into an
/// unshredded Variant struct array in `options.layout`. A null string is a SQL NULL
/// row; JSON `null` is a Variant null (value 00). Each row gets its own metadata, keys
/// in first-seen order, as Spark's parse_json writes them.
///
/// Errors name the row: `Invalid: row 17: ...` (the parser's message follows).
arrow::Result<std::shared_ptr<arrow::Array>> JsonToVariant(
    const arrow::Array& strings, const JsonToVariantOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief As JsonToVariant(), and also counts the rows made SQL NULL by
/// JsonErrorPolicy::kNull.
arrow::Result<JsonToVariantResult> JsonToVariantWithStats(
    const arrow::Array& strings, const JsonToVariantOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief Parses JSON lines: each line of `text` ('\n'-separated) holding more than
/// ASCII whitespace (" \t\n\v\f\r") is one document, and one row of the result, as
/// JsonToVariantWithStats() would parse it from a string array of those lines. Blank
/// lines give no row; errors count rows as the result does (`row 0` is the first
/// non-blank line). The lines are parsed where they lie, without splitting or copying
/// `text` first.
arrow::Result<JsonToVariantResult> JsonLinesToVariant(
    std::string_view text, const JsonToVariantOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

struct VariantToJsonOptions {
  /// How values print: the time zone of timestamps (json.h).
  JsonWriteOptions json;
  /// Shredded input: what to do with data the spec calls invalid (unshred.h).
  ConflictPolicy on_conflict = ConflictPolicy::kRaise;
  /// Unshredded input: print objects whose field ids are not in key order (DuckDB
  /// writes such) in key order, as a reader rebuilding them does; else in stored order.
  /// Shredded input always prints in key order, as its rebuilt values do.
  bool sort_keys = false;
};

/// \brief Prints each row of a Variant struct array as JSON text, as Spark's to_json
/// does. SQL NULL rows stay null. Any Variant array is accepted: canonical or Spark
/// layout (children matched by name), unshredded or shredded. Shredded columns print
/// straight from their typed columns, without rebuilding Variant bytes, exactly as
/// their unshredded values would. Every value read as bytes is validated first
/// (validate.h, accepting unsorted field ids as readers should), so any input gives
/// either text or an error naming the row (and path), never a crash.
arrow::Result<std::shared_ptr<arrow::Array>> VariantToJson(
    const arrow::Array& variants, const VariantToJsonOptions& options = {},
    arrow::MemoryPool* pool = arrow::default_memory_pool());

/// \brief As VariantToJson(), as JSON lines in one buffer: each row's text followed by
/// a newline, SQL NULL rows as `null` (what `varshred to-json` prints). The buffer
/// owns the text as printed (malloc'd, not from an Arrow pool): scans free it on
/// another thread.
arrow::Result<std::shared_ptr<arrow::Buffer>> VariantToJsonLines(
    const arrow::Array& variants, const VariantToJsonOptions& options = {});

}  // namespace varshred
