// Licensed under the Apache License, Version 2.0.
//
// JSON text straight from a shredded Variant column: typed columns are printed where
// they are, and Variant bytes are read only for residual values, so nothing is rebuilt.

#pragma once

#include <arrow/result.h>
#include <arrow/status.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "varshred/arrow/shredded_plan_internal.h"
#include "varshred/arrow/unshred.h"
#include "varshred/arrow/variant_array.h"
#include "varshred/json.h"
#include "varshred/json_write_internal.h"
#include "varshred/metadata.h"
#include "varshred/validate.h"

namespace varshred::internal {

/// \brief Prints rows of a shredded column exactly as VariantToJson prints the rows
/// Unshred rebuilds from it (objects in key order, a missing value as null), and fails
/// on the same invalid data with the same messages. One difference: a shredded field
/// name need not be in the row's metadata, since text needs no field ids.
class ShreddedJsonPrinter {
 public:
  /// `writer` must outlive the printer. Fails on the layout errors of
  /// CheckShreddedLayout().
  static arrow::Result<std::unique_ptr<ShreddedJsonPrinter>> Make(
      const VariantArrayView& view, const JsonWriter* writer, ConflictPolicy on_conflict);

  /// Appends the text of `row`, which is not a SQL NULL and whose metadata is
  /// `metadata` (validated); `key_ranks` as internal::MetadataCache::key_ranks(),
  /// `plain_keys` as internal::PlainKeys(metadata).
  arrow::Status Print(int64_t row, const MetadataView& metadata,
                      const uint32_t* key_ranks, bool plain_keys, TextSink* out);

 private:
  ShreddedJsonPrinter(std::unique_ptr<ReadNode> root, const JsonWriter* writer,
                      ConflictPolicy on_conflict);

  arrow::Status PrintPair(ReadNode& node, int64_t i, TextSink* out, bool* missing);
  arrow::Status PrintObject(ReadNode& node, ObjectReader& o, int64_t i, bool partial,
                            TextSink* out);
  arrow::Status PrintArray(ArrayReader& a, int64_t i, TextSink* out);
  // A residual value; `keys_sorted` as ValidateValue reported it.
  void PrintValue(const VariantView& v, bool keys_sorted, TextSink* out);
  arrow::Status CheckResidual(const ReadNode& node, std::string_view bytes,
                              bool* keys_sorted) const;

  std::unique_ptr<ReadNode> root_;
  const JsonWriter* writer_;
  ConflictPolicy on_conflict_;
  ValidateOptions validate_ = ValidateOptions::ForReading();
  MetadataView metadata_;
  const uint32_t* key_ranks_ = nullptr;
  bool plain_keys_ = false;
  int64_t row_ = 0;
  std::string scalar_;               // one typed scalar as Variant bytes
  std::string sorted_;               // a residual value with its keys sorted
  std::vector<uint32_t> residuals_;  // residual field indexes in key order, stacked
};

}  // namespace varshred::internal
