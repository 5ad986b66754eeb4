// Licensed under the Apache License, Version 2.0.

#include "varshred/arrow/json_kernels.h"

#include <arrow/array/array_binary.h>
#include <arrow/array/builder_binary.h>
#include <arrow/array/util.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_ops.h>

#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "varshred/arrow/json_documents_internal.h"
#include "varshred/arrow/shredded_json_internal.h"
#include "varshred/builder.h"
#include "varshred/container_encoding_internal.h"
#include "varshred/format.h"
#include "varshred/json_write_internal.h"
#include "varshred/metadata_cache_internal.h"
#include "varshred/row_error_internal.h"
#include "varshred/validate.h"
#include "varshred/validate_internal.h"

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
        out_(pool) {
    parser_.IndexAhead(true);  // the input stays as it is during the call
  }

  arrow::Status Run(const arrow::Array& strings) {
    ARROW_RETURN_NOT_OK(options_.parse.Validate());
    ARROW_RETURN_NOT_OK(out_.Reserve(strings.length(), TextBytes(strings)));
    return internal::ForEachJsonDocument(
        strings, [&](const internal::JsonDocument& d, int64_t row) {
          return d.is_null ? out_.AppendNull() : ParseRow(d, row);
        });
  }

  // JSON lines: every line holding more than whitespace is one row.
  arrow::Status RunLines(std::string_view text) {
    ARROW_RETURN_NOT_OK(options_.parse.Validate());
    ARROW_RETURN_NOT_OK(out_.Reserve(0, static_cast<int64_t>(text.size())));
    return internal::ForEachJsonLine(text, [&](const internal::JsonDocument& d,
                                               int64_t row) { return ParseRow(d, row); });
  }

  arrow::Result<JsonToVariantResult> Finish() {
    JsonToVariantResult result;
    ARROW_ASSIGN_OR_RAISE(result.variants, out_.Finish(options_.layout));
    result.invalid_rows = invalid_rows_;
    return result;
  }

 private:
  // The JSON text's bytes, to reserve; 0 when unknown without a pass (string views).
  static int64_t TextBytes(const arrow::Array& strings) {
    if (strings.length() == 0) return 0;
    if (strings.type_id() == arrow::Type::STRING) {
      const auto& a = static_cast<const arrow::StringArray&>(strings);
      return a.value_offset(a.length()) - a.value_offset(0);
    }
    if (strings.type_id() == arrow::Type::LARGE_STRING) {
      const auto& a = static_cast<const arrow::LargeStringArray&>(strings);
      return a.value_offset(a.length()) - a.value_offset(0);
    }
    return 0;
  }

  // Parses one row and appends it.
  arrow::Status ParseRow(const internal::JsonDocument& d, int64_t row) {
    // The finished bytes are copied once, from the builder into the Arrow builders.
    std::string_view metadata, value;
    ARROW_ASSIGN_OR_RAISE(const bool parsed, internal::ParseJsonDocument(
                                                 parser_, builder_, d, row,
                                                 options_.errors, &metadata, &value));
    if (!parsed) {
      ++invalid_rows_;
      return out_.AppendNull();
    }
    ARROW_RETURN_NOT_OK(out_.Append(metadata, value));
    builder_.Reset();
    return arrow::Status::OK();
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
  ARROW_RETURN_NOT_OK(kernel.Run(strings));
  return kernel.Finish();
}

arrow::Result<std::shared_ptr<arrow::Array>> JsonToVariant(
    const arrow::Array& strings, const JsonToVariantOptions& options,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto result, JsonToVariantWithStats(strings, options, pool));
  return std::move(result.variants);
}

arrow::Result<JsonToVariantResult> JsonLinesToVariant(std::string_view text,
                                                      const JsonToVariantOptions& options,
                                                      arrow::MemoryPool* pool) {
  JsonToVariantKernel kernel(options, pool);
  ARROW_RETURN_NOT_OK(kernel.RunLines(text));
  return kernel.Finish();
}

// ----------------------------------------------------------------------
// Variant -> JSON

