// Licensed under the Apache License, Version 2.0.
//
// The JSON reader behind JsonParser (json_parse.cc): one document at a time into a
// VariantBuilder. JsonParser reads whole documents: simdjson's first stage indexes the
// document's tokens and our own walk of that index builds the Variant; any document
// the walk does not accept whole (bad or unusual input) is read again with simdjson's
// on-demand API, which finds and describes the error. The JSON shredder
// (arrow/json_shredder_internal.h) opens a document with the on-demand API, walks the
// objects and arrays its shredding schema types itself, and hands the reader every
// other value to encode whole. Errors say what is wrong and at which byte.

#pragma once

#include <arrow/status.h>
#include <simdjson.h>

#include <cstddef>
#include <memory>
#include <string_view>

#include "varshred/builder.h"
#include "varshred/endian_internal.h"
#include "varshred/json.h"

namespace varshred::internal {

namespace od = simdjson::ondemand;

/// Whether `s` holds a backslash, 8 bytes at a time (overlapping loads within `s`):
/// keys and strings are mostly short, where a call to memchr costs more than the test.
inline bool HasBackslash(std::string_view s) {
  const size_t n = s.size();
  if (n < 8) {
    for (const char c : s) {
      if (c == '\\') return true;
    }
    return false;
  }
  for (size_t i = 0; i + 8 <= n; i += 8) {
    if (BytesEqual(ReadLE<uint64_t>(s.data() + i), '\\') != 0) return true;
  }
  return BytesEqual(ReadLE<uint64_t>(s.data() + n - 8), '\\') != 0;
}

// The per-key and per-string steps are defined here, not in json_parse.cc, so that
// both walks inline them: they run once per field and value.
class JsonReader {
 public:
  explicit JsonReader(JsonParseOptions options);

  const JsonParseOptions& options() const { return options_; }

  /// \brief JsonParser::Parse(): the whole document into `builder`.
  arrow::Status Parse(std::string_view json, size_t readable_after,
                      VariantBuilder* builder);

  /// \brief Starts reading `json` (as Parse()) for a caller that walks it: sets `*type`
  /// to the document's JSON type. Values encoded later go to `builder`.
  arrow::Status Open(std::string_view json, size_t readable_after,
                     VariantBuilder* builder, od::json_type* type);
  /// \brief The document opened by Open().
  od::document& document() { return doc_; }
  /// \brief Reads the rest of an opened document of type `type` into the builder, as
  /// Parse() would have (trailing content included).
  arrow::Status ParseOpened(od::json_type type);
  /// \brief Whether an opened document whose container was walked ends there (nothing
  /// but whitespace after it).
  bool AtEnd() { return doc_.at_end(); }

  /// \brief Encodes `v`, which sits inside `depth` containers, whole into the builder.
  arrow::Status ParseValue(od::value& v, int depth);
  /// \brief The decoded key of `field` (its text as it stands when it has no escape).
  arrow::Status Key(od::field& field, std::string_view* key) {
    // simdjson's first pass has checked the document's UTF-8 and control characters: a
    // key without escapes is its own bytes, and needs no copy.
    *key = field.escaped_key();
    if (!HasBackslash(*key)) [[likely]] {
      return arrow::Status::OK();
    }
    return UnescapedKey(field, key);
  }
  /// \brief For a string `v` without escapes: reads it and sets `*text` to its text as
  /// it stands (its decoded bytes) and `*plain`; else leaves `v` unread, `*plain` false.
  arrow::Status PlainString(od::value& v, std::string_view* text, bool* plain) {
    // As for keys: a string without escapes is its own bytes (between the quotes of its
    // raw token, which runs on to the next token).
    const std::string_view token = v.raw_json_token();
    const std::string_view raw = token.substr(1, token.find_last_of('"') - 1);
    *plain = !HasBackslash(raw);
    if (!*plain) return arrow::Status::OK();
    if (auto err = v.get_raw_json_string().error()) [[unlikely]] {
      return Error(err, Location());
    }
    *text = raw;
    return arrow::Status::OK();
  }
  /// \brief Whether the open document is read where it lies (its text, and the views
  /// into it, live as long as the caller's), not from a padded copy.
  bool InPlace() const { return in_place_; }

 private:
  // The document's text where simdjson may read it (padded), checks of the options.
  arrow::Status Prepare(std::string_view json, size_t readable_after,
                        VariantBuilder* builder);
  // The on-demand reading of the prepared document (Open() after Prepare()).
  arrow::Status Iterate(od::json_type* type);

  // The walk of simdjson's structural index: true when the prepared
  // document, an object or an array, was read whole into the builder; false (nothing
  // added) for every other document, which the on-demand reading then handles.
  struct IndexCursor;
  bool WalkIndexed();
  bool WalkValue(IndexCursor& c, int depth);
  bool WalkObject(IndexCursor& c, int depth);
  bool WalkArray(IndexCursor& c, int depth);
  bool WalkString(IndexCursor& c, std::string_view* text);

  arrow::Status UnescapedKey(od::field& field, std::string_view* key);
  size_t OffsetOf(const char* p) const;
  arrow::Status Error(simdjson::error_code code, const char* where) const;
  arrow::Status DepthError(const char* where) const;
  // Where the document iterator stands (for error messages).
  const char* Location();
  template <typename V>
  const char* Location(V&) {
    return Location();
  }
  arrow::Status AppendNumber(std::string_view token);
  // ParseValue()'s walk, called by its own steps: ParseValue() is called from other
  // files, so the compiler may not specialise it; this one is local to json_parse.cc.
  arrow::Status ParseAny(od::value& v, int depth);
  arrow::Status ParseObject(od::object obj, const char* where, int depth);
  arrow::Status ParseArray(od::array arr, int depth);
  arrow::Status ParseScalarDocument(od::json_type type);

  JsonParseOptions options_;
  od::parser parser_;
  simdjson::error_code allocate_status_ = simdjson::SUCCESS;
  // simdjson's first stage alone, for WalkIndexed(); null when simdjson could not make
  // one (the on-demand reading then serves every document).
  std::unique_ptr<simdjson::internal::dom_parser_implementation> indexer_;
  std::string unescaped_;  // WalkString()'s decoded strings
  od::document doc_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;  // bytes usable in buffer_, padding included
  const char* begin_ = nullptr;
  size_t size_ = 0;
  size_t padded_ = 0;  // bytes readable from begin_
  bool in_place_ = false;
  VariantBuilder* builder_ = nullptr;
};

}  // namespace varshred::internal
