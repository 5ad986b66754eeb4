// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/json_kernels.h"

#include <arrow/array/array_binary.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/util.h>
#include <arrow/type.h>

#include <string>
#include <string_view>

#include "varshred/builder.h"
#include "varshred/format.h"
#include "varshred/validate.h"

namespace varshred {

namespace {

// ----------------------------------------------------------------------
// JSON -> Variant

// One parser and one value builder serve every row of a call.
class JsonToVariantKernel {
 public:
  JsonToVariantKernel(const JsonToVariantOptions& options, arrow::MemoryPool* pool)
      : options_(options),
        parser_(options.parse),
        builder_(options.parse.duplicate_keys),
        out_(pool) {}

  // Dispatched once per array on its concrete string type.
  template <typename ArrayType>
  arrow::Status Run(const ArrayType& strings) {
    const int64_t data_bytes = TotalDataBytes(strings);
    ARROW_RETURN_NOT_OK(out_.Reserve(strings.length(), data_bytes));
    // Rows are parsed in place inside the data buffer wherever enough of it follows
    // them (simdjson reads a little past the end); the last few rows are copied.
    const char* data_end = DataEnd(strings);
    for (int64_t i = 0; i < strings.length(); ++i) {
      if (strings.IsNull(i)) {
        ARROW_RETURN_NOT_OK(out_.AppendNull());
        continue;
      }
      const std::string_view text = strings.GetView(i);
      // The finished bytes are copied once, from the builder into the Arrow builders.
      std::string_view metadata, value;
      const char* row_end = text.data() + text.size();
      const size_t readable_after =
          data_end != nullptr && row_end <= data_end ? data_end - row_end : 0;
      arrow::Status st = parser_.Parse(text, readable_after, &builder_);
      if (st.ok()) st = builder_.FinishViews(&metadata, &value);
      if (!st.ok()) {
        builder_.Reset();
        if (options_.errors == JsonErrorPolicy::kNull && st.IsInvalid()) {
          ++invalid_rows_;
          ARROW_RETURN_NOT_OK(out_.AppendNull());
          continue;
        }
        return st.WithMessage("row ", i, ": ", st.message());
      }
      ARROW_RETURN_NOT_OK(out_.Append(metadata, value));
      builder_.Reset();
    }
    return arrow::Status::OK();
  }

  arrow::Result<JsonToVariantResult> Finish() {
    JsonToVariantResult result;
    ARROW_ASSIGN_OR_RAISE(result.variants, out_.Finish(options_.layout));
    result.invalid_rows = invalid_rows_;
    return result;
  }

 private:
  template <typename ArrayType>
  static int64_t TotalDataBytes(const ArrayType& strings) {
    if constexpr (std::is_same_v<ArrayType, arrow::StringViewArray>) {
      return 0;  // unknown without a pass over the views; let the builder grow
    } else {
      if (strings.length() == 0) return 0;
      return strings.value_offset(strings.length()) - strings.value_offset(0);
    }
  }

  // The end of the bytes a row's text may be followed by; null when unknown.
  template <typename ArrayType>
  static const char* DataEnd(const ArrayType& strings) {
    if constexpr (std::is_same_v<ArrayType, arrow::StringViewArray>) {
      return nullptr;  // rows live in several buffers (or inline)
    } else {
      const auto& data = strings.data()->buffers[2];
      if (data == nullptr) return nullptr;
      return reinterpret_cast<const char*>(data->data()) + data->size();
    }
  }

  const JsonToVariantOptions& options_;
  JsonParser parser_;
  VariantBuilder builder_;
  VariantArrayBuilder out_;
  int64_t invalid_rows_ = 0;
};

}  // namespace

arrow::Result<JsonToVariantResult> JsonToVariantWithStats(
    const arrow::Array& strings, const JsonToVariantOptions& options,
    arrow::MemoryPool* pool) {
  JsonToVariantKernel kernel(options, pool);
  switch (strings.type_id()) {
    case arrow::Type::STRING:
      ARROW_RETURN_NOT_OK(kernel.Run(static_cast<const arrow::StringArray&>(strings)));
      break;
    case arrow::Type::LARGE_STRING:
      ARROW_RETURN_NOT_OK(
          kernel.Run(static_cast<const arrow::LargeStringArray&>(strings)));
      break;
    case arrow::Type::STRING_VIEW:
      ARROW_RETURN_NOT_OK(
          kernel.Run(static_cast<const arrow::StringViewArray&>(strings)));
      break;
    default:
      return arrow::Status::TypeError(
          "JSON input must be a string, large_string or string_view array, got ",
          strings.type()->ToString());
  }
  return kernel.Finish();
}

arrow::Result<std::shared_ptr<arrow::Array>> JsonToVariant(
    const arrow::Array& strings, const JsonToVariantOptions& options,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto result, JsonToVariantWithStats(strings, options, pool));
  return std::move(result.variants);
}

// ----------------------------------------------------------------------
// Variant -> JSON

arrow::Result<std::shared_ptr<arrow::Array>> VariantToJson(
    const arrow::Array& variants, const JsonWriteOptions& options,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto view,
                        VariantArrayView::Make(arrow::MakeArray(variants.data())));
  if (view.typed_value() != nullptr) {
    return arrow::Status::Invalid(
        "VariantToJson: the Variant column is shredded (it has a typed_value child); "
        "unshred it first");
  }
  ARROW_ASSIGN_OR_RAISE(JsonWriter writer, JsonWriter::Make(options));
  arrow::StringBuilder out(pool);
  ARROW_RETURN_NOT_OK(out.Reserve(view.length()));
  const ValidateOptions read_options = ValidateOptions::ForReading();
  std::string text;
  for (int64_t i = 0; i < view.length(); ++i) {
    if (view.IsNull(i)) {
      ARROW_RETURN_NOT_OK(out.AppendNull());
      continue;
    }
    if (view.metadata_column().IsNull(i)) {
      return arrow::Status::Invalid("row ", i, ": metadata is null in a non-null row");
    }
    const std::string_view metadata = view.metadata(i);
    // docs/shredding.md: a value missing where one is required reads as null.
    const std::string_view value = view.value_is_null(i) ? kNullValue : view.value(i);
    arrow::Status st = Validate(metadata, value, read_options);
    if (st.ok()) {
      text.clear();
      st = writer.Write(
          VariantView::MakeUnchecked(MetadataView::MakeUnchecked(metadata), value),
          &text);
    }
    if (!st.ok()) return st.WithMessage("row ", i, ": ", st.message());
    ARROW_RETURN_NOT_OK(out.Append(text));
  }
  std::shared_ptr<arrow::Array> result;
  ARROW_RETURN_NOT_OK(out.Finish(&result));
  return result;
}

}  // namespace varshred