namespace {

// Prints the rows of one Variant array, shredded or not.
class VariantPrinter {
 public:
  static arrow::Result<std::unique_ptr<VariantPrinter>> Make(
      const arrow::Array& variants, const VariantToJsonOptions& options) {
    ARROW_ASSIGN_OR_RAISE(auto view,
                          VariantArrayView::Make(arrow::MakeArray(variants.data())));
    ARROW_ASSIGN_OR_RAISE(JsonWriter writer, JsonWriter::Make(options.json));
    auto printer = std::unique_ptr<VariantPrinter>(
        new VariantPrinter(std::move(view), std::move(writer), options.sort_keys));
    if (printer->view_.typed_value() != nullptr) {
      ARROW_ASSIGN_OR_RAISE(printer->shredded_,
                            internal::ShreddedJsonPrinter::Make(
                                printer->view_, &printer->writer_, options.on_conflict));
    }
    return printer;
  }

  int64_t length() const { return view_.length(); }
  bool IsNull(int64_t row) const { return view_.IsNull(row); }

  // Appends the text of a row that is not a SQL NULL.
  arrow::Status Print(int64_t row, internal::TextSink* out) {
    if (view_.metadata_column().IsNull(row)) {
      return internal::NullMetadataError(row);
    }
    auto metadata = metadata_cache_.Get(view_.metadata(row));
    if (!metadata.ok()) {
      return arrow::Status::Invalid("row ", row, ": ", metadata.status().message());
    }
    const bool plain_keys = plain_keys_.Get(*metadata, metadata_cache_.epoch());
    if (shredded_ != nullptr) {
      return shredded_->Print(row, *metadata, metadata_cache_.key_ranks(), plain_keys,
                              out);
    }
    // Checked and printed in one walk; a value with unsorted keys is printed again
    // from a sorted copy when asked to sort them (rare: DuckDB writes them).
    const std::string_view value = view_.value_or_variant_null(row);
    const size_t start = out->Position();
    ValueFacts facts;
    const arrow::Status st =
        internal::WriteJsonChecked(writer_, *metadata, metadata_cache_.key_ranks(),
                                   plain_keys, value, read_options_, &facts, out);
    if (!st.ok()) return st.WithMessage("row ", row, ": ", st.message());
    if (facts.keys_sorted || !sort_keys_) return arrow::Status::OK();
    out->Truncate(start);
    sorted_.clear();
    internal::AppendSortedKeys(VariantView::MakeUnchecked(*metadata, value), &sorted_);
    internal::WriteJson(writer_, VariantView::MakeUnchecked(*metadata, sorted_), out);
    return arrow::Status::OK();
  }

 private:
  VariantPrinter(VariantArrayView view, JsonWriter writer, bool sort_keys)
      : view_(std::move(view)), writer_(std::move(writer)), sort_keys_(sort_keys) {}

  VariantArrayView view_;
  JsonWriter writer_;
  std::unique_ptr<internal::ShreddedJsonPrinter> shredded_;
  internal::MetadataCache metadata_cache_;
  internal::PlainKeysCache plain_keys_;
  const ValidateOptions read_options_ = ValidateOptions::ForReading();
  const bool sort_keys_;
  std::string sorted_;  // a value with unsorted ids, rebuilt in key order
};

// After the first rows, grows the text once to what they predict for all `rows`, which
// spares a large text its doubling copies (and their page faults).
void ReserveForAllRows(int64_t done, int64_t rows, internal::TextSink* text) {
  constexpr int64_t kProbeRows = 1024;
  if (done != kProbeRows || rows < 2 * kProbeRows) return;
  const double per_row = static_cast<double>(text->Position()) / done;
  text->ReserveTotal(static_cast<size_t>(per_row * static_cast<double>(rows) * 1.125));
}

// The text of every row goes through one sink, which grows the string in steps (and
// zero-fills each): about 256 bytes a row, at most 64 KiB (TextSink), so that a call
// on a few rows does not fill 64 KiB.
size_t TextStep(int64_t rows) { return static_cast<size_t>(rows) * 256; }

// The text of a call is printed into a string of the calling thread, over the bytes
// of the thread's previous call (zero-filled once, when the string grew: TextSink's
// Overwrite), then copied into a buffer from the Arrow pool (ToBuffer) or handed out
// whole (Release). A fresh string per call came from malloc's mmap threshold upwards
// as new pages, and two threads faulting pages in one process slowed each other down
// (`varshred to-json`).
class ThreadText {
 public:
  ThreadText() : text_(Storage()) {}
  ~ThreadText() {
    if (text_.capacity() > kKeptBytes) std::string().swap(text_);
  }
  std::string* get() { return &text_; }

