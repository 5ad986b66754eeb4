// Licensed under the Apache License, Version 2.0.
//
// The JSON documents of an input, where they lie: the rows of an Arrow string array,
// or the lines of a JSON-lines text that hold more than whitespace; and how one of them
// parses as a row (ParseJsonDocument). Read by JSON -> Variant (json_kernels.cc) and by
// the Parquet writer's JSON input, both of which parse a document in place when enough
// of its buffer follows it (JsonParser::Parse's `readable_after`).

#pragma once

#include <arrow/array/array_base.h>
#include <arrow/array/array_binary.h>
#include <arrow/array/array_dict.h>
#include <arrow/extension_type.h>
#include <arrow/status.h>

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "varshred/arrow/json_kernels.h"
#include "varshred/builder.h"
#include "varshred/json.h"

namespace varshred::internal {

struct JsonDocument {
  std::string_view text;
  size_t readable_after = 0;  // bytes after `text` that may be read
  bool is_null = false;       // a null string: a SQL NULL row
};

namespace json_documents {

template <typename ArrayType>
arrow::Status ForEach(const ArrayType& strings, auto&& fn) {
  // The end of the bytes a row's text may be followed by; null when unknown (views
  // live in several buffers, or inline).
  const char* data_end = nullptr;
  if constexpr (!std::is_same_v<ArrayType, arrow::StringViewArray>) {
    const auto& data = strings.data()->buffers[2];
    if (data != nullptr)
      data_end = reinterpret_cast<const char*>(data->data()) + data->size();
  }
  for (int64_t i = 0; i < strings.length(); ++i) {
    JsonDocument d;
    if (strings.IsNull(i)) {
      d.is_null = true;
    } else {
      d.text = strings.GetView(i);
      const char* end = d.text.data() + d.text.size();
      if (data_end != nullptr && end <= data_end) d.readable_after = data_end - end;
    }
    ARROW_RETURN_NOT_OK(fn(d, i));
  }
  return arrow::Status::OK();
}

// Blank: empty or only " \t\n\v\f\r" (what Python's bytes.strip() removes).
inline bool IsBlankLine(const char* p, const char* end) {
  for (; p < end; ++p) {
    const char c = *p;
    if (c != ' ' && (c < '\t' || c > '\r')) return false;
  }
  return true;
}

// The documents of `strings` in row order (a dictionary's entries), defined below.
arrow::Status Collect(const arrow::Array& strings, std::vector<JsonDocument>* out);

}  // namespace json_documents

/// \brief Calls `fn(const JsonDocument&, int64_t row)` for each row of a string,
/// large_string or string_view array, of one dictionary-encoded over such strings (as
/// Parquet readers hand out repeated text), or of an `arrow.json` extension array (the
/// canonical JSON type: its storage is one of those); returns fn's first error.
/// TypeError for other types.
arrow::Status ForEachJsonDocument(const arrow::Array& strings, auto&& fn) {
  switch (strings.type_id()) {
    case arrow::Type::EXTENSION: {
      const auto& ext = static_cast<const arrow::ExtensionArray&>(strings);
      if (ext.extension_type()->extension_name() == "arrow.json") {
        return ForEachJsonDocument(*ext.storage(), fn);
      }
      break;
    }
    case arrow::Type::DICTIONARY: {
      const auto& dict = static_cast<const arrow::DictionaryArray&>(strings);
      std::vector<JsonDocument> entries;
      ARROW_RETURN_NOT_OK(json_documents::Collect(*dict.dictionary(), &entries));
      for (int64_t i = 0; i < dict.length(); ++i) {
        JsonDocument d;
        if (dict.IsNull(i)) {
          d.is_null = true;
        } else {
          const int64_t k = dict.GetValueIndex(i);
          if (k < 0 || k >= static_cast<int64_t>(entries.size())) {
            return arrow::Status::Invalid("row ", i, ": dictionary index ", k,
                                          " out of range");
          }
          d = entries[static_cast<size_t>(k)];
        }
        ARROW_RETURN_NOT_OK(fn(d, i));
      }
      return arrow::Status::OK();
    }
    case arrow::Type::STRING:
      return json_documents::ForEach(static_cast<const arrow::StringArray&>(strings), fn);
    case arrow::Type::LARGE_STRING:
      return json_documents::ForEach(static_cast<const arrow::LargeStringArray&>(strings),
                                     fn);
    case arrow::Type::STRING_VIEW:
      return json_documents::ForEach(static_cast<const arrow::StringViewArray&>(strings),
                                     fn);
    default:
      break;
  }
  return arrow::Status::TypeError(
      "JSON input must be a string, large_string or string_view array (or dictionary "
      "or arrow.json over one), got ",
      strings.type()->ToString());
}

namespace json_documents {

// Out of ForEachJsonDocument's template (its `put` is one type), so that the
// dictionary case instantiates it once.
inline arrow::Status Collect(const arrow::Array& strings,
                             std::vector<JsonDocument>* out) {
  out->resize(static_cast<size_t>(strings.length()));
  return ForEachJsonDocument(strings, [out](const JsonDocument& d, int64_t i) {
    (*out)[static_cast<size_t>(i)] = d;
    return arrow::Status::OK();
  });
}

}  // namespace json_documents

/// \brief Calls `fn(const JsonDocument&, int64_t row)` for each line of `text`
/// ('\n'-separated) holding more than ASCII whitespace; rows count those lines.
arrow::Status ForEachJsonLine(std::string_view text, auto&& fn) {
  const char* p = text.data();
  const char* const end = p + text.size();
  int64_t row = 0;
  while (p < end) {
    const auto* newline = static_cast<const char*>(std::memchr(p, '\n', end - p));
    const char* line_end = newline != nullptr ? newline : end;
    if (!json_documents::IsBlankLine(p, line_end)) {
      JsonDocument d;
      d.text = {p, static_cast<size_t>(line_end - p)};
      d.readable_after = static_cast<size_t>(end - line_end);
      ARROW_RETURN_NOT_OK(fn(d, row++));
    }
    p = newline != nullptr ? newline + 1 : end;
  }
  return arrow::Status::OK();
}

/// \brief Parses document `d`, row `row` of its input, into `builder` and finishes it:
/// `metadata` and `value` view the builder's bytes until its next Reset(). False when
/// the document is invalid and `errors` is kNull: the row is a SQL NULL (the builder is
/// reset). Any other error names the row: `row 17: ...`.
inline arrow::Result<bool> ParseJsonDocument(JsonParser& parser, VariantBuilder& builder,
                                             const JsonDocument& d, int64_t row,
                                             JsonErrorPolicy errors,
                                             std::string_view* metadata,
                                             std::string_view* value) {
  arrow::Status st = parser.Parse(d.text, d.readable_after, &builder);
  if (st.ok()) st = builder.FinishViews(metadata, value);
  if (st.ok()) return true;
  builder.Reset();
  if (errors == JsonErrorPolicy::kNull && st.IsInvalid()) return false;
  return st.WithMessage("row ", row, ": ", st.message());
}

}  // namespace varshred::internal
