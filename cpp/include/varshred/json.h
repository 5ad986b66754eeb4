// Licensed under the Apache License, Version 2.0.
//
// JSON <-> Variant for single values, matching Spark 4.3's parse_json and to_json.

#pragma once

#include <arrow/result.h>
#include <arrow/status.h>

#include <memory>
#include <string>
#include <string_view>

#include "varshred/builder.h"
#include "varshred/value.h"

namespace varshred {

/// \brief How JSON numbers with a fraction or exponent are encoded.
enum class JsonNumbers : uint8_t {
  kDecimal,  ///< Spark: smallest exact decimal (precision <= 38), else double
  kDouble,   ///< always double
};

struct JsonParseOptions {
  JsonNumbers numbers = JsonNumbers::kDecimal;
  DuplicateKeyPolicy duplicate_keys = DuplicateKeyPolicy::kRaise;
  /// Deepest nesting accepted, at most kMaxNestingDepth (what readers accept); deeper
  /// documents are an error, never a crash.
  int max_depth = kMaxNestingDepth;

  /// \brief Invalid unless 0 <= max_depth <= kMaxNestingDepth. Every function taking
  /// these options checks them before reading any document, so that a bad option is
  /// never reported as (or, under JsonErrorPolicy::kNull, mistaken for) a bad row.
  arrow::Status Validate() const;
};

/// \brief Parses JSON documents into Variant values. Reuses its scratch memory between
/// calls, so keep one per thread.
class JsonParser {
 public:
  explicit JsonParser(JsonParseOptions options = {});
  ~JsonParser();
  JsonParser(JsonParser&&) noexcept;
  JsonParser& operator=(JsonParser&&) noexcept;

  /// \brief Parses one JSON document and appends it to `builder` as one value (the
  /// caller then calls builder->Finish()). Sets the builder's duplicate-key policy to
  /// `options.duplicate_keys`. On error the message says what is wrong and where
  /// (byte offset) and the builder must be Reset().
  ///
  /// Follows Spark's parse_json bytes, except: trailing content after the value and
  /// invalid UTF-8 are errors (Spark ignores / replaces them), and object fields are
  /// ordered by UTF-8 bytes as the spec says (Spark uses UTF-16 order, which differs
  /// only for keys mixing U+E000..U+FFFF with supplementary characters).
  arrow::Status Parse(std::string_view json, VariantBuilder* builder);

  /// \brief As Parse(), for a document followed in memory by `readable_after` bytes
  /// that may be read (their content does not matter), e.g. a row inside an Arrow data
  /// buffer. With at least kPadding of them the document is parsed in place instead of
  /// being copied into a padded scratch buffer.
  arrow::Status Parse(std::string_view json, size_t readable_after,
                      VariantBuilder* builder);

  /// \brief With `allowed`, Parse() of a document followed by at least kPadding
  /// readable bytes may index up to 64 KiB of them together with it, and parse later
  /// documents lying among them from that index: faster for the rows of one buffer
  /// parsed in order (a row of ~100 bytes alone costs about three times as much to
  /// index). The caller promises that those bytes stay unchanged until the next call of
  /// this function or the parser's end. Off at first; every call drops what was indexed.
  void IndexAhead(bool allowed);

  /// Bytes simdjson may read past the end of a document.
  static const size_t kPadding;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// \brief Options for Variant -> JSON text.
struct JsonWriteOptions {
  /// Zone for timestamps with time zone: "UTC", a fixed offset ("+05:30"), or an
  /// IANA zone name ("America/Los_Angeles", read from the system tz database).
  std::string timezone = "UTC";
};

class JsonWriter;
struct ValueFacts;
namespace internal {
class TextSink;
void WriteJson(const JsonWriter& writer, const VariantView& value, TextSink* out);
arrow::Status WriteJsonChecked(const JsonWriter& writer, const MetadataView& metadata,
                               const uint32_t* key_ranks, bool plain_keys,
                               std::string_view value, const ValidateOptions& options,
                               ValueFacts* facts, TextSink* out);
}  // namespace internal

/// \brief Writes Variant values as JSON text exactly as Spark's to_json prints them.
/// Keep one per thread: it caches the time zone.
class JsonWriter {
 public:
  /// \brief Fails when the time zone is unknown.
  static arrow::Result<JsonWriter> Make(const JsonWriteOptions& options = {});
  ~JsonWriter();
  JsonWriter(JsonWriter&&) noexcept;
  JsonWriter& operator=(JsonWriter&&) noexcept;

  /// \brief Appends the JSON text of `value` to `out`. \pre `value` is valid.
  arrow::Status Write(const VariantView& value, std::string* out) const;

 private:
  // Printers inside varshred append through the same cursor (json_write_internal.h).
  friend void internal::WriteJson(const JsonWriter&, const VariantView&,
                                  internal::TextSink*);
  friend arrow::Status internal::WriteJsonChecked(const JsonWriter&, const MetadataView&,
                                                  const uint32_t*, bool, std::string_view,
                                                  const ValidateOptions&, ValueFacts*,
                                                  internal::TextSink*);
  JsonWriter();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace varshred