  // The first `length` bytes as a buffer that owns them; the thread starts its next
  // text afresh.
  std::shared_ptr<arrow::Buffer> Release(size_t length) {
    text_.resize(length);
    return arrow::Buffer::FromString(std::exchange(text_, std::string()));
  }

  arrow::Result<std::shared_ptr<arrow::Buffer>> ToBuffer(size_t length,
                                                         arrow::MemoryPool* pool) const {
    ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::Buffer> buffer,
                          arrow::AllocateBuffer(static_cast<int64_t>(length), pool));
    if (length != 0) std::memcpy(buffer->mutable_data(), text_.data(), length);
    return buffer;
  }

 private:
  static constexpr size_t kKeptBytes = size_t{64} << 20;
  static std::string& Storage() {
    thread_local std::string text;
    return text;
  }
  std::string& text_;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> VariantToJson(
    const arrow::Array& variants, const VariantToJsonOptions& options,
    arrow::MemoryPool* pool) {
  ARROW_ASSIGN_OR_RAISE(auto printer, VariantPrinter::Make(variants, options));
  const int64_t n = printer->length();
  // The text of all rows in one string, copied into the result's data buffer.
  ThreadText thread_text;
  ARROW_ASSIGN_OR_RAISE(auto offsets,
                        arrow::AllocateBuffer((n + 1) * sizeof(int32_t), pool));
  auto* offset = reinterpret_cast<int32_t*>(offsets->mutable_data());
  std::shared_ptr<arrow::Buffer> validity;
  int64_t null_count = 0;
  offset[0] = 0;
  size_t length = 0;
  {
    internal::TextSink text(thread_text.get(), TextStep(n),
                            internal::TextSink::Overwrite{});
    for (int64_t row = 0; row < n; ++row) {
      if (printer->IsNull(row)) {
        if (validity == nullptr) {
          ARROW_ASSIGN_OR_RAISE(validity, arrow::AllocateBitmap(n, pool));
          arrow::bit_util::SetBitsTo(validity->mutable_data(), 0, n, true);
        }
        arrow::bit_util::ClearBit(validity->mutable_data(), row);
        ++null_count;
      } else {
        ARROW_RETURN_NOT_OK(printer->Print(row, &text));
        if (text.Position() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
          return arrow::Status::CapacityError("row ", row,
                                              ": the JSON text passes 2 GiB; print fewer "
                                              "rows at a time");
        }
      }
      offset[row + 1] = static_cast<int32_t>(text.Position());
      ReserveForAllRows(row + 1, n, &text);
    }
    length = text.Position();
  }
  ARROW_ASSIGN_OR_RAISE(auto bytes, thread_text.ToBuffer(length, pool));
  return arrow::MakeArray(arrow::ArrayData::Make(
      arrow::utf8(), n, {std::move(validity), std::move(offsets), std::move(bytes)},
      null_count));
}

arrow::Result<std::shared_ptr<arrow::Buffer>> VariantToJsonLines(
    const arrow::Array& variants, const VariantToJsonOptions& options) {
  ARROW_ASSIGN_OR_RAISE(auto printer, VariantPrinter::Make(variants, options));
  ThreadText thread_text;
  size_t length = 0;
  {
    internal::TextSink lines(thread_text.get(), TextStep(printer->length()),
                             internal::TextSink::Overwrite{});
    for (int64_t row = 0; row < printer->length(); ++row) {
      if (printer->IsNull(row)) {
        lines.Put("null");
      } else {
        ARROW_RETURN_NOT_OK(printer->Print(row, &lines));
      }
      lines.Put('\n');
      ReserveForAllRows(row + 1, printer->length(), &lines);
    }
    length = lines.Position();
  }
  // The text itself becomes the buffer: no copy, and malloc's memory rather than the
  // default pool's, since a scan's consumer frees it on another thread and mimalloc
  // (pyarrow's default) would hand it back to the OS and fault it in afresh.
  return thread_text.Release(length);
}

}  // namespace varshred
